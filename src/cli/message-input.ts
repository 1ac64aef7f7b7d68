// Reading a ClientAction, CallMCPTool or MCPToolResult from bytes that may be
// binary protobuf or ProtoJSON, telling them apart only where one reading is
// left (otherwise the user passes --format / --type).
//
// ProtoJSON text is read by the package's own parser first (duplicate keys,
// lone surrogates, numbers beyond float64 and nesting are rejected there, with
// the package's codes and paths), its shape is checked against the message
// descriptors, and only then does protobuf-es build the message. protobuf-es's
// error texts quote input values, so none of them is ever printed: failures
// are told apart by kind and described in our own words.

import {
  type DescMessage,
  equals,
  fromBinary,
  fromJson,
  type JsonValue,
  ScalarType,
  toBinary,
} from "@bufbuild/protobuf";
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import { type Struct, StructSchema, type Value } from "@bufbuild/protobuf/wkt";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  type ClientAction,
  ClientActionSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../../gen/toolbridge/v1/toolbridge_pb.js";
import { type JsonPointer, pointerAppend, pointerFrom } from "../json-pointer.js";
import { DEFAULT_STRUCT_DEPTH } from "../struct/from-json.js";
import { isFloatText } from "../struct/number-text.js";
import type { ParseListener } from "../struct/parse-json.js";
import { CliError, type ErrorLineCode, inputError } from "./cli-error.js";
import { checkNesting, isJsonObject, type JsonDocument, parseJsonInput } from "./json-input.js";
import { byteOrderMarkError, INPUT_FILE, utf8Text } from "./read-input.js";

/** The wire formats the CLI reads and writes. */
export type WireFormat = "binary" | "json";
/** The message types the CLI reads. */
export type MessageType = "action" | "call" | "result";

/**
 * A message read from input. `lost`: where its ProtoJSON wrote a number its
 * Struct's float64 cannot give back (`9007199254740993`, `1e-400`), as paths in
 * that Struct; the decoder reports them as `precision-lost`, as encode does.
 */
export type InputMessage = (
  | {
      readonly type: "action";
      readonly format: WireFormat;
      readonly action: ClientAction;
      readonly call: CallMCPTool;
    }
  | { readonly type: "call"; readonly format: WireFormat; readonly call: CallMCPTool }
  | { readonly type: "result"; readonly format: WireFormat; readonly result: MCPToolResult }
) & { readonly lost?: readonly JsonPointer[] };

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

/**
 * The input message as a JSON document. A CallMCPTool's or MCPToolResult's
 * Struct starts at level 2, a ClientAction's at level 3 (one more allowed).
 */
const MESSAGE: JsonDocument = {
  name: "the input message",
  nestingLimit: DEFAULT_STRUCT_DEPTH + 1,
  nestingRule: `a Struct nests deeper than ${DEFAULT_STRUCT_DEPTH} levels`,
};
const ACTION_MESSAGE: JsonDocument = { ...MESSAGE, nestingLimit: DEFAULT_STRUCT_DEPTH + 2 };

/** Parses the input message's text, with the nesting limit of the type it turns out to be. */
function parseMessageText(
  text: string,
  type: MessageType | undefined,
  listener: ParseListener,
): JsonValue {
  if (type === "action") return parseJsonInput(text, ACTION_MESSAGE, listener);
  try {
    return parseJsonInput(text, MESSAGE, listener);
  } catch (e) {
    // Too deep inside a ClientAction's call: that Struct may nest one level more.
    if (type === undefined && e instanceof CliError && e.code === "recursion-limit") {
      if (/^\/(callMcpTool|call_mcp_tool)\//.test(e.path ?? "")) {
        return parseJsonInput(text, ACTION_MESSAGE, listener);
      }
    }
    throw e;
  }
}

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
    throw inputError(
      "message-invalid",
      "the ClientAction carries no action (call_mcp_tool is not set)",
    );
  }
  return { type, format, action, call: action.action.value };
}

function hasUnknownFields(
  msg: { readonly $unknown?: readonly unknown[] | undefined } | undefined,
): boolean {
  return msg?.$unknown !== undefined && msg.$unknown.length > 0;
}

/** What went wrong in a binary read, in our words (protobuf-es's text is never shown). */
function binaryProblem(e: unknown): { code: ErrorLineCode; why: string } {
  const text = e instanceof Error ? e.message : "";
  if (/recursion depth/.test(text)) {
    return { code: "recursion-limit", why: "it nests deeper than protobuf's recursion limit" };
  }
  // protobuf-es reports a short read as "premature EOF"; a DataView read past
  // the end (a truncated double) as a bounds RangeError.
  if (e instanceof RangeError) return { code: "message-invalid", why: "it ends inside a field" };
  if ((e as { code?: unknown } | null)?.code === "ERR_ENCODING_INVALID_ENCODED_DATA") {
    return { code: "invalid-unicode", why: "a string field is not valid UTF-8" };
  }
  if (/wire type|illegal tag|end group/.test(text)) {
    return { code: "message-invalid", why: "it has an invalid field tag or wire type" };
  }
  return { code: "message-invalid", why: "its bytes are not protobuf wire format of this type" };
}

/** The field numbers leading from each message type to its Struct. */
const STRUCT_FIELDS: Record<MessageType, readonly number[]> = {
  action: [2, 3],
  call: [3],
  result: [2],
};

/** The bytes of every length-delimited field `number` of a message's bytes (none when they do not parse). */
function fieldBytes(bytes: Uint8Array, number: number): Uint8Array[] {
  const found: Uint8Array[] = [];
  try {
    const reader = new BinaryReader(bytes);
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      if (field === number && wireType === WireType.LengthDelimited) found.push(reader.bytes());
      else reader.skip(wireType, field);
    }
  } catch {
    return [];
  }
  return found;
}

/**
 * Where a message's Struct holds a google.protobuf.Value with no kind set:
 * protobuf-es reads it as null, a value the sender did not write. Undefined
 * when there is none (or the bytes do not parse: other checks say why).
 * Walks with its own stack.
 */
function unsetValuePath(bytes: Uint8Array, type: MessageType): JsonPointer | undefined {
  let structs = [bytes];
  for (const number of STRUCT_FIELDS[type]) structs = structs.flatMap((b) => fieldBytes(b, number));
  for (const structBytes of structs) {
    let struct: Struct;
    try {
      struct = fromBinary(StructSchema, structBytes);
    } catch {
      continue;
    }
    const stack: { value: Value; path: JsonPointer }[] = [];
    const pushFields = (s: Struct, path: JsonPointer) => {
      for (const [key, value] of Object.entries(s.fields)) {
        stack.push({ value, path: pointerAppend(path, key) });
      }
    };
    pushFields(struct, "");
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      const kind = top.value.kind;
      if (kind.case === undefined) return top.path;
      if (kind.case === "structValue") pushFields(kind.value, top.path);
      if (kind.case === "listValue") {
        kind.value.values.forEach((value, i) => {
          stack.push({ value, path: pointerAppend(top.path, i) });
        });
      }
    }
  }
  return undefined;
}

function decodeBinary(bytes: Uint8Array, type: MessageType): InputMessage {
  let msg: ClientAction | CallMCPTool | MCPToolResult;
  try {
    msg = fromBinary(SCHEMAS[type], bytes) as typeof msg;
  } catch (e) {
    const { code, why } = binaryProblem(e);
    throw inputError(code, `not a valid binary ${NAMES[type]}: ${why}`, { cause: e });
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
    // A Value with no kind also re-encodes longer (as null): say so, where.
    const unset = unsetValuePath(bytes, type);
    if (unset !== undefined) {
      throw inputError("value-unset", "a google.protobuf.Value has no kind set", { path: unset });
    }
    throw inputError(
      "message-invalid",
      `not a valid binary ${NAMES[type]}: it has fields this type does not define`,
    );
  }
  return wrap(type, "binary", msg);
}

function roundTrips(m: InputMessage, bytes: Uint8Array): boolean {
  const msg = m.type === "action" ? m.action : m.type === "call" ? m.call : m.result;
  const again = toBinary(SCHEMAS[m.type], msg as never);
  return again.length === bytes.length && again.every((b, i) => b === bytes[i]);
}

function detectBinary(bytes: Uint8Array, format: WireFormat | undefined): InputMessage {
  const readings: InputMessage[] = [];
  const errors: CliError[] = [];
  for (const type of ["action", "result", "call"] as const) {
    try {
      readings.push(decodeBinary(bytes, type));
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      errors.push(e);
    }
  }
  if (readings.length === 1) return readings[0]!;
  if (readings.length === 0) {
    // Too deep as any type is too deep, whatever the type.
    const deep = errors.find((e) => e.code === "recursion-limit");
    if (deep !== undefined) {
      throw inputError("recursion-limit", "the input nests deeper than protobuf's recursion limit");
    }
    // A type that reads cleanly but for a Value with no kind: that is the finding.
    const unset = errors.find((e) => e.code === "value-unset");
    if (unset !== undefined) throw unset;
    const asAction = errors[0]!;
    const why = asAction.detail.replace(/^not a valid binary ClientAction: /, "");
    throw inputError(
      asAction.code,
      `the input is ${format === "binary" ? "not" : "neither ProtoJSON nor"} a binary ClientAction, CallMCPTool or MCPToolResult (as a ClientAction: ${why})`,
    );
  }
  // Several types decode cleanly. A re-encoding that gives back the very same
  // bytes is strong evidence. A ClientAction is preferred to a CallMCPTool:
  // read as a CallMCPTool, its call becomes the name, and a tool's name that is
  // itself an encoded CallMCPTool is no name. Not to an MCPToolResult: a result
  // whose Struct holds one member reads as a ClientAction whose call has only
  // a server_id (the member's bytes), so neither reading can be ruled out.
  const exact = readings.filter((r) => roundTrips(r, bytes));
  const pool = exact.length > 0 ? exact : readings;
  if (pool.length === 1) return pool[0]!;
  const action = pool.find((r) => r.type === "action");
  if (action !== undefined && !pool.some((r) => r.type === "result")) return action;
  const [a, b] = pool;
  const same =
    a !== undefined &&
    b !== undefined &&
    pool.length === 2 &&
    a.type === b.type &&
    equals(SCHEMAS[a.type], a as never, b as never);
  if (same) return a!;
  throw inputError(
    "message-ambiguous",
    `cannot tell which message this is (it reads as ${pool.map((r) => NAMES[r.type]).join(" and as ")}): pass --type`,
  );
}

function detectJsonType(value: { readonly [key: string]: JsonValue }): MessageType {
  const keys = Object.keys(value);
  const types = (Object.keys(JSON_KEYS) as MessageType[]).filter((t) =>
    JSON_KEYS[t].some((k) => keys.includes(k)),
  );
  if (types.length === 1) return types[0]!;
  if (types.length === 0) {
    throw inputError(
      "message-ambiguous",
      "cannot tell which message this ProtoJSON is (no member of ClientAction, CallMCPTool or MCPToolResult): pass --type",
    );
  }
  throw inputError(
    "message-invalid",
    `the ProtoJSON input mixes members of ${types.map((t) => NAMES[t]).join(" and ")}`,
  );
}

function shapeError(path: JsonPointer, detail: string): CliError {
  return inputError("message-invalid", detail, { path, document: MESSAGE.name });
}

/**
 * Checks a ProtoJSON value against a message descriptor before protobuf-es
 * reads it: every member names a field (by JSON or proto name, not both), and
 * every value has the JSON type the field takes (null: unset). A Struct's
 * contents are any JSON, nesting at most {@link DEFAULT_STRUCT_DEPTH} levels.
 */
function checkShape(value: { readonly [key: string]: JsonValue }, desc: DescMessage): void {
  const stack: { value: { readonly [key: string]: JsonValue }; desc: DescMessage; path: string }[] =
    [{ value, desc, path: "" }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const seen = new Set<string>();
    for (const key of Object.keys(top.value)) {
      const path = pointerAppend(top.path, key);
      const field = top.desc.fields.find((f) => f.jsonName === key || f.name === key);
      if (field === undefined) throw shapeError(path, `${top.desc.name} has no such field`);
      const id = field.oneof === undefined ? field.name : `oneof ${field.oneof.name}`;
      if (seen.has(id)) {
        throw shapeError(path, "a field (or a oneof) is set twice, under two names");
      }
      seen.add(id);
      const v = top.value[key]!;
      if (v === null) continue;
      if (field.fieldKind === "scalar" && field.scalar === ScalarType.STRING) {
        if (typeof v !== "string") throw shapeError(path, "expected a string");
      } else if (field.fieldKind === "scalar" && field.scalar === ScalarType.BOOL) {
        if (typeof v !== "boolean") throw shapeError(path, "expected true or false");
      } else if (field.fieldKind === "message") {
        if (!isJsonObject(v)) throw shapeError(path, "expected an object");
        if (field.message.typeName === "google.protobuf.Struct") {
          checkNesting(v, path, DEFAULT_STRUCT_DEPTH, MESSAGE);
        } else {
          stack.push({ value: v, desc: field.message, path });
        }
      } else {
        throw shapeError(path, "a field kind the CLI does not read");
      }
    }
  }
}

function decodeJson(text: string, type: MessageType | undefined): InputMessage {
  // Every number of a message that passes checkShape is in its Struct. A
  // float64 written at any precision (ProtoJSON writers') is no loss; another
  // number is (a hand-written 9007199254740993). Keyed by path: a parse redone
  // with the deeper limit reports its numbers again.
  const lost = new Map<JsonPointer, (string | number)[]>();
  const value = parseMessageText(text, type, {
    precisionLost: (tokens, number) => {
      if (!isFloatText(number)) lost.set(pointerFrom(tokens), [...tokens]);
    },
  });
  if (!isJsonObject(value)) {
    throw inputError("not-an-object", "ProtoJSON input must be a JSON object", {
      path: "",
      document: MESSAGE.name,
    });
  }
  const t = type ?? detectJsonType(value);
  checkShape(value, SCHEMAS[t]);
  let msg: unknown;
  try {
    msg = fromJson(SCHEMAS[t], value);
  } catch (e) {
    // The checks above leave protobuf-es nothing to object to; if it does, its
    // text (which quotes values) stays out of the message.
    throw inputError("message-invalid", `not a valid ProtoJSON ${NAMES[t]}`, { cause: e });
  }
  // The Struct starts below its field (and, in a ClientAction, the call's).
  const depth = t === "action" ? 2 : 1;
  return {
    ...wrap(t, "json", msg),
    lost: [...lost.values()].map((tokens) => pointerFrom(tokens.slice(depth))),
  };
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * Reads one message. With `format` unset, input whose first non-blank byte is
 * "{" and that parses as JSON is ProtoJSON; anything else is binary (and text
 * starting with "{" that is neither is reported as the text it looks like). With
 * `type` unset, the type is the only one the input can be.
 */
export function readMessage(
  bytes: Uint8Array,
  format: WireFormat | undefined,
  type: MessageType | undefined,
): InputMessage {
  if (bytes.length === 0) throw inputError("message-invalid", "the input is empty");
  if (format === "binary")
    return type === undefined ? detectBinary(bytes, format) : decodeBinary(bytes, type);
  if (format === "json") return decodeJson(utf8Text(bytes, INPUT_FILE), type);
  // A byte order mark starts no binary message (0xef, 0xff, 0xfe are wire type 7).
  const bom = byteOrderMarkError(bytes, INPUT_FILE);
  if (bom !== undefined) throw bom;
  let i = 0;
  while (i < bytes.length && WS.has(bytes[i]!)) i++;
  const binary = () =>
    type === undefined ? detectBinary(bytes, format) : decodeBinary(bytes, type);
  if (bytes[i] !== 0x7b) return binary();
  let json: InputMessage;
  try {
    // ProtoJSON with a byte that is not UTF-8 is reported as such, not as a bad binary message.
    json = decodeJson(utf8Text(bytes, INPUT_FILE), type);
  } catch (jsonError) {
    // "{" is field 15 with a group wire type: none of these messages has it,
    // but leading blanks are valid binary tags, so try binary before failing.
    try {
      return binary();
    } catch (binaryError) {
      // Binary bytes of several types say more than the JSON parser's complaint.
      if (binaryError instanceof CliError && binaryError.code === "message-ambiguous") {
        throw binaryError;
      }
      throw jsonError;
    }
  }
  // Text that starts with "{" is never binary; after blanks it may be both
  // (a result whose action_id is a ProtoJSON text): then neither is chosen.
  if (i > 0 && readsAsBinary(binary)) {
    throw inputError(
      "message-ambiguous",
      "the input reads both as ProtoJSON and as a binary message: pass --format",
    );
  }
  return json;
}

/** True when `read` finds a message (or several), false when it rejects the input. */
function readsAsBinary(read: () => InputMessage): boolean {
  try {
    read();
    return true;
  } catch (e) {
    if (e instanceof CliError) return e.code === "message-ambiguous";
    throw e;
  }
}
