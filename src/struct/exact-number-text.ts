// Getting number texts that JSON.stringify cannot produce (`1.0`, the exact
// digits of 2**60) into its output without giving up its native speed.

import { nativeJsonText } from "./native-json-text.js";
import { decimalText, digitsText } from "./number-output.js";

/** Collects number texts during a walk and turns the walked value into JSON text. */
export interface ExactTextSink {
  /** A stand-in for the exact digits of the whole number `v` (beyond ±2^53). */
  digits(v: number): unknown;
  /** A stand-in for the decimal literal of the whole number `v` (`3.0`, `-0.0`). */
  decimal(v: number): unknown;
  /** The JSON text of `value`. */
  finish(value: unknown, indent: number | string): string;
}

/**
 * The stand-ins of `0.0` to `1023.0`, made once each: the same JSON.rawJSON
 * object may stand at any number of places (it is frozen and holds no
 * position), and whole numbers written as floats are mostly small.
 */
const smallDecimals: unknown[] = [];
const SMALL_DECIMALS = 1024;

const nativeSink: ExactTextSink = {
  digits: (v) => nativeJsonText!(digitsText(v)),
  decimal(v) {
    if (v >= 0 && v < SMALL_DECIMALS && (v | 0) === v && !Object.is(v, -0)) {
      let made = smallDecimals[v];
      if (made === undefined) {
        made = nativeJsonText!(`${v}.0`);
        smallDecimals[v] = made;
      }
      return made;
    }
    return nativeJsonText!(decimalText(v));
  },
  finish: (value, indent) => JSON.stringify(value, null, indent),
};

/** Uses `JSON.rawJSON` (Node ≥ 21, recent browsers); undefined where the runtime lacks it. */
export function nativeExactTexts(): ExactTextSink | undefined {
  return nativeJsonText === undefined ? undefined : nativeSink;
}

/**
 * The package's one marker scheme (number texts in JSON.stringify's output
 * where the runtime lacks JSON.rawJSON; ../mcp/exact-number.ts): `json` with
 * each marker string `"<prefix><k>"` replaced by `texts[k]`. JSON.stringify
 * visits values in the order they were made, so the markers must appear in
 * index order, each once, and no other string may start with `prefix`;
 * otherwise undefined (a data string looked like a marker: the caller takes
 * a slower path or refuses, never guesses).
 */
export function spliceMarkers(
  json: string,
  prefix: string,
  texts: readonly string[],
): string | undefined {
  const start = `"${prefix}`;
  // Marker k must be the next occurrence, whole; any other occurrence, or one
  // more after the last, means a data string looked like a marker. String
  // concatenation builds a rope: far cheaper here than split/join or an array
  // of parts (measured on a 5 MB row set). The index is read as digits in
  // place (no string per marker).
  let out = "";
  let from = 0;
  const skip = start.length;
  for (let k = 0; k < texts.length; k++) {
    const at = json.indexOf(start, from);
    if (at === -1) return undefined;
    const digits = at + skip;
    let end = digits;
    let n = 0;
    for (let c = json.charCodeAt(end); c >= 48 && c <= 57; c = json.charCodeAt(++end)) {
      n = n * 10 + (c - 48);
    }
    // Exactly `${k}"`: digits, no leading zero, then the closing quote.
    if (
      n !== k ||
      end === digits ||
      (end - digits > 1 && json.charCodeAt(digits) === 48) ||
      json.charCodeAt(end) !== 34
    ) {
      return undefined;
    }
    out += json.slice(from, at) + texts[k];
    from = end + 1;
  }
  if (json.indexOf(start, from) !== -1) return undefined;
  return out + json.slice(from);
}

/**
 * A string as JSON.stringify writes it. Short strings (keys, enums) are
 * scanned here and most need no escape; longer ones go to the native writer,
 * which scans and copies them faster than a scan here plus a copy (measured).
 */
export function jsonString(s: string): string {
  if (s.length > SHORT_STRING) return JSON.stringify(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Quote, backslash, control characters and surrogates (lone ones are escaped): the native writer decides.
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff))
      return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** Strings up to this length are scanned by {@link jsonString} itself (measured: the scan beats a JSON.stringify call up to about 50 characters). */
const SHORT_STRING = 48;

/** A number's text, as written by writeJsonText (./json-text-writer.ts). */
export class RawText {
  constructor(readonly text: string) {}
}
