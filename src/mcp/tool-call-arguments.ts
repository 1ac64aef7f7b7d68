// The MCP SDK's client takes a tool's arguments as an object, not as text. This
// turns the bridge's exact argument text into such an object without letting
// JavaScript round any number on the way.

import { isLosslessNumber, parse } from "lossless-json";
import type { CallMCPTool } from "../../gen/toolbridge/v1/toolbridge_pb.js";
import { rethrowStackOverflow, StructJsonError } from "../errors.js";
import {
  type CompiledSchema,
  type JsonSchema,
  type ToolCallArgumentsOptions,
  toolCallArgumentsJson,
} from "../index.js";
import { type JsonPointer, pointerAppend } from "../json-pointer.js";
import { exactNumberValue } from "./exact-number.js";

function convert(value: unknown, path: JsonPointer): unknown {
  if (isLosslessNumber(value)) return exactNumberValue(value.value, path);
  if (Array.isArray(value)) return value.map((v, i) => convert(v, pointerAppend(path, i)));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // defineProperty: "__proto__" is an ordinary member name here, never a prototype.
      Object.defineProperty(out, key, {
        value: convert((value as Record<string, unknown>)[key], pointerAppend(path, key)),
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/**
 * Turns JSON object text into a plain object for `client.callTool({ arguments })`
 * in which every number JavaScript would write differently (9007199254740993,
 * `1.0`) is a `JSON.rawJSON` value (Node ≥ 22) or an {@link ExactNumber}
 * (older runtimes: send those through `ExactStdioClientTransport`).
 */
export function exactJsonArguments(json: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = parse(json);
  } catch (e) {
    if (e instanceof SyntaxError) {
      throw new StructJsonError("invalid-json", "", "the arguments are not well-formed JSON", {
        cause: e,
      });
    }
    rethrowStackOverflow(e);
  }
  if (
    parsed === null ||
    typeof parsed !== "object" ||
    Array.isArray(parsed) ||
    isLosslessNumber(parsed)
  ) {
    throw new StructJsonError("not-an-object", "", "tool arguments must be a JSON object");
  }
  try {
    return convert(parsed, "") as Record<string, unknown>;
  } catch (e) {
    rethrowStackOverflow(e);
  }
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
