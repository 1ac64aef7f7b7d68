// A JSON number's text: its grammar, the decimal it denotes, and the questions
// about it that its float64 cannot answer. Index arithmetic only, never a
// regex: linear in the text however many digits or zeros it has.

/** A decimal as sign, significant digits (no leading or trailing zeros) and the exponent of the last digit. */
interface Decimal {
  negative: boolean;
  digits: string;
  exponent: number;
}

/**
 * The decimal a JSON number text denotes. Index arithmetic only (no regex):
 * linear in the text, however many zeros it has (`1.000…0001`).
 */
function decimal(text: string): Decimal {
  let i = 0;
  const negative = text.charCodeAt(0) === 45;
  if (negative) i = 1;
  let e = text.indexOf("e", i);
  if (e === -1) e = text.indexOf("E", i);
  const end = e === -1 ? text.length : e;
  let exponent = e === -1 ? 0 : Number(text.slice(e + 1));
  const dot = text.indexOf(".", i);
  const hasDot = dot !== -1 && dot < end;
  if (hasDot) exponent -= end - dot - 1;
  // Significant digits: from the first non-zero digit to the last one, skipping the dot.
  let first = i;
  while (first < end && (text.charCodeAt(first) === 48 || text.charCodeAt(first) === 46)) first++;
  let last = end - 1;
  while (last >= first && (text.charCodeAt(last) === 48 || text.charCodeAt(last) === 46)) {
    // Each trailing zero dropped is one power of ten (the dot is skipped).
    if (text.charCodeAt(last) === 48) exponent++;
    last--;
  }
  if (first > last) return { negative, digits: "", exponent: 0 };
  const digits =
    hasDot && first < dot && last > dot
      ? text.slice(first, dot) + text.slice(dot + 1, last + 1)
      : text.slice(first, last + 1);
  return { negative, digits, exponent };
}

/**
 * True when the float64 `value` parsed from `text` (`integerText`: written with
 * neither fraction nor exponent) cannot give back the number
 * written: neither its shortest form nor (for whole values) its exact integer
 * denotes what `text` does (9007199254740993, 0.30000000000000000001, 1e-400).
 * `5.0` vs `5`, `1.10` vs `1.1`, `-0` vs `0` and `0.1` are not losses.
 */
export function numberTextLosesPrecision(
  text: string,
  value: number,
  integerText = false,
): boolean {
  // The common case, and cheap: the text already is the float64's shortest form
  // (as plain digits, that is its value only below 2^53: String(2**60) is
  // 1152921504606847000, but 2**60 is 1152921504606846976, the digits an
  // integer position is written with, so those go on to the exact rule).
  if (text === String(value) && !(integerText && Math.abs(value) >= 2 ** 53)) return false;
  // An integer written without fraction or exponent (JSON allows no leading
  // zeros, and "-0" is short enough never to get here): exact iff its digits
  // are the float64's exact digits.
  if (integerText && text.length > 2) return BigInt(value).toString() !== text;
  const written = decimal(text);
  if (sameDecimal(written, decimal(String(value)))) return false;
  // A whole float64 is also exactly its integer (2**60 is 1152921504606846976,
  // though its shortest form is 1152921504606847000): the decoder writes those digits.
  return !(Number.isInteger(value) && sameDecimal(written, decimal(BigInt(value).toString())));
}

/**
 * True when `text` is its float64 rounded to as many significant digits as it
 * has (at most 100): what a writer of float64s writes at any precision
 * (protobuf-es's ProtoJSON writes 2^60 as `1152921504606847000`, JDK 8's
 * `Double.toString` as `1.15292150460684698E18`), so that the text stands for
 * the float64 it carries rather than for another number. Not so for
 * `9007199254740993`, `0.30000000000000000001` or `1e-400`.
 */
export function isFloatText(text: string): boolean {
  const written = decimal(text);
  const n = written.digits.length;
  return n <= 100 && sameDecimal(written, decimal(Number(text).toPrecision(Math.max(n, 1))));
}

function sameDecimal(a: Decimal, b: Decimal): boolean {
  if (a.digits === "" || b.digits === "") return a.digits === b.digits;
  return a.negative === b.negative && a.digits === b.digits && a.exponent === b.exponent;
}

/**
 * True for a whole number written with a fraction or an exponent (`5.0`,
 * `5e0`, `1.5e1`; not `5`): what the parser's `wholeWithFraction` reports and
 * raw-text verification looks for again in a text's spans. `plain`: `text`
 * has neither; `value` is its float64.
 */
export function isWholeWithFraction(text: string, value: number, plain: boolean): boolean {
  return !plain && Number.isInteger(value) && numberTextIsWhole(text);
}

/** True when `text` denotes a whole number (`5.0`, `5e0`, `1.5e1`, `120000.0`), exactly. */
export function numberTextIsWhole(text: string): boolean {
  const d = decimal(text);
  return d.digits === "" || d.exponent >= 0;
}

/**
 * The integer literal a JSON number text denotes, computed from its digits
 * (`9007199254740993.0` → `9007199254740993`, `1.5e1` → `15`, `-0.0` → `0`);
 * undefined when the text is not a JSON number, not a whole number (`5.5`,
 * `1e-400`), or would need more than 400 digits (no finite float64 does).
 */
export function wholeNumberText(text: string): string | undefined {
  if (!isJsonNumberText(text)) return undefined;
  const d = decimal(text);
  if (d.digits === "") return "0";
  if (d.exponent < 0 || d.digits.length + d.exponent > 400) return undefined;
  return (d.negative ? "-" : "") + d.digits + "0".repeat(d.exponent);
}

/** True when `s` is exactly one JSON number (RFC 8259 grammar, no whitespace). */
export function isJsonNumberText(s: string): boolean {
  const n = s.length;
  let i = 0;
  if (s.charCodeAt(i) === 0x2d) i++;
  if (s.charCodeAt(i) === 0x30) i++;
  else if (isDigit1to9(s.charCodeAt(i))) i = digitsEnd(s, i + 1);
  else return false;
  if (s.charCodeAt(i) === 0x2e) {
    const end = digitsEnd(s, i + 1);
    if (end === i + 1) return false;
    i = end;
  }
  const e = s.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = s.charCodeAt(i);
    if (sign === 0x2b || sign === 0x2d) i++;
    const end = digitsEnd(s, i);
    if (end === i) return false;
    i = end;
  }
  return i === n;
}

function isDigit1to9(c: number): boolean {
  return c >= 0x31 && c <= 0x39;
}

/** The index after the run of ASCII digits starting at `i`. */
export function digitsEnd(s: string, i: number): number {
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    i++;
  }
  return i;
}
