// The one rewrite of arguments the schema already accepts: a whole number
// written with a fraction or exponent (`5.0`, `5e0`) at a position the schema
// reads as integer becomes an integer literal. JSON Schema calls `5.0` an
// integer, but strict servers (Pydantic strict, Rust i64, the JVM) reject it.

import type { JsonValue } from "@bufbuild/protobuf";
import type { DiagnosticCode } from "../diagnostics.js";
import type { JsonPointer } from "../json-pointer.js";
import { pointerFrom } from "../json-pointer.js";
import { re2Patterns } from "../patterns/re2.js";
import { walkNumbers } from "../schema/index.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { wholeNumberText } from "../struct/number-text.js";
import type { JsonNode, NumberNode } from "./json-tree.js";
import { validationValue } from "./json-tree.js";
import type { Candidate } from "./rules.js";

/** Receives the schema reader's findings (e.g. `schema-ref-unresolved`) with their position. */
export type NoteHandler = (code: DiagnosticCode, path: JsonPointer) => void;

/**
 * Integer-literal rewrites for every number whose text has a fraction or an
 * exponent, denotes a whole value exactly (from its digits, not its float64),
 * and sits where the schema's reading is "integer" (not "ambiguous": there a
 * `5.0` may be meant as a number, and choosing is not ours). The readings come
 * from the schema engine's one walk (walkNumbers), along the paths of those
 * numbers only, with the linear-time pattern engine for `patternProperties`
 * and the engine's own per-call budget (its notes say where it gave up).
 */
export function integerLiteralCandidates(
  root: JsonNode,
  schema: JsonSchema,
  onNote: NoteHandler,
): Candidate[] {
  const numbers = new Map<JsonPointer, NumberNode>();
  const paths: (string | number)[][] = [];
  const tokens: (string | number)[] = [];
  const collect = (node: JsonNode): void => {
    if (node.kind === "object") {
      for (const m of node.members) {
        tokens.push(m.key);
        collect(m.value);
        tokens.pop();
      }
    } else if (node.kind === "array") {
      node.items.forEach((item, i) => {
        tokens.push(i);
        collect(item);
        tokens.pop();
      });
    } else if (node.kind === "number" && hasFractionOrExponent(node.text)) {
      numbers.set(pointerFrom(tokens), node);
      paths.push([...tokens]);
    }
  };
  collect(root);
  if (paths.length === 0) return [];
  const out: { candidate: Candidate; start: number }[] = [];
  walkNumbers(
    validationValue(root) as JsonValue,
    schema,
    (path, _value, reading) => {
      if (reading !== "integer") return;
      const pointer = pointerFrom(path);
      const node = numbers.get(pointer);
      const whole = node === undefined ? undefined : wholeNumberText(node.text);
      if (node === undefined || whole === undefined) return;
      const edit = { type: "replace", start: node.start, end: node.end, text: whole } as const;
      out.push({ candidate: { path: pointer, kind: "integer-literal", edit }, start: node.start });
    },
    {
      patterns: re2Patterns,
      onNote: (code, path) => onNote(code, pointerFrom(path)),
      recursionLimit: Number.MAX_SAFE_INTEGER, // the text's nesting was checked when it was read
      only: paths,
    },
  );
  // In text order (object keys that look like integers come first in a plain object).
  out.sort((a, b) => a.start - b.start);
  return out.map((c) => c.candidate);
}

function hasFractionOrExponent(text: string): boolean {
  return text.includes(".") || text.includes("e") || text.includes("E");
}
