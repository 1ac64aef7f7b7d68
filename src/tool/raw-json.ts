// Verifying a raw JSON text (raw_args_json, raw_structured_content_json)
// against the Struct that travelled beside it.

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { DiagnosticHandler } from "../diagnostics.js";
import { isStructJsonError, StructJsonError } from "../errors.js";
import { pointerFrom } from "../json-pointer.js";
import type { PatternEngine } from "../patterns/engine.js";
import { type CompiledSchema, walkNumbers } from "../schema/index.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { parseJsonObjectText } from "../struct/parse-json.js";

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

/**
 * The one rule for two scalars (string, number, boolean, null) to agree:
 * `Object.is`, so -0 and +0 differ (their float64s do; the decoder writes
 * them apart) and NaN, which JSON cannot carry, would equal itself.
 */
export function sameScalar(raw: JsonValue, struct: JsonValue | undefined): boolean {
  return Object.is(raw, struct);
}

/** A pair of containers being compared. */
interface Pair {
  readonly raw: JsonObject | readonly JsonValue[];
  readonly struct: JsonObject | readonly JsonValue[];
  /** The raw object's keys; undefined for arrays. */
  readonly keys: readonly string[] | undefined;
  next: number;
}

/**
 * Deep agreement, walked with its own stack (no recursion over the input's
 * depth); on a difference, `tokens` is left holding its path.
 */
function agrees(raw: JsonObject, struct: JsonObject, tokens: (string | number)[]): boolean {
  const stack: Pair[] = [];
  if (!open(raw, struct, stack, tokens)) return false;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const keys = top.keys;
    const length = keys === undefined ? top.raw.length : keys.length;
    if (top.next === length) {
      if (keys !== undefined && Object.keys(top.struct).length !== length) {
        // Every raw key is in the Struct, so the Struct has one the raw text
        // lacks: point at the first.
        for (const k of Object.keys(top.struct)) {
          if (!Object.hasOwn(top.raw, k)) {
            tokens[tokens.length - 1] = k;
            return false;
          }
        }
      }
      stack.pop();
      tokens.pop();
      continue;
    }
    const i = top.next++;
    let r: JsonValue;
    let s: JsonValue | undefined;
    if (keys === undefined) {
      tokens[tokens.length - 1] = i;
      r = (top.raw as readonly JsonValue[])[i]!;
      s = (top.struct as readonly JsonValue[])[i];
    } else {
      const k = keys[i]!;
      tokens[tokens.length - 1] = k;
      if (!Object.hasOwn(top.struct, k)) return false;
      r = (top.raw as JsonObject)[k]!;
      s = (top.struct as JsonObject)[k];
    }
    if (typeof r !== "object" || r === null) {
      if (!sameScalar(r, s)) return false;
    } else if (!open(r, s, stack, tokens)) {
      return false;
    }
  }
  return true;
}

/**
 * Compares two containers' kinds (and arrays' lengths) and pushes the pair
 * with the path slot of its children; false (with `tokens` at the difference)
 * when the shapes differ.
 */
function open(
  raw: JsonObject | readonly JsonValue[],
  struct: JsonValue | undefined,
  stack: Pair[],
  tokens: (string | number)[],
): boolean {
  if (typeof struct !== "object" || struct === null) return false;
  if (Array.isArray(raw)) {
    if (!Array.isArray(struct) || raw.length !== struct.length) return false;
    stack.push({ raw, struct, keys: undefined, next: 0 });
    tokens.push(0);
    return true;
  }
  if (Array.isArray(struct)) return false;
  const keys = Object.keys(raw);
  const structObject = struct as JsonObject;
  stack.push({ raw: raw as JsonObject, struct: structObject, keys, next: 0 });
  tokens.push("");
  return true;
}
