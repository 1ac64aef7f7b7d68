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

describe("the init object's fields become the message's: a field of another type is message-invalid at its path", () => {
  const call = toolCallFromJson as (init: unknown) => unknown;
  const result = toolResultFromJson as (init: unknown) => unknown;
  const thrown = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      const { name, code, path } = e as { name: string; code: string; path: string };
      return { name, code, path };
    }
    return "returned";
  };
  const invalid = (path: string) => ({ name: "StructJsonError", code: "message-invalid", path });
  test.each<[string, () => unknown, unknown]>([
    ["call: null", () => call(null), invalid("")],
    ["call: undefined", () => call(undefined), invalid("")],
    ["call: an array", () => call([]), invalid("/name")],
    ["call: no name", () => call({ argumentsJson: "{}" }), invalid("/name")],
    ["call: a number as name", () => call({ name: 5, argumentsJson: "{}" }), invalid("/name")],
    [
      "call: a number as serverId",
      () => call({ name: "a", serverId: 5, argumentsJson: "{}" }),
      invalid("/serverId"),
    ],
    [
      "call: null as serverId",
      () => call({ name: "a", serverId: null, argumentsJson: "{}" }),
      invalid("/serverId"),
    ],
    ["result: null", () => result(null), invalid("")],
    ["result: a string", () => result("{}"), invalid("")],
    [
      "result: a number as actionId",
      () => result({ actionId: 1, structuredContentJson: "{}" }),
      invalid("/actionId"),
    ],
    [
      "result: a string as isError",
      () => result({ structuredContentJson: "{}", isError: "false" }),
      invalid("/isError"),
    ],
    // protobuf-es writes a string as UTF-8, a lone surrogate as U+FFFD: the
    // field would arrive changed, so it is refused (as in the argument text).
    [
      "call: a lone high surrogate in name",
      () => call({ name: "a\ud800", argumentsJson: "{}" }),
      invalid("/name"),
    ],
    [
      "call: a lone low surrogate in serverId",
      () => call({ name: "a", serverId: "\udc00x", argumentsJson: "{}" }),
      invalid("/serverId"),
    ],
    [
      "call: surrogates the wrong way round",
      () => call({ name: "\ude00\ud83d", argumentsJson: "{}" }),
      invalid("/name"),
    ],
    [
      "result: a lone surrogate in actionId",
      () => result({ actionId: "\ud800", structuredContentJson: "{}" }),
      invalid("/actionId"),
    ],
    [
      "call: a surrogate pair is a character",
      () => call({ name: "\ud83d\ude00", serverId: "\u00e9", argumentsJson: "{}" }),
      "returned",
    ],
  ])("%s", (_name, f, expected) => {
    expect(thrown(f)).toEqual(expected);
  });

  test("a field holding a lone surrogate: the message says so, never quoting it", () => {
    expect(() => call({ name: "tool\ud800", argumentsJson: "{}" })).toThrow(
      "message-invalid at /name: not a valid string",
    );
  });

  test("optional fields left out (or undefined) take the message's defaults", () => {
    expect(call({ name: "a", serverId: undefined, argumentsJson: "{}" })).toEqual(
      create(CallMCPToolSchema, { name: "a", args: {}, rawArgsJson: "{}" }),
    );
    expect(result({ structuredContentJson: "{}", isError: undefined })).toEqual(
      create(MCPToolResultSchema, { structuredContent: {}, rawStructuredContentJson: "{}" }),
    );
  });
});
