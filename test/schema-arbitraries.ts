// fast-check arbitraries of tool schemas and their arguments, shared by the
// property tests of the decoder (./property-schema.test.ts) and of its
// writers (./writer-differential.test.ts): random combinations of every
// keyword the schema reader acts on, with $ref cycles, refs to nowhere,
// remote refs, anchors, $id scopes, discriminators, hostile patterns and
// prototype-named members, over arguments whose keys and strings the schemas
// talk about.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Struct, Value } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import type { JsonSchema } from "../src/schema/json-schema.js";

const MEMBER_KEYS = ["a", "b", "c", "kind", "__proto__", "constructor", "0"] as const;
const DEF_NAMES = ["a", "b", "c", "__proto__"] as const;
const PATTERNS = [
  "^a",
  "b$",
  "^[a-c]$",
  "^(a+)+$",
  "^(a|aa)*$",
  "(?<x>a)\\k<x>",
  "(a)\\1",
  "[",
  "^.*$",
  "\\d+",
  "\\p{L}",
  "^k.*d$",
  "a{1,40}",
  "^(?:a*)*b",
  "",
] as const;
const REFS = [
  "#",
  "#/$defs/a",
  "#/$defs/b",
  "#/$defs/c",
  "#/$defs/__proto__",
  "#/definitions/a",
  "#/$defs/missing",
  "#/$defs/a/anyOf/0",
  "#/%24defs/b",
  "#/properties/a",
  "#/properties/__proto__",
  "#/items/0",
  "#anc",
  "#nowhere",
  "other.json",
  "other.json#/$defs/a",
  "other.json#anc",
  "https://x.invalid/remote.json",
  "https://x.invalid/remote.json#/$defs/a",
  "urn:uuid:00000000-0000-0000-0000-000000000000#x",
  "#/%zz",
  "##",
  "%",
  "",
] as const;

const number = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.5, -0, 1e21, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 2 ** 64, 1.5, 1e-320),
);
const primitive = fc.oneof(
  number,
  fc.constantFrom("a", "b", "c", "x"),
  fc.boolean(),
  fc.constant(null),
);

/** A keyword's value: a subschema where the keyword takes one, or odd values it must survive. */
function keywordArb(schema: fc.Arbitrary<JsonSchema>): fc.Arbitrary<[string, unknown]> {
  const map = (keys: readonly string[]) =>
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...keys), schema), {
        maxLength: 3,
        selector: ([k]) => k,
      })
      .map(toObject);
  const list = fc.array(schema, { minLength: 1, maxLength: 3 });
  const kv = <T>(name: string, value: fc.Arbitrary<T>) =>
    value.map((v): [string, unknown] => [name, v]);
  return fc.oneof(
    kv(
      "type",
      fc.constantFrom(
        "integer",
        "number",
        "object",
        "array",
        "string",
        "null",
        ["integer", "number"],
        ["integer", "null"],
        ["number", "string"],
        ["object", "integer"],
        "bogus",
        5,
      ),
    ),
    kv("const", primitive),
    kv("enum", fc.array(primitive, { maxLength: 4 })),
    kv("multipleOf", fc.constantFrom(1, 2, 3, 0.5, 0.1, 0, -1, 1e308, 1e-300, "2")),
    kv("properties", map(MEMBER_KEYS)),
    kv("patternProperties", map(PATTERNS)),
    kv("additionalProperties", schema),
    kv("unevaluatedProperties", schema),
    kv("prefixItems", list),
    kv("items", fc.oneof(schema, list)),
    kv("additionalItems", schema),
    kv("unevaluatedItems", schema),
    kv("$ref", fc.constantFrom(...REFS)),
    kv("$dynamicRef", fc.constantFrom("#anc", "#/$defs/a", "#nowhere")),
    kv("$dynamicAnchor", fc.constantFrom("anc", "other")),
    kv("$recursiveRef", fc.constantFrom("#", "#/$defs/b")),
    kv("$recursiveAnchor", fc.boolean()),
    kv("$anchor", fc.constantFrom("anc", "other", "")),
    kv(
      "$id",
      fc.constantFrom("other.json", "#anc", "https://x.invalid/s.json", "urn:uuid:1", "", "#", 5),
    ),
    kv("$defs", map(DEF_NAMES)),
    kv("definitions", map(DEF_NAMES)),
    kv("allOf", list),
    kv("anyOf", list),
    kv("oneOf", list),
    kv("if", schema),
    kv("then", schema),
    kv("else", schema),
    kv("not", schema),
    kv("contains", schema),
    kv("required", fc.subarray([...MEMBER_KEYS])),
    kv(
      "discriminator",
      fc.record({
        propertyName: fc.constantFrom("kind", "a", 5),
        mapping: fc.constantFrom(
          { a: "#/$defs/a", b: "#/$defs/missing" },
          { x: "other.json", c: "#/$defs/c" },
          "nope",
        ),
      }),
    ),
  );
}

/** An object from entries, `__proto__` an own member (as JSON.parse makes it). */
export function toObject<T>(entries: readonly (readonly [string, T])[]): Record<string, T> {
  const o: Record<string, T> = {};
  for (const [k, v] of entries)
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}

const schemaArb: fc.Arbitrary<JsonSchema> = fc.letrec<{ schema: JsonSchema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.boolean(),
    fc
      .uniqueArray(keywordArb(tie("schema")), { maxLength: 5, selector: ([k]) => k })
      .map((entries) => toObject(entries) as JsonSchema),
  ),
})).schema;

/** A root schema whose $defs usually exist, so refs between them make cycles. */
export const rootSchemaArb: fc.Arbitrary<JsonSchema> = fc
  .tuple(
    schemaArb,
    fc.option(fc.tuple(schemaArb, schemaArb, schemaArb), { freq: 3 }),
    fc.constantFrom("json", "json", "object-cycle"),
  )
  .map(([schema, defs, form]) => {
    if (typeof schema === "boolean") return schema;
    let root: Record<string, unknown> = { ...schema };
    if (defs !== null) {
      const $defs = toObject([
        ["a", defs[0]],
        ["b", defs[1]],
        ["c", defs[2]],
      ]);
      root = { ...root, $defs };
    }
    // Schemas arrive as JSON text; the JSON round trip makes `__proto__` an own key.
    root = JSON.parse(JSON.stringify(root)) as Record<string, unknown>;
    if (form === "object-cycle") {
      // A JS caller can also hand over a real object cycle.
      const props = (root.properties ?? {}) as Record<string, unknown>;
      props.a = root;
      root.properties = props;
      root.items = root;
    }
    return root as JsonSchema;
  });

/** Arguments whose keys and strings the schemas above talk about. */
export const argsArb: fc.Arbitrary<JsonObject> = fc.letrec<{
  value: JsonValue;
  object: JsonObject;
}>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    primitive as fc.Arbitrary<JsonValue>,
    fc.array(tie("value"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc
    .uniqueArray(fc.tuple(fc.constantFrom(...MEMBER_KEYS), tie("value")), {
      maxLength: 5,
      selector: ([k]) => k,
    })
    .map((entries) => toObject(entries) as JsonObject),
})).object;

/** The Struct message for a JsonObject, built by hand (keeps `__proto__` an own key). */
export function toStruct(o: JsonObject): Struct {
  const fields: Record<string, Value> = {};
  for (const k of Object.keys(o))
    Object.defineProperty(fields, k, {
      value: toValue(o[k]!),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return { $typeName: "google.protobuf.Struct", fields };
}

function toValue(v: JsonValue): Value {
  const kind: Value["kind"] =
    v === null
      ? { case: "nullValue", value: 0 as never }
      : typeof v === "number"
        ? { case: "numberValue", value: v }
        : typeof v === "string"
          ? { case: "stringValue", value: v }
          : typeof v === "boolean"
            ? { case: "boolValue", value: v }
            : Array.isArray(v)
              ? {
                  case: "listValue",
                  value: { $typeName: "google.protobuf.ListValue", values: v.map(toValue) },
                }
              : { case: "structValue", value: toStruct(v as JsonObject) };
  return { $typeName: "google.protobuf.Value", kind };
}
