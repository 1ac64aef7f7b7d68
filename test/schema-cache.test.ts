// The content cache of compileSchema (issue 16): which new objects find the
// compiled schema of an equal one, which are compiled per object, the bounds
// on what is kept, and what a lookup reads (counted through proxies, never
// timed). The cache is per module instance, so every test uses titles of its
// own: no two tests share a fingerprint.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  CONTENT_CACHE_CHARS,
  CONTENT_CACHE_ENTRIES,
  CONTENT_CANDIDATES,
  CONTENT_MAX_CHARS,
  CONTENT_MAX_VALUES,
  useGeneratedComparators,
} from "../src/schema/compile-schema.js";
import { compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { structToJson } from "../src/struct/to-json.js";
import { kept } from "./schema-cache-helpers.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, unknown>;

let unique = 0;
/** A title no other schema in this file has. */
const title = (what: string): string => `schema-cache ${what} ${++unique}`;

/** A small tool schema with every kind of JSON value in it. */
function toolSchema(t: string): Schema {
  return {
    title: t,
    type: "object",
    properties: {
      id: { type: "integer", minimum: 0, description: "the id" },
      score: { type: "number", default: 0.5 },
      tags: { type: "array", items: { type: "string" }, maxItems: 3 },
      mode: { enum: ["a", "b", null, 1, true] },
      nested: { anyOf: [{ $ref: "#/$defs/Point" }, { type: "null" }] },
    },
    required: ["id"],
    $defs: { Point: { properties: { x: { type: "integer" }, y: { type: "number" } } } },
  };
}

/** Deep copy with objects of a null prototype. */
function nullPrototype(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (Array.isArray(v)) return v.map(nullPrototype);
  const o = Object.create(null) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v)) o[k] = nullPrototype(x);
  return o;
}

/** Deep-frozen copy. */
function frozen(v: unknown): unknown {
  if (typeof v !== "object" || v === null) return v;
  const copy = Array.isArray(v)
    ? v.map(frozen)
    : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, frozen(x)]));
  return Object.freeze(copy);
}

/** Counts of the traps a lookup set off, by trap. */
interface Reads {
  get: number;
  ownKeys: number;
  getPrototypeOf: number;
  total: number;
}

/** A deep copy of plain data in transparent proxies that count their traps. */
function counted(v: unknown, reads: Reads): unknown {
  if (typeof v !== "object" || v === null) return v;
  const target: unknown = Array.isArray(v)
    ? v.map((x) => counted(x, reads))
    : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, counted(x, reads)]));
  const count = (trap: keyof Reads) => {
    if (trap !== "total") reads[trap]++;
    reads.total++;
  };
  return new Proxy(target as object, {
    get(t, k, r) {
      count("get");
      return Reflect.get(t, k, r);
    },
    ownKeys(t) {
      count("ownKeys");
      return Reflect.ownKeys(t);
    },
    getPrototypeOf(t) {
      count("getPrototypeOf");
      return Reflect.getPrototypeOf(t);
    },
    getOwnPropertyDescriptor(t, k) {
      reads.total++;
      return Reflect.getOwnPropertyDescriptor(t, k);
    },
    has(t, k) {
      reads.total++;
      return Reflect.has(t, k);
    },
  });
}

const noReads = (): Reads => ({ get: 0, ownKeys: 0, getPrototypeOf: 0, total: 0 });

/** Values (objects, arrays and primitives) in plain data, its objects, its arrays, and its object members plus array items and lengths. */
function census(v: Json): { values: number; objects: number; arrays: number; reads: number } {
  let values = 0;
  let objects = 0;
  let arrays = 0;
  let reads = 0;
  const stack: Json[] = [v];
  while (stack.length > 0) {
    const x = stack.pop()!;
    values++;
    if (Array.isArray(x)) {
      arrays++;
      reads += 1 + x.length; // its length, then each item
      stack.push(...x);
    } else if (typeof x === "object" && x !== null) {
      objects++;
      reads += Object.keys(x).length;
      stack.push(...Object.values(x));
    }
  }
  return { values, objects, arrays, reads };
}

// Every case both ways: a kept copy is compared by code generated for it
// (from its first hit on) or, where the runtime compiles no code, by the walk.
describe.each([
  ["generated comparators", true],
  ["the walk", false],
])("compared by %s", (_name, generated) => {
  beforeAll(() => useGeneratedComparators(generated));
  afterAll(() => useGeneratedComparators(true));

  test("this way is the one that compares", () => {
    const t = title("order");
    const c = kept(() => toolSchema(t));
    const order: string[] = [];
    const watched = (o: Schema) =>
      new Proxy(o, {
        get(target, key, receiver) {
          if (typeof key === "string") order.push(key);
          return Reflect.get(target, key, receiver);
        },
      });
    const s = toolSchema(t);
    s.properties = watched(s.properties as Schema);
    expect(compileSchema(watched(s) as JsonSchema)).toBe(c);
    // Generated code reads in document order (properties' members before
    // `required`); the walk reads a container's members, then its pending
    // containers last first (`required` before properties' members).
    const read = order.slice(2); // past `title` and `type`
    expect(read.indexOf("id") < read.indexOf("required")).toBe(generated);
  });

  test("names and strings that are not identifiers, numbers at the edges", () => {
    const t = title("odd names");
    const odd = [
      '"',
      "\\",
      "\n",
      "\u2028",
      "\ud800",
      "",
      "0",
      "10",
      "constructor",
      "toString",
      "a b",
    ];
    const make = () => ({
      title: t,
      properties: Object.fromEntries(
        odd.map((k, i) => [k, { description: odd[odd.length - 1 - i] }]),
      ),
      enum: [0, 1e21, 5e-324, -1.5, 2 ** 60, Number.MAX_VALUE, -Number.MIN_VALUE],
    });
    const c = kept(make);
    expect(compileSchema(JSON.parse(JSON.stringify(make())) as JsonSchema)).toBe(c);
    const changes: ((s: ReturnType<typeof make>) => void)[] = [
      (s) => (s.enum[1] = 1e20),
      (s) => (s.enum[2] = 0),
      (s) => (s.properties['"']!.description = "\\"),
      (s) => (s.properties["\u2028"]!.description = "\u2029"),
    ];
    for (const change of changes) {
      const s = make();
      change(s);
      expect(compileSchema(s as JsonSchema) === c).toBe(false);
    }
  });

  test("seeded: a new object hits exactly when its JSON text equals the kept one's", () => {
    const plain = (v: unknown): boolean =>
      typeof v === "number"
        ? !Object.is(v, -0)
        : typeof v !== "object" || v === null || Object.values(v).every(plain);
    const value = fc.jsonValue({ maxDepth: 3 }).filter(plain);
    fc.assert(
      fc.property(value, value, fc.boolean(), (a, b, same) => {
        const t = title("property");
        const c = kept(() => ({ title: t, const: structuredClone(a) }));
        const other = same ? structuredClone(a) : b;
        const hit = compileSchema({ title: t, const: other } as JsonSchema) === c;
        return hit === (JSON.stringify(other) === JSON.stringify(a));
      }),
      { numRuns: 300, seed: 1616 },
    );
  });

  describe("an equal schema in a new object", () => {
    const makers: [string, (s: Schema) => unknown][] = [
      ["structuredClone", (s) => structuredClone(s)],
      ["JSON.parse of its text", (s) => JSON.parse(JSON.stringify(s))],
      ["objects with a null prototype", nullPrototype],
      ["deep-frozen", frozen],
      ["a transparent proxy at every level", (s) => counted(s, noReads())],
      [
        "symbol-keyed members added (not JSON: never read)",
        (s) => {
          const c = structuredClone(s);
          (c as Record<symbol, unknown>)[Symbol("x")] = { type: "string" };
          Object.defineProperty(c.properties, Symbol.iterator, { value: 1, enumerable: false });
          return c;
        },
      ],
      [
        "a getter that returns the same value",
        (s) => {
          const c = structuredClone(s);
          const type = c.type;
          Object.defineProperty(c, "type", { get: () => type, enumerable: true });
          return c;
        },
      ],
    ];
    test.each(makers)("%s: finds the compiled schema of the kept one", (_name, make) => {
      const t = title("equal");
      const c = kept(() => toolSchema(t));
      expect(compileSchema(make(toolSchema(t)) as JsonSchema)).toBe(c);
    });

    test("the first of a fingerprint is compiled per object, the second is kept and shared from then on", () => {
      const t = title("first");
      const first = compileSchema(toolSchema(t) as JsonSchema);
      const second = compileSchema(toolSchema(t) as JsonSchema);
      expect(second).not.toBe(first);
      for (let i = 0; i < 5; i++) expect(compileSchema(toolSchema(t) as JsonSchema)).toBe(second);
    });

    test("the kept compiled schema writes what a per-object one writes", () => {
      const t = title("writes");
      const c = kept(() => toolSchema(t));
      const args = { id: 2 ** 60, score: 1, tags: ["x"], mode: 1, nested: { x: 3, y: 4 } };
      const expected =
        '{"id":1152921504606846976,"score":1.0,"tags":["x"],"mode":1,"nested":{"x":3,"y":4.0}}';
      expect(structToJson(args, c)).toBe(expected);
      expect(structToJson(args, toolSchema(t) as JsonSchema)).toBe(expected);
      expect(structToJson(args, toolSchema(title("other")) as JsonSchema)).toBe(expected);
    });
  });

  describe("a different schema is never taken for an equal one", () => {
    type Change = (s: Schema) => void;
    const props = (s: Schema) => s.properties as Record<string, Schema>;
    const changes: [string, Change][] = [
      ["a value", (s) => (props(s).id!.minimum = 1)],
      ["a string value", (s) => (props(s).id!.description = "the ID")],
      ["a type of value (1 → '1')", (s) => (props(s).mode!.enum = ["a", "b", null, "1", true])],
      ["true → 1", (s) => (props(s).mode!.enum = ["a", "b", null, 1, 1])],
      ["null → false", (s) => (props(s).mode!.enum = ["a", "b", false, 1, true])],
      ["an object → an array", (s) => (props(s).tags!.items = [{ type: "string" }])],
      ["an array → an object", (s) => (props(s).mode!.enum = { 0: "a" })],
      ["an extra member", (s) => (props(s).id!.maximum = 9)],
      ["a missing member", (s) => delete props(s).score!.default],
      ["an extra array item", (s) => (s.required = ["id", "score"])],
      ["a missing array item", (s) => (s.required = [])],
      [
        "key order (top level)",
        (s) => {
          const { title: t, ...rest } = s;
          for (const k of Object.keys(s)) delete s[k];
          Object.assign(s, rest, { title: t });
        },
      ],
      [
        "key order (nested)",
        (s) => (props(s).id = { minimum: 0, type: "integer", description: "the id" }),
      ],
      ["an extra property", (s) => (props(s).extra = { type: "integer" })],
      [
        "a member renamed",
        (s) => {
          props(s).id!.Description = props(s).id!.description;
          delete props(s).id!.description;
        },
      ],
    ];
    test.each(changes)("%s", (_name, change) => {
      const t = title("differs");
      const c = kept(() => toolSchema(t));
      const changed = toolSchema(t);
      change(changed);
      const other = compileSchema(changed as JsonSchema);
      expect(other).not.toBe(c);
      // …and the changed one is kept in its own right from its second object on.
      const again = (() => {
        const s = toolSchema(t);
        change(s);
        return compileSchema(s as JsonSchema);
      })();
      expect(again).not.toBe(c);
    });

    test("-0 vs 0, NaN, infinities: never equal to a kept 0, and not plain data themselves", () => {
      const t = title("numbers");
      const make = (minimum: number) => () => {
        const s = toolSchema(t);
        (s.properties as Record<string, Schema>).id!.minimum = minimum;
        return s;
      };
      const c = kept(make(0));
      for (const odd of [-0, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
        const a = compileSchema(make(odd)() as JsonSchema);
        const b = compileSchema(make(odd)() as JsonSchema);
        expect([a === c, b === c, a === b]).toEqual([false, false, false]);
      }
    });
  });

  describe("not plain data: compiled per object, never matched", () => {
    class Schemaish {
      type = "object";
    }
    class MyArray<T> extends Array<T> {}
    const props = (s: Schema) => s.properties as Record<string, Schema>;
    const cases: [string, (s: Schema) => unknown][] = [
      [
        "a getter that throws",
        (s) => {
          Object.defineProperty(props(s).id!, "type", {
            enumerable: true,
            get() {
              throw new Error("boom");
            },
          });
          return s;
        },
      ],
      [
        "a non-enumerable member added",
        (s) => {
          Object.defineProperty(props(s), "hidden", {
            value: { type: "integer" },
            enumerable: false,
          });
          return s;
        },
      ],
      [
        "a member made non-enumerable",
        (s) => {
          Object.defineProperty(props(s), "id", { enumerable: false });
          return s;
        },
      ],
      [
        "a class instance",
        (s) => {
          props(s).score = Object.assign(new Schemaish(), props(s).score);
          return s;
        },
      ],
      [
        "an inherited prototype with the member",
        (s) => {
          const { type, ...rest } = s;
          return Object.assign(Object.create({ type }) as object, rest);
        },
      ],
      [
        "a prototype without enumerable members",
        (s) => Object.assign(Object.create(Object.create(null) as object) as object, s),
      ],
      [
        "an Array subclass",
        (s) => {
          s.required = MyArray.from(s.required as string[]);
          return s;
        },
      ],
      [
        "a sparse array",
        (s) => {
          const e = ["a", "b", null, 1, true];
          delete e[2];
          props(s).mode!.enum = e;
          return s;
        },
      ],
      [
        "a cycle",
        (s) => {
          props(s).self = s;
          return s;
        },
      ],
      ["a function value", (s) => ({ ...s, toJSON: () => ({}) })],
      ["an undefined value", (s) => ({ ...s, if: undefined })],
      ["a symbol value", (s) => ({ ...s, if: Symbol("x") })],
      ["a bigint value", (s) => ({ ...s, minimum: 1n })],
      [
        "a proxy whose trap throws",
        (s) => {
          props(s).id = new Proxy(props(s).id!, {
            ownKeys() {
              throw new Error("boom");
            },
          });
          return s;
        },
      ],
      [
        "a __proto__ literal (sets the prototype)",
        (s) => {
          const { type: _type, ...rest } = s;
          return { __proto__: { type: "object" }, ...rest };
        },
      ],
    ];
    test.each(cases)("%s", (_name, make) => {
      const t = title("not plain");
      const c = kept(() => toolSchema(t));
      const x = make(toolSchema(t)) as JsonSchema;
      const y = make(toolSchema(t)) as JsonSchema;
      // Booleans: expect's own deep reading could trip the hostile objects.
      const cx = compileSchema(x);
      const cy = compileSchema(y);
      expect([cx === c, cy === c, cx === cy, compileSchema(x) === cx]).toEqual([
        false,
        false,
        false,
        true,
      ]);
    });

    test("a member named __proto__ (an own key, as JSON.parse makes it) is ordinary plain data", () => {
      const t = title("proto key");
      const text = JSON.stringify({
        title: t,
        properties: { __proto__: { type: "integer" }, n: { type: "number" } },
      }).replace('"properties":{', '"properties":{"__proto__":{"type":"integer"},');
      const make = () => JSON.parse(text) as Schema;
      expect(Object.keys(make().properties as object)).toEqual(["__proto__", "n"]);
      const c = kept(make);
      expect(compileSchema(structuredClone(make()) as JsonSchema)).toBe(c);
      expect(structToJson(JSON.parse('{"__proto__":1,"n":1}'), make() as JsonSchema)).toBe(
        '{"__proto__":1,"n":1.0}',
      );
      expect(({} as Record<string, unknown>).type).toBeUndefined();
    });
  });

  describe("identity first, and the private copy", () => {
    test("the same object is found by identity before any content is read", () => {
      const t = title("identity");
      const c = kept(() => toolSchema(t));
      const reads = noReads();
      const proxy = counted(toolSchema(t), reads) as JsonSchema;
      expect(compileSchema(proxy)).toBe(c);
      expect(reads.get).toBeGreaterThan(0);
      const after = { get: reads.get, ownKeys: reads.ownKeys };
      for (let i = 0; i < 3; i++) expect(compileSchema(proxy)).toBe(c);
      // (Only `instanceof Compiled` asks for the prototype; nothing reads a member or a key.)
      expect({ get: reads.get, ownKeys: reads.ownKeys }).toEqual(after);
    });

    test("a schema changed after compiling keeps its compiled schema; others never see the change", () => {
      const t = title("mutation");
      const c = kept(() => toolSchema(t));
      const mine = toolSchema(t);
      expect(compileSchema(mine as JsonSchema)).toBe(c);
      (mine.properties as Record<string, Schema>).score!.type = "integer";
      expect(compileSchema(mine as JsonSchema)).toBe(c);
      expect(compileSchema(toolSchema(t) as JsonSchema)).toBe(c);
      expect(structToJson({ id: 1, score: 2 }, toolSchema(t) as JsonSchema)).toBe(
        '{"id":1,"score":2.0}',
      );
      // The object the cache kept is its own copy: changing the one it was made from changes nothing.
      const t2 = title("mutation source");
      compileSchema(toolSchema(t2) as JsonSchema);
      const source = toolSchema(t2);
      const c2 = compileSchema(source as JsonSchema);
      (source.properties as Record<string, Schema>).score!.type = "integer";
      expect(compileSchema(toolSchema(t2) as JsonSchema)).toBe(c2);
      expect(structToJson({ id: 1, score: 2 }, c2)).toBe('{"id":1,"score":2.0}');
    });
  });

  describe("a getter that compiles schemas while it is read", () => {
    test("a lookup that reenters compileSchema stays consistent", () => {
      const t = title("reentrant");
      const c = kept(() => toolSchema(t));
      const others = Array.from({ length: CONTENT_CACHE_ENTRIES + 8 }, () =>
        title("reentrant other"),
      );
      let calls = 0;
      const make = () => {
        const s = toolSchema(t);
        const id = (s.properties as Record<string, Schema>).id!;
        const description = id.description;
        Object.defineProperty(id, "description", {
          enumerable: true,
          get() {
            calls++;
            // Evicts everything kept, this schema's entry among them, while it is being compared.
            for (const o of others) kept(() => toolSchema(o));
            return description;
          },
        });
        return s;
      };
      const got = compileSchema(make() as JsonSchema);
      expect(calls).toBeGreaterThan(0);
      // Equal when read: the compiled schema of the entry it matched, though that entry was evicted meanwhile.
      expect(got).toBe(c);
      // The cache still works: an equal schema is kept and found again.
      const fresh = title("after reentry");
      const again = kept(() => toolSchema(fresh));
      expect(compileSchema(structuredClone(toolSchema(fresh)) as JsonSchema)).toBe(again);
      expect(compileSchema(toolSchema(others.at(-1)!) as JsonSchema)).toBe(
        compileSchema(toolSchema(others.at(-1)!) as JsonSchema),
      );
    });
  });
});

test("where the runtime compiles no code, the walk compares", () => {
  const original = globalThis.Function;
  const t = title("no code");
  let asked = 0;
  try {
    globalThis.Function = function refused() {
      asked++;
      throw new EvalError("Code generation from strings disallowed for this context");
    } as unknown as FunctionConstructor;
    useGeneratedComparators(true);
    const c = kept(() => toolSchema(t));
    expect(compileSchema(structuredClone(toolSchema(t)) as JsonSchema)).toBe(c);
    const changed = toolSchema(t);
    changed.type = "array";
    expect(compileSchema(changed as JsonSchema)).not.toBe(c);
    // Asked once, when turned on; never again per entry.
    expect(asked).toBe(1);
  } finally {
    globalThis.Function = original;
    useGeneratedComparators(true);
  }
});

describe("bounds", () => {
  test("the limits are what the module documents", () => {
    expect({
      CONTENT_MAX_VALUES,
      CONTENT_MAX_CHARS,
      CONTENT_CACHE_ENTRIES,
      CONTENT_CACHE_CHARS,
      CONTENT_CANDIDATES,
    }).toEqual({
      CONTENT_MAX_VALUES: 20_000,
      CONTENT_MAX_CHARS: 256 * 1024,
      CONTENT_CACHE_ENTRIES: 64,
      CONTENT_CACHE_CHARS: 4 * 1024 * 1024,
      CONTENT_CANDIDATES: 8,
    });
  });

  test("eviction by count: least recently used first", () => {
    const titles = Array.from({ length: CONTENT_CACHE_ENTRIES }, () => title("count"));
    const compiled = titles.map((t) => kept(() => toolSchema(t)));
    // All of them fit; using the oldest makes the second oldest the least recently used.
    const found = titles.map((t, i) => compileSchema(toolSchema(t) as JsonSchema) === compiled[i]);
    expect(found).toEqual(titles.map(() => true));
    expect(compileSchema(toolSchema(titles[0]!) as JsonSchema)).toBe(compiled[0]);
    const overflow = title("count overflow");
    kept(() => toolSchema(overflow));
    expect(compileSchema(toolSchema(titles[0]!) as JsonSchema)).toBe(compiled[0]);
    expect(compileSchema(toolSchema(titles[2]!) as JsonSchema)).toBe(compiled[2]);
    // Evicted: an equal object now gets a compiled schema of its own, kept from then on.
    const again = compileSchema(toolSchema(titles[1]!) as JsonSchema);
    expect(again).not.toBe(compiled[1]);
    expect(compileSchema(toolSchema(titles[1]!) as JsonSchema)).toBe(again);
  });

  test("eviction by characters: the kept copies' text stays within CONTENT_CACHE_CHARS", () => {
    const big = (t: string) => ({ ...toolSchema(t), description: "d".repeat(200_000) });
    const chars = JSON.stringify(big(title("size"))).length;
    expect(chars).toBeLessThanOrEqual(CONTENT_MAX_CHARS);
    const fit = Math.floor(CONTENT_CACHE_CHARS / chars);
    expect(fit).toBeLessThan(CONTENT_CACHE_ENTRIES);
    const titles = Array.from({ length: fit + 1 }, () => title("chars"));
    const compiled = titles.map((t) => kept(() => big(t)));
    // The first no longer fits beside the others (what else was kept is smaller than one of them).
    const first = compileSchema(big(titles[0]!) as JsonSchema);
    expect(first).not.toBe(compiled[0]);
    const rest = titles
      .slice(2)
      .map((t, i) => compileSchema(big(t) as JsonSchema) === compiled[i + 2]);
    expect(rest).toEqual(titles.slice(2).map(() => true));
  });

  test("a schema over CONTENT_MAX_CHARS or CONTENT_MAX_VALUES is never kept", () => {
    const long = title("long");
    const tooLong = () => ({ title: long, description: "d".repeat(CONTENT_MAX_CHARS) });
    const many = title("many");
    const tooMany = () => ({
      title: many,
      enum: Array.from({ length: CONTENT_MAX_VALUES }, (_, i) => i),
    });
    for (const make of [tooLong, tooMany]) {
      const a = compileSchema(make());
      const b = compileSchema(make());
      const c = compileSchema(make());
      expect([a === b, b === c, a === c]).toEqual([false, false, false]);
    }
  });

  test("a flood of schemas sharing one fingerprint keeps CONTENT_CANDIDATES of them, and a lookup compares at most that many", () => {
    const t = title("flood");
    // Same top-level keys, title and property names: one fingerprint; they differ deep inside.
    const make = (i: number) => {
      const s = toolSchema(t);
      (s.properties as Record<string, Schema>).id!.description = `variant ${i}`;
      return s;
    };
    const compiled = Array.from({ length: 3 * CONTENT_CANDIDATES }, (_, i) => kept(() => make(i)));
    // Newest first: a miss keeps its schema, which evicts the least recently used of the list.
    const keptNow = compiled
      .map((_, i) => i)
      .reverse()
      .map((i) => compileSchema(make(i) as JsonSchema) === compiled[i]);
    expect(keptNow).toEqual(compiled.map((_, i) => i < CONTENT_CANDIDATES));
    // A new member of the flood: each candidate is read up to its difference, then the schema
    // once to check and copy it. However long the flood, the reads are the same.
    const readsOf = (i: number) => {
      const reads = noReads();
      compileSchema(counted(make(i), reads) as JsonSchema);
      return reads;
    };
    const values = census(make(0) as Json);
    const lookup = readsOf(10_000);
    for (let i = 0; i < 50; i++) compileSchema(make(100 + i) as JsonSchema);
    expect(readsOf(20_000)).toEqual(lookup);
    expect(lookup.get).toBeLessThanOrEqual((CONTENT_CANDIDATES + 4) * values.reads);
  });
});

describe("what a lookup reads (counted, not timed)", () => {
  /** A schema with `n` properties, each with a small subschema. */
  const wide = (t: string, n: number): Schema => {
    const properties: Record<string, Json> = {};
    for (let i = 0; i < n; i++) {
      properties[`p${i}`] = {
        type: i % 2 ? "integer" : "number",
        enum: [i, null],
        title: `P ${i}`,
      };
    }
    return { title: t, type: "object", properties, required: ["p0"] };
  };

  test.each([1, 10, 100, 1000])("a hit reads every value once: %i properties", (n) => {
    const t = title(`linear ${n}`);
    const c = kept(() => wide(t, n));
    const reads = noReads();
    expect(compileSchema(counted(wide(t, n), reads) as JsonSchema)).toBe(c);
    const { values, objects, arrays, reads: members } = census(wide(t, n) as Json);
    // The schema used last is compared first, with no fingerprint: the walk
    // reads each member, each array's length and items, once, and each
    // array's iterator (the engine reads lists through it).
    expect(reads.get).toBe(members + arrays);
    // Keys: the walk's for…in of each object, and the own names of the one
    // `properties` map (where the engine finds members by Object.hasOwn).
    expect(reads.ownKeys).toBe(objects + 1);
    // Prototypes: `instanceof Compiled`, then each object's check and its
    // for…in, each array's check.
    expect(reads.getPrototypeOf).toBe(1 + 2 * objects + arrays);
    expect(reads.total).toBeLessThanOrEqual(8 * values);
  });

  test("deep and wide schemas within the limits are found without recursion", () => {
    const deepTitle = title("deep");
    const deep = () => {
      let s: Schema = { type: "integer" };
      // 1,500 levels: JSON.stringify, which makes the private copy, overflows the stack far deeper.
      for (let i = 0; i < 1_000; i++) s = i % 2 ? { items: s } : { anyOf: [s, { type: "null" }] };
      return { title: deepTitle, ...s };
    };
    const wideTitle = title("wide");
    for (const make of [deep, () => wide(wideTitle, 3_000)]) {
      const c = kept(make);
      expect(compileSchema(JSON.parse(JSON.stringify(make())) as JsonSchema) === c).toBe(true);
    }
  });

  test("a miss stops at the first difference", () => {
    const t = title("early miss");
    kept(() => wide(t, 1000));
    const readsWith = (changed: string) => {
      const different = wide(t, 1000);
      (different.properties as Record<string, Schema>)[changed]!.type = "string";
      const reads = noReads();
      compileSchema(counted(different, reads) as JsonSchema);
      return reads.get;
    };
    // Either way the schema is then checked and copied once (to be kept from its
    // second object on); the walk reads the properties last to first, so a
    // change in p999 is seen at once and one in p0 only at the end.
    const { reads: members } = census(wide(t, 1000) as Json);
    const seenFirst = readsWith("p999");
    const seenLast = readsWith("p0");
    expect(seenLast - seenFirst).toBeGreaterThanOrEqual(members - 10);
    // Compared, checked, copied: each reads a member about once (the copy also asks each container for toJSON).
    expect(seenLast).toBeLessThanOrEqual(5 * members);
  });
});
