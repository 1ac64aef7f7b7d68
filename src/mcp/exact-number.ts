// Numbers whose JSON text JavaScript cannot write on its own (9007199254740993,
// 1.0, -0), carried through objects handed to the MCP SDK. Where the runtime has
// JSON.rawJSON (Node ≥ 22) they are raw JSON values that every JSON.stringify
// writes verbatim; elsewhere they are ExactNumber markers that only
// serializeExactMessage can write, so that no serializer drops digits silently.

import { rethrowStackOverflow, StructJsonError } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";
import { spliceMarkers } from "../struct/exact-number-text.js";
import { isNativeJsonText, nativeJsonText } from "../struct/native-json-text.js";

/** True when the runtime has `JSON.rawJSON`, so any JSON.stringify writes exact numbers. */
export const hasNativeRawJson: boolean = nativeJsonText !== undefined;

// The serialization in progress, if any (JSON.stringify is synchronous, so one
// slot suffices): markers met during it record their text here.
let active: { readonly prefix: string; readonly texts: string[] } | undefined;

/** A JSON number, exactly as RFC 8259 writes one. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A JSON number text kept exactly, for runtimes without `JSON.rawJSON`. Plain
 * `JSON.stringify` refuses it (throws `exact-json-unsupported`) instead of
 * writing a rounded number; {@link serializeExactMessage} writes its text.
 */
export class ExactNumber {
  /** The number exactly as it must appear in JSON text. */
  readonly text: string;
  /** Where it sits in the arguments, for the error message. */
  readonly path: JsonPointer;

  constructor(text: string, path: JsonPointer) {
    // Written verbatim into a message: anything but a JSON number (`1,"admin":true`)
    // would change the message around it. JSON.rawJSON refuses such text too.
    if (typeof text !== "string" || !JSON_NUMBER.test(text)) {
      throw new StructJsonError(
        "invalid-json",
        typeof path === "string" ? path : "",
        "an ExactNumber's text must be a JSON number",
      );
    }
    this.text = text;
    this.path = path;
    Object.freeze(this);
  }

  /** The nearest float64, for display and arithmetic; not exact by definition. */
  valueOf(): number {
    return Number(this.text);
  }

  /** Called by JSON.stringify: a stand-in inside serializeExactMessage, an error anywhere else. */
  toJSON(): string {
    return standIn(this.text, this.path);
  }
}

/** The stand-in string for `text` inside serializeExactMessage; refuses outside it. */
function standIn(text: string, path: JsonPointer): string {
  if (active === undefined) {
    throw new StructJsonError(
      "exact-json-unsupported",
      path,
      "this number cannot be written exactly by JSON.stringify on this runtime (no JSON.rawJSON); send it through an exact transport or serializeExactMessage",
    );
  }
  active.texts.push(text);
  return `${active.prefix}${active.texts.length - 1}`;
}

/**
 * JSON text (already known to be well-formed) to be written in place of a
 * value by {@link serializeExactMessage}: how a transport puts a tool result's
 * exact structuredContent on the wire. Internal to the MCP subpaths.
 */
export class SplicedJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
    Object.freeze(this);
  }
  toJSON(): string {
    return standIn(this.text, "");
  }
}

/** JSON.stringify's replacer for serializeExactMessage: a bigint is written with its digits, and so is a number that {@link shortestIsNotValue}. */
function exactReplacer(_key: string, value: unknown): unknown {
  if (typeof value === "bigint" || value instanceof BigInt) return standIn(value.toString(), "");
  // Returned by another value's toJSON, which JSON.stringify does not call again:
  // written as an object ({"text":…}) unless placed here.
  if (value instanceof ExactNumber) return standIn(value.text, value.path);
  if (value instanceof SplicedJson) return standIn(value.text, "");
  const n = typeof value === "number" ? value : value instanceof Number ? value.valueOf() : 0;
  return shortestIsNotValue(n) ? standIn(BigInt(n).toString(), "") : value;
}

/**
 * True for a whole number from 2^53 up to 1e21 in magnitude, which JavaScript
 * writes as the plain digits of its shortest form (`1152921504606847000` for
 * 2 ** 60, which is 1152921504606846976): an integer reader takes those
 * digits for another integer, so serializeExactMessage writes the exact
 * digits, which every float64 reader reads as the same number. (From 1e21
 * JavaScript writes an exponent, which no integer reader takes for an
 * integer.)
 */
function shortestIsNotValue(n: number): boolean {
  return (n >= TWO_POW_53 || n <= -TWO_POW_53) && n < 1e21 && n > -1e21 && Number.isInteger(n);
}

const TWO_POW_53 = 2 ** 53;

/** True for a value produced by `JSON.rawJSON` (false on runtimes without it). */
export function isRawJson(value: unknown): boolean {
  return isNativeJsonText(value);
}

/**
 * The value to put in an arguments object for one number text: a plain number
 * when both JavaScript and serializeExactMessage write that number back with
 * the same text, else a raw JSON value (Node ≥ 22) or an {@link ExactNumber}.
 */
export function exactNumberValue(text: string, path: JsonPointer): unknown {
  const n = Number(text);
  if (String(n) === text && !(shortestIsNotValue(n) && BigInt(n).toString() !== text)) return n;
  return nativeJsonText !== undefined ? nativeJsonText(text) : new ExactNumber(text, path);
}

function randomPrefix(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return `sjb-exact-${hex}-`;
}

/**
 * JSON text of a message (as `JSON.stringify` writes it), with every raw JSON
 * value, {@link ExactNumber} and `bigint` written exactly (a bigint with its
 * decimal digits), and a whole number from 2^53 up to 1e21 in magnitude with
 * its exact digits (2 ** 60 as `1152921504606846976`, where JavaScript writes
 * `1152921504606847000`, another integer to an integer reader). For
 * transports that serialize JSON-RPC messages themselves, and for a tool
 * result's text content.
 */
export function serializeExactMessage(message: unknown): string {
  if (active !== undefined) throw new Error("serializeExactMessage is not reentrant");
  // A fresh random prefix per call: a data string cannot be mistaken for a
  // stand-in, since the sender of the data cannot know the prefix.
  const slot = { prefix: randomPrefix(), texts: [] as string[] };
  active = slot;
  let json: string;
  try {
    json = JSON.stringify(message, exactReplacer);
  } catch (e) {
    // JSON.stringify recurses: arguments nested some thousands deep overflow the stack.
    rethrowStackOverflow(e);
  } finally {
    active = undefined;
  }
  if (slot.texts.length === 0) return json;
  const out = spliceMarkers(json, slot.prefix, slot.texts);
  if (out === undefined) {
    // Only a marker inside a key or a data string could cause this; never guess.
    throw new StructJsonError(
      "exact-json-unsupported",
      "",
      "an exact number could not be placed in the message",
    );
  }
  return out;
}
