// The package's own JSON writer: a walked value written as UTF-8 bytes into
// one buffer, decoded into the output string in one native step.
//
// It serves what JSON.stringify cannot: number texts of its own (RawText;
// Whole for `1.0` and the exact digits of 2**60) without JSON.rawJSON, any
// depth (its own stack), keys sorted (canonical output); and large outputs,
// where the time goes into making the final string rather than into the
// values: JSON.stringify builds its text in parts, a splice of number texts
// builds a rope, and either is copied again when first read, while
// TextDecoder makes the string at once.
// Measured on the bench's 5 MB row set (bench/RESULTS.md, session 14), ÷
// protobuf-es's toJsonString: Node 20 0.59× → 0.76×, Node 24 1.0× → 1.55×,
// and less heap than either. Small outputs stay text, and outputs with many
// fractions but no size stay with JSON.rawJSON and the native writer, whose
// number conversion makes no string per number. Short printable ASCII is
// copied here; long strings and all others go to the runtime's TextEncoder,
// which copies a long one several times faster than a loop here (session 20,
// on the row set, an Intel VM, alternated: Node 20 0.73–0.76× → 0.76×, and
// 0.50× → 0.56–0.57× JSON.stringify; Node 24 0.90–0.91× → 0.98–1.00×).
// Joining long strings with the decoded rest instead, rather than encoding
// and decoding them, reached 1.0× on Node 20 but held 2 MiB more heap there,
// and on Node 24, whose TextDecoder makes its string off the heap, 2.5 times
// as much (bench/RESULTS.md). A UTF-8 encoder written here measured 1.69× and
// 1.47× on Node 24 against 1.55–1.58× in the same harness, alike on Node 20,
// and less heap, but did not fit the browser bundle's 30 kB budget; measured
// again in session 16, it lost on Node 20, 0.52–0.53× against 0.72–0.79×.
// The writer allocates little per value (the texts of numbers of more than
// 15 digits or 6 decimals, a view and a result per string the encoder
// writes): numbers are written from their digits where they can be, `true`,
// `false` and `null` are constants (JSON.stringify of each made a new string)
// and the open containers are lists, not an object each: on the row set, Node
// 20, the call's heap growth 23.9 → 20.5 MiB and 0.73–0.75× → 0.84–0.85×
// toJsonString (Node 24: 1.46–1.47× → 1.57–1.63×).

import { type ExactTextSink, RawText } from "./exact-number-text.js";
import { decimalText, digitsText } from "./number-output.js";
import { indentString } from "./to-json-options.js";

/** The runtime's UTF-8 decoder (every browser, Node, Deno, Bun, workers); looked up when first needed. */
let decoder: { decode(bytes: Uint8Array): string } | undefined;

/** The runtime's UTF-8 encoder; looked up when first needed. */
let encoder: TextEncoder | undefined;

/**
 * The buffer, kept from call to call while it is at most KEEP_BYTES long
 * (a new one costs the page faults of its size on every call). It is zeroed
 * after each use: no argument value outlives its call (SECURITY.md).
 */
let bytes = new Uint8Array(0);
let at = 0;

/** Longest buffer kept between calls (16 MiB); a longer one is dropped after its call. */
const KEEP_BYTES = 2 ** 24;

/** Room for `n` more bytes: a buffer twice what is needed (the old one zeroed). */
function room(n: number): void {
  if (at + n <= bytes.length) return;
  const next = new Uint8Array((at + n) * 2);
  next.set(bytes.subarray(0, at));
  bytes.fill(0, 0, at);
  bytes = next;
}

/** Text made only of ASCII characters (number texts, literals, ASCII indentation). */
function ascii(t: string): void {
  room(t.length);
  for (let i = 0; i < t.length; i++) bytes[at++] = t.charCodeAt(i);
}

/**
 * Indentation with characters outside ASCII (an indent string may hold any;
 * the options refuse a lone surrogate, which UTF-8 cannot carry).
 */
function wide(t: string): void {
  room(t.length * 3);
  encodeHere(t);
}

/** `t` written by the runtime's encoder at `at`; the caller made room for 3 bytes per UTF-16 unit. */
function encodeHere(t: string): void {
  encoder ??= new TextEncoder();
  at += encoder.encodeInto(t, bytes.subarray(at)).written;
}

/**
 * What JSON.stringify may escape in a string: control characters, quote,
 * backslash, a surrogate. Paired surrogates too, which JSON.stringify writes
 * as they are: with the `u` flag the test would pass over them, but it scans
 * two-byte strings about twice as slowly (Node 20 and 24), and such a string
 * comes out of JSON.stringify the same.
 */
const ESCAPED = /[\0-\x1f"\\\ud800-\udfff]/;

/**
 * Strings at least this long go to the runtime's encoder even when they are
 * printable ASCII: past its fixed cost per call it copies them several times
 * faster than the loop here (20,000 strings of 200 characters: 5.4 ms against
 * 11 ms on Node 20 and 24; break-even near 48).
 */
const ENCODER_LENGTH = 64;

/**
 * `s` as JSON.stringify writes a string, in UTF-8. Short printable ASCII
 * (most keys, many values) is copied here; anything else goes to the runtime:
 * its TextEncoder, after JSON.stringify's escapes where the string needs any.
 */
function string(s: string): void {
  const n = s.length;
  if (n >= ENCODER_LENGTH) {
    encoded(s);
    return;
  }
  room(n + 2);
  let q = at;
  bytes[q++] = 34;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 34 || c === 92 || c > 0x7e) {
      encoded(s);
      return;
    }
    bytes[q++] = c;
  }
  bytes[q++] = 34;
  at = q;
}

/** `s` as JSON.stringify writes it, encoded by the runtime: at most 3 bytes per UTF-16 unit. */
function encoded(s: string): void {
  const plain = !ESCAPED.test(s);
  const t = plain ? s : JSON.stringify(s);
  room(t.length * 3 + 2);
  if (plain) bytes[at++] = 34;
  encodeHere(t);
  if (plain) bytes[at++] = 34;
}

/** One byte: a bracket, a comma, a colon or a space. */
function mark(c: number): void {
  room(1);
  bytes[at++] = c;
}

/**
 * Writes a walked value as JSON text: strings and numbers exactly as
 * JSON.stringify does, {@link RawText} as its text and a {@link Whole} as its
 * exact digits or decimal literal, keys in order or sorted by
 * UTF-16 code units (RFC 8785), indented like JSON.stringify when `indent` is
 * set (`toJSON` is not called, and a value JSON has no text for is `null`).
 * Iterative (its own stack of open containers), so any depth is safe.
 * `value` is one this package built or parsed (plain objects and arrays of
 * JSON values, no getters or proxies), so no caller code runs while the one
 * buffer is in use and no call can start inside another.
 */
export function writeJsonText(value: unknown, indent: string, sortKeys: boolean): string {
  try {
    return write(value, indent, sortKeys);
  } finally {
    bytes.fill(0, 0, at);
    at = 0;
    if (bytes.length > KEEP_BYTES) bytes = new Uint8Array(0);
  }
}

function write(value: unknown, indent: string, sortKeys: boolean): string {
  // The open containers, outermost first, as lists side by side: no object
  // per container (a 5 MB row set opens 20,000). Each has its value, its keys
  // in writing order (undefined for an array), its length, the next member,
  // and the line break and indentation before each member (the one before the
  // closing bracket is its parent's).
  const values: object[] = [];
  const keyLists: (string[] | undefined)[] = [];
  const lengths: number[] = [];
  const nexts: number[] = [];
  const inners: string[] = [];
  let top = -1;
  let v = value;
  // Indentation is the indent string repeated after a line break: ASCII when the indent is.
  const pad = /^[\0-\x7f]*$/.test(indent) ? ascii : wide;
  for (;;) {
    // Write `v`, opening it if it is an array or object.
    if (typeof v !== "object" || v === null || v instanceof Whole || v instanceof RawText) leaf(v);
    else {
      const array = Array.isArray(v);
      const keys = array ? undefined : Object.keys(v);
      if (keys !== undefined && sortKeys) keys.sort();
      const length = keys === undefined ? (v as unknown[]).length : keys.length;
      mark(array ? 91 : 123);
      if (length === 0) mark(array ? 93 : 125);
      else {
        const outer = top < 0 ? "\n" : inners[top]!;
        top++;
        values[top] = v;
        keyLists[top] = keys;
        lengths[top] = length;
        nexts[top] = 0;
        inners[top] = indent === "" ? "" : outer + indent;
      }
    }
    // Close what is finished, then read the next member.
    while (top >= 0 && nexts[top] === lengths[top]) {
      if (indent !== "") pad(top === 0 ? "\n" : inners[top - 1]!);
      mark(keyLists[top] === undefined ? 93 : 125);
      top--;
    }
    if (top < 0) {
      // UTF-8 by default; a BOM cannot lead: JSON text starts with a bracket, a quote, a digit, `-` or a letter.
      decoder ??= new TextDecoder();
      return decoder.decode(bytes.subarray(0, at));
    }
    const i = nexts[top]!++;
    if (i > 0) mark(44);
    if (indent !== "") pad(inners[top]!);
    const keys = keyLists[top];
    if (keys === undefined) v = (values[top] as unknown[])[i];
    else {
      const k = keys[i]!;
      string(k);
      mark(58);
      if (indent !== "") mark(32);
      v = (values[top] as Record<string, unknown>)[k];
    }
  }
}

/** A value that is not an array or object: as JSON.stringify writes it; `null` where JSON has no text. */
function leaf(v: unknown): void {
  if (typeof v === "string") string(v);
  else if (typeof v === "number") {
    if (!decimals(v)) ascii(Number.isFinite(v) ? String(v) : "null");
  } else if (v instanceof Whole) whole(v.v, v.decimal);
  else if (v instanceof RawText) ascii(v.text);
  // Booleans and null as constants: JSON.stringify makes a new string each time.
  else
    ascii(
      v === null
        ? "null"
        : v === true
          ? "true"
          : v === false
            ? "false"
            : (JSON.stringify(v) ?? "null"),
    );
}

/**
 * A number whose shortest text has at most 15 significant digits and at
 * most 6 decimals (counts, ids, prices, measures: most numbers in tool
 * calls), written here from its digits; false, writing nothing, for any
 * other. Such a number is n / 10^k for a whole n below 10^15, and no other
 * decimal of at most 15 digits reads as the same float64 (15 digits is
 * float64's guaranteed decimal precision, DBL_DIG), so n's digits with the
 * point k places from the right are the shortest round-trip text: what
 * JSON.stringify writes (from 10^-6 up it writes no exponent; −0 as `0`).
 * String(v) makes a string per number, 130–190 ns for a fraction not
 * converted before, against about 35 ns here (bench/RESULTS.md, session 23).
 */
function decimals(v: number): boolean {
  const a = v < 0 ? -v : v;
  for (let k = 0, scale = 1; k <= 6; k++, scale *= 10) {
    const n = Math.round(a * scale);
    if (n / scale !== a) continue;
    if (n >= 1e15) return false;
    room(18);
    if (v < 0) bytes[at++] = 45;
    // The smallest such k leaves no trailing zero (k − 1 would have read n / 10).
    const whole = Math.floor(n / scale);
    digits(whole, 1);
    if (k > 0) {
      bytes[at++] = 46;
      digits(n - whole * scale, k);
    }
    return true;
  }
  return false;
}

/**
 * A whole `n` below 2^53 as at least `width` digits (zeros in front); the
 * caller made room. In parts below 10^9, so that the loop divides 32-bit
 * integers (a float64 division per digit took three times as long).
 */
function digits(n: number, width: number): void {
  if (n >= 1e9) {
    const high = Math.floor(n / 1e9);
    digits(high, width - 9);
    n -= high * 1e9;
    width = 9;
  }
  let m = n | 0;
  let d = 1;
  for (let p = 10; p <= m; p *= 10) d++;
  if (d < width) d = width;
  let q = at + d;
  at = q;
  for (; d > 0; d--) {
    const rest = (m / 10) | 0;
    bytes[--q] = 48 + m - rest * 10;
    m = rest;
  }
}

/**
 * The whole number `v` as its exact digits, or as its decimal literal
 * (`12.0`, `-0.0`). Below 2^64 the digits come from float64 arithmetic that
 * stays exact: `v` is hi·2^32 + lo, its last nine digits r are that sum's
 * remainder by 10^9 from parts below 2^53, and the rest, (v − r) / 10^9,
 * is off by far less than ½ before rounding. No string is made (BigInt(v)
 * .toString() makes two objects, 50–85 ns).
 */
function whole(v: number, decimal: boolean): void {
  const a = v < 0 ? -v : v;
  if (decimal) {
    if (Object.is(v, -0) || !decimals(v)) ascii(decimalText(v));
    else ascii(".0");
  } else if (a < 2 ** 64 && a >= 1e15) {
    const hi = Math.floor(a / 2 ** 32);
    const top = Math.floor(hi / 2 ** 16);
    // 2^48 and 2^32 modulo 10^9.
    const sum = top * 976710656 + (hi - top * 2 ** 16) * 294967296 + (a - hi * 2 ** 32);
    const r = sum - Math.floor(sum / 1e9) * 1e9;
    room(21);
    if (v < 0) bytes[at++] = 45;
    digits(Math.round((a - r) / 1e9), 1);
    digits(r, 9);
  } else ascii(digitsText(v));
}

/**
 * A whole number that only {@link writeJsonText} writes: its exact digits, or
 * (`decimal`) its decimal literal, with no string made for either.
 */
class Whole {
  constructor(
    readonly v: number,
    readonly decimal: boolean,
  ) {}
}

/** Stand-ins that only {@link writeJsonText} understands: no data can look like one. */
export function objectExactTexts(): ExactTextSink {
  return {
    digits: (v) => new Whole(v, false),
    decimal: (v) => new Whole(v, true),
    finish: (value, indent) => writeJsonText(value, indentString(indent), false),
  };
}
