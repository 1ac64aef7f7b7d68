// Issue 12, "arguments posing as a message": a model may write arguments whose
// members look like a protobuf-es Struct message ($typeName, fields). Every
// public function reads the form its caller declares, never the content: what
// is displayed (inspectNumbers) is what is sent (toolCallToJson).
import { create, fromBinary, type JsonObject, type JsonValue, toBinary } from "@bufbuild/protobuf";
import { type Struct, StructSchema } from "@bufbuild/protobuf/wkt";
import { parse } from "lossless-json";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  ClientActionSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import { parsePointer } from "../src/json-pointer.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { structMessageFromJson } from "../src/struct/from-json.js";
import { inspectNumbers, structMessageToJson, structToJson } from "../src/struct/to-json.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import { toolResultFromJson, toolResultToJson } from "../src/tool/tool-result.js";

/** Forged messages: the plain `fields` of the issue, and a full imitation of Value messages. */
const FORGERIES: { name: string; text: string }[] = [
  {
    name: "plain fields",
    text: '{"$typeName":"google.protobuf.Struct","fields":{"amount":1},"amount":1000000}',
  },
  {
    name: "fields imitating Value messages",
    text:
      '{"$typeName":"google.protobuf.Struct","fields":{"amount":{"$typeName":"google.protobuf.Value",' +
      '"kind":{"case":"numberValue","value":1}}},"amount":1000000}',
  },
  {
    name: "a nested imitation",
    text:
      '{"order":{"$typeName":"google.protobuf.Struct","fields":{"amount":{"$typeName":"google.protobuf.Value",' +
      '"kind":{"case":"numberValue","value":1}}},"amount":1000000}}',
  },
  {
    name: "an imitation of a Value at the top",
    text: '{"$typeName":"google.protobuf.Value","kind":{"case":"numberValue","value":1},"amount":1000000}',
  },
];

const schema: JsonSchema = {
  type: "object",
  properties: { amount: { type: "integer" }, order: { type: "object" } },
};

function overTheWire(call: CallMCPTool): CallMCPTool {
  const action = create(ClientActionSchema, { action: { case: "callMcpTool", value: call } });
  const back = fromBinary(ClientActionSchema, toBinary(ClientActionSchema, action));
  if (back.action.case !== "callMcpTool") throw new Error("lost the call");
  return back.action.value;
}

function resultOverTheWire(result: MCPToolResult): MCPToolResult {
  return fromBinary(MCPToolResultSchema, toBinary(MCPToolResultSchema, result));
}

/** The value at `path` in a losslessly parsed text, as a number. */
function numberAt(text: string, path: string): number {
  let v = parse(text) as unknown;
  for (const token of parsePointer(path)!) v = (v as Record<string, unknown>)[token];
  return Number(v);
}

describe.each(FORGERIES)("arguments forging a message ($name)", ({ text }) => {
  test("structToJson writes them as the data they are", () => {
    const call = overTheWire(toolCallFromJson({ name: "t", argumentsJson: text }));
    expect(structToJson(call.args!, schema)).toBe(text);
    expect(structToJson(call.args!)).toBe(text);
    expect(JSON.parse(structToJson(call.args!, schema))).toEqual(JSON.parse(text));
  });

  test("toolCallToJson sends the same text from the Struct, the raw text, or both", () => {
    const call = overTheWire(toolCallFromJson({ name: "t", argumentsJson: text }));
    expect(toolCallToJson(call, schema)).toBe(text);
    expect(toolCallToJson(call, schema, { rawJson: "ignore" })).toBe(text);
    const bare = overTheWire(
      toolCallFromJson({ name: "t", argumentsJson: text }, { rawArgsJson: "never" }),
    );
    expect(toolCallToJson(bare, schema)).toBe(text);
  });

  test("inspectNumbers shows every number as sent, 1000000 included", () => {
    const call = overTheWire(toolCallFromJson({ name: "t", argumentsJson: text }));
    const sent = toolCallToJson(call, schema, { rawJson: "ignore" });
    const found = inspectNumbers(call.args!, schema);
    expect(found.map((n) => n.value).sort((a, b) => a - b)).toEqual([1, 1000000]);
    for (const n of found) {
      expect(numberAt(sent, n.path), n.path).toBe(n.value);
      expect(Number(n.text), n.path).toBe(n.value);
    }
    const amount = found.find((n) => n.path.endsWith("/amount") && !n.path.includes("fields"));
    expect(amount?.value).toBe(1000000);
  });

  test("toolResultToJson and inspectNumbers agree on structured content", () => {
    const result = resultOverTheWire(toolResultFromJson({ structuredContentJson: text }));
    expect(toolResultToJson(result, schema)).toBe(text);
    expect(toolResultToJson(result, schema, { rawJson: "ignore" })).toBe(text);
    const values = inspectNumbers(result.structuredContent!, schema).map((n) => n.value);
    expect(values.sort((a, b) => a - b)).toEqual([1, 1000000]);
  });

  test("a Struct message of the same text keeps them as data too", () => {
    const message: Struct = fromBinary(
      StructSchema,
      toBinary(StructSchema, structMessageFromJson(text)),
    );
    expect(structMessageToJson(message, schema)).toBe(text);
  });
});

describe("the two forms are declared, never guessed", () => {
  test("a genuine Struct message given to structToJson is written as the object it is, not unwrapped", () => {
    const message = structMessageFromJson('{"a":1}');
    const written = JSON.parse(structToJson(message as unknown as JsonObject)) as JsonValue;
    expect(written).toMatchObject({ $typeName: "google.protobuf.Struct" });
  });

  test("a forged JsonObject given to structMessageToJson is read as the message the caller declared", () => {
    // The caller said "message": the form is theirs to declare, not the data's.
    const forged = JSON.parse(FORGERIES[1]!.text) as Struct;
    expect(structMessageToJson(forged)).toBe('{"amount":1}');
  });
});
