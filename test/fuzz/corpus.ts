// Seed inputs for the fuzzer: hand-picked argument texts that exercise every
// feature (big integers, whole floats, escapes, astral characters, prototype
// names, nesting) plus a fixed sample of the property tests' generator, each
// with the schema that types its numbers as written.
import { toBinary } from "@bufbuild/protobuf";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import type { JsonSchema } from "../../src/schema/json-schema.js";
import { structMessageFromJson } from "../../src/struct/from-json.js";
import { argumentsText } from "../property-arbitraries.js";

/** One seed: the argument text, a schema for it, and the Struct's protobuf bytes. */
export interface Seed {
  readonly text: string;
  readonly schema: JsonSchema | undefined;
  readonly structBytes: Uint8Array;
}

const HAND_PICKED: readonly (readonly [string, JsonSchema | undefined])[] = [
  ["{}", undefined],
  [
    '{"id":9007199254740993,"x":1.0,"s":"é😀\\n\\u0000","n":null,"b":true,"a":[1,2.5,-0,1e-7,{"k":[]}]}',
    {
      type: "object",
      properties: {
        id: { type: "integer" },
        x: { type: "number" },
        a: { type: "array", prefixItems: [{ type: "integer" }, { type: "number" }] },
      },
    },
  ],
  ['{"__proto__":{"a":1},"constructor":2,"toString":[3.0],"z":0}', undefined],
  [
    '{"big":18446744073709551615,"neg":-9223372036854775809,"f":1.5e300,"tiny":5e-324}',
    { additionalProperties: { type: "integer" } },
  ],
  [
    '{"deep":[[[[[[1]]]]]],"o":{"o":{"o":{"o":{}}}}}',
    {
      $ref: "#/$defs/r",
      $defs: { r: { additionalProperties: { $ref: "#/$defs/r" }, items: { type: "integer" } } },
    },
  ],
  ['  {\n  "a" : 1 ,\t"b":"\\ud83d\\ude00"\r\n}  ', { properties: { a: { type: "number" } } }],
  [
    '{"kind":"circle","r":2.0,"k":{"kind":"square","side":3}}',
    {
      oneOf: [
        { properties: { kind: { const: "circle" }, r: { type: "number" } } },
        { properties: { kind: { const: "square" }, side: { type: "integer" } } },
      ],
      properties: { k: { $ref: "#" } },
    },
  ],
];

let cached: readonly Seed[] | undefined;

/** The corpus (built once; deterministic). */
export function corpus(): readonly Seed[] {
  if (cached !== undefined) return cached;
  const sampled = fc.sample(argumentsText, { numRuns: 40, seed: 7_301 });
  const entries: [string, JsonSchema | undefined][] = [
    ...HAND_PICKED.map(([t, s]) => [t, s] as [string, JsonSchema | undefined]),
    ...sampled.map((g) => [g.text, g.schema] as [string, JsonSchema | undefined]),
  ];
  cached = entries.map(([text, schema]) => ({
    text,
    schema,
    structBytes: toBinary(StructSchema, structMessageFromJson(text)),
  }));
  return cached;
}
