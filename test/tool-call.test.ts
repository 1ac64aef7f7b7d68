// toolCallFromJson / toolCallToJson: the raw path and its verification.
import { create, fromBinary, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  ClientActionSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import type { Diagnostic } from "../src/diagnostics.js";
import { StructJsonError } from "../src/errors.js";
import { type CompiledSchema, compileSchema } from "../src/schema/index.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";

/** Server → binary ClientAction → client, as on the wire. */
function overTheWire(call: CallMCPTool): CallMCPTool {
  const action = create(ClientActionSchema, {
    actionId: "a",
    action: { case: "callMcpTool", value: call },
  });
  const back = fromBinary(ClientActionSchema, toBinary(ClientActionSchema, action));
  if (back.action.case !== "callMcpTool") throw new Error("lost the call");
  return back.action.value;
}

function decode(call: CallMCPTool, schema?: JsonSchema | CompiledSchema | null, options = {}) {
  const diagnostics: Diagnostic[] = [];
  const json = toolCallToJson(call, schema, {
    ...options,
    onDiagnostic: (d) => diagnostics.push(d),
  });
  return { json, diagnostics: diagnostics.map((d) => `${d.path} ${d.code}`) };
}

const idSchema: JsonSchema = { type: "object", properties: { id: { type: "integer" } } };

describe("seed vectors", () => {
  test("an id above 2^53 arrives exactly", () => {
    const text = '{"id":9007199254740993}';
    const call = overTheWire(toolCallFromJson({ name: "t", argumentsJson: text }));
    expect(call.rawArgsJson).toBe(text);
    expect(decode(call, idSchema)).toEqual({ json: text, diagnostics: [] });
    expect(decode(call, idSchema, { rawJson: "ignore" })).toEqual({
      json: '{"id":9007199254740992}',
      diagnostics: ["/id integer-precision-lost"],
    });
  });
  test("a float stays a float and 0.1 survives", () => {
    const text = '{"t":1.0,"p":0.1}';
    const schema: JsonSchema = {
      type: "object",
      properties: { t: { type: "number" }, p: { type: "number" } },
    };
    const call = overTheWire(
      toolCallFromJson({ name: "t", argumentsJson: text }, { rawArgsJson: "never" }),
    );
    expect(call.rawArgsJson).toBe(undefined);
    expect(decode(call, schema)).toEqual({ json: text, diagnostics: [] });
  });
  test("the text is returned as the same string, untouched", () => {
    const text = '{ "b" : [1.50, 2e3],\n "a":"\\u00e9" }';
    const call = overTheWire(toolCallFromJson({ name: "t", argumentsJson: text }));
    expect(toolCallToJson(call)).toBe(text);
  });
});

describe("rawArgsJson policy", () => {
  const rows = [
    { policy: "always", text: '{"a":1}', raw: '{"a":1}' },
    { policy: "never", text: '{"a":9007199254740993}', raw: undefined },
    { policy: "when-lossy", text: '{"a":1.0}', raw: undefined },
    { policy: "when-lossy", text: '{"a":[9007199254740993]}', raw: '{"a":[9007199254740993]}' },
  ] as const;
  for (const r of rows) {
    test(`${r.policy}: ${r.text}`, () => {
      const call = toolCallFromJson(
        { name: "n", serverId: "s", argumentsJson: r.text },
        { rawArgsJson: r.policy },
      );
      expect(call.rawArgsJson).toBe(r.raw);
      expect(call.name).toBe("n");
      expect(call.serverId).toBe("s");
    });
  }
  test("precision-lost is reported while building the call", () => {
    const d: string[] = [];
    toolCallFromJson(
      { name: "n", argumentsJson: '{"a":[9007199254740993]}' },
      { onDiagnostic: (x) => d.push(`${x.path} ${x.code}`) },
    );
    expect(d).toEqual(["/a/0 precision-lost"]);
  });
  test("bad arguments throw the package's error", () => {
    expect(() => toolCallFromJson({ name: "n", argumentsJson: "[]" })).toThrow(
      expect.objectContaining({ code: "not-an-object", path: "" }),
    );
  });
});

/** A call whose raw text was replaced, as a buggy or hostile sender would. */
function withRaw(args: JsonObject, raw: string): CallMCPTool {
  return overTheWire(create(CallMCPToolSchema, { name: "t", args, rawArgsJson: raw }));
}

describe("verification", () => {
  const args: JsonObject = {
    id: 9007199254740992,
    name: "x",
    list: [1, true, null],
    o: { "1": 2, b: 3 },
  };
  const agreeing = [
    '{"id":9007199254740993,"name":"x","list":[1,true,null],"o":{"1":2,"b":3}}',
    '{"o":{"b":3,"1":2},"list":[1.0,true,null],"name":"x","id":9007199254740993}',
    ' {\n "id" : 9007199254740992e0 , "name":"\\u0078", "list":[ 1 , true , null ] ,"o":{"b":3,"1":2}}\t',
  ];
  for (const raw of agreeing) {
    test(`agrees: ${raw}`, () => {
      expect(decode(withRaw(args, raw))).toEqual({ json: raw, diagnostics: [] });
    });
  }
  const malformed = [
    { name: "trailing data", raw: '{"id":1} x' },
    { name: "a second value", raw: '{"id":1}{"id":2}' },
    { name: "a BOM", raw: '\ufeff{"id":1}' },
    { name: "JSON-RPC members appended", raw: '{"id":1},"method":"tools/call"' },
    { name: "duplicate keys", raw: '{"id":1,"id":2}' },
    { name: "duplicate keys by escape", raw: '{"id":1,"\\u0069d":2}' },
    { name: "a lone surrogate", raw: '{"id":"\\ud800"}' },
    { name: "not an object", raw: "[1]" },
    { name: "empty", raw: "" },
  ];
  for (const m of malformed) {
    test(`malformed (${m.name}): falls back to the Struct with raw-json-invalid`, () => {
      expect(decode(withRaw({ id: 1 }, m.raw), idSchema)).toEqual({
        json: '{"id":1}',
        diagnostics: [" raw-json-invalid"],
      });
    });
  }
  const mismatches = [
    {
      name: "a different number",
      raw: '{"id":9007199254740995,"name":"x","list":[1,true,null],"o":{"1":2,"b":3}}',
      path: "/id",
    },
    {
      name: "a different string",
      raw: '{"id":9007199254740993,"name":"y","list":[1,true,null],"o":{"1":2,"b":3}}',
      path: "/name",
    },
    {
      name: "a missing key",
      raw: '{"id":9007199254740993,"list":[1,true,null],"o":{"1":2,"b":3}}',
      path: "/name",
    },
    {
      name: "an extra key",
      raw: '{"id":9007199254740993,"name":"x","list":[1,true,null],"o":{"1":2,"b":3,"c":4}}',
      path: "/o/c",
    },
    {
      name: "a shorter list",
      raw: '{"id":9007199254740993,"name":"x","list":[1,true],"o":{"1":2,"b":3}}',
      path: "/list",
    },
    {
      name: "null for false",
      raw: '{"id":9007199254740993,"name":"x","list":[1,null,null],"o":{"1":2,"b":3}}',
      path: "/list/1",
    },
    {
      name: "a string for a number",
      raw: '{"id":"9007199254740993","name":"x","list":[1,true,null],"o":{"1":2,"b":3}}',
      path: "/id",
    },
    {
      name: "an array for an object",
      raw: '{"id":9007199254740993,"name":"x","list":[1,true,null],"o":[2,3]}',
      path: "/o",
    },
  ];
  for (const m of mismatches) {
    test(`mismatch (${m.name}): raw-struct-mismatch at ${m.path}`, () => {
      let err: unknown;
      try {
        decode(withRaw(args, m.raw));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StructJsonError);
      expect({ code: (err as StructJsonError).code, path: (err as StructJsonError).path }).toEqual({
        code: "raw-struct-mismatch",
        path: m.path,
      });
    });
  }
  test("integer-written-as-float where the schema reads integer; the text stays untouched", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        n: { type: "integer" },
        f: { type: "number" },
        l: { type: "array", items: { anyOf: [{ type: "integer" }, { type: "null" }] } },
      },
    };
    const raw = '{"n":120000.0,"f":1.0,"l":[5e0,1.5e1,2,null],"u":3.0}';
    const call = withRaw({ n: 120000, f: 1, l: [5, 15, 2, null], u: 3 }, raw);
    expect(decode(call, schema)).toEqual({
      json: raw,
      diagnostics: [
        "/n integer-written-as-float",
        "/l/0 integer-written-as-float",
        "/l/1 integer-written-as-float",
      ],
    });
    expect(decode(call, compileSchema(schema)).diagnostics).toHaveLength(3);
  });
  test("trust returns the text without parsing; ignore uses the Struct", () => {
    const call = withRaw({ id: 1 }, "not json");
    expect(decode(call, idSchema, { rawJson: "trust" }).json).toBe("not json");
    expect(decode(call, idSchema, { rawJson: "ignore" })).toEqual({
      json: '{"id":1}',
      diagnostics: [],
    });
  });
  describe("canonical: the Struct's canonical text, one text per value, the raw text still verified", () => {
    const call = withRaw(
      { z: 1, id: 9007199254740992, a: [1.5, 2] },
      ' {"z":1.0, "id":9007199254740993, "a":[1.5, 2e0]}',
    );
    const canonical = '{"a":[1.5,2],"id":9007199254740992,"z":1}';
    // The Struct's diagnostics, in its order.
    const lost = ["/id integer-precision-lost", "/a/0 not-an-integer"];
    const cases: { name: string; rawJson: "verify" | "trust"; call: CallMCPTool; want: unknown }[] =
      [
        {
          name: "verify, agreeing (no integer-written-as-float: the text is not returned)",
          rawJson: "verify",
          call,
          want: { json: canonical, diagnostics: lost },
        },
        {
          name: "trust",
          rawJson: "trust",
          call,
          want: { json: canonical, diagnostics: lost },
        },
        {
          name: "verify, malformed",
          rawJson: "verify",
          call: withRaw({ z: 1, id: 9007199254740992, a: [1.5, 2] }, '{"z":1,"z":1}'),
          want: { json: canonical, diagnostics: [" raw-json-invalid", ...lost] },
        },
      ];
    const schema: JsonSchema = {
      type: "object",
      properties: {
        id: { type: "integer" },
        z: { type: "integer" },
        a: { items: { type: "integer" } },
      },
    };
    for (const c of cases) {
      test(c.name, () => {
        expect(decode(c.call, schema, { canonical: true, rawJson: c.rawJson })).toEqual(c.want);
      });
    }
    test("verify, disagreeing: raw-struct-mismatch, as without the option", () => {
      expect(() =>
        toolCallToJson(withRaw({ id: 1 }, '{"id":2}'), schema, { canonical: true }),
      ).toThrow(expect.objectContaining({ code: "raw-struct-mismatch", path: "/id" }));
    });
  });
  test("an unknown rawJson mode is option-invalid", () => {
    expect(() => toolCallToJson(withRaw({}, "{}"), null, { rawJson: "maybe" as "trust" })).toThrow(
      expect.objectContaining({ code: "option-invalid" }),
    );
  });
  test("a call without args decodes as {}", () => {
    expect(toolCallToJson(create(CallMCPToolSchema, { name: "t" }))).toBe("{}");
  });
});
