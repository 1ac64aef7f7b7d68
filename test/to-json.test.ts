// structToJson: the Struct → JSON writer. Structs are built the way a server
// does (fromJson(StructSchema, JSON.parse(text))) and sent through binary.

import { readFileSync } from "node:fs";
import { create, fromBinary, fromJson, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { type Struct, StructSchema, ValueSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, test } from "vitest";
import type { Diagnostic } from "../src/diagnostics.js";
import { StructJsonError } from "../src/errors.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { inspectNumbers, structMessageToJson, structToJson } from "../src/struct/to-json.js";

function serverStruct(text: string): Struct {
  const s = fromJson(StructSchema, JSON.parse(text));
  return fromBinary(StructSchema, toBinary(StructSchema, s));
}

function run(text: string, schema?: JsonSchema | null, options = {}) {
  const diagnostics: Diagnostic[] = [];
  const json = structMessageToJson(serverStruct(text), schema, {
    ...options,
    onDiagnostic: (d) => diagnostics.push(d),
  });
  return { json, diagnostics: diagnostics.map((d) => `${d.path} ${d.code}`) };
}

const obj = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: "object",
  properties,
});

describe("seed table", () => {
  const rows: { args: string; schema: JsonSchema | null; out: string; diags?: string[] }[] = [
    { args: '{"line": 5}', schema: obj({ line: { type: "integer" } }), out: '{"line":5}' },
    {
      args: '{"line": 5.5}',
      schema: obj({ line: { type: "integer" } }),
      out: '{"line":5.5}',
      diags: ["/line not-an-integer"],
    },
    { args: '{"temp": 1.0}', schema: obj({ temp: { type: "number" } }), out: '{"temp":1.0}' },
    { args: '{"name": "foo"}', schema: obj({ name: { type: "string" } }), out: '{"name":"foo"}' },
    { args: '{"x": 1.0}', schema: { type: "object" }, out: '{"x":1}' },
    {
      args: '{"line": 5, "file": "f.go"}',
      schema: obj({ line: { type: "integer" }, file: { type: "string" } }),
      out: '{"line":5,"file":"f.go"}',
    },
    {
      args: '{"n": 1e20}',
      schema: obj({ n: { type: "integer" } }),
      out: '{"n":100000000000000000000}',
      diags: ["/n integer-precision-lost"],
    },
    {
      args: '{"rows": [[9007199254740993, "Ada"]]}',
      schema: obj({
        rows: {
          type: "array",
          items: { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }] },
        },
      }),
      out: '{"rows":[[9007199254740992,"Ada"]]}',
      diags: ["/rows/0/0 integer-precision-lost"],
    },
  ];
  for (const r of rows) {
    test(`${r.args} → ${r.out}`, () => {
      expect(run(r.args, r.schema)).toEqual({ json: r.out, diagnostics: r.diags ?? [] });
    });
  }
});

describe("number texts", () => {
  const int = obj({ v: { type: "integer" } });
  const num = obj({ v: { type: "number" } });
  const amb = obj({ v: { type: ["integer", "number"] } });
  const rows: {
    name: string;
    args: string;
    schema: JsonSchema | null;
    out: string;
    diags?: string[];
    options?: object;
  }[] = [
    {
      name: "integer: 2**60 exact digits",
      args: `{"v": ${2 ** 60}}`,
      schema: int,
      out: '{"v":1152921504606846976}',
      diags: ["/v integer-precision-lost"],
    },
    {
      name: "integer: 1e21 exact digits",
      args: '{"v": 1e21}',
      schema: int,
      out: '{"v":1000000000000000000000}',
      diags: ["/v integer-precision-lost"],
    },
    { name: "integer: -0 is 0", args: '{"v": -0}', schema: int, out: '{"v":0}' },
    {
      name: "integer: 2^53-1 is safe",
      args: '{"v": 9007199254740991}',
      schema: int,
      out: '{"v":9007199254740991}',
    },
    {
      name: "integer: -2^53 is lost",
      args: '{"v": -9007199254740992}',
      schema: int,
      out: '{"v":-9007199254740992}',
      diags: ["/v integer-precision-lost"],
    },
    { name: "number: whole is 1.0", args: '{"v": 1}', schema: num, out: '{"v":1.0}' },
    { name: "number: -0 is -0.0", args: '{"v": -0}', schema: num, out: '{"v":-0.0}' },
    {
      name: "number: 1e21 stays, reported as number-precision-lost (issue 17)",
      args: '{"v": 1e21}',
      schema: num,
      out: '{"v":1e+21}',
      diags: ["/v number-precision-lost"],
    },
    {
      name: "number: 2^53-1 is whole and exact: no diagnostic",
      args: '{"v": 9007199254740991}',
      schema: num,
      out: '{"v":9007199254740991.0}',
    },
    {
      name: "number: 2^53 may be a rounded id: number-precision-lost",
      args: '{"v": 9007199254740992}',
      schema: num,
      out: '{"v":9007199254740992.0}',
      diags: ["/v number-precision-lost"],
    },
    {
      name: "number: 9007199254740993 arrives as 2^53: number-precision-lost",
      args: '{"issue_number": 9007199254740993}',
      schema: obj({ issue_number: { type: "number" } }),
      out: '{"issue_number":9007199254740992.0}',
      diags: ["/issue_number number-precision-lost"],
    },
    {
      name: "number: -2^53 in an array, wholeFloats integer: number-precision-lost",
      args: '{"v": [-9007199254740992, 1.5]}',
      schema: obj({ v: { type: "array", items: { type: "number" } } }),
      out: '{"v":[-9007199254740992,1.5]}',
      options: { wholeFloats: "integer" },
      diags: ["/v/0 number-precision-lost"],
    },
    {
      name: "number: 2^60 canonical: number-precision-lost",
      args: `{"v": ${2 ** 60}}`,
      schema: num,
      out: '{"v":1152921504606847000}',
      options: { canonical: true },
      diags: ["/v number-precision-lost"],
    },
    { name: "number: 0.1 stays", args: '{"v": 0.1}', schema: num, out: '{"v":0.1}' },
    { name: "number: 1e-7", args: '{"v": 1e-7}', schema: num, out: '{"v":1e-7}' },
    {
      name: "number: large whole",
      args: '{"v": 123456789012}',
      schema: num,
      out: '{"v":123456789012.0}',
    },
    {
      name: "number: wholeFloats integer",
      args: '{"v": 1.0}',
      schema: num,
      out: '{"v":1}',
      options: { wholeFloats: "integer" },
    },
    {
      name: "ambiguous: whole as integer",
      args: '{"v": 2.0}',
      schema: amb,
      out: '{"v":2}',
      diags: ["/v ambiguous-number"],
    },
    { name: "ambiguous: non-whole unchanged", args: '{"v": 2.5}', schema: amb, out: '{"v":2.5}' },
    { name: "unknown: no schema", args: '{"v": 3.0}', schema: null, out: '{"v":3}' },
    { name: "unknown: true", args: '{"v": 3.0}', schema: true, out: '{"v":3}' },
    { name: "unknown: {}", args: '{"v": 1e21}', schema: {}, out: '{"v":1e+21}' },
  ];
  for (const r of rows) {
    test(r.name, () => {
      expect(run(r.args, r.schema, r.options)).toEqual({ json: r.out, diagnostics: r.diags ?? [] });
    });
  }
});

describe("strings, keys and order", () => {
  test("strings are escaped exactly as JSON.stringify does", () => {
    const s = 'a"b\\c\n\u0001\u2028😀</script>';
    const text = JSON.stringify({ s });
    expect(run(text, null).json).toBe(JSON.stringify({ s }));
  });
  test("keys keep the Struct's order (integer-like keys first, as in any JS object)", () => {
    expect(run('{"b":1,"a":2,"1":3}', null).json).toBe('{"1":3,"b":1,"a":2}');
  });
  test("__proto__, constructor and toString are ordinary keys", () => {
    const text = '{"__proto__":{"x":1.0},"constructor":2,"toString":3}';
    // Parsed, not a literal: `__proto__:` in a JS literal would set the prototype.
    const schema: JsonSchema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"x":{"type":"number"}}},"constructor":{"type":"number"},"toString":{"type":"integer"}}}',
    );
    expect(run(text, schema).json).toBe('{"__proto__":{"x":1.0},"constructor":2.0,"toString":3}');
    expect(({} as Record<string, unknown>).x).toBe(undefined);
  });
  test("a string that looks like an internal marker does not confuse the writer", () => {
    const schema = obj({ b: { type: "number" } });
    for (const [a, c] of [
      ["\ue0000", "\ue0001"],
      ["\u00800", "\u00801"],
      ['y"\u00800', "\u0080"],
      ['x"\ue0000', "\ue000"],
      ["\u00000", "\u00001"],
    ]) {
      const text = JSON.stringify({ a, b: 1, c });
      expect(run(text, schema).json).toBe(
        `{"a":${JSON.stringify(a)},"b":1.0,"c":${JSON.stringify(c)}}`,
      );
    }
  });
  test("indent pretty-prints and keeps number texts", () => {
    const schema = obj({ v: { type: "number" }, l: { type: "array", items: { type: "integer" } } });
    expect(run('{"v":1,"l":[1,2],"e":{},"f":[]}', schema, { indent: 2 }).json).toBe(
      '{\n  "v": 1.0,\n  "l": [\n    1,\n    2\n  ],\n  "e": {},\n  "f": []\n}',
    );
  });
  test.each([
    ["tab", "\t"],
    ["an arrow and a space", "\u2192 "],
    ["CJK", "\u65e5\u672c"],
    ["a pair", "\ud83d\ude00"],
    ["a pair at units 9–10", "12345678\ud83d\ude00"],
    ["longer than 10 units", "1234567890X"],
    ["quote and backslash", '"\\'],
    ["a control character", "\u0001"],
  ])("an indent string with %s: as JSON.stringify writes it", (_, indent) => {
    const schema = obj({ v: { type: "number" }, l: { type: "array", items: { type: "integer" } } });
    const text = '{"v":2.5,"l":[1,2],"e":{},"\u00e9":{"x":[]}}';
    expect(run(text, schema, { indent }).json).toBe(JSON.stringify(JSON.parse(text), null, indent));
  });
  test.each([
    ["a lone high surrogate", "\ud800"],
    ["a lone low surrogate", "a\udc00"],
    ["a pair cut at unit 10", "123456789\ud83d\ude00"],
  ])("an indent string with %s: option-invalid, it cannot travel as UTF-8", (_, indent) => {
    expect(() => run("{}", null, { indent })).toThrow(
      expect.objectContaining({
        code: "option-invalid",
        path: "",
        message:
          "option-invalid at (root): option indent must not hold a lone surrogate in its first 10 units",
      }),
    );
  });
  test("canonical: sorted keys by UTF-16 code units, ES numbers", () => {
    const schema = obj({ v: { type: "number" }, big: { type: "integer" } });
    const text = `{"v":1.0,"b":{"z":1,"10":2,"9":3},"big":${2 ** 60},"\u00e9":1,"\ud83d\ude00":2,"\uff61":3}`;
    expect(run(text, schema, { canonical: true })).toEqual({
      json: '{"b":{"10":2,"9":3,"z":1},"big":1152921504606847000,"v":1,"é":1,"😀":2,"｡":3}',
      diagnostics: ["/big integer-precision-lost"],
    });
  });
});

describe("errors", () => {
  function nanStruct(): Struct {
    return create(StructSchema, {
      fields: { a: create(ValueSchema, { kind: { case: "numberValue", value: Number.NaN } }) },
    });
  }
  function unsetStruct(): Struct {
    return create(StructSchema, {
      fields: {
        l: create(ValueSchema, {
          kind: {
            case: "listValue",
            value: { $typeName: "google.protobuf.ListValue", values: [create(ValueSchema)] },
          },
        }),
      },
    });
  }
  function deep(depth: number): Struct {
    let v = create(ValueSchema, { kind: { case: "nullValue", value: 0 } });
    for (let i = 0; i < depth; i++) {
      v = create(ValueSchema, {
        kind: { case: "structValue", value: create(StructSchema, { fields: { d: v } }) },
      });
    }
    return create(StructSchema, { fields: { d: v } });
  }
  const rows: { name: string; make: () => Struct; options?: object; code: string; path: string }[] =
    [
      { name: "NaN", make: nanStruct, code: "non-finite-number", path: "/a" },
      { name: "unset Value", make: unsetStruct, code: "value-unset", path: "/l/0" },
      {
        name: "depth 101",
        make: () => deep(100),
        code: "recursion-limit",
        path: `${"/d".repeat(100)}`,
      },
      {
        name: "depth 100,000",
        make: () => deep(100_000),
        code: "recursion-limit",
        path: `${"/d".repeat(100)}`,
      },
    ];
  for (const r of rows) {
    test(r.name, () => {
      let err: unknown;
      try {
        structMessageToJson(r.make(), null, r.options);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StructJsonError);
      expect((err as StructJsonError).code).toBe(r.code);
      if (r.path !== "") expect((err as StructJsonError).path).toBe(r.path);
    });
  }
  test("nonFinite null and unsetValue null write null with a diagnostic", () => {
    const d: string[] = [];
    const onDiagnostic = (x: Diagnostic) => d.push(`${x.path} ${x.code}`);
    expect(structMessageToJson(nanStruct(), null, { nonFinite: "null", onDiagnostic })).toBe(
      '{"a":null}',
    );
    expect(structMessageToJson(unsetStruct(), null, { unsetValue: "null", onDiagnostic })).toBe(
      '{"l":[null]}',
    );
    expect(d).toEqual(["/a non-finite-number", "/l/0 value-unset"]);
  });
  test("depth 100 is accepted", () => {
    expect(structMessageToJson(deep(99), null)).toBe(
      `${'{"d":'.repeat(100)}null${"}".repeat(100)}`,
    );
  });
  test("depth 100,000 with a huge recursionLimit is written: the walk has no recursion", () => {
    expect(structMessageToJson(deep(99_999), null, { recursionLimit: 1_000_000 })).toBe(
      `${'{"d":'.repeat(100_000)}null${"}".repeat(100_000)}`,
    );
  });
  const badOptions: { name: string; options: object }[] = [
    { name: "wholeFloats", options: { wholeFloats: "float" } },
    { name: "recursionLimit", options: { recursionLimit: 0 } },
    { name: "indent", options: { indent: -1 } },
    { name: "canonical with indent", options: { canonical: true, indent: 2 } },
  ];
  for (const b of badOptions) {
    test(`option-invalid: ${b.name}`, () => {
      expect(() => structMessageToJson(serverStruct("{}"), null, b.options)).toThrow(
        expect.objectContaining({ code: "option-invalid", path: "" }),
      );
    });
  }
  test("structMessageToJson takes only a Struct message: message-invalid otherwise", () => {
    for (const notMessage of [{ $typeName: "x", fields: {} }, [], { a: 1 }, null, "{}"]) {
      expect(() => structMessageToJson(notMessage as unknown as Struct)).toThrow(
        expect.objectContaining({ code: "message-invalid", path: "" }),
      );
    }
  });
  test("structToJson takes only an object: not-an-object otherwise", () => {
    for (const notObject of [[], null, "{}", 5]) {
      expect(() => structToJson(notObject as unknown as JsonObject)).toThrow(
        expect.objectContaining({ code: "not-an-object", path: "" }),
      );
    }
  });
});

describe("the JsonObject form and inspection", () => {
  test("structToJson writes CallMCPTool.args, $typeName as a member like any other", () => {
    const args: JsonObject = { id: 9007199254740992, t: 1, $typeName: "google.protobuf.Struct" };
    const schema = obj({ id: { type: "integer" }, t: { type: "number" } });
    expect(structToJson(args, schema)).toBe(
      '{"id":9007199254740992,"t":1.0,"$typeName":"google.protobuf.Struct"}',
    );
  });
  test("inspectNumbers lists each number with its reading and text", () => {
    const schema = obj({ id: { type: "integer" }, t: { type: "number" } });
    expect(inspectNumbers({ id: 2 ** 60, t: 2, u: 3.5 }, schema)).toEqual([
      {
        path: "/id",
        value: 2 ** 60,
        reading: "integer",
        text: "1152921504606846976",
        codes: ["integer-precision-lost"],
      },
      { path: "/t", value: 2, reading: "number", text: "2.0", codes: [] },
      { path: "/u", value: 3.5, reading: "unknown", text: "3.5", codes: [] },
    ]);
  });
  test("inspectNumbers shows number-precision-lost where structToJson reports it", () => {
    const schema = obj({ n: { type: "number" } });
    const args = { n: 2 ** 53 };
    expect(inspectNumbers(args, schema)).toEqual([
      {
        path: "/n",
        value: 2 ** 53,
        reading: "number",
        text: "9007199254740992.0",
        codes: ["number-precision-lost"],
      },
    ]);
    const reported: string[] = [];
    expect(
      structToJson(args, schema, { onDiagnostic: (d) => reported.push(`${d.path} ${d.code}`) }),
    ).toBe('{"n":9007199254740992.0}');
    expect(reported).toEqual(["/n number-precision-lost"]);
  });
});

describe("docs/codes.md", () => {
  test("documents every error and diagnostic code, each once per table it belongs to", () => {
    const read = (path: string) => readFileSync(new URL(path, import.meta.url), "utf8");
    const union = (source: string, name: string) => {
      const body = source.slice(source.indexOf(`\ntype ${name} =`));
      return [...body.slice(0, body.indexOf(";")).matchAll(/"([a-z-]+)"/g)].map((m) => m[1]!);
    };
    const source = read("../src/codes.ts");
    const codes = [
      ...union(source, "ThrownCode"),
      ...union(source, "ReportedCode"),
      ...union(source, "ThrownOrReportedCode"),
    ];
    // One list: each code is written once, in the group saying how it reaches the caller.
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toContain("number-precision-lost");
    const documented = new Set(
      [...read("../docs/codes.md").matchAll(/^\| `([a-z-]+)`/gm)].map((m) => m[1]!),
    );
    expect(codes.filter((c) => !documented.has(c))).toEqual([]);
    expect([...documented].filter((c) => !codes.includes(c))).toEqual([]);
  });
});
