// The catalogue of hostile schema and argument classes for repair's budget
// (issue 13): each class generated at several sizes. Shared by
// test/repair-budget.test.ts (exact units, codes and paths) and the table in
// docs/repair.md (`node --import tsx test/repair-budget-catalogue.ts`).

import type { JsonSchema } from "../src/schema/json-schema.js";

/** One generated case: arguments text, schema, and what repair must answer. */
export interface HostileCase {
  readonly argumentsJson: string;
  readonly schema: JsonSchema;
  /** The exact issues, or undefined when the call must succeed. */
  readonly issues: readonly { path: string; keyword: string }[] | undefined;
}

/** A class of hostile input, generated at each of `sizes`. */
export interface HostileClass {
  readonly name: string;
  /** What the size counts. */
  readonly size: string;
  readonly sizes: readonly number[];
  /** The units each size costs (deterministic: asserted exactly by the tests). */
  readonly units: readonly number[];
  /**
   * True when the units grow linearly with the size (until the budget stops
   * the call); false for union width, which ajv compiles in quadratic time and
   * is charged so, and for exponential classes stopped by the budget.
   */
  readonly linear: boolean;
  readonly make: (n: number) => HostileCase;
}

const tooComplex = [{ path: "", keyword: "schema-too-complex" }];

/** The Kubernetes MCP server's field selector pattern (issue 13). */
export const FIELD_SELECTOR = "^[.\\-A-Za-z0-9]+([=!,]{1,2}[./\\-A-Za-z0-9]+)+$";

function objectSchema(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: "object", properties };
}

export const hostileClasses: readonly HostileClass[] = [
  {
    name: "one pattern, long text",
    size: "characters tested",
    sizes: [1_000, 10_000, 100_000],
    units: [3331, 12_331, 102_331],
    linear: true,
    make: (n) => ({
      argumentsJson: JSON.stringify({ s: `${"a=b,".repeat(n / 4 - 1)}a=b!` }),
      schema: objectSchema({ s: { type: "string", pattern: FIELD_SELECTOR } }),
      issues: [{ path: "/s", keyword: "pattern" }],
    }),
  },
  {
    name: "anyOf of pattern branches, 4 KB text",
    size: "branches",
    sizes: [10, 30, 100, 300],
    units: [49_224, 146_644, 519_114, 1_000_000],
    linear: false,
    make: (n) => ({
      argumentsJson: JSON.stringify({ s: "a".repeat(4096) }),
      schema: objectSchema({
        s: { anyOf: Array.from({ length: n }, (_, i) => ({ pattern: `^a*b${i}$` })) },
      }),
      issues:
        n < 300
          ? [
              { path: "/s", keyword: "pattern" },
              { path: "/s", keyword: "anyOf" },
            ]
          : tooComplex,
    }),
  },
  {
    name: "recursive anyOf (validation doubles per level)",
    size: "argument depth",
    sizes: [4, 8, 12, 16, 20],
    units: [7327, 15_487, 146_047, 1_000_000, 1_000_000],
    linear: false,
    make: (n) => ({
      argumentsJson: `${'{"a":'.repeat(n)}{}${"}".repeat(n)}`,
      schema: {
        $defs: {
          node: {
            anyOf: [
              { type: "object", properties: { a: { $ref: "#/$defs/node" } }, required: ["z"] },
              { type: "object", properties: { a: { $ref: "#/$defs/node" } } },
            ],
          },
        },
        $ref: "#/$defs/node",
      },
      issues: n < 16 ? undefined : tooComplex,
    }),
  },
  {
    name: "flat schema: many properties",
    size: "properties",
    sizes: [100, 400, 1_600],
    units: [126_808, 504_208, 1_000_000],
    linear: true,
    make: (n) => {
      const properties: Record<string, JsonSchema> = {};
      for (let i = 0; i < n; i++)
        properties[`p${i}`] = { type: "string", description: `field ${i}` };
      return {
        argumentsJson: '{"p0":{"x":{"y":1}}}',
        schema: { type: "object", properties },
        issues: n < 1_600 ? [{ path: "/p0", keyword: "type" }] : tooComplex,
      };
    },
  },
  {
    name: "wide anyOf (ajv nests each branch in the previous one)",
    size: "branches",
    sizes: [100, 200, 300, 3_000],
    units: [128_014, 354_014, 680_014, 1_000_000],
    linear: false,
    make: (n) => ({
      argumentsJson: '{"x":"none"}',
      schema: objectSchema({
        x: { anyOf: Array.from({ length: n }, (_, i) => ({ const: `v${i}` })) },
      }),
      issues:
        n < 3_000
          ? [
              { path: "/x", keyword: "const" },
              { path: "/x", keyword: "anyOf" },
            ]
          : tooComplex,
    }),
  },
  {
    name: "additionalProperties over many members",
    size: "members",
    sizes: [1_000, 10_000, 100_000],
    units: [5760, 41_760, 401_760],
    linear: true,
    make: (n) => {
      const members: string[] = [];
      for (let i = 0; i < n; i++) members.push(`"k${i}":"v"`);
      return {
        argumentsJson: `{${members.join(",")}}`,
        schema: { type: "object", additionalProperties: { type: "string" } },
        issues: undefined,
      };
    },
  },
  {
    name: "patternProperties: 20 patterns × many 40-character keys",
    size: "members",
    sizes: [10, 100, 1_000, 2_000],
    units: [31_044, 111_244, 930_244, 1_000_000],
    linear: true,
    make: (n) => {
      const patternProperties: Record<string, JsonSchema> = {};
      for (let i = 0; i < 20; i++) patternProperties[`^k${i}_[a-z]+$`] = { type: "integer" };
      const members: string[] = [];
      for (let i = 0; i < n; i++) members.push(`"k${i % 20}_${"a".repeat(36)}${i}":1`);
      return {
        argumentsJson: `{${members.join(",")}}`,
        schema: { type: "object", patternProperties },
        issues: n < 2_000 ? undefined : tooComplex,
      };
    },
  },
  {
    name: "uniqueItems over objects (one pass over canonical texts)",
    size: "elements",
    sizes: [1_000, 5_000, 25_000],
    units: [8506, 32_506, 152_506],
    linear: true,
    make: (n) => ({
      argumentsJson: JSON.stringify({ x: Array.from({ length: n }, (_, i) => ({ i, j: [i] })) }),
      schema: objectSchema({ x: { type: "array", uniqueItems: true } }),
      issues: undefined,
    }),
  },
  {
    name: "schema sharing one object twice per level (tree size doubles)",
    size: "levels",
    sizes: [4, 8, 16, 32],
    units: [25_372, 410_620, 1_000_000, 1_000_000],
    linear: false,
    make: (n) => {
      let s: JsonSchema = { type: "integer" };
      for (let i = 0; i < n; i++) s = { allOf: [s, s] };
      return {
        argumentsJson: '{"x":1}',
        schema: objectSchema({ x: s }),
        issues: n < 16 ? undefined : tooComplex,
      };
    },
  },
  {
    name: "nested anyOf (deep generated code)",
    size: "levels",
    sizes: [50, 100, 200, 3_000],
    units: [93_564, 215_114, 548_214, 413_816],
    linear: false,
    make: (n) => {
      let s: JsonSchema = { type: "integer" };
      for (let i = 0; i < n; i++) s = { anyOf: [s, { type: "string" }] };
      return {
        argumentsJson: '{"x":1}',
        schema: objectSchema({ x: s }),
        issues: n < 3_000 ? undefined : tooComplex,
      };
    },
  },
  {
    name: "spaces inside a string read as JSON (the whitespace trim)",
    size: "spaces",
    sizes: [1_000, 10_000, 100_000],
    units: [2014, 2014, 2014],
    linear: true,
    make: (n) => ({
      argumentsJson: JSON.stringify({ x: `{${" ".repeat(n)}x` }),
      schema: objectSchema({ x: { type: "object" } }),
      issues: [{ path: "/x", keyword: "type" }],
    }),
  },
  {
    // ajv concatenates each failure's path, which V8 copies whole when it is
    // read: the paths are charged by length before any is read.
    name: "strings to repair under one 200,000-character key",
    size: "items",
    sizes: [100, 1_000, 20_000],
    units: [23_086, 205_786, 1_000_000],
    linear: true,
    make: (n) => ({
      argumentsJson: `{"${"k".repeat(200_000)}":[${Array(n).fill('"1"').join(",")}]}`,
      schema: {
        type: "object",
        additionalProperties: { type: "array", items: { type: "integer" } },
      },
      issues: n < 5_000 ? undefined : tooComplex,
    }),
  },
  {
    name: "a whole number with many zeros (the integer-literal rule)",
    size: "digits",
    sizes: [1_000, 10_000, 100_000],
    units: [2014, 2014, 2014],
    linear: true,
    make: (n) => ({
      argumentsJson: `{"x":1.${"0".repeat(n)}1}`,
      schema: objectSchema({ x: { type: "number" } }),
      issues: undefined,
    }),
  },
];

// `node --import tsx test/repair-budget-catalogue.ts` prints the table of
// docs/repair.md (Markdown): size, units, and the wall-clock time of a call on
// a fresh schema object (compiling included) after one warm-up pass over the
// whole catalogue. Times are for orientation only; verdicts use units.
const isMain =
  typeof process !== "undefined" && process.argv[1]?.endsWith("repair-budget-catalogue.ts");
if (isMain) {
  const { repairArgumentsMetered } = await import("../src/repair/repair-arguments.js");
  for (const c of hostileClasses) {
    for (const n of c.sizes) {
      const k = c.make(n);
      repairArgumentsMetered(k.argumentsJson, k.schema);
    }
  }
  console.log("| class | size | units | ms | outcome |\n| --- | ---: | ---: | ---: | --- |");
  for (const c of hostileClasses) {
    for (const n of c.sizes) {
      const k = c.make(n);
      const t = performance.now();
      const { result, units } = repairArgumentsMetered(k.argumentsJson, k.schema);
      const ms = performance.now() - t;
      const outcome = result.ok ? "ok" : result.issues.map((i) => `\`${i.keyword}\``).join(", ");
      console.log(
        `| ${c.name} | ${n.toLocaleString("en")} ${c.size} | ${units.toLocaleString("en")} | ${ms.toFixed(0)} | ${outcome} |`,
      );
    }
  }
}
