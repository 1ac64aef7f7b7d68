// Value-dependent branch filtering of anyOf/oneOf: wrong JSON type, const/enum
// of the value or of a member (discriminated unions), missing required
// members, OpenAPI discriminator; judged through $ref/allOf; all set aside →
// all used.
import { describe, expect, test } from "vitest";
import { rootNode, SchemaReader } from "../src/schema/index.js";
import { walk, walkJson } from "./schema-walk.js";

type Row = [name: string, schema: string, args: string, readings: Record<string, string>];

const PETS =
  '"$defs":{"Cat":{"type":"object","properties":{"kind":{"const":"cat"},"size":{"type":"integer"}},"required":["kind"]},"Dog":{"type":"object","properties":{"kind":{"const":"dog"},"size":{"type":"number"}},"required":["kind"]}}';

const rows: Row[] = [
  [
    "the issue's example: oneOf [Cat, Dog] by const tag",
    `{"type":"array","items":{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}]},${PETS}}`,
    '[{"kind":"cat","size":3},{"kind":"dog","size":3}]',
    { "/0/size": "integer", "/1/size": "number" },
  ],
  [
    "no branch matches: all are used",
    `{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],${PETS}}`,
    '{"kind":"bird","size":3}',
    { "/size": "ambiguous" },
  ],
  [
    "tag missing: required sets both aside, all are used",
    `{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],${PETS}}`,
    '{"size":3}',
    { "/size": "ambiguous" },
  ],
  [
    "tag is a container: const not satisfied",
    `{"oneOf":[{"$ref":"#/$defs/Cat"},{"properties":{"size":{"type":"number"}}}],${PETS}}`,
    '{"kind":{"x":1},"size":3}',
    { "/size": "number", "/kind/x": "unknown" },
  ],
  [
    "enum tags (Pydantic v1 Literal)",
    '{"anyOf":[{"properties":{"t":{"enum":["a"],"type":"string"},"n":{"type":"integer"}}},{"properties":{"t":{"enum":["b","c"],"type":"string"},"n":{"type":"number"}}}]}',
    '{"t":"c","n":1}',
    { "/n": "number" },
  ],
  [
    "numeric and boolean tags",
    '{"anyOf":[{"properties":{"v":{"const":1},"n":{"type":"integer"}}},{"properties":{"v":{"const":true},"n":{"type":"number"}}}]}',
    '{"v":true,"n":1}',
    { "/n": "number" },
  ],
  [
    "null tag",
    '{"anyOf":[{"properties":{"v":{"const":null},"n":{"type":"integer"}}},{"properties":{"v":{"const":"x"},"n":{"type":"number"}}}]}',
    '{"v":null,"n":1}',
    { "/n": "integer" },
  ],
  [
    "tag through a $ref to an enum (Pydantic Enum class)",
    '{"anyOf":[{"properties":{"k":{"$ref":"#/$defs/K1"},"n":{"type":"integer"}}},{"properties":{"k":{"$ref":"#/$defs/K2"},"n":{"type":"number"}}}],"$defs":{"K1":{"enum":["a","b"],"type":"string"},"K2":{"enum":["c"],"type":"string"}}}',
    '{"k":"b","n":1}',
    { "/n": "integer" },
  ],
  [
    "tag through allOf inside the branch's target",
    '{"anyOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/B"}],"$defs":{"Base":{"properties":{"n":{"type":"number"}}},"A":{"allOf":[{"$ref":"#/$defs/Base"},{"properties":{"t":{"const":"a"},"n":{"type":"integer"}}}]},"B":{"allOf":[{"$ref":"#/$defs/Base"},{"properties":{"t":{"const":"b"}}}]}}}',
    '{"t":"a","n":1}',
    { "/n": "integer" },
  ],
  [
    "required members decide",
    '{"anyOf":[{"required":["a"],"properties":{"n":{"type":"integer"}}},{"required":["b"],"properties":{"n":{"type":"number"}}}]}',
    '{"b":"x","n":1}',
    { "/n": "number" },
  ],
  [
    "wrong JSON type: object vs array branches",
    '{"properties":{"v":{"anyOf":[{"type":"array","items":{"type":"integer"}},{"type":"object","additionalProperties":{"type":"number"}}]}}}',
    '{"v":[1]}',
    { "/v/0": "integer" },
  ],
  [
    "wrong JSON type: the object branch for an object",
    '{"properties":{"v":{"anyOf":[{"type":"array","items":{"type":"integer"}},{"type":"object","additionalProperties":{"type":"number"}}]}}}',
    '{"v":{"a":1}}',
    { "/v/a": "number" },
  ],
  [
    "wrong JSON type: a null branch never applies to an object (Optional[Model])",
    '{"properties":{"p":{"anyOf":[{"$ref":"#/$defs/P"},{"type":"null"}]}},"$defs":{"P":{"properties":{"x":{"type":"integer"}}}}}',
    '{"p":{"x":1}}',
    { "/p/x": "integer" },
  ],
  [
    "a const object value",
    '{"anyOf":[{"const":{"k":"a","n":1}},{"properties":{"n":{"type":"number"}}}]}',
    '{"k":"b","n":1}',
    { "/n": "number" },
  ],
  [
    "nested anyOf inside a branch",
    '{"anyOf":[{"anyOf":[{"properties":{"t":{"const":"a"},"n":{"type":"integer"}}},{"properties":{"t":{"const":"b"},"n":{"type":"integer"}}}]},{"properties":{"t":{"const":"c"},"n":{"type":"number"}}}]}',
    '{"t":"b","n":1}',
    { "/n": "integer" },
  ],
  [
    "branches filtered independently in each element",
    '{"type":"array","items":{"anyOf":[{"properties":{"t":{"const":"i"},"v":{"type":"integer"}}},{"properties":{"t":{"const":"n"},"v":{"type":"number"}}}]}}',
    '[{"t":"i","v":1},{"t":"n","v":1},{"t":"i","v":2},{"v":3}]',
    { "/0/v": "integer", "/1/v": "number", "/2/v": "integer", "/3/v": "ambiguous" },
  ],
  [
    "if/then/else: the object's members decide the if (see test/schema-conditions.test.ts)",
    '{"if":{"properties":{"t":{"const":"i"}}},"then":{"properties":{"t":{"const":"i"},"v":{"type":"integer"}}},"else":{"properties":{"v":{"type":"number"}}}}',
    '{"t":"i","v":1}',
    { "/v": "integer" },
  ],
  [
    "a discriminated union nested in a discriminated union",
    '{"oneOf":[{"properties":{"a":{"const":1},"in":{"oneOf":[{"properties":{"b":{"const":"x"},"n":{"type":"integer"}}},{"properties":{"b":{"const":"y"},"n":{"type":"number"}}}]}}},{"properties":{"a":{"const":2},"in":{"properties":{"n":{"type":"number"}}}}}]}',
    '{"a":1,"in":{"b":"x","n":1}}',
    { "/a": "integer", "/in/n": "integer" },
  ],
];

const DISC_DEFS =
  '"$defs":{"Cat":{"type":"object","properties":{"petType":{"type":"string"},"n":{"type":"integer"}}},"Dog":{"type":"object","properties":{"petType":{"type":"string"},"n":{"type":"number"}}}}';

const discriminatorRows: Row[] = [
  [
    "OpenAPI discriminator with mapping",
    `{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"discriminator":{"propertyName":"petType","mapping":{"c":"#/$defs/Cat","d":"#/$defs/Dog"}},${DISC_DEFS}}`,
    '{"petType":"d","n":1}',
    { "/n": "number" },
  ],
  [
    "OpenAPI discriminator without mapping: the ref's last segment",
    `{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"discriminator":{"propertyName":"petType"},${DISC_DEFS}}`,
    '{"petType":"Cat","n":1}',
    { "/n": "integer" },
  ],
  [
    "OpenAPI mapping to schema names",
    `{"anyOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"discriminator":{"propertyName":"petType","mapping":{"kitty":"Cat"}},${DISC_DEFS}}`,
    '{"petType":"kitty","n":1}',
    { "/n": "integer" },
  ],
  [
    "OpenAPI components/schemas refs",
    '{"oneOf":[{"$ref":"#/components/schemas/Cat"},{"$ref":"#/components/schemas/Dog"}],"discriminator":{"propertyName":"petType"},"components":{"schemas":{"Cat":{"properties":{"n":{"type":"integer"}}},"Dog":{"properties":{"n":{"type":"number"}}}}}}',
    '{"petType":"Dog","n":1}',
    { "/n": "number" },
  ],
  [
    "discriminator member absent: no filtering",
    `{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"discriminator":{"propertyName":"petType"},${DISC_DEFS}}`,
    '{"n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "discriminator value names no branch: all are used",
    `{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"discriminator":{"propertyName":"petType","mapping":{"c":"#/$defs/Cat"}},${DISC_DEFS}}`,
    '{"petType":"bird","n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "malformed discriminator is ignored",
    `{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"discriminator":{"propertyName":5,"mapping":[1]},${DISC_DEFS}}`,
    '{"petType":"Cat","n":1}',
    { "/n": "ambiguous" },
  ],
];

describe("branch filtering", () => {
  test.each(rows)("%s", (_name, schema, args, readings) => {
    expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
  });
});

describe("OpenAPI discriminator", () => {
  test.each(discriminatorRows)("%s", (_name, schema, args, readings) => {
    expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
  });
});

describe("scopes per set of kept branches are reused", () => {
  // Scopes are per call (one reader, one budget); what is reused is the
  // answer: the same content gives the same member nodes, and within a call a
  // repeated question costs one unit.
  test("the same tag gives the same member nodes; a repeated question costs one unit", () => {
    const schema = JSON.parse(`{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],${PETS}}`);
    const node = rootNode(schema);
    const probe = (kind: string) => ({
      has: (k: string) => k === "kind" || k === "size",
      primitive: (k: string) => (k === "kind" ? kind : k === "size" ? 1 : undefined),
    });
    const reader = new SchemaReader();
    const cat1 = reader.objectScope(node, probe("cat"), () => {});
    const catSize = cat1.child("size");
    const before = reader.units;
    const cat2 = reader.objectScope(node, probe("cat"), () => {});
    expect(cat2.child("size")).toBe(catSize);
    // object info, the branch selection (1 key looked at) and the member: one unit each, plus the key.
    expect(reader.units - before).toBe(4);
    const dog = reader.objectScope(node, probe("dog"), () => {});
    expect(dog.child("size")).not.toBe(catSize);
    expect(new SchemaReader().objectScope(node, probe("cat"), () => {}).child("size")).toBe(
      catSize,
    );
    const plain = rootNode({ properties: { a: { type: "integer" } } });
    expect(reader.objectScope(plain, probe("x"), () => {}).child("a")).toBe(
      reader.objectScope(plain, probe("y"), () => {}).child("a"),
    );
  });

  test("rows alternate between branches and keep their readings", () => {
    const schema = JSON.parse(
      `{"type":"array","items":{"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}]},${PETS}}`,
    );
    const args = Array.from({ length: 100 }, (_, i) => ({ kind: i % 2 ? "dog" : "cat", size: i }));
    const r = walk(schema, args);
    for (let i = 0; i < 100; i++)
      expect(r.readings[`/${i}/size`]).toBe(i % 2 ? "number" : "integer");
  });
});

describe("large enums", () => {
  test("a tag in a 1,000-member enum", () => {
    const big = Array.from({ length: 1000 }, (_, i) => `t${i}`);
    const schema = {
      anyOf: [
        { properties: { t: { enum: big }, n: { type: "integer" } } },
        { properties: { t: { enum: ["x", 2] }, n: { type: "number" } } },
      ],
    };
    expect(walk(schema, { t: "t999", n: 1 }).readings).toEqual({ "/n": "integer" });
    expect(walk(schema, { t: 2, n: 1 }).readings).toEqual({ "/t": "integer", "/n": "number" });
  });
});
