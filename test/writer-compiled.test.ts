// The compiled writer (issue 16): generated code, the same program
// interpreted, the walk through plans and the engine alone write every call
// byte for byte alike, with the same diagnostics and errors; generated code
// is safe against hostile schemas; a runtime that refuses `new Function`
// selects interpretation silently.
import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";
import { resetCodeDetection, runtimeAllowsCode } from "../src/code-generation.js";
import type { Diagnostic } from "../src/diagnostics.js";
import type { PatternEngine } from "../src/patterns/engine.js";
import { re2Patterns } from "../src/patterns/re2.js";
import { compileSchema, rootNode } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import {
  type StructToJsonOptions,
  structMessageToJson,
  structToJson,
} from "../src/struct/to-json.js";
import { generatedWriter, MAX_CODE_NODES, rememberedKeyTexts } from "../src/struct/writer-code.js";
import { writerPlans } from "../src/struct/writer-plan.js";
import { programOf } from "../src/struct/writer-program.js";
import { HOSTILE_CASES } from "./schema-budget-catalogue.js";
import { toStruct } from "./writer-corpus.js";

type Mode = "generated" | "interpreted" | "walk" | "engine";
const MODES: readonly Mode[] = ["generated", "interpreted", "walk", "engine"];

afterEach(() => {
  writerPlans.enabled = true;
  writerPlans.compiled = "auto";
});

function setMode(mode: Mode): void {
  writerPlans.enabled = mode !== "engine";
  writerPlans.compiled = mode === "walk" ? "off" : mode === "engine" ? "auto" : mode;
}

type Outcome = { text?: string; error?: string; diagnostics: Diagnostic[] };

function write(
  mode: Mode,
  args: Record<string, unknown>,
  schema: JsonSchema | undefined,
  msg: boolean,
  options: Partial<StructToJsonOptions>,
  listen: boolean,
): Outcome {
  setMode(mode);
  const diagnostics: Diagnostic[] = [];
  const opts = listen
    ? { ...options, onDiagnostic: (d: Diagnostic) => diagnostics.push(d) }
    : options;
  try {
    const text = msg
      ? structMessageToJson(toStruct(args) as never, schema, opts)
      : structToJson(args as never, schema, opts);
    return { text, diagnostics };
  } catch (e) {
    return {
      error: `${(e as { code?: string }).code}@${(e as { path?: string }).path}`,
      diagnostics,
    };
  } finally {
    setMode("generated");
    writerPlans.compiled = "auto";
  }
}

/** Every mode, both forms, with and without a listener (twice: programs built, then warm), agree with the engine. */
function expectSame(
  args: Record<string, unknown>,
  schema: JsonSchema | undefined,
  options: Partial<StructToJsonOptions> = {},
): void {
  for (const msg of [false, true]) {
    for (const listen of [true, false]) {
      const engine = write("engine", args, schema, msg, options, listen);
      for (const mode of MODES) {
        for (let round = 0; round < 2; round++) {
          expect({ mode, msg, listen, ...write(mode, args, schema, msg, options, listen) }).toEqual(
            {
              mode,
              msg,
              listen,
              ...engine,
            },
          );
        }
      }
    }
  }
}

describe("every mode writes what the engine writes", () => {
  for (const c of HOSTILE_CASES) {
    test(`hostile schema: ${c.name}`, () => {
      for (const size of c.sizes.slice(0, 1)) {
        const { schema, args } = c.make(size);
        if (typeof args !== "object" || args === null || Array.isArray(args)) continue;
        expectSame(args as Record<string, unknown>, schema, { patterns: c.patterns ?? undefined });
      }
    });
  }

  const nullableRef: JsonSchema = {
    $defs: {
      Range: {
        properties: {
          start: { type: "integer" },
          end: { anyOf: [{ type: "integer" }, { type: "null" }] },
        },
        required: ["start"],
      },
    },
    properties: {
      id: { type: "integer" },
      score: { type: "number" },
      either: { type: ["integer", "number"] },
      range: { anyOf: [{ $ref: "#/$defs/Range" }, { type: "null" }] },
      tags: { items: { type: "string" } },
      row: { prefixItems: [{ type: "integer" }, { type: "number" }], items: { type: "integer" } },
    },
  };

  const options: [string, Partial<StructToJsonOptions>][] = [
    ["defaults", {}],
    ["wholeFloats integer", { wholeFloats: "integer" }],
    ["nonFinite and unsetValue null", { nonFinite: "null", unsetValue: "null" }],
    ["recursionLimit 2", { recursionLimit: 2 }],
  ];
  for (const [name, opts] of options) {
    test(`nullable refs, tuples, big and whole numbers: ${name}`, () => {
      for (const args of [
        { id: 2 ** 60, score: 3, either: 4, range: { start: 1, end: 2 ** 53 + 2 }, tags: ["a"] },
        { id: 1.5, score: -0, either: 2.5, range: { end: 3 }, row: [2 ** 60, 1, 2, 3.5] },
        { id: Number.NaN, range: null, extra: { deep: [[1, 2.0]] } },
        { range: { start: 1, nested: { a: { b: 1 } } }, row: [1, 2, [3]] },
        { id: undefined, score: 1e21, either: -(2 ** 60) },
      ]) {
        expectSame(args, nullableRef, opts);
        expectSame(args, undefined, opts);
      }
    });
  }

  // The generated code writes an object whose keys are exactly the node's named
  // keys in order, and a tuple of exactly its positional length, by one
  // expression (writer-code.ts, wholeObject/wholeArray); every near miss takes the loop.
  test("objects with exactly the named members in order, and tuples of their exact length, are written whole; near misses the same", () => {
    const schema: JsonSchema = {
      properties: {
        a: { type: "integer" },
        b: { type: "number" },
        "1": { type: "integer" },
        'q"uote': { anyOf: [{ type: "integer" }, { type: "null" }] },
        row: {
          prefixItems: [{ type: "integer" }, { type: "number" }, { type: "string" }],
          items: { type: "number" },
        },
      },
    };
    const row = [2 ** 60, 2, "s"];
    for (const args of [
      { "1": 1, a: 2 ** 60, b: 3, 'q"uote': null, row },
      { "1": 1, a: 2, b: 3, 'q"uote': 2 ** 53 + 2, row: [1, 2.5, "x"] },
      { "1": 1, b: 3, a: 2, 'q"uote': null, row },
      { "1": 1, a: 2, 'q"uote': null, row },
      { "1": 1, a: 2, b: 3, 'q"uote': null, row, extra: 4 },
      { "1": 1, a: 2, b: 3, 'q"uote': null, row: [1, 2] },
      { "1": 1, a: 2, b: 3, 'q"uote': null, row: [1, 2, "x", 4] },
      { "1": 1, a: 2, b: 3, 'q"uote': null, row: [] },
      { "1": 1, a: 1.5, b: Number.NaN, 'q"uote': null, row: [1, 2, 3] },
      { "1": 1, a: 2, b: 3, 'q"uote': null, row: { 0: 1, 1: 2, 2: "x" } },
    ]) {
      expectSame(args, schema);
      expectSame(args, schema, { wholeFloats: "integer" });
    }
  });

  test("keys the schema does not name: texts cached in bounded slots, escapes exact, collisions replaced", () => {
    const schema: JsonSchema = {
      properties: { m: { additionalProperties: { type: "integer" } } },
    };
    const odd = [
      'q"uote',
      "back\\slash",
      "ctl\u0001",
      "lone \ud800",
      "東京",
      "",
      "__proto__",
      "0",
      "1",
    ];
    const many: Record<string, unknown> = {};
    for (let i = 0; i < 1500; i++) many[`k${i}`] = i;
    many["x".repeat(33)] = 1;
    for (const k of odd) Object.defineProperty(many, k, { value: 2 ** 60, enumerable: true });
    const rows = Array.from({ length: 3 }, () => ({ m: many }));
    for (const args of [{ m: many }, { m: { a: 1, b: 2 }, rows }, { m: { b: 2, a: 1 } }]) {
      expectSame(args, schema);
      expectSame(args, undefined);
      expect(rememberedKeyTexts()).toBeLessThanOrEqual(256);
    }
    const text = structToJson({ m: many } as never, schema);
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify({ m: many })));
    expect(rememberedKeyTexts()).toBeLessThanOrEqual(256);
  });

  test("an output past 256 K characters goes to the native writer, written the same", () => {
    const rows = Array.from({ length: 4000 }, (_, i) => [
      2 ** 60 + i * 4096,
      i,
      i + 0.5,
      "x".repeat(60),
      3,
    ]);
    const schema: JsonSchema = {
      properties: {
        rows: {
          items: { prefixItems: [{ type: "integer" }, { type: "integer" }, { type: "number" }] },
        },
      },
    };
    expectSame({ rows }, schema);
    expectSame({ rows }, schema, { wholeFloats: "integer" });
  });

  test("seeded random schemas and values", () => {
    const leaf = fc.constantFrom<unknown>(
      { type: "integer" },
      { type: "number" },
      { type: ["integer", "number"] },
      { enum: [1, 2.5] },
      { const: 3 },
      { multipleOf: 2 },
      {},
      false,
      { $ref: "#/$defs/X" },
      { $ref: "#/nowhere" },
    );
    const keys = fc.constantFrom("a", "b", "__proto__", "constructor", 'q"uote', "line\u2028sep");
    const schemaArb = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.record({ properties: fc.dictionary(keys, tie("node")) }),
        fc.record({
          properties: fc.dictionary(keys, tie("node")),
          required: fc.array(keys, { maxLength: 2 }),
        }),
        fc.record({ items: tie("node") }),
        fc.record({ prefixItems: fc.array(tie("node"), { maxLength: 2 }), items: tie("node") }),
        fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
        fc.record({ oneOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
        fc.record({ additionalProperties: tie("node") }),
      ),
    })).node;
    const valueArb = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom<unknown>(
          1,
          2.5,
          -0,
          3,
          2 ** 60,
          2 ** 53 + 2,
          1e21,
          null,
          true,
          "x",
          Number.NaN,
        ),
        fc.dictionary(keys, tie("v"), { maxKeys: 4 }),
        fc.array(tie("v"), { maxLength: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(
        schemaArb,
        fc.dictionary(keys, valueArb),
        fc.constantFrom<Partial<StructToJsonOptions>>(
          {},
          { nonFinite: "null" },
          { wholeFloats: "integer" },
        ),
        (s, args, opts) => {
          const schema = { $defs: { X: { type: "integer" } }, ...(s as object) } as JsonSchema;
          expectSame(args, schema, opts);
        },
      ),
      { numRuns: 150, seed: 1616 },
    );
  });
  test("seeded random value-dependent unions (discriminators, conditionals, nullable refs)", () => {
    const keys = fc.constantFrom("kind", "a", "b", "__proto__", "n");
    const numberLeaf = fc.constantFrom<unknown>(
      { type: "integer" },
      { type: "number" },
      { type: ["integer", "null"] },
      {},
      { $ref: "#/$defs/Int" },
    );
    const objectArb = (tie: (k: string) => fc.Arbitrary<unknown>) =>
      fc.record(
        {
          type: fc.constant("object"),
          properties: fc.dictionary(keys, tie("node"), { maxKeys: 3 }),
          required: fc.array(keys, { maxLength: 2 }),
          additionalProperties: fc.oneof(fc.constant(true), tie("node")),
        },
        { requiredKeys: ["properties"] },
      );
    const schemaArb = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        numberLeaf,
        objectArb(tie),
        fc
          .record({ anyOf: fc.tuple(objectArb(tie), fc.constant({ type: "null" })) })
          .map((r) => ({ anyOf: [...r.anyOf] })),
        fc.tuple(objectArb(tie), objectArb(tie)).map(([x, y]) => ({
          oneOf: [
            {
              ...(x as object),
              properties: { ...(x as { properties: object }).properties, kind: { const: "x" } },
            },
            {
              ...(y as object),
              properties: { ...(y as { properties: object }).properties, kind: { const: "y" } },
            },
          ],
        })),
        fc.record({
          if: fc.constant({ properties: { kind: { const: "x" } }, required: ["kind"] }),
          // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
          then: objectArb(tie),
          else: objectArb(tie),
        }),
        fc.record({ dependentSchemas: fc.dictionary(keys, objectArb(tie), { maxKeys: 2 }) }),
        fc.record({ items: tie("node") }),
      ),
    })).node;
    const viewsBefore = writerPlans.written.views;
    const valueArb = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom<unknown>(1, 2.5, -0, 2 ** 60, null, "x", "y", true),
        fc.dictionary(keys, tie("v"), { maxKeys: 4 }),
        fc.array(tie("v"), { maxLength: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(
        schemaArb,
        fc.array(fc.dictionary(keys, valueArb, { maxKeys: 4 }), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<Partial<StructToJsonOptions>>({}, { wholeFloats: "integer" }),
        (s, calls, opts) => {
          const schema = {
            $defs: { Int: { type: "integer" } },
            type: "object",
            properties: { p: s, q: { items: s } },
          } as JsonSchema;
          // Several calls through one schema: programs and views built by one call serve the next.
          for (const args of calls) expectSame({ p: args, q: [args, args] }, schema, opts);
        },
      ),
      { numRuns: Number(process.env.WRITER_RUNS ?? 120), seed: 2026 },
    );
    // The cases reach the view programs, not only the walk.
    expect(writerPlans.written.views).toBeGreaterThan(viewsBefore);
  });
});

describe("generated code is safe and bounded", () => {
  const hostileKeys = [
    "__proto__",
    "constructor",
    "prototype",
    'a"b',
    "back\\slash",
    "*/ x /*",
    "\u0024{template}",
    "line\u2028sep\u2029",
    "'); throw 1; ('",
    "lone \ud800",
    "",
  ];

  test("hostile member names in `properties` are data: the code compiles and writes them exactly", () => {
    const properties: Record<string, JsonSchema> = {};
    for (const k of hostileKeys) {
      Object.defineProperty(properties, k, {
        value: { type: "number" },
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const schema = { properties, title: "*/ }); throw new Error(1); //" } as JsonSchema;
    const args: Record<string, unknown> = {};
    for (const [i, k] of hostileKeys.entries()) {
      Object.defineProperty(args, k, {
        value: i,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    const before = writerPlans.written.generated;
    const text = structToJson(args as never, schema);
    expect(text).toBe(JSON.stringify(args).replace(/:(\d+)/g, ":$1.0"));
    if (runtimeAllowsCode()) expect(writerPlans.written.generated).toBe(before + 1);
    expect(Object.prototype).not.toHaveProperty("polluted");
    expectSame(args, schema);
  });

  test("hostile member names written whole (every key present, in order): exactly as data", () => {
    const keys = hostileKeys.filter((k) => k !== "__proto__");
    const properties: Record<string, JsonSchema> = {};
    const args: Record<string, unknown> = {};
    for (const [i, k] of keys.entries()) {
      properties[k] = { type: "number" };
      args[k] = i;
    }
    const text = structToJson(args as never, { properties } as JsonSchema);
    expect(text).toBe(JSON.stringify(args).replace(/:(\d+)/g, ":$1.0"));
    expect(Object.prototype).not.toHaveProperty("polluted");
    expectSame(args, { properties } as JsonSchema);
  });

  test("a schema too large for code is interpreted, and writes the same", () => {
    const properties: Record<string, JsonSchema> = {};
    for (let i = 0; i < MAX_CODE_NODES + 10; i++)
      properties[`k${i}`] = { properties: { x: { type: "number" } } };
    const schema = compileSchema({ properties });
    const program = programOf(rootNode(schema), undefined);
    expect(program).toBeDefined();
    expect(generatedWriter(program!)).toBeUndefined();
    const args = { k0: { x: 1 }, k5: { x: 2.5 }, other: 3 };
    const before = writerPlans.written.interpreted;
    expect(structToJson(args, schema)).toBe('{"k0":{"x":1.0},"k5":{"x":2.5},"other":3}');
    expect(writerPlans.written.interpreted).toBe(before + 1);
  });

  test("a runtime that refuses new Function (CSP without unsafe-eval) gets the interpreter, silently", () => {
    const original = globalThis.Function;
    const refusing = function refusingFunction() {
      throw new EvalError("Refused to evaluate a string as JavaScript");
    } as unknown as FunctionConstructor;
    globalThis.Function = refusing;
    resetCodeDetection();
    try {
      // A schema never compiled before: its program is made now, and interpreted.
      const schema = {
        properties: { refusedA: { type: "number" }, refusedB: { type: "integer" } },
      };
      const before = { ...writerPlans.written };
      expect(structToJson({ refusedA: 1, refusedB: 2 ** 60 }, schema)).toBe(
        '{"refusedA":1.0,"refusedB":1152921504606846976}',
      );
      expect(writerPlans.written).toEqual({ ...before, interpreted: before.interpreted + 1 });
      expect(runtimeAllowsCode()).toBe(false);
    } finally {
      globalThis.Function = original;
      resetCodeDetection();
    }
    expect(runtimeAllowsCode()).toBe(true);
  });
});

describe("a program's total is the bound of every call through it", () => {
  test("a schema whose answers may pass the call budget gets no program; its calls are walked", () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++) {
      properties[`k${i}`] = {
        anyOf: [{ type: "integer" }, { allOf: [{ type: "number" }, { minimum: i }] }],
      };
    }
    const schema = compileSchema({ type: "object", properties } as JsonSchema);
    expect(programOf(rootNode(schema), undefined as PatternEngine | undefined)).toBeUndefined();
    expectSame({ k1: 2 ** 60, k2: 1.5, k3: 3 }, { type: "object", properties } as JsonSchema);
  });
});

describe("objects of value-dependent unions are written by a program per view", () => {
  const shapes: JsonSchema = {
    $defs: {
      Circle: {
        properties: { kind: { const: "circle" }, r: { type: "number" }, id: { type: "integer" } },
        required: ["kind"],
      },
      Square: {
        properties: {
          kind: { const: "square" },
          side: { type: "integer" },
          id: { type: "number" },
        },
        required: ["kind"],
      },
    },
    properties: {
      shapes: { items: { oneOf: [{ $ref: "#/$defs/Circle" }, { $ref: "#/$defs/Square" }] } },
      main: { anyOf: [{ $ref: "#/$defs/Circle" }, { type: "null" }] },
    },
  };
  const conditional: JsonSchema = {
    properties: {
      reading: {
        type: "object",
        if: { properties: { unit: { const: "count" } }, required: ["unit"] },
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
        then: { properties: { v: { type: "integer" } } },
        else: { properties: { v: { type: "number" } } },
      },
      dependent: {
        properties: { v: { type: "number" } },
        dependentSchemas: { exact: { properties: { v: { type: "integer" } } } },
      },
      patterned: {
        anyOf: [
          { patternProperties: { "^n_": { type: "number" } }, required: ["a"] },
          { patternProperties: { "^i_": { type: "integer" } }, required: ["b"] },
        ],
      },
    },
  };

  const shapeArgs: Record<string, unknown>[] = [
    {
      shapes: [
        { kind: "circle", r: 2, id: 2 ** 60 },
        { kind: "square", side: 3, id: 4 },
        { kind: "circle", r: 2.5, id: 7 },
        { kind: "square", side: 2 ** 53 + 2, id: 1 },
        { kind: "triangle", r: 1, side: 1, id: 1 },
        { r: 1, side: 1 },
        { kind: 3, r: 1 },
      ],
      main: { kind: "circle", r: 1, id: 5 },
    },
    { main: null, shapes: [] },
    {
      main: { r: 1 },
      shapes: [
        { kind: "square", side: 1.5 },
        { kind: "square", side: Number.NaN },
      ],
    },
    { main: { kind: "circle", r: 1, extra: { deep: [1, 2.0] } }, shapes: [[{ kind: "circle" }]] },
  ];

  test("discriminated oneOf and nullable refs: every mode, both forms, listener on and off", () => {
    for (const args of shapeArgs) {
      for (const opts of [
        {},
        { wholeFloats: "integer" as const },
        { nonFinite: "null" as const },
      ]) {
        expectSame(args, shapes, opts);
      }
    }
  });

  test("if/then/else, dependentSchemas, patternProperties (with re2 and without an engine)", () => {
    const argsList: Record<string, unknown>[] = [
      {
        reading: { unit: "count", v: 2 ** 60 },
        dependent: { v: 3, exact: true },
        patterned: { a: 1, n_x: 2, i_y: 3 },
      },
      {
        reading: { unit: "kg", v: 3 },
        dependent: { v: 3 },
        patterned: { b: 1, n_x: 2, i_y: 2 ** 53 + 2 },
      },
      {
        reading: { v: 1.5 },
        dependent: { exact: null, v: 1.5 },
        patterned: { a: 1, b: 2, i_z: 4 },
      },
    ];
    for (const args of argsList) {
      expectSame(args, conditional);
      expectSame(args, conditional, { patterns: re2Patterns });
    }
  });

  test("the view path runs: objects of one content in a row, and of many contents", () => {
    const schema = compileSchema(shapes);
    const shapesArg = Array.from({ length: 200 }, (_, i) =>
      i % 3 === 0
        ? { kind: "circle", r: i, id: 2 ** 60 + i * 4096 }
        : { kind: "square", side: i, id: i },
    );
    const expected = (() => {
      setMode("engine");
      try {
        return structToJson({ shapes: shapesArg } as never, schema);
      } finally {
        setMode("generated");
      }
    })();
    for (const mode of ["generated", "interpreted"] as const) {
      setMode(mode);
      const before = { ...writerPlans.written };
      expect(structToJson({ shapes: shapesArg } as never, schema)).toBe(expected);
      expect(writerPlans.written[mode]).toBe(before[mode] + 1);
      expect(writerPlans.written.views).toBe(before.views + 200);
    }
  });

  test.each([
    // A nullable $ref (Pydantic's Optional[Model]): `required` only asks whether `start` is present.
    {
      name: "a required member's value",
      schema: {
        properties: {
          r: {
            anyOf: [
              {
                type: "object",
                properties: { start: { type: "integer" }, end: { type: "integer" } },
                required: ["start"],
              },
              { type: "null" },
            ],
          },
        },
      },
      member: (i: number) => ({ start: i, end: 2 ** 60 + i * 4096 }),
      contents: 1,
    },
    // A discriminator's value picks the branch: each value is a content of its own.
    {
      name: "a discriminator's value",
      schema: {
        properties: {
          r: {
            oneOf: [
              { properties: { kind: { const: "a" }, n: { type: "integer" } }, required: ["kind"] },
              { properties: { kind: { const: "b" }, n: { type: "number" } }, required: ["kind"] },
            ],
          },
        },
      },
      member: (i: number) => ({ kind: i % 2 === 0 ? "a" : "b", n: i }),
      contents: 2,
    },
  ])("view contents: objects differing only in $name", ({ schema, member, contents }) => {
    // Only what a branch predicate reads makes a content: a value asked only for its presence does not.
    const compiled = compileSchema(schema as JsonSchema);
    const program = programOf(rootNode(compiled), undefined)!;
    const node = program.nodes.find((n) => n.views !== undefined)!;
    expect(node.views!.valued).toEqual([schema.properties.r.anyOf === undefined]);
    for (let i = 0; i < 50; i++) {
      const args = { r: member(i) };
      setMode("engine");
      const expected = structToJson(args as never, compiled);
      setMode("generated");
      expect(structToJson(args as never, compiled)).toBe(expected);
    }
    expect(node.views!.contents.size).toBe(contents);
  });

  test("view programs count in the call's budget: near CALL_BUDGET every mode agrees with the engine", () => {
    // A program total near the budget, plus objects of many contents: each content's first object
    // adds its question; past the budget the call must be walked, never written differently.
    const make = (n: number): JsonSchema => {
      const properties: Record<string, unknown> = {
        items: { items: { anyOf: [{ $ref: "#/$defs/R" }, { type: "null" }] } },
      };
      for (let i = 0; i < n; i++) {
        properties[`k${i}`] = {
          anyOf: [{ type: "integer" }, { allOf: [{ type: "number" }, { minimum: i }] }],
        };
      }
      return {
        $defs: {
          R: {
            properties: { start: { type: "integer" }, v: { type: "number" } },
            required: ["start"],
          },
        },
        properties,
      } as JsonSchema;
    };
    // The largest n whose schema still gets a program.
    let n = 64;
    while (programOf(rootNode(compileSchema(make(n * 2))), undefined) !== undefined) n *= 2;
    let lo = n;
    let hi = n * 2;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (programOf(rootNode(compileSchema(make(mid))), undefined) !== undefined) lo = mid;
      else hi = mid;
    }
    let walked = 0;
    for (const size of [lo - 40, lo - 3, lo]) {
      const schema = make(size);
      const items = Array.from({ length: 60 }, (_, i) => (i % 7 === 6 ? null : { start: i, v: 2 }));
      expectSame({ k1: 2 ** 60, k2: 1.5, items }, schema);
      // Past the budget the compiled writer gives the call to the walk.
      const before = writerPlans.written.generated;
      structToJson({ items } as never, schema);
      if (writerPlans.written.generated === before) walked++;
    }
    expect(walked).toBeGreaterThan(0);
  });
});
