// Getting number texts that JSON.stringify cannot produce (`1.0`, the exact
// digits of 2**60) into its output without giving up its native speed.

import { nativeJsonText } from "./native-json-text.js";
import { decimalText } from "./number-output.js";

/** Collects number texts during a walk and turns the walked value into JSON text. */
export interface ExactTextSink {
  /** A stand-in for `text` to put in the walked value. */
  text(text: string): unknown;
  /** A stand-in for the decimal literal of the whole number `v` (`3.0`, `-0.0`). */
  decimal(v: number): unknown;
  /** The JSON text of `value`; undefined when the stand-ins could not be told apart from the data. */
  finish(value: unknown, indent: number | string): string | undefined;
}

/**
 * The stand-ins of `0.0` to `1023.0`, made once each: the same JSON.rawJSON
 * object may stand at any number of places (it is frozen and holds no
 * position), and whole numbers written as floats are mostly small.
 */
const smallDecimals: unknown[] = [];
const SMALL_DECIMALS = 1024;

const nativeSink: ExactTextSink = {
  text: (text) => nativeJsonText!(text),
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

// A marker is the string "\u0080" + index. U+0080 (a C1 control) is written
// by JSON.stringify as itself, so markers stay on its fast path and keep
// Latin-1 output one-byte; and `"\u0080` (quote, U+0080) can only arise from
// a string that starts with it: one of our markers, or a data string that
// happens to look like one. JSON.stringify visits values in the order the walk
// created them, so the markers appear in index order; any occurrence that is
// not the next marker, or one too many, means a look-alike, and the caller
// falls back to the slow path (exactly one occurrence per marker proves there
// was none).
const MARKER_CHAR = "\u0080";

/** Marker strings swapped for their texts after `JSON.stringify` (runtimes without `JSON.rawJSON`). */
export function markerExactTexts(): ExactTextSink {
  const texts: string[] = [];
  return {
    text(text) {
      texts.push(text);
      return `${MARKER_CHAR}${texts.length - 1}`;
    },
    decimal(v) {
      return this.text(decimalText(v));
    },
    finish(value, indent) {
      const json = JSON.stringify(value, null, indent);
      return texts.length === 0 ? json : spliceMarkers(json, MARKER_CHAR, texts);
    },
  };
}

/**
 * The package's one marker scheme: `json` (written by JSON.stringify) with
 * each marker string `"<prefix><k>"` replaced by `texts[k]`. The markers must
 * appear in index order, each once, and no other string may start with
 * `prefix`; otherwise undefined (a data string looked like a marker: the
 * caller takes a slower path or refuses, never guesses).
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

/** A number's text, as written by {@link writeJsonText}. */
export class RawText {
  constructor(readonly text: string) {}
}

/** Stand-ins that only {@link writeJsonText} understands (the slow, always-correct path). */
export function objectExactTexts(): ExactTextSink {
  return {
    text: (text) => new RawText(text),
    decimal: (v) => new RawText(decimalText(v)),
    finish: (value, indent) =>
      writeJsonText(value, typeof indent === "number" ? " ".repeat(indent) : indent, false),
  };
}

/**
 * Writes a walked value as JSON text: strings and numbers exactly as
 * JSON.stringify does, {@link RawText} as its text, keys in order or sorted by
 * UTF-16 code units (RFC 8785), indented like JSON.stringify when `indent` is set.
 * Iterative (its own stack of open containers), so any depth is safe.
 */
export function writeJsonText(value: unknown, indent: string, sortKeys: boolean): string {
  const out: string[] = [];
  const colon = indent === "" ? ":" : ": ";
  const stack: OpenContainer[] = [];
  let nl = "\n";
  let v = value;
  for (;;) {
    // Write `v`, opening it if it is a non-empty container.
    if (v === null || typeof v !== "object") {
      out.push(JSON.stringify(v) ?? "null");
    } else if (v instanceof RawText) {
      out.push(v.text);
    } else {
      const array = Array.isArray(v);
      const keys = array ? undefined : Object.keys(v);
      if (keys !== undefined && sortKeys) keys.sort();
      const length = keys === undefined ? (v as unknown[]).length : keys.length;
      if (length === 0) {
        out.push(array ? "[]" : "{}");
      } else {
        out.push(array ? "[" : "{");
        const inner = indent === "" ? "" : nl + indent;
        stack.push({ value: v, keys, length, next: 0, outer: nl, inner });
        nl = inner;
      }
    }
    // Find the next value to write, closing finished containers.
    let top = stack[stack.length - 1];
    while (top !== undefined && top.next === top.length) {
      stack.pop();
      out.push(indent === "" ? "" : top.outer, top.keys === undefined ? "]" : "}");
      nl = top.outer;
      top = stack[stack.length - 1];
    }
    if (top === undefined) return out.join("");
    const i = top.next++;
    if (i > 0) out.push(",");
    out.push(top.inner);
    if (top.keys === undefined) {
      v = (top.value as unknown[])[i];
    } else {
      const k = top.keys[i]!;
      out.push(JSON.stringify(k), colon);
      v = (top.value as Record<string, unknown>)[k];
    }
  }
}

/** An array or object {@link writeJsonText} is inside of. */
interface OpenContainer {
  readonly value: object;
  /** The object's keys, in writing order; undefined for an array. */
  readonly keys: string[] | undefined;
  readonly length: number;
  next: number;
  /** The line break and indentation before the closing bracket. */
  readonly outer: string;
  /** The line break and indentation before each member. */
  readonly inner: string;
}
