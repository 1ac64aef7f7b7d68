// Hostile and huge schemas: bounded work, no stack overflow, no hang;
// patternProperties through the linear-time engine; compile once; malformed
// schemas never crash.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isStructJsonError } from "../src/errors.js";
import { compileRe2Pattern } from "../src/patterns/re2.js";
import { MAX_PATTERN_SOURCE } from "../src/patterns/translate.js";
import {
  compileSchema,
  isCompiledSchema,
  rootNode,
  SchemaReader,
  UNKNOWN_NODE,
} from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { walk, walkCounted, walkJson } from "./schema-walk.js";

/**
 * Generous bound: these take tens of milliseconds on an idle machine; the
 * bound leaves room for a loaded two-core CI box running other tests.
 */
/** A hang guard (hundreds of times the idle time), not a speed check. */
const TIME_LIMIT_MS = 10_000;

function timed<T>(f: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = f();
  return { result, ms: performance.now() - start };
}

function chainDefs(
  levels: number,
  level: (i: number) => unknown,
  last: unknown,
): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) defs[`L${i}`] = level(i);
  defs[`L${levels}`] = last;
  return defs;
}

type ExplodeRow = [
  name: string,
  schema: () => unknown,
  args: unknown,
  readings: Record<string, string>,
  notes: string[],
];

const explodeRows: ExplodeRow[] = [
  [
    "24 nested two-way anyOfs, both branches $ref the next level",
    () => ({
      $defs: chainDefs(
        24,
        (i) => ({ anyOf: [{ $ref: `#/$defs/L${i + 1}` }, { $ref: `#/$defs/L${i + 1}` }] }),
        { type: "integer" },
      ),
      properties: { v: { $ref: "#/$defs/L0" }, o: { $ref: "#/$defs/L0" } },
    }),
    { v: 5, o: { a: 1 } },
    { "/v": "integer", "/o/a": "unknown" },
    [],
  ],
  [
    "24 levels with members that explode too",
    () => ({
      $defs: chainDefs(
        24,
        (i) => ({
          anyOf: [{ $ref: `#/$defs/L${i + 1}` }, { allOf: [{ $ref: `#/$defs/L${i + 1}` }] }],
          properties: { x: { $ref: `#/$defs/L${i + 1}` } },
        }),
        { type: "integer" },
      ),
      $ref: "#/$defs/L0",
    }),
    { x: { x: { x: 1 } } },
    { "/x/x/x": "integer" },
    [],
  ],
  [
    "24 levels, each with a branch back to the top (recursive union)",
    () => ({
      $defs: chainDefs(
        24,
        (i) => ({
          anyOf: [
            { $ref: `#/$defs/L${i + 1}` },
            { $ref: `#/$defs/L${i + 1}` },
            { $ref: "#/$defs/L0" },
          ],
        }),
        { type: "integer" },
      ),
      properties: { v: { $ref: "#/$defs/L0" } },
    }),
    { v: 5 },
    { "/v": "integer" },
    [],
  ],
  [
    "a 10,000-way anyOf at a number",
    () => ({
      properties: {
        v: { anyOf: Array.from({ length: 10_000 }, (_, i) => ({ type: "integer", minimum: i })) },
      },
    }),
    { v: 5 },
    { "/v": "integer" },
    [],
  ],
  [
    "a 10,000-way discriminated anyOf at an object: over budget",
    () => ({
      properties: {
        v: {
          anyOf: Array.from({ length: 10_000 }, (_, i) => ({
            properties: { k: { const: `k${i}` }, n: { type: i % 2 ? "integer" : "number" } },
          })),
        },
      },
    }),
    { v: { k: "k3", n: 5 } },
    { "/v/n": "unknown" },
    ["schema-too-complex at /v"],
  ],
  [
    "30-level nested inline anyOf",
    () => {
      let s: unknown = { type: "integer" };
      for (let i = 0; i < 30; i++) s = { anyOf: [s, { anyOf: [s, { type: "null" }] }] };
      return { properties: { v: s } };
    },
    { v: 5 },
    { "/v": "integer" },
    [],
  ],
  [
    "100,000-deep nested anyOf: too deep, no stack overflow",
    () => {
      let s: unknown = { type: "integer" };
      for (let i = 0; i < 100_000; i++) s = { anyOf: [s] };
      return { properties: { v: s } };
    },
    { v: 5 },
    { "/v": "unknown" },
    ["schema-too-complex at /v"],
  ],
  [
    "100,000-long allOf chain: over budget",
    () => {
      let s: unknown = { type: "integer" };
      for (let i = 0; i < 100_000; i++) s = { allOf: [s] };
      return { properties: { v: s } };
    },
    { v: 5 },
    { "/v": "unknown" },
    ["schema-too-complex at /v"],
  ],
  [
    "50,000-long $ref chain: over budget",
    () => ({
      $defs: chainDefs(50_000, (i) => ({ $ref: `#/$defs/L${i + 1}` }), { type: "integer" }),
      properties: { v: { $ref: "#/$defs/L0" } },
    }),
    { v: 5 },
    { "/v": "unknown" },
    ["schema-too-complex at /v"],
  ],
  [
    "1,000-long $ref chain: within budget",
    () => ({
      $defs: chainDefs(1000, (i) => ({ $ref: `#/$defs/L${i + 1}` }), { type: "integer" }),
      properties: { v: { $ref: "#/$defs/L0" } },
    }),
    { v: 5 },
    { "/v": "integer" },
    [],
  ],
];

describe("schemas built to explode finish in milliseconds", () => {
  test.each(explodeRows)("%s", (_name, make, args, readings, notes) => {
    const schema = make();
    const { result, ms } = timed(() => walkCounted(schema as JsonSchema, args));
    expect({ readings: result.readings, notes: result.notes }).toEqual({ readings, notes });
    expect(ms).toBeLessThan(TIME_LIMIT_MS);
    // A second call on the same schema gives the same answer for the same
    // units (a failure is not remembered: no call's output depends on another).
    const again = timed(() => walkCounted(schema as JsonSchema, args));
    expect(again.result).toEqual(result);
    expect(again.ms).toBeLessThan(TIME_LIMIT_MS);
  });

  test("a deep recursive value under a recursive schema", () => {
    let value: Record<string, unknown> = { v: 1 };
    for (let i = 0; i < 1000; i++) value = { v: i, kids: [value] };
    const schema = { properties: { v: { type: "integer" }, kids: { items: { $ref: "#" } } } };
    const { result, ms } = timed(() => walk(schema, value));
    expect(Object.keys(result.readings)).toHaveLength(1001);
    expect(new Set(Object.values(result.readings))).toEqual(new Set(["integer"]));
    expect(ms).toBeLessThan(TIME_LIMIT_MS);
  });
});

describe("patternProperties through the linear-time engine", () => {
  const rows: [pattern: string, compiled: string][] = [
    ["^n_", "ok"],
    ["^[a-z][a-z0-9_]*$", "ok"],
    [".*", "ok"],
    ["^(foo|bar)$", "ok"],
    ["^(?:x-)[a-z]+$", "ok"],
    ["^\\p{L}+$", "ok"],
    ["^[a-z]+_[0-9]+$", "ok"],
    // Refused by the old shape heuristic, harmless in linear time:
    ["^a*b*c*d*$", "ok"],
    ["(a+)+$", "ok"],
    ["^(a|aa)*$", "ok"],
    ["^(a*)*$", "ok"],
    ["^((ab)*c)+$", "ok"],
    ["(\\w+\\s?)*$", "ok"],
    ["^[.\\-A-Za-z0-9]+([=!,]{1,2}[./\\-A-Za-z0-9]+)+$", "ok"],
    ["^([a-z]+=[a-z]+)(,[a-z]+=[a-z]+)*$", "ok"],
    // What no linear-time engine has, or what is not a pattern:
    ["^(.)\\1$", "backreference"],
    ["^(?<x>a)\\k<x>$", "backreference"],
    ["^(?=a)a$", "lookaround"],
    ["(?<!a)b", "lookaround"],
    ["(", "invalid"],
    ["[", "invalid"],
    ["a{2,}{3}", "invalid"],
    ["^(\\u{1,30})*\\a$", "invalid"],
    ["^(a{1,1000000000000000000000})*$", "too-large"],
    ["^(a{1,100}){1,100}$", "too-large"],
    ["x".repeat(MAX_PATTERN_SOURCE + 1), "too-large"],
    ["\\p{Alphabetic}", "unsupported"],
    ["(?i:a)", "unsupported"],
  ];
  test.each(rows)("%s → %s", (pattern, compiled) => {
    const c = compileRe2Pattern(pattern);
    expect("refused" in c ? c.refused : "ok").toBe(compiled);
  });

  test("a refused pattern decides nothing: a key it could match reads unknown and notes schema-pattern-unevaluated", () => {
    const r = walkJson(
      '{"patternProperties":{"(a)\\\\1":{"type":"integer"},"^b":{"type":"integer"}},"additionalProperties":{"type":"number"}}',
      '{"aa":1,"bx":2}',
    );
    expect(r).toEqual({
      readings: { "/aa": "unknown", "/bx": "unknown" },
      notes: ["schema-pattern-unevaluated at /aa", "schema-pattern-unevaluated at /bx"],
    });
  });

  test("an invalid regex never throws", () => {
    expect(walkJson('{"patternProperties":{"(":{"type":"integer"}}}', '{"(":1}')).toEqual({
      readings: { "/(": "unknown" },
      notes: ["schema-pattern-unevaluated at /("],
    });
  });

  test("a pattern whose answer changes nothing is never a reason for a note", () => {
    // The key is in properties, and the refused pattern's subschema describes nothing.
    expect(
      walkJson(
        '{"properties":{"a":{"type":"integer"}},"patternProperties":{"(?=a)":{"description":"x"}},"additionalProperties":{"type":"number"}}',
        '{"a":1}',
      ),
    ).toEqual({ readings: { "/a": "integer" }, notes: [] });
    // No member at all: the pattern is never reached.
    expect(walkJson('{"patternProperties":{"(?=a)":{"type":"integer"}}}', "{}")).toEqual({
      readings: {},
      notes: [],
    });
  });

  test("a long key is tested, in linear time", () => {
    const long = "a".repeat(300);
    const r = walk({ patternProperties: { "^a+b+$": { type: "integer" } } }, { [long]: 1, ab: 2 });
    expect(r).toEqual({ readings: { [`/${long}`]: "unknown", "/ab": "integer" }, notes: [] });
  });

  test("a long key against a one-quantifier pattern is tested", () => {
    const long = `x-${"a".repeat(3000)}`;
    expect(
      walk({ patternProperties: { "^x-.*$": { type: "integer" } } }, { [long]: 1 }).readings,
    ).toEqual({
      [`/${long}`]: "integer",
    });
  });

  test("without an engine, every member a pattern could decide reads unknown with a note", () => {
    const schema =
      '{"properties":{"a":{"type":"number"}},"patternProperties":{"^n_":{"type":"integer"}},"additionalProperties":{"type":"string"}}';
    expect(walkJson(schema, '{"a":1,"n_x":2,"o":{"p":3}}', null)).toEqual({
      readings: { "/a": "unknown", "/n_x": "unknown", "/o/p": "unknown" },
      notes: [
        "schema-pattern-unevaluated at /a",
        "schema-pattern-unevaluated at /n_x",
        "schema-pattern-unevaluated at /o",
      ],
    });
    expect(walkJson(schema, '{"a":1,"n_x":2}')).toEqual({
      readings: { "/a": "number", "/n_x": "integer" },
      notes: [],
    });
  });
});

describe("compile once", () => {
  test("cached per schema object; booleans; compiled schemas pass through", () => {
    const s = { properties: { a: { type: "integer" } } };
    const c = compileSchema(s);
    expect(compileSchema(s)).toBe(c);
    expect(compileSchema(c as unknown as JsonSchema)).toBe(c);
    expect(isCompiledSchema(c)).toBe(true);
    expect(isCompiledSchema(s)).toBe(false);
    expect(rootNode(c)).toBe(rootNode(s));
    expect(compileSchema(true)).toBe(compileSchema(true));
    expect(rootNode(true)).toBe(UNKNOWN_NODE);
    expect(rootNode(null)).toBe(UNKNOWN_NODE);
    expect(rootNode(undefined)).toBe(UNKNOWN_NODE);
    // Issue 16: equal schemas in new objects are reused by content (the first
    // of a fingerprint is compiled per object, lazily; from the second on, one
    // compiled copy serves them all).
    const byContent = compileSchema({ ...s });
    expect(byContent).not.toBe(c);
    expect(compileSchema({ ...s })).toBe(byContent);
    expect(compileSchema(JSON.parse(JSON.stringify(s)))).toBe(byContent);
    expect(compileSchema({ properties: { a: { type: "number" } } })).not.toBe(byContent);
  });

  test("compiling is lazy: a huge schema compiles without reading its definitions", () => {
    // Counted, not timed: compileSchema must not touch the 200,000 definitions at all.
    let reads = 0;
    const defs = new Proxy(
      chainDefs(200_000, () => ({ type: "integer" }), {}),
      {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver);
        },
        ownKeys(target) {
          reads++;
          return Reflect.ownKeys(target);
        },
      },
    );
    const schema = { $defs: defs, properties: { a: { $ref: "#/$defs/L7" } } };
    compileSchema(schema);
    expect(reads).toBe(0);
    expect(walk(schema, { a: 1 }).readings).toEqual({ "/a": "integer" });
  });

  test("10,000 walks of the same schema reuse every node, each for the same units", () => {
    const schema = {
      properties: {
        a: { anyOf: [{ type: "integer" }, { type: "null" }] },
        b: { items: { type: "number" } },
      },
    };
    const first = rootNode(schema);
    const note = () => {};
    const probe = { has: () => true, primitive: () => undefined };
    const walkOnce = (i: number) => {
      const reader = new SchemaReader();
      const scope = reader.objectScope(rootNode(schema), probe, note);
      const a = scope.child("a");
      expect(reader.numberReading(a, i, note)).toBe("integer");
      const items = reader.arrayScope(scope.child("b"), 5, note);
      return { a, item: items.child(i), units: reader.units };
    };
    const once = walkOnce(0);
    for (let i = 0; i < 10_000; i++) {
      expect(rootNode(schema)).toBe(first);
      const again = walkOnce(i);
      expect(again.a).toBe(once.a);
      expect(again.item).toBe(once.item);
      expect(again.units).toBe(once.units);
    }
  });

  test.each([
    ["a number", 5, "a number"],
    ["a string", "x", "a string"],
    ["an array", [], "an array"],
    ["null", null, "null"],
  ])("schema-invalid for %s", (_name, schema, what) => {
    let error: unknown;
    try {
      compileSchema(schema as unknown as JsonSchema);
    } catch (e) {
      error = e;
    }
    expect(isStructJsonError(error)).toBe(true);
    expect(error).toMatchObject({
      code: "schema-invalid",
      path: "",
      message: `schema-invalid at (root): a JSON Schema is an object or a boolean, not ${what}`,
    });
  });
});

describe("malformed schemas never crash", () => {
  const keywordValue = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom("#", "#/$defs/a", "#/properties/a", "#a", "https://x.invalid/y", "#/%zz", "~"),
  );
  const keyword = fc.constantFrom(
    "type",
    "const",
    "enum",
    "multipleOf",
    "properties",
    "patternProperties",
    "additionalProperties",
    "unevaluatedProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "unevaluatedItems",
    "allOf",
    "anyOf",
    "oneOf",
    "if",
    "then",
    "else",
    "$ref",
    "$dynamicRef",
    "$recursiveRef",
    "$id",
    "$anchor",
    "$dynamicAnchor",
    "$defs",
    "required",
    "discriminator",
    "__proto__",
  );
  const schema = fc.letrec((tie) => ({
    schema: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.boolean(),
      fc.dictionary(
        keyword,
        fc.oneof(
          keywordValue,
          tie("schema"),
          fc.array(tie("schema"), { maxLength: 3 }),
          fc.dictionary(fc.constantFrom("a", "b", "__proto__", "^a"), tie("schema")),
        ),
        { maxKeys: 5 },
      ),
    ),
  })).schema;

  test("random schemas and values: readings or notes, never an exception", () => {
    fc.assert(
      fc.property(schema, fc.jsonValue({ maxDepth: 4 }), (s, v) => {
        // Through JSON text, as schemas arrive: __proto__ becomes an own key.
        const parsed = JSON.parse(JSON.stringify(s)) as JsonSchema;
        const r = walk(parsed, v);
        for (const x of Object.values(r.readings))
          expect(["integer", "number", "ambiguous", "unknown"]).toContain(x);
      }),
      { numRuns: 500 },
    );
  });
});
