// Issue 7, hostile tool schemas (they come from third-party MCP servers):
// $ref cycles, 10,000-way anyOf, 30 levels of nested anyOf, patterns that
// would backtrack catastrophically (tested in linear time by re2js, issue 13),
// remote $refs (never fetched), prototype-named members and a polluted
// Object.prototype. Each test pins the exact output and diagnostics, and
// bounds the time. The budget catalogue is test/schema-budget.test.ts.
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { describe, expect, test, vi } from "vitest";
import type { PatternEngine } from "../src/patterns/engine.js";
import { re2Patterns } from "../src/patterns/re2.js";
import { compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { structMessageFromJson } from "../src/struct/from-json.js";
import { inspectNumbers, structMessageToJson } from "../src/struct/to-json.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import { BOUND, timed } from "./hostile-helpers.js";

/** Decodes `args` (JSON text) under `schema`; returns the text and the diagnostics as "code path". */
function decode(
  schema: unknown,
  args: string,
  patterns?: PatternEngine,
): { out: string; notes: string[]; ms: number } {
  const notes: string[] = [];
  const struct = structMessageFromJson(args);
  const { result, ms } = timed(() =>
    structMessageToJson(struct, schema as JsonSchema, {
      onDiagnostic: (d) => notes.push(`${d.code} ${d.path}`),
      patterns,
    }),
  );
  return { out: result, notes, ms };
}

describe("$ref cycles", () => {
  const rows: [name: string, schema: unknown, args: string, out: string, notes?: string[]][] = [
    ["the root refers to itself", { $ref: "#" }, '{"a":1,"b":[2.5]}', '{"a":1,"b":[2.5]}'],
    [
      "itself beside a real keyword",
      { $ref: "#", type: "object", properties: { a: { type: "number" } } },
      '{"a":1}',
      '{"a":1.0}',
    ],
    [
      "a ↔ b",
      {
        $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } },
        properties: { x: { $ref: "#/$defs/a" } },
      },
      '{"x":1}',
      '{"x":1}',
    ],
    [
      "allOf containing itself",
      { allOf: [{ $ref: "#" }], properties: { x: { type: "integer" } } },
      '{"x":1.0}',
      '{"x":1}',
    ],
    [
      "anyOf containing itself",
      { anyOf: [{ $ref: "#" }, { properties: { x: { type: "number" } } }] },
      '{"x":1}',
      '{"x":1.0}',
    ],
    [
      "an anchor whose anyOf refers to the anchor",
      {
        $defs: { a: { $anchor: "A", anyOf: [{ $ref: "#A" }, { type: "integer" }] } },
        properties: { x: { $ref: "#A" } },
      },
      '{"x":1.0}',
      '{"x":1}',
    ],
    [
      "$dynamicRef to the root's own $dynamicAnchor",
      {
        $dynamicAnchor: "n",
        properties: { x: { $dynamicRef: "#n" }, v: { type: "number" } },
      },
      '{"x":{"x":{"v":1}},"v":2}',
      '{"x":{"x":{"v":1.0}},"v":2.0}',
    ],
    [
      "a recursive tree over data 40 levels deep",
      {
        type: "object",
        properties: { v: { type: "number" }, kids: { type: "array", items: { $ref: "#" } } },
      },
      (() => {
        let t = '{"v":0}';
        for (let i = 0; i < 23; i++) t = `{"v":${i},"kids":[${t}]}`;
        return t;
      })(),
      (() => {
        let t = '{"v":0.0}';
        for (let i = 0; i < 23; i++) t = `{"v":${i}.0,"kids":[${t}]}`;
        return t;
      })(),
    ],
  ];
  for (const [name, schema, args, out, notes = []] of rows) {
    test(name, () => {
      const r = decode(schema, args);
      expect(r.out).toBe(out);
      expect(r.notes).toEqual(notes);
      expect(r.ms).toBeLessThan(BOUND.fast);
    });
  }

  test("a real object cycle (a JS caller's schema): terminates", () => {
    const schema: Record<string, unknown> = { type: "object" };
    schema.properties = { self: schema, n: { type: "number" } };
    const r = decode(schema, '{"self":{"self":{"n":1}},"n":2}');
    expect(r.out).toBe('{"self":{"self":{"n":1.0}},"n":2.0}');
    expect(r.ms).toBeLessThan(BOUND.fast);
  });
});

describe("10,000-way anyOf", () => {
  test("10,000 identical integer branches: read as integer", () => {
    const schema = {
      properties: { a: { anyOf: Array.from({ length: 10_000 }, () => ({ type: "integer" })) } },
    };
    const r = decode(schema, '{"a":1.0}');
    expect(r.out).toBe('{"a":1}');
    expect(r.notes).toEqual([]);
    expect(r.ms).toBeLessThan(BOUND.big);
  });

  test("10,000 distinct object branches past the work budget: schema-too-complex at the object, values untouched", () => {
    const schema = {
      anyOf: Array.from({ length: 10_000 }, (_, i) => ({
        type: "object",
        properties: { a: { type: i % 2 ? "integer" : "number" }, [`k${i}`]: { const: i } },
        required: [`k${i}`],
      })),
    };
    const r = decode(schema, '{"a":1,"b":{"c":2.0}}');
    expect(r.out).toBe('{"a":1,"b":{"c":2}}');
    expect(r.notes).toEqual(["schema-too-complex "]);
    expect(r.ms).toBeLessThan(BOUND.big);
    // The failure is not remembered (issue 13: no call's output depends on
    // another): the next call reads the schema again, within its own budget.
    const again = decode(schema, '{"a":1,"b":{"c":2.0}}');
    expect({ out: again.out, notes: again.notes }).toEqual({ out: r.out, notes: r.notes });
    expect(again.ms).toBeLessThan(BOUND.big);
  });
});

describe("30 levels of nested anyOf", () => {
  test("shared branches (2^30 paths): read once per node", () => {
    let n: unknown = { type: "integer" };
    for (let i = 0; i < 30; i++) n = { anyOf: [n, { anyOf: [n, { type: "null" }] }] };
    const r = decode({ properties: { a: n } }, '{"a":1.0}');
    expect(r.out).toBe('{"a":1}');
    expect(r.notes).toEqual([]);
    expect(r.ms).toBeLessThan(BOUND.fast);
  });

  test("object branches nested 30 deep, over data 30 deep", () => {
    let n: unknown = { type: "integer" };
    for (let i = 0; i < 30; i++) {
      n = {
        anyOf: [
          { type: "object", properties: { x: n }, required: ["x"] },
          { type: "object", properties: { y: n }, required: ["y"] },
        ],
      };
    }
    let args = "1.0";
    for (let i = 0; i < 30; i++) args = `{"x":${args}}`;
    const r = decode({ properties: { a: n } }, `{"a":${args}}`);
    expect(r.out).toBe(`{"a":${args.replace("1.0", "1")}}`);
    expect(r.notes).toEqual([]);
    expect(r.ms).toBeLessThan(BOUND.fast);
  });

  test("integer and number mixed at every level: ambiguous", () => {
    let n: unknown = { type: "number" };
    for (let i = 0; i < 30; i++)
      n = { anyOf: [{ anyOf: [n, { type: "integer" }] }, { allOf: [n] }] };
    const r = decode({ properties: { a: n } }, '{"a":1,"b":2}');
    expect(r.out).toBe('{"a":1,"b":2}');
    expect(r.notes).toEqual(["ambiguous-number /a"]);
    expect(r.ms).toBeLessThan(BOUND.fast);
  });
});

describe("hostile if conditions: read within their own budget, else undecided (both branches)", () => {
  const then = { properties: { n: { type: "integer" } } };
  const otherwise = { properties: { n: { type: "number" } } };
  let deep: unknown = { properties: { kind: { const: "a" } }, required: ["kind"] };
  for (let i = 0; i < 100_000; i++) deep = { not: deep };
  const names = Array.from({ length: 100_000 }, (_, i) => `k${i}`);
  const rows: [name: string, schema: unknown, out: string, notes: string[]][] = [
    [
      "an if 100,000 `not`s deep",
      { if: deep, then, else: otherwise },
      '{"kind":"a","n":1}',
      ["ambiguous-number /n"],
    ],
    [
      "an if with 100,000 properties",
      { if: { properties: Object.fromEntries(names.map((k) => [k, { const: "a" }])) }, then },
      '{"kind":"a","n":1}',
      ["ambiguous-number /n"],
    ],
    [
      "an if with a 100,000-member enum",
      { if: { properties: { kind: { enum: names } } }, then, else: otherwise },
      '{"kind":"a","n":1}',
      ["ambiguous-number /n"],
    ],
    [
      "an if that refers to its own object",
      { $defs: { c: { if: { $ref: "#/$defs/c" }, then, else: otherwise } }, $ref: "#/$defs/c" },
      '{"kind":"a","n":1}',
      ["ambiguous-number /n"],
    ],
  ];
  for (const [name, schema, out, notes] of rows) {
    test(name, () => {
      const r = decode(schema, '{"kind":"a","n":1}');
      expect({ out: r.out, notes: r.notes }).toEqual({ out, notes });
      expect(r.ms).toBeLessThan(BOUND.big);
    });
  }
});

describe("patternProperties that backtrack catastrophically in JavaScript: linear in re2js", () => {
  const evilKey = `${"a".repeat(40)}!`;
  const longKey = `${"a".repeat(4000)}!`;
  const rows: [name: string, pattern: string, args: Record<string, number>, notes: string[]][] = [
    ["nested quantifier (a+)+", "^(a+)+$", { [evilKey]: 1, [longKey]: 2 }, []],
    ["alternation under a star (a|aa)*", "^(a|aa)*$", { [evilKey]: 1, [longKey]: 2 }, []],
    // A large program (weight 26) on a 4 KB key costs more than a call's budget.
    [
      "nested bounded repeats",
      "^(a{1,20}){1,40}$",
      { [evilKey]: 1, [longKey]: 2 },
      [`schema-too-complex /${longKey}`],
    ],
    ["a backreference: refused", "(a)\\1", { aa: 1 }, ["schema-pattern-unevaluated /aa"]],
    ["a lookahead: refused", "^(?=a)a+$", { aa: 1 }, ["schema-pattern-unevaluated /aa"]],
    ["four unbounded quantifiers", "a*a*a*a*b", { [evilKey]: 1, [longKey]: 2 }, []],
    ["longer than 256 characters", "a".repeat(257), { a: 1 }, []],
    ["three unbounded quantifiers", "^a*a*a*b$", { ["a".repeat(49)]: 1, aab: 2 }, []],
    [
      "eight a{0,30} in a row",
      `^${"a{0,30}".repeat(8)}b`,
      { [evilKey]: 1, [longKey]: 2 },
      [`schema-too-complex /${longKey}`],
    ],
    [
      "36 optional a's then 36 a's",
      `^${"a?".repeat(36)}${"a".repeat(36)}$`,
      { [evilKey]: 1, [longKey]: 2 },
      [],
    ],
    ["30 two-way alternations", `^${"(?:a|a)".repeat(30)}b`, { [evilKey]: 1, [longKey]: 2 }, []],
    [
      "a quantifier too long for a 24-character screen",
      "^(a{1,1000000000000000000000})*$",
      { [evilKey]: 1 },
      [`schema-pattern-unevaluated /${evilKey}`],
    ],
    [
      "\\u{1,30} without the u flag",
      "^(\\u{1,30})*\\a$",
      { uu: 1 },
      ["schema-pattern-unevaluated /uu"],
    ],
  ];
  for (const [name, pattern, args, notes] of rows) {
    test(name, () => {
      const schema = JSON.parse(
        JSON.stringify({ patternProperties: { [pattern]: { type: "integer" } } }),
      );
      const r = decode(schema, JSON.stringify(args), re2Patterns);
      expect(r.out).toBe(JSON.stringify(args));
      expect(r.notes).toEqual(notes);
      expect(r.ms).toBeLessThan(BOUND.fast);
      // Without an engine, every member such a pattern could decide reads unknown, with a note.
      const bare = decode(schema, JSON.stringify(args));
      expect(bare.out).toBe(JSON.stringify(args));
      expect(bare.notes).toEqual(
        Object.keys(args).map((k) => `schema-pattern-unevaluated /${k.replace(/~/g, "~0")}`),
      );
    });
  }

  test("matching keys get the pattern's reading, on the longest keys too", () => {
    for (const pattern of [
      "^\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}$",
      "^(foo|bar|baz)_[0-9]+$",
      "a{0,31}a{0,31}a{0,3}b",
      "a?a?a?a?a?a?a?a?a?a?a?a?b",
      "^[a-z]{2,8}-[0-9a-f]{8}$",
      "^(a+)+b$",
    ]) {
      const schema = { patternProperties: { [pattern]: { type: "number" } } };
      const keys = ["10.0.0.1", "bar_12", "ab", "aab", "ab-0123abcd", `${"a".repeat(4096)}b`];
      const args = JSON.stringify(Object.fromEntries(keys.map((k) => [k, 1])));
      const r = decode(schema, args, re2Patterns);
      const native = new RegExp(pattern, "u");
      const expected = Object.fromEntries(keys.map((k) => [k, native.test(k) ? "1.0" : "1"]));
      expect(r.out, pattern).toBe(
        `{${keys.map((k) => `${JSON.stringify(k)}:${expected[k]}`).join(",")}}`,
      );
      expect(r.ms, pattern).toBeLessThan(BOUND.fast);
    }
  });
});

describe("a union branch with a huge keyword list: its check costs time linear in the list", () => {
  // Each list member is one part of the branch's check, built outside any budget: combining
  // 150,000 of them took 20 s (every part compared with every earlier one).
  const names = Array.from({ length: 150_000 }, (_, i) => `k${i}`);
  const integer = { properties: { n: { type: "integer" } }, required: ["n"] };
  const rows: [name: string, branch: unknown][] = [
    ["required: 150,000 names", { required: names }],
    ["enum: 150,000 objects", { enum: names.map((k) => ({ [k]: 1 })) }],
  ];
  test.each(rows)("%s", (_name, branch) => {
    const r = decode({ anyOf: [branch, integer] }, '{"n":1}');
    expect({ out: r.out, notes: r.notes }).toEqual({
      out: '{"n":1}',
      notes: ["ambiguous-number /n"],
    });
    expect(r.ms).toBeLessThan(BOUND.fast);
  });
});

describe("many unevaluatedProperties that apply only where some branches hold", () => {
  // Each such schema object doubles the readings of a member (with and without
  // it): merged readings are kept once, and each doubling is charged, so 200 of
  // them end in milliseconds, never in exponential work (a session-18 version
  // ran out of memory at 27 when the readings merged).
  const items = (unevaluated: (i: number) => unknown) => ({
    allOf: Array.from({ length: 200 }, (_, i) => ({
      anyOf: [{ properties: { a: { description: "x" } } }, { required: ["b"] }],
      unevaluatedProperties: unevaluated(i),
    })),
  });
  test.each([
    ["readings that merge (annotations only)", items(() => ({ description: "y" })), []],
    [
      "distinct readings: schema-too-complex at the budget",
      items((i) => ({ type: "number", minimum: i })),
      ["schema-too-complex /a", "schema-too-complex /b"],
    ],
  ])("%s", (_name, schema, notes) => {
    const r = decode(schema, '{"a":5,"b":1}');
    expect({ out: r.out, notes: r.notes }).toEqual({ out: '{"a":5,"b":1}', notes });
    expect(r.ms).toBeLessThan(BOUND.fast); // a hang guard, not a speed check
  });
});

describe("remote $ref is never fetched", () => {
  test("no fetch, no http(s) request, no connection reaches a server: schema-ref-unresolved", async () => {
    let requests = 0;
    const server = http.createServer((_req, res) => {
      requests++;
      res.setHeader("content-type", "application/schema+json");
      res.end('{"type":"integer"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const fetchSpy = vi.fn(() => Promise.reject(new Error("no network in tests")));
    vi.stubGlobal("fetch", fetchSpy);
    const spies = [
      vi.spyOn(http, "request"),
      vi.spyOn(http, "get"),
      vi.spyOn(https, "request"),
      vi.spyOn(https, "get"),
    ];
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const rows: [schema: unknown, args: string, out: string, notes: string[]][] = [
        [
          {
            type: "object",
            properties: { x: { $ref: `${base}/int.json` }, y: { type: "number" } },
          },
          '{"x":1.0,"y":2}',
          '{"x":1,"y":2.0}',
          ["schema-ref-unresolved /x"],
        ],
        [{ $ref: `${base}/int.json` }, '{"x":1}', '{"x":1}', ["schema-ref-unresolved "]],
        [
          { $id: `${base}/root.json`, properties: { x: { $ref: "other.json#/a" } } },
          '{"x":[1]}',
          '{"x":[1]}',
          ["schema-ref-unresolved /x"],
        ],
        [
          {
            properties: {
              x: { $dynamicRef: `${base.replace("http", "https")}/d.json#n` },
              l: { items: { $ref: `${base}/int.json` } },
            },
          },
          '{"x":1,"l":[1,2]}',
          '{"x":1,"l":[1,2]}',
          ["schema-ref-unresolved /x", "schema-ref-unresolved /l/0", "schema-ref-unresolved /l/1"],
        ],
        [
          {
            $schema: `${base}/meta.json`,
            allOf: [{ $ref: `${base}/int.json` }],
            properties: { y: { type: "number" } },
          },
          '{"y":2}',
          '{"y":2.0}',
          ["schema-ref-unresolved "],
        ],
      ];
      for (const [schema, args, out, notes] of rows) {
        const r = decode(schema, args);
        expect(r.out).toBe(out);
        expect(r.notes).toEqual(notes);
        compileSchema(schema as JsonSchema);
        inspectNumbers(
          toolCallFromJson({ name: "t", argumentsJson: args }).args ?? {},
          schema as JsonSchema,
        );
        // The raw-text path reads the schema too (integer-written-as-float).
        const call = toolCallFromJson({ name: "t", argumentsJson: args });
        expect(toolCallToJson(call, schema as JsonSchema)).toBe(args);
      }
      // Give any stray request time to arrive.
      await new Promise((r) => setTimeout(r, 100));
      expect(requests).toBe(0);
      expect(fetchSpy).not.toHaveBeenCalled();
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
      vi.unstubAllGlobals();
      await new Promise((r) => server.close(r));
    }
  });
});

describe("prototype-named members and a polluted Object.prototype", () => {
  test("properties named __proto__, constructor, toString (schema from JSON text) apply to those members", () => {
    const schema = JSON.parse(
      '{"properties":{"__proto__":{"type":"number"},"constructor":{"type":"integer"},"toString":{"$ref":"#/$defs/__proto__"}},"$defs":{"__proto__":{"type":"number"}}}',
    );
    const r = decode(schema, '{"__proto__":5,"constructor":6.0,"toString":7,"other":8.0}');
    expect(r.out).toBe('{"__proto__":5.0,"constructor":6,"toString":7.0,"other":8}');
    expect(r.notes).toEqual([]);
  });

  test("a schema written as a JS literal with __proto__ (its prototype, not a member) describes no member", () => {
    const schema = { properties: { __proto__: { type: "number" } } } as unknown as JsonSchema;
    const r = decode(schema, '{"__proto__":5,"type":1.0}');
    expect(r.out).toBe('{"__proto__":5,"type":1}');
  });

  test("keywords inherited from a polluted Object.prototype are ignored", () => {
    const proto = Object.prototype as Record<string, unknown>;
    const polluted = ["type", "properties", "additionalProperties", "$ref", "anyOf", "items"];
    try {
      proto.type = "number";
      proto.properties = { a: { type: "number" } };
      proto.additionalProperties = { type: "number" };
      proto.$ref = "#/nowhere";
      proto.anyOf = [{ type: "number" }];
      proto.items = { type: "number" };
      const r = decode({ properties: { b: { type: "integer" } } }, '{"a":1,"b":2.0,"c":[3]}');
      expect(r.out).toBe('{"a":1,"b":2,"c":[3]}');
      expect(r.notes).toEqual([]);
    } finally {
      for (const k of polluted) delete proto[k];
    }
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  test("decoding with such schemas changes no prototype", () => {
    const schema = JSON.parse(
      '{"properties":{"__proto__":{"properties":{"polluted":{"type":"integer"}}}},"patternProperties":{"^__":{"type":"integer"}}}',
    );
    decode(schema, '{"__proto__":{"polluted":1},"__x":2}', re2Patterns);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
