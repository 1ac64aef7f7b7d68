// The inspector's DOM-free logic in Node: number tokens and their paths,
// message type detection, schema box parsing, and the report for each bundled
// example. The browser tests then only need to check the drawing.

import { create, toBinary, toJsonString } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { describe, expect, test } from "vitest";
import { EXAMPLES } from "../../examples/inspector/src/examples.js";
import { inspectMessage } from "../../examples/inspector/src/inspect.js";
import { numberTokens } from "../../examples/inspector/src/json-numbers.js";
import { InputError, readMessage } from "../../examples/inspector/src/read-message.js";
import { pickSchema, readSchemaInput } from "../../examples/inspector/src/schema-input.js";
import { CallMCPToolSchema, ClientActionSchema, MCPToolResultSchema } from "../../src/messages.js";

const tokens = (text: string) =>
  numberTokens(text).map((t) => [t.path, text.slice(t.start, t.end)]);

describe("numberTokens", () => {
  test.each([
    ["{}", []],
    ['{"a":1}', [["/a", "1"]]],
    [
      '{ "a" : -0.5e+3 , "b" : [ 1 , [ 2 ] , {"c": 3} ] }',
      [
        ["/a", "-0.5e+3"],
        ["/b/0", "1"],
        ["/b/1/0", "2"],
        ["/b/2/c", "3"],
      ],
    ],
    [
      '{"a/b":1,"m~n":2,"\\u0041":3,"":4}',
      [
        ["/a~1b", "1"],
        ["/m~0n", "2"],
        ["/A", "3"],
        ["/", "4"],
      ],
    ],
    ['{"s":"1, 2, \\"3\\"","n":[true,false,null,4]}', [["/n/3", "4"]]],
    [
      '{"a":{"b":1},"c":2}',
      [
        ["/a/b", "1"],
        ["/c", "2"],
      ],
    ],
    [
      "[1,2]",
      [
        ["/0", "1"],
        ["/1", "2"],
      ],
    ],
    ["7", [["", "7"]]],
  ])("%s", (text, expected) => {
    expect(tokens(text)).toEqual(expected);
  });

  test.each([
    ['{"a":1,"b":', [["/a", "1"]]],
    ['{"a":01}', [["/a", "0"]]],
    ['{"a" 1}', []],
    ['{"a":1}}}}', [["/a", "1"]]],
    ["{{{{[[[[", []],
    ['{"a":"\u0001"}', []],
    ["", []],
  ])("malformed %j: stops quietly", (text, expected) => {
    expect(tokens(text)).toEqual(expected);
  });
});

const call = create(CallMCPToolSchema, { name: "get_user", args: { user_id: 5 } });
const action = create(ClientActionSchema, {
  actionId: "a1",
  action: { case: "callMcpTool", value: call },
});
const result = create(MCPToolResultSchema, { actionId: "a1", structuredContent: { n: 1 } });

describe("readMessage", () => {
  test.each([
    [
      "ClientAction binary",
      base64Encode(toBinary(ClientActionSchema, action)),
      "ClientAction",
      "binary",
    ],
    [
      "CallMCPTool binary",
      base64Encode(toBinary(CallMCPToolSchema, call)),
      "CallMCPTool",
      "binary",
    ],
    [
      "MCPToolResult binary",
      base64Encode(toBinary(MCPToolResultSchema, result)),
      "MCPToolResult",
      "binary",
    ],
    [
      "ClientAction ProtoJSON",
      toJsonString(ClientActionSchema, action),
      "ClientAction",
      "protojson",
    ],
    ["CallMCPTool ProtoJSON", toJsonString(CallMCPToolSchema, call), "CallMCPTool", "protojson"],
    [
      "MCPToolResult ProtoJSON",
      toJsonString(MCPToolResultSchema, result),
      "MCPToolResult",
      "protojson",
    ],
    [
      "base64url without padding, with line breaks",
      base64Encode(toBinary(ClientActionSchema, action), "url").replace(/(.{8})/g, "$1\n"),
      "ClientAction",
      "binary",
    ],
  ])("auto-detects %s", (_name, text, kind, format) => {
    const m = readMessage(text, "auto");
    expect([m.kind, m.format]).toEqual([kind, format]);
  });

  test.each([
    ["", "auto", "paste a message (base64 or ProtoJSON) first"],
    [
      "not base64!",
      "auto",
      "not base64 and not ProtoJSON: paste binary protobuf as base64, or a ProtoJSON object",
    ],
    ["QQ", "ClientAction", /^cannot read the binary input as ClientAction: ClientAction: /],
    [
      '{"actionId":"x"}',
      "auto",
      "the input reads as ClientAction and as MCPToolResult: choose the message type",
    ],
    [
      "{}",
      "auto",
      "the input reads as ClientAction and as CallMCPTool and as MCPToolResult: choose the message type",
    ],
    [
      '{"nope":1}',
      "auto",
      /^cannot read the protojson input as ClientAction or CallMCPTool or MCPToolResult: /,
    ],
    [
      '{"actionId":"x"}',
      "ClientAction",
      "the ClientAction carries no action (call_mcp_tool is not set)",
    ],
    ["{", "auto", /^cannot read the protojson input/],
  ] as const)("refuses %j (%s)", (text, kind, message) => {
    expect(() => readMessage(text, kind)).toThrow(InputError);
    expect(() => readMessage(text, kind)).toThrow(message);
  });

  test("an explicit type reads what auto-detection calls ambiguous", () => {
    const m = readMessage('{"actionId":"x"}', "MCPToolResult");
    expect([m.kind, m.actionId]).toEqual(["MCPToolResult", "x"]);
  });
});

describe("schema box", () => {
  const tool = { name: "t", inputSchema: { type: "object" }, outputSchema: { type: "array" } };
  test.each([
    ["", "t", undefined, "no schema"],
    ['{"type":"object"}', "t", { type: "object" }, "the schema given"],
    ["true", undefined, true, "the schema given"],
    [JSON.stringify(tool), "t", { type: "object" }, "inputSchema of tool t"],
    [JSON.stringify(tool), undefined, { type: "array" }, "outputSchema of tool t"],
    [JSON.stringify({ tools: [tool] }), "t", { type: "object" }, "inputSchema of tool t"],
    [JSON.stringify([tool]), "u", undefined, "no schema (no tool named u)"],
    [
      JSON.stringify({ tools: [tool, { ...tool, name: "u" }] }),
      undefined,
      undefined,
      "no schema (a result names no tool: paste the one tool or its outputSchema)",
    ],
  ])("%s for tool %s", (text, name, schema, source) => {
    expect(pickSchema(readSchemaInput(text), name)).toEqual({ schema, source });
  });

  test.each([
    ["{", /^the schema is not JSON: /],
    ["3", "the schema must be a JSON Schema (object or boolean), a tool, or a tools/list result"],
    ['{"tools":[1]}', "a tools list must hold { name, inputSchema } objects only"],
  ])("refuses %j", (text, message) => {
    expect(() => readSchemaInput(text)).toThrow(message);
  });
});

describe("the bundled examples", () => {
  const report = (id: string) => {
    const ex = EXAMPLES.find((e) => e.id === id)!;
    return inspectMessage(ex.message(), ex.schema);
  };

  test("every example decodes without an unexpected failure", () => {
    for (const ex of EXAMPLES) expect(() => inspectMessage(ex.message(), ex.schema)).not.toThrow();
  });

  test.each([
    ["ticket-raw", "verified", undefined],
    ["ticket-struct", "absent", undefined],
    ["user-protojson", "verified", undefined],
    ["alert-written-as-float", "verified", undefined],
    ["raw-malformed", "malformed", undefined],
    ["raw-mismatch", "mismatch", "raw-struct-mismatch"],
    ["rows-result", "absent", undefined],
    ["no-schema", "absent", undefined],
  ])("%s: raw text %s", (id, raw, errorCode) => {
    const r = report(id);
    expect(r.raw).toBe(raw);
    expect(r.error?.code).toBe(errorCode);
  });

  test("user-protojson: the id survives in the raw text only", () => {
    const r = report("user-protojson");
    expect([r.kind, r.format, r.output, r.plainToJson]).toEqual([
      "ClientAction",
      "protojson",
      '{"user_id": 9007199254740993}',
      '{"user_id":9007199254740992}',
    ]);
    expect(r.numbers.map((n) => [n.path, n.bridgeText, n.mark, n.structCodes])).toEqual([
      ["/user_id", "9007199254740993", "integer restored", ["integer-precision-lost"]],
    ]);
  });

  test("raw-malformed: the Struct is used and the diagnostic says why", () => {
    const r = report("raw-malformed");
    expect(r.output).toBe('{"file":"internal/server/handler.go","line":142,"column":17}');
    expect(r.diagnostics).toEqual([{ code: "raw-json-invalid", path: "" }]);
  });

  test("rows-result: ids above 2^53 in a row set are marked lost; floats keep their point", () => {
    const r = report("rows-result");
    expect(r.kind).toBe("MCPToolResult");
    expect(r.numbers.map((n) => [n.path, n.bridgeText, n.mark])).toEqual([
      ["/query/min_id", "9007199254740992", "precision lost"],
      ["/query/limit", "2", "integer restored"],
      ["/rows/0/0", "9007199254740992", "precision lost"],
      ["/rows/0/2", "1.0", "number"],
      ["/rows/1/0", "9007199254740996", "precision lost"],
      ["/rows/1/2", "0.5", "number"],
    ]);
  });

  test("no-schema: every reading unknown, JavaScript's shortest form", () => {
    const r = report("no-schema");
    expect(r.output).toBe(
      '{"issue_ids":[9007199254740992,9007199254740996,4821],"label":"needs-triage"}',
    );
    expect(r.numbers.map((n) => n.mark)).toEqual(["unknown", "unknown", "unknown"]);
  });

  test("wholeFloats integer and rawJson ignore change the output", () => {
    const ex = EXAMPLES.find((e) => e.id === "ticket-raw")!;
    const r = inspectMessage(ex.message(), ex.schema, {
      rawJson: "ignore",
      wholeFloats: "integer",
    });
    expect(r.raw).toBe("ignored");
    expect(r.output).toBe(
      '{"ticket":{"title":"Fix off-by-one in pager","assignee":{"user_id":9007199254740996,"team_id":null},"location":{"file":"pager.py","line":88,"column":5},"estimate_hours":2,"watcher_ids":[18014398509481984,42]}}',
    );
  });
});

describe("hostile input", () => {
  const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

  test("args nested 100000 deep: a clear message, no crash", () => {
    expect(() =>
      inspectMessage(`{"name":"t","args":${nested(100_000)}}`, "", { kind: "CallMCPTool" }),
    ).toThrow(
      "cannot read the protojson input as CallMCPTool: CallMCPTool: cannot decode google.protobuf.Value from JSON: maximum recursion depth of 100 reached",
    );
  });

  test("raw text nested 100000 deep is rejected as malformed; the Struct is used", () => {
    const text = JSON.stringify({ name: "t", args: { a: 1 }, rawArgsJson: nested(100_000) });
    const r = inspectMessage(text, "");
    expect([r.raw, r.output, r.diagnostics]).toEqual([
      "malformed",
      '{"a":1}',
      [{ code: "raw-json-invalid", path: "" }],
    ]);
  });

  test('"__proto__" is an ordinary key all the way to the page', () => {
    const text = JSON.stringify({
      name: "t",
      rawArgsJson: '{"__proto__":{"x":5}}',
      args: JSON.parse('{"__proto__":{"x":5}}'),
    });
    const r = inspectMessage(
      text,
      '{"properties":{"__proto__":{"properties":{"x":{"type":"integer"}}}}}',
    );
    expect([r.raw, r.output]).toEqual(["verified", '{"__proto__":{"x":5}}']);
    expect(r.numbers.map((n) => [n.path, n.mark])).toEqual([["/__proto__/x", "integer restored"]]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test("raw text with markup is shown as text: the report carries it verbatim", () => {
    const raw = '{"s":"<img src=x onerror=alert(1)>"}';
    const r = inspectMessage(
      JSON.stringify({ name: "t", args: JSON.parse(raw), rawArgsJson: raw }),
      "",
    );
    expect(r.output).toBe(raw);
  });
});
