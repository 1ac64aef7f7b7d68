// Issue 16, compiled schemas reused by content, as a property: on random
// schemas, an equal schema in a new object gets the compiled schema of the
// first, and a schema that differs from it in one place (a value, its type, a
// key added, removed or moved, an element added or removed, an object for an
// array) never does. Both ways of comparing (code generated per kept schema,
// and the walk) are held to it; ./schema-content-cache.test.ts has the named
// cases.
import fc from "fast-check";
import { afterAll, describe, expect, test } from "vitest";
import { useGeneratedComparators } from "../src/schema/compile-schema.js";
import { compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { runs } from "./property-arbitraries.js";
import { rootSchemaArb } from "./schema-arbitraries.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every container and primitive position of `v`, as paths of keys and indexes. */
function positions(v: Json, path: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(path);
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) positions(v[i]!, [...path, i], out);
  else if (typeof v === "object" && v !== null)
    for (const k of Object.keys(v)) positions(v[k]!, [...path, k], out);
  return out;
}

/** The kinds of one-place change; each leaves a value whose JSON text differs. */
const CHANGES = [
  "value",
  "type",
  "add-key",
  "remove-key",
  "move-key",
  "add-element",
  "remove-element",
  "container",
] as const;
type Change = (typeof CHANGES)[number];

/** A primitive that differs from `v`, of the same type when `sameType`. */
function otherPrimitive(v: Json, sameType: boolean): Json {
  switch (typeof v) {
    case "number":
      return sameType ? (v === 1 ? 2 : 1) : String(v);
    case "string":
      return sameType ? `${v}x` : Number.isNaN(Number(v)) || v === "" ? 1 : Number(v);
    case "boolean":
      return sameType ? !v : v ? 1 : 0;
    default:
      return sameType ? null : 0;
  }
}

/** `v` (a fresh copy) changed once at `path` by `change`; undefined when that change does not apply there. */
function changed(v: Json, path: readonly (string | number)[], change: Change): Json | undefined {
  const copy = JSON.parse(JSON.stringify(v)) as Json;
  let parent: Json = null;
  let at: string | number | undefined;
  let x: Json = copy;
  for (const p of path) {
    parent = x;
    at = p;
    x = (x as Record<string | number, Json>)[p]!;
  }
  const set = (y: Json): Json => {
    if (parent === null) return y;
    (parent as Record<string | number, Json>)[at!] = y;
    return copy;
  };
  const isObject = typeof x === "object" && x !== null && !Array.isArray(x);
  switch (change) {
    case "value":
    case "type":
      return typeof x === "object" && x !== null
        ? undefined
        : set(otherPrimitive(x, change === "value"));
    case "add-key": {
      if (!isObject) return undefined;
      const o = x as Record<string, Json>;
      if (Object.hasOwn(o, "zz")) return undefined;
      // A member the schema reader does not know: it changes no reading, only the content.
      Object.defineProperty(o, "zz", {
        value: 0,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return copy;
    }
    case "remove-key": {
      if (!isObject) return undefined;
      const keys = Object.keys(x as object);
      if (keys.length === 0) return undefined;
      delete (x as Record<string, Json>)[keys[0]!];
      return copy;
    }
    case "move-key": {
      if (!isObject) return undefined;
      const o = x as Record<string, Json>;
      const keys = Object.keys(o);
      if (keys.length < 2) return undefined;
      const first = o[keys[0]!]!;
      delete o[keys[0]!];
      Object.defineProperty(o, keys[0]!, {
        value: first,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      return copy;
    }
    case "add-element":
      if (!Array.isArray(x)) return undefined;
      x.push(null);
      return copy;
    case "remove-element":
      if (!Array.isArray(x) || x.length === 0) return undefined;
      x.pop();
      return copy;
    case "container":
      // (The root stays an object: an array is no schema.)
      if (typeof x !== "object" || x === null || path.length === 0) return undefined;
      return set(Array.isArray(x) ? {} : []);
  }
}

/** A plain-data schema (JSON text round trip: no cycles, `__proto__` an own key) and one change of it. */
const caseArb = rootSchemaArb
  .filter((s) => typeof s === "object" && s !== null)
  .map((s) => {
    try {
      return JSON.parse(JSON.stringify(s)) as Json;
    } catch {
      return undefined; // a cyclic schema: not a case here
    }
  })
  .filter((s): s is Json => s !== undefined)
  .chain((schema) =>
    fc.record({
      schema: fc.constant(schema),
      path: fc.constantFrom(...positions(schema)),
      change: fc.constantFrom(...CHANGES),
    }),
  );

afterAll(() => useGeneratedComparators(true));

describe.each([
  ["generated comparators", true],
  ["the walk", false],
])("reuse by content on random schemas, compared by %s", (_name, generated) => {
  test("an equal schema is found; a schema changed in one place is not", () => {
    useGeneratedComparators(generated);
    let checked = 0;
    fc.assert(
      fc.property(caseArb, ({ schema, path, change }) => {
        const other = changed(schema, path, change);
        fc.pre(other !== undefined && JSON.stringify(other) !== JSON.stringify(schema));
        const copy = () => JSON.parse(JSON.stringify(schema)) as JsonSchema;
        // Met once (compiled per object), twice (kept), then found by content.
        compileSchema(copy());
        const kept = compileSchema(copy());
        expect(compileSchema(copy())).toBe(kept);
        // Twice, so that the changed schema is kept too (and compared both ways round).
        expect(compileSchema(JSON.parse(JSON.stringify(other)) as JsonSchema)).not.toBe(kept);
        const changedKept = compileSchema(JSON.parse(JSON.stringify(other)) as JsonSchema);
        expect(changedKept).not.toBe(kept);
        expect(compileSchema(copy())).toBe(kept);
        checked++;
      }),
      runs(300, generated ? 16_101 : 16_102),
    );
    expect(checked).toBeGreaterThan(100);
  });
});
