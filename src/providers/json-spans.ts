// Where a member's value sits in a JSON text, found with the package's own
// parser rather than a second scanner: parsed from a value's first character,
// the parser stops where that value ends and reports the position. Used only
// on texts the parser has already accepted whole, so the structure between
// values (whitespace, ':' and ',') is known to be well formed.

import { isStructJsonError } from "../errors.js";
import { parseJsonText } from "../parse-json.js";

/** The start (inclusive) and end (exclusive) of a value in a JSON text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** The end of the value starting at `start`, in a text already accepted whole. */
function valueEnd(text: string, start: number, recursionLimit: number): number {
  try {
    parseJsonText(text.slice(start), "plain", recursionLimit);
  } catch (e) {
    // "unexpected data after the JSON value", at the first character after it
    // (and after the whitespace that follows it).
    if (isStructJsonError(e) && e.code === "invalid-json" && e.position !== undefined) {
      let end = start + e.position;
      while (end > start && /[ \n\r\t]/.test(text[end - 1]!)) end--;
      return end;
    }
    throw e;
  }
  return skipWhitespaceBack(text, text.length);
}

function skipWhitespaceBack(text: string, end: number): number {
  while (end > 0 && /[ \n\r\t]/.test(text[end - 1]!)) end--;
  return end;
}

/** The span of the whole text's value. */
export function rootSpan(text: string): Span {
  return { start: skipWhitespace(text, 0), end: skipWhitespaceBack(text, text.length) };
}

/** The spans of an array's elements, in order (`array` must be an array's span). */
export function elementSpans(text: string, array: Span, recursionLimit: number): Span[] {
  const spans: Span[] = [];
  let i = skipWhitespace(text, array.start + 1);
  if (text.charCodeAt(i) === 0x5d) return spans; // ]
  for (;;) {
    const end = valueEnd(text, i, recursionLimit);
    spans.push({ start: i, end });
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== 0x2c) return spans; // not ',': the closing ']'
    i = skipWhitespace(text, i + 1);
  }
}

/** The span of an object's member `key`, or undefined (`object` must be an object's span). */
export function memberSpan(
  text: string,
  object: Span,
  key: string,
  recursionLimit: number,
): Span | undefined {
  let i = skipWhitespace(text, object.start + 1);
  if (text.charCodeAt(i) === 0x7d) return undefined; // }
  for (;;) {
    const keyEnd = valueEnd(text, i, recursionLimit);
    const name = parseJsonText(text.slice(i, keyEnd), "plain", 1);
    const valueStart = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1); // past ':'
    const end = valueEnd(text, valueStart, recursionLimit);
    // The parser rejects duplicate keys, so the first match is the only one.
    if (name === key) return { start: valueStart, end };
    i = skipWhitespace(text, end);
    if (text.charCodeAt(i) !== 0x2c) return undefined; // not ',': the closing '}'
    i = skipWhitespace(text, i + 1);
  }
}
