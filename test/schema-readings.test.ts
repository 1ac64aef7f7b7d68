// Number readings from one schema's own keywords, their conjunction and
// disjunction, and the seed table. Each row: a schema for member "v"
// (or a whole schema), the arguments, and the exact readings and notes.
import { describe, expect, test } from "vitest";
import { walk, walkJson } from "./schema-walk.js";

type Row = [name: string, schema: unknown, args: string, readings: Record<string, string>];

/** Rows whose schema applies to member "v" of an object; args are the value of "v". */
const memberRows: Row[] = [
  // type
  ["type integer, whole", { type: "integer" }, "5", { "/v": "integer" }],
  ["type integer, non-whole", { type: "integer" }, "5.5", { "/v": "integer" }],
  ["type number", { type: "number" }, "1", { "/v": "number" }],
  ["type string (none)", { type: "string" }, "1", { "/v": "unknown" }],
  ["type boolean (none)", { type: "boolean" }, "1", { "/v": "unknown" }],
  ["type [integer, null]", { type: ["integer", "null"] }, "1", { "/v": "integer" }],
  ["type [null, integer] (Go)", { type: ["null", "integer"] }, "1", { "/v": "integer" }],
  ["type [number, null] (zod 3)", { type: ["number", "null"] }, "1", { "/v": "number" }],
  ["type [integer, number], whole", { type: ["integer", "number"] }, "1", { "/v": "ambiguous" }],
  ["type [integer, number], non-whole", { type: ["integer", "number"] }, "1.5", { "/v": "number" }],
  ["type [string, null] (none)", { type: ["string", "null"] }, "1", { "/v": "unknown" }],
  // const / enum
  ["const whole", { const: 3 }, "3", { "/v": "integer" }],
  ["const 3.0 as text", JSON.parse('{"const":3.0}'), "3", { "/v": "integer" }],
  ["const non-whole", { const: 2.5 }, "2.5", { "/v": "number" }],
  ["const string (none)", { const: "a" }, "1", { "/v": "unknown" }],
  ["const null (none)", { const: null }, "1", { "/v": "unknown" }],
  ["enum all whole", { enum: [1, 2, 3] }, "2", { "/v": "integer" }],
  ["enum some non-whole", { enum: [1, 2.5] }, "1", { "/v": "number" }],
  ["enum numbers and strings", { enum: [1, "a", null] }, "1", { "/v": "integer" }],
  ["enum no numbers (none)", { enum: ["a", null] }, "1", { "/v": "unknown" }],
  [
    "zod 3 int literal union: type number + enum",
    { type: "number", enum: [1, 2] },
    "1",
    { "/v": "integer" },
  ],
  ["zod literal: type number + const", { type: "number", const: 3 }, "3", { "/v": "integer" }],
  // multipleOf
  ["multipleOf 1", { multipleOf: 1 }, "4", { "/v": "integer" }],
  ["type number, multipleOf 5", { type: "number", multipleOf: 5 }, "10", { "/v": "integer" }],
  ["type number, multipleOf 0.5", { type: "number", multipleOf: 0.5 }, "1", { "/v": "number" }],
  ["multipleOf 0.5 alone", { multipleOf: 0.5 }, "1", { "/v": "unknown" }],
  ["multipleOf -1 (malformed)", { multipleOf: -1 }, "1", { "/v": "unknown" }],
  // nothing said
  ["true", true, "1", { "/v": "unknown" }],
  ["false (none)", false, "1", { "/v": "unknown" }],
  ["{}", {}, "1", { "/v": "unknown" }],
  ["annotations only", { title: "V", description: "d", default: 1 }, "1", { "/v": "unknown" }],
  ["minimum/maximum only", { minimum: 0, maximum: 10 }, "1", { "/v": "unknown" }],
  ["not is ignored", { not: { type: "integer" } }, "1", { "/v": "unknown" }],
  // conjunction: none > integer > ambiguous > number > unknown
  [
    "allOf number + integer",
    { allOf: [{ type: "number" }, { type: "integer" }] },
    "1",
    { "/v": "integer" },
  ],
  [
    "allOf integer + string: none wins",
    { allOf: [{ type: "integer" }, { type: "string" }] },
    "1",
    { "/v": "unknown" },
  ],
  [
    "type integer + enum of strings: none",
    { type: "integer", enum: ["a"] },
    "1",
    { "/v": "unknown" },
  ],
  [
    "allOf ambiguous + number",
    { allOf: [{ anyOf: [{ type: "integer" }, { type: "number" }] }, { type: "number" }] },
    "1",
    { "/v": "ambiguous" },
  ],
  [
    "allOf ambiguous + integer",
    { allOf: [{ anyOf: [{ type: "integer" }, { type: "number" }] }, { type: "integer" }] },
    "1",
    { "/v": "integer" },
  ],
  ["allOf {} + number", { allOf: [{}, { type: "number" }] }, "1", { "/v": "number" }],
  ["allOf false: none", { allOf: [false, { type: "integer" }] }, "1", { "/v": "unknown" }],
  [
    "own keywords beside allOf",
    { type: "number", allOf: [{ multipleOf: 1 }] },
    "1",
    { "/v": "integer" },
  ],
  // disjunction
  [
    "anyOf integer | null (Pydantic Optional[int])",
    { anyOf: [{ type: "integer" }, { type: "null" }] },
    "1",
    { "/v": "integer" },
  ],
  [
    "anyOf integer | null, non-whole",
    { anyOf: [{ type: "integer" }, { type: "null" }] },
    "1.5",
    { "/v": "integer" },
  ],
  [
    "anyOf integer | number, whole",
    { anyOf: [{ type: "integer" }, { type: "number" }] },
    "1",
    { "/v": "ambiguous" },
  ],
  [
    "anyOf integer | number, non-whole",
    { anyOf: [{ type: "integer" }, { type: "number" }] },
    "1.5",
    { "/v": "number" },
  ],
  ["anyOf integer | {}, whole", { anyOf: [{ type: "integer" }, {}] }, "1", { "/v": "ambiguous" }],
  [
    "anyOf integer | {}, non-whole",
    { anyOf: [{ type: "integer" }, {}] },
    "1.5",
    { "/v": "unknown" },
  ],
  ["anyOf number | {}", { anyOf: [{ type: "number" }, {}] }, "1", { "/v": "number" }],
  ["anyOf {} | {}", { anyOf: [{}, true] }, "1", { "/v": "unknown" }],
  [
    "anyOf integer | integer",
    { anyOf: [{ type: "integer" }, { multipleOf: 2 }] },
    "1",
    { "/v": "integer" },
  ],
  [
    "anyOf string | null (all none)",
    { anyOf: [{ type: "string" }, { type: "null" }] },
    "1",
    { "/v": "unknown" },
  ],
  ["anyOf with false branch", { anyOf: [false, { type: "integer" }] }, "1", { "/v": "integer" }],
  [
    "anyOf integer | ambiguous",
    { anyOf: [{ type: "integer" }, { anyOf: [{ type: "integer" }, { type: "number" }] }] },
    "1",
    { "/v": "ambiguous" },
  ],
  [
    "oneOf integer | number",
    { oneOf: [{ type: "integer" }, { type: "number" }] },
    "2",
    { "/v": "ambiguous" },
  ],
  [
    "oneOf integer | string",
    { oneOf: [{ type: "integer" }, { type: "string" }] },
    "2",
    { "/v": "integer" },
  ],
  [
    "anyOf beside own type: number and (integer or unknown = ambiguous)",
    { type: "number", anyOf: [{ multipleOf: 1 }, { minimum: 3 }] },
    "4",
    { "/v": "ambiguous" },
  ],
  [
    "if/then/else: both present",
    JSON.parse('{"if":{"minimum":10},"then":{"type":"integer"},"else":{"type":"number"}}'),
    "4",
    { "/v": "ambiguous" },
  ],
  [
    "if/then only: the absent else is true (a number's if is not evaluated)",
    JSON.parse('{"if":{"minimum":10},"then":{"type":"integer"}}'),
    "4",
    { "/v": "ambiguous" },
  ],
  [
    "then without if is ignored",
    JSON.parse('{"then":{"type":"integer"}}'),
    "4",
    { "/v": "unknown" },
  ],
  // malformed keywords are ignored, never a crash
  ["type 7", { type: 7 }, "1", { "/v": "unknown" }],
  ["type []", { type: [] }, "1", { "/v": "unknown" }],
  ["type unknown name", { type: "float" }, "1", { "/v": "unknown" }],
  ["type list with junk", { type: ["integer", 5, "float"] }, "1", { "/v": "integer" }],
  ["enum 5", { enum: 5 }, "1", { "/v": "unknown" }],
  ["multipleOf '1'", { multipleOf: "1" }, "1", { "/v": "unknown" }],
  ["anyOf {}", { anyOf: {} }, "1", { "/v": "unknown" }],
  ["anyOf []", { anyOf: [] }, "1", { "/v": "unknown" }],
  [
    "anyOf with junk items",
    { anyOf: [5, "x", null, { type: "integer" }] },
    "1",
    { "/v": "integer" },
  ],
  ["allOf 'x'", { allOf: "x", type: "number" }, "1", { "/v": "number" }],
  ["$ref 5", { $ref: 5, type: "integer" }, "1", { "/v": "integer" }],
];

describe("number readings of one member", () => {
  test.each(memberRows)("%s", (_name, schema, args, readings) => {
    const r = walk({ type: "object", properties: { v: schema } }, JSON.parse(`{"v":${args}}`));
    expect(r).toEqual({ readings, notes: [] });
  });
});

/** The seed table: args as the model wrote them, schema, readings. */
const seedRows: [string, string, Record<string, string>][] = [
  [
    '{"line": 5}',
    '{"type":"object","properties":{"line":{"type":"integer"}}}',
    { "/line": "integer" },
  ],
  [
    '{"line": 5.5}',
    '{"type":"object","properties":{"line":{"type":"integer"}}}',
    { "/line": "integer" },
  ],
  [
    '{"temp": 1.0}',
    '{"type":"object","properties":{"temp":{"type":"number"}}}',
    { "/temp": "number" },
  ],
  ['{"name": "foo"}', '{"type":"object","properties":{"name":{"type":"string"}}}', {}],
  ['{"x": 1.0}', '{"type":"object"}', { "/x": "unknown" }],
  [
    '{"line": 5, "file": "f.go"}',
    '{"type":"object","properties":{"line":{"type":"integer"},"file":{"type":"string"}}}',
    { "/line": "integer" },
  ],
  ['{"n": 1e20}', '{"type":"object","properties":{"n":{"type":"integer"}}}', { "/n": "integer" }],
  [
    '{"rows": [[9007199254740993, "Ada"]]}',
    '{"type":"object","properties":{"rows":{"type":"array","items":{"type":"array","prefixItems":[{"type":"integer"},{"type":"string"}]}}}}',
    { "/rows/0/0": "integer" },
  ],
];

describe("the issue's seed table", () => {
  test.each(seedRows)("%s", (args, schema, readings) => {
    expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
  });
});

describe("whole schemas that describe nothing", () => {
  const rows: [string, unknown][] = [
    ["no schema (undefined)", undefined],
    ["null", null],
    ["true", true],
    ["false", false],
    ["{}", {}],
  ];
  test.each(rows)("%s", (_name, schema) => {
    const r = walk(schema as never, { a: 1, b: [2.5, { c: 3 }] });
    expect(r).toEqual({
      readings: { "/a": "unknown", "/b/0": "unknown", "/b/1/c": "unknown" },
      notes: [],
    });
  });
});
