// Finds where a member's value sits in JSON text, so that a transport can hand
// on a tool result's exact text rather than what JSON.parse made of it.

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  return i;
}

/** End (exclusive) of the string starting at `i` (a quote). */
function skipString(text: string, i: number): number {
  i++;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
  return i;
}

/** End (exclusive) of the value starting at `i`; iterative, so any depth is fine. */
function skipValue(text: string, i: number): number {
  let depth = 0;
  do {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = skipString(text, i);
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      i++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      i++;
    } else if (depth > 0) i++;
    else {
      // A scalar at the top: runs until a delimiter.
      while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
    }
  } while (depth > 0 && i < text.length);
  return i;
}

/**
 * The text of the value at `keys` (object member names, or array indices as
 * numbers, outermost first) in `text`, which must be well-formed JSON (already
 * accepted by `JSON.parse`). With duplicate names the last one wins, as with
 * JSON.parse. Undefined when the path does not exist.
 */
export function memberText(text: string, keys: readonly (string | number)[]): string | undefined {
  let start = skipWs(text, 0);
  let end = skipValue(text, start);
  for (const key of keys) {
    const found =
      typeof key === "number" ? element(text, start, end, key) : member(text, start, end, key);
    if (found === undefined) return undefined;
    [start, end] = found;
  }
  return text.slice(start, end);
}

function member(
  text: string,
  start: number,
  end: number,
  key: string,
): [number, number] | undefined {
  if (text.charCodeAt(start) !== 0x7b) return undefined;
  let found: [number, number] | undefined;
  let i = skipWs(text, start + 1);
  while (i < end && text.charCodeAt(i) !== 0x7d) {
    const keyEnd = skipString(text, i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    const valueStart = skipWs(text, skipWs(text, keyEnd) + 1); // past the colon
    const valueEnd = skipValue(text, valueStart);
    if (name === key) found = [valueStart, valueEnd];
    i = skipWs(text, valueEnd);
    if (text.charCodeAt(i) === 0x2c) i = skipWs(text, i + 1);
  }
  return found;
}

function element(
  text: string,
  start: number,
  end: number,
  index: number,
): [number, number] | undefined {
  if (text.charCodeAt(start) !== 0x5b) return undefined;
  let i = skipWs(text, start + 1);
  for (let n = 0; i < end && text.charCodeAt(i) !== 0x5d; n++) {
    const valueEnd = skipValue(text, i);
    if (n === index) return [i, valueEnd];
    i = skipWs(text, valueEnd);
    if (text.charCodeAt(i) === 0x2c) i = skipWs(text, i + 1);
  }
  return undefined;
}
