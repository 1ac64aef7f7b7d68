import { describe, expect, test } from "vitest";
import { collectDiagnostics } from "../src/diagnostics.js";
import { StructJsonError } from "../src/errors.js";
import { REPAIR_BUDGET } from "../src/repair/budget.js";
import { jsonEqual, lastDuplicate } from "../src/repair/keywords.js";
import { pointsAtSchema } from "../src/repair/prepare-schema.js";
import { repairArguments, repairArgumentsMetered } from "../src/repair/repair-arguments.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { FIELD_SELECTOR, hostileClasses } from "./repair-budget-catalogue.js";

// A guard against a hang only, never a verdict on speed: every case below
// takes well under a second; backtracking or exponential work would take hours.
const HANG_GUARD_MS = 20_000;

describe("repair budget: the catalogue of hostile classes (units exact, codes and paths exact)", () => {
  for (const c of hostileClasses) {
    describe(c.name, () => {
      test.each(c.sizes.map((n, i) => [n, c.units[i]!] as const))(
        `%i ${c.size} → %i units`,
        (n, units) => {
          const k = c.make(n);
          const t = performance.now();
          const { result, units: spent } = repairArgumentsMetered(k.argumentsJson, k.schema);
          expect(performance.now() - t).toBeLessThan(HANG_GUARD_MS);
          if (k.issues === undefined) expect(result.ok).toBe(true);
          else expect(result).toEqual({ ok: false, issues: k.issues });
          expect(spent).toBe(units);
          expect(spent).toBeLessThanOrEqual(REPAIR_BUDGET);
        },
      );
    });
  }

  const linear = hostileClasses.filter((c) => c.linear);
  test.each(linear.map((c) => [c.name, c] as const))(
    "%s: units grow linearly with the size",
    (_name, c) => {
      // The cost of one more unit of size does not grow (5% for key lengths
      // that grow with the count), up to where the budget stops the call.
      const points = c.sizes
        .map((n, i) => ({ n, units: c.units[i]! }))
        .filter((p) => p.units < REPAIR_BUDGET);
      for (let i = 2; i < points.length; i++) {
        const [a, b, d] = [points[i - 2]!, points[i - 1]!, points[i]!];
        const before = (b.units - a.units) / (b.n - a.n);
        const after = (d.units - b.units) / (d.n - b.n);
        expect(after).toBeLessThanOrEqual(before * 1.05);
      }
    },
  );

  test("the issue's cases: each stops at the budget with schema-too-complex, never another code", () => {
    const byName = new Map(hostileClasses.map((c) => [c.name, c]));
    const cases = [
      // An anyOf of 300 pattern branches over a 4 KB string.
      byName.get("anyOf of pattern branches, 4 KB text")!.make(300),
      // A recursive anyOf, 20 levels of arguments (150 bytes).
      byName.get("recursive anyOf (validation doubles per level)")!.make(20),
      // 3,000 branches.
      byName.get("wide anyOf (ajv nests each branch in the previous one)")!.make(3_000),
    ];
    for (const k of cases) {
      expect(repairArguments(k.argumentsJson, k.schema)).toEqual({
        ok: false,
        issues: [{ path: "", keyword: "schema-too-complex" }],
      });
    }
  });

  test("a 160 KB flat schema: schema-too-complex at once, not recursion-limit after a long compile", () => {
    const properties: Record<string, JsonSchema> = {};
    for (let i = 0; i < 1_300; i++) {
      properties[`field_${i}`] = {
        type: "string",
        description: `The field number ${i}.`.repeat(4),
      };
    }
    const schema: JsonSchema = { type: "object", properties };
    expect(JSON.stringify(schema).length).toBeGreaterThan(160_000);
    const { result, units } = repairArgumentsMetered('{"field_0":{"a":{"b":1}}}', schema);
    expect(result).toEqual({ ok: false, issues: [{ path: "", keyword: "schema-too-complex" }] });
    expect(units).toBe(REPAIR_BUDGET);
  });
});

describe("repair budget: the option", () => {
  const schema: JsonSchema = {
    type: "object",
    properties: { s: { type: "string", pattern: "^[a-z]+$" } },
  };
  const args = JSON.stringify({ s: "a".repeat(10_000) });

  test("the default is REPAIR_BUDGET (1,000,000 units)", () => {
    expect(REPAIR_BUDGET).toBe(1_000_000);
    const spent = repairArgumentsMetered(args, schema);
    expect(
      repairArgumentsMetered(args, schema, { budget: undefined as unknown as number }),
    ).toEqual(spent);
    expect(repairArgumentsMetered(args, schema, { budget: REPAIR_BUDGET })).toEqual(spent);
  });

  test("a smaller budget stops the same call with schema-too-complex; a larger one lets it through", () => {
    const { result, units } = repairArgumentsMetered(args, schema);
    expect(result.ok).toBe(true);
    expect(units).toBe(12_331);
    expect(repairArguments(args, schema, { budget: units })).toEqual({
      ok: true,
      argumentsJson: args,
      repairs: [],
    });
    expect(repairArguments(args, schema, { budget: units - 1 })).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-too-complex" }],
    });
    expect(repairArguments(args, schema, { budget: 100 })).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-too-complex" }],
    });
  });

  test.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "1"])(
    "budget %s → option-invalid",
    (budget) => {
      expect(() => repairArguments("{}", {}, { budget: budget as number })).toThrow(
        new StructJsonError("option-invalid", "", "option budget must be a positive integer"),
      );
    },
  );

  test("a schema cannot spend another's budget or stop validation with this package's keywords", () => {
    const schema = {
      type: "object",
      "x-struct-json-bridge-cost": [1e9, 0, 0, 0],
      "x-struct-json-bridge-unevaluated-pattern": true,
      properties: { s: { "x-struct-json-bridge-unevaluated-pattern-properties": true } },
    } as JsonSchema;
    expect(repairArguments('{"s":{"a":"b"}}', schema)).toEqual({
      ok: true,
      argumentsJson: '{"s":{"a":"b"}}',
      repairs: [],
    });
  });

  test("a refused call reports argument-rejected with schema-too-complex, never a value", () => {
    const { list, onDiagnostic } = collectDiagnostics();
    repairArguments(args, schema, { budget: 100, onDiagnostic });
    expect(list).toEqual([{ code: "argument-rejected", path: "", detail: "schema-too-complex" }]);
  });
});

describe("repair budget: no state across calls changes an output", () => {
  const deep = hostileClasses.find((c) => c.name.startsWith("recursive anyOf"))!;

  test("a call after an exhausted one answers as on a fresh schema, byte for byte", () => {
    const shared = deep.make(20).schema;
    const exhausted = repairArgumentsMetered(deep.make(20).argumentsJson, shared);
    expect(exhausted.units).toBe(REPAIR_BUDGET);
    const small = deep.make(4).argumentsJson;
    const after = repairArgumentsMetered(small, shared);
    const fresh = repairArgumentsMetered(small, deep.make(4).schema);
    expect(after).toEqual(fresh);
    expect(JSON.stringify(after.result)).toBe(JSON.stringify(fresh.result));
  });

  test("a schema refused under a small budget is read again under a larger one", () => {
    const schema = deep.make(8).schema;
    const args = deep.make(8).argumentsJson;
    expect(repairArguments(args, schema, { budget: 1_000 })).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-too-complex" }],
    });
    const later = repairArgumentsMetered(args, schema);
    expect(later).toEqual(repairArgumentsMetered(args, deep.make(8).schema));
    expect(later.result.ok).toBe(true);
  });

  test("every call through a cached schema is charged the schema's units again", () => {
    const schema = deep.make(8).schema;
    const args = deep.make(8).argumentsJson;
    const first = repairArgumentsMetered(args, schema).units;
    expect(repairArgumentsMetered(args, schema).units).toBe(first);
    expect(repairArgumentsMetered(args, schema).units).toBe(first);
  });
});

/** The Kubernetes MCP server's tools, whole (descriptions shortened). */
const labelSelector: JsonSchema = {
  type: "string",
  description: "Optional Kubernetes label selector (e.g. 'app=myapp,env=prod')",
  pattern: "^([/_.\\-A-Za-z0-9=, ()!])+$",
};
const fieldSelector: JsonSchema = {
  type: "string",
  description: "Optional Kubernetes field selector (e.g. 'status.phase=Running')",
  pattern: FIELD_SELECTOR,
};
const podsList: JsonSchema = {
  type: "object",
  properties: { labelSelector, fieldSelector },
};
const podsListInNamespace: JsonSchema = {
  type: "object",
  properties: {
    namespace: { type: "string", description: "Namespace to list pods from" },
    labelSelector,
    fieldSelector,
  },
  required: ["namespace"],
};
const resourcesList: JsonSchema = {
  type: "object",
  properties: {
    apiVersion: { type: "string", description: "apiVersion of the resources (e.g. v1, apps/v1)" },
    kind: { type: "string", description: "kind of the resources (e.g. Pod, Deployment)" },
    namespace: { type: "string", description: "Optional namespace" },
    labelSelector,
    fieldSelector,
    limit: { type: "integer", minimum: 1, description: "Optional page size" },
  },
  required: ["apiVersion", "kind"],
};
const eventsList: JsonSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    namespace: { type: "string" },
    selector: { type: "string", pattern: "^([a-z]+=[a-z]+)(,[a-z]+=[a-z]+)*$" },
    tail: { type: "integer", default: 100, minimum: 0 },
    previous: { type: "boolean" },
  },
  additionalProperties: false,
};

describe("real schemas that repair used to refuse (Kubernetes MCP server)", () => {
  const rows: [name: string, schema: JsonSchema, input: string, output: string | undefined][] = [
    ["pods_list, no selector", podsList, "{}", "{}"],
    ["pods_list, label selector only", podsList, '{"labelSelector":"app=web"}', undefined],
    [
      "pods_list, a field selector",
      podsList,
      '{"fieldSelector":"status.phase=Running"}',
      undefined,
    ],
    [
      "pods_list, two field selectors",
      podsList,
      '{"fieldSelector":"status.phase!=Failed,spec.nodeName=node-1"}',
      undefined,
    ],
    [
      "pods_list_in_namespace, a call without fieldSelector",
      podsListInNamespace,
      '{"namespace":"default"}',
      undefined,
    ],
    [
      "resources_list, limit as a string is repaired",
      resourcesList,
      '{"apiVersion":"v1","kind":"Pod","limit":"20","fieldSelector":"metadata.name=web"}',
      '{"apiVersion":"v1","kind":"Pod","limit":20,"fieldSelector":"metadata.name=web"}',
    ],
    [
      "events_list (2020-12), a label pattern and a repaired integer",
      eventsList,
      '{"namespace":"ops","selector":"app=web,tier=front","tail":"50"}',
      '{"namespace":"ops","selector":"app=web,tier=front","tail":50}',
    ],
  ];
  test.each(rows)("%s", (_name, schema, input, output) => {
    const result = repairArguments(input, schema);
    expect(result.ok).toBe(true);
    expect(result.ok && result.argumentsJson).toBe(output ?? input);
  });

  test("a field selector the pattern rejects is a pattern failure at its path", () => {
    expect(repairArguments('{"fieldSelector":"status.phase"}', podsList)).toEqual({
      ok: false,
      issues: [{ path: "/fieldSelector", keyword: "pattern" }],
    });
    expect(repairArguments('{"selector":"app=Web"}', eventsList)).toEqual({
      ok: false,
      issues: [{ path: "/selector", keyword: "pattern" }],
    });
  });
});

describe("patterns the linear-time engine refuses (backreference, lookaround, …)", () => {
  const back = "^(a)\\1$";
  const object = (properties: Record<string, JsonSchema>, more: object = {}): JsonSchema => ({
    type: "object",
    properties,
    ...more,
  });
  const rows: [name: string, schema: JsonSchema, input: string, issues: unknown[] | undefined][] = [
    ["not reached: the member is absent", object({ x: { pattern: back } }), '{"y":1}', undefined],
    [
      "not reached: the value is not a string",
      object({ x: { type: ["string", "integer"], pattern: back } }),
      '{"x":5}',
      undefined,
    ],
    [
      "not reached: an earlier anyOf branch passes",
      object({ x: { anyOf: [{ const: "b" }, { pattern: back }] } }),
      '{"x":"b"}',
      undefined,
    ],
    [
      "not reached: patternProperties on an empty object",
      object({ x: { patternProperties: { "(?<=k)1": { type: "integer" } } } }),
      '{"x":{}}',
      undefined,
    ],
    [
      "reached: a string value",
      object({ x: { type: "string", pattern: back } }),
      '{"x":"aa"}',
      [{ path: "/x", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "reached: under not",
      object({ x: { not: { pattern: "(?=a)" } } }),
      '{"x":"b"}',
      [{ path: "/x", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "reached: a later anyOf branch",
      object({ x: { anyOf: [{ const: "b" }, { pattern: back }] } }),
      '{"x":"c"}',
      [{ path: "/x", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "reached: propertyNames (the member's path)",
      object({ x: { propertyNames: { pattern: "\\k<n>(?<n>a)" } } }),
      '{"x":{"k1":1,"k2":2}}',
      [{ path: "/x/k1", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "reached: patternProperties (the first member's path)",
      object({ x: { patternProperties: { "(?<!a)b": { type: "integer" } } } }),
      '{"x":{"a~b":1,"c":2}}',
      [{ path: "/x/a~0b", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "reached: inside a string's JSON parsed in place (next round)",
      object({ x: { type: "object", properties: { a: { pattern: back } } } }),
      '{"x":"{\\"a\\":\\"q\\"}"}',
      [{ path: "/x/a", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "a Unicode property RE2 lacks, reached",
      object({ x: { pattern: "^\\p{Emoji}$" } }),
      '{"x":"a"}',
      [{ path: "/x", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "a repeat count beyond RE2's (issue 13's example), reached",
      object({ x: { pattern: "^(a{1,1000000000000000000000})*$" } }),
      '{"x":"aaaa"}',
      [{ path: "/x", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "an invalid pattern (\\u{1,30} needs the u flag's syntax), reached",
      object({ x: { pattern: "^(\\u{1,30})*\\a$" } }),
      '{"x":"uuu"}',
      [{ path: "/x", keyword: "schema-pattern-unevaluated" }],
    ],
    [
      "an invalid pattern, not reached",
      object({ x: { pattern: "^(\\u{1,30})*\\a$" } }, { required: [] }),
      '{"y":"uuu"}',
      undefined,
    ],
  ];
  test.each(rows)("%s", (_name, schema, input, issues) => {
    const result = repairArguments(input, schema);
    if (issues === undefined)
      expect(result).toEqual({ ok: true, argumentsJson: input, repairs: [] });
    else expect(result).toEqual({ ok: false, issues });
  });
});

describe("patterns keep their ECMAScript meaning in the linear-time engine", () => {
  // Native RegExp is the oracle here only: test code, tiny strings, patterns
  // without nested quantifiers. src/ never tests input text with it.
  const patterns = [
    "^\\s$",
    "^\\S$",
    "^.$",
    "^[^]$",
    "[]",
    "^\\d+$",
    "^\\w+$",
    "\\bword\\b",
    "^a$",
    "^[\\u0041-\\u005A]+$",
    "^\\u{1F600}$",
    "^[😀-😂]$",
    "^\\x41\\u0042\\cJ$",
    "^[\\-.]+$",
    "^a{2,3}$",
    "^(?:ab|cd)*$",
    "^(?<name>x)y$",
    "^\\p{Lu}\\p{Ll}+$",
    "^[^\\d\\s]+$",
    "^\\/$",
  ];
  const texts = [
    "",
    " ",
    "\u00a0",
    "\ufeff",
    "\u2028",
    "\n",
    "\r",
    "a",
    "a\n",
    "aa",
    "aaa",
    "ab",
    "abcd",
    "😀",
    "😂",
    "\ud83d",
    "\ude00",
    "١٢٣",
    "123",
    "é",
    "word",
    "a word.",
    "ABC",
    "AB\n",
    "xy",
    "Ab",
    "Ünïcode",
    "-.",
    "/",
  ];
  test.each(patterns)("%s", (pattern) => {
    const schema: JsonSchema = { type: "object", properties: { s: { pattern } } };
    const native = new RegExp(pattern, "u");
    for (const text of texts) {
      const result = repairArguments(JSON.stringify({ s: text }), schema);
      expect({ text, ok: result.ok }).toEqual({ text, ok: native.test(text) });
    }
  });
});

describe("const, enum and uniqueItems: JSON equality, whatever the members are called", () => {
  const rows: [name: string, schema: JsonSchema, input: string, issues: unknown[] | undefined][] = [
    ["const object, other key order", { const: { a: 2, b: 1 } }, '{"b":1,"a":2}', undefined],
    [
      "const object, a different value",
      { const: { a: 2 } },
      '{"a":3}',
      [{ path: "", keyword: "const" }],
    ],
    ["enum of objects", { enum: [{ x: [1, { y: null }] }, 5] }, '{"x":[1,{"y":null}]}', undefined],
    ["a member named valueOf", { enum: [{ valueOf: 1 }] }, '{"valueOf":1}', undefined],
    [
      "members named toString and constructor",
      { const: { toString: "x", constructor: 1 } },
      '{"constructor":1,"toString":"x"}',
      undefined,
    ],
    [
      "a member named __proto__",
      { const: JSON.parse('{"__proto__":{"a":1}}') },
      '{"__proto__":{"a":1}}',
      undefined,
    ],
    [
      "__proto__ is not an inherited match",
      { const: JSON.parse('{"__proto__":{"a":1}}') },
      '{"a":1}',
      [{ path: "", keyword: "const" }],
    ],
    [
      "uniqueItems over equal objects in other key orders",
      { properties: { x: { uniqueItems: true } } },
      '{"x":[{"a":1,"b":2},{"b":2,"a":1}]}',
      [{ path: "/x", keyword: "uniqueItems" }],
    ],
    [
      "uniqueItems over distinct objects with valueOf members",
      { properties: { x: { uniqueItems: true } } },
      '{"x":[{"valueOf":1},{"valueOf":2},[1],["1"]]}',
      undefined,
    ],
    [
      "uniqueItems: 1 and 1.0 are one number",
      { properties: { x: { uniqueItems: true } } },
      '{"x":[1,1.0]}',
      [{ path: "/x", keyword: "uniqueItems" }],
    ],
  ];
  test.each(rows)("%s", (_name, schema, input, issues) => {
    const result = repairArguments(input, { type: "object", ...(schema as object) });
    if (issues === undefined)
      expect(result).toEqual({ ok: true, argumentsJson: input, repairs: [] });
    else expect(result).toEqual({ ok: false, issues });
  });

  // ajv's report, by definition: the last item equal to an earlier one, and
  // the latest such earlier item.
  function naiveLastDuplicate(texts: readonly string[]): { i: number; j: number } | undefined {
    for (let i = texts.length - 1; i > 0; i--) {
      for (let j = i - 1; j >= 0; j--) if (texts[i] === texts[j]) return { i, j };
    }
    return undefined;
  }
  // Past 16,383 characters V8 hashes a string by its length alone; such texts
  // are sorted, not hashed, and must be found all the same.
  const long = (tail: string) => `${"a".repeat(17_000)}${tail}`;
  test.each<[string, string[]]>([
    ["none", ["1", "2", long("1"), long("2")]],
    ["short pair", ["1", "2", "1", long("1")]],
    ["long pair", [long("1"), "1", long("2"), long("1"), "2"]],
    ["long pair after a short one", ["1", "1", long("x"), long("x")]],
    ["short pair after a long one", [long("x"), long("x"), "1", "1"]],
    ["three equal long texts", [long("x"), long("y"), long("x"), long("x"), long("y")]],
    ["long texts equal but for their first character", [`b${long("")}`, long("b"), long("b")]],
    ["one long text of each length", [long(""), long("1"), long("12"), long("")]],
  ])("lastDuplicate: %s", (_name, texts) => {
    expect(lastDuplicate(texts)).toEqual(naiveLastDuplicate(texts));
  });

  test("uniqueItems finds equal items past 16,383 characters among many of that length", () => {
    const items = Array.from({ length: 300 }, (_, i) => long(String(i).padStart(4, "0")));
    items.push(items[17]!, items[5]!);
    const result = repairArguments(JSON.stringify({ x: items }), {
      type: "object",
      properties: { x: { uniqueItems: true } },
    });
    expect(result).toEqual({ ok: false, issues: [{ path: "/x", keyword: "uniqueItems" }] });
  });

  test("jsonEqual", () => {
    expect(jsonEqual(0, -0)).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual(Object.create(null), {})).toBe(true);
  });

  test("null-omitted still reads enum/const failures (their params are kept)", () => {
    expect(
      repairArguments('{"x":null}', {
        type: "object",
        properties: { x: { enum: ["a", "b"] } },
      }),
    ).toEqual({ ok: true, argumentsJson: "{}", repairs: [{ path: "/x", kind: "null-omitted" }] });
  });
});

describe("$ref into data is refused: data there carries no cost", () => {
  const rows: [name: string, ref: string, points: boolean][] = [
    ["a definition", "#/definitions/a", true],
    ["a $defs entry", "#/$defs/a", true],
    ["a property named default", "#/properties/default", true],
    ["an anyOf branch", "#/anyOf/0", true],
    ["items as a list", "#/items/0", true],
    ["items as a schema", "#/items/properties/a", true],
    ["an anchor", "#node", true],
    ["another document", "other.json", true],
    ["an unknown keyword's content", "#/x-defs/a", true],
    ["into default", "#/default/a", false],
    ["into a const", "#/properties/x/const", false],
    ["into an enum", "#/enum/0", false],
    ["into examples", "#/examples/0", false],
    ["a map itself", "#/properties", false],
    ["escaped segments", "#/properties/a~1b/default", false],
  ];
  test.each(rows)("%s", (_name, ref, points) => {
    expect(pointsAtSchema(ref)).toBe(points);
  });

  test("a recursive schema hidden in a default is schema-invalid, not unbounded", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: { x: { $ref: "#/default" } },
      default: { anyOf: [{ $ref: "#/default" }, { $ref: "#/default" }] },
    };
    expect(repairArguments('{"x":1}', schema)).toEqual({
      ok: false,
      issues: [{ path: "", keyword: "schema-invalid" }],
    });
  });
});
