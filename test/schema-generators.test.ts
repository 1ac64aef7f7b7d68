// Schemas in the shapes real generators emit, with arguments as a model would
// write them. The zod 4 schemas are verbatim output of zod 4's
// z.toJSONSchema; the others are written the way those generators write them.
import { describe, expect, test } from "vitest";
import { walkJson } from "./schema-walk.js";

// class Point(BaseModel): x: int; y: float
// class Cat(BaseModel): pet_type: Literal["cat"]; lives: int
// class Dog(BaseModel): pet_type: Literal["dog"]; weight: float
// class Mode(IntEnum): A = 1; B = 2
// class Args(BaseModel): count: int; limit: Optional[int] = None; ratio: float = 1.0;
//   ids: list[int]; weights: dict[str, float]; pair: tuple[int, str]; origin: Point;
//   path: list[Point]; pet: Union[Cat, Dog] = Field(discriminator="pet_type");
//   either: Union[int, float]; mode: Mode; maybe: Optional[Point] = None;
//   untagged: Union[Cat, Dog]
const PYDANTIC_V2 = `{"$defs":{"Cat":{"properties":{"pet_type":{"const":"cat","title":"Pet Type","type":"string"},"lives":{"title":"Lives","type":"integer"}},"required":["pet_type","lives"],"title":"Cat","type":"object"},"Dog":{"properties":{"pet_type":{"const":"dog","title":"Pet Type","type":"string"},"weight":{"title":"Weight","type":"number"}},"required":["pet_type","weight"],"title":"Dog","type":"object"},"Mode":{"enum":[1,2],"title":"Mode","type":"integer"},"Point":{"properties":{"x":{"title":"X","type":"integer"},"y":{"title":"Y","type":"number"}},"required":["x","y"],"title":"Point","type":"object"}},"properties":{"count":{"title":"Count","type":"integer"},"limit":{"anyOf":[{"type":"integer"},{"type":"null"}],"default":null,"title":"Limit"},"ratio":{"default":1.0,"title":"Ratio","type":"number"},"ids":{"items":{"type":"integer"},"title":"Ids","type":"array"},"weights":{"additionalProperties":{"type":"number"},"title":"Weights","type":"object"},"pair":{"maxItems":2,"minItems":2,"prefixItems":[{"type":"integer"},{"type":"string"}],"title":"Pair","type":"array"},"origin":{"$ref":"#/$defs/Point"},"path":{"items":{"$ref":"#/$defs/Point"},"title":"Path","type":"array"},"pet":{"discriminator":{"mapping":{"cat":"#/$defs/Cat","dog":"#/$defs/Dog"},"propertyName":"pet_type"},"oneOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"title":"Pet"},"either":{"anyOf":[{"type":"integer"},{"type":"number"}],"title":"Either"},"mode":{"$ref":"#/$defs/Mode"},"maybe":{"anyOf":[{"$ref":"#/$defs/Point"},{"type":"null"}],"default":null},"untagged":{"anyOf":[{"$ref":"#/$defs/Cat"},{"$ref":"#/$defs/Dog"}],"title":"Untagged"}},"required":["count","ids","weights","pair","origin","path","pet","either","mode","untagged"],"title":"Args","type":"object"}`;

// The same model under Pydantic v1 (.schema()).
const PYDANTIC_V1 = `{"title":"Args","type":"object","properties":{"count":{"title":"Count","type":"integer"},"limit":{"title":"Limit","type":"integer"},"ratio":{"title":"Ratio","default":1.0,"type":"number"},"ids":{"title":"Ids","type":"array","items":{"type":"integer"}},"weights":{"title":"Weights","type":"object","additionalProperties":{"type":"number"}},"pair":{"title":"Pair","type":"array","minItems":2,"maxItems":2,"items":[{"type":"integer"},{"type":"string"}]},"origin":{"title":"Origin","description":"Where to start.","allOf":[{"$ref":"#/definitions/Point"}]},"path":{"title":"Path","type":"array","items":{"$ref":"#/definitions/Point"}},"pet":{"title":"Pet","discriminator":{"propertyName":"pet_type","mapping":{"cat":"#/definitions/Cat","dog":"#/definitions/Dog"}},"oneOf":[{"$ref":"#/definitions/Cat"},{"$ref":"#/definitions/Dog"}]},"either":{"title":"Either","anyOf":[{"type":"integer"},{"type":"number"}]},"mode":{"$ref":"#/definitions/Mode"},"untagged":{"title":"Untagged","anyOf":[{"$ref":"#/definitions/Cat"},{"$ref":"#/definitions/Dog"}]}},"required":["count","ids","weights","pair","origin","path","pet","either","mode","untagged"],"definitions":{"Point":{"title":"Point","type":"object","properties":{"x":{"title":"X","type":"integer"},"y":{"title":"Y","type":"number"}},"required":["x","y"]},"Cat":{"title":"Cat","type":"object","properties":{"pet_type":{"title":"Pet Type","enum":["cat"],"type":"string"},"lives":{"title":"Lives","type":"integer"}},"required":["pet_type","lives"]},"Dog":{"title":"Dog","type":"object","properties":{"pet_type":{"title":"Pet Type","enum":["dog"],"type":"string"},"weight":{"title":"Weight","type":"number"}},"required":["pet_type","weight"]},"Mode":{"title":"Mode","description":"An enumeration.","enum":[1,2],"type":"integer"}}}`;

const PYDANTIC_ARGS = `{"count":3,"limit":10,"ratio":1,"ids":[1,2],"weights":{"a":1,"b":0.5},"pair":[7,"x"],"origin":{"x":1,"y":2},"path":[{"x":3,"y":4}],"pet":{"pet_type":"dog","weight":12},"either":4,"mode":2,"maybe":{"x":5,"y":6},"untagged":{"pet_type":"cat","lives":9}}`;

const PYDANTIC_READINGS = {
  "/count": "integer",
  "/limit": "integer",
  "/ratio": "number",
  "/ids/0": "integer",
  "/ids/1": "integer",
  "/weights/a": "number",
  "/weights/b": "number",
  "/pair/0": "integer",
  "/origin/x": "integer",
  "/origin/y": "number",
  "/path/0/x": "integer",
  "/path/0/y": "number",
  "/pet/weight": "number",
  "/either": "ambiguous",
  "/mode": "integer",
  "/maybe/x": "integer",
  "/maybe/y": "number",
  "/untagged/lives": "integer",
};

// zod 3 + zod-to-json-schema: const Point = z.object({x: z.number().int(), y: z.number()});
// z.object({count: z.number().int(), ratio: z.number().nullable(), level: z.literal(3),
//   sizes: z.union([z.literal(1), z.literal(2)]), start: Point, end: Point,
//   pet: z.discriminatedUnion("kind", [Cat, Dog]), scores: z.record(z.number())})
const ZOD3 = `{"type":"object","properties":{"count":{"type":"integer"},"ratio":{"type":["number","null"]},"level":{"type":"number","const":3},"sizes":{"type":"number","enum":[1,2]},"start":{"type":"object","properties":{"x":{"type":"integer"},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false},"end":{"$ref":"#/properties/start"},"pet":{"anyOf":[{"type":"object","properties":{"kind":{"type":"string","const":"cat"},"lives":{"type":"integer"}},"required":["kind","lives"],"additionalProperties":false},{"type":"object","properties":{"kind":{"type":"string","const":"dog"},"weight":{"type":"number"}},"required":["kind","weight"],"additionalProperties":false}]},"scores":{"type":"object","additionalProperties":{"type":"number"}}},"required":["count","ratio","level","sizes","start","end","pet","scores"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}`;

// zod 4, z.toJSONSchema(Args) (2020-12) and z.toJSONSchema(Args, {target: "draft-7", reused: "ref"}), verbatim.
const ZOD4 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"count":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"ratio":{"type":["number","null"]},"level":{"type":"number","const":3},"sizes":{"anyOf":[{"type":"number","const":1},{"type":"number","const":2}]},"start":{"type":"object","properties":{"x":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false},"end":{"type":"object","properties":{"x":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false},"pet":{"oneOf":[{"type":"object","properties":{"kind":{"type":"string","const":"cat"},"lives":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},"required":["kind","lives"],"additionalProperties":false},{"type":"object","properties":{"kind":{"type":"string","const":"dog"},"weight":{"type":"number"}},"required":["kind","weight"],"additionalProperties":false}]},"ids":{"type":"array","items":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},"pair":{"type":"array","prefixItems":[{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},{"type":"string"}],"items":false,"minItems":2,"maxItems":2},"scores":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"number"}},"big":{}},"required":["count","ratio","level","sizes","start","end","pet","pair","scores"],"additionalProperties":false}`;
const ZOD4_DRAFT7 = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"count":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"ratio":{"type":["number","null"]},"level":{"type":"number","const":3},"sizes":{"anyOf":[{"type":"number","const":1},{"type":"number","const":2}]},"start":{"$ref":"#/definitions/__schema0"},"end":{"$ref":"#/definitions/__schema0"},"pet":{"oneOf":[{"type":"object","properties":{"kind":{"type":"string","const":"cat"},"lives":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},"required":["kind","lives"],"additionalProperties":false},{"type":"object","properties":{"kind":{"type":"string","const":"dog"},"weight":{"type":"number"}},"required":["kind","weight"],"additionalProperties":false}]},"ids":{"type":"array","items":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991}},"pair":{"type":"array","items":[{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},{"type":"string"}],"additionalItems":false,"minItems":2,"maxItems":2},"scores":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"type":"number"}},"big":{}},"required":["count","ratio","level","sizes","start","end","pet","pair","scores"],"additionalProperties":false,"definitions":{"__schema0":{"type":"object","properties":{"x":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"y":{"type":"number"}},"required":["x","y"],"additionalProperties":false}}}`;
// zod 4: const Node = z.object({value: z.int(), get children() { return z.array(Node) }}), verbatim.
const ZOD4_TREE = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"value":{"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991},"children":{"type":"array","items":{"$ref":"#"}}},"required":["value","children"],"additionalProperties":false}`;

const ZOD_ARGS = `{"count":5,"ratio":2,"level":3,"sizes":2,"start":{"x":1,"y":1},"end":{"x":2,"y":2},"pet":{"kind":"cat","lives":9},"ids":[1],"pair":[4,"a"],"scores":{"s":1},"big":12}`;
const ZOD_READINGS = {
  "/count": "integer",
  "/ratio": "number",
  "/level": "integer",
  "/sizes": "integer",
  "/start/x": "integer",
  "/start/y": "number",
  "/end/x": "integer",
  "/end/y": "number",
  "/pet/lives": "integer",
  "/ids/0": "integer",
  "/pair/0": "integer",
  "/scores/s": "number",
  "/big": "unknown",
};

// invopop/jsonschema: type SearchArgs struct { Query string; Limit int; MinScore float64;
//   Page Page; IDs []int64; Weights map[string]float64 } with Page { Offset, Size int }
const INVOPOP = `{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://github.com/acme/tools/search-args","$ref":"#/$defs/SearchArgs","$defs":{"Page":{"properties":{"offset":{"type":"integer"},"size":{"type":"integer"}},"additionalProperties":false,"type":"object","required":["offset","size"]},"SearchArgs":{"properties":{"query":{"type":"string"},"limit":{"type":"integer"},"min_score":{"type":"number"},"page":{"$ref":"#/$defs/Page"},"ids":{"items":{"type":"integer"},"type":"array"},"weights":{"additionalProperties":{"type":"number"},"type":"object"}},"additionalProperties":false,"type":"object","required":["query"]}}}`;

// google/jsonschema-go: type Args struct { Count *int; Ratio float64; Items []Item } with
// pointer and slice fields nullable, Item in $defs under its own $id.
const JSONSCHEMA_GO = `{"type":"object","properties":{"count":{"type":["null","integer"]},"ratio":{"type":"number"},"items":{"type":["null","array"],"items":{"$ref":"#/$defs/Item"}},"first":{"$ref":"https://example.com/schemas/item"}},"required":["count","ratio","items"],"additionalProperties":false,"$defs":{"Item":{"$id":"https://example.com/schemas/item","type":"object","properties":{"qty":{"type":"integer"},"price":{"type":"number"},"sub":{"$ref":"#/$defs/Sub"}},"required":["qty","price"],"additionalProperties":false,"$defs":{"Sub":{"type":"object","properties":{"n":{"type":["null","integer"]}}}}}}}`;

// OpenAPI 3 style: oneOf + discriminator with mapping, nullable.
const OPENAPI = `{"type":"object","properties":{"shape":{"oneOf":[{"$ref":"#/components/schemas/Circle"},{"$ref":"#/components/schemas/Grid"}],"discriminator":{"propertyName":"kind","mapping":{"circle":"#/components/schemas/Circle","grid":"#/components/schemas/Grid"}}}},"components":{"schemas":{"Circle":{"type":"object","required":["kind"],"properties":{"kind":{"type":"string"},"radius":{"type":"number"}}},"Grid":{"type":"object","required":["kind"],"properties":{"kind":{"type":"string"},"radius":{"type":"integer","format":"int32","nullable":true}}}}}}`;

type Row = [name: string, schema: string, args: string, readings: Record<string, string>];

const rows: Row[] = [
  ["Pydantic v2", PYDANTIC_V2, PYDANTIC_ARGS, PYDANTIC_READINGS],
  [
    "Pydantic v1",
    PYDANTIC_V1,
    PYDANTIC_ARGS,
    { ...PYDANTIC_READINGS, "/maybe/x": "unknown", "/maybe/y": "unknown" },
  ],
  [
    "Pydantic v2: the other branch of the discriminated union",
    PYDANTIC_V2,
    '{"pet":{"pet_type":"cat","lives":9},"untagged":{"pet_type":"dog","weight":3},"either":4.5,"limit":null}',
    { "/pet/lives": "integer", "/untagged/weight": "number", "/either": "number" },
  ],
  [
    "zod 3 (zod-to-json-schema)",
    ZOD3,
    ZOD_ARGS,
    { ...ZOD_READINGS, "/ids/0": "unknown", "/pair/0": "unknown", "/big": "unknown" },
  ],
  [
    "zod 3: the other branch of the discriminated union",
    ZOD3,
    '{"pet":{"kind":"dog","weight":3},"ratio":null}',
    { "/pet/weight": "number" },
  ],
  ["zod 4 (2020-12)", ZOD4, ZOD_ARGS, ZOD_READINGS],
  ["zod 4 (draft-7, definitions.__schema0)", ZOD4_DRAFT7, ZOD_ARGS, ZOD_READINGS],
  [
    "zod 4 recursive (#)",
    ZOD4_TREE,
    '{"value":1,"children":[{"value":2,"children":[{"value":3,"children":[]}]}]}',
    {
      "/value": "integer",
      "/children/0/value": "integer",
      "/children/0/children/0/value": "integer",
    },
  ],
  [
    "Go invopop/jsonschema",
    INVOPOP,
    '{"query":"q","limit":10,"min_score":1,"page":{"offset":0,"size":20},"ids":[9007199254740993],"weights":{"w":2}}',
    {
      "/limit": "integer",
      "/min_score": "number",
      "/page/offset": "integer",
      "/page/size": "integer",
      "/ids/0": "integer",
      "/weights/w": "number",
    },
  ],
  [
    "google/jsonschema-go",
    JSONSCHEMA_GO,
    '{"count":3,"ratio":1,"items":[{"qty":2,"price":3,"sub":{"n":4}}],"first":{"qty":1,"price":1}}',
    {
      "/count": "integer",
      "/ratio": "number",
      "/items/0/qty": "integer",
      "/items/0/price": "number",
      "/items/0/sub/n": "integer",
      "/first/qty": "integer",
      "/first/price": "number",
    },
  ],
  [
    "OpenAPI discriminator: circle",
    OPENAPI,
    '{"shape":{"kind":"circle","radius":2}}',
    { "/shape/radius": "number" },
  ],
  [
    "OpenAPI discriminator: grid",
    OPENAPI,
    '{"shape":{"kind":"grid","radius":2}}',
    { "/shape/radius": "integer" },
  ],
];

describe("schemas as generators emit them", () => {
  test.each(rows)("%s", (_name, schema, args, readings) => {
    expect(walkJson(schema, args)).toEqual({ readings, notes: [] });
  });
});
