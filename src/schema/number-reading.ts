// Readings as small integers, ordered so that a conjunction is the maximum:
// drop < unknown < number < ambiguous < integer < none.
import type { NumberReading } from "./types.js";

/** A reading inside the reader: "drop" (a cut cycle: contributes nothing) and "none" (numbers not admitted) never leave it. */
export type Reading = 0 | 1 | 2 | 3 | 4 | 5;
/** Contributes nothing (a recursion cut); identity of both combinations. */
export const R_DROP = 0;
/** Describes nothing about numbers. */
export const R_UNKNOWN = 1;
/** Admits non-integers. */
export const R_NUMBER = 2;
/** Admits both integers and non-integers, by different readings. */
export const R_AMBIGUOUS = 3;
/** Admits only integers. */
export const R_INTEGER = 4;
/** Admits no number at all. */
export const R_NONE = 5;

/** The public name of each reading; "none" and "drop" read as "unknown" to the writer. */
export const PUBLIC_READING: readonly NumberReading[] = [
  "unknown",
  "unknown",
  "number",
  "ambiguous",
  "integer",
  "unknown",
];

/** Conjunction: none wins, then integer, ambiguous, number, unknown. */
export function conjunction(a: Reading, b: Reading): Reading {
  return a > b ? a : b;
}

const BIT_UNKNOWN = 1 << R_UNKNOWN;
const BIT_NUMBER = 1 << R_NUMBER;
const BIT_AMBIGUOUS = 1 << R_AMBIGUOUS;
const BIT_INTEGER = 1 << R_INTEGER;
const BIT_NONE = 1 << R_NONE;
const USABLE = BIT_UNKNOWN | BIT_NUMBER | BIT_AMBIGUOUS | BIT_INTEGER;

/** The bit a branch's reading adds to a disjunction's mask. */
export function readingBit(r: Reading): number {
  return 1 << r;
}

/**
 * Disjunction of the readings whose bits are in `mask`. "None" branches are
 * ignored (all none → none). For a non-whole value, integer branches cannot
 * match and are set aside first, unless nothing that admits numbers is left.
 */
export function disjunction(mask: number, whole: boolean): Reading {
  if (!whole && (mask & USABLE & ~BIT_INTEGER) !== 0) return fromMask(mask & ~BIT_INTEGER);
  return fromMask(mask);
}

function fromMask(m: number): Reading {
  if ((m & USABLE) === 0) return (m & BIT_NONE) !== 0 ? R_NONE : R_DROP;
  if ((m & BIT_AMBIGUOUS) !== 0) return R_AMBIGUOUS;
  if ((m & BIT_INTEGER) !== 0)
    return (m & (BIT_NUMBER | BIT_UNKNOWN)) !== 0 ? R_AMBIGUOUS : R_INTEGER;
  return (m & BIT_NUMBER) !== 0 ? R_NUMBER : R_UNKNOWN;
}
