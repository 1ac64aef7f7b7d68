// The argument text as a tree of spans, so that repairs can edit it in place:
// everything a repair does not touch keeps its bytes (key order, number texts,
// string escapes, whitespace), which a parse-and-stringify round trip would not.

import { parse } from "lossless-json";
import type { JsonPointer } from "../json-pointer.js";
import { pointerFrom } from "../json-pointer.js";

/** A JSON value with its `[start, end)` span in the text it was read from. */
export type JsonNode = ObjectNode | ArrayNode | StringNode | NumberNode | LiteralNode;

/** An object; `members` in text order. */
export interface ObjectNode {
  readonly kind: "object";
  readonly start: number;
  readonly end: number;
  readonly members: readonly Member[];
}

/** One `"key": value` of an object; `keyStart` is the offset of its opening quote. */
export interface Member {
  readonly key: string;
  readonly keyStart: number;
  readonly value: JsonNode;
}

/** An array. */
export interface ArrayNode {
  readonly kind: "array";
  readonly start: number;
  readonly end: number;
  readonly items: readonly JsonNode[];
}

/** A string; `value` is unescaped. */
export interface StringNode {
  readonly kind: "string";
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/** A number; `text` is exactly as written. */
export interface NumberNode {
  readonly kind: "number";
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** `true`, `false` or `null`. */
export interface LiteralNode {
  readonly kind: "true" | "false" | "null";
  readonly start: number;
  readonly end: number;
}

/** Why a text could not be read; `code` doubles as the issue keyword. */
export interface TreeFailure {
  readonly code: "invalid-json" | "duplicate-key" | "number-out-of-range" | "recursion-limit";
  readonly path: JsonPointer;
}

/** A text read into a tree, or the first reason it cannot be. */
export type TreeResult =
  | { readonly ok: true; readonly root: JsonNode; readonly hasFloatText: boolean }
  | { readonly ok: false; readonly failure: TreeFailure };

/**
 * Reads JSON text into a span tree. The nesting depth is checked first (without
 * recursion, so any depth is safe), then lossless-json decides whether the text
 * is JSON at all; only text it accepts is walked here. Duplicate keys (even
 * with equal values: they are two readings of one member) and numbers beyond
 * float64's range are failures.
 */
export function readJsonTree(text: string, recursionLimit: number): TreeResult {
  if (nestingDepth(text) > recursionLimit) {
    return { ok: false, failure: { code: "recursion-limit", path: "" } };
  }
  try {
    // The parsed value is not used: the tree below keeps what a plain object
    // cannot (key order of integer-like keys, spans). lossless-json is the gate.
    parse(text, null, { parseNumber: skipNumber, onDuplicateKey: keepLast });
  } catch (e) {
    // lossless-json recurses: with a raised limit, the stack may end first.
    const code = e instanceof RangeError ? "recursion-limit" : "invalid-json";
    return { ok: false, failure: { code, path: "" } };
  }
  const walker = new Walker(text);
  try {
    const root = walker.value();
    return { ok: true, root, hasFloatText: walker.hasFloatText };
  } catch (e) {
    if (e instanceof WalkFailure) return { ok: false, failure: e.failure };
    if (e instanceof RangeError) {
      return { ok: false, failure: { code: "recursion-limit", path: "" } };
    }
    throw e;
  }
}

function skipNumber(text: string): string {
  return text;
}

function keepLast(info: { newValue: unknown }): unknown {
  return info.newValue;
}

/** The deepest nesting of `[`/`{` outside strings; linear, no recursion. */
export function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string; an unterminated one is left for the parser to reject.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) max = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return max;
}

class WalkFailure extends Error {
  constructor(readonly failure: TreeFailure) {
    super(failure.code);
  }
}

// Walks text that lossless-json has accepted; recursion depth is bounded by
// the nesting check above. The path is kept as tokens and only joined into a
// pointer for a failure.
class Walker {
  i = 0;
  hasFloatText = false;
  private readonly tokens: (string | number)[] = [];
  constructor(readonly text: string) {}

  value(): JsonNode {
    this.ws();
    const start = this.i;
    const c = this.text.charCodeAt(start);
    let node: JsonNode;
    if (c === 0x7b) node = this.object();
    else if (c === 0x5b) node = this.array();
    else if (c === 0x22) node = this.string(start);
    else if (c === 0x74) node = this.literal("true", start);
    else if (c === 0x66) node = this.literal("false", start);
    else if (c === 0x6e) node = this.literal("null", start);
    else node = this.number(start);
    this.ws();
    return node;
  }

  private fail(code: TreeFailure["code"]): never {
    throw new WalkFailure({ code, path: pointerFrom(this.tokens) });
  }

  private object(): ObjectNode {
    const start = this.i;
    this.i++;
    const members: Member[] = [];
    const seen = new Set<string>();
    this.ws();
    if (this.text.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return { kind: "object", start, end: this.i, members };
    }
    for (;;) {
      this.ws();
      const keyStart = this.i;
      const key = this.string(keyStart).value;
      this.tokens.push(key);
      if (seen.has(key)) this.fail("duplicate-key");
      seen.add(key);
      this.ws();
      if (this.text.charCodeAt(this.i++) !== 0x3a) this.fail("invalid-json");
      members.push({ key, keyStart, value: this.value() });
      this.tokens.pop();
      const c = this.text.charCodeAt(this.i++);
      if (c === 0x7d) return { kind: "object", start, end: this.i, members };
      if (c !== 0x2c) this.fail("invalid-json");
    }
  }

  private array(): ArrayNode {
    const start = this.i;
    this.i++;
    const items: JsonNode[] = [];
    this.ws();
    if (this.text.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return { kind: "array", start, end: this.i, items };
    }
    for (;;) {
      this.tokens.push(items.length);
      items.push(this.value());
      this.tokens.pop();
      const c = this.text.charCodeAt(this.i++);
      if (c === 0x5d) return { kind: "array", start, end: this.i, items };
      if (c !== 0x2c) this.fail("invalid-json");
    }
  }

  private string(start: number): StringNode {
    const text = this.text;
    if (text.charCodeAt(start) !== 0x22) this.fail("invalid-json");
    let escaped = false;
    let i = start + 1;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) {
        escaped = true;
        i++;
      } else if (c === 0x22) {
        break;
      }
    }
    const end = i + 1;
    this.i = end;
    const value = escaped
      ? (JSON.parse(text.slice(start, end)) as string)
      : text.slice(start + 1, end - 1);
    return { kind: "string", start, end, value };
  }

  private literal(word: "true" | "false" | "null", start: number): LiteralNode {
    if (!this.text.startsWith(word, start)) this.fail("invalid-json");
    this.i = start + word.length;
    return { kind: word, start, end: this.i };
  }

  private number(start: number): NumberNode {
    const text = this.text;
    let i = start;
    let float = false;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x2e || c === 0x65 || c === 0x45) float = true;
      else if (!((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b)) break;
    }
    if (i === start) this.fail("invalid-json");
    this.i = i;
    const numberText = text.slice(start, i);
    if (!Number.isFinite(Number(numberText))) this.fail("number-out-of-range");
    if (float) this.hasFloatText = true;
    return { kind: "number", start, end: i, text: numberText };
  }

  private ws(): void {
    const text = this.text;
    let i = this.i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
  }
}

/**
 * The plain value ajv validates: objects without a prototype (so `__proto__`,
 * `constructor` and `toString` are ordinary keys, and `required` cannot be met
 * by an inherited member), numbers as float64.
 */
export function validationValue(node: JsonNode): unknown {
  switch (node.kind) {
    case "object": {
      const out = Object.create(null) as Record<string, unknown>;
      for (const m of node.members) out[m.key] = validationValue(m.value);
      return out;
    }
    case "array":
      return node.items.map(validationValue);
    case "string":
      return node.value;
    case "number":
      return Number(node.text);
    case "true":
      return true;
    case "false":
      return false;
    case "null":
      return null;
  }
}
