// Reading a ClientAction, CallMCPTool or MCPToolResult from bytes that may be
// binary protobuf or ProtoJSON, telling them apart only where one reading is
// left (otherwise the user passes --format / --type).

import { type DescMessage, equals, fromBinary, fromJsonString, toBinary } from "@bufbuild/protobuf";
import { parse } from "lossless-json";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  type ClientAction,
  ClientActionSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../../gen/toolbridge/v1/toolbridge_pb.js";
import { inputError } from "./cli-error.js";

/** The wire formats the CLI reads and writes. */
export type WireFormat = "binary" | "json";
/** The message types the CLI reads. */
export type MessageType = "action" | "call" | "result";

/** A message read from input. */
export type InputMessage =
  | {
      readonly type: "action";
      readonly format: WireFormat;
      readonly action: ClientAction;
      readonly call: CallMCPTool;
    }
  | { readonly type: "call"; readonly format: WireFormat; readonly call: CallMCPTool }
  | { readonly type: "result"; readonly format: WireFormat; readonly result: MCPToolResult };

const NAMES: Record<MessageType, string> = {
  action: "ClientAction",
  call: "CallMCPTool",
  result: "MCPToolResult",
};

const SCHEMAS: Record<MessageType, DescMessage> = {
  action: ClientActionSchema,
  call: CallMCPToolSchema,
  result: MCPToolResultSchema,
};

// ProtoJSON member names (JSON name and proto name) that only one type has.
const JSON_KEYS: Record<MessageType, readonly string[]> = {
  action: ["callMcpTool", "call_mcp_tool"],
  call: ["serverId", "server_id", "name", "args", "rawArgsJson", "raw_args_json"],
  result: [
    "structuredContent",
    "structured_content",
    "rawStructuredContentJson",
    "raw_structured_content_json",
    "isError",
    "is_error",
  ],
};

function wrap(type: MessageType, format: WireFormat, msg: unknown): InputMessage {
  if (type === "result") return { type, format, result: msg as MCPToolResult };
  if (type === "call") return { type, format, call: msg as CallMCPTool };
  const action = msg as ClientAction;
  if (action.action.case !== "callMcpTool") {
    throw inputError("the ClientAction carries no action (call_mcp_tool is not set)");
  }
  return { type, format, action, call: action.action.value };
}

function hasUnknownFields(
  msg: { readonly $unknown?: readonly unknown[] | undefined } | undefined,
): boolean {
  return msg?.$unknown !== undefined && msg.$unknown.length > 0;
}

function describeError(e: unknown): string {
  // A DataView read past the end is how a truncated fixed64 (a double) shows.
  if (e instanceof RangeError && /bounds/.test(e.message)) return "premature EOF";
  return (e instanceof Error ? e.message : String(e)).split("\n")[0]!;
}

function decodeBinary(bytes: Uint8Array, type: MessageType): InputMessage {
  let msg: ClientAction | CallMCPTool | MCPToolResult;
  try {
    msg = fromBinary(SCHEMAS[type], bytes) as typeof msg;
  } catch (e) {
    throw inputError(`not a valid binary ${NAMES[type]}: ${describeError(e)}`, e);
  }
  const nested = type === "action" ? (msg as ClientAction).action.value : undefined;
  // protobuf-es keeps unknown fields of our messages, but turns a Struct into a
  // plain object and drops any inside it; a re-encoding that comes out shorter
  // reveals those (and repeated fields, which are two readings).
  if (
    hasUnknownFields(msg) ||
    hasUnknownFields(nested) ||
    toBinary(SCHEMAS[type], msg as never).length !== bytes.length
  ) {
    throw inputError(`not a valid binary ${NAMES[type]}: it has fields this type does not define`);
  }
  return wrap(type, "binary", msg);
}

function roundTrips(m: InputMessage, bytes: Uint8Array): boolean {
  const msg = m.type === "action" ? m.action : m.type === "call" ? m.call : m.result;
  const again = toBinary(SCHEMAS[m.type], msg as never);
  return again.length === bytes.length && again.every((b, i) => b === bytes[i]);
}

function detectBinary(bytes: Uint8Array): InputMessage {
  const readings: InputMessage[] = [];
  const errors: string[] = [];
  for (const type of ["action", "result", "call"] as const) {
    try {
      readings.push(decodeBinary(bytes, type));
    } catch (e) {
      errors.push(describeError(e));
    }
  }
  if (readings.length === 1) return readings[0]!;
  if (readings.length === 0) {
    const why = errors[0]!.replace(/^not a valid binary ClientAction: /, "");
    throw inputError(
      `input is neither ProtoJSON nor a binary ClientAction, CallMCPTool or MCPToolResult (as a ClientAction: ${why})`,
    );
  }
  // Several types decode cleanly. A re-encoding that gives back the very same
  // bytes is strong evidence; a ClientAction whose call decodes too is stronger
  // still (a CallMCPTool or MCPToolResult never reads as one: their field 2 is
  // not a CallMCPTool). Anything else stays ambiguous.
  const exact = readings.filter((r) => roundTrips(r, bytes));
  const pool = exact.length > 0 ? exact : readings;
  if (pool.length === 1) return pool[0]!;
  const action = pool.find((r) => r.type === "action");
  if (action !== undefined) return action;
  const [a, b] = pool;
  const same =
    a !== undefined &&
    b !== undefined &&
    pool.length === 2 &&
    a.type === b.type &&
    equals(SCHEMAS[a.type], a as never, b as never);
  if (same) return a!;
  throw inputError(
    `cannot tell which message this is (it reads as ${pool.map((r) => NAMES[r.type]).join(" and as ")}): pass --type`,
  );
}

function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    // lossless-json rejects duplicate keys (two readings) and reports positions.
    value = parse(text, null, (n) => n);
  } catch (e) {
    if (e instanceof RangeError) throw inputError("ProtoJSON input nests too deeply", e);
    throw inputError(`input is not valid JSON: ${describeError(e)}`, e);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw inputError("ProtoJSON input must be a JSON object");
  }
  return value as Record<string, unknown>;
}

function detectJsonType(value: Record<string, unknown>): MessageType {
  const keys = Object.keys(value);
  const types = (Object.keys(JSON_KEYS) as MessageType[]).filter((t) =>
    JSON_KEYS[t].some((k) => keys.includes(k)),
  );
  if (types.length === 1) return types[0]!;
  if (types.length === 0) {
    throw inputError(
      "cannot tell which message this ProtoJSON is (no member of ClientAction, CallMCPTool or MCPToolResult): pass --type",
    );
  }
  throw inputError(`ProtoJSON input mixes members of ${types.map((t) => NAMES[t]).join(" and ")}`);
}

function decodeJson(text: string, type: MessageType | undefined): InputMessage {
  const value = parseJsonObject(text);
  const t = type ?? detectJsonType(value);
  let msg: unknown;
  try {
    msg = fromJsonString(SCHEMAS[t], text);
  } catch (e) {
    throw inputError(`not a valid ProtoJSON ${NAMES[t]}: ${describeError(e)}`, e);
  }
  return wrap(t, "json", msg);
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Reads one message. With `format` unset, input whose first non-blank byte is
 * "{" and that parses as JSON is ProtoJSON; anything else is binary. With
 * `type` unset, the type is the only one the input can be.
 */
export function readMessage(
  bytes: Uint8Array,
  format: WireFormat | undefined,
  type: MessageType | undefined,
): InputMessage {
  if (bytes.length === 0) throw inputError("input is empty");
  if (format === "binary")
    return type === undefined ? detectBinary(bytes) : decodeBinary(bytes, type);
  let text: string | undefined;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (e) {
    if (format === "json") throw inputError("input is not UTF-8 text", e);
  }
  if (format === "json") return decodeJson(text!, type);
  let i = 0;
  while (i < bytes.length && WS.has(bytes[i]!)) i++;
  const looksJson = text !== undefined && bytes[i] === 0x7b;
  if (!looksJson) return type === undefined ? detectBinary(bytes) : decodeBinary(bytes, type);
  try {
    return decodeJson(text!, type);
  } catch (jsonError) {
    // "{" is field 15 with a group wire type: none of these messages has it,
    // but leading blanks are valid binary tags, so try binary before failing.
    try {
      return type === undefined ? detectBinary(bytes) : decodeBinary(bytes, type);
    } catch {
      throw jsonError;
    }
  }
}
