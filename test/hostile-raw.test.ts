// Issue 7, hostile raw_args_json: the text beside the Struct is only used when
// it is exactly one JSON object agreeing with the Struct. Anything with more
// than one reading (trailing data, a second value, a BOM, appended JSON-RPC
// members, duplicate keys) is malformed: `raw-json-invalid` and the Struct's
// text; a well-formed text that disagrees throws `raw-struct-mismatch`.
import { create, fromBinary, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import { collectDiagnostics } from "../src/diagnostics.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import { toolResultToJson } from "../src/tool/tool-result.js";
import { BOUND, type ExpectedError, expectStructJsonError, timed } from "./hostile-helpers.js";

/** A call as it arrives: built, encoded and decoded, so the raw text crossed the wire. */
function arrived(args: JsonObject | undefined, raw: string): CallMCPTool {
  const call = create(CallMCPToolSchema, {
    name: "t",
    rawArgsJson: raw,
    ...(args === undefined ? {} : { args }),
  });
  return fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, call));
}

const ARGS = { a: 1, s: "x" };
const STRUCT_TEXT = '{"a":1,"s":"x"}';

describe("malformed raw text: raw-json-invalid, and the Struct's text", () => {
  const rows: [name: string, raw: string][] = [
    ["trailing data", '{"a":1,"s":"x"} x'],
    ["a stray closing brace", '{"a":1,"s":"x"}}'],
    ["a second top-level value", '{"a":1,"s":"x"}{"a":1,"s":"x"}'],
    ["a second value after whitespace", '{"a":1,"s":"x"}\n{"a":2}'],
    ["a byte-order mark", '\ufeff{"a":1,"s":"x"}'],
    ["JSON-RPC members appended", '{"a":1,"s":"x"},"id":7,"method":"tools/call"'],
    [
      "JSON-RPC envelope closed early",
      '{"a":1,"s":"x"}},"id":99,"method":"shutdown","params":{"z":{"w":1}',
    ],
    ["a duplicate key (even with the same value)", '{"a":1,"a":1,"s":"x"}'],
    ["a duplicate key spelled with an escape", '{"a":1,"\\u0061":1,"s":"x"}'],
    ["a lone surrogate", '{"a":1,"s":"\\ud800"}'],
    ["a number beyond float64", '{"a":1e400,"s":"x"}'],
    ["NaN", '{"a":NaN,"s":"x"}'],
    ["empty", ""],
    ["null", "null"],
    ["an array", '[{"a":1,"s":"x"}]'],
    ["a string holding the object", '"{\\"a\\":1,\\"s\\":\\"x\\"}"'],
    ["unterminated", '{"a":1,"s":"x"'],
    ["a comment", '{"a":1,"s":"x"} // ok'],
  ];
  for (const [name, raw] of rows) {
    test(name, () => {
      const { list, onDiagnostic } = collectDiagnostics();
      expect(toolCallToJson(arrived(ARGS, raw), null, { onDiagnostic })).toBe(STRUCT_TEXT);
      expect(list).toEqual([{ code: "raw-json-invalid", path: "" }]);
    });
  }

  test("100,000 levels deep: rejected at the decoder's recursionLimit, quickly", () => {
    const raw = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const { list, onDiagnostic } = collectDiagnostics();
    const { result, ms } = timed(() =>
      toolCallToJson(arrived({ a: 1 }, raw), null, { onDiagnostic }),
    );
    expect(result).toBe('{"a":1}');
    expect(list).toEqual([{ code: "raw-json-invalid", path: "" }]);
    expect(ms).toBeLessThan(BOUND.fast);
  });

  test("the same for tool results (raw_structured_content_json)", () => {
    const result = create(MCPToolResultSchema, {
      structuredContent: ARGS,
      rawStructuredContentJson: '{"a":1,"s":"x"},"isError":true',
    });
    const { list, onDiagnostic } = collectDiagnostics();
    expect(toolResultToJson(result, null, { onDiagnostic })).toBe(STRUCT_TEXT);
    expect(list).toEqual([{ code: "raw-json-invalid", path: "" }]);
  });
});

describe("well-formed raw text that disagrees: raw-struct-mismatch (two readings: never guess)", () => {
  const rows: [raw: string, error: ExpectedError][] = [
    ['{"a":2,"s":"x"}', { code: "raw-struct-mismatch", path: "/a" }],
    ['{"a":"1","s":"x"}', { code: "raw-struct-mismatch", path: "/a" }],
    ['{"a":1,"s":"y"}', { code: "raw-struct-mismatch", path: "/s" }],
    ['{"a":1,"s":"x","id":7}', { code: "raw-struct-mismatch", path: "/id" }],
    ['{"a":1}', { code: "raw-struct-mismatch", path: "/s" }],
    ["{}", { code: "raw-struct-mismatch", path: "/a" }],
    ['{"a":[1],"s":"x"}', { code: "raw-struct-mismatch", path: "/a" }],
    ['{"a":1.5,"s":"x"}', { code: "raw-struct-mismatch", path: "/a" }],
  ];
  for (const [raw, error] of rows) {
    test(raw, () => {
      expectStructJsonError(() => toolCallToJson(arrived(ARGS, raw)), error);
    });
  }

  test("a Date or a Map in args (built in JS, never decoded) does not agree with {}", () => {
    // They list no members; read as members they would agree with an empty object.
    for (const v of [new Date(0), new Map([["k", 1]])]) {
      const call = create(CallMCPToolSchema, {
        name: "t",
        args: { a: v } as unknown as JsonObject,
        rawArgsJson: '{"a":{}}',
      });
      expectStructJsonError(() => toolCallToJson(call), {
        code: "raw-struct-mismatch",
        path: "/a",
      });
    }
  });

  test("raw text without args: checked against {}", () => {
    expectStructJsonError(() => toolCallToJson(arrived(undefined, '{"a":1}')), {
      code: "raw-struct-mismatch",
      path: "/a",
    });
    expect(toolCallToJson(arrived(undefined, " {} "))).toBe(" {} ");
  });
});

describe("raw text that agrees is returned byte for byte", () => {
  test.each([
    ['  {"a":1,"s":"x"}\n'],
    ['{ "s" : "x" , "a" : 1.0 }'],
    ['{"a":1e0,"s":"\\u0078"}'],
    ['{"a":1.0000000000000001,"s":"x"}'],
  ])("%s", (raw) => {
    const { list, onDiagnostic } = collectDiagnostics();
    expect(toolCallToJson(arrived(ARGS, raw), null, { onDiagnostic })).toBe(raw);
    expect(list).toEqual([]);
  });
});

describe("why raw text is never spliced unverified into a larger JSON document", () => {
  // A client that builds its JSON-RPC request by concatenation, as in
  // `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{…,"arguments":TEXT}}`,
  // lets TEXT close the envelope and add members of its own; most JSON parsers
  // keep the last of duplicate members, so the injected ones win.
  const injected = '{"a":1,"s":"x"}},"id":99,"method":"shutdown","params":{"z":{"w":1}';
  const envelope = (text: string) =>
    JSON.parse(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":${text}}}`,
    ) as { id: number; method: string; params: unknown };

  test('"verify" (the default) hands over one JSON object only: the envelope keeps its members', () => {
    const text = toolCallToJson(arrived(ARGS, injected));
    expect(text).toBe(STRUCT_TEXT);
    expect(envelope(text)).toEqual({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "t", arguments: ARGS },
    });
  });

  test('"trust" returns the text unparsed: spliced, it rewrites the request (documented: trusted pipelines only)', () => {
    const text = toolCallToJson(arrived(ARGS, injected), null, { rawJson: "trust" });
    expect(text).toBe(injected);
    expect(envelope(text)).toMatchObject({ id: 99, method: "shutdown" });
  });
});

describe("signed zero: -0 and +0 are different float64s (issue 12)", () => {
  const rows: [name: string, args: JsonObject, raw: string, path: string][] = [
    ["the issue's case", { a: 0, b: -0 }, '{"a":-0.0,"b":0}', "/a"],
    ["-0 written, +0 carried", { a: 0 }, '{"a":-0}', "/a"],
    ["+0 written, -0 carried", { a: -0 }, '{"a":0}', "/a"],
    ["-0e5 written, +0 carried", { a: 0 }, '{"a":-0e5}', "/a"],
    ["inside an array", { l: [0, 0] }, '{"l":[0,-0.0]}', "/l/1"],
    ["inside a nested object", { o: { z: -0 } }, '{"o":{"z":0.0}}', "/o/z"],
  ];
  for (const [name, args, raw, path] of rows) {
    test(`${name}: raw-struct-mismatch at ${path}`, () => {
      const call = arrived(args, raw);
      expectStructJsonError(() => toolCallToJson(call), {
        code: "raw-struct-mismatch",
        path,
      });
      const result = fromBinary(
        MCPToolResultSchema,
        toBinary(
          MCPToolResultSchema,
          create(MCPToolResultSchema, { structuredContent: args, rawStructuredContentJson: raw }),
        ),
      );
      expectStructJsonError(() => toolResultToJson(result), { code: "raw-struct-mismatch", path });
    });
  }
  test("the same sign on both sides agrees, and the raw text goes through untouched", () => {
    for (const [args, raw] of [
      [{ a: -0, b: 0 }, '{"a":-0.0,"b":0}'],
      [{ a: -0 }, '{"a":-0}'],
      [{ a: 0 }, '{"a":0e-3}'],
    ] as const) {
      expect(toolCallToJson(arrived(args, raw))).toBe(raw);
    }
  });
  test("the decoder tells them apart too (at number positions)", () => {
    const schema = { type: "object", additionalProperties: { type: "number" } } as const;
    expect(toolCallToJson(arrived({ a: 0, b: -0 }, "x"), schema, { rawJson: "ignore" })).toBe(
      '{"a":0.0,"b":-0.0}',
    );
  });
});

describe("raw text 100,000 levels deep with a raised recursionLimit", () => {
  // The verification walks the path of each number written with a fraction
  // (`1.0`); that walk keeps its own stack, so depth never reaches the call stack.
  for (const [name, text] of [
    ["arrays, 1.0 at the bottom", `{"a":${"[".repeat(100_000)}1.0${"]".repeat(100_000)}}`],
    ["objects, 1.0 at the bottom", `{"a":${'{"a":'.repeat(100_000)}1.0${"}".repeat(100_000)}}`],
  ] as const) {
    test(`${name}: verified and passed on untouched, no stack overflow`, () => {
      const call = toolCallFromJson({ name: "t", argumentsJson: text }, { recursionLimit: 1e9 });
      const schema = { type: "object", properties: { a: {} } };
      expect(toolCallToJson(call, schema, { recursionLimit: 1e9 })).toBe(text);
    });
  }
});
