// The proto contract as other teams see it: round trips through binary and
// ProtoJSON, field presence of raw_args_json, and pass-through by an older peer
// that was generated before raw_args_json existed.
import { create, fromBinary, fromJson, type JsonValue, toBinary, toJson } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  ClientActionSchema,
  MCPToolResultSchema,
  StreamActionsRequestSchema,
  SubmitResultResponseSchema,
  ToolCallService,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import {
  ClientActionSchema as LegacyClientActionSchema,
  MCPToolResultSchema as LegacyMCPToolResultSchema,
} from "./fixtures/legacy/gen/toolbridge/v1/toolbridge_pb.js";

const rawArgs = '{"id": 9007199254740993, "line": 5, "temp": 1.0}';

function sampleCall(raw: string | undefined): CallMCPTool {
  return create(CallMCPToolSchema, {
    serverId: "code",
    name: "open_file",
    args: { id: 9007199254740992, line: 5, temp: 1, nested: { list: [1, "a", true, null] } },
    ...(raw === undefined ? {} : { rawArgsJson: raw }),
  });
}

describe("round trips", () => {
  const cases = [
    {
      name: "ClientAction with raw_args_json",
      schema: ClientActionSchema,
      message: create(ClientActionSchema, {
        actionId: "a1",
        action: { case: "callMcpTool", value: sampleCall(rawArgs) },
      }),
    },
    {
      name: "ClientAction without raw_args_json",
      schema: ClientActionSchema,
      message: create(ClientActionSchema, {
        actionId: "a2",
        action: { case: "callMcpTool", value: sampleCall(undefined) },
      }),
    },
    {
      name: "MCPToolResult",
      schema: MCPToolResultSchema,
      message: create(MCPToolResultSchema, {
        actionId: "a1",
        structuredContent: { rows: [[1, "Ada"]] },
        rawStructuredContentJson: '{"rows":[[1,"Ada"]]}',
        isError: true,
      }),
    },
    {
      name: "StreamActionsRequest",
      schema: StreamActionsRequestSchema,
      message: create(StreamActionsRequestSchema, { clientId: "c" }),
    },
    {
      name: "SubmitResultResponse",
      schema: SubmitResultResponseSchema,
      message: create(SubmitResultResponseSchema, { accepted: true }),
    },
  ] as const;

  for (const c of cases) {
    test(`${c.name} through binary`, () => {
      // biome-ignore lint/suspicious/noExplicitAny: one loop over differently typed schemas
      const schema = c.schema as any;
      const back = fromBinary(schema, toBinary(schema, c.message));
      expect(back).toEqual(c.message);
    });
    test(`${c.name} through ProtoJSON`, () => {
      // biome-ignore lint/suspicious/noExplicitAny: one loop over differently typed schemas
      const schema = c.schema as any;
      const json = toJson(schema, c.message) as JsonValue;
      const back = fromJson(schema, JSON.parse(JSON.stringify(json)));
      expect(back).toEqual(c.message);
    });
  }

  test("ProtoJSON field names are the documented ones", () => {
    const json = toJson(ClientActionSchema, cases[0].message);
    expect(json).toEqual({
      actionId: "a1",
      callMcpTool: {
        serverId: "code",
        name: "open_file",
        args: { id: 9007199254740992, line: 5, temp: 1, nested: { list: [1, "a", true, null] } },
        rawArgsJson: rawArgs,
      },
    });
  });

  test("the service has the two documented methods", () => {
    expect(ToolCallService.typeName).toBe("toolbridge.v1.ToolCallService");
    expect(ToolCallService.method.streamActions.methodKind).toBe("server_streaming");
    expect(ToolCallService.method.submitResult.methodKind).toBe("unary");
  });
});

describe("field presence", () => {
  const cases = [
    { name: "unset", raw: undefined, expected: false },
    { name: "set to the empty string", raw: "", expected: true },
    { name: "set", raw: "{}", expected: true },
  ];
  for (const c of cases) {
    test(`raw_args_json ${c.name} survives binary and ProtoJSON`, () => {
      const call = sampleCall(c.raw);
      const viaBinary = fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, call));
      const viaJson = fromJson(CallMCPToolSchema, toJson(CallMCPToolSchema, call));
      for (const back of [viaBinary, viaJson]) {
        expect(back.rawArgsJson !== undefined).toBe(c.expected);
        expect(back.rawArgsJson).toBe(c.raw);
      }
    });
  }
});

describe("an older peer without raw_args_json", () => {
  test("relays ClientAction bytes with raw_args_json untouched (unknown fields kept)", () => {
    const action = create(ClientActionSchema, {
      actionId: "relay",
      action: { case: "callMcpTool", value: sampleCall(rawArgs) },
    });
    const bytes = toBinary(ClientActionSchema, action);
    const legacy = fromBinary(LegacyClientActionSchema, bytes);
    expect(legacy.action.case).toBe("callMcpTool");
    // The legacy type has no such field: the text travels as an unknown field.
    expect(Object.hasOwn(legacy.action.value ?? {}, "rawArgsJson")).toBe(false);
    const relayed = toBinary(LegacyClientActionSchema, legacy);
    const back = fromBinary(ClientActionSchema, relayed);
    expect(back.action.case === "callMcpTool" && back.action.value.rawArgsJson).toBe(rawArgs);
    expect(back).toEqual(action);
  });

  test("relays MCPToolResult bytes with raw_structured_content_json untouched", () => {
    const result = create(MCPToolResultSchema, {
      actionId: "r",
      structuredContent: { id: 9007199254740992 },
      rawStructuredContentJson: '{"id":9007199254740993}',
    });
    const relayed = toBinary(
      LegacyMCPToolResultSchema,
      fromBinary(LegacyMCPToolResultSchema, toBinary(MCPToolResultSchema, result)),
    );
    expect(fromBinary(MCPToolResultSchema, relayed).rawStructuredContentJson).toBe(
      '{"id":9007199254740993}',
    );
  });

  test("a message from the older peer decodes with raw_args_json absent, not empty", () => {
    const legacy = create(LegacyClientActionSchema, {
      actionId: "old",
      action: { case: "callMcpTool", value: { name: "t", args: { a: 1 } } },
    });
    const back = fromBinary(ClientActionSchema, toBinary(LegacyClientActionSchema, legacy));
    expect(back.action.case).toBe("callMcpTool");
    expect(back.action.case === "callMcpTool" && back.action.value.rawArgsJson).toBe(undefined);
  });
});
