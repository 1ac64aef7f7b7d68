// Verifying a raw JSON text (raw_args_json, raw_structured_content_json)
// against the Struct that travelled beside it.

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { DiagnosticHandler } from "./diagnostics.js";
import { isStructJsonError, StructJsonError } from "./errors.js";
import { pointerFrom } from "./json-pointer.js";
import type { JsonSchema } from "./json-schema.js";
import { parseJsonObjectText } from "./parse-json.js";
import type { PatternEngine } from "./patterns/engine.js";
import { type CompiledSchema, walkNumbers } from "./schema/index.js";

/** How a receiver treats a raw JSON text carried beside the Struct. */
export type RawJsonMode = "verify" | "trust" | "ignore";

/** The error codes that make a raw text "malformed" (one reading is left: the Struct's). */
const MALFORMED = new Set([
  "invalid-json",
  "duplicate-key",
  "invalid-unicode",
  "number-out-of-range",
  "not-an-object",
  "recursion-limit",
]);

/**
 * Checks that `raw` is one well-formed JSON object agreeing with `struct`
 * (same keys, strings, booleans, nulls, shapes; every number's float64 equal).
 * Returns true when it agrees; false when it is malformed (after reporting
 * `raw-json-invalid`); throws `raw-struct-mismatch` when it is well-formed but
 * disagrees (two readings: never guess). Reports `integer-written-as-float`
 * where a whole number is written with a fraction or exponent at a position
 * the schema reads as integer (`patterns`: the engine for `patternProperties`,
 * as in structToJson; without it such positions read as unknown).
 */
export function verifyRawJson(
  raw: string,
  struct: JsonObject,
  schema: JsonSchema | CompiledSchema | null | undefined,
  recursionLimit: number,
  onDiagnostic: DiagnosticHandler,
  patterns?: PatternEngine,
): boolean {
  const wholeFloats: (string | number)[][] = [];
  let parsed: JsonObject;
  try {
    parsed = parseJsonObjectText(raw, "plain", recursionLimit, {
      wholeWithFraction: (tokens) => wholeFloats.push(tokens.slice()),
    });
  } catch (e) {
    if (isStructJsonError(e) && MALFORMED.has(e.code)) {
      onDiagnostic({ code: "raw-json-invalid", path: "" });
      return false;
    }
    throw e;
  }
  const tokens: (string | number)[] = [];
  if (!agrees(parsed, struct, tokens)) {
    throw new StructJsonError(
      "raw-struct-mismatch",
      pointerFrom(tokens),
      "the raw JSON text and the Struct disagree here (two readings)",
    );
  }
  if (wholeFloats.length > 0 && schema != null) {
    const integers = new Set<string>();
    walkNumbers(
      parsed,
      schema,
      (path, value, reading) => {
        if (reading === "integer" && Number.isInteger(value)) integers.add(pointerFrom(path));
      },
      { patterns, recursionLimit, only: wholeFloats },
    );
    // In the text's order.
    for (const tokens of wholeFloats) {
      const pointer = pointerFrom(tokens);
      if (integers.has(pointer)) onDiagnostic({ code: "integer-written-as-float", path: pointer });
    }
  }
  return true;
}

/** Deep agreement; on a difference, `tokens` is left holding its path. */
function agrees(
  raw: JsonValue,
  struct: JsonValue | undefined,
  tokens: (string | number)[],
): boolean {
  if (typeof raw !== "object" || raw === null) return raw === struct;
  if (typeof struct !== "object" || struct === null) return false;
  if (Array.isArray(raw)) {
    if (!Array.isArray(struct) || raw.length !== struct.length) return false;
    tokens.push(0);
    const last = tokens.length - 1;
    for (let i = 0; i < raw.length; i++) {
      tokens[last] = i;
      if (!agrees(raw[i]!, struct[i], tokens)) return false;
    }
    tokens.pop();
    return true;
  }
  if (Array.isArray(struct)) return false;
  const keys = Object.keys(raw);
  for (const k of keys) {
    tokens.push(k);
    if (!Object.hasOwn(struct, k) || !agrees(raw[k]!, struct[k], tokens)) return false;
    tokens.pop();
  }
  if (Object.keys(struct).length !== keys.length) {
    // A key the raw text lacks: point at the first one.
    for (const k of Object.keys(struct)) {
      if (!Object.hasOwn(raw, k)) {
        tokens.push(k);
        break;
      }
    }
    return false;
  }
  return true;
}
