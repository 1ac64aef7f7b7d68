// The diagnostics of a raw text passed on (toolCallToJson / toolResultToJson
// with rawJson "verify") against those of the Struct path (rawJson "ignore")
// for the same arguments and schema. They agree except where documented in
// docs/codes.md ("Raw text beside the Struct"):
// - the raw path reports what the text writes at an integer position: a
//   number written with a fraction or exponent is `integer-written-as-float`
//   when it denotes a whole number (`5.0`) and `not-an-integer` when it does
//   not (`1.5`; also `1e-400`, `1.0000000000000001` and `9007199254740993.5`,
//   whose float64s are whole, so the Struct path says nothing or
//   `integer-precision-lost` there);
// - `integer-precision-lost`, `number-precision-lost` and `ambiguous-number`
//   are about how the Struct path writes a float64: the raw path writes none;
// - the schema's notes are reported by the raw path only along the paths of
//   numbers written with a fraction or exponent (where a diagnostic of its own
//   may be missing), by the Struct path wherever it reads.
import { create, fromBinary, type JsonObject, type JsonValue, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import { isStructJsonError } from "../src/errors.js";
import { re2Patterns } from "../src/patterns/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { inspectNumbers } from "../src/struct/to-json.js";
import { type ToolCallToJsonOptions, toolCallToJson } from "../src/tool/tool-call.js";
import { toolResultToJson } from "../src/tool/tool-result.js";
import { shapeSchema } from "./inspect-shape-schema.js";
import { runs } from "./property-arbitraries.js";
import { denotesWhole, pointerToken } from "./raw-text-oracles.js";
import { argsArb, rootSchemaArb, toObject } from "./schema-arbitraries.js";

/**
 * A call and a result carrying `args` and `raw`, as they arrive: through a
 * binary round trip, unless `wire` is false (protobuf-es's binary reader
 * stops at 100 message levels, 49 JSON levels).
 */
function arrive(
  args: JsonObject,
  raw: string,
  wire = true,
): { call: CallMCPTool; result: MCPToolResult } {
  const call = create(CallMCPToolSchema, { name: "t", args, rawArgsJson: raw });
  const result = create(MCPToolResultSchema, {
    structuredContent: args,
    rawStructuredContentJson: raw,
  });
  if (!wire) return { call, result };
  return {
    call: fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, call)),
    result: fromBinary(MCPToolResultSchema, toBinary(MCPToolResultSchema, result)),
  };
}

/** What a decoding gave: text or error, and the diagnostics on the way (`code path`). */
interface Outcome {
  readonly text?: string;
  readonly error?: string;
  readonly diagnostics: readonly string[];
}

function outcome(decode: (onDiagnostic: (d: { code: string; path: string }) => void) => string) {
  const diagnostics: string[] = [];
  try {
    const text = decode((d) => diagnostics.push(`${d.code} ${d.path}`));
    return { text, diagnostics } as Outcome;
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    return { error: `${e.code} ${e.path}`, diagnostics } as Outcome;
  }
}

/** Both paths, through both messages (which must agree with each other). */
function bothPaths(
  args: JsonObject,
  raw: string,
  schema: JsonSchema | undefined,
  options: Partial<ToolCallToJsonOptions> = {},
  wire = true,
): { raw: Outcome; struct: Outcome } {
  const { call, result } = arrive(args, raw, wire);
  const run = (rawJson: "verify" | "ignore") => {
    const viaCall = outcome((onDiagnostic) =>
      toolCallToJson(call, schema, { ...options, rawJson, onDiagnostic }),
    );
    const viaResult = outcome((onDiagnostic) =>
      toolResultToJson(result, schema, { ...options, rawJson, onDiagnostic }),
    );
    expect(viaResult, "toolResultToJson decodes as toolCallToJson").toEqual(viaCall);
    return viaCall;
  };
  return { raw: run("verify"), struct: run("ignore") };
}

const at = (key: string, schema: JsonSchema): JsonSchema =>
  ({ type: "object", properties: toObject([[key, schema]]) }) as JsonSchema;
const INTEGER: JsonSchema = { type: "integer" };
const NUMBER: JsonSchema = { type: "number" };
const EITHER: JsonSchema = { type: ["integer", "number"] };

describe("one number, each path's diagnostics exactly", () => {
  const rows: [
    name: string,
    raw: string,
    schema: JsonSchema,
    rawPath: string[],
    structPath: string[],
  ][] = [
    // Agreeing.
    [
      "1.5 at an integer position",
      '{"n":1.5}',
      at("n", INTEGER),
      ["not-an-integer /n"],
      ["not-an-integer /n"],
    ],
    ["15e-1", '{"n":15e-1}', at("n", INTEGER), ["not-an-integer /n"], ["not-an-integer /n"]],
    ["-0.5E0", '{"n":-0.5E0}', at("n", INTEGER), ["not-an-integer /n"], ["not-an-integer /n"]],
    ["5e-324", '{"n":5e-324}', at("n", INTEGER), ["not-an-integer /n"], ["not-an-integer /n"]],
    ["an integer", '{"n":5}', at("n", INTEGER), [], []],
    ["-0", '{"n":-0}', at("n", INTEGER), [], []],
    ["1.5 at a number position", '{"n":1.5}', at("n", NUMBER), [], []],
    ["5.0 at a number position", '{"n":5.0}', at("n", NUMBER), [], []],
    ["1.5 at an ambiguous position (a number)", '{"n":1.5}', at("n", EITHER), [], []],
    [
      "1.5 where anyOf reads integer",
      '{"n":1.5}',
      at("n", { anyOf: [INTEGER, { type: "string" }] }),
      ["not-an-integer /n"],
      ["not-an-integer /n"],
    ],
    [
      "a prototype-named member",
      '{"__proto__":2.5}',
      at("__proto__", INTEGER),
      ["not-an-integer /__proto__"],
      ["not-an-integer /__proto__"],
    ],
    [
      "an escaped key, pointer escapes in the path",
      '{"\\u0061/~":2.5}',
      at("a/~", INTEGER),
      ["not-an-integer /a~1~0"],
      ["not-an-integer /a~1~0"],
    ],
    [
      "a $ref to nowhere: its note on both paths",
      '{"r":1.5}',
      at("r", { $ref: "#/$defs/nowhere" }),
      ["schema-ref-unresolved /r"],
      ["schema-ref-unresolved /r"],
    ],
    [
      "a pattern no engine evaluated: its note on both paths",
      '{"id_1":1.5}',
      { type: "object", patternProperties: { "^id_": INTEGER } },
      ["schema-pattern-unevaluated /id_1"],
      ["schema-pattern-unevaluated /id_1"],
    ],
    // Documented differences: what the text writes.
    [
      "5.0 at an integer position",
      '{"n":5.0}',
      at("n", INTEGER),
      ["integer-written-as-float /n"],
      [],
    ],
    ["5e0", '{"n":5e0}', at("n", INTEGER), ["integer-written-as-float /n"], []],
    ["-0.0", '{"n":-0.0}', at("n", INTEGER), ["integer-written-as-float /n"], []],
    ["1e-400 (float64 0)", '{"n":1e-400}', at("n", INTEGER), ["not-an-integer /n"], []],
    ["-1e-400 (float64 -0)", '{"n":-1e-400}', at("n", INTEGER), ["not-an-integer /n"], []],
    [
      "1.0000000000000001 (float64 1)",
      '{"n":1.0000000000000001}',
      at("n", INTEGER),
      ["not-an-integer /n"],
      [],
    ],
    [
      "9007199254740993.5 (float64 9007199254740994)",
      '{"n":9007199254740993.5}',
      at("n", INTEGER),
      ["not-an-integer /n"],
      ["integer-precision-lost /n"],
    ],
    [
      "9007199254740993.0 (float64 9007199254740992)",
      '{"n":9007199254740993.0}',
      at("n", INTEGER),
      ["integer-written-as-float /n"],
      ["integer-precision-lost /n"],
    ],
    // Documented differences: how the Struct path writes a float64.
    [
      "an id above 2^53",
      '{"n":9007199254740993}',
      at("n", INTEGER),
      [],
      ["integer-precision-lost /n"],
    ],
    [
      "an id above 2^53 at a number position",
      '{"n":9007199254740993}',
      at("n", NUMBER),
      [],
      ["number-precision-lost /n"],
    ],
    ["5.0 at an ambiguous position", '{"n":5.0}', at("n", EITHER), [], ["ambiguous-number /n"]],
    [
      "1e-400 at an ambiguous position",
      '{"n":1e-400}',
      at("n", EITHER),
      [],
      ["ambiguous-number /n"],
    ],
    // Documented difference: the raw path's notes only along numbers written with a fraction.
    [
      "a $ref to nowhere over an integer text",
      '{"r":1}',
      at("r", { $ref: "#/$defs/nowhere" }),
      [],
      ["schema-ref-unresolved /r"],
    ],
  ];
  for (const [name, raw, schema, rawPath, structPath] of rows) {
    test(`${name}: ${raw}`, () => {
      const args = JSON.parse(raw) as JsonObject;
      const got = bothPaths(args, raw, schema);
      expect(got.raw).toEqual({ text: raw, diagnostics: rawPath });
      expect(got.struct.diagnostics).toEqual(structPath);
    });
  }

  test("several in an array, in the text's order", () => {
    const raw = '{"l":[1,2.5,3.0,4e-1,5E0,1e-400]}';
    const got = bothPaths(
      JSON.parse(raw) as JsonObject,
      raw,
      at("l", { type: "array", items: INTEGER }),
    );
    expect(got.raw).toEqual({
      text: raw,
      diagnostics: [
        "not-an-integer /l/1",
        "integer-written-as-float /l/2",
        "not-an-integer /l/3",
        "integer-written-as-float /l/4",
        "not-an-integer /l/5",
      ],
    });
    expect(got.struct.diagnostics).toEqual(["not-an-integer /l/1", "not-an-integer /l/3"]);
  });

  test("a pattern evaluated by an engine reads integer on both paths", () => {
    const raw = '{"id_1":1.5,"id_2":2.0}';
    const got = bothPaths(
      JSON.parse(raw) as JsonObject,
      raw,
      { type: "object", patternProperties: { "^id_": INTEGER } },
      { patterns: re2Patterns },
    );
    expect(got.raw.diagnostics).toEqual(["not-an-integer /id_1", "integer-written-as-float /id_2"]);
    expect(got.struct.diagnostics).toEqual(["not-an-integer /id_1"]);
  });

  test("many numbers with a fraction deep down (paths past the text's length): the same diagnostics, in order", () => {
    const depth = 60;
    const count = 200;
    const items = Array.from({ length: count }, (_, i) => (i % 2 === 0 ? "1.5" : "2.0")).join(",");
    const raw = `{"a":${"[".repeat(depth)}${items}${"]".repeat(depth)}}`;
    let schema: JsonSchema = INTEGER;
    for (let i = 0; i < depth; i++) schema = { type: "array", items: schema };
    const got = bothPaths(
      JSON.parse(raw) as JsonObject,
      raw,
      at("a", schema),
      { recursionLimit: 200 },
      false,
    );
    const prefix = `/a${"/0".repeat(depth - 1)}`;
    expect(got.raw).toEqual({
      text: raw,
      diagnostics: Array.from(
        { length: count },
        (_, i) => `${i % 2 === 0 ? "not-an-integer" : "integer-written-as-float"} ${prefix}/${i}`,
      ),
    });
    expect(got.struct.diagnostics).toEqual(
      Array.from({ length: count / 2 }, (_, i) => `not-an-integer ${prefix}/${2 * i}`),
    );
  });
});

describe("a raw text that is one number (not an object): raw-json-invalid, then the Struct path's own", () => {
  for (const raw of ["1.5", "5.0", " -0.0e1 ", "1e-400", "1.7976931348623157e308", "[1.5]"]) {
    test(JSON.stringify(raw), () => {
      const got = bothPaths({ n: 1.5 }, raw, at("n", INTEGER));
      expect(got.raw).toEqual({
        text: '{"n":1.5}',
        diagnostics: ["raw-json-invalid ", "not-an-integer /n"],
      });
      expect(got.struct).toEqual({ text: '{"n":1.5}', diagnostics: ["not-an-integer /n"] });
    });
  }
});

describe("canonical output is the Struct's: the Struct path's diagnostics, once", () => {
  const rows: [raw: string, schema: JsonSchema][] = [
    [
      '{"r":5.0,"n":2.0}',
      { type: "object", properties: { r: { $ref: "#/$defs/nowhere" }, n: INTEGER } },
    ],
    [
      '{"n":1.5,"m":1e-400,"k":9007199254740993.5}',
      { type: "object", additionalProperties: INTEGER },
    ],
    ['{"id_1":1.5,"x":2.0}', { type: "object", patternProperties: { "^id_": INTEGER } }],
  ];
  for (const [raw, schema] of rows) {
    test(raw, () => {
      const got = bothPaths(JSON.parse(raw) as JsonObject, raw, schema, { canonical: true });
      expect(got.raw).toEqual(got.struct);
    });
  }
});

describe('rawJson "trust" checks the decoder\'s options as the other modes do', () => {
  const rows: [option: string, options: Record<string, unknown>][] = [
    ["indent", { indent: -1 }],
    ["indent", { indent: 11 }],
    ["wholeFloats", { wholeFloats: "float" }],
    ["nonFinite", { nonFinite: "zero" }],
    ["recursionLimit", { recursionLimit: -1 }],
    ["onDiagnostic", { onDiagnostic: "log" }],
    ["patterns", { patterns: {} }],
    ["canonical", { canonical: true, indent: 2 }],
  ];
  for (const [option, options] of rows) {
    test(`${option}: ${JSON.stringify(options)}`, () => {
      const { call, result } = arrive({ a: 1 }, '{"a":1}');
      for (const rawJson of ["trust", "verify", "ignore"] as const) {
        for (const decode of [
          () =>
            toolCallToJson(call, null, { ...options, rawJson } as Partial<ToolCallToJsonOptions>),
          () =>
            toolResultToJson(result, null, {
              ...options,
              rawJson,
            } as Partial<ToolCallToJsonOptions>),
        ]) {
          let error: unknown;
          try {
            decode();
          } catch (e) {
            error = e;
          }
          expect(isStructJsonError(error) && error.code, `${rawJson}`).toBe("option-invalid");
          expect((error as Error).message).toContain(option);
        }
      }
    });
  }
});

// ---------------------------------------------------------------------------
// Generated: random schemas ($ref cycles, anyOf, patterns, discriminators,
// prototype-named members) over random arguments, each number spelled in one
// of the ways that keep its float64.

/** A spelling of `v` whose float64 is `v` (Object.is): exact, with a fraction, or one that denotes another number. */
function spell(v: number, how: number): string {
  if (Object.is(v, -0)) return ["-0", "-0.0", "-0e0", "-1e-400"][how % 4]!;
  if (v === 0) return ["0", "0.0", "0E+0", "1e-400"][how % 4]!;
  if (!Number.isInteger(v)) {
    const s = String(v);
    if (how % 3 === 1 && s.includes(".")) return s.replace(/(\.\d+)/, "$100");
    if (how % 3 === 2) return s.replace("e", "E");
    return s;
  }
  if (Math.abs(v) >= 1e21)
    return [String(v), String(v).replace("e+", "E"), `${BigInt(v)}`][how % 3]!;
  const digits = BigInt(v).toString();
  // Digits past a float64's precision: not a whole number, yet its float64 is `v`
  // (an ulp is at least 2^-52 × |v| ≥ 2^-52; from 2^53 on, at least 2).
  const past = Math.abs(v) >= 2 ** 53 ? `${digits}.1` : `${digits}.000000000000000000001`;
  return [digits, `${digits}.0`, `${digits}e0`, `${digits}0e-1`, past][how % 5]!;
}

/** The text of `value`, each number spelled by `choices` (cycled); each number's path and text in order. */
function write(value: JsonValue, choices: readonly number[]) {
  let k = 0;
  const numbers: { path: string; text: string }[] = [];
  const go = (v: JsonValue, path: string): string => {
    if (typeof v === "number") {
      const text = spell(v, choices[k++ % choices.length]!);
      numbers.push({ path, text });
      return text;
    }
    if (typeof v !== "object" || v === null) return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map((x, i) => go(x, `${path}/${i}`)).join(",")}]`;
    return `{${Object.keys(v)
      .map(
        (key) =>
          `${JSON.stringify(key)}:${go((v as JsonObject)[key]!, `${path}/${pointerToken(key)}`)}`,
      )
      .join(",")}}`;
  };
  return { text: go(value, ""), numbers };
}

const STRUCT_ONLY = new Set([
  "integer-precision-lost",
  "number-precision-lost",
  "ambiguous-number",
]);
const TEXT_CODES = new Set(["integer-written-as-float", "not-an-integer"]);

describe("generated arguments and schemas: the raw path's diagnostics are the Struct path's, except where documented", () => {
  test("same text as written; integer codes from the text; notes along the numbers written with a fraction", () => {
    let compared = 0;
    let differing = 0;
    fc.assert(
      fc.property(
        fc.option(rootSchemaArb, { freq: 2 }),
        argsArb,
        fc.array(fc.nat(59), { minLength: 1, maxLength: 9 }),
        (randomSchema, args, choices) => {
          const schema = randomSchema ?? shapeSchema(args, choices.slice().reverse());
          const { text, numbers } = write(args, choices);
          const got = bothPaths(args, text, schema);
          if (got.struct.error !== undefined) {
            // The Struct path throws (schema-invalid, say): so does the raw path, or it passes the text on.
            return;
          }
          expect(got.raw.text).toBe(text);
          // The readings, from a third consumer of the same walk.
          const readings = new Map(inspectNumbers(args, schema).map((n) => [n.path, n.reading]));
          const fractions = numbers.filter((n) => !/^-?\d+$/.test(n.text));
          const expectedText = fractions
            .filter((n) => readings.get(n.path) === "integer")
            .map(
              (n) =>
                `${denotesWhole(n.text) ? "integer-written-as-float" : "not-an-integer"} ${n.path}`,
            );
          const rawText = got.raw.diagnostics.filter((d) => TEXT_CODES.has(d.split(" ")[0]!));
          expect(rawText).toEqual(expectedText);
          // Every not-an-integer of the Struct path is one of the raw path's; the others
          // are where the float64 is whole but the text is not.
          const structNot = got.struct.diagnostics.filter((d) => d.startsWith("not-an-integer "));
          const rawNot = rawText.filter((d) => d.startsWith("not-an-integer "));
          expect(rawNot.filter((d) => !structNot.includes(d))).toEqual(
            fractions
              .filter(
                (n) =>
                  readings.get(n.path) === "integer" &&
                  !denotesWhole(n.text) &&
                  Number.isInteger(Number(n.text)),
              )
              .map((n) => `not-an-integer ${n.path}`),
          );
          expect(structNot.filter((d) => !rawNot.includes(d))).toEqual([]);
          if (rawNot.length > structNot.length) differing++;
          // The notes: the Struct path's at the positions along a number written with a
          // fraction (a reader that ran out of budget on the longer walk aside).
          const notes = (list: readonly string[]) =>
            list.filter(
              (d) => !TEXT_CODES.has(d.split(" ")[0]!) && !STRUCT_ONLY.has(d.split(" ")[0]!),
            );
          if (got.struct.diagnostics.some((d) => d.startsWith("schema-too-complex "))) return;
          compared++;
          const along = (path: string) =>
            fractions.some((n) => n.path === path || n.path.startsWith(`${path}/`));
          expect(notes(got.raw.diagnostics).sort()).toEqual(
            notes(got.struct.diagnostics)
              .filter((d) => along(d.slice(d.indexOf(" ") + 1)))
              .sort(),
          );
        },
      ),
      runs(400, 12_001),
    );
    expect(compared).toBeGreaterThan(200);
    expect(differing).toBeGreaterThan(10);
  });
});
