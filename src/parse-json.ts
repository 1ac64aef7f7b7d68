// A lossless, validating JSON text parser. It sees every number's original
// text (JSON.parse does not), rejects what has two readings (duplicate keys)
// or cannot travel as protobuf UTF-8 (lone surrogates), and builds either the
// Struct message (structFromJson) or the plain JsonObject that protobuf-es
// uses for Struct fields (toolCallFromJson, raw-text verification) in one pass.

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { ListValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { rethrowStackOverflow, StructJsonError } from "./errors.js";
import { pointerFrom } from "./json-pointer.js";
import { numberTextIsWhole, numberTextLosesPrecision } from "./number-text.js";

/** What the parser builds. */
export type ParseTarget = "struct" | "plain";

/** Callbacks for numbers worth a note; each gets the path's tokens (copy them to keep). */
export interface ParseListener {
  /** The float64 does not denote the number written (9007199254740993, 1e-400). */
  precisionLost?(tokens: readonly (string | number)[]): void;
  /** A whole number written with a fraction or exponent (5.0, 5e0). */
  wholeWithFraction?(tokens: readonly (string | number)[]): void;
}

/** The result of {@link parseJsonText}. */
export type Parsed<T extends ParseTarget> = T extends "struct" ? Value : JsonValue;

const WS_SPACE = 32;
const WS_TAB = 9;
const WS_LF = 10;
const WS_CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;

/**
 * Parses one JSON value filling the whole text (whitespace around it allowed).
 * Throws StructJsonError `invalid-json` (with `position`), `duplicate-key`,
 * `invalid-unicode`, `number-out-of-range` or `recursion-limit`.
 */
export function parseJsonText<T extends ParseTarget>(
  text: string,
  target: T,
  recursionLimit: number,
  listener?: ParseListener,
): Parsed<T> {
  if (typeof text !== "string") {
    throw new StructJsonError("invalid-json", "", "the JSON text must be a string", {
      position: 0,
    });
  }
  const p = new Parser(text, target === "struct", recursionLimit, listener);
  try {
    p.ws();
    const value = p.value(0);
    p.ws();
    if (p.i < text.length) p.syntax("unexpected data after the JSON value");
    return value as Parsed<T>;
  } catch (e) {
    return rethrowStackOverflow(e, pointerFrom(p.tokens));
  }
}

/** Parses a JSON text that must be an object; `not-an-object` otherwise. */
export function parseJsonObjectText<T extends ParseTarget>(
  text: string,
  target: T,
  recursionLimit: number,
  listener?: ParseListener,
): T extends "struct" ? Struct : JsonObject {
  const v = parseJsonText(text, target, recursionLimit, listener);
  if (target === "struct") {
    const kind = (v as Value).kind;
    if (kind.case !== "structValue") {
      throw new StructJsonError("not-an-object", "", "the top level must be a JSON object");
    }
    return kind.value as T extends "struct" ? Struct : JsonObject;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new StructJsonError("not-an-object", "", "the top level must be a JSON object");
  }
  return v as unknown as T extends "struct" ? Struct : JsonObject;
}

class Parser {
  i = 0;
  readonly tokens: (string | number)[] = [];
  /** slowString's buffers: decoded pieces, and character codes not yet made a piece. */
  private readonly parts: string[] = [];
  private readonly codes: number[] = [];
  private readonly flush = (): void => {
    this.parts.push(String.fromCharCode.apply(null, this.codes));
    this.codes.length = 0;
  };

  constructor(
    private readonly s: string,
    private readonly msg: boolean,
    private readonly limit: number,
    private readonly listener: ParseListener | undefined,
  ) {}

  fail(
    code: "duplicate-key" | "invalid-unicode" | "number-out-of-range" | "recursion-limit",
    rule: string,
  ): never {
    throw new StructJsonError(code, pointerFrom(this.tokens), rule, { position: this.i });
  }

  syntax(rule: string): never {
    const at = this.i;
    const what = at >= this.s.length ? "unexpected end of input" : rule;
    throw new StructJsonError(
      "invalid-json",
      pointerFrom(this.tokens),
      `${what} at position ${at}`,
      {
        position: at,
      },
    );
  }

  ws(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === WS_SPACE || c === WS_LF || c === WS_CR || c === WS_TAB) i++;
      else break;
    }
    this.i = i;
  }

  value(depth: number): unknown {
    const c = this.s.charCodeAt(this.i);
    switch (c) {
      case 123: // {
        return this.object(depth + 1);
      case 91: // [
        return this.array(depth + 1);
      case QUOTE: {
        const str = this.string();
        return this.msg ? valueMsg("stringValue", str) : str;
      }
      case 116: // t
        this.literal("true");
        return this.msg ? valueMsg("boolValue", true) : true;
      case 102: // f
        this.literal("false");
        return this.msg ? valueMsg("boolValue", false) : false;
      case 110: // n
        this.literal("null");
        return this.msg ? valueMsg("nullValue", 0) : null;
      default:
        if (c === 45 || (c >= 48 && c <= 57)) {
          const n = this.number();
          return this.msg ? valueMsg("numberValue", n) : n;
        }
        return this.syntax("unexpected character");
    }
  }

  literal(word: string): void {
    if (!this.s.startsWith(word, this.i)) this.syntax("unexpected character");
    this.i += word.length;
  }

  object(depth: number): unknown {
    if (depth > this.limit)
      this.fail("recursion-limit", `nesting deeper than recursionLimit ${this.limit}`);
    const s = this.s;
    this.i++; // {
    this.ws();
    const fields: Record<string, unknown> = {};
    const tokens = this.tokens;
    if (s.charCodeAt(this.i) === 125) {
      this.i++;
    } else {
      for (;;) {
        if (s.charCodeAt(this.i) !== QUOTE) this.syntax("expected a string key");
        const keyAt = this.i;
        const key = this.string();
        this.ws();
        if (s.charCodeAt(this.i) !== 58) this.syntax("expected ':'");
        this.i++;
        this.ws();
        tokens.push(key);
        if (Object.hasOwn(fields, key)) {
          this.i = keyAt;
          this.fail("duplicate-key", "a key appears twice in one object (two readings)");
        }
        const v = this.value(depth);
        if (key === "__proto__") {
          Object.defineProperty(fields, key, {
            value: v,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          fields[key] = v;
        }
        tokens.pop();
        this.ws();
        const c = s.charCodeAt(this.i);
        if (c === 44) {
          this.i++;
          this.ws();
        } else if (c === 125) {
          this.i++;
          break;
        } else {
          this.syntax("expected ',' or '}'");
        }
      }
    }
    if (!this.msg) return fields;
    const struct: Struct = {
      $typeName: "google.protobuf.Struct",
      fields: fields as Record<string, Value>,
    };
    return valueMsg("structValue", struct);
  }

  array(depth: number): unknown {
    if (depth > this.limit)
      this.fail("recursion-limit", `nesting deeper than recursionLimit ${this.limit}`);
    const s = this.s;
    this.i++; // [
    this.ws();
    const items: unknown[] = [];
    if (s.charCodeAt(this.i) === 93) {
      this.i++;
    } else {
      const tokens = this.tokens;
      tokens.push(0);
      const last = tokens.length - 1;
      for (let n = 0; ; n++) {
        tokens[last] = n;
        items.push(this.value(depth));
        this.ws();
        const c = s.charCodeAt(this.i);
        if (c === 44) {
          this.i++;
          this.ws();
        } else if (c === 93) {
          this.i++;
          break;
        } else {
          this.syntax("expected ',' or ']'");
        }
      }
      tokens.pop();
    }
    if (!this.msg) return items;
    const list: ListValue = { $typeName: "google.protobuf.ListValue", values: items as Value[] };
    return valueMsg("listValue", list);
  }

  string(): string {
    const s = this.s;
    const start = this.i + 1;
    const len = s.length;
    let i = start;
    while (i < len) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.i = i + 1;
        return s.slice(start, i);
      }
      if (c === BACKSLASH || c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) break;
      i++;
    }
    return this.slowString(start, i);
  }

  /** Strings with escapes, raw surrogates or errors: decoded one character at a time. */
  slowString(start: number, from: number): string {
    const s = this.s;
    // Decoded characters collect in `codes` and leave in chunks: `out += char`
    // would build a rope of one node per character (a 50 MB string of escapes
    // took seconds and a gigabyte). Long runs of plain characters are sliced.
    // The buffers are the parser's, reused from string to string (no arrays or closure per string).
    const parts = this.parts;
    const codes = this.codes;
    parts.length = 0;
    codes.length = 0;
    parts.push(s.slice(start, from));
    const flush = this.flush;
    let i = from;
    for (;;) {
      if (i >= s.length) {
        this.i = i;
        this.syntax("unterminated string");
      }
      let c = s.charCodeAt(i);
      if (c === QUOTE) break;
      if (c < 0x20) {
        this.i = i;
        this.syntax("control character in a string");
      }
      if (c === BACKSLASH) {
        const e = s.charCodeAt(i + 1);
        switch (e) {
          case QUOTE:
            c = QUOTE;
            break;
          case BACKSLASH:
            c = BACKSLASH;
            break;
          case 47:
            c = 47;
            break;
          case 98:
            c = 8;
            break;
          case 102:
            c = 12;
            break;
          case 110:
            c = 10;
            break;
          case 114:
            c = 13;
            break;
          case 116:
            c = 9;
            break;
          case 117: {
            const hex = s.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              this.i = i;
              this.syntax("invalid \\u escape");
            }
            c = Number.parseInt(hex, 16);
            i += 4;
            break;
          }
          default:
            this.i = i;
            this.syntax("invalid escape");
        }
        i += 2;
      } else if (c < 0xd800 || c > 0xdfff) {
        const end = plainRunEnd(s, i + 1);
        if (end - i >= PLAIN_SLICE) {
          if (codes.length > 0) flush();
          parts.push(s.slice(i, end));
        } else {
          for (let k = i; k < end; k++) codes.push(s.charCodeAt(k));
          if (codes.length >= CHUNK) flush();
        }
        i = end;
        continue;
      } else {
        i++;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        // A surrogate must be a high one followed by a low one, written either way.
        const lowAt = i;
        let low = -1;
        if (s.charCodeAt(lowAt) === BACKSLASH && s.charCodeAt(lowAt + 1) === 117) {
          const hex = s.slice(lowAt + 2, lowAt + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex)) low = Number.parseInt(hex, 16);
          if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
            codes.push(c, low);
            i = lowAt + 6;
            if (codes.length >= CHUNK) flush();
            continue;
          }
        } else {
          low = s.charCodeAt(lowAt);
          if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
            codes.push(c, low);
            i = lowAt + 1;
            if (codes.length >= CHUNK) flush();
            continue;
          }
        }
        this.i = i;
        this.fail("invalid-unicode", "a string holds a lone surrogate (not valid UTF-8)");
      }
      codes.push(c);
      if (codes.length >= CHUNK) flush();
    }
    if (codes.length > 0) flush();
    this.i = i + 1;
    const out = parts.length === 1 ? parts[0]! : parts.join("");
    parts.length = 0;
    return out;
  }

  number(): number {
    const s = this.s;
    const start = this.i;
    let i = start;
    if (s.charCodeAt(i) === 45) i++;
    let c = s.charCodeAt(i);
    if (c === 48) {
      i++;
    } else if (c >= 49 && c <= 57) {
      // Up to 15 digits the value is exact as it is read: no substring for the common short integer.
      let v = c - 48;
      let k = i + 1;
      for (c = s.charCodeAt(k); c >= 48 && c <= 57 && k - i < 15; c = s.charCodeAt(k)) {
        v = v * 10 + (c - 48);
        k++;
      }
      if (!(c >= 48 && c <= 57) && c !== 46 && c !== 101 && c !== 69) {
        this.i = k;
        return start === i ? v : -v;
      }
      i = skipDigits(s, k);
    } else {
      this.i = i;
      this.syntax("invalid number");
    }
    let plain = true;
    c = s.charCodeAt(i);
    if (c === 46) {
      plain = false;
      i++;
      c = s.charCodeAt(i);
      if (!(c >= 48 && c <= 57)) {
        this.i = i;
        this.syntax("invalid number");
      }
      i = skipDigits(s, i + 1);
      c = s.charCodeAt(i);
    }
    if (c === 101 || c === 69) {
      plain = false;
      i++;
      c = s.charCodeAt(i);
      if (c === 43 || c === 45) {
        i++;
        c = s.charCodeAt(i);
      }
      if (!(c >= 48 && c <= 57)) {
        this.i = i;
        this.syntax("invalid number");
      }
      i = skipDigits(s, i + 1);
    }
    this.i = i;
    const text = s.slice(start, i);
    const v = +text;
    if (plain && i - start <= 15) return v; // up to 15 digits: exact
    if (v === Infinity || v === -Infinity) {
      this.i = start;
      this.fail("number-out-of-range", "the number is beyond float64's range");
    }
    const listener = this.listener;
    if (listener !== undefined) {
      // Each check runs only for a listener that wants its answer: they are a
      // third of the raw-text verification's time on a row set.
      if (listener.precisionLost !== undefined && numberTextLosesPrecision(text, v, plain)) {
        listener.precisionLost(this.tokens);
      }
      if (
        listener.wholeWithFraction !== undefined &&
        !plain &&
        Number.isInteger(v) &&
        numberTextIsWhole(text)
      ) {
        listener.wholeWithFraction(this.tokens);
      }
    }
    return v;
  }
}

/** Characters decoded before they are turned into a string (well below the engine's argument limit). */
const CHUNK = 8192;
/** Plain runs at least this long are sliced rather than copied code by code. */
const PLAIN_SLICE = 32;

/** The index of the first quote, backslash, control character or surrogate at or after `i`. */
function plainRunEnd(s: string, i: number): number {
  const n = s.length;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === QUOTE || c === BACKSLASH || c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) return i;
  }
  return n;
}

/** The index after a run of ASCII digits starting at `i`. */
function skipDigits(s: string, i: number): number {
  for (;;) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) i++;
    else return i;
  }
}

function valueMsg(kase: Value["kind"]["case"], value: unknown): Value {
  return { $typeName: "google.protobuf.Value", kind: { case: kase, value } as Value["kind"] };
}
