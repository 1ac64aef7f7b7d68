// Builds a value from JSON text that JSON.parse has already accepted, handing
// each number's own text to a callback, without recursion (any depth is fine)
// and without any foreign parser whose errors could quote the text.

import { type JsonPointer, pointerAppend } from "../json-pointer.js";

/** Decides what a number becomes; `path` computes the number's JSON Pointer on demand. */
export type NumberReader = (text: string, path: () => JsonPointer) => unknown;

interface Frame {
  readonly container: Record<string, unknown> | unknown[];
  /** The container's own JSON Pointer (built by concatenation, so cheap at any depth). */
  readonly pointer: JsonPointer;
  /** The member name awaiting its value (objects only). */
  key: string | undefined;
  /** Member names seen, to report duplicates (objects only). */
  readonly names: Set<string> | undefined;
}

/** Why {@link buildExactJson} refused a text that JSON.parse accepts. */
export interface DuplicateName {
  readonly duplicate: JsonPointer;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function skipWs(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
    i++;
  }
}

function stringEnd(text: string, i: number): number {
  i++;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i += 2;
    else if (c === 0x22) return i + 1;
    else i++;
  }
}

/**
 * The value of `text`, which MUST already be accepted by `JSON.parse`, with each
 * number replaced by what `readNumber` returns. Objects are plain (own
 * `__proto__` members are ordinary members). With `rejectDuplicates`, a member
 * name repeated in one object returns `{ duplicate: path }` instead.
 */
export function buildExactJson(
  text: string,
  readNumber: NumberReader,
  rejectDuplicates = false,
): { value: unknown } | DuplicateName {
  const stack: Frame[] = [];
  // The path of the value being read: its container's pointer and its own token.
  const pathOf = (): JsonPointer => {
    const frame = stack[stack.length - 1];
    if (frame === undefined) return "";
    return pointerAppend(
      frame.pointer,
      Array.isArray(frame.container) ? frame.container.length : (frame.key as string),
    );
  };
  let root: unknown;
  let i = skipWs(text, 0);

  const attach = (value: unknown): void => {
    const frame = stack[stack.length - 1];
    if (frame === undefined) root = value;
    else if (Array.isArray(frame.container)) frame.container.push(value);
    else {
      // defineProperty: "__proto__" is an ordinary member name here, never a prototype.
      Object.defineProperty(frame.container, frame.key as string, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
  };

  // Starts the next member (reading its name and colon) or element of the top frame.
  const beginEntry = (): DuplicateName | undefined => {
    const frame = stack[stack.length - 1]!;
    if (Array.isArray(frame.container)) return undefined;
    const end = stringEnd(text, i);
    const key = JSON.parse(text.slice(i, end)) as string;
    frame.key = key;
    if (frame.names !== undefined) {
      if (frame.names.has(key)) return { duplicate: pointerAppend(frame.pointer, key) };
      frame.names.add(key);
    }
    i = skipWs(text, skipWs(text, end) + 1);
    return undefined;
  };

  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      const container = c === 0x7b ? {} : [];
      const pointer = pathOf();
      attach(container);
      stack.push({
        container,
        pointer,
        key: undefined,
        names: c === 0x7b && rejectDuplicates ? new Set() : undefined,
      });
      i = skipWs(text, i + 1);
      if (text.charCodeAt(i) !== (c === 0x7b ? 0x7d : 0x5d)) {
        const duplicate = beginEntry();
        if (duplicate !== undefined) return duplicate;
        continue;
      }
      // Empty: closed at once, then completed below like any value.
      i = skipWs(text, i + 1);
      stack.pop();
    } else {
      let value: unknown;
      if (c === 0x22) {
        const end = stringEnd(text, i);
        value = JSON.parse(text.slice(i, end));
        i = end;
      } else if (c === 0x74) {
        value = true;
        i += 4;
      } else if (c === 0x66) {
        value = false;
        i += 5;
      } else if (c === 0x6e) {
        value = null;
        i += 4;
      } else {
        NUMBER.lastIndex = i;
        const written = (NUMBER.exec(text) as RegExpExecArray)[0];
        value = readNumber(written, pathOf);
        i += written.length;
      }
      attach(value);
      i = skipWs(text, i);
    }
    // A value is complete: close every container it completes, then start the next entry.
    for (;;) {
      if (stack.length === 0) return { value: root };
      if (text.charCodeAt(i) === 0x2c) {
        i = skipWs(text, i + 1);
        const duplicate = beginEntry();
        if (duplicate !== undefined) return duplicate;
        break;
      }
      i = skipWs(text, i + 1);
      stack.pop();
    }
  }
}
