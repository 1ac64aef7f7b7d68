// A lossless, validating JSON text parser. It sees every number's original
// text (JSON.parse does not), rejects what has two readings (duplicate keys)
// or cannot travel as protobuf UTF-8 (lone surrogates), and builds either the
// Struct message (structMessageFromJson) or the plain JsonObject that protobuf-es
// uses for Struct fields (toolCallFromJson, raw-text verification) in one pass.

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { ListValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { rethrowStackOverflow, StructJsonError } from "../errors.js";
import { pointerFrom } from "../json-pointer.js";
import { isWholeWithFraction, numberTextLosesPrecision } from "./number-text.js";
import { setOwnProperty } from "./own-property.js";

/** What the parser builds. */
export type ParseTarget = "struct" | "plain";

/** Callbacks for numbers worth a note; each gets the path's tokens (copy them to keep). */
export interface ParseListener {
  /** The float64 does not denote the number written (9007199254740993, 1e-400); `text` as written. */
  precisionLost?(tokens: readonly (string | number)[], text: string): void;
  /** A whole number written with a fraction or exponent (5.0, 5e0). */
  wholeWithFraction?(tokens: readonly (string | number)[]): void;
  /** A number whose text denotes no whole number (1.5, 1e-400, 9007199254740993.5), whatever its float64. */
  notWhole?(tokens: readonly (string | number)[]): void;
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
 * A run of characters a string holds as written (no quote, backslash,
 * control character or surrogate), matched from `lastIndex`. The engine's
 * regular-expression code reads a long run faster than a loop over its
 * characters; one call costs about what a few dozen characters do, so the
 * first LONG_STRING characters of a string, and of each run after a raw
 * surrogate pair, are read by the loop; escapedString uses it for every run.
 * Linear: one character class, nothing to backtrack into.
 */
const PLAIN_RUN = /[^"\\\0-\x1f\ud800-\udfff]*/y;
const LONG_STRING = 32;

/** Where the run of plain characters (see {@link PLAIN_RUN}) starting at `i` ends. */
function plainRunEnd(s: string, i: number): number {
  PLAIN_RUN.lastIndex = i;
  PLAIN_RUN.test(s);
  return PLAIN_RUN.lastIndex;
}

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
  checkText(text);
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

/** Throws `invalid-json` unless `text` is a string. */
function checkText(text: unknown): void {
  if (typeof text !== "string") {
    throw new StructJsonError("invalid-json", "", "the JSON text must be a string", {
      position: 0,
    });
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
  const kind = target === "struct" ? (v as Value).kind : undefined;
  if (
    kind === undefined
      ? typeof v !== "object" || v === null || Array.isArray(v)
      : kind.case !== "structValue"
  ) {
    throw new StructJsonError("not-an-object", "", "the top level must be a JSON object");
  }
  return (kind === undefined ? v : kind.value) as T extends "struct" ? Struct : JsonObject;
}

class Parser {
  i = 0;
  readonly tokens: (string | number)[] = [];
  /** Keep a lone surrogate in a string (as JSON.parse does) rather than throw `invalid-unicode`. */
  keepLoneSurrogates = false;
  /** Keep a number beyond float64's range (JSON.parse reads ±Infinity) rather than throw `number-out-of-range`. */
  keepOutOfRange = false;
  /** The parts of the string being decoded (see slowString), reused from string to string. */
  private readonly parts: string[] = [];

  constructor(
    protected readonly s: string,
    private readonly msg: boolean,
    protected readonly limit: number,
    private readonly listener: ParseListener | undefined,
  ) {}

  /** Throws `code` at position `at` (default: the current one). */
  fail(
    code: "duplicate-key" | "invalid-unicode" | "number-out-of-range" | "recursion-limit",
    rule: string,
    at = this.i,
  ): never {
    throw new StructJsonError(code, pointerFrom(this.tokens), rule, { position: at });
  }

  /** Throws `recursion-limit` when a container opened at `depth` (its parent's) would nest deeper than the limit. */
  nest(depth: number): void {
    if (depth >= this.limit)
      this.fail("recursion-limit", `nesting deeper than recursionLimit ${this.limit}`);
  }

  /** Throws `invalid-json` at position `at` (default: the current one). */
  syntax(rule: string, at = this.i): never {
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

  /**
   * One value, containers included. The parser keeps its own stack of open
   * containers: nesting is bounded by `limit`, never by the JavaScript call
   * stack (no recursion over the input's depth). Nothing is allocated per
   * container beyond what the result holds: an open object is its fields
   * object on `open`; an open array is the index on `open` where its items
   * start in `items`, one stack shared by every open array, copied out at
   * the array's end into an array of exactly its length.
   */
  value(depth: number): unknown {
    const s = this.s;
    const tokens = this.tokens;
    const open: (Record<string, unknown> | number)[] = [];
    const items: unknown[] = [];
    let itemCount = 0;
    for (;;) {
      // Read one value; an object or array with members is opened and read member by member.
      let v: unknown;
      const c = s.charCodeAt(this.i);
      if (c === 123 || c === 91) {
        this.nest(depth);
        this.i++; // { or [
        this.ws();
        if (c === 123) {
          const fields: Record<string, unknown> = {};
          if (s.charCodeAt(this.i) !== 125) {
            depth++;
            open.push(fields);
            this.objectKey(fields);
            continue;
          }
          this.i++;
          v = this.closeObject(fields);
        } else {
          if (s.charCodeAt(this.i) !== 93) {
            depth++;
            open.push(itemCount);
            tokens.push(0);
            continue;
          }
          this.i++;
          v = this.closeArray([]);
        }
      } else {
        v = this.scalarValue(c);
      }
      // Hand the value to the container it belongs to, closing each container that ends here.
      for (;;) {
        if (open.length === 0) return v;
        const top = open[open.length - 1]!;
        if (typeof top === "number") {
          items[itemCount++] = v;
          this.ws();
          const next = s.charCodeAt(this.i);
          if (next === 44) {
            this.i++;
            this.ws();
            tokens[tokens.length - 1] = itemCount - top;
            break;
          }
          if (next !== 93) this.syntax("expected ',' or ']'");
          this.i++;
          tokens.pop();
          open.pop();
          depth--;
          const list = items.slice(top, itemCount);
          itemCount = top;
          v = this.closeArray(list);
        } else {
          setOwnProperty(top, tokens[tokens.length - 1] as string, v);
          tokens.pop();
          this.ws();
          const next = s.charCodeAt(this.i);
          if (next === 44) {
            this.i++;
            this.ws();
            this.objectKey(top);
            break;
          }
          if (next !== 125) this.syntax("expected ',' or '}'");
          this.i++;
          open.pop();
          depth--;
          v = this.closeObject(top);
        }
      }
    }
  }

  /** A string, `true`, `false`, `null` or a number at the current position. */
  scalarValue(c: number): unknown {
    switch (c) {
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

  /**
   * Reads a member's `"key":` and puts the key on the path, leaving the
   * position at its value; returns where the key started (for `duplicate-key`).
   */
  keyAndColon(): number {
    const s = this.s;
    if (s.charCodeAt(this.i) !== QUOTE) this.syntax("expected a string key");
    const keyAt = this.i;
    const key = this.key();
    this.ws();
    if (s.charCodeAt(this.i) !== 58) this.syntax("expected ':'");
    this.i++;
    this.ws();
    this.tokens.push(key);
    return keyAt;
  }

  /** Reads a member's key and its ':', and puts the key on the path; a key seen before is `duplicate-key`. */
  objectKey(fields: Record<string, unknown>): void {
    const keyAt = this.keyAndColon();
    if (Object.hasOwn(fields, this.tokens[this.tokens.length - 1] as string)) {
      this.fail("duplicate-key", "a key appears twice in one object (two readings)", keyAt);
    }
  }

  /**
   * A member's key (the position at its opening quote). A short plain key read
   * before, in this call or an earlier one, is the same string again: no new
   * string per member, and one V8 has already interned, so the member's
   * lookup and store skip hashing it. Keys are compared character by
   * character on every hit, so the cache can only save work, never change a key.
   */
  key(): string {
    const s = this.s;
    const start = this.i + 1;
    const len = s.length;
    let hash = 0;
    for (let i = start; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.i = i + 1;
        const length = i - start;
        if (length > KEY_CACHE_MAX_LENGTH) return s.slice(start, i);
        const slot = (hash ^ length) & (KEY_CACHE_SIZE - 1);
        const cached = keyCache[slot];
        if (cached !== undefined && cached.length === length && s.startsWith(cached, start)) {
          return cached;
        }
        const key = s.slice(start, i);
        keyCache[slot] = key;
        return key;
      }
      if (c === BACKSLASH || c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) {
        return this.slowString(start, i);
      }
      hash = (Math.imul(hash, 31) + c) | 0;
    }
    return this.slowString(start, len);
  }

  /** See {@link scanJsonText}: from the current position to the end of the text. */
  scan(on: JsonTextScan): void {
    const s = this.s;
    const tokens = this.tokens;
    // Per open container: whether it is an object.
    const objects: boolean[] = [];
    for (this.ws(); this.i < s.length; this.ws()) {
      const c = s.charCodeAt(this.i);
      if (c === 123 || c === 91) {
        on.open(tokens);
        this.i++;
        this.ws();
        if (s.charCodeAt(this.i) === c + 2) {
          // Empty (} and ] are { and [ plus 2): no member to put on the path.
          this.i++;
          on.close();
          continue;
        }
        objects.push(c === 123);
        if (c === 123) this.keyAndColon();
        else tokens.push(0);
      } else if (c === 125 || c === 93) {
        this.i++;
        objects.pop();
        tokens.pop();
        on.close();
      } else if (c === 44) {
        this.i++;
        this.ws();
        if (objects[objects.length - 1]) {
          tokens.pop();
          this.keyAndColon();
        } else (tokens[tokens.length - 1] as number)++;
      } else if (c === QUOTE) this.string();
      // The text is valid: true and null are 4 characters, false 5, anything else a number.
      else if (c === 116 || c === 110) this.i += 4;
      else if (c === 102) this.i += 5;
      else this.number();
    }
  }

  closeObject(fields: Record<string, unknown>): unknown {
    if (!this.msg) return fields;
    const struct: Struct = {
      $typeName: "google.protobuf.Struct",
      fields: fields as Record<string, Value>,
    };
    return valueMsg("structValue", struct);
  }

  closeArray(items: unknown[]): unknown {
    if (!this.msg) return items;
    const list: ListValue = { $typeName: "google.protobuf.ListValue", values: items as Value[] };
    return valueMsg("listValue", list);
  }

  string(): string {
    const s = this.s;
    const start = this.i + 1;
    const len = s.length;
    let i = start;
    let scan = start + LONG_STRING;
    while (i < len) {
      if (i >= scan) {
        i = plainRunEnd(s, i);
        if (i === len) break;
      }
      const c = s.charCodeAt(i);
      if (c === QUOTE) {
        this.i = i + 1;
        return s.slice(start, i);
      }
      if (c === BACKSLASH || c < 0x20) break;
      if (c >= 0xd800 && c <= 0xdfff) {
        // A pair written as two raw characters is plain text; anything else needs a closer look.
        if (!isSurrogatePair(c, s.charCodeAt(i + 1))) break;
        i += 2;
        scan = i + LONG_STRING;
      } else i++;
    }
    return this.slowString(start, i);
  }

  /**
   * Strings with escapes, lone or half-escaped surrogates, or errors. Most
   * strings with escapes are decoded by {@link escapedString}; this loop reads
   * the rest (a lone or half-escaped surrogate, an error), reporting each
   * problem where it is. The result is joined once from the runs of plain
   * text between escapes (slices of the input) and the characters the escapes
   * stand for: no string per character, and no rope (`out += char` builds one
   * node per character: a 50 MB string of escapes took seconds and a
   * gigabyte). Every `CHUNK` parts are joined into one, so the parts list
   * stays short however many escapes.
   */
  slowString(start: number, from: number): string {
    const decoded = this.escapedString(start, from);
    if (decoded !== undefined) return decoded;
    const s = this.s;
    const len = s.length;
    const parts = this.parts;
    let count = 0;
    let chunks: string[] | undefined;
    let runStart = start;
    let i = from;
    for (;;) {
      if (i >= len) {
        this.syntax("unterminated string", i);
      }
      const c = s.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        if (i > runStart) parts[count++] = s.slice(runStart, i);
        const e = s.charCodeAt(i + 1);
        const simple = e < 128 ? SIMPLE_ESCAPES[e] : undefined;
        if (simple !== undefined) {
          parts[count++] = simple;
          i += 2;
        } else if (e === 117) {
          const code = hex4(s, i + 2);
          if (code < 0) {
            this.syntax("invalid \\u escape", i);
          }
          i += 6;
          if (code >= 0xd800 && code <= 0xdfff) {
            i = this.surrogate(code, i, count++);
          } else parts[count++] = String.fromCharCode(code);
        } else {
          this.syntax("invalid escape", i);
        }
        runStart = i;
        if (count >= CHUNK) {
          parts.length = count;
          if (chunks === undefined) chunks = [];
          chunks.push(parts.join(""));
          count = 0;
        }
      } else if (c < 0x20) {
        this.syntax("control character in a string", i);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        if (isSurrogatePair(c, s.charCodeAt(i + 1))) {
          i += 2;
        } else {
          // A raw surrogate pairs only with an escaped low one (or is lone).
          if (i > runStart) parts[count++] = s.slice(runStart, i);
          i = this.surrogate(c, i + 1, count++);
          runStart = i;
        }
      } else i++;
    }
    this.i = i + 1;
    if (i > runStart) parts[count++] = s.slice(runStart, i);
    parts.length = count; // drops what an earlier string left beyond this one's parts
    if (chunks !== undefined) {
      chunks.push(parts.join(""));
      return chunks.join("");
    }
    return count === 1 ? parts[0]! : parts.join("");
  }

  /**
   * A string whose escapes are all valid and stand for no surrogate, and
   * which holds no raw lone surrogate or control character, decoded by the
   * engine's JSON.parse once its closing quote is found: the escapes are
   * checked here and the runs between them read by PLAIN_RUN, so JSON.parse
   * gets a literal it decodes as this parser would (it would decode a lone
   * surrogate too, and report errors without their path). Undefined for
   * anything else, which slowString reads character by character and which
   * fails where it should. `from` is the first character string() did not
   * take as plain text.
   */
  escapedString(start: number, from: number): string | undefined {
    const s = this.s;
    let i = from;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        const e = s.charCodeAt(i + 1);
        if (e === 117) {
          // A surrogate, even one of an escaped pair, is the loop's to check.
          const code = hex4(s, i + 2);
          if (code < 0 || (code >= 0xd800 && code <= 0xdfff)) return undefined;
          i += 6;
        } else if (e < 128 && SIMPLE_ESCAPES[e] !== undefined) i += 2;
        else return undefined;
      } else if (c >= 0xd800 && c <= 0xdfff && isSurrogatePair(c, s.charCodeAt(i + 1))) {
        i += 2;
      } else {
        // A control character, a lone surrogate, or the end of the text (NaN).
        return undefined;
      }
      const next = s.charCodeAt(i);
      if (next !== QUOTE && next !== BACKSLASH) i = plainRunEnd(s, i);
    }
    this.i = i + 1;
    return JSON.parse(s.slice(start - 1, i + 1)) as string;
  }

  /**
   * The surrogate `code` was read and `at` is just after it: a high one must
   * be followed by a low one, written either way (`\udc00` or raw). Stores
   * the character (or, where kept, the lone surrogate) as part number `part`
   * of the string being decoded and returns where reading goes on; a lone
   * one is `invalid-unicode` at `at`.
   */
  surrogate(code: number, at: number, part: number): number {
    const s = this.s;
    const parts = this.parts;
    if (code <= 0xdbff) {
      if (s.charCodeAt(at) === BACKSLASH && s.charCodeAt(at + 1) === 117) {
        const low = hex4(s, at + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          parts[part] = String.fromCharCode(code, low);
          return at + 6;
        }
      } else {
        const low = s.charCodeAt(at);
        if (low >= 0xdc00 && low <= 0xdfff) {
          parts[part] = String.fromCharCode(code, low);
          return at + 1;
        }
      }
    }
    if (!this.keepLoneSurrogates) {
      this.fail("invalid-unicode", "a string holds a lone surrogate (not valid UTF-8)", at);
    }
    parts[part] = String.fromCharCode(code);
    return at;
  }

  /**
   * A number. One whose digits a float64 holds exactly (at most 15 of them,
   * no exponent) is computed from its digits in place: an integer, or an
   * integer divided by an exact power of ten, which IEEE 754 rounds
   * correctly, so the result is the one `+text` gives, without the text.
   */
  number(): number {
    const s = this.s;
    const start = this.i;
    let i = start;
    const negative = s.charCodeAt(i) === 45;
    if (negative) i++;
    let c = s.charCodeAt(i);
    let digits = 0;
    let scaled = 0;
    if (c === 48) {
      i++;
      c = s.charCodeAt(i);
    } else if (c >= 49 && c <= 57) {
      do {
        scaled = scaled * 10 + (c - 48);
        digits++;
        c = s.charCodeAt(++i);
      } while (c >= 48 && c <= 57);
    } else {
      this.syntax("invalid number", i);
    }
    let plain = true;
    let fractionDigits = 0;
    if (c === 46) {
      plain = false;
      i++;
      c = s.charCodeAt(i);
      if (!(c >= 48 && c <= 57)) {
        this.syntax("invalid number", i);
      }
      do {
        scaled = scaled * 10 + (c - 48);
        fractionDigits++;
        c = s.charCodeAt(++i);
      } while (c >= 48 && c <= 57);
    }
    let exponent = false;
    if (c === 101 || c === 69) {
      plain = false;
      exponent = true;
      i++;
      c = s.charCodeAt(i);
      if (c === 43 || c === 45) {
        i++;
        c = s.charCodeAt(i);
      }
      if (!(c >= 48 && c <= 57)) {
        this.syntax("invalid number", i);
      }
      i = skipDigits(s, i + 1);
    }
    this.i = i;
    // A fraction's note (5.0 is whole; precision) needs its text: only for a listener.
    if (!exponent && digits + fractionDigits <= 15 && (plain || this.listener === undefined)) {
      const magnitude = fractionDigits === 0 ? scaled : scaled / POWERS_OF_TEN[fractionDigits]!;
      return negative ? -magnitude : magnitude;
    }
    // Ids of 16 to 19 digits (above 2^53: the listener needs the text, to say what was lost).
    if (plain && digits <= 19 && this.listener === undefined) {
      const magnitude = longInteger(s, negative ? start + 1 : start, i);
      return negative ? -magnitude : magnitude;
    }
    const text = s.slice(start, i);
    const v = +text;
    if ((v === Infinity || v === -Infinity) && !this.keepOutOfRange) {
      this.fail("number-out-of-range", "the number is beyond float64's range", start);
    }
    const listener = this.listener;
    if (listener !== undefined) {
      // Each check runs only for a listener that wants its answer: they are a
      // third of the raw-text verification's time on a row set.
      if (listener.precisionLost !== undefined && numberTextLosesPrecision(text, v, plain)) {
        listener.precisionLost(this.tokens, text);
      }
      // A plain integer text is whole: only a fraction or exponent asks.
      if (!plain && (listener.wholeWithFraction !== undefined || listener.notWhole !== undefined)) {
        if (isWholeWithFraction(text, v, false)) listener.wholeWithFraction?.(this.tokens);
        else listener.notWhole?.(this.tokens);
      }
    }
    return v;
  }
}

/** Slots of the key cache (a power of two). */
const KEY_CACHE_SIZE = 512;
/**
 * Longest key cached: V8 copies a slice this short, while a longer one may
 * point into the whole input text, which the cache must not keep alive.
 */
const KEY_CACHE_MAX_LENGTH = 12;
/** Recent short keys by a hash of their text; shared by every parse (see `Parser.key`). */
const keyCache: (string | undefined)[] = new Array(KEY_CACHE_SIZE).fill(undefined);

/** Parts of a string with escapes joined into one at a time (bounds the parts list). */
const CHUNK = 4096;

/** What each one-character escape (`\n`, `\"`, …) stands for, by the code of its letter. */
const SIMPLE_ESCAPES: readonly (string | undefined)[] = (() => {
  const table: (string | undefined)[] = new Array(128).fill(undefined);
  // Each escape letter followed by what it stands for.
  const pairs = '""\\\\//b\bf\fn\nr\rt\t';
  for (let k = 0; k < pairs.length; k += 2) table[pairs.charCodeAt(k)] = pairs[k + 1];
  return table;
})();

/** Exact powers of ten, 10^0 … 10^15. */
const POWERS_OF_TEN: readonly number[] = Array.from({ length: 16 }, (_, k) => 10 ** k);

/**
 * The float64 nearest the integer written by the 16 to 19 digits in
 * `[from, to)`, as `+text` gives it. The integer is `high × 10^r + low`, with
 * `high` its first 15 digits and `low` the other r ≤ 4, both exact. The product
 * `high × 10^r` is rounded once; its rounding error, an integer below 2^10, is
 * recovered exactly (Dekker's product) and added to `low`, exactly. The one
 * remaining addition then rounds the exact integer once: correctly.
 */
function longInteger(s: string, from: number, to: number): number {
  const split = from + 15;
  let high = 0;
  for (let k = from; k < split; k++) high = high * 10 + (s.charCodeAt(k) - 48);
  let low = 0;
  for (let k = split; k < to; k++) low = low * 10 + (s.charCodeAt(k) - 48);
  const scale = POWERS_OF_TEN[to - split]!;
  const product = high * scale;
  return product + (productError(high, scale, product) + low);
}

/** The exact error `a × b − product` of the float64 `product = a × b` (Dekker, Veltkamp's split). */
function productError(a: number, b: number, product: number): number {
  const ca = 134217729 * a;
  const aHigh = ca - (ca - a);
  const aLow = a - aHigh;
  const cb = 134217729 * b;
  const bHigh = cb - (cb - b);
  const bLow = b - bHigh;
  return aHigh * bHigh - product + aHigh * bLow + aLow * bHigh + aLow * bLow;
}

/** True for a high surrogate followed by a low one. */
function isSurrogatePair(high: number, low: number): boolean {
  return high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** The value of the four hex digits at `at`, or -1 when they are not four hex digits. */
function hex4(s: string, at: number): number {
  let code = 0;
  for (let k = at; k < at + 4; k++) {
    const c = s.charCodeAt(k);
    let digit: number;
    if (c >= 48 && c <= 57) digit = c - 48;
    else if (c >= 97 && c <= 102) digit = c - 87;
    else if (c >= 65 && c <= 70) digit = c - 55;
    else return -1;
    code = code * 16 + digit;
  }
  return code;
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

/**
 * What {@link scanJsonText} tells, in the text's order: its containers, and
 * its numbers as a {@link ParseListener} hears them; `tokens` is the path from
 * the root (valid only during the call).
 */
export interface JsonTextScan extends ParseListener {
  /** An object or array opens at `tokens`. */
  open(tokens: readonly (string | number)[]): void;
  /** The innermost open object or array ends. */
  close(): void;
}

/**
 * Scans a JSON text that {@link parseJsonText} has read (so valid, and within
 * its limits: nothing is checked again), keys decoded as the parser decodes
 * them. Its own stack: any depth. Lighter than {@link parseJsonSpans} for a
 * caller that needs only these (the root entry's raw-text verification), and
 * builds nothing.
 */
export function scanJsonText(text: string, scan: JsonTextScan): void {
  new Parser(text, false, 0, scan).scan(scan);
}

// ---------------------------------------------------------------------------
// The same parser, reporting spans: where each value's text starts and ends,
// and each number's text exactly as written. For callers that cut or edit the
// text in place (repair, the MCP and provider adapters) rather than build a
// Struct. Same definition of valid JSON, same errors, same limits.

/** A JSON value with its `[start, end)` span in the text it was read from. */
export type JsonSpanNode =
  | JsonObjectSpan
  | JsonArraySpan
  | JsonStringSpan
  | JsonNumberSpan
  | JsonLiteralSpan;

/** An object; `members` in text order. */
export interface JsonObjectSpan {
  readonly kind: "object";
  readonly start: number;
  readonly end: number;
  readonly members: readonly JsonMemberSpan[];
}

/** One `"key": value` of an object; `keyStart` is the offset of its opening quote. */
export interface JsonMemberSpan {
  readonly key: string;
  readonly keyStart: number;
  readonly value: JsonSpanNode;
}

/** An array. */
export interface JsonArraySpan {
  readonly kind: "array";
  readonly start: number;
  readonly end: number;
  readonly items: readonly JsonSpanNode[];
}

/** A string; `value` is its content, unescaped. */
export interface JsonStringSpan {
  readonly kind: "string";
  readonly start: number;
  readonly end: number;
  readonly value: string;
}

/** A number; `text` is exactly as written. */
export interface JsonNumberSpan {
  readonly kind: "number";
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** `true`, `false` or `null`. */
export interface JsonLiteralSpan {
  readonly kind: "true" | "false" | "null";
  readonly start: number;
  readonly end: number;
}

/** Options of {@link parseJsonSpans}. */
export interface JsonSpanOptions {
  /**
   * A key repeated in one object: "reject" (default) throws `duplicate-key`,
   * as everywhere else in the package; "keep" keeps every member, for texts
   * already read by `JSON.parse` elsewhere, whose reading (the last one wins)
   * {@link spanAt} then follows.
   */
  readonly duplicateKeys?: "reject" | "keep";
  /**
   * A string holding a lone surrogate: "reject" (default) throws
   * `invalid-unicode` (it cannot travel as protobuf UTF-8); "keep" keeps it in
   * the string's value, as `JSON.parse` does (repair validates such strings).
   */
  readonly loneSurrogates?: "reject" | "keep";
  /**
   * A number beyond float64's range (`1e400`): "reject" (default) throws
   * `number-out-of-range`; "keep" keeps its text, as the exact readers of the
   * MCP adapter do (JSON.parse reads it as ±Infinity).
   */
  readonly outOfRangeNumbers?: "reject" | "keep";
}

/**
 * Parses one JSON value filling the whole text into a tree of spans. Accepts
 * and rejects exactly what {@link parseJsonText} does, with the same errors
 * (unless an option says "keep"). Iterative: any depth within
 * `recursionLimit` is safe.
 */
export function parseJsonSpans(
  text: string,
  recursionLimit: number,
  options?: JsonSpanOptions,
): JsonSpanNode {
  checkText(text);
  const p = new SpanParser(text, recursionLimit, options?.duplicateKeys === "keep");
  p.keepLoneSurrogates = options?.loneSurrogates === "keep";
  p.keepOutOfRange = options?.outOfRangeNumbers === "keep";
  p.ws();
  const node = p.tree();
  p.ws();
  if (p.i < text.length) p.syntax("unexpected data after the JSON value");
  return node;
}

/**
 * The node at `tokens` (member names, array indices) below `node`; undefined
 * when there is none. Of repeated keys (kept only with `duplicateKeys: "keep"`)
 * the last one counts, as with `JSON.parse`.
 */
export function spanAt(
  node: JsonSpanNode,
  tokens: readonly (string | number)[],
): JsonSpanNode | undefined {
  let at: JsonSpanNode | undefined = node;
  for (const token of tokens) {
    if (at.kind === "object" && typeof token === "string") {
      at = at.members.findLast((m) => m.key === token)?.value;
    } else if (at.kind === "array" && typeof token === "number") {
      at = at.items[token];
    } else return undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

/** An object or array {@link SpanParser} is inside of. */
interface OpenSpan {
  readonly start: number;
  /** The members of an object; undefined for an array. */
  readonly members: JsonMemberSpan[] | undefined;
  readonly items: JsonSpanNode[];
  /** The keys seen (objects, when duplicates are rejected). */
  readonly seen: Set<string> | undefined;
  /** The member being read: its key and where the key starts. */
  key: string;
  keyStart: number;
}

/**
 * The parser's strings, numbers, literals, whitespace and errors, building
 * spans instead of values, with its own stack of open containers.
 */
class SpanParser extends Parser {
  private readonly keepDuplicates: boolean;

  constructor(text: string, recursionLimit: number, keepDuplicates: boolean) {
    super(text, false, recursionLimit, undefined);
    this.keepDuplicates = keepDuplicates;
  }

  tree(): JsonSpanNode {
    const s = this.s;
    const stack: OpenSpan[] = [];
    const tokens = this.tokens;
    for (;;) {
      // One value at this.i: a scalar, an empty container, or an opened one.
      const start = this.i;
      const c = s.charCodeAt(start);
      let node: JsonSpanNode;
      if (c === 123 || c === 91) {
        this.nest(stack.length);
        this.i++;
        this.ws();
        const isObject = c === 123;
        if (s.charCodeAt(this.i) === (isObject ? 125 : 93)) {
          this.i++;
          node = isObject
            ? { kind: "object", start, end: this.i, members: [] }
            : { kind: "array", start, end: this.i, items: [] };
        } else {
          const open: OpenSpan = {
            start,
            members: isObject ? [] : undefined,
            items: [],
            seen: isObject && !this.keepDuplicates ? new Set() : undefined,
            key: "",
            keyStart: 0,
          };
          stack.push(open);
          if (isObject) this.memberKey(open);
          else tokens.push(0);
          continue;
        }
      } else {
        node = this.scalar(start, c);
      }
      // Attach the value, closing every container it completes.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return node;
        if (top.members !== undefined) {
          top.members.push({ key: top.key, keyStart: top.keyStart, value: node });
        } else top.items.push(node);
        this.ws();
        const next = s.charCodeAt(this.i);
        if (next === 44) {
          this.i++;
          this.ws();
          if (top.members !== undefined) {
            tokens.pop();
            this.memberKey(top);
          } else tokens[tokens.length - 1] = top.items.length;
          break;
        }
        if (next !== (top.members !== undefined ? 125 : 93)) {
          this.syntax(top.members !== undefined ? "expected ',' or '}'" : "expected ',' or ']'");
        }
        this.i++;
        tokens.pop();
        stack.pop();
        node =
          top.members !== undefined
            ? { kind: "object", start: top.start, end: this.i, members: top.members }
            : { kind: "array", start: top.start, end: this.i, items: top.items };
      }
    }
  }

  /** Reads `"key":` of the next member of `open`, leaving this.i at its value. */
  memberKey(open: OpenSpan): void {
    const keyStart = this.keyAndColon();
    const key = this.tokens[this.tokens.length - 1] as string;
    if (open.seen !== undefined) {
      if (open.seen.has(key)) {
        this.fail("duplicate-key", "a key appears twice in one object (two readings)", keyStart);
      }
      open.seen.add(key);
    }
    open.key = key;
    open.keyStart = keyStart;
  }

  scalar(start: number, c: number): JsonSpanNode {
    switch (c) {
      case QUOTE: {
        const value = this.string();
        return { kind: "string", start, end: this.i, value };
      }
      case 116: // t
        this.literal("true");
        return { kind: "true", start, end: this.i };
      case 102: // f
        this.literal("false");
        return { kind: "false", start, end: this.i };
      case 110: // n
        this.literal("null");
        return { kind: "null", start, end: this.i };
      default:
        if (c === 45 || (c >= 48 && c <= 57)) {
          this.number();
          return { kind: "number", start, end: this.i, text: this.s.slice(start, this.i) };
        }
        return this.syntax("unexpected character");
    }
  }
}
