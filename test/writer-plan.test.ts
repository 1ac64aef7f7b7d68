// Writer plans (issue 16) give exactly the engine's output and diagnostics:
// every hostile schema of the budget catalogue, the decoder vectors' schemas,
// and generated schemas and values, written with plans and with the engine
// alone, twice each (warm plans), must agree byte for byte and code for code.
import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";
import type { Diagnostic } from "../src/diagnostics.js";
import type { PatternEngine } from "../src/patterns/engine.js";
import { compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { structToJson } from "../src/struct/to-json.js";
import { writerPlans } from "../src/struct/writer-plan.js";
import { HOSTILE_CASES } from "./schema-budget-catalogue.js";

afterEach(() => {
  writerPlans.enabled = true;
});

type Outcome = { text?: string; error?: string; diagnostics: Diagnostic[] };

function write(
  args: unknown,
  schema: JsonSchema,
  plans: boolean,
  patterns: PatternEngine | undefined,
): Outcome {
  writerPlans.enabled = plans;
  const diagnostics: Diagnostic[] = [];
  try {
    const text = structToJson(args as never, schema, {
      onDiagnostic: (d) => diagnostics.push(d),
      patterns,
      nonFinite: "null",
    });
    return { text, diagnostics };
  } catch (e) {
    return { error: String((e as { code?: string }).code ?? e), diagnostics };
  } finally {
    writerPlans.enabled = true;
  }
}

function expectSame(args: unknown, schema: JsonSchema, patterns?: PatternEngine): void {
  const engine = write(args, schema, false, patterns);
  // Twice: the first call builds the plans, the second reads them warm.
  expect(write(args, schema, true, patterns)).toEqual(engine);
  expect(write(args, schema, true, patterns)).toEqual(engine);
  // A compiled schema shares plans with every call.
  const compiled = compileSchema(schema);
  expect(write(args, compiled as never, true, patterns)).toEqual(engine);
}

describe("plans agree with the engine", () => {
  for (const c of HOSTILE_CASES) {
    test(c.name, () => {
      for (const size of c.sizes.slice(0, 2)) {
        const { schema, args } = c.make(size);
        if (typeof args !== "object" || args === null || Array.isArray(args)) continue;
        expectSame(args, schema, c.patterns ?? undefined);
      }
    });
  }

  test("a plan total past the budget: the call is redone by the engine", () => {
    // Many distinct member nodes, each costing its first time, until the call's budget runs out.
    const properties: Record<string, unknown> = {};
    const args: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) {
      properties[`k${i}`] = {
        anyOf: [{ type: "integer" }, { allOf: [{ type: "number" }, { minimum: i }] }],
      };
      args[`k${i}`] = i % 3 === 0 ? 2 ** 60 : i + 0.5;
    }
    const schema = { type: "object", properties };
    const redone = writerPlans.redone;
    expectSame(args, schema);
    expect(writerPlans.redone).toBeGreaterThan(redone);
  });

  test("discriminated unions (value-dependent branches), nullable refs, tuples", () => {
    const schema = {
      $defs: {
        Cat: {
          properties: { kind: { const: "cat" }, lives: { type: "integer" } },
          required: ["kind"],
        },
        Dog: {
          properties: { kind: { const: "dog" }, weight: { type: "number" } },
          required: ["kind"],
        },
      },
      properties: {
        pets: {
          type: "array",
          items: { oneOf: [{ $ref: "#/$defs/Cat" }, { $ref: "#/$defs/Dog" }] },
        },
        row: { prefixItems: [{ type: "integer" }, { type: "number" }], items: { type: "integer" } },
        maybe: { anyOf: [{ $ref: "#/$defs/Cat" }, { type: "null" }] },
        extra: { additionalProperties: { type: "number" } },
      },
    };
    const args = {
      pets: [
        { kind: "cat", lives: 9 },
        { kind: "dog", weight: 12 },
        { kind: "bird", lives: 2, weight: 1 },
        { lives: 3 },
      ],
      row: [2 ** 60, 3, 4, 5.5, 2 ** 53 + 2],
      maybe: { kind: "cat", lives: 1e21 },
      extra: { a: 1, b: 2.5, c: -0, __proto__: 7 },
    };
    expectSame(args, schema);
  });

  test("generated schemas and values", () => {
    const leaf = fc.constantFrom<unknown>(
      { type: "integer" },
      { type: "number" },
      { type: ["integer", "number"] },
      { enum: [1, 2.5] },
      { multipleOf: 2 },
      {},
      { $ref: "#/$defs/X" },
      { $ref: "#/nowhere" },
    );
    const schemaArb = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.record({ properties: fc.dictionary(fc.constantFrom("a", "b", "c"), tie("node")) }),
        fc.record({ items: tie("node") }),
        fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
        fc.record({ additionalProperties: tie("node") }),
      ),
    })).node;
    const valueArb = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom<unknown>(
          1,
          2.5,
          -0,
          2 ** 60,
          2 ** 53 + 2,
          1e21,
          null,
          true,
          "x",
          Number.NaN,
        ),
        fc.dictionary(fc.constantFrom("a", "b", "c", "d"), tie("v"), { maxKeys: 4 }),
        fc.array(tie("v"), { maxLength: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(schemaArb, fc.dictionary(fc.constantFrom("a", "b", "c"), valueArb), (s, args) => {
        const schema = { $defs: { X: { type: "integer" } }, ...(s as object) };
        expectSame(args, schema);
      }),
      { numRuns: 300, seed: 16 },
    );
  });
});

describe("text written during the walk and by the native writer agree", () => {
  const hostile = [
    'a"b',
    "back\\slash",
    "*/ comment",
    "line\u2028sep\u2029",
    "\u0024{template}", // a template opener ("$" and "{"), as data
    "\u0000\u001f\u007f",
    "lone \ud800 high",
    "lone \udc00 low",
    "pair \ud83d\ude9a",
    "東京",
    "__proto__",
    "constructor",
    "",
    `${"x".repeat(30)}"`,
  ];

  test("hostile keys and strings are written exactly as JSON.stringify writes them", () => {
    const args: Record<string, unknown> = {};
    for (const [i, k] of hostile.entries()) args[k] = { [k]: [k, i, i + 0.5] };
    Object.defineProperty(args, "__proto__", {
      value: "own",
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const schema = {
      additionalProperties: { additionalProperties: { items: { type: "number" } } },
    };
    const expected = JSON.stringify(args).replace(/,(\d+),/g, ",$1.0,");
    expect(structToJson(args as never, schema)).toBe(expected);
    expect(structToJson(args as never)).toBe(JSON.stringify(args));
  });

  test("outputs past the size switch (native writer) equal the text walk's", () => {
    const schema = {
      properties: {
        rows: {
          items: { prefixItems: [{ type: "integer" }, { type: "number" }, { type: "string" }] },
        },
      },
    };
    const row = (i: number) => [2 ** 60 + i * 4096, i, hostile[i % hostile.length]!];
    const small = { rows: Array.from({ length: 20 }, (_, i) => row(i)) };
    const large = { rows: Array.from({ length: 4000 }, (_, i) => row(i)) };
    const smallText = structToJson(small as never, schema);
    const largeText = structToJson(large as never, schema);
    expect(largeText.length).toBeGreaterThan(64 * 1024);
    // The first rows of the large output are the small output's rows, byte for byte.
    expect(largeText.startsWith(smallText.slice(0, -2))).toBe(true);
    // And both agree with the engine alone.
    expectSame(large, schema);
  });
});
