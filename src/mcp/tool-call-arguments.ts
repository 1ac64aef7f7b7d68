// The MCP SDK's client takes a tool's arguments as an object, not as text. This
// turns the bridge's exact argument text into such an object without letting
// JavaScript round any number on the way.

import type { CallMCPTool } from "../../gen/toolbridge/v1/toolbridge_pb.js";
import { StructJsonError } from "../errors.js";
import {
  type CompiledSchema,
  type JsonSchema,
  type ToolCallArgumentsOptions,
  toolCallArgumentsJson,
} from "../index.js";
import { exactNumberValue } from "./exact-number.js";
import { buildExactJson } from "./exact-parse.js";

/**
 * Checks `text` with JSON.parse; on failure throws `invalid-json` carrying the
 * position JSON.parse reported, if any, and nothing of the engine's message
 * (which may quote the text).
 */
export function assertJsonText(text: string, what: string): void {
  try {
    JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    const at = /position (\d+)/.exec(e.message);
    throw new StructJsonError(
      "invalid-json",
      "",
      `${what} are not well-formed JSON`,
      at === null ? undefined : { position: Number(at[1]) },
    );
  }
}

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
  assertJsonText(json, "the arguments");
  const built = buildExactJson(json, (text, path) => exactNumberValue(text, path()), true);
  if ("duplicate" in built) {
    throw new StructJsonError(
      "invalid-json",
      "",
      `a member name is repeated at ${built.duplicate}`,
    );
  }
  const value = built.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new StructJsonError("not-an-object", "", "tool arguments must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/**
 * The arguments of `call` as an object for the MCP SDK's `client.callTool`,
 * exactly as `toolCallArgumentsJson(call, inputSchema, options)` writes them:
 * big ids and whole floats keep their digits (see {@link exactJsonArguments}).
 */
export function toolCallArguments(
  call: CallMCPTool,
  inputSchema?: JsonSchema | CompiledSchema | null,
  options?: Partial<ToolCallArgumentsOptions>,
): Record<string, unknown> {
  return exactJsonArguments(toolCallArgumentsJson(call, inputSchema, options));
}
