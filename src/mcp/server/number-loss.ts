// Which numbers of a JSON text a JavaScript number would change: an integer
// that float64 cannot hold (9007199254740993 arrives as 9007199254740992) and
// anything beyond float64's range (1e400 arrives as Infinity). Other
// fractions are read as their nearest float64, which is what they mean.

import { type JsonPointer, pointerFrom } from "../../json-pointer.js";
import { numberTextIsWhole, numberTextLosesPrecision } from "../../struct/number-text.js";
import { buildExactJson } from "../exact-parse.js";

/** How a number's value would change in a JavaScript number. */
export type NumberLossCode = "integer-precision-lost" | "number-out-of-range";

/** One number of the arguments that a JavaScript number would change. */
export interface NumberLoss {
  readonly code: NumberLossCode;
  readonly path: JsonPointer;
  /** The number's JSON text, exactly as written. */
  readonly text: string;
}

const TWO_POW_53 = 2 ** 53;

const NUMBER_PARTS = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The integer `text` denotes (`9007199254740993`, `9.007199254740993e15`,
 * `12.0`), or undefined when it denotes a fraction or lies beyond float64's
 * range (so that no text can ask for a bigint of a billion digits).
 */
export function exactInteger(text: string): bigint | undefined {
  if (!Number.isFinite(Number(text)) || !numberTextIsWhole(text)) return undefined;
  const [, sign, whole, fraction = "", exponent = "0"] = NUMBER_PARTS.exec(text) ?? [];
  if (whole === undefined) return undefined;
  // Whole and finite: shifting the digits by the exponent drops only zeros, and leaves at most 309 digits.
  const shift = Number(exponent) - fraction.length;
  const digits = whole + fraction;
  const magnitude =
    shift >= 0
      ? BigInt(digits) * 10n ** BigInt(shift)
      : BigInt(digits.slice(0, digits.length + shift) || "0");
  return sign === "-" ? -magnitude : magnitude;
}

const PLAIN_INTEGER = /^-?\d+$/;

/** How a JavaScript number would change the number written as `text`; undefined when it would not. */
export function numberLoss(text: string): NumberLossCode | undefined {
  const value = Number(text);
  if (!Number.isFinite(value)) return "number-out-of-range";
  if (Math.abs(value) < TWO_POW_53) return undefined;
  // A fraction's float64 is its reading; a whole number must be held exactly
  // (plain digits as the float64's exact digits: see numberTextLosesPrecision).
  return numberTextIsWhole(text) && numberTextLosesPrecision(text, value, PLAIN_INTEGER.test(text))
    ? "integer-precision-lost"
    : undefined;
}

/**
 * The numbers of `text` (well-formed JSON) that a JavaScript number would
 * change, in text order: at most `limit` of each code (the others are not
 * listed, so that a text of a million such numbers costs no million paths).
 */
export function numberLosses(text: string, limit = Number.POSITIVE_INFINITY): NumberLoss[] {
  const losses: NumberLoss[] = [];
  const counts = { "integer-precision-lost": 0, "number-out-of-range": 0 };
  buildExactJson(text, (written, path) => {
    const code = numberLoss(written);
    if (code !== undefined && counts[code]++ < limit)
      losses.push({ code, path: path(), text: written });
    return 0;
  });
  return losses;
}

/**
 * Numbers in an already parsed value that may have been changed on the way
 * (integers beyond 2^53, non-finite values): where no exact text exists to
 * tell, such a number cannot be trusted.
 */
export function suspectNumbers(value: unknown, limit = Number.POSITIVE_INFINITY): NumberLoss[] {
  interface Node {
    readonly value: unknown;
    readonly parent: Node | undefined;
    readonly token: string | number;
  }
  const pathOf = (node: Node): JsonPointer => {
    const tokens: (string | number)[] = [];
    for (let n: Node | undefined = node; n?.parent !== undefined; n = n.parent)
      tokens.push(n.token);
    return pointerFrom(tokens.reverse());
  };
  const losses: NumberLoss[] = [];
  const stack: Node[] = [{ value, parent: undefined, token: "" }];
  while (stack.length > 0 && losses.length < limit) {
    const node = stack.pop()!;
    const v = node.value;
    if (typeof v === "number") {
      if (!Number.isFinite(v))
        losses.push({ code: "number-out-of-range", path: pathOf(node), text: "" });
      else if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
        losses.push({ code: "integer-precision-lost", path: pathOf(node), text: "" });
      }
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: node, token: i });
    } else if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({
          value: (v as Record<string, unknown>)[keys[i]!],
          parent: node,
          token: keys[i]!,
        });
      }
    }
  }
  return losses;
}
