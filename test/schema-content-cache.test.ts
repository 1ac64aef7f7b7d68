// Compiled schemas reused by content (issue 16): equal plain-data schemas in
// new objects share one compiled schema; anything that is not plain JSON data
// is compiled per object, and never mistaken for an equal plain schema.
import { describe, expect, test } from "vitest";
import { compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { structToJson } from "../src/struct/to-json.js";

let unique = 0;
/** A schema family no other test uses (the cache is per process). */
function family(): { make: () => Record<string, unknown>; title: string } {
  const title = `content-cache-${++unique}`;
  return {
    title,
    make: () => ({
      title,
      properties: { a: { type: "number" }, b: { items: { type: "integer" } } },
    }),
  };
}

describe("reuse by content", () => {
  test("equal schemas in new objects share one compiled schema from the second on", () => {
    const f = family();
    compileSchema(f.make());
    const second = compileSchema(f.make());
    expect(compileSchema(f.make())).toBe(second);
    expect(compileSchema(JSON.parse(JSON.stringify(f.make())))).toBe(second);
    expect(structToJson({ a: 1, b: [2 ** 60] }, f.make())).toBe(
      '{"a":1.0,"b":[1152921504606846976]}',
    );
  });

  test("a different value, key order or type is another schema", () => {
    const f = family();
    compileSchema(f.make());
    const c = compileSchema(f.make());
    const variants: Record<string, unknown>[] = [
      { title: f.title, properties: { a: { type: "integer" }, b: { items: { type: "integer" } } } },
      { properties: { a: { type: "number" }, b: { items: { type: "integer" } } }, title: f.title },
      {
        title: f.title,
        properties: { a: { type: "number" }, b: { items: { type: "integer" }, x: 1 } },
      },
      {
        title: f.title,
        properties: { a: { type: "number" }, b: { items: [{ type: "integer" }] } },
      },
      {
        title: f.title,
        properties: { a: { type: "number", const: 0 }, b: { items: { type: "integer" } } },
      },
    ];
    for (const v of variants) expect(compileSchema(v)).not.toBe(c);
    // -0 is not plain data here (JSON text would make it 0).
    const minusZero = f.make();
    (minusZero.properties as Record<string, Record<string, unknown>>).a!.const = -0;
    expect(compileSchema(minusZero)).not.toBe(c);
  });

  test("not plain data: compiled per object, never matched to an equal-looking plain schema", () => {
    const f = family();
    compileSchema(f.make());
    const c = compileSchema(f.make());
    const hidden = f.make();
    Object.defineProperty(hidden.properties as object, "c", {
      value: { type: "integer" },
      enumerable: false,
    });
    const inherited = Object.assign(Object.create({ type: "integer" }) as object, f.make());
    const throwing = f.make();
    Object.defineProperty(throwing, "$defs", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const cyclic = f.make();
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    const withUndefined = { ...f.make(), if: undefined };
    const withFunction = { ...f.make(), toJSON: () => ({}) };
    for (const s of [hidden, inherited, throwing, cyclic, withUndefined, withFunction]) {
      const got = compileSchema(s as JsonSchema);
      // Booleans: the matcher must not read the hostile objects.
      expect(got === c).toBe(false);
      expect(compileSchema(s as JsonSchema) === got).toBe(true);
    }
  });

  test("a change to the caller's object after compiling does not reach other callers", () => {
    const f = family();
    compileSchema(f.make());
    const mine = f.make();
    const c = compileSchema(mine);
    (mine.properties as Record<string, Record<string, unknown>>).a!.type = "integer";
    expect(compileSchema(f.make())).toBe(c);
    expect(structToJson({ a: 1 }, f.make())).toBe('{"a":1.0}');
  });

  test("huge and deep schemas stay bounded and lazy", () => {
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) wide[`p${i}`] = { type: "integer" };
    let deep: Record<string, unknown> = { type: "integer" };
    for (let i = 0; i < 50_000; i++) deep = { items: deep };
    for (const s of [{ properties: wide }, deep]) {
      const first = compileSchema(s);
      const again = compileSchema({ ...s });
      expect(again).not.toBe(first);
      expect(compileSchema({ ...s })).not.toBe(again);
    }
    // Too wide for one call's budget (the engine's verdict, unchanged): read as unknown, and said so.
    const codes: string[] = [];
    expect(
      structToJson(
        { p7: 2 ** 60 },
        { properties: wide },
        { onDiagnostic: (d) => codes.push(d.code) },
      ),
    ).toBe('{"p7":1152921504606847000}');
    expect(codes).toContain("schema-too-complex");
  });

  test("many distinct schemas: the cache keeps its bounds and stays correct", () => {
    const f = family();
    for (let i = 0; i < 300; i++) {
      const s = {
        title: f.title,
        properties: { [`k${i}`]: { type: i % 2 ? "integer" : "number" } },
      };
      compileSchema(s);
      compileSchema({ ...s });
      expect(structToJson({ [`k${i}`]: 3 }, { ...s })).toBe(
        i % 2 ? `{"k${i}":3}` : `{"k${i}":3.0}`,
      );
    }
  });
});
