// Conditionals: `if` chooses `then` (it holds) or `else` (it does not), an
// absent one being `true`; a dependent schema (`dependentSchemas`, draft-07
// `dependencies`) applies to an object that has its key. At an object's
// position the `if`'s branch predicate (the one anyOf/oneOf branches are set
// aside by) decides: failing, `else`; holding, `then` when the `if` is one it
// decides exactly (`type`, `required`, `properties` of tags), else both
// branches, reported as ambiguous where they disagree, never one guessed.
import { describe, expect, test } from "vitest";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { structToJson } from "../src/struct/to-json.js";
import { walkJson } from "./schema-walk.js";

type Row = [name: string, schema: string, args: string, readings: Record<string, string>];

const KIND_A = '{"properties":{"kind":{"const":"a"}}}';
const KIND_A_REQUIRED = '{"properties":{"kind":{"const":"a"}},"required":["kind"]}';
const N_INTEGER = '{"properties":{"n":{"type":"integer"}}}';
const N_NUMBER = '{"properties":{"n":{"type":"number"}}}';

const ifRows: Row[] = [
  [
    "then only, the if holds: then",
    `{"if":${KIND_A},"then":${N_INTEGER}}`,
    '{"kind":"a","n":1}',
    { "/n": "integer" },
  ],
  [
    "then only, the if fails: the absent else (true), so nothing is said of n",
    `{"if":${KIND_A},"then":${N_INTEGER}}`,
    '{"kind":"b","n":1}',
    { "/n": "unknown" },
  ],
  [
    "then only, the member absent: properties holds vacuously, then",
    `{"if":${KIND_A},"then":${N_INTEGER}}`,
    '{"n":1}',
    { "/n": "integer" },
  ],
  [
    "then and else, the required member absent: else",
    `{"if":${KIND_A_REQUIRED},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"n":1}',
    { "/n": "number" },
  ],
  [
    "then and else, the if holds: then",
    `{"if":${KIND_A_REQUIRED},"then":${N_NUMBER},"else":${N_INTEGER}}`,
    '{"kind":"a","n":1}',
    { "/n": "number" },
  ],
  [
    "else only, the if holds: the absent then (true)",
    `{"if":${KIND_A_REQUIRED},"else":${N_INTEGER}}`,
    '{"kind":"a","n":1}',
    { "/n": "unknown" },
  ],
  [
    "else only, the if fails: else",
    `{"if":${KIND_A_REQUIRED},"else":${N_INTEGER}}`,
    '{"kind":"c","n":1}',
    { "/n": "integer" },
  ],
  [
    "a keyword not evaluated (minProperties) beside a member that holds: undecided, both",
    `{"if":{"properties":{"kind":{"const":"a"}},"minProperties":2},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":"a","n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "a keyword not evaluated beside a member that fails: the if fails",
    `{"if":{"properties":{"kind":{"const":"a"}},"minProperties":2},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":"b","n":1}',
    { "/n": "number" },
  ],
  [
    "a keyword outside the exact set (minLength, even of another type): undecided when the members hold",
    `{"if":{"properties":{"kind":{"const":"a"}},"minLength":3},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":"a","n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "the if through a $ref",
    `{"if":{"$ref":"#/$defs/IsA"},"then":${N_INTEGER},"else":${N_NUMBER},"$defs":{"IsA":${KIND_A_REQUIRED}}}`,
    '{"kind":"b","n":1}',
    { "/n": "number" },
  ],
  [
    "the if through a $ref, holding: undecided (only an if of its own keywords is exact)",
    `{"if":{"$ref":"#/$defs/IsA"},"then":${N_INTEGER},"else":${N_NUMBER},"$defs":{"IsA":${KIND_A_REQUIRED}}}`,
    '{"kind":"a","n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "an unresolved $ref in the if: undecided",
    `{"if":{"$ref":"#/$defs/Missing"},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":"a","n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "a member's type alone is not read: undecided",
    `{"if":{"properties":{"kind":{"type":"string"}}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":5,"n":1}',
    { "/kind": "unknown", "/n": "ambiguous" },
  ],
  [
    "a tag with a type that admits it, and annotations: exact",
    `{"if":{"type":"object","title":"A","properties":{"kind":{"type":"string","enum":["a","c"],"title":"K"}},"required":["kind"]},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":"c","n":1}',
    { "/n": "integer" },
  ],
  [
    "a tag whose type does not admit all its values: undecided",
    `{"if":{"properties":{"kind":{"type":"string","enum":["a",true]}}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":true,"n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "a tag of true and false members: exact",
    `{"if":{"properties":{"kind":{"const":false},"x":false,"y":true}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":false,"n":1}',
    { "/n": "integer" },
  ],
  [
    "a member the if forbids (false) present: the if fails",
    `{"if":{"properties":{"x":false}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"x":"a","n":1}',
    { "/n": "number" },
  ],
  [
    "a member's minimum is not read: undecided",
    `{"if":{"properties":{"m":{"minimum":3}}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"m":5,"n":1}',
    { "/m": "unknown", "/n": "ambiguous" },
  ],
  [
    "an anyOf in the if: the predicate fails only when no branch may match",
    `{"if":{"anyOf":[{"properties":{"kind":{"enum":["a","b"]}},"required":["kind"]},{"required":["x"]}]},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":"c","n":1}',
    { "/n": "number" },
  ],
  [
    "an anyOf in the if, a branch that may match: undecided",
    `{"if":{"anyOf":[{"properties":{"kind":{"enum":["a","b"]}},"required":["kind"]},{"required":["x"]}]},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":"b","n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "not in the if is not read: undecided",
    `{"if":{"not":${KIND_A_REQUIRED}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":"a","n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "if: false takes else, if: true takes then",
    `{"properties":{"f":{"if":false,"then":${N_INTEGER},"else":${N_NUMBER}},"t":{"if":true,"then":${N_INTEGER},"else":${N_NUMBER}}}}`,
    '{"f":{"n":1},"t":{"n":1}}',
    { "/f/n": "number", "/t/n": "integer" },
  ],
  [
    "a container member is equal to no string",
    `{"if":${KIND_A},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":{"x":"a"},"n":1}',
    { "/n": "number" },
  ],
  [
    "a container member against a const object: undecided",
    `{"if":{"properties":{"kind":{"const":{"x":"a"}}}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":{"x":"a"},"n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "a member past 2^53 against a const: undecided (the float64 may stand for another number)",
    `{"if":{"properties":{"id":{"const":9007199254740993}}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"id":9007199254740993,"n":1}',
    { "/id": "unknown", "/n": "ambiguous" },
  ],
  [
    "OpenAPI nullable beside type: a null member is undecided",
    `{"if":{"properties":{"kind":{"type":"string","nullable":true}}},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"kind":null,"n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "the object's type and const in the if: an object is not a string",
    `{"if":{"type":"string"},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    '{"n":1}',
    { "/n": "number" },
  ],
  [
    "decided per element",
    `{"items":{"if":${KIND_A_REQUIRED},"then":${N_INTEGER},"else":${N_NUMBER}}}`,
    '[{"kind":"a","n":1},{"kind":"b","n":1},{"n":1}]',
    { "/0/n": "integer", "/1/n": "number", "/2/n": "number" },
  ],
  [
    "beside an anyOf that is filtered too",
    `{"if":${KIND_A_REQUIRED},"then":${N_INTEGER},"anyOf":[{"properties":{"t":{"const":1},"m":{"type":"integer"}}},{"properties":{"t":{"const":2},"m":{"type":"number"}}}]}`,
    '{"kind":"a","t":2,"n":1,"m":1}',
    { "/t": "integer", "/n": "integer", "/m": "number" },
  ],
  [
    "a recursive if: a cut recursion is undecided",
    `{"$defs":{"C":{"if":{"$ref":"#/$defs/C"},"then":${N_INTEGER},"else":${N_NUMBER}}},"$ref":"#/$defs/C"}`,
    '{"n":1}',
    { "/n": "ambiguous" },
  ],
];

// The members an `if` evaluates count as evaluated only where it holds, and
// the elements `contains` matches only where they match: the value decides,
// so the `unevaluated*` schema may or may not apply and the member is read
// both ways (decision, session 19: before, neither counted, a reading
// "stricter than JSON Schema" that, with `unevaluated*: false`, made a
// member the `if` evaluates read unknown: `5.0` written `5`, silently).
const evaluatedWhereRows: Row[] = [
  [
    "the members an if evaluates: unevaluatedProperties may apply or not, both ways",
    '{"if":{"properties":{"n":{}}},"then":{"required":["n"]},"unevaluatedProperties":{"type":"integer"}}',
    '{"n":1}',
    { "/n": "ambiguous" },
  ],
  [
    "the elements contains matches: unevaluatedItems may apply or not, both ways",
    '{"contains":{"type":"number"},"unevaluatedItems":{"type":"integer"}}',
    "[1]",
    { "/0": "ambiguous" },
  ],
  [
    "unevaluatedProperties false beside an if that names the member: the member keeps its reading",
    '{"properties":{"a":{"type":"number"}},"$ref":"#/$defs/D","$defs":{"D":{"if":{"properties":{"a":true}},"then":{},"unevaluatedProperties":false}}}',
    '{"a":5}',
    { "/a": "number" },
  ],
  [
    "an if with no then or else still evaluates",
    '{"allOf":[{"if":{"properties":{"a":{"type":"number"}}},"unevaluatedProperties":false}],"properties":{"a":{"type":"number"}}}',
    '{"a":5}',
    { "/a": "number" },
  ],
  [
    "an if that does not name the member does not evaluate it",
    '{"if":{"properties":{"k":{"const":"x"}}},"then":{},"unevaluatedProperties":{"type":"integer"}}',
    '{"n":1}',
    { "/n": "integer" },
  ],
  [
    "unevaluatedItems false beside contains: the element keeps its reading",
    '{"properties":{"x":{"items":{"type":"number"},"$ref":"#/$defs/D"}},"$defs":{"D":{"contains":{},"unevaluatedItems":false}}}',
    '{"x":[5]}',
    { "/x/0": "number" },
  ],
  [
    "contains: false matches nothing, so evaluates nothing",
    '{"contains":false,"minContains":0,"unevaluatedItems":{"type":"integer"}}',
    "[1]",
    { "/0": "integer" },
  ],
];

const numberRows: Row[] = [
  [
    "a number's if is not evaluated: then (integer) or the absent else (anything)",
    '{"properties":{"v":{"if":{"minimum":10},"then":{"type":"integer"}}}}',
    '{"v":4}',
    { "/v": "ambiguous" },
  ],
  [
    "then and else both integer: integer",
    '{"properties":{"v":{"if":{"minimum":10},"then":{"type":"integer"},"else":{"multipleOf":2}}}}',
    '{"v":4}',
    { "/v": "integer" },
  ],
  [
    "an array's if is not evaluated either",
    '{"properties":{"v":{"if":{"minItems":1},"then":{"items":{"type":"integer"}}}}}',
    '{"v":[4]}',
    { "/v/0": "ambiguous" },
  ],
];

const dependentRows: Row[] = [
  [
    "dependentSchemas: the key present, the dependent schema applies",
    '{"properties":{"v":{"type":"number"}},"dependentSchemas":{"exact":{"properties":{"v":{"type":"integer"}}}}}',
    '{"exact":true,"v":1}',
    { "/v": "integer" },
  ],
  [
    "dependentSchemas: the key absent, it does not",
    '{"properties":{"v":{"type":"number"}},"dependentSchemas":{"exact":{"properties":{"v":{"type":"integer"}}}}}',
    '{"v":1}',
    { "/v": "number" },
  ],
  [
    "dependentSchemas alone: the key absent, nothing is said",
    '{"dependentSchemas":{"exact":{"properties":{"v":{"type":"integer"}}}}}',
    '{"v":1}',
    { "/v": "unknown" },
  ],
  [
    "dependentSchemas through a $ref",
    '{"$defs":{"B":{"properties":{"b":{"type":"integer"}}}},"dependentSchemas":{"a":{"$ref":"#/$defs/B"}}}',
    '{"a":"x","b":1}',
    { "/b": "integer" },
  ],
  [
    "draft-07 dependencies: a schema applies when the key is present, a list of names says nothing",
    '{"properties":{"v":{"type":"number"}},"dependencies":{"exact":{"properties":{"v":{"type":"integer"}}},"w":["v"]}}',
    '{"exact":1,"w":2,"v":1}',
    { "/exact": "unknown", "/w": "unknown", "/v": "integer" },
  ],
  [
    "a dependent schema never applies to a number",
    '{"properties":{"v":{"type":"number","dependentSchemas":{"x":{"type":"integer"}}}}}',
    '{"v":1}',
    { "/v": "number" },
  ],
  [
    "nor to an array",
    '{"properties":{"v":{"dependentSchemas":{"0":{"items":{"type":"integer"}}}}}}',
    '{"v":[1]}',
    { "/v/0": "unknown" },
  ],
];

const tables: [title: string, rows: Row[]][] = [
  ["if/then/else at an object's position: decided by the branch predicate", ifRows],
  ["if/then/else at a number's or an array's position: both branches", numberRows],
  ["annotations of if and contains: where they hold", evaluatedWhereRows],
  ["dependent schemas: decided by the key's presence", dependentRows],
];

for (const [title, rows] of tables) {
  describe(title, () => {
    test.each(rows)("%s", (_name, schema, args, readings) => {
      expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
    });
  });
}

describe("an if's pattern without a pattern engine", () => {
  // Whether the `if` evaluates the member is "maybe" whatever the pattern
  // says, so the pattern is not needed (nothing is reported): both ways.
  const schema =
    '{"if":{"patternProperties":{"^n":{}}},"then":{},"unevaluatedProperties":{"type":"integer"}}';
  test.each([
    ["unevaluatedProperties integer: both ways", schema, { "/n": "ambiguous" }],
    [
      "unevaluatedProperties false: the member keeps its reading",
      '{"properties":{"n":{"type":"number"}},"allOf":[{"if":{"patternProperties":{"^n":{}}},"unevaluatedProperties":false}]}',
      { "/n": "number" },
    ],
  ])("%s", (_name, s, readings) => {
    expect(walkJson(s, '{"n":1}', null)).toEqual({ readings, notes: [] });
    expect(walkJson(s, '{"n":1}')).toEqual({ readings, notes: [] });
  });
});

describe("the decoder's output", () => {
  const decode = (args: unknown, schema: JsonSchema) => {
    const diagnostics: string[] = [];
    const text = structToJson(args as never, schema, {
      onDiagnostic: (d) => diagnostics.push(`${d.code} ${d.path}`),
    });
    return { text, diagnostics };
  };
  const conditional = JSON.parse(
    `{"properties":{"r":{"if":${KIND_A_REQUIRED},"then":${N_INTEGER},"else":${N_NUMBER}},"d":{"properties":{"n":{"type":"number"}},"dependentSchemas":{"exact":${N_INTEGER}}}}}`,
  ) as JsonSchema;

  test.each([
    [{ r: { kind: "a", n: 1 } }, '{"r":{"kind":"a","n":1}}'],
    [{ r: { kind: "b", n: 1 } }, '{"r":{"kind":"b","n":1.0}}'],
    [{ d: { exact: true, n: 1 } }, '{"d":{"exact":true,"n":1}}'],
    [{ d: { n: 1 } }, '{"d":{"n":1.0}}'],
  ])("%j", (args, text) => {
    expect(decode(args, conditional)).toEqual({ text, diagnostics: [] });
  });

  test("unevaluatedProperties false beside an if naming the member: its own reading, written exactly", () => {
    const schema = JSON.parse(
      '{"properties":{"a":{"type":"number"}},"$ref":"#/$defs/D","$defs":{"D":{"if":{"properties":{"a":true}},"then":{},"unevaluatedProperties":false}}}',
    ) as JsonSchema;
    expect(decode({ a: 5 }, schema)).toEqual({ text: '{"a":5.0}', diagnostics: [] });
  });

  test("an unevaluatedProperties inside an allOf: the enclosing one does not apply", () => {
    const schema = JSON.parse(
      '{"allOf":[{"unevaluatedProperties":{"type":"number"}}],"unevaluatedProperties":{"type":"integer"}}',
    ) as JsonSchema;
    expect(decode({ a: 5 }, schema)).toEqual({ text: '{"a":5.0}', diagnostics: [] });
  });

  test("an if the members cannot decide: the union, reported", () => {
    const schema = JSON.parse(
      `{"if":{"minProperties":2},"then":${N_INTEGER},"else":${N_NUMBER}}`,
    ) as JsonSchema;
    expect(decode({ n: 1 }, schema)).toEqual({
      text: '{"n":1}',
      diagnostics: ["ambiguous-number /n"],
    });
  });
});
