// What a number is written as, given its reading and the options, and which
// codes it reports: the one definition every writer uses (the walk in
// ./to-json.ts, the compiled writers of ./writer-program.ts and
// ./writer-code.ts, and inspectNumbers). Each turns the answer into output
// its own way (text, a number for JSON.stringify, an exact-text stand-in).

import type { DiagnosticCode } from "../diagnostics.js";
import type { NumberReading } from "../schema/index.js";

/** Written as JSON.stringify writes the number itself (no text of our own needed). */
export const AS_NUMBER = 0;
/** Written as its exact integer digits (a whole float64 beyond ±2^53). */
export const AS_DIGITS = 1;
/** Written as a decimal literal: `1.0`, `-0.0` (a whole value the schema reads as *number*). */
export const AS_DECIMAL = 2;

/** One of {@link AS_NUMBER}, {@link AS_DIGITS}, {@link AS_DECIMAL}. */
export type NumberOutput = typeof AS_NUMBER | typeof AS_DIGITS | typeof AS_DECIMAL;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * How a finite number `v` read as `reading` is written (`decimal`: the
 * option wholeFloats is "decimal"), reporting each code through `report` in
 * the order the writer reports them.
 */
export function numberOutput(
  v: number,
  reading: NumberReading,
  decimal: boolean,
  report: (code: DiagnosticCode) => void,
): NumberOutput {
  switch (reading) {
    case "integer":
      if (!Number.isInteger(v)) {
        report("not-an-integer");
        return AS_NUMBER;
      }
      if (v > MAX_SAFE || v < -MAX_SAFE) {
        report("integer-precision-lost");
        return AS_DIGITS;
      }
      return AS_NUMBER;
    case "number":
      // Every float64 of 2^53 or more is whole, and may be an integer id
      // already rounded (servers type ids as `number`): say so.
      if (v > MAX_SAFE || v < -MAX_SAFE) report("number-precision-lost");
      return decimal && Number.isInteger(v) && v < 1e21 && v > -1e21 ? AS_DECIMAL : AS_NUMBER;
    case "ambiguous":
      if (!Number.isInteger(v)) return AS_NUMBER;
      report("ambiguous-number");
      if (v > MAX_SAFE || v < -MAX_SAFE) {
        report("integer-precision-lost");
        return AS_DIGITS;
      }
      return AS_NUMBER;
    default:
      return AS_NUMBER;
  }
}

/**
 * The text of a finite number as JSON.stringify writes it (-0 is "0").
 * Whole numbers below 2^54 outside V8's small integers take their digits
 * from BigInt, as {@link digitsText} does: the same text, faster (see there).
 */
export function plainNumberText(v: number): string {
  if (v <= SMALL_MAX && v >= SMALL_MIN) return v === 0 ? "0" : `${v}`;
  return v < TWO_54 && v > -TWO_54 && Number.isInteger(v) ? BigInt(v).toString() : `${v}`;
}

/** The decimal literal of a whole number below 1e21 ({@link AS_DECIMAL}). */
export function decimalText(v: number): string {
  return Object.is(v, -0) ? "-0.0" : `${v}.0`;
}

/**
 * The exact digits of a whole float64 ({@link AS_DIGITS}), and the text of
 * any whole number below 2^54 (where JS's shortest round-trip text is the
 * integer itself, float64s being at most 2 apart). Above 2^54 `String(v)`
 * may pad with zeros (2**60 is "1152921504606847000"). Outside V8's small
 * integers, `BigInt(v).toString()` is the fastest exact form measured at
 * any size (65–130 ns on distinct values, against 120–300 ns for
 * `String(v)`, which also shares a small per-isolate cache that two numbers
 * of one call can keep evicting from each other).
 */
export function digitsText(v: number): string {
  return v <= SMALL_MAX && v >= SMALL_MIN ? `${v}` : BigInt(v).toString();
}

const TWO_54 = 2 ** 54;
/** V8's small integers (31 bits where pointers are compressed): their text is quick and cached. */
const SMALL_MAX = 2 ** 30 - 1;
const SMALL_MIN = -(2 ** 30);

/** The text of `v` for `output`. */
export function numberText(v: number, output: NumberOutput): string {
  return output === AS_NUMBER
    ? plainNumberText(v)
    : output === AS_DIGITS
      ? digitsText(v)
      : decimalText(v);
}
