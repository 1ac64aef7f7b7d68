// Values with more than one reading are never changed: found by probing the
// rules against ajv's float64 reading of numbers and against chains of
// repairs across rounds. Each row: exact output and repairs, or exact issues.
import { describe, expect, test } from "vitest";
import type { Issue, Repair, RepairKind } from "../src/repair/repair-arguments.js";
import { repairArguments } from "../src/repair/repair-arguments.js";
import type { JsonSchema } from "../src/schema/json-schema.js";

const at = (x: JsonSchema): JsonSchema => ({ type: "object", properties: { x } });

type Row = {
  name: string;
  schema: JsonSchema;
  input: string;
} & (
  | { output: string; repairs: [path: string, kind: RepairKind][] }
  | { issues: [path: string, keyword: string][] }
);

const rows: Row[] = [
  // A string whose number float64 reads as whole, though its digits are not:
  // ajv's `integer`, `multipleOf`, `const` and `enum` see another number.
  {
    name: "a fraction that float64 rounds to a whole number is not an integer",
    schema: at({ type: "integer" }),
    input: '{"x":"9007199254740993.5"}',
    issues: [["/x", "type"]],
  },
  {
    name: "a number that float64 rounds to zero is not an integer",
    schema: at({ type: "integer" }),
    input: '{"x":"1e-400"}',
    issues: [["/x", "type"]],
  },
  {
    name: "a fraction that float64 rounds to 1 is not the 1 of an enum",
    schema: at({ enum: [1] }),
    input: '{"x":"1.0000000000000000001"}',
    issues: [["/x", "enum"]],
  },
  {
    name: "a fraction that float64 rounds to 1 is not the 1 of a const under a union",
    schema: at({ anyOf: [{ const: 1 }, { type: "boolean" }] }),
    input: '{"x":"1.0000000000000000001"}',
    issues: [
      ["/x", "const"],
      ["/x", "type"],
      ["/x", "anyOf"],
    ],
  },
  {
    name: "a number that float64 rounds to zero passes a union only as an integer: rejected",
    schema: at({ anyOf: [{ type: "integer" }, { type: "number", minimum: 5 }] }),
    input: '{"x":"1e-400"}',
    issues: [
      ["/x", "type"],
      ["/x", "anyOf"],
    ],
  },
  {
    name: "where any number is admitted, such a text is still a number (its text kept exactly)",
    schema: at({ type: "number" }),
    input: '{"x":"-1e-400"}',
    output: '{"x":-1e-400}',
    repairs: [["/x", "string-to-number"]],
  },
  {
    name: "a whole number written with a fraction is still repaired",
    schema: at({ type: "integer" }),
    input: '{"x":"9007199254740993.0"}',
    output: '{"x":9007199254740993}',
    repairs: [
      ["/x", "string-to-number"],
      ["/x", "integer-literal"],
    ],
  },
  {
    name: "a fraction is still repaired where a number is expected",
    schema: at({ type: "number" }),
    input: '{"x":"0.1"}',
    output: '{"x":0.1}',
    repairs: [["/x", "string-to-number"]],
  },
  // A member valid as written is never changed because a repair elsewhere
  // switched what applies to it.
  {
    name: "an omission that switches an if/then/else leaves a valid sibling as written",
    schema: {
      properties: { a: { type: "integer" }, b: {} },
      if: { required: ["a"] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      then: { properties: { b: { type: "string" } } },
      else: { properties: { b: { type: "integer" } } },
    },
    input: '{"a":null,"b":"5"}',
    issues: [
      ["/b", "type"],
      ["", "if"],
    ],
  },
  {
    name: "a sibling's repair that switches an if/then/else leaves a valid member as written",
    schema: {
      properties: { a: {}, b: {} },
      if: { properties: { a: { type: "integer" } } },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      then: { properties: { b: { type: "integer" } } },
      else: { properties: { a: { type: "boolean" }, b: { type: "string" } } },
    },
    input: '{"a":"5","b":"6"}',
    // The failures left once /a is repaired (docs/repair.md, Rejections).
    issues: [
      ["/b", "type"],
      ["", "if"],
    ],
  },
  {
    name: "members of a string's parsed object are still repaired in the next round",
    schema: at({ type: "object", properties: { n: { type: "integer" } } }),
    input: '{"x":"{\\"n\\":\\"5\\"}"}',
    output: '{"x":{"n":5}}',
    repairs: [
      ["/x", "string-to-object"],
      ["/x/n", "string-to-number"],
    ],
  },
];

// Schemas declaring draft 2019-09 are validated as 2019-09 (its tuple `items`
// and `$recursiveRef` were refused as schema-invalid under 2020-12's rules).
const draft2019 = "https://json-schema.org/draft/2019-09/schema";
rows.push(
  {
    name: "2019-09: items as a list (a tuple) is validated and repaired",
    schema: {
      $schema: draft2019,
      properties: {
        x: {
          type: "array",
          items: [{ type: "integer" }, { type: "string" }],
          additionalItems: false,
        },
      },
    },
    input: '{"x":["5","y"]}',
    output: '{"x":[5,"y"]}',
    repairs: [["/x/0", "string-to-number"]],
  },
  {
    name: "2019-09: items as a list rejects an element past it (additionalItems)",
    schema: {
      $schema: draft2019,
      properties: { x: { type: "array", items: [{ type: "integer" }], additionalItems: false } },
    },
    input: '{"x":[5,6]}',
    issues: [["/x", "additionalItems"]],
  },
  {
    name: "2019-09: $recursiveRef is followed",
    schema: {
      $schema: draft2019,
      $recursiveAnchor: true,
      type: "object",
      properties: { n: { type: "integer" }, next: { $recursiveRef: "#" } },
    },
    input: '{"n":"5","next":{"n":"6","next":{"n":"x"}}}',
    issues: [["/next/next/n", "type"]],
  },
  {
    name: "2019-09 declared, with a 2020-12 keyword: validated as 2020-12",
    schema: { $schema: draft2019, properties: { x: { prefixItems: [{ type: "integer" }] } } },
    input: '{"x":["5"]}',
    output: '{"x":[5]}',
    repairs: [["/x/0", "string-to-number"]],
  },
);

describe("repairArguments: one reading or none", () => {
  test.each(rows)("$name", (row) => {
    const result = repairArguments(row.input, row.schema);
    if ("output" in row) {
      const repairs: Repair[] = row.repairs.map(([path, kind]) => ({ path, kind }));
      expect(result).toEqual({ ok: true, argumentsJson: row.output, repairs });
      expect(repairArguments(row.output, row.schema)).toEqual({
        ok: true,
        argumentsJson: row.output,
        repairs: [],
      });
    } else {
      const issues: Issue[] = row.issues.map(([path, keyword]) => ({ path, keyword }));
      expect(result).toEqual({ ok: false, issues });
    }
  });
});
