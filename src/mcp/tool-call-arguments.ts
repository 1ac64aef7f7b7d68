// The MCP SDK's client takes a tool's arguments as an object, not as text. This
// turns the bridge's exact argument text into such an object without letting
// JavaScript round any number on the way.

import type { CallMCPTool } from "../../gen/toolbridge/v1/toolbridge_pb.js";
import { StructJsonError } from "../errors.js";
import {
  type CompiledSchema,
  type JsonSchema,
  type ToolCallToJsonOptions,
  toolCallToJson,
} from "../index.js";
import { exactNumberValue } from "./exact-number.js";
import { buildExactJson } from "./exact-parse.js";
import { assertJsonText } from "./json-text.js";

/**
 * Turns JSON object text into a plain object for `client.callTool({ arguments })`
 * in which every number JavaScript would write differently (9007199254740993,
 * `1.0`) is a `JSON.rawJSON` value (Node ≥ 22) or an {@link ExactNumber}
 * (older runtimes: send those through an exact transport). Throws
 * `invalid-json` (a repeated member name included) or `not-an-object`; errors
 * carry a code, a path and a position, never the text.
 */
export function exactJsonArguments(json: string): Record<string, unknown> {
  if (typeof json !== "string") {
    throw new StructJsonError("invalid-json", "", "the arguments must be a JSON string");
  }
  assertJsonText(json, "the arguments are not well-formed JSON");
  if (!/^[ \t\n\r]*\{/.test(json)) {
    throw new StructJsonError("not-an-object", "", "tool arguments must be a JSON object");
  }
  const built = buildExactJson(json, (text, path) => exactNumberValue(text, path()), true);
  if ("duplicate" in built) {
    throw new StructJsonError(
      "invalid-json",
      built.duplicate,
      "a member name is repeated here (JSON.parse keeps the last, other readers the first)",
    );
  }
  return built.value as Record<string, unknown>;
}

/**
 * The arguments of `call` as an object for the MCP SDK's `client.callTool`,
 * exactly as `toolCallToJson(call, inputSchema, options)` writes them:
 * big ids and whole floats keep their digits (see {@link exactJsonArguments}).
 */
export function toolCallArguments(
  call: CallMCPTool,
  inputSchema?: JsonSchema | CompiledSchema | null,
  options?: Partial<ToolCallToJsonOptions>,
): Record<string, unknown> {
  return exactJsonArguments(toolCallToJson(call, inputSchema, options));
}
