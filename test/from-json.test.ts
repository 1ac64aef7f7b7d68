// structMessageFromJson: JSON text → Struct, losslessly checked.
import { create, fromBinary, fromJson, toBinary, toJson } from "@bufbuild/protobuf";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import { parse as losslessParse } from "lossless-json";
import { describe, expect, test } from "vitest";
import { ClientActionSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import type { Diagnostic } from "../src/diagnostics.js";
import { StructJsonError } from "../src/errors.js";
import { DEFAULT_STRUCT_DEPTH, structMessageFromJson } from "../src/struct/from-json.js";
import { toolCallFromJson } from "../src/tool/tool-call.js";

function parse(text: string, options = {}) {
  const diagnostics: Diagnostic[] = [];
  const struct = structMessageFromJson(text, {
    ...options,
    onDiagnostic: (d) => diagnostics.push(d),
  });
  return { struct, diagnostics: diagnostics.map((d) => `${d.path} ${d.code}`) };
}

function errorOf(f: () => unknown): { code: string; path: string; position: number | undefined } {
  try {
    f();
  } catch (e) {
    if (e instanceof StructJsonError) return { code: e.code, path: e.path, position: e.position };
    throw e;
  }
  throw new Error("expected an error");
}

describe("values", () => {
  const rows = [
    '{"a":1,"b":-2.5,"c":"x","d":true,"e":false,"f":null,"g":[1,[2]],"h":{"i":{}}}',
    '{"s":"\\u00e9\\n\\"\\\\\\/\\b\\f\\r\\t\\ud83d\\ude00","raw":"é😀"}',
    '{"__proto__":{"polluted":1},"constructor":{"prototype":2},"toString":3}',
    '{"":0,"1":1,"b":2}',
    ' \n\t{ "a" : [ ] , "b" : { } } \r\n',
  ];
  for (const text of rows) {
    test(text, () => {
      const { struct, diagnostics } = parse(text);
      expect(toJson(StructSchema, struct)).toEqual(JSON.parse(text));
      expect(Object.keys(struct.fields)).toEqual(Object.keys(JSON.parse(text)));
      expect(diagnostics).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBe(undefined);
      // A real protobuf-es message: it survives binary.
      expect(fromBinary(StructSchema, toBinary(StructSchema, struct))).toEqual(
        fromJson(StructSchema, JSON.parse(text)),
      );
    });
  }
});

describe("precision-lost", () => {
  const rows: { text: string; diags: string[] }[] = [
    { text: '{"id":9007199254740993}', diags: ["/id precision-lost"] },
    { text: '{"x":0.30000000000000000001}', diags: ["/x precision-lost"] },
    { text: '{"x":1e-400}', diags: ["/x precision-lost"] },
    {
      text: '{"a":[{"b":[0,123456789012345678901234567890]}]}',
      diags: ["/a/0/b/1 precision-lost"],
    },
    { text: '{"x~/y":9007199254740993}', diags: ["/x~0~1y precision-lost"] },
    { text: '{"x":5.0,"y":5,"z":1.10,"w":-0,"v":0.1,"u":1e2,"t":0.0e-5}', diags: [] },
    {
      text: `{"p":${2n ** 60n},"q":9007199254740992,"r":1e21,"s":1.7976931348623157e308}`,
      diags: [],
    },
    // String(2 ** 60), its shortest form, is not its value (1152921504606846976):
    // as plain digits it is an integer the float64 does not hold.
    { text: `{"p":${2 ** 60},"n":-${2 ** 60}}`, diags: ["/p precision-lost", "/n precision-lost"] },
    // Written with an exponent or a fraction, a float64's shortest form is its reading.
    { text: '{"p":1.152921504606847e18,"q":1152921504606847000.0,"r":1e23}', diags: [] },
    { text: '{"x":5e-324,"y":2.2250738585072014e-308,"z":-0.0}', diags: [] },
    { text: '{"x":0.10000000000000001}', diags: ["/x precision-lost"] },
  ];
  for (const r of rows) {
    test(r.text, () => {
      expect(parse(r.text).diagnostics).toEqual(r.diags);
    });
  }
});

describe("errors", () => {
  const rows: { name: string; text: string; code: string; path: string; position?: number }[] = [
    { name: "empty", text: "", code: "invalid-json", path: "", position: 0 },
    { name: "array", text: "[1]", code: "not-an-object", path: "" },
    { name: "number", text: "5", code: "not-an-object", path: "" },
    { name: "string", text: '"x"', code: "not-an-object", path: "" },
    { name: "trailing data", text: '{"a":1} x', code: "invalid-json", path: "", position: 8 },
    { name: "second value", text: '{"a":1}{"b":2}', code: "invalid-json", path: "", position: 7 },
    { name: "BOM", text: '\ufeff{"a":1}', code: "invalid-json", path: "", position: 0 },
    { name: "trailing comma", text: '{"a":1,}', code: "invalid-json", path: "", position: 7 },
    { name: "single quotes", text: "{'a':1}", code: "invalid-json", path: "", position: 1 },
    { name: "unterminated", text: '{"a":"x', code: "invalid-json", path: "/a", position: 7 },
    { name: "bad number", text: '{"a":01}', code: "invalid-json", path: "", position: 6 },
    { name: "bad escape", text: '{"a":"\\x"}', code: "invalid-json", path: "/a", position: 6 },
    { name: "control char", text: '{"a":"\n"}', code: "invalid-json", path: "/a", position: 6 },
    { name: "NaN", text: '{"a":NaN}', code: "invalid-json", path: "/a", position: 5 },
    {
      name: "duplicate key",
      text: '{"a":1,"a":2}',
      code: "duplicate-key",
      path: "/a",
      position: 7,
    },
    {
      name: "duplicate key by escape",
      text: '{"b":{"a":1,"\\u0061":2}}',
      code: "duplicate-key",
      path: "/b/\\u0061".replace("\\u0061", "a"),
      position: 12,
    },
    { name: "lone high surrogate", text: '{"a":"\\ud800"}', code: "invalid-unicode", path: "/a" },
    { name: "lone low surrogate", text: '{"a":"x\\udc00"}', code: "invalid-unicode", path: "/a" },
    { name: "raw lone surrogate", text: '{"a":"\ud800x"}', code: "invalid-unicode", path: "/a" },
    { name: "lone surrogate key", text: '{"\\udfff":1}', code: "invalid-unicode", path: "" },
    {
      name: "1e400",
      text: '{"a":[1e400]}',
      code: "number-out-of-range",
      path: "/a/0",
      position: 6,
    },
    { name: "-1e400", text: '{"a":-1e400}', code: "number-out-of-range", path: "/a", position: 5 },
    {
      name: "depth 50",
      text: `${'{"a":'.repeat(50)}1${"}".repeat(50)}`,
      code: "recursion-limit",
      path: "/a".repeat(49),
    },
    {
      name: "depth 100,000",
      text: `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
      code: "recursion-limit",
      path: `/a${"/0".repeat(48)}`,
    },
  ];
  for (const r of rows) {
    test(r.name, () => {
      const e = errorOf(() => structMessageFromJson(r.text));
      expect({ code: e.code, path: e.path }).toEqual({ code: r.code, path: r.path });
      if (r.position !== undefined) expect(e.position).toBe(r.position);
    });
  }
  test("depth 100,000 with a huge recursionLimit is read in full (the parser keeps its own stack)", () => {
    const text = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    let node = structMessageFromJson(text, { recursionLimit: 1e9 }).fields.a;
    let depth = 0;
    while (node?.kind.case === "listValue") {
      node = node.kind.value.values[0];
      depth++;
    }
    expect(depth).toBe(100_000);
    expect(node).toBeUndefined();
  });
  test("invalid-json messages name the position", () => {
    expect(() => structMessageFromJson('{"a":1,}')).toThrow(
      "invalid-json at (root): expected a string key at position 7",
    );
  });
});

describe("the default depth", () => {
  function nested(depth: number): string {
    return `${'{"a":'.repeat(depth - 1)}{"a":1}${"}".repeat(depth - 1)}`;
  }
  test(`${DEFAULT_STRUCT_DEPTH} levels decode with protobuf-es's default fromBinary; one more does not`, () => {
    const bytesAt = (depth: number) => {
      const call = toolCallFromJson(
        { name: "t", argumentsJson: nested(depth) },
        { recursionLimit: 1000, rawArgsJson: "never" },
      );
      return toBinary(
        ClientActionSchema,
        create(ClientActionSchema, { action: { case: "callMcpTool", value: call } }),
      );
    };
    expect(() => fromBinary(ClientActionSchema, bytesAt(DEFAULT_STRUCT_DEPTH))).not.toThrow();
    expect(() => fromBinary(ClientActionSchema, bytesAt(DEFAULT_STRUCT_DEPTH + 1))).toThrow(
      /maximum recursion depth/,
    );
    expect(() => structMessageFromJson(nested(DEFAULT_STRUCT_DEPTH))).not.toThrow();
    expect(errorOf(() => structMessageFromJson(nested(DEFAULT_STRUCT_DEPTH + 1))).code).toBe(
      "recursion-limit",
    );
  });
});

describe("agrees with lossless-json on valid input", () => {
  const rows = [
    '{"a":[1,2.5,-0,1e2,1E-2,"x",{"b":null}],"c":{"d":[[]]},"e":"\\u2028\\ud834\\udd1e"}',
    '{"big":123456789012345678901234567890,"small":1e-300,"neg":-9007199254740993}',
  ];
  for (const text of rows) {
    test(text, () => {
      const ours = toJson(StructSchema, structMessageFromJson(text));
      const theirs = losslessParse(text, null, (s) => Number(s));
      expect(ours).toEqual(theirs);
    });
  }
});
