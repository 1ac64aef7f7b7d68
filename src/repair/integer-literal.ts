// The one rewrite of arguments the schema already accepts: a whole number
// written with a fraction or exponent (`5.0`, `5e0`) at a position the schema
// reads as integer becomes an integer literal. JSON Schema calls `5.0` an
// integer, but strict servers (Pydantic strict, Rust i64, the JVM) reject it.

import type { DiagnosticCode } from "../diagnostics.js";
import type { JsonPointer } from "../json-pointer.js";
import { pointerAppend } from "../json-pointer.js";
import type { JsonSchema } from "../json-schema.js";
import type { SchemaNode } from "../schema/index.js";
import { arrayScope, numberReading, objectScope, rootNode } from "../schema/index.js";
import { digitsEnd, isJsonNumberText } from "./json-text.js";
import type { JsonNode } from "./json-tree.js";
import type { Candidate } from "./rules.js";

/** Receives the schema reader's findings (e.g. `schema-ref-unresolved`) with their position. */
export type NoteHandler = (code: DiagnosticCode, path: JsonPointer) => void;

/**
 * Integer-literal rewrites for every number whose text has a fraction or an
 * exponent, denotes a whole value exactly (from its digits, not its float64),
 * and sits where the schema's reading is "integer" (not "ambiguous": there a
 * `5.0` may be meant as a number, and choosing is not ours).
 */
export function integerLiteralCandidates(
  root: JsonNode,
  schema: JsonSchema,
  onNote: NoteHandler,
): Candidate[] {
  const out: Candidate[] = [];
  const walk = (node: JsonNode, s: SchemaNode, path: JsonPointer): void => {
    if (s.isUnknown) return;
    const note = (code: DiagnosticCode) => onNote(code, path);
    switch (node.kind) {
      case "object": {
        const byKey = new Map<string, JsonNode>();
        for (const m of node.members) byKey.set(m.key, m.value);
        const scope = objectScope(
          s,
          { has: (key) => byKey.has(key), primitive: (key) => primitiveOf(byKey.get(key)) },
          note,
        );
        for (const m of node.members) walk(m.value, scope.child(m.key), pointerAppend(path, m.key));
        return;
      }
      case "array": {
        const scope = arrayScope(s, node.items.length, note);
        node.items.forEach((item, i) => {
          walk(item, scope.child(i), pointerAppend(path, i));
        });
        return;
      }
      case "number": {
        if (!hasFractionOrExponent(node.text)) return;
        const whole = wholeNumberText(node.text);
        if (whole === undefined) return;
        if (numberReading(s, Number(node.text), note) !== "integer") return;
        out.push({
          path,
          kind: "integer-literal",
          edit: { type: "replace", start: node.start, end: node.end, text: whole },
        });
        return;
      }
      default:
        return;
    }
  };
  walk(root, rootNode(schema), "");
  return out;
}

function primitiveOf(node: JsonNode | undefined): string | number | boolean | null | undefined {
  switch (node?.kind) {
    case "string":
      return node.value;
    case "number":
      return Number(node.text);
    case "true":
      return true;
    case "false":
      return false;
    case "null":
      return null;
    default:
      return undefined;
  }
}

function hasFractionOrExponent(text: string): boolean {
  return text.includes(".") || text.includes("e") || text.includes("E");
}

/**
 * The integer literal a JSON number text denotes, computed from its digits
 * (`9007199254740993.0` → `9007199254740993`, `1.5e1` → `15`, `-0.0` → `0`);
 * undefined when the text is not a whole number (`5.5`, `1e-400`) or would
 * need more than 400 digits (no finite float64 does). Index arithmetic only:
 * linear in the text however many zeros it has.
 */
export function wholeNumberText(text: string): string | undefined {
  if (!isJsonNumberText(text)) return undefined;
  const negative = text.charCodeAt(0) === 0x2d;
  const intStart = negative ? 1 : 0;
  const intEnd = digitsEnd(text, intStart);
  let fractionStart = intEnd;
  let fractionEnd = intEnd;
  if (text.charCodeAt(intEnd) === 0x2e) {
    fractionStart = intEnd + 1;
    fractionEnd = digitsEnd(text, fractionStart);
  }
  // The significant digits: integer and fraction digits together, without
  // leading zeros (skipped by index) or trailing zeros (moved into the scale).
  const digits = text.slice(intStart, intEnd) + text.slice(fractionStart, fractionEnd);
  let first = 0;
  while (first < digits.length && digits.charCodeAt(first) === 0x30) first++;
  if (first === digits.length) return "0";
  let exponent = 0;
  if (fractionEnd < text.length) {
    exponent = Number(text.slice(fractionEnd + 1));
    if (!Number.isSafeInteger(exponent)) return undefined;
  }
  let last = digits.length;
  while (digits.charCodeAt(last - 1) === 0x30) last--;
  const scale = exponent - (fractionEnd - fractionStart) + (digits.length - last);
  if (scale < 0 || last - first + scale > 400) return undefined;
  return (negative ? "-" : "") + digits.slice(first, last) + "0".repeat(scale);
}
