// Members and elements: properties (own keys only), patternProperties,
// additionalProperties, unevaluatedProperties; prefixItems, items,
// additionalItems, unevaluatedItems; at any depth.
import { describe, expect, test } from "vitest";
import { walkJson } from "./schema-walk.js";

type Row = [name: string, schema: string, args: string, readings: Record<string, string>];

const objectRows: Row[] = [
  [
    "properties, nested objects",
    '{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"object","properties":{"c":{"type":"integer"}}}}}}}',
    '{"a":{"b":{"c":1,"d":2}}}',
    { "/a/b/c": "integer", "/a/b/d": "unknown" },
  ],
  [
    "own keys only: __proto__, constructor, toString are ordinary names",
    '{"properties":{"__proto__":{"type":"integer"},"constructor":{"type":"number"}},"additionalProperties":{"type":"integer"}}',
    '{"__proto__":1,"constructor":2,"toString":3,"hasOwnProperty":4}',
    {
      "/__proto__": "integer",
      "/constructor": "number",
      "/toString": "integer",
      "/hasOwnProperty": "integer",
    },
  ],
  [
    "a key absent from properties is not found on Object.prototype",
    '{"properties":{"a":{"type":"integer"}}}',
    '{"constructor":1,"toString":2,"__proto__":3,"valueOf":4}',
    {
      "/constructor": "unknown",
      "/toString": "unknown",
      "/__proto__": "unknown",
      "/valueOf": "unknown",
    },
  ],
  [
    "keys with / and ~ are escaped in pointers",
    '{"properties":{"a/b":{"type":"integer"},"c~d":{"type":"number"}}}',
    '{"a/b":1,"c~d":2}',
    { "/a~1b": "integer", "/c~0d": "number" },
  ],
  [
    "patternProperties: every matching pattern applies",
    '{"patternProperties":{"^n_":{"type":"number"},"_i$":{"multipleOf":1}},"additionalProperties":{"type":"string"}}',
    '{"n_i":1,"n_x":2,"a_i":3,"zz":4}',
    { "/n_i": "integer", "/n_x": "number", "/a_i": "integer", "/zz": "unknown" },
  ],
  [
    "properties and a matching pattern both apply",
    '{"properties":{"n_a":{"type":"number"}},"patternProperties":{"^n_":{"type":"integer"}}}',
    '{"n_a":1}',
    { "/n_a": "integer" },
  ],
  [
    "additionalProperties only for keys not in properties or patterns",
    '{"properties":{"a":{"type":"number"}},"patternProperties":{"^x":{}},"additionalProperties":{"type":"integer"}}',
    '{"a":1,"xy":2,"b":3}',
    { "/a": "number", "/xy": "unknown", "/b": "integer" },
  ],
  [
    "additionalProperties false: unknown",
    '{"properties":{"a":{"type":"integer"}},"additionalProperties":false}',
    '{"a":1,"b":2}',
    { "/a": "integer", "/b": "unknown" },
  ],
  [
    "a map (Pydantic dict[str, float])",
    '{"type":"object","additionalProperties":{"type":"number"}}',
    '{"x":1,"y":2.5}',
    { "/x": "number", "/y": "number" },
  ],
  [
    "unevaluatedProperties after allOf/$ref evaluated keys",
    '{"allOf":[{"$ref":"#/$defs/Base"}],"properties":{"extra":{"type":"number"}},"unevaluatedProperties":{"type":"integer"},"$defs":{"Base":{"properties":{"id":{"type":"number"}}}}}',
    '{"id":1,"extra":2,"other":3}',
    { "/id": "number", "/extra": "number", "/other": "integer" },
  ],
  [
    "unevaluatedProperties false beside a $ref that evaluates the key",
    '{"$ref":"#/$defs/Base","unevaluatedProperties":false,"$defs":{"Base":{"properties":{"id":{"type":"integer"}}}}}',
    '{"id":1,"x":2}',
    { "/id": "integer", "/x": "unknown" },
  ],
  // JSON Schema takes annotations from the branches that hold: a key one kept
  // branch names and another does not is unevaluated where the first fails,
  // which the value decides. Such a member is read both ways (with and
  // without unevaluatedProperties): ambiguous where the two differ, never a
  // type guessed from a branch that may fail.
  [
    "unevaluatedProperties and kept anyOf branches naming different keys: both ways",
    '{"anyOf":[{"required":["a"],"properties":{"a":{"type":"number"}}},{"required":["b"],"properties":{"b":{"type":"number"}}}],"unevaluatedProperties":{"type":"integer"}}',
    '{"a":1,"b":2}',
    { "/a": "ambiguous", "/b": "ambiguous" },
  ],
  [
    "unevaluatedProperties: a branch naming the key as a string fails at a number, so the number is unevaluated",
    '{"anyOf":[{"required":["a"],"properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"integer"}}}],"unevaluatedProperties":{"type":"number"}}',
    '{"a":5}',
    { "/a": "number" },
  ],
  [
    "unevaluatedProperties: every kept branch names the key, so it is evaluated",
    '{"anyOf":[{"required":["a"],"properties":{"a":{"type":"number"}}},{"required":["b"],"properties":{"a":{"type":"number"},"b":{}}}],"unevaluatedProperties":{"type":"integer"}}',
    '{"a":1,"b":2}',
    { "/a": "number", "/b": "ambiguous" },
  ],
  [
    "unevaluatedProperties false adds no reading: as without it (a branch silent on a key contributes unknown)",
    '{"anyOf":[{"required":["a"],"properties":{"a":{"type":"number"}}},{"required":["b"],"properties":{"b":{"type":"integer"}}}],"unevaluatedProperties":false}',
    '{"a":1,"b":2}',
    { "/a": "number", "/b": "ambiguous" },
  ],
  [
    "unevaluatedProperties: a oneOf whose one kept branch names the key evaluates it",
    '{"oneOf":[{"required":["a"],"properties":{"a":{"type":"number"}}},{"required":["c"],"properties":{"b":{"type":"number"}}}],"unevaluatedProperties":{"type":"integer"}}',
    '{"a":1,"b":2}',
    { "/a": "number", "/b": "integer" },
  ],
  [
    "unevaluatedProperties: a set-aside branch does not evaluate",
    '{"anyOf":[{"required":["a"],"properties":{"a":{"type":"number"},"b":{"type":"number"}}},{"required":["c"]}],"unevaluatedProperties":{"type":"integer"}}',
    '{"c":1,"b":2}',
    { "/c": "integer", "/b": "integer" },
  ],
  // An `unevaluatedProperties` inside an in-place subschema evaluates every
  // key left to it, so an enclosing one no longer applies to those keys; it
  // still applies where only some kept branches hold such a subschema.
  [
    "unevaluatedProperties inside allOf evaluates every key: the outer one does not apply",
    '{"allOf":[{"unevaluatedProperties":{"type":"number"}}],"unevaluatedProperties":{"type":"integer"}}',
    '{"a":1}',
    { "/a": "number" },
  ],
  [
    "unevaluatedProperties false outside one that evaluates every key",
    '{"allOf":[{"unevaluatedProperties":{"type":"number"}}],"unevaluatedProperties":false}',
    '{"a":1}',
    { "/a": "number" },
  ],
  [
    "unevaluatedProperties in a $ref target evaluates every key",
    '{"$ref":"#/$defs/Open","unevaluatedProperties":{"type":"integer"},"$defs":{"Open":{"properties":{"id":{"type":"integer"}},"unevaluatedProperties":{"type":"number"}}}}',
    '{"id":1,"x":2}',
    { "/id": "integer", "/x": "number" },
  ],
  [
    "unevaluatedProperties two levels down: the innermost decides, the outer two do not apply",
    '{"allOf":[{"allOf":[{"unevaluatedProperties":{"type":"number"}}],"unevaluatedProperties":{"type":"integer"}}],"unevaluatedProperties":{"multipleOf":1}}',
    '{"a":1}',
    { "/a": "number" },
  ],
  [
    "unevaluatedProperties in one kept anyOf branch only: both ways",
    '{"anyOf":[{"unevaluatedProperties":{"type":"number"}},{"properties":{"b":{}}}],"unevaluatedProperties":{"type":"integer"}}',
    '{"a":1}',
    { "/a": "ambiguous" },
  ],
  [
    "unevaluatedProperties in every kept anyOf branch: evaluated",
    '{"anyOf":[{"unevaluatedProperties":{"type":"number"}},{"required":["a"],"additionalProperties":{"type":"number"}}],"unevaluatedProperties":{"type":"integer"}}',
    '{"a":1}',
    { "/a": "number" },
  ],
  [
    "a branch whose unevaluatedProperties is false cannot hold with the member: it does not evaluate it",
    '{"anyOf":[{"unevaluatedProperties":false},{"properties":{"b":{}}}],"unevaluatedProperties":{"type":"integer"}}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "nor does a branch whose additionalProperties is false",
    '{"anyOf":[{"additionalProperties":false},{"properties":{"b":{}}}],"unevaluatedProperties":{"type":"integer"}}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "sibling unevaluatedProperties under allOf do not evaluate for each other: both apply to a",
    '{"allOf":[{"unevaluatedProperties":{"type":"number"}},{"properties":{"b":{}},"unevaluatedProperties":{"type":"integer"}}]}',
    '{"a":1,"b":2}',
    { "/a": "integer", "/b": "number" },
  ],
  [
    "member of a conjunction: conjunction of members",
    '{"allOf":[{"properties":{"a":{"type":"number"}}},{"properties":{"a":{"multipleOf":1}}}]}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "member of a disjunction: disjunction of the branches' members",
    '{"anyOf":[{"properties":{"a":{"type":"integer"}}},{"properties":{"a":{"type":"number"}}}]}',
    '{"a":1}',
    { "/a": "ambiguous" },
  ],
  [
    "a branch that says nothing of the key contributes unknown",
    '{"anyOf":[{"properties":{"a":{"type":"integer"}}},{"properties":{"b":{"type":"string"}}}]}',
    '{"a":1}',
    { "/a": "ambiguous" },
  ],
  [
    "a branch whose member is false contributes nothing",
    '{"anyOf":[{"properties":{"a":{"type":"integer"}}},{"properties":{"a":false}}]}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "members of if/then/else",
    '{"if":{"required":["k"]},"then":{"properties":{"n":{"type":"integer"}}},"else":{"properties":{"n":{"type":"integer"}}}}',
    '{"n":1}',
    { "/n": "integer" },
  ],
  [
    "malformed: properties 5, required 'x', patternProperties []",
    '{"properties":5,"required":"x","patternProperties":[],"additionalProperties":{"type":"integer"}}',
    '{"a":1}',
    { "/a": "integer" },
  ],
  [
    "malformed: a property whose schema is 5 is still a listed key",
    '{"properties":{"a":5},"additionalProperties":{"type":"integer"}}',
    '{"a":1,"b":2}',
    { "/a": "unknown", "/b": "integer" },
  ],
];

const arrayRows: Row[] = [
  [
    "items schema",
    '{"type":"array","items":{"type":"integer"}}',
    "[1,2,3]",
    { "/0": "integer", "/1": "integer", "/2": "integer" },
  ],
  [
    "prefixItems then items (2020-12)",
    '{"prefixItems":[{"type":"integer"},{"type":"string"}],"items":{"type":"number"}}',
    '[1,"a",2,3]',
    { "/0": "integer", "/2": "number", "/3": "number" },
  ],
  [
    "prefixItems without items",
    '{"prefixItems":[{"type":"integer"}]}',
    "[1,2]",
    { "/0": "integer", "/1": "unknown" },
  ],
  [
    "prefixItems with items false",
    '{"prefixItems":[{"type":"integer"}],"items":false}',
    "[1,2]",
    { "/0": "integer", "/1": "unknown" },
  ],
  [
    "items array + additionalItems (draft-07)",
    '{"items":[{"type":"integer"},{"type":"number"}],"additionalItems":{"type":"integer"}}',
    "[1,2,3,4]",
    { "/0": "integer", "/1": "number", "/2": "integer", "/3": "integer" },
  ],
  [
    "items array without additionalItems",
    '{"items":[{"type":"integer"}]}',
    "[1,2]",
    { "/0": "integer", "/1": "unknown" },
  ],
  [
    "unevaluatedItems after prefixItems",
    '{"prefixItems":[{"type":"integer"}],"unevaluatedItems":{"type":"number"}}',
    "[1,2,3]",
    { "/0": "integer", "/1": "number", "/2": "number" },
  ],
  [
    "unevaluatedItems under anyOf branches evaluating different lengths: read both ways",
    '{"anyOf":[{"prefixItems":[{"type":"string"}]},{"type":"array"}],"unevaluatedItems":{"type":"number"}}',
    "[5,6]",
    { "/0": "number", "/1": "number" },
  ],
  [
    "unevaluatedItems under anyOf branches that all evaluate the element",
    '{"anyOf":[{"prefixItems":[{"type":"integer"}]},{"items":{"type":"integer"}}],"unevaluatedItems":{"type":"number"}}',
    "[5,6]",
    { "/0": "integer", "/1": "ambiguous" },
  ],
  [
    "unevaluatedItems with an allOf that evaluates more",
    '{"allOf":[{"prefixItems":[{},{"type":"number"}]}],"prefixItems":[{"type":"integer"}],"unevaluatedItems":{"type":"integer"}}',
    "[1,2,3]",
    { "/0": "integer", "/1": "number", "/2": "integer" },
  ],
  [
    "unevaluatedItems inside allOf evaluates every element: the outer one does not apply",
    '{"allOf":[{"unevaluatedItems":{"type":"number"}}],"unevaluatedItems":{"type":"integer"}}',
    "[1,2]",
    { "/0": "number", "/1": "number" },
  ],
  [
    "unevaluatedItems in a $ref target after its prefixItems",
    '{"$ref":"#/$defs/T","unevaluatedItems":false,"$defs":{"T":{"prefixItems":[{"type":"integer"}],"unevaluatedItems":{"type":"number"}}}}',
    "[1,2]",
    { "/0": "integer", "/1": "number" },
  ],
  [
    "unevaluatedItems in one kept anyOf branch only: both ways",
    '{"anyOf":[{"unevaluatedItems":{"type":"number"}},{"type":"array"}],"unevaluatedItems":{"type":"integer"}}',
    "[1]",
    { "/0": "ambiguous" },
  ],
  [
    "a branch whose unevaluatedItems is false does not evaluate the elements it refuses",
    '{"anyOf":[{"unevaluatedItems":false},{"prefixItems":[{}]}],"unevaluatedItems":{"type":"integer"}}',
    "[1,2]",
    { "/0": "ambiguous", "/1": "integer" },
  ],
  [
    "contains alone says nothing of an element",
    '{"contains":{"type":"integer"}}',
    "[1]",
    { "/0": "unknown" },
  ],
  [
    "elements of a disjunction",
    '{"anyOf":[{"items":{"type":"integer"}},{"items":{"type":"number"}}]}',
    "[1]",
    { "/0": "ambiguous" },
  ],
  [
    "tuples of different lengths in a disjunction",
    '{"anyOf":[{"prefixItems":[{"type":"integer"},{"type":"integer"}],"items":false},{"items":{"type":"integer"}}]}',
    "[1,2,3,4]",
    { "/0": "integer", "/1": "integer", "/2": "integer", "/3": "integer" },
  ],
  [
    "arrays in objects in arrays",
    '{"type":"array","items":{"type":"object","properties":{"xs":{"type":"array","items":{"type":"array","items":{"type":"integer"}}}}}}',
    '[{"xs":[[1],[2,3]]}]',
    { "/0/xs/0/0": "integer", "/0/xs/1/0": "integer", "/0/xs/1/1": "integer" },
  ],
  [
    "malformed: items 5, prefixItems {}",
    '{"items":5,"prefixItems":{},"unevaluatedItems":{"type":"integer"}}',
    "[1]",
    { "/0": "integer" },
  ],
];

describe("object members", () => {
  test.each(objectRows)("%s", (_name, schema, args, readings) => {
    expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
  });
});

describe("array elements", () => {
  test.each(arrayRows)("%s", (_name, schema, args, readings) => {
    expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
  });
});

describe("hostile keys leave Object.prototype alone", () => {
  test("walking __proto__/constructor keys changes nothing global", () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const schema =
      '{"properties":{"__proto__":{"properties":{"polluted":{"type":"integer"}}},"constructor":{"properties":{"prototype":{"type":"integer"}}}},"patternProperties":{"^__":{"type":"integer"}}}';
    const args = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":2}},"__x":3}';
    expect(walkJson(schema, args)).toEqual({
      readings: {
        "/__proto__/polluted": "integer",
        "/constructor/prototype/x": "unknown",
        "/__x": "integer",
      },
      notes: [],
    });
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("an inherited keyword on a polluted Object.prototype is not read", () => {
    const proto = Object.prototype as Record<string, unknown>;
    Object.defineProperty(proto, "multipleOf", { value: 1, configurable: true, writable: true });
    Object.defineProperty(proto, "additionalProperties", {
      value: { type: "integer" },
      configurable: true,
      writable: true,
    });
    try {
      expect(walkJson('{"properties":{"a":{"type":"number"}}}', '{"a":1,"b":2}')).toEqual({
        readings: { "/a": "number", "/b": "unknown" },
        notes: [],
      });
    } finally {
      delete proto.multipleOf;
      delete proto.additionalProperties;
    }
  });
});
