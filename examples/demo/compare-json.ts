// Did the strict server receive what the model wrote? Compares two JSON texts
// value by value without ever rounding a number.

import { isLosslessNumber, type LosslessNumber, parse, stringify } from "lossless-json";
import { pointerAppend } from "../../src/json-pointer.js";

const INTEGER_LITERAL = /^-?\d+$/;

/** The exact integer a number text denotes, or undefined when it is not whole. */
function exactInteger(text: string): bigint | undefined {
  if (INTEGER_LITERAL.test(text)) return BigInt(text);
  // A float literal from Python's repr is the shortest text of one double:
  // its exact value is that double's.
  const n = Number(text);
  return Number.isInteger(n) ? BigInt(n) : undefined;
}

function sameNumber(a: LosslessNumber, b: LosslessNumber): boolean {
  if (INTEGER_LITERAL.test(a.value) || INTEGER_LITERAL.test(b.value)) {
    const x = exactInteger(a.value);
    return x !== undefined && x === exactInteger(b.value);
  }
  return Number(a.value) === Number(b.value);
}

/**
 * JSON Pointers of the places where `received` differs from `sent`. Members the
 * receiver added (defaults the model left out) are not differences.
 */
export function differences(sentJson: string, receivedJson: string): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (isLosslessNumber(a) || isLosslessNumber(b)) {
      if (!(isLosslessNumber(a) && isLosslessNumber(b) && sameNumber(a, b))) out.push(path);
      return;
    }
    if (Array.isArray(a) || Array.isArray(b)) {
      if (!(Array.isArray(a) && Array.isArray(b) && a.length === b.length)) {
        out.push(path);
        return;
      }
      a.forEach((v, i) => {
        walk(v, b[i], pointerAppend(path, i));
      });
      return;
    }
    if (a !== null && typeof a === "object") {
      if (b === null || typeof b !== "object") {
        out.push(path);
        return;
      }
      for (const key of Object.keys(a)) {
        const bv = Object.hasOwn(b, key) ? (b as Record<string, unknown>)[key] : undefined;
        walk((a as Record<string, unknown>)[key], bv, pointerAppend(path, key));
      }
      return;
    }
    if (a !== b) out.push(path);
  };
  walk(parse(sentJson), parse(receivedJson), "");
  return out;
}

/** The first JSON Pointer where the two texts hold different number texts (1 vs 1.0 counts). */
export function firstNumberTextDifference(aJson: string, bJson: string): string | undefined {
  let found: string | undefined;
  const walk = (a: unknown, b: unknown, path: string): void => {
    if (found !== undefined) return;
    if (isLosslessNumber(a) && isLosslessNumber(b)) {
      if (a.value !== b.value) found = path;
    } else if (Array.isArray(a) && Array.isArray(b)) {
      a.forEach((v, i) => {
        walk(v, b[i], pointerAppend(path, i));
      });
    } else if (a !== null && typeof a === "object" && b !== null && typeof b === "object") {
      for (const key of Object.keys(a)) {
        if (Object.hasOwn(b, key)) {
          walk(
            (a as Record<string, unknown>)[key],
            (b as Record<string, unknown>)[key],
            pointerAppend(path, key),
          );
        }
      }
    }
  };
  walk(parse(aJson), parse(bJson), "");
  return found;
}

/** The member at `key` of a JSON object text, as JSON text with its numbers' digits intact. */
export function memberJson(json: string, key: string): string | undefined {
  const value = parse(json) as Record<string, unknown> | null;
  if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
  return stringify(value[key]);
}
