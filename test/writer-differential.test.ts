// Issue 16, the writers against each other on arbitrary schemas: the compiled
// writer as generated text code, as generated value code (the form of large
// outputs), as its interpreted program, and in its automatic form (called
// twice, so that the second call takes the form the first one chose), and the
// walk through plans, must each give exactly what the engine alone gives: the
// same text, or the same error (code, path, message), and the same
// diagnostics in the same order. ./writer-modes.test.ts holds the writers to
// the corpus's exact expectations; this holds them to each other where no
// one wrote an expectation.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Struct, Value } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { afterEach, describe, expect, test } from "vitest";
import type { PatternEngine } from "../src/patterns/engine.js";
import { re2Patterns } from "../src/patterns/re2.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { compiledOutput, LARGE_OUTPUT } from "../src/struct/large-output.js";
import { structMessageToJson, structToJson } from "../src/struct/to-json.js";
import type { StructToJsonOptions } from "../src/struct/to-json-options.js";
import { writerPlans } from "../src/struct/writer-plan.js";
import { runs } from "./property-arbitraries.js";
import { argsArb, rootSchemaArb, toObject, toStruct } from "./schema-arbitraries.js";
import { HOSTILE_CASES } from "./schema-budget-catalogue.js";

type Mode = "engine" | "walk" | "interpreted" | "text" | "value" | "auto";

/** How each mode is switched on (the engine alone is the reference). */
const MODES: Record<Mode, () => void> = {
  engine: () => {
    writerPlans.enabled = false;
  },
  walk: () => {
    writerPlans.compiled = "off";
  },
  interpreted: () => {
    writerPlans.compiled = "interpreted";
  },
  text: () => {
    compiledOutput.form = "text";
  },
  value: () => {
    compiledOutput.form = "value";
  },
  auto: () => {},
};

function resetModes(): void {
  writerPlans.enabled = true;
  writerPlans.compiled = "auto";
  compiledOutput.form = "auto";
}

afterEach(resetModes);

/** What one call gave: its text or error, and its diagnostics in order. */
interface Outcome {
  readonly text?: string;
  readonly error?: string;
  readonly diagnostics: readonly string[];
}

function outcome(
  call: (options: Partial<StructToJsonOptions>) => string,
  listen: boolean,
  options: Partial<StructToJsonOptions>,
): Outcome {
  const diagnostics: string[] = [];
  const opts: Partial<StructToJsonOptions> = listen
    ? { ...options, onDiagnostic: (d) => diagnostics.push(`${d.code} ${d.path}`) }
    : options;
  try {
    return { text: call(opts), diagnostics };
  } catch (e) {
    const err = e as { code?: unknown; path?: unknown; message?: unknown };
    return {
      error: `${String(err.code)} ${String(err.path)}: ${String(err.message)}`,
      diagnostics,
    };
  }
}

/** One way of writing the input under test, with the options given. */
type Call = (options: Partial<StructToJsonOptions>) => string;

/** The input in both argument forms: the Struct message, and the JsonObject. */
function argumentForms(schema: JsonSchema, args: JsonObject): Call[] {
  const struct = toStruct(args);
  return [(o) => structMessageToJson(struct, schema, o), (o) => structToJson(args, schema, o)];
}

/**
 * Each mode's outcomes of `calls`, not listening and then listening: one list
 * per call, holding its outcome, and under "auto" a second one (the call made
 * again takes the form its first wanted).
 */
function outcomes(
  calls: readonly Call[],
  options: Partial<StructToJsonOptions>,
): Record<Mode, Outcome[][]> {
  const result = {} as Record<Mode, Outcome[][]>;
  for (const mode of Object.keys(MODES) as Mode[]) {
    resetModes();
    MODES[mode]();
    const list: Outcome[][] = [];
    for (const listen of [false, true]) {
      for (const call of calls) {
        const tries = [outcome(call, listen, options)];
        if (mode === "auto") tries.push(outcome(call, listen, options));
        list.push(tries);
      }
    }
    result[mode] = list;
  }
  return result;
}

function expectAllAlike(calls: readonly Call[], options: Partial<StructToJsonOptions>): void {
  const all = outcomes(calls, options);
  for (const mode of Object.keys(MODES) as Mode[]) {
    all[mode].forEach((tries, k) => {
      for (const [t, mine] of tries.entries()) {
        expect(mine, `${mode} #${k}${t > 0 ? " again" : ""}`).toEqual(all.engine[k]![0]);
      }
    });
  }
}

/** Numbers and strings the writers treat each in their own way. */
const edgeValue = fc.constantFrom<JsonValue>(
  2 ** 53 + 2,
  -(2 ** 60),
  2 ** 64,
  1e21,
  1e300,
  -0,
  0.1,
  3,
  "\u00800",
  "\u0080",
  "x\u2028",
  "\ud800",
  Number.NaN,
  Number.NEGATIVE_INFINITY,
);

/** Arguments with a few edge values among them (added last, so keys stay unique). */
const edgeArgsArb = fc
  .tuple(
    argsArb,
    fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "kind", "z"), edgeValue), { maxLength: 3 }),
  )
  .map(([args, extra]) => {
    const o: [string, JsonValue][] = Object.entries(args) as [string, JsonValue][];
    for (const [k, v] of extra) if (!o.some(([key]) => key === k)) o.push([k, v]);
    return toObject(o) as JsonObject;
  });

const optionsArb = fc.record(
  {
    wholeFloats: fc.constantFrom<"decimal" | "integer">("decimal", "integer"),
    recursionLimit: fc.constantFrom(1, 2, 3, 100),
    nonFinite: fc.constantFrom<"error" | "null">("error", "null"),
    patterns: fc.constantFrom<PatternEngine | undefined>(undefined, re2Patterns),
    indent: fc.constantFrom(0, 2),
  },
  { requiredKeys: [] },
);

// Value-dependent unions, where the compiled writer hands objects to the
// program of their view: branches told apart by required keys, a `kind`
// constant, if/then/else or a discriminator, nested through `$ref`s and
// through schema objects that contain themselves.
const numberSchema = fc.constantFrom<JsonSchema>(
  { type: "integer" },
  { type: "number" },
  { type: ["integer", "null"] },
  { type: "string" },
  {},
);
const CHILD = { $ref: "#" } as const;
const CONDITIONAL = ["if", "then", "else"] as const;

/** One branch: an object schema whose members `n`, `m` get their own types. */
const branchArb = fc
  .record({
    n: numberSchema,
    m: numberSchema,
    required: fc.constantFrom<string[]>([], ["k"], ["j"], ["k", "j"]),
    kind: fc.constantFrom<JsonValue | undefined>(undefined, "x", "y", 0, 1),
    extra: fc.constantFrom<JsonSchema | undefined>(undefined, false, { type: "number" }),
  })
  .map(({ n, m, required, kind, extra }) => {
    const properties: Record<string, JsonSchema> = { n, m, a: CHILD, l: { items: CHILD } };
    if (kind !== undefined) properties.kind = { const: kind };
    const b: Record<string, unknown> = { type: "object", properties, required };
    if (extra !== undefined) b.additionalProperties = extra;
    return b as JsonSchema;
  });

const unionSchemaArb: fc.Arbitrary<JsonSchema> = fc
  .tuple(
    fc.array(branchArb, { minLength: 1, maxLength: 3 }),
    fc.constantFrom("anyOf", "oneOf", "if", "if-kind", "discriminator", "nullable-ref"),
    fc.constantFrom("json", "json", "object-cycle"),
  )
  .map(([branches, how, form]) => {
    let root: Record<string, unknown>;
    switch (how) {
      case "if":
        // From a list of keys: a literal `then` member would make the schema a thenable to the linter.
        root = Object.fromEntries(
          CONDITIONAL.map((k, i) => [k, [{ required: ["k"] }, branches[0], branches.at(-1)][i]]),
        );
        break;
      case "if-kind":
        root = Object.fromEntries(
          CONDITIONAL.map((k, i) => [
            k,
            [{ properties: { kind: { const: 0 } } }, branches[0], branches.at(-1)][i],
          ]),
        );
        break;
      case "discriminator":
        root = {
          oneOf: branches.map((_, i) => ({ $ref: `#/$defs/b${i}` })),
          discriminator: { propertyName: "kind" },
          $defs: Object.fromEntries(branches.map((b, i) => [`b${i}`, b])),
        };
        break;
      case "nullable-ref":
        root = {
          anyOf: [{ $ref: "#/$defs/b0" }, { type: "null" }],
          $defs: { b0: branches[0] },
        };
        break;
      default:
        root = { [how]: [...branches, { type: "null" }] };
    }
    root = JSON.parse(JSON.stringify(root)) as Record<string, unknown>;
    if (form === "object-cycle") {
      // A JS caller can hand over a schema object that contains itself.
      for (const b of [
        ...((root.anyOf ?? root.oneOf ?? []) as Record<string, unknown>[]),
        ...Object.values((root.$defs ?? {}) as Record<string, unknown>),
        root.then,
        root.else,
      ]) {
        const props = (b as { properties?: Record<string, unknown> } | undefined)?.properties;
        if (props !== undefined) props.a = root;
      }
    }
    return root as JsonSchema;
  });

const unionArgsArb: fc.Arbitrary<JsonObject> = fc.letrec<{ object: JsonObject }>((tie) => ({
  object: fc
    .record(
      {
        k: fc.constantFrom<JsonValue>(1, "k", null),
        j: fc.constantFrom<JsonValue>(true, 0),
        kind: fc.constantFrom<JsonValue>("x", "y", "z", 5, 0, -0, 1, true),
        n: fc.constantFrom<JsonValue>(3, 2.5, 2 ** 53 + 2, -0, "s", null),
        m: fc.constantFrom<JsonValue>(7, 0.5, 1e21, null),
        a: fc.oneof({ depthSize: "small" }, fc.constant(null), tie("object")),
        l: fc.array(tie("object"), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    )
    .map((o) => o as JsonObject),
})).object;

/** What the compiled writer wrote so far (a property that never reached it would prove nothing). */
function written(): Record<"generated" | "interpreted" | "views" | "values", number> {
  return { ...writerPlans.written, values: compiledOutput.values };
}

/** Runs `check` and asserts that each of the compiled writer's ways wrote some of its calls. */
function reachingEveryWay(
  ways: readonly (keyof ReturnType<typeof written>)[],
  check: () => void,
): void {
  const before = written();
  check();
  const after = written();
  for (const way of ways) expect(after[way] - before[way], way).toBeGreaterThan(0);
}

describe("the writers agree on arbitrary schemas and arguments", () => {
  test("value-dependent unions: every mode as the engine alone", () => {
    reachingEveryWay(["generated", "interpreted", "views", "values"], () =>
      fc.assert(
        fc.property(unionSchemaArb, unionArgsArb, optionsArb, (schema, args, options) =>
          expectAllAlike(argumentForms(schema, args), options),
        ),
        runs(200, 16_002),
      ),
    );
  });

  test("text, error and diagnostics: every mode as the engine alone", () => {
    reachingEveryWay(["generated", "interpreted", "values"], () =>
      fc.assert(
        fc.property(rootSchemaArb, edgeArgsArb, optionsArb, (schema, args, options) =>
          expectAllAlike(argumentForms(schema, args), options),
        ),
        runs(200, 16_001),
      ),
    );
  });
});
/** Ways a Value message can be malformed (a hand-built or hostile message; never from fromBinary). */
const FORGED_KINDS: readonly (() => unknown)[] = [
  () => undefined,
  () => ({}),
  () => ({ case: undefined }),
  () => ({ case: "numberValue", value: "5" }),
  () => ({ case: "numberValue", value: 2n ** 64n }),
  () => ({ case: "stringValue", value: 5 }),
  () => ({ case: "boolValue", value: "true" }),
  () => ({ case: "nullValue", value: 1 }),
  () => ({ case: "structValue", value: { fields: null } }),
  () => ({ case: "structValue", value: undefined }),
  () => ({ case: "structValue", value: { fields: [] } }),
  () => ({ case: "listValue", value: { values: {} } }),
  () => ({ case: "listValue", value: null }),
  () => ({ case: "bogus", value: 1 }),
];

/** Structs {@link forge} changed (a position past the last Value changes nothing). */
let forgedCount = 0;

/** `struct` with the Value at one position (by index in document order) made malformed, or replaced by null. */
function forge(struct: Struct, at: number, how: number): Struct {
  let i = 0;
  const visit = (v: Value): Value | null => {
    if (i++ === at) {
      forgedCount++;
      if (how === FORGED_KINDS.length) return null;
      return { ...v, kind: FORGED_KINDS[how]!() } as Value;
    }
    const k = v.kind;
    if (k.case === "structValue")
      return {
        ...v,
        kind: { case: k.case, value: { ...k.value, fields: mapFields(k.value.fields) } },
      };
    if (k.case === "listValue")
      return {
        ...v,
        kind: { case: k.case, value: { ...k.value, values: k.value.values.map(visit) as Value[] } },
      };
    return v;
  };
  const mapFields = (fields: Record<string, Value>): Record<string, Value> => {
    const out: Record<string, Value> = {};
    for (const key of Object.keys(fields)) {
      Object.defineProperty(out, key, {
        value: visit(fields[key]!),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return { ...struct, fields: mapFields(struct.fields) };
}

describe("the writers agree on malformed Struct messages", () => {
  test("a malformed Value anywhere: every mode as the engine alone", () => {
    reachingEveryWay(["generated", "interpreted"], () =>
      fc.assert(
        fc.property(
          fc.oneof(rootSchemaArb, unionSchemaArb),
          fc.oneof(edgeArgsArb, unionArgsArb),
          fc.nat(40),
          fc.nat(FORGED_KINDS.length),
          fc.constantFrom<"error" | "null">("error", "null"),
          (schema, args, at, how, unsetValue) => {
            const forged = forge(toStruct(args), at, how);
            expectAllAlike([(o) => structMessageToJson(forged, schema, o)], { unsetValue });
          },
        ),
        runs(200, 16_003),
      ),
    );
    expect(forgedCount).toBeGreaterThan(50);
  });
});

describe("the writers agree on the hostile catalogue, budget verdicts included", () => {
  // Issue 13's inputs built to exhaust the budget: a compiled writer must give up (and the walk
  // report) exactly where the engine does, at the catalogue's two smaller sizes.
  test.each(HOSTILE_CASES.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    for (const size of c.sizes.slice(0, 2)) {
      const { schema, args } = c.make(size);
      if (typeof args !== "object" || args === null || Array.isArray(args)) continue;
      expectAllAlike(argumentForms(schema, args as JsonObject), {
        patterns: c.patterns ?? undefined,
      });
    }
  });
});

describe("the writers agree past the size where outputs are written natively", () => {
  test("a call longer than LARGE_OUTPUT: every mode as the engine alone", () => {
    const schema = JSON.parse(
      '{"properties":{"rows":{"items":{"anyOf":[{"required":["k"],"properties":{"n":{"type":"number"}}},{"properties":{"n":{"type":"integer"}}}]}}}}',
    ) as JsonSchema;
    const rows: JsonValue[] = [];
    for (let i = 0; i < 6000; i++) {
      rows.push(
        i % 2 === 0
          ? { k: i, n: i, s: `row ${i} \u00e9\u6771 ${"x".repeat(40)}` }
          : { n: i % 7 === 0 ? 2 ** 53 + 2 * i : i + 0.5, s: `\u0080${i}` },
      );
    }
    const args = { rows } as JsonObject;
    expect(JSON.stringify(args).length).toBeGreaterThan(LARGE_OUTPUT);
    reachingEveryWay(["values"], () => {
      expectAllAlike(argumentForms(schema, args), {});
      expectAllAlike(argumentForms(schema, args), { wholeFloats: "integer" });
    });
  });
});

describe("a recursive schema: each level chooses its branch by its own content", () => {
  // A Pydantic tree: `class Node: v: int; w: float; child: Node | None`.
  const tree = JSON.parse(
    '{"$defs":{"Node":{"type":"object","properties":{"v":{"type":"integer"},"w":{"type":"number"},"child":{"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}},"required":["v"]}},"anyOf":[{"$ref":"#/$defs/Node"},{"type":"null"}]}',
  ) as JsonSchema;
  /** Levels from the root down, each the parent of the next. */
  const nest = (levels: readonly Record<string, JsonValue>[]): JsonObject => {
    let child: JsonValue = null;
    for (let i = levels.length - 1; i >= 0; i--) child = { ...levels[i], child };
    return child as JsonObject;
  };
  test.each([
    {
      name: "every level a Node",
      args: nest([
        { v: 1, w: 2 },
        { v: 2, w: 2.5 },
        { v: 3, w: 3 },
        { v: 4, w: 4 },
      ]),
      want: {
        text: '{"v":1,"w":2.0,"child":{"v":2,"w":2.5,"child":{"v":3,"w":3.0,"child":{"v":4,"w":4.0,"child":null}}}}',
        diagnostics: [],
      },
    },
    {
      // Written with the root's branch before session 7: no diagnostic.
      name: "a level without its required member: below it, integers are ambiguous",
      args: nest([{ v: 1, w: 2 }, { v: 2, w: 2.5 }, { w: 3 }, { v: 4, w: 4 }]),
      want: {
        text: '{"v":1,"w":2.0,"child":{"v":2,"w":2.5,"child":{"w":3.0,"child":{"v":4,"w":4.0,"child":null}}}}',
        diagnostics: ["ambiguous-number /child/child/child/v"],
      },
    },
    {
      name: "a non-finite number four levels down",
      args: nest([
        { v: 1, w: 2 },
        { v: 2, w: 2.5 },
        { v: 3, w: 3 },
        { v: 4, w: Number.NaN },
      ]),
      want: {
        error:
          "non-finite-number /child/child/child/w: non-finite-number at /child/child/child/w: NaN and Infinity have no JSON form",
        diagnostics: [],
      },
    },
  ])("$name", ({ args, want }) => {
    const all = outcomes(argumentForms(tree, args), {});
    for (const mode of Object.keys(MODES) as Mode[]) expect(all[mode][2]![0], mode).toEqual(want);
  });

  test("a call made from inside another call's nested level writes with its own options", () => {
    // The inner call enters the same compiled code while the outer one is inside it.
    let inner: string | undefined;
    const level3: Record<string, JsonValue> = { v: 3, child: null };
    Object.defineProperty(level3, "w", {
      enumerable: true,
      get() {
        inner = structToJson(
          nest([
            { v: 7, w: 7 },
            { v: 8, w: 8 },
          ]),
          tree,
          {
            wholeFloats: "integer",
          },
        );
        return 3;
      },
    });
    const args = { v: 1, w: 1, child: { v: 2, w: 2, child: level3 } } as unknown as JsonObject;
    for (const mode of Object.keys(MODES) as Mode[]) {
      resetModes();
      MODES[mode]();
      inner = undefined;
      expect(structToJson(args, tree), mode).toBe(
        '{"v":1,"w":1.0,"child":{"v":2,"w":2.0,"child":{"v":3,"child":null,"w":3.0}}}',
      );
      expect(inner, mode).toBe('{"v":7,"w":7,"child":{"v":8,"w":8,"child":null}}');
    }
  });
});

// Shrunk counterexamples of the properties above, kept as named regressions
// with their exact output (the engine's), through every mode.
describe("regressions found by these properties", () => {
  /** A schema object that contains itself as the schema of member `a` of each branch. */
  const selfContaining = (): JsonSchema => {
    const s = JSON.parse(
      '{"anyOf":[{"required":["k"],"properties":{"n":{"type":"number"}}},{"required":["j"],"properties":{"n":{"type":"integer"}}}]}',
    ) as { anyOf: { properties: Record<string, unknown> }[] };
    for (const b of s.anyOf) b.properties.a = s;
    return s as JsonSchema;
  };
  const cyclicAnyOf = (): JsonSchema => {
    const s = JSON.parse(
      '{"anyOf":[{"$recursiveRef":"#/$defs/b"},{"type":"integer"}],"$defs":{"b":{"required":["0"]}}}',
    ) as Record<string, unknown>;
    s.properties = { a: s };
    return s as JsonSchema;
  };
  const B1 = '{"properties":{"m":{"type":"integer"},"a":{"$ref":"#"},"kind":{"const":"x"}}}';
  const B2 = '{"properties":{"m":{},"a":{"$ref":"#"}}}';
  test.each([
    {
      // Seed 19001: an object nested in a view program, whose member schema
      // is the schema's root, was written with the outer object's view.
      name: "a nested object takes its own view, not its parent's (JSON schema, $ref to the root)",
      schema: () => JSON.parse(`{"anyOf":[${B1},${B2}]}`) as JsonSchema,
      args: { a: { a: { kind: 5, m: 1e21 } } },
      text: '{"a":{"a":{"kind":5,"m":1e+21}}}',
      diagnostics: [],
    },
    {
      name: "a nested object takes its own view (a schema object that contains itself)",
      schema: selfContaining,
      args: { k: 1, n: 3, a: { j: 1, n: 3 } },
      text: '{"k":1,"n":3.0,"a":{"j":1,"n":3}}',
      diagnostics: [],
    },
    {
      // Seed 3000 (×50 runs): the view root's own number answers were read for a member at the same schema.
      name: "a number whose schema is the view's root is read and reported as the engine does",
      schema: cyclicAnyOf,
      args: { a: 9007199254740994 },
      text: '{"a":9007199254740994}',
      diagnostics: ["ambiguous-number /a", "integer-precision-lost /a"],
    },
  ])("$name", ({ schema, args, text, diagnostics }) => {
    const s = schema();
    const all = outcomes(argumentForms(s, args as JsonObject), {});
    for (const mode of Object.keys(MODES) as Mode[]) {
      expect(all[mode][0]![0], mode).toEqual({ text, diagnostics: [] });
      expect(all[mode][2]![0], mode).toEqual({ text, diagnostics });
    }
  });
});
