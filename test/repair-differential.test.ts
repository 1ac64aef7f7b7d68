// Differential tests of repair mode with ajv (draft-07, the options repair
// uses) as the oracle, over schemas whose verdict on one member depends on
// the others: `if` on a member's presence, `dependencies`, `minProperties`,
// `maxProperties`, `not: {required}`, unions, `allOf`, `additionalProperties:
// false`. Fixed seeds and run counts: no verdict depends on time or chance.
import { Ajv, type ErrorObject } from "ajv";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parsePointer } from "../src/json-pointer.js";
import { repairArguments } from "../src/repair/repair-arguments.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { runs } from "./property-arbitraries.js";

const oracle = new Ajv({ allErrors: true, strict: false, validateFormats: false });

/** Objects without a prototype, as repair validates them. */
function withoutPrototypes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutPrototypes);
  if (typeof v !== "object" || v === null) return v;
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(v)) out[k] = withoutPrototypes((v as Record<string, unknown>)[k]);
  return out;
}

/** ajv's failures for a JSON text: empty when valid. */
function oracleErrors(schema: JsonSchema, value: unknown): readonly ErrorObject[] {
  const validate = oracle.compile(schema as object);
  return validate(withoutPrototypes(value)) ? [] : (validate.errors ?? []);
}

const keys = ["a", "b", "c"] as const;
const leafSchema = fc.constantFrom<JsonSchema>(
  { type: "integer" },
  { type: "number" },
  { type: "string" },
  { type: "boolean" },
  { type: "null" },
  { type: ["integer", "string"] },
  { enum: [1, "1"] },
  { enum: [1, 2] },
  { const: 1 },
  { type: "array", items: { type: "integer" } },
  { type: "array", minItems: 1 },
  { type: "object", properties: { a: { type: "integer" } } },
  { not: { type: "string" } },
  { type: "string", minLength: 2 },
  { type: "integer", minimum: 2 },
  {},
);
const plain = fc
  .tuple(
    fc.uniqueArray(fc.tuple(fc.constantFrom(...keys), leafSchema), {
      selector: ([k]) => k,
      minLength: 1,
      maxLength: 3,
    }),
    fc.subarray([...keys]),
  )
  .map(
    ([props, required]): Record<string, unknown> => ({
      type: "object",
      properties: Object.fromEntries(props),
      ...(required.length > 0 ? { required } : {}),
    }),
  );
const key = fc.constantFrom(...keys);
const schemas: fc.Arbitrary<JsonSchema> = fc.oneof(
  plain,
  fc
    .tuple(plain, key, plain, plain)
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    .map(([s, k, t, e]) => ({ ...s, if: { required: [k] }, then: t, else: e })),
  fc.tuple(plain, key, key).map(([s, k, other]) => ({ ...s, dependencies: { [k]: [other] } })),
  fc.tuple(plain, key, plain).map(([s, k, d]) => ({ ...s, dependencies: { [k]: d } })),
  fc.tuple(plain, fc.integer({ min: 1, max: 3 })).map(([s, n]) => ({ ...s, minProperties: n })),
  fc.tuple(plain, fc.integer({ min: 0, max: 2 })).map(([s, n]) => ({ ...s, maxProperties: n })),
  fc.tuple(plain, key).map(([s, k]) => ({ ...s, not: { required: [k] } })),
  fc.tuple(plain, plain).map(([s, t]) => ({ anyOf: [s, t] })),
  fc.tuple(plain, plain).map(([s, t]) => ({ oneOf: [s, t] })),
  fc.tuple(plain, plain).map(([s, t]) => ({ allOf: [s, t] })),
  plain.map((s) => ({ ...s, additionalProperties: false })),
);
const leafText = fc.constantFrom(
  "null",
  "1",
  "1.0",
  "2",
  '"1"',
  '"1.0"',
  '"2"',
  '"x"',
  '"true"',
  "true",
  "[]",
  '["1"]',
  "{}",
  '"{\\"a\\":\\"1\\"}"',
  '"[\\"1\\"]"',
  '{"a":"1"}',
  '{"a":null}',
  '""',
  '"null"',
  '"1e-400"',
);
const argumentTexts = fc
  .uniqueArray(
    fc.tuple(
      key,
      fc.oneof(
        { weight: 4, arbitrary: leafText },
        { weight: 1, arbitrary: leafText.map((v) => `{"a":${v}}`) },
      ),
    ),
    { selector: ([k]) => k, maxLength: 3 },
  )
  .map((members) => `{${members.map(([k, v]) => `"${k}":${v}`).join(",")}}`);

/** The value at `path`, or undefined where the path leads nowhere. */
function getAt(value: unknown, path: string): unknown {
  let v = value;
  for (const t of parsePointer(path) ?? []) {
    if (typeof v !== "object" || v === null || !Object.hasOwn(v, t)) return undefined;
    v = (v as Record<string, unknown>)[t];
  }
  return v;
}

/** `value` with `path` set back to `old`. */
function setAt(value: unknown, path: string, old: unknown): unknown {
  const tokens = parsePointer(path) ?? [];
  const copy = structuredClone(value) as Record<string, unknown>;
  let v = copy;
  for (const t of tokens.slice(0, -1)) v = v[t] as Record<string, unknown>;
  v[tokens.at(-1) as string] = old;
  return copy;
}

describe("repair against ajv: members whose verdict depends on their siblings", () => {
  test("valid arguments are kept; an accepted result is valid and a fixed point", () => {
    fc.assert(
      fc.property(schemas, argumentTexts, (schema, input) => {
        const result = repairArguments(input, schema);
        const before = JSON.parse(input) as unknown;
        if (oracleErrors(schema, before).length === 0) {
          expect(result.ok).toBe(true);
          if (result.ok)
            expect(result.repairs.every((r) => r.kind === "integer-literal")).toBe(true);
          if (result.ok && result.repairs.length === 0) expect(result.argumentsJson).toBe(input);
        }
        if (!result.ok) return;
        expect(oracleErrors(schema, JSON.parse(result.argumentsJson))).toEqual([]);
        expect(repairArguments(result.argumentsJson, schema)).toEqual({
          ok: true,
          argumentsJson: result.argumentsJson,
          repairs: [],
        });
      }),
      runs(1500, 20261205),
    );
  });

  test("a repair is at a position that failed as written, and undoing it alone fails again", () => {
    fc.assert(
      fc.property(schemas, argumentTexts, checkRepairsFailedAsWritten),
      runs(1500, 20261206),
    );
  });

  test("a member's presence switching its sibling's type: the sibling is changed only where it failed", () => {
    const value = fc.constantFrom(undefined, "null", '"1"', "1", '"x"', '"true"', "1.0");
    const cases = fc.tuple(
      fc.tuple(leafSchema, leafSchema, leafSchema).map(
        ([own, then, otherwise]): JsonSchema => ({
          properties: { a: own },
          if: { required: ["a"] },
          // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
          then: { properties: { b: then } },
          else: { properties: { b: otherwise } },
        }),
      ),
      fc.tuple(value, value).map(([a, b]) => {
        const members = [a === undefined ? [] : [`"a":${a}`], b === undefined ? [] : [`"b":${b}`]];
        return `{${members.flat().join(",")}}`;
      }),
    );
    fc.assert(
      fc.property(cases, ([schema, input]) => checkRepairsFailedAsWritten(schema, input)),
      runs(1500, 20261207),
    );
  });
});

/**
 * Each repair (but the integer-literal rule, the same value for the schema)
 * is at a position ajv failed in the arguments as written, and undoing it
 * alone makes ajv fail again; the result is valid for ajv.
 */
function checkRepairsFailedAsWritten(schema: JsonSchema, input: string): void {
  const result = repairArguments(input, schema);
  if (!result.ok) return;
  const before = JSON.parse(input) as unknown;
  const failing = new Set(oracleErrors(schema, before).map((e) => e.instancePath));
  const after = JSON.parse(result.argumentsJson) as unknown;
  expect(oracleErrors(schema, after)).toEqual([]);
  for (const r of result.repairs) {
    if (r.kind === "integer-literal") continue;
    const old = getAt(before, r.path);
    // Inside a string's parsed JSON: no value of its own as written.
    if (old === undefined) continue;
    expect(failing.has(r.path)).toBe(true);
    expect(oracleErrors(schema, setAt(after, r.path, old)).length).toBeGreaterThan(0);
  }
}
