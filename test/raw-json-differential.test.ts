// Differential tests of the raw-text verification (src/tool/raw-json.ts,
// through toolCallToJson and toolResultToJson): a raw text is handed on byte
// for byte only when it denotes exactly the Struct's value. Every verdict is
// predicted by an oracle written here, independent of the package's parser:
// V8's JSON.parse decides the grammar; a small recursive reader of this file
// finds repeated keys, lone surrogates, numbers beyond float64 and the depth
// (cross-checked against JSON.parse and lossless-json on every text); Number()
// gives each number's float64, compared with Object.is (-0 is not 0).
import { create, fromBinary, type JsonObject, type JsonValue, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { isLosslessNumber, parse as losslessParse } from "lossless-json";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CallMCPToolSchema, MCPToolResultSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { collectDiagnostics } from "../src/diagnostics.js";
import { isStructJsonError } from "../src/errors.js";
import type { PatternEngine } from "../src/patterns/engine.js";
import { re2Patterns } from "../src/patterns/index.js";
import { repairArguments } from "../src/repair/index.js";
import { walkNumbers } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { structToJson } from "../src/struct/to-json.js";
import { verifyRawJson } from "../src/tool/raw-json.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import { toolResultToJson } from "../src/tool/tool-result.js";
import { BOUND, timed } from "./hostile-helpers.js";
import {
  decodedString,
  encodeString,
  floatText,
  intText,
  runs,
  trickyKeys,
} from "./property-arbitraries.js";
import { denotesWhole } from "./raw-text-oracles.js";
import { argsArb, rootSchemaArb, toObject } from "./schema-arbitraries.js";

/** Fixed seeds and moderate runs: the suite runs twice in CI (Node 20 and 24). */
const RUNS = 400;

// ---------------------------------------------------------------------------
// The oracle.

/** A JSON value as written: numbers keep their text, objects every member (repeats included). */
type Written =
  | { readonly k: "num"; readonly text: string }
  | { readonly k: "str"; readonly value: string }
  | { readonly k: "lit"; readonly value: boolean | null }
  | { readonly k: "arr"; readonly items: readonly Written[] }
  | { readonly k: "obj"; readonly members: readonly (readonly [string, Written])[] };

const SHORT: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * Reads a text JSON.parse has accepted (so no error handling), keeping what
 * JSON.parse drops: repeated members, number texts. Recursive: the tests keep
 * their texts a few dozen levels deep at most.
 */
function readWritten(s: string): Written {
  let i = 0;
  const ws = () => {
    while (s[i] === " " || s[i] === "\t" || s[i] === "\n" || s[i] === "\r") i++;
  };
  const str = (): string => {
    i++;
    let out = "";
    for (;;) {
      const c = s[i++]!;
      if (c === '"') return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = s[i++]!;
      if (e === "u") {
        out += String.fromCharCode(Number.parseInt(s.slice(i, i + 4), 16));
        i += 4;
      } else out += SHORT[e]!;
    }
  };
  const value = (): Written => {
    ws();
    let v: Written;
    const c = s[i];
    if (c === "{") {
      i++;
      const members: [string, Written][] = [];
      ws();
      if (s[i] === "}") i++;
      else
        for (;;) {
          ws();
          const key = str();
          ws();
          i++; // :
          members.push([key, value()]);
          if (s[i++] === "}") break;
        }
      v = { k: "obj", members };
    } else if (c === "[") {
      i++;
      const items: Written[] = [];
      ws();
      if (s[i] === "]") i++;
      else
        for (;;) {
          items.push(value());
          if (s[i++] === "]") break;
        }
      v = { k: "arr", items };
    } else if (c === '"') {
      v = { k: "str", value: str() };
    } else if (s.startsWith("true", i) || s.startsWith("false", i) || s.startsWith("null", i)) {
      const word = s[i] === "t" ? "true" : s[i] === "f" ? "false" : "null";
      i += word.length;
      v = { k: "lit", value: word === "null" ? null : word === "true" };
    } else {
      const m = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
      m.lastIndex = i;
      const text = m.exec(s)![0];
      i += text.length;
      v = { k: "num", text };
    }
    ws();
    return v;
  };
  return value();
}

/** True when `s` holds a surrogate that is not half of a pair (it cannot travel as UTF-8). */
function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return true;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

/** Why the text is not one usable JSON object ("" when it is). */
function malformation(w: Written, limit: number): string {
  if (w.k !== "obj") return "not an object";
  const walk = (v: Written, level: number): string => {
    switch (v.k) {
      case "num":
        return Number.isFinite(Number(v.text)) ? "" : "beyond float64";
      case "str":
        return hasLoneSurrogate(v.value) ? "lone surrogate" : "";
      case "lit":
        return "";
      case "arr": {
        if (level > limit) return "too deep";
        for (const item of v.items) {
          const why = walk(item, level + 1);
          if (why !== "") return why;
        }
        return "";
      }
      case "obj": {
        if (level > limit) return "too deep";
        const seen = new Set<string>();
        for (const [key, value] of v.members) {
          if (seen.has(key)) return "repeated key";
          seen.add(key);
          if (hasLoneSurrogate(key)) return "lone surrogate";
          const why = walk(value, level + 1);
          if (why !== "") return why;
        }
        return "";
      }
    }
  };
  return walk(w, 1);
}

/** The reader's value as JSON.parse builds it (for texts without repeated keys). */
function plain(w: Written): unknown {
  switch (w.k) {
    case "num":
      return Number(w.text);
    case "str":
      return w.value;
    case "lit":
      return w.value;
    case "arr":
      return w.items.map(plain);
    case "obj":
      return toObject(w.members.map(([k, v]) => [k, plain(v)] as const));
  }
}

/** Deep equality, leaves by Object.is, own keys in order (`__proto__` an ordinary key). */
function sameTree(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null) return Object.is(a, b);
  if (typeof b !== "object" || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k, i) =>
        kb[i] === k &&
        sameTree((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

/** The reader agrees with lossless-json: same keys, strings, literals and number texts. */
function sameAsLossless(w: Written, l: unknown): boolean {
  switch (w.k) {
    case "num":
      return isLosslessNumber(l) && l.toString() === w.text;
    case "str":
    case "lit":
      return Object.is(w.value, l);
    case "arr":
      return (
        Array.isArray(l) &&
        l.length === w.items.length &&
        w.items.every((x, i) => sameAsLossless(x, l[i]))
      );
    case "obj": {
      if (typeof l !== "object" || l === null || Array.isArray(l)) return false;
      // Key order aside: a JavaScript object lists integer-like keys first.
      return (
        Object.keys(l).length === w.members.length &&
        w.members.every(
          ([k, v]) => Object.hasOwn(l, k) && sameAsLossless(v, (l as Record<string, unknown>)[k]),
        )
      );
    }
  }
}

/** A JSON Pointer token, escaped here rather than by the package (RFC 6901). */
function child(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** Every path where the written value and the Struct differ (a missing or extra key at its own path). */
function differences(w: Written, s: unknown, pointer: string, out: string[]): void {
  switch (w.k) {
    case "num":
      if (typeof s !== "number" || !Object.is(Number(w.text), s)) out.push(pointer);
      return;
    case "str":
    case "lit":
      if (!Object.is(w.value, s)) out.push(pointer);
      return;
    case "arr":
      if (!Array.isArray(s) || s.length !== w.items.length) out.push(pointer);
      else
        w.items.forEach((x, i) => {
          differences(x, s[i], child(pointer, i), out);
        });
      return;
    case "obj": {
      if (typeof s !== "object" || s === null || Array.isArray(s)) {
        out.push(pointer);
        return;
      }
      const keys = new Set(w.members.map(([k]) => k));
      for (const [k, v] of w.members) {
        if (Object.hasOwn(s, k))
          differences(v, (s as Record<string, unknown>)[k], child(pointer, k), out);
        else out.push(child(pointer, k));
      }
      for (const k of Object.keys(s)) if (!keys.has(k)) out.push(child(pointer, k));
      return;
    }
  }
}

// ---------------------------------------------------------------------------
// Generated arguments: a value, its Struct and schema, and a text written for it.

/** A generated value; each number knows whether its schema reads it as integer. */
type Node =
  | { readonly k: "num"; readonly text: string; readonly integer: boolean }
  | { readonly k: "str"; readonly value: string }
  | { readonly k: "lit"; readonly text: "true" | "false" | "null" }
  | { readonly k: "arr"; readonly items: readonly Node[] }
  | { readonly k: "obj"; readonly members: readonly Member[] };
interface Member {
  readonly key: string;
  readonly value: Node;
}

const numberNode = fc
  .tuple(fc.oneof(intText, floatText), fc.boolean())
  .map(([text, integer]): Node => ({ k: "num", text, integer }));
const leafNode: fc.Arbitrary<Node> = fc.oneof(
  { arbitrary: numberNode, weight: 4 },
  { arbitrary: decodedString.map((value): Node => ({ k: "str", value })), weight: 2 },
  {
    arbitrary: fc.constantFrom("true", "false", "null").map((text): Node => ({ k: "lit", text })),
    weight: 1,
  },
);
const node: fc.Memo<Node> = fc.memo((depth) =>
  depth <= 1
    ? leafNode
    : fc.oneof(
        { arbitrary: leafNode, weight: 3 },
        {
          arbitrary: fc
            .array(node(depth - 1), { maxLength: 3 })
            .map((items): Node => ({ k: "arr", items })),
          weight: 1,
        },
        { arbitrary: objectNode(depth - 1), weight: 1 },
      ),
);
function objectNode(depth: number): fc.Arbitrary<Node> {
  return fc
    .uniqueArray(fc.tuple(decodedString, node(depth)), { maxLength: 4, selector: ([k]) => k })
    .map(
      (members): Node => ({ k: "obj", members: members.map(([key, value]) => ({ key, value })) }),
    );
}

/** The Struct's value: Number() of each number text (JSON.parse's reading, -0 kept). */
function structOf(n: Node): JsonValue {
  switch (n.k) {
    case "num":
      return Number(n.text);
    case "str":
      return n.value;
    case "lit":
      return n.text === "null" ? null : n.text === "true";
    case "arr":
      return n.items.map(structOf);
    case "obj":
      return toObject(n.members.map((m) => [m.key, structOf(m.value)] as const)) as JsonObject;
  }
}

/** The schema reading each number as its node says. */
function schemaOf(n: Node): JsonSchema {
  switch (n.k) {
    case "num":
      return { type: n.integer ? "integer" : "number" };
    case "str":
      return { type: "string" };
    case "lit":
      return n.text === "null" ? { type: "null" } : { type: "boolean" };
    case "arr":
      return { type: "array", prefixItems: n.items.map(schemaOf) } as JsonSchema;
    case "obj":
      return {
        type: "object",
        properties: toObject(n.members.map((m) => [m.key, schemaOf(m.value)] as const)),
      } as JsonSchema;
  }
}

/** Choices for the writer, cycled: one per whitespace, number spelling and string character. */
class Pen {
  private k = 0;
  constructor(private readonly choices: readonly number[]) {}
  next(): number {
    return this.choices[this.k++ % this.choices.length]!;
  }
}

const SPACES = ["", "", " ", "\n", "\t", "\r\n", " \t\n "];

/** The same float64, spelled another way (only spellings that denote the very same number). */
function respell(text: string, how: number): string {
  const exponent = /[eE]/.test(text);
  switch (how % 5) {
    case 1:
      if (/^-?\d+$/.test(text)) return `${text}.0`;
      return text.includes(".") && !exponent ? `${text}0` : text;
    case 2:
      return exponent ? text.replace("e", "E") : `${text}e0`;
    case 3:
      return exponent ? text : `${text}E+00`;
    default:
      return text;
  }
}

/** A string literal for `s`: every JSON spelling for well-formed text; lone surrogates as \u escapes (ASCII survives the wire). */
function writeString(s: string, pen: Pen): string {
  if (!hasLoneSurrogate(s)) return encodeString(s, [pen.next(), pen.next(), pen.next()]);
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out +=
      c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)
        ? `\\u${c.toString(16).padStart(4, "0")}`
        : s[i];
  }
  return `${out}"`;
}

function write(n: Node, pen: Pen): string {
  const w = () => SPACES[pen.next() % SPACES.length]!;
  switch (n.k) {
    case "num":
      return respell(n.text, pen.next());
    case "str":
      return writeString(n.value, pen);
    case "lit":
      return n.text;
    case "arr":
      if (n.items.length === 0) return `[${w()}]`;
      return `[${w()}${n.items.map((x) => `${write(x, pen)}${w()}`).join(`,${w()}`)}]`;
    case "obj":
      if (n.members.length === 0) return `{${w()}}`;
      return `{${w()}${n.members
        .map((m) => `${writeString(m.key, pen)}${w()}:${w()}${write(m.value, pen)}${w()}`)
        .join(`,${w()}`)}}`;
  }
}

/** What the generator does to the written value: one change at one place (or none). */
const MUTATIONS = [
  // Same value.
  "none",
  "reorder",
  // A different value at one path.
  "nudge", // the next float64 up or down
  "near", // digits beyond float64's precision: the oracle decides whether the float64 moved
  "negate", // -0 for 0 included
  "string",
  "kind",
  "add-key",
  "drop-key",
  "push",
  "pop",
  "wrap", // nested in arrays up to the recursion limit or one beyond it
  // Malformed (JSON.parse accepts the first three).
  "repeat-key",
  "lone-surrogate",
  "beyond-float64",
  "not-a-number",
  "trailing",
  "leading",
  "not-an-object",
  "truncated",
] as const;
type Mutation = (typeof MUTATIONS)[number];

/** The float64 next to `v`, away from or toward zero. */
function nextFloat(v: number, up: boolean): number {
  if (v === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  view.setBigUint64(0, view.getBigUint64(0) + (v > 0 === up ? 1n : -1n));
  return view.getFloat64(0);
}

function height(n: Node): number {
  if (n.k === "arr") return 1 + Math.max(0, ...n.items.map(height));
  if (n.k === "obj") return 1 + Math.max(0, ...n.members.map((m) => height(m.value)));
  return 0;
}

/** Applies `f` to the node `target` positions after the root in pre-order (the root is 0). */
function mapAt(
  root: Node,
  target: number,
  f: (n: Node, level: number) => Node,
): { node: Node; hit: boolean } {
  let count = 0;
  let hit = false;
  const go = (n: Node, level: number): Node => {
    if (count++ === target) {
      hit = true;
      return f(n, level);
    }
    if (n.k === "arr") return { k: "arr", items: n.items.map((x) => go(x, level + 1)) };
    if (n.k === "obj")
      return {
        k: "obj",
        members: n.members.map((m) => ({ key: m.key, value: go(m.value, level + 1) })),
      };
    return n;
  };
  return { node: go(root, 0), hit };
}

/** The nodes, in pre-order, that `mutation` applies to. */
function candidates(root: Node, mutation: Mutation): number[] {
  const out: number[] = [];
  let count = 0;
  const go = (n: Node, isRoot: boolean) => {
    const at = count++;
    const fits =
      mutation === "nudge" || mutation === "near" || mutation === "negate"
        ? n.k === "num"
        : mutation === "beyond-float64" || mutation === "not-a-number"
          ? n.k === "num"
          : mutation === "string"
            ? n.k === "str"
            : mutation === "lone-surrogate"
              ? n.k === "str" || (n.k === "obj" && n.members.length > 0)
              : mutation === "reorder" || mutation === "add-key"
                ? n.k === "obj"
                : mutation === "drop-key" || mutation === "repeat-key"
                  ? n.k === "obj" && n.members.length > 0
                  : mutation === "push"
                    ? n.k === "arr"
                    : mutation === "pop"
                      ? n.k === "arr" && n.items.length > 0
                      : mutation === "kind" || mutation === "wrap"
                        ? !isRoot
                        : false;
    if (fits) out.push(at);
    if (n.k === "arr") for (const x of n.items) go(x, false);
    if (n.k === "obj") for (const m of n.members) go(m.value, false);
  };
  go(root, true);
  return out;
}

const FRESH_KEYS = [...trickyKeys, "a", "x", "\u00e9", "e\u0301"];

/** The changed node; `pick` chooses among the ways. */
function mutateNode(n: Node, mutation: Mutation, pick: number, level: number, limit: number): Node {
  switch (mutation) {
    case "nudge": {
      if (n.k !== "num") return n;
      const v = Number(n.text);
      let next = nextFloat(v, pick % 2 === 0);
      if (!Number.isFinite(next)) next = nextFloat(v, pick % 2 !== 0);
      return { ...n, text: String(next) };
    }
    case "near": {
      if (n.k !== "num") return n;
      const [mantissa, exponent] = n.text.split(/(?=[eE])/);
      const far = `${mantissa!.includes(".") ? "" : "."}${"0".repeat(pick % 24)}1`;
      return { ...n, text: `${mantissa}${far}${exponent ?? ""}` };
    }
    case "negate":
      if (n.k !== "num") return n;
      return { ...n, text: n.text.startsWith("-") ? n.text.slice(1) : `-${n.text}` };
    case "beyond-float64":
      if (n.k !== "num") return n;
      return {
        ...n,
        text: ["1e400", "-1E999", `1${"0".repeat(309)}`, "2e308", "-1.8e308"][pick % 5]!,
      };
    case "not-a-number":
      if (n.k !== "num") return n;
      return {
        ...n,
        text: ["NaN", "Infinity", "-Infinity", "+1", "01", ".5", "1.", "0x1", "1e"][pick % 9]!,
      };
    case "string":
    case "lone-surrogate": {
      const extra =
        mutation === "string"
          ? ["x", "\u0000", "\u00e9", "\ud83d\ude00", " "][pick % 5]!
          : ["\ud800", "\udc00", "\udbff", "\udc00\ud800"][pick % 4]!;
      if (n.k === "str") return { k: "str", value: n.value + extra };
      if (n.k !== "obj") return n;
      const at = pick % n.members.length;
      return {
        k: "obj",
        members: n.members.map((m, i) => (i === at ? { key: m.key + extra, value: m.value } : m)),
      };
    }
    case "reorder":
      if (n.k !== "obj") return n;
      return { k: "obj", members: [...n.members].reverse() };
    case "add-key": {
      if (n.k !== "obj") return n;
      const taken = new Set(n.members.map((m) => m.key));
      const fresh = FRESH_KEYS.filter((k) => !taken.has(k));
      const key = fresh[pick % fresh.length] ?? `${[...taken].join("")}!`;
      const members = [...n.members];
      members.splice(pick % (members.length + 1), 0, { key, value: { k: "lit", text: "null" } });
      return { k: "obj", members };
    }
    case "drop-key":
      if (n.k !== "obj") return n;
      return { k: "obj", members: n.members.filter((_, i) => i !== pick % n.members.length) };
    case "repeat-key": {
      if (n.k !== "obj") return n;
      const m = n.members[pick % n.members.length]!;
      const value: Node = pick % 3 === 0 ? { k: "lit", text: "true" } : m.value;
      return { k: "obj", members: [...n.members, { key: m.key, value }] };
    }
    case "push":
      if (n.k !== "arr") return n;
      return { k: "arr", items: [...n.items, { k: "lit", text: "null" }] };
    case "pop":
      if (n.k !== "arr") return n;
      return { k: "arr", items: n.items.slice(0, -1) };
    case "kind":
      switch (n.k) {
        case "num":
          return { k: "str", value: n.text };
        case "str":
          return pick % 2 === 0
            ? { k: "lit", text: "null" }
            : { k: "num", text: "0", integer: true };
        case "lit":
          return {
            k: "lit",
            text: n.text === "true" ? "false" : n.text === "false" ? "null" : "true",
          };
        case "arr":
          return { k: "obj", members: n.items.map((value, i) => ({ key: String(i), value })) };
        case "obj":
          return { k: "arr", items: n.members.map((m) => m.value) };
      }
      return n;
    case "wrap": {
      // The top-level object is level 1, so this node's containers start at level + 1.
      const arrays = Math.max(1, limit + (pick % 2) - level - height(n));
      let out = n;
      for (let i = 0; i < arrays; i++) out = { k: "arr", items: [out] };
      return out;
    }
    default:
      return n;
  }
}

/** Changes to the whole text. */
function mutateText(text: string, mutation: Mutation, pick: number): string {
  switch (mutation) {
    case "trailing":
      return (
        text +
        [" x", "}", ',"id":7', "{}", "\u0000", " // c", "\ufeff", " ]", '\n{"a":1}'][pick % 9]!
      );
    case "leading":
      return ["\ufeff", "\u00a0", "\u000b", "\u2028", "//\n", "x", "\u0000"][pick % 7]! + text;
    case "not-an-object":
      return [`[${text}]`, JSON.stringify(text), "null", "[]", "1", '"x"'][pick % 6]!;
    case "truncated": {
      // Never between the halves of a pair: a lone one would not survive the wire as itself.
      let end = pick % text.length;
      if (end > 0 && /[\ud800-\udbff]/.test(text[end - 1]!)) end--;
      return text.slice(0, end);
    }
    default:
      return text;
  }
}

interface Case {
  readonly base: Node;
  readonly raw: string;
  readonly limit: number;
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    base: objectNode(5),
    mutation: fc.constantFrom(...MUTATIONS),
    at: fc.nat(),
    pick: fc.nat(),
    choices: fc.array(fc.nat(11), { minLength: 1, maxLength: 12 }),
    limit: fc.integer({ min: 2, max: 7 }),
  })
  .map(({ base, mutation, at, pick, choices, limit }) => {
    let written = base;
    const places = candidates(base, mutation);
    if (places.length > 0) {
      written = mapAt(base, places[at % places.length]!, (n, level) =>
        mutateNode(n, mutation, pick, level, limit),
      ).node;
    }
    const raw = mutateText(write(written, new Pen(choices)), mutation, pick);
    return { base, raw, limit };
  });

// ---------------------------------------------------------------------------
// Running both sides.

/** What a decoding gave: text or error, and the diagnostics reported on the way. */
interface Outcome {
  readonly text?: string;
  readonly error?: { readonly code: string; readonly path: string };
  readonly diagnostics: readonly string[];
}

function outcome(
  decode: (onDiagnostic: (d: { code: string; path: string }) => void) => string,
): Outcome {
  const diagnostics: string[] = [];
  try {
    const text = decode((d) => diagnostics.push(`${d.code} ${d.path}`));
    return { text, diagnostics };
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    return { error: { code: e.code, path: e.path }, diagnostics };
  }
}

/** A call and a result as they arrive: built, encoded and decoded. */
function arrive(args: JsonObject | undefined, raw: string) {
  const call = fromBinary(
    CallMCPToolSchema,
    toBinary(
      CallMCPToolSchema,
      create(CallMCPToolSchema, {
        name: "t",
        rawArgsJson: raw,
        ...(args === undefined ? {} : { args }),
      }),
    ),
  );
  const result = fromBinary(
    MCPToolResultSchema,
    toBinary(
      MCPToolResultSchema,
      create(MCPToolResultSchema, {
        rawStructuredContentJson: raw,
        ...(args === undefined ? {} : { structuredContent: args }),
      }),
    ),
  );
  return { call, result };
}

/** The oracle's prediction for `raw` beside the Struct `struct`. */
type Verdict =
  | { readonly kind: "malformed"; readonly why: string }
  | { readonly kind: "agrees"; readonly written: Written }
  | { readonly kind: "disagrees"; readonly paths: readonly string[] };

function verdict(raw: string, struct: JsonObject, limit: number): Verdict {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { kind: "malformed", why: "JSON.parse rejects it" };
  }
  const written = readWritten(raw);
  // The reader is checked against both other readers on every text it reads.
  if (!/repeated key/.test(malformation(written, Number.POSITIVE_INFINITY))) {
    expect(sameTree(plain(written), parsed), "the oracle's reader agrees with JSON.parse").toBe(
      true,
    );
    expect(sameAsLossless(written, losslessParse(raw)), "and with lossless-json").toBe(true);
  }
  const why = malformation(written, limit);
  if (why !== "") return { kind: "malformed", why };
  const paths: string[] = [];
  differences(written, struct, "", paths);
  return paths.length === 0 ? { kind: "agrees", written } : { kind: "disagrees", paths };
}

/**
 * Where an integer position holds a number written with a fraction or
 * exponent, in text order: `integer-written-as-float` when it denotes a
 * whole number, `not-an-integer` when not (whatever its float64).
 */
function integerDiagnostics(written: Written, base: Node): string[] {
  const out: string[] = [];
  const go = (w: Written, n: Node, pointer: string) => {
    if (w.k === "num" && n.k === "num") {
      if (n.integer && !/^-?\d+$/.test(w.text))
        out.push(
          `${denotesWhole(w.text) ? "integer-written-as-float" : "not-an-integer"} ${pointer}`,
        );
    } else if (w.k === "arr" && n.k === "arr") {
      w.items.forEach((x, i) => {
        go(x, n.items[i]!, child(pointer, i));
      });
    } else if (w.k === "obj" && n.k === "obj") {
      for (const [k, v] of w.members)
        go(v, n.members.find((m) => m.key === k)!.value, child(pointer, k));
    }
  };
  go(written, base, "");
  return out;
}

/** Nothing a text may write reaches a prototype. */
function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype]
    .map((o) => Object.getOwnPropertyNames(o).sort().join(","))
    .join("\n");
}
let before = "";
beforeAll(() => {
  before = prototypeSnapshot();
});
afterAll(() => {
  expect(prototypeSnapshot()).toBe(before);
});

describe("generated raw texts beside generated Structs: the oracle's verdict, exactly", () => {
  test("agrees → the text byte for byte (integer-written-as-float, not-an-integer at integer positions); malformed → raw-json-invalid and the Struct's own decoding; disagrees → raw-struct-mismatch at the one differing path", () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(caseArb, ({ base, raw, limit }) => {
        const struct = structOf(base) as JsonObject;
        const schema = schemaOf(base);
        const expected = verdict(raw, struct, limit);
        seen.set(expected.kind, (seen.get(expected.kind) ?? 0) + 1);
        const { call, result } = arrive(struct, raw);
        expect(call.rawArgsJson).toBe(raw);
        const options = { recursionLimit: limit };
        const got = outcome((onDiagnostic) =>
          toolCallToJson(call, schema, { ...options, onDiagnostic }),
        );
        // The tool-result path shares the verification: the same outcome.
        expect(
          outcome((onDiagnostic) => toolResultToJson(result, schema, { ...options, onDiagnostic })),
        ).toEqual(got);
        switch (expected.kind) {
          case "malformed": {
            const fallback = outcome((onDiagnostic) =>
              toolCallToJson(call, schema, { ...options, rawJson: "ignore", onDiagnostic }),
            );
            expect(got, expected.why).toEqual({
              ...fallback,
              diagnostics: ["raw-json-invalid ", ...fallback.diagnostics],
            });
            break;
          }
          case "agrees":
            expect(got).toEqual({
              text: raw,
              diagnostics: integerDiagnostics(expected.written, base),
            });
            break;
          case "disagrees":
            // One change at one place: exactly one differing path.
            expect(expected.paths).toHaveLength(1);
            expect(got).toEqual({
              error: { code: "raw-struct-mismatch", path: expected.paths[0] },
              diagnostics: [],
            });
            break;
        }
      }),
      runs(RUNS, 11_001),
    );
    // Each verdict is reached often (the generator is not stuck on one).
    for (const kind of ["malformed", "agrees", "disagrees"]) {
      expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(RUNS / 10);
    }
  });
});

describe("integer-written-as-float: the walk along the whole floats' paths only agrees with a walk of everything", () => {
  /** Every number written as a float (`5` → `5.0`), in the key order of the value. */
  function floatsEverywhere(v: JsonValue): string {
    if (typeof v === "number") {
      if (Object.is(v, -0)) return "-0.0";
      return Number.isInteger(v) ? `${BigInt(v)}.0` : String(v);
    }
    if (typeof v !== "object" || v === null) return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(floatsEverywhere).join(",")}]`;
    return `{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${floatsEverywhere((v as JsonObject)[k]!)}`)
      .join(",")}}`;
  }

  test("random schemas ($ref cycles, anyOf, patterns, discriminators, prototype-named members)", () => {
    fc.assert(
      fc.property(rootSchemaArb, argsArb, (schema, args) => {
        const raw = floatsEverywhere(args);
        const { list, onDiagnostic } = collectDiagnostics();
        expect(verifyRawJson(raw, args, schema, 100, onDiagnostic)).toBe(true);
        const everywhere: string[] = [];
        walkNumbers(args, schema, (path, value, reading) => {
          if (reading === "integer" && Number.isInteger(value))
            everywhere.push(`integer-written-as-float ${path.reduce<string>(child, "")}`);
        });
        // (The reader's notes along those paths are reported too: the test below.)
        const written = list.filter((d) => d.code === "integer-written-as-float");
        expect(written.map((d) => `${d.code} ${d.path}`).sort()).toEqual(everywhere.sort());
      }),
      runs(300, 11_002),
    );
  });

  test("the reader's notes along those paths are reported, as the Struct path reports them", () => {
    const patterned: JsonSchema = {
      type: "object",
      patternProperties: { "^id_": { type: "integer" } },
      properties: { n: { type: "integer" } },
    };
    const refToNowhere: JsonSchema = {
      type: "object",
      properties: { r: { $ref: "#/$defs/nowhere" }, n: { type: "integer" } },
    };
    const cases: [
      schema: JsonSchema,
      raw: string,
      args: JsonObject,
      patterns: PatternEngine | undefined,
      want: string[],
    ][] = [
      // Without an engine no member is known to escape the pattern: none is read.
      [
        patterned,
        '{"id_1":5.0,"n":2.0}',
        { id_1: 5, n: 2 },
        undefined,
        ["/id_1 schema-pattern-unevaluated", "/n schema-pattern-unevaluated"],
      ],
      [
        patterned,
        '{"id_1":5.0,"n":2.0}',
        { id_1: 5, n: 2 },
        re2Patterns,
        ["/id_1 integer-written-as-float", "/n integer-written-as-float"],
      ],
      [
        refToNowhere,
        '{"r":5.0,"n":2.0}',
        { r: 5, n: 2 },
        undefined,
        ["/r schema-ref-unresolved", "/n integer-written-as-float"],
      ],
      // Only where a whole float is: a note elsewhere does not concern the text passed on.
      [patterned, '{"id_1":5,"n":2}', { id_1: 5, n: 2 }, undefined, []],
      [refToNowhere, '{"r":5,"n":2.0}', { r: 5, n: 2 }, undefined, ["/n integer-written-as-float"]],
    ];
    for (const [schema, raw, args, patterns, want] of cases) {
      const { list, onDiagnostic } = collectDiagnostics();
      expect(verifyRawJson(raw, args, schema, 100, onDiagnostic, patterns)).toBe(true);
      expect(list.map((d) => `${d.path} ${d.code}`)).toEqual(want);
      // The Struct path reports the same notes (and more: it reads every number).
      const struct: string[] = [];
      structToJson(args, schema, {
        patterns,
        onDiagnostic: (d) => struct.push(`${d.path} ${d.code}`),
      });
      for (const w of want)
        if (!w.endsWith("integer-written-as-float")) expect(struct).toContain(w);
    }
  });
});

// ---------------------------------------------------------------------------
// The catalogue: each case of the oracle's rules, written out.

/** Objects with prototype-named members as own members (JSON.parse makes them so). */
const own = (text: string) => JSON.parse(text) as JsonObject;
const integerAt = (...keys: string[]): JsonSchema =>
  ({
    type: "object",
    properties: toObject(keys.map((k) => [k, { type: "integer" }] as const)),
  }) as JsonSchema;

describe("agrees: passed on byte for byte", () => {
  const rows: [name: string, args: JsonObject, raw: string, schema?: JsonSchema][] = [
    ["a key written with a \\u escape", { a: 1 }, '{"\\u0061":1}'],
    ["escapes in either case, in keys and strings", { é: "é" }, '{"\\u00E9":"\\u00e9"}'],
    ["an astral key as an escaped pair", { "😀": "😀" }, '{"\\uD83D\\uDE00":"\\ud83d\\ude00"}'],
    ["an escaped solidus", { a: "/" }, '{"a":"\\/"}'],
    ["a NUL character, escaped", { "\u0000": "\u0000" }, '{"\\u0000":"\\u0000"}'],
    ["an empty key", { "": 1 }, '{"":1}'],
    ["keys in another order", { a: 1, b: [2, { c: 3, d: 4 }] }, '{"b":[2,{"d":4,"c":3}],"a":1}'],
    ["whitespace JSON allows, around everything", { a: [1] }, '\r\n\t {\t"a"\n:\r[ 1 ] }\r\n\t '],
    [
      "prototype-named members",
      own('{"__proto__":{"a":1},"constructor":2,"toString":"x"}'),
      '{"toString":"x","__proto__":{"a":1},"constructor":2}',
    ],
    ["1e-400 underflows to +0", { a: 0 }, '{"a":1e-400}'],
    ["-1e-400 underflows to -0", { a: -0 }, '{"a":-1e-400}'],
    ["2e-324 rounds to +0", { a: 0 }, '{"a":2e-324}'],
    ["3e-324 rounds to the least subnormal", { a: 5e-324 }, '{"a":3e-324}'],
    [
      "a zero with a huge exponent",
      { a: 0, b: -0 },
      '{"a":0e99999999999999999999,"b":-0.0E-99999999999999999999}',
    ],
    [
      "a number just below the overflow threshold rounds to the largest double",
      { a: Number.MAX_VALUE },
      '{"a":1.797693134862315807e308}',
    ],
    [
      "an id above 2^53 (the Struct holds its float64)",
      { a: 9007199254740992 },
      '{"a":9007199254740993}',
    ],
    ["digits beyond precision, no schema", { a: 1 }, '{"a":1.0000000000000001}'],
    [
      "the same at a number position",
      { n: 1 },
      '{"n":1.0000000000000001}',
      { type: "object", properties: { n: { type: "number" } } } as JsonSchema,
    ],
  ];
  for (const [name, args, raw, schema] of rows) {
    test(name, () => {
      expect(verdict(raw, args, 100).kind).toBe("agrees");
      const { list, onDiagnostic } = collectDiagnostics();
      expect(toolCallToJson(arrive(args, raw).call, schema, { onDiagnostic })).toBe(raw);
      expect(list).toEqual([]);
    });
  }

  test("surrogate pairs half escaped, half literal (read directly: the wire would make the literal half U+FFFD)", () => {
    for (const raw of [
      '{"a":"\ud83d\\ude00"}',
      '{"a":"\\ud83d\ude00"}',
      '{"\ud83d\\ude00":1,"b":"\\ud83d\ude00"}',
    ]) {
      const struct = JSON.parse(raw) as JsonObject;
      expect(verdict(raw, struct, 100).kind).toBe("agrees");
      const { list, onDiagnostic } = collectDiagnostics();
      expect(verifyRawJson(raw, struct, null, 100, onDiagnostic)).toBe(true);
      expect(list).toEqual([]);
    }
  });

  test("nesting exactly at recursionLimit", () => {
    const raw = '{"a":[[1]],"b":{"c":{}}}';
    expect(toolCallToJson(arrive(own(raw), raw).call, null, { recursionLimit: 3 })).toBe(raw);
  });
});

describe("integer-written-as-float: whole numbers with a fraction or exponent at integer positions, exact paths", () => {
  const rows: [raw: string, args: JsonObject, schema: JsonSchema, paths: string[]][] = [
    ['{"n":5.0,"m":5}', { n: 5, m: 5 }, integerAt("n", "m"), ["/n"]],
    [
      '{"n":5e0,"m":0.5e1,"o":50e-1,"p":1.5E+1}',
      { n: 5, m: 5, o: 5, p: 15 },
      integerAt("n", "m", "o", "p"),
      ["/n", "/m", "/o", "/p"],
    ],
    ['{"z":-0.0,"y":0e-5}', { z: -0, y: 0 }, integerAt("z", "y"), ["/z", "/y"]],
    ['{"n":9007199254740993.0}', { n: 9007199254740992 }, integerAt("n"), ["/n"]],
    ['{"n":1e300}', { n: 1e300 }, integerAt("n"), ["/n"]],
    [
      '{"__proto__":5.0,"a/b":6.0,"~1":7.0}',
      own('{"__proto__":5,"a/b":6,"~1":7}'),
      integerAt("__proto__", "a/b", "~1"),
      ["/__proto__", "/a~1b", "/~01"],
    ],
    [
      '{"l":[1.0,2,{"k":[3.0]}]}',
      { l: [1, 2, { k: [3] }] },
      {
        type: "object",
        properties: {
          l: {
            type: "array",
            items: {
              anyOf: [
                { type: "integer" },
                {
                  type: "object",
                  properties: { k: { type: "array", items: { type: "integer" } } },
                },
              ],
            },
          },
        },
      } as JsonSchema,
      ["/l/0", "/l/2/k/0"],
    ],
    [
      '{"n":5.0}',
      { n: 5 },
      { type: "object", properties: { n: { type: "number" } } } as JsonSchema,
      [],
    ],
  ];
  for (const [raw, args, schema, paths] of rows) {
    test(raw, () => {
      const { list, onDiagnostic } = collectDiagnostics();
      expect(toolCallToJson(arrive(args, raw).call, schema, { onDiagnostic })).toBe(raw);
      expect(list).toEqual(paths.map((path) => ({ code: "integer-written-as-float", path })));
    });
  }
});

describe("disagrees: raw-struct-mismatch at the exact path", () => {
  const rows: [name: string, args: JsonObject, raw: string, path: string][] = [
    ["a key escape that spells another key", { a: 1 }, '{"a":1,"\\u0062":1}', "/b"],
    ["-1e-400 (−0) beside +0", { a: 0 }, '{"a":-1e-400}', "/a"],
    ["+0 beside -0", { a: -0 }, '{"a":0e5}', "/a"],
    ["3e-324 is not 0", { a: 0 }, '{"a":3e-324}', "/a"],
    [
      "digits past a tie move the float64 (…993.000…1 rounds up)",
      { a: 9007199254740992 },
      '{"a":9007199254740993.000000000000000001}',
      "/a",
    ],
    ["the next float64", { a: 0.1 }, '{"a":0.10000000000000002}', "/a"],
    [
      "the largest double beside Infinity (a forged Struct)",
      { a: Number.POSITIVE_INFINITY },
      '{"a":1.7976931348623157e308}',
      "/a",
    ],
    ["NaN in the Struct (a forged message) equals no text", { a: Number.NaN }, '{"a":null}', "/a"],
    ["a Struct key the text lacks", { a: 1, b: 2 }, '{"a":1}', "/b"],
    ["a text key the Struct lacks", { a: 1 }, '{"a":1,"b":null}', "/b"],
    ["__proto__ only in the text", {}, '{"__proto__":{}}', "/__proto__"],
    ["__proto__ only in the Struct", own('{"__proto__":{}}'), "{}", "/__proto__"],
    ["constructor only in the text", {}, '{"constructor":{}}', "/constructor"],
    ["toString only in the Struct", own('{"toString":1}'), "{}", "/toString"],
    ["an object for an array", { a: [1] }, '{"a":{"0":1}}', "/a"],
    ["an array for an object", { a: { "0": 1 } }, '{"a":[1]}', "/a"],
    ["a longer array", { a: [1, 2] }, '{"a":[1,2,3]}', "/a"],
    ["an escaped NUL appended", { a: "x" }, '{"a":"x\\u0000"}', "/a"],
    ["no Unicode normalization (NFD beside NFC)", { a: "\u00e9" }, '{"a":"e\\u0301"}', "/a"],
    ["a string for a number", { a: 1 }, '{"a":"1"}', "/a"],
    ["false for null", { a: null }, '{"a":false}', "/a"],
    ["pointer escapes: /", { "a/b": 1 }, '{"a/b":2}', "/a~1b"],
    ["pointer escapes: ~", { "~": 1 }, '{"~":2}', "/~0"],
    ["the empty key", { "": 1 }, '{"":2}', "/"],
    ["deep inside", { a: { b: [0, { c: true }] } }, '{"a":{"b":[0,{"c":false}]}}', "/a/b/1/c"],
    ["one level deeper, within recursionLimit", { a: [1] }, '{"a":[[1]]}', "/a/0"],
  ];
  for (const [name, args, raw, path] of rows) {
    test(`${name}: ${path}`, () => {
      expect(verdict(raw, args, 100)).toEqual({ kind: "disagrees", paths: [path] });
      const { call, result } = arrive(args, raw);
      for (const decode of [
        (onDiagnostic: (d: { code: string; path: string }) => void) =>
          toolCallToJson(call, null, { onDiagnostic }),
        (onDiagnostic: (d: { code: string; path: string }) => void) =>
          toolResultToJson(result, null, { onDiagnostic }),
      ]) {
        expect(outcome(decode)).toEqual({
          error: { code: "raw-struct-mismatch", path },
          diagnostics: [],
        });
      }
    });
  }
});

describe("malformed: raw-json-invalid, then the Struct decoded as without the text", () => {
  const rows: [
    name: string,
    args: JsonObject,
    raw: string,
    options?: { recursionLimit?: number; nonFinite?: "null" },
  ][] = [
    ["a repeated key with the same value", { a: 1 }, '{"a":1,"a":1}'],
    [
      "a repeated key spelled with an escape, in a nested object",
      { o: { a: 1 } },
      '{"o":{"a":1,"\\u0061":1}}',
    ],
    ["a repeated __proto__", own('{"__proto__":1}'), '{"__proto__":1,"__proto__":1}'],
    ["a lone high surrogate, escaped, in a key", { a: 1 }, '{"a":1,"\\ud800":1}'],
    ["a lone low surrogate, escaped, in a string", { a: "x" }, '{"a":"x\\udc00"}'],
    ["a reversed pair", { a: "x" }, '{"a":"\\udc00\\ud800"}'],
    ["1e400", { a: 1 }, '{"a":1e400}'],
    ["-1e400", { a: 1 }, '{"a":-1e400}'],
    ["a 310-digit integer", { a: 1 }, `{"a":1${"0".repeat(309)}}`],
    ["a line separator before the object", { a: 1 }, '\u2028{"a":1}'],
    ["a no-break space after it", { a: 1 }, '{"a":1}\u00a0'],
    ["a NUL after it", { a: 1 }, '{"a":1}\u0000'],
    ["a vertical tab before it", { a: 1 }, '\u000b{"a":1}'],
    [
      "nesting one level beyond recursionLimit (the Struct too: its decoding throws)",
      own('{"a":[[[1]]]}'),
      '{"a":[[[1]]]}',
      { recursionLimit: 3 },
    ],
    [
      "an empty array one level beyond recursionLimit",
      own('{"a":[[[]]]}'),
      '{"a":[[[]]]}',
      { recursionLimit: 3 },
    ],
    [
      "a text deeper than recursionLimit beside a shallower Struct",
      { a: [[1]] },
      '{"a":[[[1]]]}',
      { recursionLimit: 3 },
    ],
    [
      "Infinity in the Struct, 1e400 in the text: nonFinite null",
      { a: Number.POSITIVE_INFINITY },
      '{"a":1e400}',
      { nonFinite: "null" },
    ],
    [
      "Infinity in the Struct, 1e400 in the text: nonFinite error",
      { a: Number.POSITIVE_INFINITY },
      '{"a":1e400}',
    ],
  ];
  for (const [name, args, raw, options] of rows) {
    test(name, () => {
      expect(verdict(raw, args, options?.recursionLimit ?? 100).kind).toBe("malformed");
      const { call } = arrive(args, raw);
      const fallback = outcome((onDiagnostic) =>
        toolCallToJson(call, null, { ...options, rawJson: "ignore", onDiagnostic }),
      );
      expect(
        outcome((onDiagnostic) => toolCallToJson(call, null, { ...options, onDiagnostic })),
      ).toEqual({
        ...fallback,
        diagnostics: ["raw-json-invalid ", ...fallback.diagnostics],
      });
    });
  }

  test("the fallbacks above, as they are", () => {
    const decoded = (args: JsonObject, raw: string, options: object) =>
      outcome((onDiagnostic) =>
        toolCallToJson(arrive(args, raw).call, null, { ...options, onDiagnostic }),
      );
    expect(decoded(own('{"a":[[[1]]]}'), '{"a":[[[1]]]}', { recursionLimit: 3 })).toEqual({
      error: { code: "recursion-limit", path: "/a/0/0" },
      diagnostics: ["raw-json-invalid "],
    });
    expect(decoded({ a: [[1]] }, '{"a":[[[1]]]}', { recursionLimit: 3 })).toEqual({
      text: '{"a":[[1]]}',
      diagnostics: ["raw-json-invalid "],
    });
    expect(decoded({ a: Number.POSITIVE_INFINITY }, '{"a":1e400}', { nonFinite: "null" })).toEqual({
      text: '{"a":null}',
      diagnostics: ["raw-json-invalid ", "non-finite-number /a"],
    });
    expect(decoded({ a: Number.POSITIVE_INFINITY }, '{"a":1e400}', {})).toEqual({
      error: { code: "non-finite-number", path: "/a" },
      diagnostics: ["raw-json-invalid "],
    });
  });

  test("a lone surrogate written literally (read directly: on the wire it would become U+FFFD)", () => {
    for (const raw of ['{"a":"\ud800"}', '{"\udc00":1}', '{"a":"\ude00\ud83d"}']) {
      const { list, onDiagnostic } = collectDiagnostics();
      expect(verifyRawJson(raw, JSON.parse(raw) as JsonObject, null, 100, onDiagnostic)).toBe(
        false,
      );
      expect(list).toEqual([{ code: "raw-json-invalid", path: "" }]);
    }
  });
});

// ---------------------------------------------------------------------------
// Whole floats deep down. The verification notes where each whole number
// written with a fraction (`1.0`) sits; a path costs its depth, so a text of
// many `1.0` deep down once cost (count × depth) in paths held at once: 200
// times the text at the default recursionLimit, quadratic with a raised one.

describe("many whole floats deep down: work linear in the text, same diagnostics", () => {
  test("30,000 of them 30,000 levels deep (raised recursionLimit): passed on, quickly", () => {
    const depth = 30_000;
    const raw = `{"a":${"[".repeat(depth)}${"1.0,".repeat(depth - 1)}1.0${"]".repeat(depth)}}`;
    // Built by the encoder (protobuf-es's binary reader stops at 100 message levels).
    const call = toolCallFromJson({ name: "t", argumentsJson: raw }, { recursionLimit: 1e9 });
    const schema = { type: "object", properties: { a: {} } } as JsonSchema;
    const { list, onDiagnostic } = collectDiagnostics();
    const { result, ms } = timed(() =>
      toolCallToJson(call, schema, { recursionLimit: 1e9, onDiagnostic }),
    );
    expect(result).toBe(raw);
    expect(list).toEqual([]);
    expect(ms).toBeLessThan(BOUND.fast);
  });

  test("thousands of them under one 20,000-character key, at integer positions: every one reported, quickly", () => {
    // V8 hashes a string of more than 16,383 characters by its length alone:
    // JSON Pointers under one long key all collide in a Set or Map keyed by them.
    const key = "k".repeat(20_000);
    const count = 4_000;
    for (const depth of [1, 20]) {
      const open = "[".repeat(depth - 1);
      const close = "]".repeat(depth - 1);
      const raw = `{"${key}":[${open}${"1.0,".repeat(count - 1)}1.0${close}]}`;
      const call = toolCallFromJson({ name: "t", argumentsJson: raw });
      let items: JsonSchema = { type: "integer" };
      for (let i = 1; i < depth; i++) items = { type: "array", items };
      const schema = { type: "object", additionalProperties: { type: "array", items } };
      const { list, onDiagnostic } = collectDiagnostics();
      const { result, ms } = timed(() =>
        toolCallToJson(call, schema as JsonSchema, { onDiagnostic }),
      );
      expect(result).toBe(raw);
      expect(list).toHaveLength(count);
      const prefix = `/${key}${"/0".repeat(depth - 1)}`;
      expect(
        list.every((d, i) => d.code === "integer-written-as-float" && d.path === `${prefix}/${i}`),
      ).toBe(true);
      expect(ms).toBeLessThan(BOUND.fast);
    }
  });

  test("the same through repair (toolCallToJson's `repair`): every one rewritten as an integer, quickly", () => {
    const key = "k".repeat(20_000);
    const count = 4_000;
    const raw = `{"${key}":[${"1.0,".repeat(count - 1)}1.0]}`;
    const call = toolCallFromJson({ name: "t", argumentsJson: raw });
    const schema = {
      type: "object",
      additionalProperties: { type: "array", items: { type: "integer" } },
    } as JsonSchema;
    const { list, onDiagnostic } = collectDiagnostics();
    const { result, ms } = timed(() =>
      toolCallToJson(call, schema, { repair: repairArguments, onDiagnostic }),
    );
    expect(result).toBe(`{"${key}":[${"1,".repeat(count - 1)}1]}`);
    expect(list.filter((d) => d.code === "argument-repaired")).toHaveLength(count);
    expect(ms).toBeLessThan(BOUND.fast);
  });

  /** The same value with every integer written as a whole float (`5` → `5.0`). */
  function floatsEverywhere(n: Node): Node {
    switch (n.k) {
      case "num":
        return { ...n, text: respell(n.text, 1) };
      case "arr":
        return { k: "arr", items: n.items.map(floatsEverywhere) };
      case "obj":
        return {
          k: "obj",
          members: n.members.map((m) => ({ key: m.key, value: floatsEverywhere(m.value) })),
        };
      default:
        return n;
    }
  }
  function numbers(n: Node): number {
    if (n.k === "num") return 1;
    if (n.k === "arr") return n.items.reduce((s, x) => s + numbers(x), 0);
    if (n.k === "obj") return n.members.reduce((s, m) => s + numbers(m.value), 0);
    return 0;
  }

  test("a value and whole floats nested 1 to 150 arrays deep: integer-written-as-float exactly where the oracle says, in text order, the text padded or not", () => {
    fc.assert(
      fc.property(
        objectNode(4),
        fc.array(fc.nat(11), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 150 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat(3)), { maxLength: 8 }),
        (inner, choices, depth, extra) => {
          // Beside the value, whole floats (and floats whose float64 is whole) read as
          // integer or not: more path than text.
          let wrapped: Node = {
            k: "arr",
            items: [
              floatsEverywhere(inner),
              ...extra.map(([integer, how], i): Node => {
                const text = [`${i}.0`, `${i + 1}e0`, `${i + 1}.00000000000000001`, "1e-400"][how]!;
                return { k: "num", text, integer };
              }),
            ],
          };
          for (let i = 0; i < depth; i++) wrapped = { k: "arr", items: [wrapped] };
          const base: Node = { k: "obj", members: [{ key: "w", value: wrapped }] };
          const text = write(base, new Pen(choices));
          const struct = structOf(base) as JsonObject;
          const schema = schemaOf(base);
          const expected = verdict(text, struct, 1000);
          if (expected.kind !== "agrees") throw new Error("the generator writes the value itself");
          const diagnostics = integerDiagnostics(expected.written, base);
          // Padding makes the text long enough to hold every path: the same verdict either way.
          const padding = " ".repeat(numbers(base) * (depth + 10));
          for (const raw of [text, `${text}${padding}`, `${padding}${text}`]) {
            // Built by the encoder (protobuf-es's binary reader stops at 100 message levels).
            const call = toolCallFromJson(
              { name: "t", argumentsJson: raw },
              { recursionLimit: 1000 },
            );
            expect(sameTree(call.args, struct)).toBe(true);
            expect(
              outcome((onDiagnostic) =>
                toolCallToJson(call, schema, { recursionLimit: 1000, onDiagnostic }),
              ),
            ).toEqual({ text: raw, diagnostics });
          }
        },
      ),
      runs(100, 11_003),
    );
  });
});
