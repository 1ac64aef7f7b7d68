// The fuzz oracle's view of a JSON text: every string (keys included) and every
// number literal as written, not only what JSON.parse keeps. JSON.parse keeps the
// last of duplicate keys, so an earlier member's huge number or lone surrogate
// never reaches it; a single left-to-right pass (the package's) meets it first and
// rightly rejects the text for that. This scan lists every rule a text breaks, so
// the oracle can accept any of them as the reason for a rejection.
//
// Written independently of src/struct/parse-json.ts (a loop over tokens with an explicit
// stack, no recursion, so that 200,000 levels of nesting are fine).

/** A rule of the package's JSON reader that a syntactically valid prefix can break. */
export type JsonRule =
  | "duplicate-key"
  | "invalid-unicode"
  | "number-out-of-range"
  | "recursion-limit"
  | "not-an-object";

/** What {@link scanJsonText} found. */
export interface JsonScan {
  /**
   * The index of the first syntax error (text.length for a premature end), or
   * undefined when the text is exactly one JSON value with whitespace around it.
   */
  readonly syntaxError: number | undefined;
  /**
   * The rules broken before the first syntax error (in the whole text when there
   * is none). A token cut short by the syntax error counts with what it held
   * before the error: `"\ud800` then a control character is a lone surrogate.
   * Inside a container deeper than the limit only the depth counts: a reader
   * stops there and never sees what it holds.
   */
  readonly broken: ReadonlySet<JsonRule>;
  /**
   * Each break as "rule path", with the JSON Pointer the package names: the
   * member or element holding the bad number, string or too-deep container, the
   * repeated key's member, the object holding a bad key ("" for the whole text).
   */
  readonly reasons: ReadonlySet<string>;
  /**
   * Each break as "rule @position", with the index the package names: the bad
   * number's first character, the repeated key's opening quote, the too-deep
   * container's bracket, the index just after the first lone surrogate of a
   * string; none for not-an-object.
   */
  readonly positions: ReadonlySet<string>;
  /** The deepest nesting seen (the top-level object or array is level 1). */
  readonly depth: number;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** True when `s` has no lone surrogate (a high one last counts as lone). */
export function wellFormed(s: string): boolean {
  return !/[\ud800-\udfff]/.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""));
}

/** A string token: its decoded text (up to the error, if any) and where it ends. */
interface StringToken {
  readonly text: string;
  /** Index after the closing quote, or undefined on a syntax error. */
  readonly end: number | undefined;
  /** The syntax error's index, when there is one. */
  readonly error: number;
  /**
   * Index just after the first lone surrogate as written (a high one not followed
   * by a low one, or a low one alone), counting a high one last as lone; -1 if none.
   */
  readonly loneAt: number;
}

function readString(s: string, quoteAt: number): StringToken {
  const parts: string[] = [];
  let i = quoteAt + 1;
  let runStart = i;
  let highEnd = -1; // just after a high surrogate waiting for its low one
  let loneAt = -1;
  /** Follows each decoded code unit, written from `from` to `to`. */
  const unit = (code: number, to: number) => {
    if (loneAt >= 0) return;
    const low = code >= 0xdc00 && code <= 0xdfff;
    if (highEnd >= 0) {
      if (!low) loneAt = highEnd;
      highEnd = -1;
    } else if (low) {
      loneAt = to;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      highEnd = to;
    }
  };
  const token = (end: number | undefined, error: number): StringToken => {
    if (loneAt < 0 && highEnd >= 0) loneAt = highEnd;
    return { text: parts.join(""), end, error, loneAt };
  };
  for (;;) {
    if (i >= s.length) {
      parts.push(s.slice(runStart, i));
      return token(undefined, i);
    }
    const c = s.charCodeAt(i);
    if (c === 0x22) {
      parts.push(s.slice(runStart, i));
      return token(i + 1, -1);
    }
    if (c < 0x20) {
      parts.push(s.slice(runStart, i));
      return token(undefined, i);
    }
    if (c !== 0x5c) {
      i++;
      unit(c, i);
      continue;
    }
    parts.push(s.slice(runStart, i));
    const e = s[i + 1];
    if (e === "u") {
      const hex = s.slice(i + 2, i + 6);
      if (!HEX4.test(hex)) return token(undefined, i);
      const code = Number.parseInt(hex, 16);
      parts.push(String.fromCharCode(code));
      i += 6;
      unit(code, i);
    } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
      parts.push(ESCAPES[e]!);
      i += 2;
      unit(0, i);
    } else {
      return token(undefined, i);
    }
    runStart = i;
  }
}

/** An RFC 6901 pointer, written here rather than taken from the package under test. */
function pointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${String(t).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** An open container: the keys seen so far (an object), or the index of the current element (an array). */
type Frame = { readonly keys: Set<string> } | { index: number };

type Expect = "value" | "value-or-close" | "key" | "key-or-close" | "colon" | "next" | "end";

/**
 * Scans a JSON text for syntax and for the rules the package enforces, with
 * `recursionLimit` the deepest nesting allowed.
 */
export function scanJsonText(text: string, recursionLimit: number): JsonScan {
  const broken = new Set<JsonRule>();
  const reasons = new Set<string>();
  const positions = new Set<string>();
  const stack: Frame[] = [];
  // The member or element being read in each open container (path.length === stack.length inside one).
  const path: (string | number)[] = [];
  const breaks = (rule: JsonRule, tokens: readonly (string | number)[], position?: number) => {
    // A reader stops at the first container deeper than the limit: what lies inside is never read.
    if (stack.length > recursionLimit) return;
    broken.add(rule);
    reasons.add(`${rule} ${pointer(tokens)}`);
    if (position !== undefined) positions.add(`${rule} @${position}`);
  };
  let depth = 0;
  let expect: Expect = "value";
  let topIsObject = false;
  let i = 0;
  const n = text.length;
  const result = (syntaxError: number | undefined): JsonScan => {
    if (syntaxError === undefined && !topIsObject) breaks("not-an-object", []);
    return { syntaxError, broken, reasons, positions, depth };
  };
  const afterValue = (): Expect => (stack.length === 0 ? "end" : "next");
  /** Closes the innermost container (its bracket at `i`); what comes next. */
  const close = (): Expect => {
    i++;
    stack.pop();
    path.length = stack.length;
    return afterValue();
  };
  for (;;) {
    while (i < n && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r"))
      i++;
    if (i >= n) return result(expect === "end" ? undefined : n);
    const c = text[i]!;
    switch (expect) {
      case "end":
        return result(i);
      case "colon":
        if (c !== ":") return result(i);
        i++;
        expect = "value";
        continue;
      case "next": {
        const top = stack[stack.length - 1]!;
        const array = "index" in top;
        if (c === ",") {
          i++;
          if (array) top.index++;
          expect = array ? "value" : "key";
        } else if (c === (array ? "]" : "}")) {
          expect = close();
        } else {
          return result(i);
        }
        continue;
      }
      case "key":
      case "key-or-close": {
        if (c === "}" && expect === "key-or-close") {
          expect = close();
          continue;
        }
        if (c !== '"') return result(i);
        const key = readString(text, i);
        path.length = stack.length - 1;
        if (key.loneAt >= 0) breaks("invalid-unicode", path, key.loneAt);
        if (key.end === undefined) return result(key.error);
        const { keys } = stack[stack.length - 1] as { keys: Set<string> };
        path.push(key.text);
        if (keys.has(key.text)) breaks("duplicate-key", path, i);
        keys.add(key.text);
        i = key.end;
        expect = "colon";
        continue;
      }
      case "value":
      case "value-or-close": {
        if (c === "]" && expect === "value-or-close") {
          expect = close();
          continue;
        }
        const top = stack[stack.length - 1];
        if (top !== undefined && "index" in top) path[stack.length - 1] = top.index;
        if (c === "{" || c === "[") {
          if (stack.length === 0) topIsObject = c === "{";
          if (stack.length === recursionLimit) breaks("recursion-limit", path, i);
          stack.push(c === "{" ? { keys: new Set() } : { index: 0 });
          depth = Math.max(depth, stack.length);
          i++;
          expect = c === "{" ? "key-or-close" : "value-or-close";
          continue;
        }
        if (c === '"') {
          const str = readString(text, i);
          if (str.loneAt >= 0) breaks("invalid-unicode", path, str.loneAt);
          if (str.end === undefined) return result(str.error);
          i = str.end;
          expect = afterValue();
          continue;
        }
        if (c === "-" || (c >= "0" && c <= "9")) {
          NUMBER.lastIndex = i;
          const m = NUMBER.exec(text);
          if (m === null) return result(i);
          if (!Number.isFinite(Number(m[0]))) breaks("number-out-of-range", path, i);
          i += m[0].length;
          expect = afterValue();
          continue;
        }
        const word = c === "t" ? "true" : c === "f" ? "false" : c === "n" ? "null" : "";
        if (word === "" || !text.startsWith(word, i)) return result(i);
        i += word.length;
        expect = afterValue();
        continue;
      }
    }
  }
}
