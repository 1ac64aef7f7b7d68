// CallMCPTool and MCPToolResult as protobuf-es's `create()` returns them for
// these proto3 messages: a plain object with `$typeName`, every implicit field
// at its value or zero, and an `optional` field present only when set. Built
// here rather than with `create(CallMCPToolSchema, …)` because importing the
// generated file boots its embedded descriptor, which pulls protobuf-es's
// registry and descriptor messages (~10 kB gzip) into every bundle of the
// root entry. test/tool-messages.test.ts holds these against `create()` and
// the generated schemas' field lists, so a change to the .proto fails there.

import type { JsonObject } from "@bufbuild/protobuf";
import type { CallMCPTool, MCPToolResult } from "../../gen/toolbridge/v1/toolbridge_pb.js";

/** A `toolbridge.v1.CallMCPTool` message. */
export function callMcpToolMessage(
  serverId: string,
  name: string,
  args: JsonObject,
  rawArgsJson: string | undefined,
): CallMCPTool {
  const message: CallMCPTool = { $typeName: "toolbridge.v1.CallMCPTool", serverId, name, args };
  if (rawArgsJson !== undefined) message.rawArgsJson = rawArgsJson;
  return message;
}

/** A `toolbridge.v1.MCPToolResult` message. */
export function mcpToolResultMessage(
  actionId: string,
  structuredContent: JsonObject,
  rawStructuredContentJson: string | undefined,
  isError: boolean,
): MCPToolResult {
  const message: MCPToolResult = {
    $typeName: "toolbridge.v1.MCPToolResult",
    actionId,
    structuredContent,
    isError,
  };
  if (rawStructuredContentJson !== undefined) {
    message.rawStructuredContentJson = rawStructuredContentJson;
  }
  return message;
}
