// Mutations of JSON texts: character edits, inserted tokens that have broken
// JSON code before (lone surrogates, huge exponents, BOMs, duplicate keys),
// deep nesting and big strings. Each takes the Rng, so a case is reproducible.
import type { Rng } from "./rng.js";

/** Tokens worth inserting anywhere. */
const TOKENS = [
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  '"',
  "\\",
  "\\u",
  "\\ud800",
  "\\udc00",
  "\\ud83d\\ude00",
  "\\u0000",
  "\\/",
  "1e400",
  "-1e400",
  "1e-400",
  "-0",
  "0.0",
  "9007199254740993",
  "18446744073709551616",
  "1.0",
  "1E+2",
  // float64's edges: the largest finite (and the first text past the rounding
  // boundary), the smallest subnormal and the texts that round to it or to 0
  "1.7976931348623157e308",
  "1.7976931348623158e308",
  "-1.7976931348623159e308",
  "5e-324",
  "2.4703282292062328e-324",
  "2.4703282292062327e-324",
  "9007199254740992.5",
  "123456789012345678901234567890",
  "-0.0e-0",
  "100e-2",
  "NaN",
  "Infinity",
  "true",
  "null",
  " ",
  "\n",
  "\t",
  "\u0000",
  "\ufeff",
  "\u00a0",
  "\u2028",
  "\ud800",
  "\udc00",
  "😀",
  '"__proto__"',
  '"__proto__":{"polluted":1},',
  '"constructor":{"prototype":{"polluted":1}},',
  '"a":1,',
  '"\\u0061":2,',
  "0",
  ".",
  "e",
  "-",
  "+",
  "}{",
  '},"id":1,"method":"x"',
];

type JsonMutation = (s: string, rng: Rng) => string;

const at = (s: string, rng: Rng) => rng.int(s.length + 1);

const MUTATIONS: readonly JsonMutation[] = [
  // delete a range
  (s, rng) => {
    const i = at(s, rng);
    return s.slice(0, i) + s.slice(i + rng.size(8) + 1);
  },
  // insert a token
  (s, rng) => {
    const i = at(s, rng);
    return s.slice(0, i) + rng.pick(TOKENS) + s.slice(i);
  },
  // replace one code unit with a random one (any plane, surrogates included)
  (s, rng) => {
    const i = rng.int(s.length);
    const c = rng.chance(0.5)
      ? String.fromCharCode(rng.int(128))
      : String.fromCharCode(rng.int(0x10000));
    return s.slice(0, i) + c + s.slice(i + 1);
  },
  // duplicate a range (often a member: a duplicate key)
  (s, rng) => {
    const i = at(s, rng);
    const j = Math.min(s.length, i + rng.size(40) + 1);
    return s.slice(0, j) + s.slice(i, j) + s.slice(j);
  },
  // duplicate a member right after itself, the key sometimes escaped
  (s) => {
    const m = /"([a-z_]+)"\s*:\s*([^,{}[\]]+)/i.exec(s);
    if (m === null) return s;
    const key = m[1]!.replace(/^./, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    const end = m.index + m[0].length;
    return `${s.slice(0, end)},"${key}":${m[2]}${s.slice(end)}`;
  },
  // swap two code units
  (s, rng) => {
    if (s.length < 2) return s;
    const i = rng.int(s.length - 1);
    return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
  },
  // wrap a value position in deep nesting (up to 200,000 levels)
  (s, rng) => {
    const i = s.indexOf(":");
    if (i < 0) return s;
    const depth = rng.chance(0.2) ? rng.range(40_000, 200_000) : rng.range(40, 120);
    const [open, close] = rng.chance(0.5) ? ["[", "]"] : ['{"d":', "}"];
    const end = s.indexOf(",", i) > 0 ? s.indexOf(",", i) : s.lastIndexOf("}");
    if (end <= i) return s;
    return `${s.slice(0, i + 1)}${open.repeat(depth)}${s.slice(i + 1, end)}${close.repeat(depth)}${s.slice(end)}`;
  },
  // a long string or number
  (s, rng) => {
    const i = s.indexOf(":");
    if (i < 0) return s;
    const long = rng.chance(0.5)
      ? `"${rng.pick(["x", "\\n", "é", "😀", "\\u00e9"]).repeat(rng.range(1_000, 200_000))}"`
      : `1${"0".repeat(rng.range(300, 5_000))}`;
    return `${s.slice(0, i + 1)}${long},${s.slice(i + 1)}`;
  },
  // truncate
  (s, rng) => s.slice(0, rng.int(s.length)),
  // trailing data
  (s, rng) => s + rng.pick([" x", "}", "{}", ' {"a":1}', ',"id":2', "\u0000", "\n"]),
];

/** Applies one to four mutations to a JSON text. */
export function mutateJson(text: string, rng: Rng): string {
  let s = text;
  const n = 1 + rng.size(3);
  for (let k = 0; k < n; k++) s = rng.pick(MUTATIONS)(s, rng);
  return s;
}
