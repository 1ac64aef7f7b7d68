// The schema reader against ajv (draft 2020-12), as an oracle: random tool
// schemas (unions tagged by string members, if/then/else, dependent schemas,
// $refs, nested objects and arrays) and random arguments that ajv accepts.
// For each number the reader reads, the number put a half off (whole → not)
// tells what the schema admits there, and the reading must not contradict it:
// - "integer": the half-off number is rejected (a non-integer is never admitted);
// - "number": the half-off number is accepted (an integer is not required);
// - a non-whole number ajv accepts never reads "integer".
// "ambiguous" and "unknown" are never contradicted (both are reported, not
// guessed). Tags are strings and booleans only, so a number's value decides
// no branch. Seeded: PROPERTY_SEED and PROPERTY_RUNS_SCALE change the runs.
import type { JsonValue } from "@bufbuild/protobuf";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { pointerFrom } from "../src/json-pointer.js";
import { re2Patterns } from "../src/patterns/re2.js";
import { walkNumbers } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { runs } from "./property-arbitraries.js";

type Schema = Record<string, unknown>;

const KEYS = ["n", "m", "kind", "o", "x_1"] as const;
const TAGS = ["a", "b"] as const;

/** A schema for a number (or anything) at a member. */
const numberSchema: fc.Arbitrary<Schema> = fc.oneof(
  fc.constantFrom<Schema>(
    { type: "integer" },
    { type: "number" },
    { type: ["integer", "null"] },
    { type: ["number", "integer"] },
    { type: "string" },
    { multipleOf: 1 },
    { const: 2 },
    { enum: [1, 2, "x"] },
    {},
    { $ref: "#/$defs/int" },
    { $ref: "#/$defs/num" },
    { $ref: "#/$defs/tree" },
    { type: ["integer", "string"] },
    { multipleOf: 2 },
    { multipleOf: 0.5 },
    // Not `not`: the reader does not read it, and under oneOf's "exactly one" a `not` can
    // require an integer that no branch's reading shows (by design: oneOf reads as anyOf).
  ),
  fc
    .tuple(
      fc.constantFrom("anyOf", "oneOf", "allOf"),
      fc.constantFrom<Schema>({ type: "integer" }, { type: "number" }, { type: "string" }, {}),
      fc.constantFrom<Schema>({ type: "integer" }, { type: "number" }, { type: "null" }),
    )
    .map(([k, x, y]) => ({ [k]: [x, y] })),
);

const tagSchema: fc.Arbitrary<Schema> = fc.constantFrom<Schema>(
  { const: "a" },
  { const: "b" },
  { enum: ["a", "b"] },
  { type: "string" },
  { type: "boolean" },
);

/** An `if` that looks at tags and presence only (so that no number decides it). */
const condition: fc.Arbitrary<Schema> = fc.oneof(
  fc
    .record(
      {
        properties: fc.record({ kind: tagSchema }),
        required: fc.subarray([...KEYS], { maxLength: 2 }),
        type: fc.constantFrom("object", "string"),
      },
      { requiredKeys: ["properties"] },
    )
    .map((s) => s as Schema),
  fc.constantFrom<Schema>(
    { required: ["n"] },
    { not: { required: ["kind"] } },
    { minProperties: 2 },
  ),
);

/** An object schema: members, with unions, conditionals and dependent schemas around them. */
const objectSchema: fc.Memo<Schema> = fc.memo((depth) => {
  const member = depth <= 1 ? numberSchema : fc.oneof(numberSchema, objectSchema(depth - 1));
  const plain = fc
    .record(
      {
        n: member,
        m: member,
        kind: tagSchema,
        o: depth <= 1 ? numberSchema : fc.oneof(objectSchema(depth - 1), arraySchema(depth - 1)),
      },
      { requiredKeys: [] },
    )
    .chain((properties) =>
      fc.record(
        {
          properties: fc.constant(properties),
          required: fc.subarray([...KEYS], { maxLength: 2 }),
          additionalProperties: fc.constantFrom<unknown>(false, { type: "integer" }, true),
          patternProperties: fc.constantFrom<unknown>(
            { "^x": { type: "integer" } },
            { "^x": { type: "number" }, _: { type: "integer" } },
          ),
          unevaluatedProperties: fc.constantFrom<unknown>(false, { type: "integer" }, {}),
        },
        { requiredKeys: ["properties"] },
      ),
    );
  if (depth <= 0) return plain;
  const sub = objectSchema(depth - 1);
  return fc.oneof(
    { weight: 2, arbitrary: plain },
    fc
      .tuple(fc.constantFrom("anyOf", "oneOf"), fc.array(sub, { minLength: 1, maxLength: 3 }))
      .map(([k, branches]) => ({ [k]: branches })),
    fc
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
      .record({ if: condition, then: sub, else: sub }, { requiredKeys: ["if"] })
      .map((s) => s as Schema),
    fc
      .tuple(plain, fc.constantFrom(...KEYS), plain)
      .map(([{ unevaluatedProperties: _, ...s }, key, dependent]) => ({
        // Not beside unevaluatedProperties: ajv 8 then finds members of `properties`
        // unevaluated ({"properties":{"o":{}},"unevaluatedProperties":false,
        // "dependentSchemas":{"n":{"properties":{"o":{}}}}} rejects {"o":1}).
        ...s,
        dependentSchemas: { [key]: { properties: dependent.properties } },
      })),
    fc.tuple(plain, sub).map(([a, b]) => ({ allOf: [a, b] })),
  );
});

const arraySchema = (depth: number): fc.Arbitrary<Schema> =>
  fc.oneof(
    numberSchema.map((items) => ({ type: "array", items })),
    fc
      .tuple(
        fc.array(numberSchema, { minLength: 1, maxLength: 2 }),
        fc.oneof(numberSchema, fc.constant(false)),
      )
      .map(([prefixItems, items]) => ({ type: "array", prefixItems, items })),
    fc
      .tuple(fc.array(numberSchema, { minLength: 1, maxLength: 2 }), numberSchema)
      .map(([prefixItems, unevaluatedItems]) => ({ prefixItems, unevaluatedItems })),
    objectSchema(Math.max(0, depth - 1)).map((items) => ({ type: "array", items })),
  );

const NUMBERS = [1, 2, 3, -4, 2.5, 0.5, 2 ** 53 + 2, 1e21];

/** Arguments over the same keys and tags. */
const value: fc.Memo<unknown> = fc.memo((depth) => {
  const primitive = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...NUMBERS) },
    fc.constantFrom<unknown>(...TAGS, "x", true, null),
  );
  if (depth <= 0) return primitive;
  return fc.oneof(
    { weight: 3, arbitrary: primitive },
    fc.dictionary(fc.constantFrom(...KEYS), value(depth - 1), { maxKeys: 4 }),
    fc.array(value(depth - 1), { maxLength: 3 }),
  );
});

const argumentsValue = fc.dictionary(fc.constantFrom(...KEYS), value(2), {
  minKeys: 1,
  maxKeys: 4,
});

const schemaArb = fc.record({ root: objectSchema(2) }).map(({ root }) => ({
  ...root,
  $defs: {
    int: { type: "integer" },
    num: { type: "number" },
    tree: {
      anyOf: [
        { type: "integer" },
        { type: "array", items: { $ref: "#/$defs/tree" } },
        { properties: { n: { type: "number" }, c: { $ref: "#/$defs/tree" } } },
      ],
    },
  },
}));

/** A copy of `v` with the number at `path` replaced by `x`. */
function replaced(v: unknown, path: readonly (string | number)[], x: number): unknown {
  if (path.length === 0) return x;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((e, i) => (i === head ? replaced(e, rest, x) : e));
  const o = v as Record<string, unknown>;
  return { ...o, [head as string]: replaced(o[head as string], rest, x) };
}

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });

interface Contradiction {
  path: string;
  value: number;
  reading: string;
  halfOffValid: boolean;
}

/** The readings the oracle contradicts, for arguments ajv accepts (undefined when it rejects them). */
function contradictions(
  schema: Schema,
  args: Record<string, unknown>,
): Contradiction[] | undefined {
  const validate = ajv.compile(schema);
  if (!validate(args)) return undefined;
  const found: Contradiction[] = [];
  const visit = (path: readonly (string | number)[], v: number, reading: string) => {
    const whole = Number.isInteger(v);
    if (!whole) {
      if (reading === "integer")
        found.push({ path: pointerFrom(path), value: v, reading, halfOffValid: true });
      return;
    }
    // Past 2^52 a float64 has no half: the oracle cannot tell there.
    if ((reading !== "integer" && reading !== "number") || Number.isInteger(v + 0.5)) return;
    const halfOffValid = validate(replaced(args, path, v + 0.5)) as boolean;
    if ((reading === "integer") === halfOffValid)
      found.push({ path: pointerFrom(path), value: v, reading, halfOffValid });
  };
  walkNumbers(args as JsonValue, schema as JsonSchema, visit, { patterns: re2Patterns });
  return found;
}

describe("readings against ajv as an oracle", () => {
  test("random tool schemas and arguments ajv accepts: no reading contradicts what ajv admits", () => {
    let checked = 0;
    fc.assert(
      fc.property(
        schemaArb,
        fc.array(argumentsValue, { minLength: 40, maxLength: 40 }),
        (s, list) => {
          for (const args of list) {
            const found = contradictions(s, args);
            if (found === undefined) continue;
            checked++;
            expect({ schema: s, args, found }).toEqual({ schema: s, args, found: [] });
          }
        },
      ),
      runs(300, 4242),
    );
    // The arguments must reach the oracle often enough to mean something.
    expect(checked).toBeGreaterThan(200);
  });
});
