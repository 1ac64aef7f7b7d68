// Issue 13: work bounded per call by construction. Each hostile class of the
// catalogue (test/schema-budget-catalogue.ts) at several sizes: its cost in
// budget units is pinned (deterministic), stays within the call's budget
// (CALL_BUDGET + POSITION_ALLOWANCE per position: linear in the arguments),
// grows at most linearly with the size, and finishes within a generous
// wall-clock guard (a hang guard only: no verdict depends on speed).
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { re2Patterns } from "../src/patterns/re2.js";
import { CALL_BUDGET, compileSchema, POSITION_ALLOWANCE } from "../src/schema/index.js";
import type { JsonSchemaObject } from "../src/schema/json-schema.js";
import { KEYWORDS } from "../src/schema/vocabulary.js";
import { numberTextIsWhole, numberTextLosesPrecision } from "../src/struct/number-text.js";
import { structToJson } from "../src/struct/to-json.js";
import { verifyRawJson } from "../src/tool/raw-json.js";
import { HOSTILE_CASES, measure } from "./schema-budget-catalogue.js";
import { walkCounted } from "./schema-walk.js";

/** Hang guard per run: idle runs take milliseconds to a few hundred. */
const HANG_GUARD_MS = 10_000;

/** Per case, per size: [size, units, notes]. */
const PINNED: Record<string, readonly (readonly [number, number, number])[]> = {
  "nested quantifier ^(a+)+$, one key of n characters": [
    [1000, 1005, 0],
    [4000, 4005, 0],
    [16000, 16005, 0],
  ],
  "alternation under a star ^(a|aa)*$, one key of n characters": [
    [1000, 1005, 0],
    [4000, 4005, 0],
    [16000, 16005, 0],
  ],
  "a 24-character screen walked around: ^(a{1,1e21})*$ and ^(\\u{1,30})*\\a$, n keys": [
    [250, 252, 250],
    [1000, 1002, 1000],
    [4000, 4002, 4000],
  ],
  "n patterns with an unbounded quantifier, one 4 KB key": [
    [10, 20128, 1],
    [40, 20128, 1],
    [160, 20128, 1],
    [2000, 20128, 1],
  ],
  "an anyOf of 1,000 branches with additionalProperties, n keys": [
    [100, 8202, 0],
    [1000, 10002, 0],
    [10000, 28002, 0],
  ],
  "an anyOf of n branches with additionalProperties, n keys": [
    [250, 2502, 0],
    [1000, 10002, 0],
    [5000, 25127, 5000],
  ],
  "n distinct discriminated object branches, one object": [
    [1000, 20006, 0],
    [4000, 20064, 1],
    [16000, 20064, 1],
  ],
  // Was 2^(n+1) − 1 units per position: n = 11 already too complex at all three positions.
  "a union reached again through n distinct refs in its own branches: a number, a member, an element":
    [
      [11, 601, 0],
      [40, 2109, 0],
      [160, 8349, 0],
      [640, 20576, 1],
    ],
  "a recursive anyOf n levels deep, over arguments n levels deep": [
    [10, 122, 0],
    [40, 272, 0],
    [160, 872, 0],
  ],
  "n rows of a 200-way discriminated union": [
    [1000, 9602, 0],
    [4000, 30602, 0],
    [16000, 114602, 0],
  ],
  // A 44-character key costs 44 × 8 units here, more than its allowance: past the base budget, such keys are too complex.
  "n distinct keys against a heavy pattern (8 × a{0,30}, weight 8)": [
    [250, 41696, 162],
    [1000, 89696, 912],
    [4000, 281696, 3912],
  ],
  "n rows with the same keys under patternProperties (asked once per call)": [
    [1000, 5414, 0],
    [4000, 20414, 0],
    [16000, 80414, 0],
  ],
  "n patternProperties objects nested n deep": [
    [10, 83, 0],
    [40, 323, 0],
    [160, 1343, 0],
  ],
  "the Kubernetes fieldSelector pattern, n selectors": [
    [100, 8182, 0],
    [400, 33382, 0],
    [1600, 135382, 0],
  ],
};

describe("the hostile catalogue: cost in units, pinned, linear, bounded", () => {
  for (const c of HOSTILE_CASES) {
    test(c.name, () => {
      const pinned = PINNED[c.name];
      expect(pinned, "every case has pinned costs").toBeDefined();
      expect(pinned!.map(([size]) => size)).toEqual(c.sizes);
      let previous: { size: number; units: number } | undefined;
      for (const [size, units, notes] of pinned!) {
        const m = measure(c, size);
        expect({ size, units: m.units, notes: m.notes }).toEqual({ size, units, notes });
        // Within the call's budget: linear in the arguments.
        expect(m.units).toBeLessThanOrEqual(CALL_BUDGET + 2 * POSITION_ALLOWANCE * m.inputSize);
        // Growing at most in proportion to the size.
        if (previous !== undefined) {
          expect(m.units).toBeLessThanOrEqual(
            (previous.units * size) / previous.size + CALL_BUDGET,
          );
        }
        expect(m.ms).toBeLessThan(HANG_GUARD_MS);
        previous = { size, units: m.units };
      }
    });
  }
});

describe("no call's output depends on an earlier call", () => {
  // A shared subschema (a $ref) read by a call that runs out of budget, then a
  // tiny call through the same subschema: byte-identical to a fresh schema.
  const schemaText = JSON.stringify({
    $defs: {
      shared: {
        anyOf: Array.from({ length: 3000 }, (_, i) => ({
          properties: { [`p${i}`]: { type: "integer" }, n: { type: i % 2 ? "integer" : "number" } },
        })),
      },
    },
    properties: { a: { $ref: "#/$defs/shared" }, b: { $ref: "#/$defs/shared" } },
  });
  const exhausting = {
    a: Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`p${i}`, i])),
  };
  const tiny = { b: { n: 2, p7: 3 } };

  function decode(schema: object, args: unknown): { text: string; notes: string[] } {
    const notes: string[] = [];
    const text = structToJson(args as never, schema as never, {
      onDiagnostic: (d) => notes.push(`${d.code} ${d.path}`),
    });
    return { text, notes };
  }

  test("a call after an exhausted one gives byte-identical output to the same call on a fresh schema", () => {
    const warm = JSON.parse(schemaText) as JsonSchemaObject;
    const first = decode(warm, exhausting);
    expect(first.notes).toContain("schema-too-complex /a/p399");
    const afterExhausted = decode(warm, tiny);
    const fresh = decode(JSON.parse(schemaText) as JsonSchemaObject, tiny);
    expect(afterExhausted).toEqual(fresh);
    // And the same number of units, through a compiled schema too.
    const compiled = compileSchema(warm);
    expect(walkCounted(compiled, tiny).units).toBe(
      walkCounted(JSON.parse(schemaText) as JsonSchemaObject, tiny).units,
    );
  });

  test("the same call twice: the same output and the same units", () => {
    const schema = JSON.parse(schemaText) as JsonSchemaObject;
    const once = walkCounted(schema, exhausting);
    expect(walkCounted(schema, exhausting)).toEqual(once);
    expect(walkCounted(JSON.parse(schemaText) as JsonSchemaObject, exhausting)).toEqual(once);
  });
});

describe("the Kubernetes schemas decode with patterns evaluated", () => {
  const fieldSelector = "^[.\\-A-Za-z0-9]+([=!,]{1,2}[./\\-A-Za-z0-9]+)+$";
  const labels = "^([a-z]+=[a-z]+)(,[a-z]+=[a-z]+)*$";
  test("a tool with a fieldSelector pattern: decoded, with or without an engine (pattern is not read by the decoder)", () => {
    const schema = {
      type: "object",
      properties: {
        fieldSelector: { type: "string", pattern: fieldSelector },
        labelSelector: { type: "string", pattern: labels },
        limit: { type: "integer" },
        ratio: { type: "number" },
      },
    };
    const args = { fieldSelector: "metadata.name=x,status.phase!=Running", limit: 5, ratio: 1 };
    for (const patterns of [undefined, re2Patterns]) {
      expect(structToJson(args, schema, { patterns })).toBe(
        '{"fieldSelector":"metadata.name=x,status.phase!=Running","limit":5,"ratio":1.0}',
      );
    }
  });

  test("the same patterns as patternProperties: evaluated by re2js", () => {
    const schema = {
      patternProperties: { [fieldSelector]: { type: "number" }, [labels]: { type: "number" } },
    };
    const args = { "a=b,c=d": 1, "metadata.name==x": 2, "no-selector": 3, "=bad": 4 };
    const notes: string[] = [];
    expect(
      structToJson(args, schema, {
        patterns: re2Patterns,
        onDiagnostic: (d) => notes.push(`${d.code} ${d.path}`),
      }),
    ).toBe('{"a=b,c=d":1.0,"metadata.name==x":2.0,"no-selector":3,"=bad":4}');
    expect(notes).toEqual([]);
    // Without an engine: those members read unknown, each with a note.
    notes.length = 0;
    expect(
      structToJson(args, schema, { onDiagnostic: (d) => notes.push(`${d.code} ${d.path}`) }),
    ).toBe('{"a=b,c=d":1,"metadata.name==x":2,"no-selector":3,"=bad":4}');
    expect(notes).toEqual([
      "schema-pattern-unevaluated /a=b,c=d",
      "schema-pattern-unevaluated /metadata.name==x",
      "schema-pattern-unevaluated /no-selector",
      "schema-pattern-unevaluated /=bad",
    ]);
  });
});

describe("number text: linear in its length", () => {
  test.each([10_000, 100_000, 1_000_000])("1.000…0001 with %i zeros", (zeros) => {
    const text = `1.${"0".repeat(zeros)}1`;
    const start = performance.now();
    expect(numberTextLosesPrecision(text, 1)).toBe(true);
    expect(numberTextIsWhole(text)).toBe(false);
    expect(numberTextIsWhole(`1${"0".repeat(zeros)}.${"0".repeat(zeros)}`)).toBe(true);
    expect(performance.now() - start).toBeLessThan(HANG_GUARD_MS);
  });

  test("raw_args_json verification of a 200 KB number", () => {
    const raw = `{"a":1.${"0".repeat(200_000)}1}`;
    const notes: string[] = [];
    const start = performance.now();
    expect(verifyRawJson(raw, { a: 1 }, null, 100, (d) => notes.push(d.code))).toBe(true);
    expect(performance.now() - start).toBeLessThan(HANG_GUARD_MS);
  });
});

describe("warm schemas cost what fresh ones do (seeded property)", () => {
  // Every keyword the table knows (src/schema/vocabulary.ts).
  const keyword = fc.constantFrom(...KEYWORDS.map((k) => k.name));
  const leafValue = fc.oneof(
    fc.constantFrom("integer", "number", "object", "array", ["integer", "null"]),
    fc.constantFrom("#", "#/$defs/a", "#/$defs/b", "#/$defs/missing"),
    fc.constantFrom(1, 1.5, "k", null),
    fc.constantFrom(["a"], ["kind"], [1, 2.5], ["x", "y"]),
  );
  const schema = fc.letrec((tie) => ({
    schema: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.boolean(),
      fc.dictionary(
        keyword,
        fc.oneof(
          leafValue,
          tie("schema"),
          fc.array(tie("schema"), { minLength: 1, maxLength: 3 }),
          fc.dictionary(fc.constantFrom("a", "kind", "^a", "^(a+)+$", "(?=a)"), tie("schema"), {
            maxKeys: 3,
          }),
        ),
        { maxKeys: 4 },
      ),
    ),
  })).schema;
  const root = fc
    .tuple(schema, schema, schema)
    .map(([s, a, b]) =>
      typeof s === "boolean" ? s : ({ ...s, $defs: { a, b } } as unknown as JsonSchemaObject),
    );
  const args = fc.jsonValue({ maxDepth: 3 }).map((v) => ({ a: v, kind: "k", x: [v, 1.5] }));

  test("after any other call on the same schema: the same readings, notes and units", () => {
    fc.assert(
      fc.property(root, args, args, (s, value, other) => {
        const text = JSON.stringify(s);
        const fresh = walkCounted(JSON.parse(text) as JsonSchemaObject, value);
        const warmSchema = JSON.parse(text) as JsonSchemaObject;
        walkCounted(warmSchema, other);
        expect(walkCounted(warmSchema, value)).toEqual(fresh);
      }),
      { numRuns: 500, seed: 1313 },
    );
  });
});
