// fast-check arbitraries shared by the property tests and the fuzz corpus:
// JSON object *texts* written every way JSON allows (whitespace, escapes,
// number spellings), each with the schema that types its numbers as the text
// suggests, and an independent oracle for "the float64 cannot carry this text".
import fc from "fast-check";
import type { JsonSchema } from "../src/schema/json-schema.js";

/** A generated JSON value: its text and the schema that reads its numbers as written. */
export interface JsonGen {
  /** The JSON text, exactly as a model might write it. */
  readonly text: string;
  /** `integer` for plain integer texts, `number` for the rest; objects and arrays mirror the value. */
  readonly schema: JsonSchema;
}

/** Whitespace JSON allows between tokens, from none to odd mixes. */
export const ws = fc.constantFrom("", "", "", " ", "\n", "\t", "\r\n", "  ", " \t\n ");

/** Keys that have tripped up JSON code before: prototype names, "", integer-like, pointer syntax. */
export const trickyKeys = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
  "prototype",
  "",
  "0",
  "1",
  "10",
  "01",
  "-1",
  "4294967295",
  "4294967296",
  "a/b",
  "~",
  "~1",
  " ",
  "\u0000",
  "é",
  "😀",
] as const;

/** Decoded strings: ASCII, any code point (astral included), controls, and the tricky keys. */
export const decodedString = fc.oneof(
  fc.string({ unit: "grapheme-ascii", maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.string({
    unit: fc.constantFrom('"', "\\", "/", "\n", "\u0000", "\u001f", "\u2028", "\ufeff", "a"),
    maxLength: 6,
  }),
  fc.constantFrom(...trickyKeys),
);

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "/": "\\/",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

function u4(code: number, upper: boolean): string {
  const h = code.toString(16).padStart(4, "0");
  return `\\u${upper ? h.toUpperCase() : h}`;
}

/**
 * A JSON string literal for `s`, each code point written one of the ways JSON
 * allows (literal, short escape, \u escape in either case, surrogate pairs as
 * two \u escapes), chosen by `choices` (one number per code point).
 */
export function encodeString(s: string, choices: readonly number[]): string {
  let out = '"';
  let k = 0;
  for (const ch of s) {
    const choice = choices[k++ % Math.max(choices.length, 1)] ?? 0;
    const cp = ch.codePointAt(0)!;
    const mustEscape = ch === '"' || ch === "\\" || cp < 0x20;
    if (!mustEscape && choice < 6) {
      out += ch;
    } else if (SHORT_ESCAPES[ch] !== undefined && choice < 9) {
      out += SHORT_ESCAPES[ch];
    } else if (cp > 0xffff) {
      out += u4(ch.charCodeAt(0), choice % 2 === 0) + u4(ch.charCodeAt(1), choice % 4 === 0);
    } else {
      out += u4(cp, choice % 2 === 0);
    }
  }
  return `${out}"`;
}

/** A decoded string and one of its JSON spellings. */
export const stringText = fc
  .tuple(decodedString, fc.array(fc.nat(11), { minLength: 1, maxLength: 8 }))
  .map(([s, choices]) => ({ value: s, text: encodeString(s, choices) }));

const P53 = 2n ** 53n;
const P63 = 2n ** 63n;
const P64 = 2n ** 64n;

/** Integer texts of every size: small, near 2^53, 2^63 and 2^64, far beyond; `-0`. */
export const intText = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc
    .bigInt({ min: -8n, max: 8n })
    .chain((d) =>
      fc.constantFrom(P53 + d, -(P53 + d), P63 + d, -(P63 + d), P64 + d, P53 - 1n + d).map(String),
    ),
  fc.constantFrom("0", "-0", "9007199254740991", "9007199254740993", "18446744073709551615"),
  fc.constantFrom("123456789012345678901234567890", "-99999999999999999999999"),
  // A whole float64's shortest form as plain digits (String(2 ** 60)): not its value.
  fc.integer({ min: 53, max: 69 }).map((e) => String(2 ** e)),
  // (Below 1e21: from there String writes an exponent, not an integer text.)
  fc
    .double({ min: 2 ** 53, max: 1e21, maxExcluded: true, noNaN: true })
    .map((v) => String(Math.floor(v))),
);

/** Rewrites a float's shortest text in an equivalent spelling (`E`, `e+`, zeros). */
function respell(text: string, how: number): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(text);
  if (m === null) return text;
  const [, sign, int, frac = "", exp] = m;
  const e =
    exp === undefined
      ? ""
      : (how & 1 ? "E" : "e") + (how & 2 && exp[0] !== "-" && exp[0] !== "+" ? "+" : "") + exp;
  const f = frac === "" ? (how & 4 ? ".0" : "") : `.${frac}${how & 8 ? "00" : ""}`;
  return `${sign}${int}${f}${e}`;
}

/** Float texts: any finite double's shortest form respelled, subnormals, `-0.0`, exponents, whole floats. */
export const floatText = fc.oneof(
  fc
    .tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.nat(15))
    .filter(([d]) => !Number.isInteger(d) || /e/.test(String(d)))
    .map(([d, how]) => respell(String(d), how)),
  fc
    .tuple(fc.integer({ min: -1e6, max: 1e6 }), fc.nat(15))
    .map(([i, how]) => respell(`${i}.0`, how)),
  fc.constantFrom(
    "1.0",
    "-0.0",
    "0.0",
    "0e0",
    "-0E-0",
    "0.1",
    "1.5e3",
    "2.0E-2",
    "1E+2",
    "5e-324",
    "4.9e-324",
    "2.2250738585072014e-308",
    "2.225073858507201e-308",
    "1.7976931348623157e308",
    "120000.0",
    "1e21",
    "1.0e21",
    "123456789012345678901234567890.0",
  ),
  // Written with more digits than a float64 holds: the encoder notes precision-lost.
  fc.constantFrom(
    "3.14159265358979323846",
    "0.30000000000000000001",
    "1e-400",
    "-1e-400",
    "9007199254740993.0",
    "0.1000000000000000055511151231257827",
  ),
);

/** A leaf: integer, float, string, boolean or null, with its schema. */
export const leaf: fc.Arbitrary<JsonGen> = fc.oneof(
  {
    arbitrary: intText.map((text) => ({ text, schema: { type: "integer" } as JsonSchema })),
    weight: 3,
  },
  {
    arbitrary: floatText.map((text) => ({ text, schema: { type: "number" } as JsonSchema })),
    weight: 3,
  },
  {
    arbitrary: stringText.map(({ text }) => ({ text, schema: { type: "string" } as JsonSchema })),
    weight: 2,
  },
  {
    arbitrary: fc
      .boolean()
      .map((b) => ({ text: String(b), schema: { type: "boolean" } as JsonSchema })),
    weight: 1,
  },
  { arbitrary: fc.constant({ text: "null", schema: { type: "null" } as JsonSchema }), weight: 1 },
);

/** Joins items with commas, whitespace (from `spaces`, cycled) around every token. */
function join(
  open: string,
  parts: readonly string[],
  close: string,
  spaces: readonly string[],
): string {
  let k = 0;
  const s = () => spaces[k++ % spaces.length] ?? "";
  if (parts.length === 0) return `${open}${s()}${close}`;
  return `${open}${s()}${parts.map((p) => `${p}${s()}`).join(`,${s()}`)}${close}`;
}

const spacing = fc.array(ws, { minLength: 1, maxLength: 6 });

/** A JSON value (nested to `depth`) with its schema. */
export const jsonValue: fc.Memo<JsonGen> = fc.memo((depth) =>
  depth <= 1
    ? leaf
    : fc.oneof(
        { arbitrary: leaf, weight: 3 },
        {
          arbitrary: fc
            .tuple(fc.array(jsonValue(depth - 1), { maxLength: 4 }), spacing)
            .map(([items, sp]) => ({
              text: join(
                "[",
                items.map((i) => i.text),
                "]",
                sp,
              ),
              schema: { type: "array", prefixItems: items.map((i) => i.schema) } as JsonSchema,
            })),
          weight: 1,
        },
        { arbitrary: jsonObject(depth - 1), weight: 1 },
      ),
);

/** A JSON object text (members unique after unescaping) with its schema; nesting up to `depth`. */
export function jsonObject(depth: number): fc.Arbitrary<JsonGen> {
  return fc
    .tuple(
      fc.uniqueArray(fc.tuple(stringText, jsonValue(depth)), {
        maxLength: 5,
        selector: ([k]) => k.value,
      }),
      spacing,
    )
    .map(([members, sp]) => {
      const properties: Record<string, JsonSchema> = {};
      for (const [k, v] of members)
        Object.defineProperty(properties, k.value, {
          value: v.schema,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return {
        text: join(
          "{",
          members.map(
            ([k, v], i) => `${k.text}${sp[i % sp.length]}:${sp[(i + 1) % sp.length]}${v.text}`,
          ),
          "}",
          sp,
        ),
        schema: { type: "object", properties } as JsonSchema,
      };
    });
}

/** A top-level JSON object text with leading and trailing whitespace. */
export const argumentsText: fc.Arbitrary<JsonGen> = fc
  .tuple(ws, jsonObject(4), ws)
  .map(([a, o, b]) => ({ text: `${a}${o.text}${b}`, schema: o.schema }));

/** A decimal as sign, significant digits (BigInt, no trailing zeros) and power of ten. */
interface Dec {
  readonly negative: boolean;
  readonly digits: bigint;
  readonly exp: number;
}

function toDec(text: string): Dec {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m === null) throw new Error(`not a JSON number: ${text}`);
  const [, sign, int, frac = "", exp = "0"] = m;
  let digits = BigInt(int + frac);
  let e = Number(exp) - frac.length;
  if (digits === 0n) return { negative: false, digits: 0n, exp: 0 };
  while (digits % 10n === 0n) {
    digits /= 10n;
    e++;
  }
  return { negative: sign === "-", digits, exp: e };
}

function sameDec(a: Dec, b: Dec): boolean {
  return a.negative === b.negative && a.digits === b.digits && a.exp === b.exp;
}

/**
 * Independent oracle for the encoder's `precision-lost`: plain digits denote
 * an integer, held only when they are the float64's exact integer (String(2 **
 * 60) is its shortest form, not its value); any other text denotes a number
 * that neither the float64's shortest form nor (for a whole float64) its exact
 * integer denotes. Written with BigInt decimals, not the package's code.
 */
export function textLosesPrecision(text: string): boolean {
  const v = Number(text);
  if (isIntText(text)) return BigInt(text) !== BigInt(v);
  const written = toDec(text);
  if (sameDec(written, toDec(shortest(v)))) return false;
  return !(Number.isInteger(v) && sameDec(written, toDec(BigInt(v).toString())));
}

/** The shortest round-trip text of a finite double, in JSON number syntax. */
function shortest(v: number): string {
  return Object.is(v, -0) ? "0" : String(v).replace("e+", "e");
}

/** Plain integer text (no fraction, no exponent). */
export function isIntText(text: string): boolean {
  return /^-?\d+$/.test(text);
}

/** True when the integer text is beyond ±(2^53 − 1). */
export function isUnsafeInt(text: string): boolean {
  const b = BigInt(text);
  return b > P53 - 1n || b < -(P53 - 1n);
}

/**
 * fast-check parameters: a fixed seed and moderate runs in the suite.
 * PROPERTY_RUNS_SCALE (a multiplier) and PROPERTY_SEED (added to each seed)
 * turn any property into a longer or different, still reproducible, run.
 */
export function runs(numRuns: number, seed: number): { numRuns: number; seed: number } {
  const scale = Number(process.env.PROPERTY_RUNS_SCALE ?? "1");
  const shift = Number(process.env.PROPERTY_SEED ?? "0");
  return {
    numRuns: Math.max(1, Math.round(numRuns * (scale > 0 ? scale : 1))),
    seed: seed + (Number.isSafeInteger(shift) ? shift : 0),
  };
}
