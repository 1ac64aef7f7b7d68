// A tool result's structuredContent as the server wrote it. The SDK's client
// transports read each message with JSON.parse, which rounds 9007199254740993;
// the exact transports record that member's text beside the parsed value.

import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { StructJsonError } from "../errors.js";
import { type MemberTextReader, memberTextReader } from "./json-span.js";
import { assertJsonText } from "./json-text.js";

/** The `_meta` key under which the exact client transports put a result's exact structuredContent text. */
export const STRUCTURED_CONTENT_JSON_META_KEY = "struct-json-bridge/structuredContentJson";

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * Records, in `message.result._meta`, the exact text of `message.result.structuredContent`
 * cut from `text` (the JSON text `message` was parsed from; `at` locates the
 * message in it, for a batch). A value the server put under the key itself is
 * dropped: only text cut out here is ever passed on.
 */
export function recordStructuredContentText(
  message: unknown,
  text: string,
  at: readonly (string | number)[] = [],
  read: MemberTextReader = memberTextReader(text),
): void {
  if (!isRecord(message) || !isRecord(message.result)) return;
  const result = message.result;
  const meta = result._meta;
  // A `_meta` that is not an object: the SDK refuses the message, and must see it as sent.
  if (meta !== undefined && !isRecord(meta)) return;
  if (isRecord(meta) && Object.hasOwn(meta, STRUCTURED_CONTENT_JSON_META_KEY)) {
    const { [STRUCTURED_CONTENT_JSON_META_KEY]: _dropped, ...rest } = meta;
    if (Object.keys(rest).length === 0) delete result._meta;
    else result._meta = rest;
  }
  if (!isRecord(result.structuredContent)) return;
  // The SDK's CallToolResultSchema (zod) drops an own __proto__ member from
  // structuredContent: the text would hold a member the validated result
  // lacks (two readings), so none is recorded.
  if (Object.hasOwn(result.structuredContent, "__proto__")) return;
  const exact = read([...at, "result", "structuredContent"]);
  if (exact === undefined) return;
  result._meta = {
    ...(isRecord(result._meta) ? result._meta : {}),
    [STRUCTURED_CONTENT_JSON_META_KEY]: exact,
  };
}

/**
 * Parses one line as the SDK's stdio transports do (`deserializeMessage`,
 * throwing the SDK's own errors, as the drop-in transports must) and records
 * the result's exact structuredContent text. Internal.
 */
export function readExactMessage(line: string): JSONRPCMessage {
  const message = deserializeMessage(line);
  recordStructuredContentText(message, line);
  return message;
}

/**
 * Parses one JSON-RPC message as the SDK does (`deserializeMessage`), and when
 * it is a result with `structuredContent`, records that member's exact text
 * (byte for byte) in `result._meta` under {@link STRUCTURED_CONTENT_JSON_META_KEY}.
 * Throws `invalid-json` (with the position) or `message-invalid`; the error
 * carries no part of the text.
 */
export function deserializeExactMessage(line: string): JSONRPCMessage {
  if (typeof line !== "string") {
    throw new StructJsonError("invalid-json", "", "the message must be a JSON string");
  }
  assertJsonText(line, "the message is not well-formed JSON");
  try {
    return readExactMessage(line);
  } catch {
    // The SDK's schema error lists the values it received: not passed on.
    throw new StructJsonError("message-invalid", "", "the text is not a JSON-RPC message");
  }
}

/**
 * The exact JSON text of a tool result's `structuredContent`, as the server sent
 * it, when the result came through an exact client transport (or
 * {@link deserializeExactMessage}); undefined otherwise. Pass it to
 * `toolResultFromJson` to carry big ids onward without rounding.
 */
export function structuredContentJson(result: { _meta?: unknown }): string | undefined {
  const meta = result._meta;
  if (!isRecord(meta)) return undefined;
  const text = meta[STRUCTURED_CONTENT_JSON_META_KEY];
  return typeof text === "string" ? text : undefined;
}
