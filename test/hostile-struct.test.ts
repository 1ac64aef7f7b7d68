// Issue 7, hostile Structs: what the decoder may receive, built in JS or
// decoded from protobuf bytes no honest encoder writes (100,000 levels, NaN
// payloads, Values with no kind, invalid UTF-8, a million repeated values).
// Each row names the exact error code and path, or bounds the time.

import vm from "node:vm";
import { fromBinary, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { type Struct, StructSchema, type Value } from "@bufbuild/protobuf/wkt";
import { describe, expect, test } from "vitest";
import { type CallMCPTool, ClientActionSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { collectDiagnostics } from "../src/diagnostics.js";
import { structMessageFromJson } from "../src/struct/from-json.js";
import { inspectNumbers, structMessageToJson, structToJson } from "../src/struct/to-json.js";
import { toolCallToJson } from "../src/tool/tool-call.js";
import * as wire from "./fuzz/wire.js";
import { BOUND, expectStructJsonError, timed } from "./hostile-helpers.js";

const DEPTH = 100_000;

function value(kind: Value["kind"]): Value {
  return { $typeName: "google.protobuf.Value", kind };
}
function struct(fields: Record<string, Value>): Struct {
  return { $typeName: "google.protobuf.Struct", fields };
}
/** The CallMCPTool in a ClientAction's bytes. */
function callFrom(bytes: Uint8Array): CallMCPTool {
  const action = fromBinary(ClientActionSchema, bytes);
  if (action.action.case !== "callMcpTool") throw new Error("no call in the bytes");
  return action.action.value;
}

// Built once: the deepest inputs of this file.
let deepMessage = value({ case: "nullValue", value: 0 as never });
for (let i = 0; i < DEPTH; i++) {
  deepMessage = value({
    case: "listValue",
    value: { $typeName: "google.protobuf.ListValue", values: [deepMessage] },
  });
}
let deepPlain: JsonValue = null;
for (let i = 0; i < DEPTH; i++) deepPlain = [deepPlain];
const deepBytes = wire.clientAction(wire.struct([["a", wire.deepListValue(DEPTH)]]));

/** Where the default recursionLimit (100) stops a list nested under /a: level 101. */
const DEEP_PATH = `/a${"/0".repeat(99)}`;

describe("depth 100,000 in a Struct", () => {
  test("a Struct message built in JS: recursion-limit at level 101", () => {
    const { ms } = timed(() =>
      expectStructJsonError(() => structMessageToJson(struct({ a: deepMessage })), {
        code: "recursion-limit",
        path: DEEP_PATH,
      }),
    );
    expect(ms).toBeLessThan(BOUND.fast);
  });

  test("the JsonObject form (CallMCPTool.args): recursion-limit", () => {
    expectStructJsonError(() => structToJson({ a: deepPlain }), {
      code: "recursion-limit",
      path: DEEP_PATH,
    });
  });

  test("with recursionLimit raised to 10^9 the walk goes all the way down: no stack to run out of", () => {
    const expected = `{"a":${"[".repeat(DEPTH)}null${"]".repeat(DEPTH)}}`;
    expect(structMessageToJson(struct({ a: deepMessage }), null, { recursionLimit: 1e9 })).toBe(
      expected,
    );
    expect(structToJson({ a: deepPlain }, null, { recursionLimit: 1e9 })).toBe(expected);
    expect(structToJson({ a: deepPlain }, null, { recursionLimit: 1e9, canonical: true })).toBe(
      expected,
    );
  });

  test("a value built in JS that contains itself, with recursionLimit 10^9: recursion-limit at depth 4,096, never the heap", () => {
    const o: Record<string, unknown> = { n: 1 };
    o.self = o;
    const l: unknown[] = [1];
    l.push(l);
    const fields: Record<string, Value> = {};
    fields.s = value({ case: "structValue", value: struct(fields) });
    // The cycle is found when the walk opens its 4,096th level (the arguments are level 1).
    const rows: [() => unknown, string][] = [
      [
        () => structToJson({ o } as never, null, { recursionLimit: 1e9 }),
        `/o${"/self".repeat(4094)}`,
      ],
      [
        () => structToJson({ l } as never, { type: "object" }, { recursionLimit: 1e9 }),
        `/l${"/1".repeat(4094)}`,
      ],
      [
        () => structToJson({ o } as never, null, { recursionLimit: 1e9, indent: 2 }),
        `/o${"/self".repeat(4094)}`,
      ],
      [
        () => inspectNumbers({ o } as never, { type: "object" }, { recursionLimit: 1e9 }),
        `/o${"/self".repeat(4094)}`,
      ],
      [() => structMessageToJson(struct(fields), null, { recursionLimit: 1e9 }), "/s".repeat(4095)],
    ];
    for (const [call, path] of rows) {
      const { ms } = timed(() => {
        const e = expectStructJsonError(call, { code: "recursion-limit", path });
        expect(e.message).toBe(
          `recursion-limit at ${path}: a value contains itself: its nesting has no end`,
        );
      });
      expect(ms).toBeLessThan(BOUND.fast);
    }
  });

  test("from protobuf bytes: protobuf-es's fromBinary stops at its recursionLimit (100) before the decoder sees it", () => {
    const { ms } = timed(() =>
      expect(() => fromBinary(ClientActionSchema, deepBytes)).toThrow(
        /maximum recursion depth of 100 reached/,
      ),
    );
    expect(ms).toBeLessThan(BOUND.fast);
  });

  test("a deep Struct with raw text beside it: the raw text disagrees, raw-struct-mismatch (never the raw text)", () => {
    const call = { args: { a: deepPlain } as JsonObject, rawArgsJson: '{"a":[]}' } as CallMCPTool;
    expectStructJsonError(() => toolCallToJson(call), {
      code: "raw-struct-mismatch",
      path: "/a",
    });
  });
});

describe("NaN and Infinity in NumberValue", () => {
  const bitRows: [name: string, bits: bigint][] = [
    ["NaN", 0x7ff8000000000000n],
    ["NaN with a payload (signalling)", 0x7ff0000000000001n],
    ["negative NaN", 0xfff8000000000000n],
    ["+Infinity", 0x7ff0000000000000n],
    ["-Infinity", 0xfff0000000000000n],
  ];
  for (const [name, bits] of bitRows) {
    test(`${name} from bytes: non-finite-number, or null with the same code as a diagnostic`, () => {
      const call = callFrom(wire.clientAction(wire.struct([["a", wire.fixed64Bits(2, bits)]])));
      expectStructJsonError(() => toolCallToJson(call), {
        code: "non-finite-number",
        path: "/a",
      });
      const { list, onDiagnostic } = collectDiagnostics();
      expect(toolCallToJson(call, null, { nonFinite: "null", onDiagnostic })).toBe('{"a":null}');
      expect(list).toEqual([{ code: "non-finite-number", path: "/a" }]);
      const nested = fromBinary(
        StructSchema,
        wire.struct([["a", wire.listValue([wire.nullValue(), wire.fixed64Bits(2, bits)])]]),
      );
      expectStructJsonError(() => structMessageToJson(nested), {
        code: "non-finite-number",
        path: "/a/1",
      });
    });

    test(`${name} beside raw text: raw-struct-mismatch, never the raw text`, () => {
      const call = callFrom(
        wire.clientAction(wire.struct([["a", wire.fixed64Bits(2, bits)]]), '{"a":null}'),
      );
      expectStructJsonError(() => toolCallToJson(call), {
        code: "raw-struct-mismatch",
        path: "/a",
      });
    });
  }

  test.each([
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["-Infinity", Number.NEGATIVE_INFINITY],
  ])("%s in a Struct built in JS: non-finite-number", (_name, n) => {
    const s = struct({
      x: value({
        case: "structValue",
        value: struct({ n: value({ case: "numberValue", value: n }) }),
      }),
    });
    expectStructJsonError(() => structMessageToJson(s), {
      code: "non-finite-number",
      path: "/x/n",
    });
  });
});

describe("Values with no kind set", () => {
  const unsetBytes = wire.struct([
    ["u", new Uint8Array()],
    ["l", wire.listValue([wire.nullValue(), new Uint8Array()])],
  ]);

  test("in a Struct message: value-unset at the first one, or null with diagnostics", () => {
    const s = fromBinary(StructSchema, unsetBytes);
    expectStructJsonError(() => structMessageToJson(s), { code: "value-unset", path: "/u" });
    const { list, onDiagnostic } = collectDiagnostics();
    expect(structMessageToJson(s, null, { unsetValue: "null", onDiagnostic })).toBe(
      '{"u":null,"l":[null,null]}',
    );
    expect(list).toEqual([
      { code: "value-unset", path: "/u" },
      { code: "value-unset", path: "/l/1" },
    ]);
  });

  test("a map entry with no value at all reads as an unset Value", () => {
    const s = fromBinary(StructSchema, wire.len(1, wire.str(1, "k")));
    expectStructJsonError(() => structMessageToJson(s), { code: "value-unset", path: "/k" });
  });

  test("in CallMCPTool.args protobuf-es already turned them into null (its JSON mapping of an empty Value)", () => {
    expect(toolCallToJson(callFrom(wire.clientAction(unsetBytes)))).toBe(
      '{"u":null,"l":[null,null]}',
    );
  });

  test("in a Struct built in JS", () => {
    const s = struct({
      a: value({
        case: "listValue",
        value: { $typeName: "google.protobuf.ListValue", values: [value({ case: undefined })] },
      }),
    });
    expectStructJsonError(() => structMessageToJson(s), { code: "value-unset", path: "/a/0" });
  });

  test.each([
    ["undefined", undefined],
    ["a function", () => 1],
    ["a bigint", 10n],
    ["a symbol", Symbol("s")],
  ])("%s in the JsonObject form: value-unset", (_name, v) => {
    expectStructJsonError(() => structToJson({ a: { b: v } } as unknown as JsonObject), {
      code: "value-unset",
      path: "/a/b",
    });
  });
});

describe("objects of a kind of their own in the JsonObject form", () => {
  // Decision: a Date, a Map, a boxed primitive and the like keep their data
  // outside their own members; read as members they came out as `{}`, a value
  // changed silently. They are refused as `undefined` is (value-unset, or
  // null with unsetValue: "null"). Objects that keep their data in own
  // members are written as JSON.stringify writes them: a null-prototype
  // object, a class instance, and objects and arrays from another realm.
  const realm = vm.runInNewContext(
    "({ date: new Date(0), map: new Map(), object: { n: 2 }, list: [2, 2.5] })",
  ) as { date: Date; map: Map<unknown, unknown>; object: { n: number }; list: number[] };
  const schemas = [
    ["no schema", undefined],
    [
      "a schema",
      {
        type: "object",
        properties: {
          a: { type: "object", properties: { b: { type: "integer" } } },
          l: { type: "array", items: { type: "number" } },
          n: { type: "number" },
        },
      },
    ],
  ] as const;
  class Tagged {
    b = 1;
    get [Symbol.toStringTag]() {
      return "Tagged";
    }
  }
  const refused: [string, unknown][] = [
    ["a Date", new Date(0)],
    ["a Map", new Map([["k", 1]])],
    ["a Set", new Set([1])],
    ["a WeakMap", new WeakMap()],
    ["a RegExp", /x/],
    ["an Error", new Error("x")],
    ["a Promise", Promise.resolve(1)],
    ["a boxed number", Object(5)],
    ["a boxed string", Object("xy")],
    ["a boxed boolean", Object(true)],
    ["a typed array", Uint8Array.of(1, 2)],
    ["an ArrayBuffer", new ArrayBuffer(2)],
    ["a class instance with a Symbol.toStringTag", new Tagged()],
    ["a Date from another realm", realm.date],
    ["a Map from another realm", realm.map],
  ];

  for (const [schemaName, schema] of schemas) {
    test.each(refused)(`%s as a member, ${schemaName}: value-unset at its path`, (_name, v) => {
      const error = expectStructJsonError(
        () => structToJson({ a: { b: v } } as unknown as JsonObject, schema),
        { code: "value-unset", path: "/a/b" },
      );
      expect(error.message).toBe(
        "value-unset at /a/b: a value is neither null, boolean, number, string, list nor struct",
      );
      expectStructJsonError(() => structToJson({ l: [1, v] } as unknown as JsonObject, schema), {
        code: "value-unset",
        path: "/l/1",
      });
    });

    test.each(refused)(`%s as a member, ${schemaName}: null with unsetValue "null"`, (_name, v) => {
      const { list, onDiagnostic } = collectDiagnostics();
      const args = { a: { b: v }, l: [v, 2], n: 2 } as unknown as JsonObject;
      expect(structToJson(args, schema, { unsetValue: "null", onDiagnostic })).toBe(
        schema === undefined
          ? '{"a":{"b":null},"l":[null,2],"n":2}'
          : '{"a":{"b":null},"l":[null,2.0],"n":2.0}',
      );
      expect(list).toEqual([
        { code: "value-unset", path: "/a/b" },
        { code: "value-unset", path: "/l/0" },
      ]);
    });

    test(`objects holding their data as members, ${schemaName}: written with the schema's readings`, () => {
      class Point {
        n = 2;
      }
      const bare = Object.assign(Object.create(null) as object, { n: 2 });
      // Its prototype is Object.prototype: its tag is not looked at.
      const tagged = { [Symbol.toStringTag]: "Thing", n: 2 };
      const args = {
        a: { b: 3 },
        l: [realm.list, realm.object, new Point(), bare, tagged],
        n: 2,
      } as unknown as JsonObject;
      expect(structToJson(args, schema)).toBe(
        schema === undefined
          ? '{"a":{"b":3},"l":[[2,2.5],{"n":2},{"n":2},{"n":2},{"n":2}],"n":2}'
          : '{"a":{"b":3},"l":[[2,2.5],{"n":2},{"n":2},{"n":2},{"n":2}],"n":2.0}',
      );
      expect(structToJson(realm.object as unknown as JsonObject, schema)).toBe(
        schema === undefined ? '{"n":2}' : '{"n":2.0}',
      );
    });
  }

  test.each(refused)("%s as the arguments: not-an-object", (_name, v) => {
    expectStructJsonError(() => structToJson(v as JsonObject), { code: "not-an-object", path: "" });
  });

  test("a Struct message whose fields are a Map: message-invalid, at the top or in a struct_value", () => {
    expectStructJsonError(
      () =>
        structMessageToJson({ $typeName: "google.protobuf.Struct", fields: new Map() } as never),
      { code: "message-invalid", path: "" },
    );
    const inner = value({
      case: "structValue",
      value: { $typeName: "google.protobuf.Struct", fields: new Map() as never },
    });
    expectStructJsonError(() => structMessageToJson(struct({ a: inner })), {
      code: "message-invalid",
      path: "/a",
    });
  });
});

describe("a Value built in JS whose value is not of its case's type", () => {
  // Written as it is, `stringValue: 12345` would change the member's JSON
  // type (a number where the message says string), silently.
  const rows: [Value["kind"]["case"], unknown, string][] = [
    ["stringValue", 12345, "a string_value is not a string"],
    ["stringValue", null, "a string_value is not a string"],
    ["stringValue", { x: 1 }, "a string_value is not a string"],
    ["numberValue", "5", "a number_value is not a number"],
    ["numberValue", 5n, "a number_value is not a number"],
    ["numberValue", true, "a number_value is not a number"],
    ["boolValue", 1, "a bool_value is not a boolean"],
    ["boolValue", "true", "a bool_value is not a boolean"],
  ];
  const schema = {
    type: "object",
    properties: { a: { type: "integer" }, l: { type: "array", items: { type: "object" } } },
  };
  const long = value({ case: "stringValue", value: "x".repeat(300_000) });
  test.each(rows)("%s holding %o: message-invalid", (kase, held, message) => {
    const bad = { $typeName: "google.protobuf.Value", kind: { case: kase, value: held } } as Value;
    const nested = value({
      case: "listValue",
      value: {
        $typeName: "google.protobuf.ListValue",
        values: [value({ case: "structValue", value: struct({ k: bad }) })],
      },
    });
    for (const [args, path] of [
      [struct({ a: bad }), "/a"],
      [struct({ l: nested }), "/l/0/k"],
      [struct({ big: long, a: bad }), "/a"],
    ] as const) {
      for (const s of [undefined, schema]) {
        for (const options of [{}, { canonical: true }, { indent: 2 }]) {
          const e = expectStructJsonError(() => structMessageToJson(args, s, options), {
            code: "message-invalid",
            path,
          });
          expect(e.message).toBe(`message-invalid at ${path}: ${message}`);
        }
      }
    }
  });
});

describe("lone surrogates in Struct strings", () => {
  // Decision: a Struct built in JS may hold a lone surrogate (protobuf bytes
  // cannot: see below). The decoder writes it as the \uXXXX escape, exactly as
  // JSON.stringify does: the text stays valid UTF-8 and nothing is lost or
  // replaced; a receiver that needs Unicode strings rejects it, as this
  // package's own encoder does (invalid-unicode).
  const s = struct({
    "k\udc00": value({ case: "stringValue", value: "a\ud800b" }),
    m: value({ case: "stringValue", value: "\u0000 looks like a marker \udfff" }),
  });
  const expected = '{"k\\udc00":"a\\ud800b","m":"\\u0000 looks like a marker \\udfff"}';

  test("written as \\u escapes, in every output mode", () => {
    expect(structMessageToJson(s)).toBe(expected);
    expect(structMessageToJson(s, null, { canonical: true })).toBe(expected);
    expect(structMessageToJson(s, { properties: { m: { type: "string" } } }, { indent: 1 })).toBe(
      JSON.stringify(JSON.parse(expected), null, 1),
    );
  });

  test("the encoder refuses that text: invalid-unicode", () => {
    expectStructJsonError(() => structMessageFromJson(expected), {
      code: "invalid-unicode",
      path: "",
      position: 9,
    });
  });

  test("protobuf bytes cannot carry one: invalid UTF-8 in a Struct string or key fails in fromBinary", () => {
    const surrogateUtf8 = Uint8Array.of(0xed, 0xa0, 0x80); // CESU-8 for U+D800
    for (const bytes of [
      wire.struct([["k", wire.len(3, surrogateUtf8)]]),
      wire.len(1, wire.concat(wire.len(1, surrogateUtf8), wire.len(2, wire.nullValue()))),
      wire.struct([["k", wire.len(3, Uint8Array.of(0xff))]]),
    ]) {
      expect(() => fromBinary(StructSchema, bytes)).toThrow(TypeError);
    }
  });
});

describe("huge repeated fields from bytes", () => {
  test("a ListValue of 1,000,000 nulls: decoded and written in bounded time", () => {
    const N = 1_000_000;
    const one = wire.len(1, wire.nullValue());
    const body = new Uint8Array(one.length * N);
    for (let i = 0; i < N; i++) body.set(one, i * one.length);
    const bytes = wire.clientAction(wire.struct([["a", wire.len(wire.V.list, body)]]));
    const { result, ms } = timed(() => toolCallToJson(callFrom(bytes)));
    expect(result.length).toBe(`{"a":[]}`.length + 5 * N - 1);
    expect(result.startsWith('{"a":[null,null,')).toBe(true);
    expect(ms).toBeLessThan(BOUND.big);
  });

  test("a key repeated 100,000 times: protobuf keeps the last entry (map semantics), and raw text still has to agree", () => {
    const entries: [string, Uint8Array][] = [];
    for (let i = 0; i < 100_000; i++) entries.push(["k", wire.numberValue(i)]);
    const bytes = wire.clientAction(wire.struct(entries), '{"k":0}');
    const call = callFrom(bytes);
    expect(toolCallToJson(call, null, { rawJson: "ignore" })).toBe('{"k":99999}');
    expectStructJsonError(() => toolCallToJson(call), {
      code: "raw-struct-mismatch",
      path: "/k",
    });
  });
});
