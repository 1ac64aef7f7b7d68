// The schema cache against hostile schemas (issue 16): a new object is found
// by content exactly when the schema engine would read it as the kept copy
// (own enumerable members, read once; lists through the built-in iterator;
// plain prototypes; no hidden member of a `properties` map), and whichever
// way it goes, the output and the errors are those of compiling that object
// on its own. Every case runs with generated comparators and with the walk.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { useGeneratedComparators } from "../src/schema/compile-schema.js";
import { compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { structToJson } from "../src/struct/to-json.js";
import { kept } from "./schema-cache-helpers.js";

type Schema = Record<string, unknown>;

let unique = 0;
/** A title no other schema in this file has (so no two tests share a fingerprint). */
const title = (what: string): string => `schema-cache-hostile ${what} ${++unique}`;

/** A small tool schema: integers, numbers, a list, a reference. */
function toolSchema(t: string): Schema {
  return {
    title: t,
    type: "object",
    properties: {
      id: { type: "integer" },
      score: { type: "number" },
      tags: { type: "array", items: { type: "string" } },
      nested: { anyOf: [{ $ref: "#/$defs/Point" }, { type: "null" }] },
    },
    required: ["id"],
    $defs: { Point: { properties: { x: { type: "integer" }, y: { type: "number" } } } },
  };
}

const props = (s: Schema) => s.properties as Record<string, Schema>;
const point = (s: Schema) => (s.$defs as Record<string, Schema>).Point!;

/** Arguments that tell the readings apart (integer vs number at every position, an extra member). */
const args = { id: 1, score: 2, tags: ["a"], nested: { x: 3, y: 4, z: 5 }, extra: 6 };

/** The output of `structToJson`, or the code of the error it throws. */
function outcome(schema: unknown): string {
  try {
    return structToJson(args, schema as JsonSchema);
  } catch (e) {
    return `error ${(e as { code?: string }).code}`;
  }
}

/** A proxy that answers every trap from `target` except the ones given. */
const proxied = (target: object, handler: ProxyHandler<object>): Schema =>
  new Proxy(target, handler) as Schema;

describe.each([
  ["generated comparators", true],
  ["the walk", false],
])("compared by %s", (_name, generated) => {
  beforeAll(() => useGeneratedComparators(generated));
  afterAll(() => useGeneratedComparators(true));

  // [what, change made to a copy of the kept schema, found by content?]
  const cases: [string, (s: Schema) => Schema, boolean][] = [
    ["an equal copy", (s) => s, true],
    [
      "a non-enumerable keyword (not read by the engine, as JSON does not see it)",
      (s) => {
        Object.defineProperty(point(s), "additionalProperties", {
          value: { type: "number" },
          enumerable: false,
        });
        Object.defineProperty(props(s).id!, "type", { enumerable: false });
        return s;
      },
      false, // id's `type` left the for…in: a different schema to the engine
    ],
    [
      "a non-enumerable keyword added, the rest equal",
      (s) => {
        Object.defineProperty(point(s), "additionalProperties", {
          value: { type: "number" },
          enumerable: false,
        });
        return s;
      },
      true,
    ],
    [
      "a hidden member of a properties map (looked up by Object.hasOwn)",
      (s) => {
        Object.defineProperty(props(s), "extra", { value: { type: "number" }, enumerable: false });
        return s;
      },
      false,
    ],
    [
      "a hidden member of a nested properties map",
      (s) => {
        Object.defineProperty(point(s).properties as object, "z", {
          value: { type: "number" },
          enumerable: false,
        });
        return s;
      },
      false,
    ],
    [
      "a non-enumerable member of a list (never read)",
      (s) => {
        Object.defineProperty(s.required as object, "more", { value: "score", enumerable: false });
        return s;
      },
      true,
    ],
    [
      "a list with its own iterator",
      (s) => {
        const list = s.required as string[];
        Object.defineProperty(list, Symbol.iterator, {
          value: function* () {
            yield "score";
          },
        });
        return s;
      },
      false,
    ],
    [
      "symbol-keyed members (never read)",
      (s) => {
        (props(s).score as Record<symbol, unknown>)[Symbol("type")] = "integer";
        return s;
      },
      true,
    ],
    [
      "a getter returning the kept value once",
      (s) => {
        Object.defineProperty(props(s).score!, "type", { get: () => "number", enumerable: true });
        return s;
      },
      true,
    ],
    [
      "a getter returning another value",
      (s) => {
        Object.defineProperty(props(s).score!, "type", { get: () => "integer", enumerable: true });
        return s;
      },
      false,
    ],
    [
      "-0 where the kept copy has 0",
      (s) => {
        props(s).id!.minimum = -0;
        return s;
      },
      false,
    ],
    [
      "NaN (not JSON, possible in an object)",
      (s) => {
        props(s).id!.minimum = Number.NaN;
        return s;
      },
      false,
    ],
    [
      "a number where the kept copy has a string",
      (s) => {
        props(s).tags!.items = { type: "string", default: 1 };
        return s;
      },
      false,
    ],
    [
      "a nested list changed",
      (s) => {
        props(s).nested!.anyOf = [{ $ref: "#/$defs/Point" }, { type: "string" }];
        return s;
      },
      false,
    ],
    [
      "an own __proto__ member (as JSON.parse makes it)",
      (s) => {
        Object.defineProperty(props(s).score!, "__proto__", {
          value: { type: "integer" },
          enumerable: true,
          writable: true,
          configurable: true,
        });
        return s;
      },
      false,
    ],
    [
      "a prototype holding a keyword",
      (s) => {
        props(s).score = Object.assign(Object.create({ type: "integer" }) as object, {
          type: "number",
        });
        return s;
      },
      false,
    ],
    [
      "a transparent proxy",
      (s) => {
        props(s).score = proxied(props(s).score!, {});
        return s;
      },
      true,
    ],
    [
      "a proxy whose get answers another value",
      (s) => {
        props(s).score = proxied(props(s).score!, {
          get: (t, k, r) => (k === "type" ? "integer" : Reflect.get(t, k, r)),
        });
        return s;
      },
      false,
    ],
  ];

  test.each(cases)("%s", (_what, change, found) => {
    const t = title("case");
    const c = kept(() => toolSchema(t));
    const hit = compileSchema(change(toolSchema(t)) as JsonSchema) === c;
    expect(hit).toBe(found);
    // The same change, compiled on its own (the first schema of its fingerprint is never
    // compared with anything), against the one the cache gave.
    const alone = outcome(change(toolSchema(title("alone"))));
    expect(outcome(compileSchema(change(toolSchema(t)) as JsonSchema))).toBe(alone);
  });

  test("a list with its own iterator is never kept by content: each call reads it as compiled alone", () => {
    // The engine reads a list through its iterator; a copy kept by content is
    // made by JSON, which reads it by index: such a schema is not plain data.
    const make = (): Schema => {
      const s: Schema = { title: title("own iterator"), type: "object" };
      const type = ["number"];
      Object.defineProperty(type, Symbol.iterator, {
        value: function* () {
          yield "integer";
        },
      });
      s.properties = { a: { type } };
      return s;
    };
    const t = title("own iterator, calls");
    const outputs = [1, 2, 3].map(() =>
      structToJson({ a: 5 }, { ...make(), title: t } as JsonSchema),
    );
    expect(outputs).toEqual(['{"a":5}', '{"a":5}', '{"a":5}']);
  });

  test("a proxy that hides its members from the key listing is not found", () => {
    // (Its own reading contradicts itself: the listing says no members, its
    // descriptors say `type`. The cache goes by the listing, as JSON does;
    // compiled on its own it is read keyword by keyword.)
    const t = title("lying proxy");
    const c = kept(() => toolSchema(t));
    const s = toolSchema(t);
    props(s).score = proxied(props(s).score!, { ownKeys: () => [] });
    expect(compileSchema(s as JsonSchema) === c).toBe(false);
  });

  test("a getter is read once per lookup, and the kept copy is what is used afterwards", () => {
    const t = title("getter once");
    const c = kept(() => toolSchema(t));
    let reads = 0;
    const s = toolSchema(t);
    Object.defineProperty(props(s).score!, "type", {
      enumerable: true,
      get: () => (++reads === 1 ? "number" : "integer"),
    });
    expect(compileSchema(s as JsonSchema)).toBe(c);
    expect(reads).toBe(1);
    expect(structToJson({ id: 1, score: 2 }, s as JsonSchema)).toBe('{"id":1,"score":2.0}');
  });

  test("a polluted Object.prototype: no object is found by content", () => {
    const t = title("polluted");
    const c = kept(() => toolSchema(t));
    const fresh = toolSchema(t);
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = { type: "integer" };
    let hit: boolean;
    try {
      hit = compileSchema(fresh as JsonSchema) === c;
    } finally {
      delete proto.polluted;
    }
    expect(hit).toBe(false);
  });

  test("an object found twice in a row joins the identity cache, and keeps its compiled schema", () => {
    const t = title("twice");
    const c = kept(() => toolSchema(t));
    const mine = toolSchema(t);
    expect(compileSchema(mine as JsonSchema)).toBe(c);
    expect(compileSchema(mine as JsonSchema)).toBe(c);
    props(mine).score!.type = "integer";
    expect(compileSchema(mine as JsonSchema)).toBe(c);
  });

  test("the schema used last is compared first; another is found by its fingerprint", () => {
    const a = title("last a");
    const b = title("last b");
    const ca = kept(() => toolSchema(a));
    const cb = kept(() => toolSchema(b));
    for (let i = 0; i < 3; i++) {
      expect(compileSchema(toolSchema(a) as JsonSchema)).toBe(ca);
      expect(compileSchema(toolSchema(b) as JsonSchema)).toBe(cb);
    }
  });
});
