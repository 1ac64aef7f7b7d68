// ECMAScript pattern (JSON Schema's dialect, `u`-flag semantics) → RE2 syntax,
// exact or refused. Every construct is either rewritten to something RE2 reads
// with the same meaning, or refused with a reason; nothing is passed through
// on trust. Decisions (also in SECURITY.md):
// - Literals: ASCII letters and digits as they are, every other code point as
//   `\x{…}` (so RE2-only syntax such as `[[:alpha:]]` or `\Q…\E` cannot arise).
// - `.` is ECMAScript's (not `\n`, `\r`, U+2028, U+2029); `\s`/`\S` are
//   ECMAScript's White_Space + line terminators (RE2's `\s` is ASCII only);
//   `\d`, `\w`, `\b`, `\B` are ASCII in both; `^`/`$` match only at the ends.
// - Escapes: `\f \n \r \t \v \0 \cX \xHH \uHHHH \u{H…}` (surrogate pairs
//   joined), identity escapes of ASCII punctuation (`\-` means `-` in both of
//   ECMAScript's modes). `\p{…}`: General_Category values (short or long
//   names, with or without `gc=`/`General_Category=`) except `C` and `Cn`
//   (their members differ between RE2's tables and ECMAScript's), `Any`,
//   `ASCII`, and `Script=`/`sc=` with a script name RE2 knows; other
//   properties are refused. RE2's Unicode tables may be of a newer or older
//   Unicode version than the JavaScript engine's.
// - Groups: `(…)`, `(?:…)`, `(?<name>…)` become non-capturing groups (a test
//   needs no captures). Lookaround, backreferences and modifiers are refused.
// - Quantifiers `* + ? {n} {n,} {n,m}` (lazy or not; laziness does not change
//   whether a text matches). RE2 refuses counts above 1000 (also nested).
// - Anything invalid with the `u` flag is refused, except identity escapes of
//   punctuation, which mean the same without it.

import type { PatternRefusalReason } from "./engine.js";

/** The RE2 text of a pattern, or why it cannot be written exactly. */
export type Translation =
  | { readonly re2: string }
  | { readonly refused: PatternRefusalReason; readonly at: number };

/** Longest pattern source translated (code units). */
export const MAX_PATTERN_SOURCE = 4096;

class Refused {
  constructor(
    readonly reason: PatternRefusalReason,
    readonly at: number,
  ) {}
}

/** ECMAScript White_Space and LineTerminator code points, as inclusive ranges (the meaning of `\s`). */
const WHITE_SPACE: readonly (readonly [number, number])[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

function hex(cp: number): string {
  return `\\x{${cp.toString(16)}}`;
}

function rangesText(ranges: readonly (readonly [number, number])[]): string {
  let out = "";
  for (const [a, b] of ranges) out += a === b ? hex(a) : `${hex(a)}-${hex(b)}`;
  return out;
}

function complement(ranges: readonly (readonly [number, number])[]): (readonly [number, number])[] {
  const out: [number, number][] = [];
  let next = 0;
  for (const [a, b] of ranges) {
    if (a > next) out.push([next, a - 1]);
    next = b + 1;
  }
  if (next <= 0x10ffff) out.push([next, 0x10ffff]);
  return out;
}

const SPACE_MEMBERS = rangesText(WHITE_SPACE);
const NON_SPACE_MEMBERS = rangesText(complement(WHITE_SPACE));
const ALL = "\\x{0}-\\x{10ffff}";
const DOT = "[^\\x{a}\\x{d}\\x{2028}\\x{2029}]";

/** General_Category values ECMAScript accepts, long name → short name (short names map to themselves). */
const GENERAL_CATEGORIES: ReadonlyMap<string, string> = (() => {
  const pairs: [string, string][] = [
    ["Cased_Letter", "LC"],
    ["Close_Punctuation", "Pe"],
    ["Connector_Punctuation", "Pc"],
    ["Control", "Cc"],
    ["cntrl", "Cc"],
    ["Currency_Symbol", "Sc"],
    ["Dash_Punctuation", "Pd"],
    ["Decimal_Number", "Nd"],
    ["digit", "Nd"],
    ["Enclosing_Mark", "Me"],
    ["Final_Punctuation", "Pf"],
    ["Format", "Cf"],
    ["Initial_Punctuation", "Pi"],
    ["Letter", "L"],
    ["Letter_Number", "Nl"],
    ["Line_Separator", "Zl"],
    ["Lowercase_Letter", "Ll"],
    ["Mark", "M"],
    ["Combining_Mark", "M"],
    ["Math_Symbol", "Sm"],
    ["Modifier_Letter", "Lm"],
    ["Modifier_Symbol", "Sk"],
    ["Nonspacing_Mark", "Mn"],
    ["Number", "N"],
    ["Open_Punctuation", "Ps"],
    ["Other_Letter", "Lo"],
    ["Other_Number", "No"],
    ["Other_Punctuation", "Po"],
    ["Other_Symbol", "So"],
    ["Paragraph_Separator", "Zp"],
    ["Private_Use", "Co"],
    ["Punctuation", "P"],
    ["punct", "P"],
    ["Separator", "Z"],
    ["Space_Separator", "Zs"],
    ["Spacing_Mark", "Mc"],
    ["Surrogate", "Cs"],
    ["Symbol", "S"],
    ["Titlecase_Letter", "Lt"],
    ["Uppercase_Letter", "Lu"],
  ];
  const m = new Map(pairs);
  for (const [, short] of pairs) m.set(short, short);
  return m;
})();

/** Script names: ECMAScript's canonical long names, which are RE2's; RE2 refuses a name it lacks at compile time. */
const SCRIPT_NAME = /^[A-Z][A-Za-z_]{1,40}$/;

/** Translates an ECMAScript pattern to RE2 syntax with the same meaning, or refuses it. */
export function translatePattern(source: string): Translation {
  if (source.length > MAX_PATTERN_SOURCE) return { refused: "too-large", at: MAX_PATTERN_SOURCE };
  try {
    const t = new Translator(source);
    const re2 = t.disjunction();
    if (t.i < source.length) throw new Refused("invalid", t.i); // an unmatched ")"
    return { re2 };
  } catch (e) {
    if (e instanceof Refused) return { refused: e.reason, at: e.at };
    throw e;
  }
}

/** A class member: text inside `[…]`, and the code point when it is a single one (for ranges). */
interface ClassAtom {
  readonly text: string;
  readonly codePoint: number | undefined;
}

class Translator {
  i = 0;
  private depth = 0;
  constructor(private readonly p: string) {}

  private refuse(reason: PatternRefusalReason, at = this.i): never {
    throw new Refused(reason, at);
  }

  private next(): number {
    const c = this.p.codePointAt(this.i);
    if (c === undefined) this.refuse("invalid");
    this.i += c > 0xffff ? 2 : 1;
    return c;
  }

  disjunction(): string {
    let out = this.alternative();
    while (this.p[this.i] === "|") {
      this.i++;
      out += `|${this.alternative()}`;
    }
    return out;
  }

  private alternative(): string {
    let out = "";
    while (this.i < this.p.length && this.p[this.i] !== "|" && this.p[this.i] !== ")") {
      const start = this.i;
      const term = this.term();
      if (term.assertion) {
        if (this.quantifierAhead()) this.refuse("invalid");
        out += term.text;
        continue;
      }
      out += term.text + this.quantifier(start);
    }
    return out;
  }

  private quantifierAhead(): boolean {
    const c = this.p[this.i];
    return (
      c === "*" || c === "+" || c === "?" || (c === "{" && this.braceQuantifier() !== undefined)
    );
  }

  /** `{n}`, `{n,}`, `{n,m}` at `i`: its parts and length, or undefined when `{` starts none. */
  private braceQuantifier(): { min: string; max: string | undefined; length: number } | undefined {
    const p = this.p;
    let j = this.i + 1;
    const digits = () => {
      const from = j;
      while (j < p.length && p.charCodeAt(j) >= 48 && p.charCodeAt(j) <= 57) j++;
      return p.slice(from, j);
    };
    const min = digits();
    if (min === "") return undefined;
    let max: string | undefined;
    if (p[j] === ",") {
      j++;
      max = digits();
    }
    if (p[j] !== "}") return undefined;
    return { min, max, length: j + 1 - this.i };
  }

  private quantifier(termStart: number): string {
    const c = this.p[this.i];
    let q: string;
    if (c === "*" || c === "+" || c === "?") {
      q = c;
      this.i++;
    } else if (c === "{") {
      const b = this.braceQuantifier();
      if (b === undefined) this.refuse("invalid"); // a lone `{` is a syntax error with `u`
      // RE2 refuses counts above 1000; longer digit strings would not even fit a number.
      if (b.min.length > 4 || (b.max !== undefined && b.max.length > 4)) {
        this.refuse("too-large", termStart);
      }
      const min = Number(b.min);
      if (b.max !== undefined && b.max !== "" && Number(b.max) < min) this.refuse("invalid");
      q = b.max === undefined ? `{${min}}` : `{${min},${b.max === "" ? "" : Number(b.max)}}`;
      this.i += b.length;
    } else {
      return "";
    }
    if (this.p[this.i] === "?") {
      q += "?";
      this.i++;
    }
    if (this.quantifierAhead()) this.refuse("invalid"); // `a**`, `a{2}{3}`
    return q;
  }

  private term(): { text: string; assertion: boolean } {
    const c = this.p[this.i]!;
    switch (c) {
      case "^":
      case "$":
        this.i++;
        return { text: c, assertion: true };
      case ".":
        this.i++;
        return { text: DOT, assertion: false };
      case "(":
        return { text: this.group(), assertion: false };
      case "[":
        return { text: this.characterClass(), assertion: false };
      case "\\": {
        const n = this.p[this.i + 1];
        if (n === "b" || n === "B") {
          this.i += 2;
          return { text: `\\${n}`, assertion: true };
        }
        return { text: this.atomEscape(), assertion: false };
      }
      case "*":
      case "+":
      case "?":
      case "{":
      case "}":
      case "]":
        return this.refuse("invalid"); // nothing to repeat, or a lone bracket (errors with `u`)
      default: {
        const cp = this.next();
        return { text: literal(cp), assertion: false };
      }
    }
  }

  private group(): string {
    const start = this.i;
    this.i++; // (
    if (this.p[this.i] === "?") {
      const rest = this.p.slice(this.i + 1, this.i + 3);
      if (rest.startsWith(":")) this.i += 2;
      else if (rest.startsWith("=") || rest.startsWith("!") || rest === "<=" || rest === "<!") {
        this.refuse("lookaround", start);
      } else if (rest.startsWith("<")) {
        const close = this.p.indexOf(">", this.i);
        const name = close < 0 ? "" : this.p.slice(this.i + 2, close);
        if (!/^[$_\p{ID_Start}](?:[$\p{ID_Continue}]|\u200c|\u200d)*$/u.test(name)) {
          this.refuse("invalid", start);
        }
        this.i = close + 1;
      } else {
        this.refuse("unsupported", start); // modifiers such as (?i:…)
      }
    }
    if (++this.depth > 200) this.refuse("too-large", start);
    const inner = this.disjunction();
    this.depth--;
    if (this.p[this.i] !== ")") this.refuse("invalid", start);
    this.i++;
    return `(?:${inner})`;
  }

  /** An escape outside a class (`\b`/`\B` are handled as assertions). */
  private atomEscape(): string {
    const at = this.i;
    const n = this.p[this.i + 1];
    if (n === undefined) this.refuse("invalid");
    if (n >= "1" && n <= "9") this.refuse("backreference", at);
    if (n === "k") this.refuse("backreference", at);
    const a = this.classEscapeOrCharacter(false);
    return a.codePoint === undefined ? a.text : literal(a.codePoint);
  }

  /** An escape at `i` (its backslash included), inside a class or not. */
  private classEscapeOrCharacter(inClass: boolean): ClassAtom {
    const at = this.i;
    this.i++; // backslash
    const c = this.p[this.i];
    if (c === undefined) this.refuse("invalid", at);
    this.i++;
    switch (c) {
      case "d":
      case "D":
      case "w":
      case "W":
        return { text: `\\${c}`, codePoint: undefined };
      case "s":
        return { text: members(SPACE_MEMBERS, inClass), codePoint: undefined };
      case "S":
        return { text: members(NON_SPACE_MEMBERS, inClass), codePoint: undefined };
      case "f":
        return single(0x0c);
      case "n":
        return single(0x0a);
      case "r":
        return single(0x0d);
      case "t":
        return single(0x09);
      case "v":
        return single(0x0b);
      case "b":
        if (inClass) return single(0x08);
        return this.refuse("invalid", at);
      case "0":
        if (/[0-9]/.test(this.p[this.i] ?? "")) this.refuse("invalid", at);
        return single(0);
      case "c": {
        const l = this.p[this.i] ?? "";
        if (!/^[A-Za-z]$/.test(l)) this.refuse("invalid", at);
        this.i++;
        return single(l.charCodeAt(0) % 32);
      }
      case "x": {
        const h = this.p.slice(this.i, this.i + 2);
        if (!/^[0-9A-Fa-f]{2}$/.test(h)) this.refuse("invalid", at);
        this.i += 2;
        return single(Number.parseInt(h, 16));
      }
      case "u":
        return single(this.unicodeEscape(at));
      case "p":
      case "P":
        return { text: this.property(c === "P", at, inClass), codePoint: undefined };
      default:
        // Identity escapes of ASCII punctuation: the character itself, with or without `u`.
        if (/^[!-/:-@[-`{-~]$/.test(c)) return single(c.charCodeAt(0));
        if (c === "-" && inClass) return single(0x2d);
        return this.refuse("invalid", at);
    }
  }

  /** After `\u`: `HHHH` (a surrogate pair `\uHHHH\uHHHH` joined) or `{H…}`. */
  private unicodeEscape(at: number): number {
    if (this.p[this.i] === "{") {
      const close = this.p.indexOf("}", this.i);
      const h = close < 0 ? "" : this.p.slice(this.i + 1, close);
      if (!/^[0-9A-Fa-f]{1,8}$/.test(h)) this.refuse("invalid", at);
      const cp = Number.parseInt(h, 16);
      if (cp > 0x10ffff) this.refuse("invalid", at);
      this.i = close + 1;
      return cp;
    }
    const h = this.p.slice(this.i, this.i + 4);
    if (!/^[0-9A-Fa-f]{4}$/.test(h)) this.refuse("invalid", at);
    this.i += 4;
    const cp = Number.parseInt(h, 16);
    if (cp >= 0xd800 && cp <= 0xdbff) {
      const m = /^\\u([Dd][C-Fc-f][0-9A-Fa-f]{2})/.exec(this.p.slice(this.i, this.i + 6));
      if (m !== null) {
        this.i += 6;
        return 0x10000 + ((cp - 0xd800) << 10) + (Number.parseInt(m[1]!, 16) - 0xdc00);
      }
    }
    return cp;
  }

  /** After `\p`/`\P`: `{Name}` or `{Name=Value}` as RE2 text (a class item when used inside `[…]` too). */
  private property(negated: boolean, at: number, inClass: boolean): string {
    if (this.p[this.i] !== "{") this.refuse("invalid", at);
    const close = this.p.indexOf("}", this.i);
    if (close < 0) this.refuse("invalid", at);
    const body = this.p.slice(this.i + 1, close);
    this.i = close + 1;
    const eq = body.indexOf("=");
    let name: string | undefined;
    if (eq < 0) {
      if (body === "Any") return members(negated ? "" : ALL, inClass);
      if (body === "ASCII")
        return members(negated ? "\\x{80}-\\x{10ffff}" : "\\x{0}-\\x{7f}", inClass);
      name = GENERAL_CATEGORIES.get(body);
      if (name === undefined && !/^[A-Za-z_]+$/.test(body)) this.refuse("invalid", at);
    } else {
      const key = body.slice(0, eq);
      const value = body.slice(eq + 1);
      if (key === "General_Category" || key === "gc") {
        name = GENERAL_CATEGORIES.get(value);
        if (name === undefined) this.refuse("invalid", at);
      } else if (key === "Script" || key === "sc") {
        if (!SCRIPT_NAME.test(value)) this.refuse("unsupported", at);
        name = value;
      } else if (key === "Script_Extensions" || key === "scx") {
        this.refuse("unsupported", at);
      } else {
        this.refuse("invalid", at);
      }
    }
    // Binary properties (Alphabetic, Emoji, …) and C/Cn: no exact RE2 equivalent.
    if (name === undefined || name === "C" || name === "Cn") this.refuse("unsupported", at);
    return `\\${negated ? "P" : "p"}{${name}}`;
  }

  private characterClass(): string {
    const start = this.i;
    this.i++; // [
    let negated = false;
    if (this.p[this.i] === "^") {
      negated = true;
      this.i++;
    }
    let items = "";
    while (this.p[this.i] !== "]") {
      if (this.i >= this.p.length) this.refuse("invalid", start);
      const from = this.classAtom();
      if (this.p[this.i] === "-" && this.p[this.i + 1] !== "]" && this.i + 1 < this.p.length) {
        this.i++;
        const to = this.classAtom();
        if (from.codePoint === undefined || to.codePoint === undefined) {
          this.refuse("invalid", start); // a class escape in a range is an error with `u`
        }
        if (from.codePoint > to.codePoint) this.refuse("invalid", start);
        items += `${hex(from.codePoint)}-${hex(to.codePoint)}`;
      } else {
        items += from.text;
      }
    }
    this.i++; // ]
    // ECMAScript's `[]` matches nothing and `[^]` anything; RE2 reads a leading `]` as a literal.
    if (items === "") return negated ? `[${ALL}]` : `[^${ALL}]`;
    return negated ? `[^${items}]` : `[${items}]`;
  }

  private classAtom(): ClassAtom {
    if (this.p[this.i] === "\\") {
      const n = this.p[this.i + 1];
      if (n !== undefined && n >= "1" && n <= "9") this.refuse("invalid");
      return this.classEscapeOrCharacter(true);
    }
    return single(this.next());
  }
}

/** Class members as a class item (inside `[…]`) or as a class of their own; no members match nothing. */
function members(items: string, inClass: boolean): string {
  if (inClass) return items;
  return items === "" ? `[^${ALL}]` : `[${items}]`;
}

function single(cp: number): ClassAtom {
  return { text: hex(cp), codePoint: cp };
}

function literal(cp: number): string {
  const ascii =
    (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return ascii ? String.fromCharCode(cp) : hex(cp);
}
