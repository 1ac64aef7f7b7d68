// The one rewrite of arguments the schema already accepts: a whole number
// written with a fraction or exponent (`5.0`, `5e0`) at a position the schema
// reads as integer becomes an integer literal. JSON Schema calls `5.0` an
// integer, but strict servers (Pydantic strict, Rust i64, the JVM) reject it.

import type { JsonValue } from "@bufbuild/protobuf";
import type { DiagnosticCode } from "../diagnostics.js";
import type { JsonPointer } from "../json-pointer.js";
import { pointerFrom } from "../json-pointer.js";
import { re2Patterns } from "../patterns/re2.js";
import { type PathTree, pathTreeBranch, walkNumbers } from "../schema/index.js";
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
 * `5.0` may be meant as a number, and choosing is not ours); and, in
 * `notWhole`, the integer positions whose number text is not whole though its
 * float64 is (`1e-400`): those fail `type` for a reader of the text. The readings come
 * from the schema engine's one walk (walkNumbers), along the paths of those
 * numbers only, with the linear-time pattern engine for `patternProperties`
 * and the engine's own per-call budget (its notes say where it gave up).
 */
export function integerLiteralCandidates(
  root: JsonNode,
  schema: JsonSchema,
  onNote: NoteHandler,
): { candidates: Candidate[]; notWhole: JsonPointer[] } {
  // Each number's leaf in the walk's `only` tree (its own empty tree), looked
  // up along the walk's path. Never a Map keyed by pointers: V8 hashes a string
  // past 16,383 characters by its length alone, so the pointers under one long
  // key all collided (4,000 `1.0` under a 20,000-character key took 24 s).
  const only: PathTree = new Map();
  const numbers = new Map<PathTree, NumberNode>();
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
      const at = pathTreeBranch(only, tokens);
      const leaf: PathTree = new Map();
      at.set(tokens[tokens.length - 1]!, leaf);
      numbers.set(leaf, node);
    }
  };
  collect(root);
  if (numbers.size === 0) return { candidates: [], notWhole: [] };
  const out: { candidate: Candidate; start: number }[] = [];
  const notWhole: { path: JsonPointer; start: number }[] = [];
  walkNumbers(
    validationValue(root) as JsonValue,
    schema,
    (path, _value, reading) => {
      if (reading !== "integer") return;
      let at: PathTree | undefined = only;
      for (const token of path) at = at?.get(token);
      const node = at === undefined ? undefined : numbers.get(at);
      if (node === undefined) return;
      const whole = wholeNumberText(node.text);
      const pointer = pointerFrom(path);
      if (whole === undefined) {
        // Valid to ajv, which reads the float64 (whole for `1e-400`,
        // `1.0000000000000001`); the text, which strict servers read, is not an integer.
        notWhole.push({ path: pointer, start: node.start });
        return;
      }
      const edit = { type: "replace", start: node.start, end: node.end, text: whole } as const;
      out.push({ candidate: { path: pointer, kind: "integer-literal", edit }, start: node.start });
    },
    {
      patterns: re2Patterns,
      onNote: (code, path) => onNote(code, pointerFrom(path)),
      recursionLimit: Number.MAX_SAFE_INTEGER, // the text's nesting was checked when it was read
      only,
    },
  );
  // In text order (object keys that look like integers come first in a plain object).
  out.sort((a, b) => a.start - b.start);
  notWhole.sort((a, b) => a.start - b.start);
  return { candidates: out.map((c) => c.candidate), notWhole: notWhole.map((n) => n.path) };
}

function hasFractionOrExponent(text: string): boolean {
  return text.includes(".") || text.includes("e") || text.includes("E");
}
