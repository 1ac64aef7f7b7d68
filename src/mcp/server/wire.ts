// What the exact server transports write for an outgoing message: `bigint`s
// as their digits, and a tool result's structuredContent from the exact text
// that exactToolHandler recorded for it (so an id above 2^53 keeps its digits
// although the SDK validated its nearest float64 against the outputSchema).

import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isStructJsonError } from "../../errors.js";
import { setOwnProperty } from "../../struct/own-property.js";
import { exactNumberValue, hasNativeRawJson, isRawJson } from "../exact-number.js";
import { buildExactJson } from "../exact-parse.js";
import { STRUCTURED_CONTENT_JSON_META_KEY } from "../exact-result.js";

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A container to walk into: not a raw JSON value, an ExactNumber or anything else with its own toJSON. */
function isPlainContainer(value: unknown): value is JsonRecord | unknown[] {
  return (
    value !== null &&
    typeof value === "object" &&
    !isRawJson(value) &&
    typeof (value as { toJSON?: unknown }).toJSON !== "function"
  );
}

function containsBigint(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "bigint") return true;
    if (isPlainContainer(v)) {
      for (const child of Object.values(v)) stack.push(child);
    }
  }
  return false;
}

/** A copy of `value` in which each bigint is an exact JSON number value (raw JSON or ExactNumber). */
export function replaceBigints(value: unknown): unknown {
  if (!containsBigint(value)) return value;
  const convert = (v: unknown): unknown =>
    typeof v === "bigint" ? exactNumberValue(v.toString(), "") : v;
  const root: { value: unknown } = { value: undefined };
  const work: { source: unknown; target: JsonRecord | unknown[]; key: string | number }[] = [
    { source: value, target: root as unknown as JsonRecord, key: "value" },
  ];
  while (work.length > 0) {
    const { source, target, key } = work.pop()!;
    let copy: unknown;
    if (Array.isArray(source) && isPlainContainer(source)) {
      const array: unknown[] = new Array(source.length);
      for (const [i, child] of source.entries())
        work.push({ source: child, target: array, key: i });
      copy = array;
    } else if (isPlainContainer(source)) {
      const object: JsonRecord = {};
      for (const k of Object.keys(source)) {
        // Placed now, filled later: the copy keeps the members' order.
        setOwnProperty(object, k, undefined);
        work.push({ source: (source as JsonRecord)[k], target: object, key: k });
      }
      copy = object;
    } else copy = convert(source);
    setOwnProperty(target, String(key), copy);
  }
  return root.value;
}

/** JSON.stringify's replacer that writes a bigint as its nearest number (for comparison only). */
function bigintAsNumber(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? Number(value) : value;
}

/**
 * The message to write for `message`: bigints become exact JSON numbers, and a
 * result whose `_meta` holds its structuredContent's exact text (recorded by
 * exactToolHandler) carries structuredContent rebuilt from that text, provided
 * the text reads as the same value (up to float64 rounding); the `_meta` key
 * itself is not written.
 */
export function exactWireMessage(message: JSONRPCMessage): JSONRPCMessage {
  if (!("result" in message) || !isRecord(message.result))
    return replaceBigints(message) as JSONRPCMessage;
  const result: JsonRecord = { ...message.result };
  const meta = result._meta;
  if (isRecord(meta) && Object.hasOwn(meta, STRUCTURED_CONTENT_JSON_META_KEY)) {
    const { [STRUCTURED_CONTENT_JSON_META_KEY]: text, ...rest } = meta;
    if (Object.keys(rest).length === 0) delete result._meta;
    else result._meta = rest;
    if (typeof text === "string" && isRecord(result.structuredContent)) {
      let same = false;
      try {
        same =
          JSON.stringify(JSON.parse(text)) ===
          JSON.stringify(result.structuredContent, bigintAsNumber);
      } catch {
        same = false;
      }
      if (same) {
        const built = buildExactJson(text, (written, path) => exactNumberValue(written, path()));
        if ("value" in built) result.structuredContent = built.value;
      }
    }
  }
  return replaceBigints({ ...message, result }) as JSONRPCMessage;
}

/**
 * The message an HTTP server transport hands to the SDK's `send` (which writes
 * with JSON.stringify): {@link exactWireMessage}, whose exact numbers are raw
 * JSON values on runtimes with JSON.rawJSON. Without it (Node 20), a result
 * that JSON.stringify cannot write exactly becomes a JSON-RPC -32603 error for
 * its request: refused, never written rounded.
 */
export function exactHttpMessage(message: JSONRPCMessage): JSONRPCMessage {
  const wire = exactWireMessage(message);
  if (hasNativeRawJson || wire === message) return wire;
  try {
    JSON.stringify(wire);
    return wire;
  } catch (error) {
    if (!isStructJsonError(error) || !("id" in message) || !("result" in message)) throw error;
    return {
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: -32603,
        message: `Internal error: ${error.code} at ${error.path === "" ? "(root)" : error.path}: this runtime has no JSON.rawJSON, so the SDK's HTTP transport cannot write this result's numbers exactly (Node >= 22 can)`,
      },
    };
  }
}
