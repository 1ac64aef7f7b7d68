// Reads the pasted message: binary protobuf as base64, or ProtoJSON, of a
// ClientAction, CallMCPTool or MCPToolResult. The type is detected only where
// exactly one of the three accepts the input; otherwise the user picks it.

import {
  type DescMessage,
  fromBinary,
  fromJsonString,
  type Message,
  toBinary,
} from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  type ClientAction,
  ClientActionSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../../../src/messages.js";

/** The three messages the inspector reads. */
export type MessageKind = "ClientAction" | "CallMCPTool" | "MCPToolResult";

/** How the message was written. */
export type MessageFormat = "binary" | "protojson";

/** A message as read: the tool call or result in it, and where it came from. */
export type ReadMessage =
  | {
      readonly kind: "ClientAction" | "CallMCPTool";
      readonly format: MessageFormat;
      readonly actionId: string | undefined;
      readonly call: CallMCPTool;
    }
  | {
      readonly kind: "MCPToolResult";
      readonly format: MessageFormat;
      readonly actionId: string;
      readonly result: MCPToolResult;
    };

/** Input the inspector cannot read; the message is shown to the user as is. */
export class InputError extends Error {
  override name = "InputError";
}

const SCHEMAS: Readonly<Record<MessageKind, DescMessage>> = {
  ClientAction: ClientActionSchema,
  CallMCPTool: CallMCPToolSchema,
  MCPToolResult: MCPToolResultSchema,
};

const KINDS = Object.keys(SCHEMAS) as MessageKind[];

/** Base64 text of binary protobuf: the standard or URL alphabet, padding and whitespace allowed. */
const BASE64 = /^[A-Za-z0-9+/_\-=\s]*$/;

/** Guesses the format from the text: ProtoJSON is a JSON object, everything else must be base64. */
export function detectFormat(text: string): MessageFormat {
  return text.trimStart().startsWith("{") ? "protojson" : "binary";
}

function parseAs(
  kind: MessageKind,
  format: MessageFormat,
  text: string,
  bytes: Uint8Array,
): Message {
  const schema = SCHEMAS[kind];
  return format === "protojson" ? fromJsonString(schema, text) : fromBinary(schema, bytes);
}

/** Control characters never appear in ids and tool names; in a wrong reading they do (tags, lengths). */
const CONTROL = /[\u0000-\u001f\u007f]/;

function idsLookPlausible(kind: MessageKind, msg: Message): boolean {
  const m = msg as unknown as Record<string, unknown>;
  const call = kind === "ClientAction" ? (m.action as { value?: unknown }).value : m;
  const ids = [
    m.actionId,
    (call as Partial<CallMCPTool> | undefined)?.serverId,
    (call as Partial<CallMCPTool> | undefined)?.name,
  ];
  return ids.every((s) => typeof s !== "string" || !CONTROL.test(s));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * For "auto" on binary input: several types often decode the same bytes (a
 * submessage also reads as a string). A reading whose ids hold control
 * characters is dropped; among the rest, one that writes back the same bytes
 * wins; any remaining tie is left to the user.
 */
function pickBinary(accepted: { kind: MessageKind; msg: Message }[], bytes: Uint8Array) {
  const plausible = accepted.filter((a) => idsLookPlausible(a.kind, a.msg));
  const exact = plausible.filter((a) => sameBytes(toBinary(SCHEMAS[a.kind], a.msg), bytes));
  if (exact.length === 1) return exact;
  return exact.length > 1 ? exact : plausible;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Reads `text` as `kind` ("auto": whichever single type accepts it). Throws
 * {@link InputError} when nothing or more than one type accepts it.
 */
export function readMessage(text: string, kind: MessageKind | "auto"): ReadMessage {
  if (text.trim() === "") throw new InputError("paste a message (base64 or ProtoJSON) first");
  const format = detectFormat(text);
  let bytes = new Uint8Array(0);
  if (format === "binary") {
    if (!BASE64.test(text)) {
      throw new InputError(
        "not base64 and not ProtoJSON: paste binary protobuf as base64, or a ProtoJSON object",
      );
    }
    try {
      bytes = base64Decode(text);
    } catch (e) {
      throw new InputError(`invalid base64: ${describe(e)}`);
    }
  }
  const candidates = kind === "auto" ? KINDS : [kind];
  let accepted: { kind: MessageKind; msg: Message }[] = [];
  const failures: string[] = [];
  for (const k of candidates) {
    try {
      accepted.push({ kind: k, msg: parseAs(k, format, text, bytes) });
    } catch (e) {
      failures.push(`${k}: ${describe(e)}`);
    }
  }
  if (accepted.length === 0) {
    throw new InputError(
      `cannot read the ${format} input as ${candidates.join(" or ")}: ${failures.join("; ")}`,
    );
  }
  if (kind === "auto" && format === "binary" && accepted.length > 1)
    accepted = pickBinary(accepted, bytes);
  if (accepted.length === 0) {
    throw new InputError(
      "the bytes decode only with control characters in ids: choose the message type",
    );
  }
  if (accepted.length > 1) {
    throw new InputError(
      `the input reads as ${accepted.map((a) => a.kind).join(" and as ")}: choose the message type`,
    );
  }
  const { kind: found, msg } = accepted[0]!;
  if (found === "MCPToolResult") {
    const result = msg as unknown as MCPToolResult;
    return { kind: found, format, actionId: result.actionId, result };
  }
  if (found === "CallMCPTool") {
    return { kind: found, format, actionId: undefined, call: msg as unknown as CallMCPTool };
  }
  const action = msg as unknown as ClientAction;
  if (action.action.case !== "callMcpTool") {
    throw new InputError("the ClientAction carries no action (call_mcp_tool is not set)");
  }
  return { kind: found, format, actionId: action.actionId, call: action.action.value };
}
