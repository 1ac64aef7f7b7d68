// The messages toolCallFromJson and toolResultFromJson build without the
// generated file are exactly what protobuf-es's create() gives.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import { CallMCPToolSchema, MCPToolResultSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { toolCallFromJson, toolResultFromJson } from "../src/index.js";

describe("messages built without the generated file", () => {
  test.each([
    { name: "t", argumentsJson: '{"a":1}' },
    { name: "t", serverId: "s", argumentsJson: '{"id":9007199254740993}' },
    { name: "", serverId: "", argumentsJson: "{}" },
  ])("CallMCPTool $argumentsJson equals create()'s, with and without the text", (init) => {
    for (const rawArgsJson of ["always", "never"] as const) {
      const built = toolCallFromJson(init, { rawArgsJson });
      const expected = create(CallMCPToolSchema, {
        name: init.name,
        serverId: init.serverId ?? "",
        args: JSON.parse(init.argumentsJson),
        ...(rawArgsJson === "always" ? { rawArgsJson: init.argumentsJson } : {}),
      });
      expect(built).toStrictEqual(expected);
      expect(fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, built))).toStrictEqual(
        expected,
      );
    }
  });

  test.each([
    { structuredContentJson: '{"rows":[{"id":1}]}' },
    { actionId: "a", structuredContentJson: "{}", isError: true },
  ])("MCPToolResult $structuredContentJson equals create()'s", (init) => {
    for (const rawStructuredContentJson of ["always", "never"] as const) {
      const built = toolResultFromJson(init, { rawStructuredContentJson });
      const expected = create(MCPToolResultSchema, {
        actionId: init.actionId ?? "",
        isError: init.isError ?? false,
        structuredContent: JSON.parse(init.structuredContentJson),
        ...(rawStructuredContentJson === "always"
          ? { rawStructuredContentJson: init.structuredContentJson }
          : {}),
      });
      expect(built).toStrictEqual(expected);
    }
  });

  test("the .proto's fields are the ones built (a new field fails here)", () => {
    expect(CallMCPToolSchema.fields.map((f) => f.localName)).toEqual([
      "serverId",
      "name",
      "args",
      "rawArgsJson",
    ]);
    expect(MCPToolResultSchema.fields.map((f) => f.localName)).toEqual([
      "actionId",
      "structuredContent",
      "rawStructuredContentJson",
      "isError",
    ]);
    expect(CallMCPToolSchema.typeName).toBe("toolbridge.v1.CallMCPTool");
    expect(MCPToolResultSchema.typeName).toBe("toolbridge.v1.MCPToolResult");
  });
});
