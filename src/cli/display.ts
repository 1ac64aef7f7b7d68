// What the CLI prints must stay one line per record and one field per column,
// whatever the input's keys hold (a key may contain a newline, a tab or a
// terminal escape sequence).

import type { JsonPointer } from "../json-pointer.js";

// C0 controls, DEL, C1 controls, the JavaScript line terminators, the
// bidirectional formatting characters (a right-to-left override in a key
// would show the rest of the line, the numbers' columns included, reversed)
// and the backslash (so that an escape is never ambiguous); and lone surrogates.
const UNSAFE =
  /[\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Record<string, string> = {
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

function escapeChar(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * A JSON Pointer as printed: backslashes and control characters escaped as in
 * JSON strings (`\\`, `\n`, `\t`, `\u001b`), so that it can neither break a
 * line nor a tab-separated column nor drive a terminal.
 */
export function displayPath(pointer: JsonPointer): string {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(pointer) ? pointer.replace(UNSAFE, escapeChar) : pointer;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** Our own sentences, forced onto one line (control characters escaped; backslashes kept). */
export function oneLine(text: string): string {
  return text.replace(CONTROL, escapeChar);
}
