// What the page shows for one message, as plain data: the decoded arguments,
// each number's reading, the diagnostics, what happened to raw_args_json, and
// what protobuf-es's plain toJson would have produced. No DOM here, so the same
// code runs in Node tests and in the page.

import { type JsonObject, toJson } from "@bufbuild/protobuf";
import {
  type Diagnostic,
  type DiagnosticCode,
  inspectNumbers,
  isStructJsonError,
  type NumberInspection,
  type StructJsonErrorCode,
  toolCallToJson,
  toolResultToJson,
} from "../../../src/index.js";
import { CallMCPToolSchema, MCPToolResultSchema } from "../../../src/messages.js";
import { numberTokens } from "./json-numbers.js";
import { type MessageKind, type ReadMessage, readMessage } from "./read-message.js";
import { pickSchema, readSchemaInput } from "./schema-input.js";

/** The decoder's options the page lets the user change. */
export interface InspectOptions {
  /** How raw_args_json is treated (toolCallToJson's `rawJson`). Default "verify". */
  rawJson: "verify" | "trust" | "ignore";
  /** How whole values at number positions are written. Default "decimal". */
  wholeFloats: "decimal" | "integer";
  /** The message type, or "auto" to detect it. Default "auto". */
  kind: MessageKind | "auto";
}

/** The frozen defaults of {@link InspectOptions}. */
export const inspectDefaults: Readonly<InspectOptions> = Object.freeze({
  rawJson: "verify",
  wholeFloats: "decimal",
  kind: "auto",
});

/**
 * What became of the raw JSON text field: absent; verified against the Struct
 * and returned as is; returned unchecked (trust); not looked at (ignore);
 * rejected as malformed (fell back to the Struct); or rejected because it
 * disagrees with the Struct (an error: two readings).
 */
export type RawStatus = "absent" | "verified" | "trusted" | "ignored" | "malformed" | "mismatch";

/** The label a number gets in the page. */
export type NumberMark =
  | "integer restored"
  | "number"
  | "ambiguous"
  | "unknown"
  | "precision lost"
  | "written-as-float"
  | "not an integer";

/** One number of the output, as the page lists it. */
export interface NumberRow {
  /** JSON Pointer. */
  readonly path: string;
  /** The float64 the Struct carries, in JS notation; undefined when the Struct has no number here. */
  readonly structValue: string | undefined;
  /** The schema's reading of the position ("unknown" without a schema). */
  readonly reading: string;
  /** The text the bridge's output has at this position. */
  readonly bridgeText: string;
  /** The text protobuf-es's toJson writes for the Struct's value. */
  readonly plainText: string | undefined;
  /** The label shown on the number. */
  readonly mark: NumberMark;
  /** Diagnostics the decode reported at this position. */
  readonly codes: readonly DiagnosticCode[];
  /** Diagnostics the Struct path alone reports here (what `rawJson: "ignore"` would say). */
  readonly structCodes: readonly DiagnosticCode[];
}

/** The inspector's verdict on one message. */
export interface InspectReport {
  readonly kind: MessageKind;
  readonly format: "binary" | "protojson";
  readonly actionId: string | undefined;
  /** The tool's name (calls only). */
  readonly toolName: string | undefined;
  /** Which schema was used, in words. */
  readonly schemaSource: string;
  readonly raw: RawStatus;
  /** The decoded arguments (or structured content) exactly as the bridge returns them. */
  readonly output: string | undefined;
  /** The error, when decoding was refused. */
  readonly error:
    | { readonly code: StructJsonErrorCode; readonly path: string; readonly message: string }
    | undefined;
  /** The diagnostics of the decode, in the order reported. */
  readonly diagnostics: readonly Diagnostic[];
  /** The numbers of the output (or, after an error, of the Struct). */
  readonly numbers: readonly NumberRow[];
  /** What `JSON.stringify(toJson(...).args)` gives, or its error. */
  readonly plainToJson: string;
}

function resolve(options: Partial<InspectOptions> | undefined): InspectOptions {
  const o = { ...inspectDefaults };
  for (const [k, v] of Object.entries(options ?? {})) {
    if (v !== undefined) (o as Record<string, unknown>)[k] = v;
  }
  return o;
}

/** `fromRaw`: the output is the sender's own text, so the Struct's losses do not show in it. */
function markFor(
  reading: string,
  codes: readonly DiagnosticCode[],
  structCodes: readonly DiagnosticCode[],
  fromRaw: boolean,
): NumberMark {
  if (codes.includes("integer-written-as-float")) return "written-as-float";
  const lost = fromRaw ? codes : [...codes, ...structCodes];
  if (lost.includes("not-an-integer")) return "not an integer";
  if (lost.includes("integer-precision-lost")) return "precision lost";
  if (reading === "integer") return "integer restored";
  if (reading === "number" || reading === "ambiguous") return reading;
  return "unknown";
}

/** The plain protobuf-es rendering of the same Struct, as a sender without the bridge would write it. */
function plainJson(msg: ReadMessage): { text: string; value: JsonObject | undefined } {
  try {
    const json =
      msg.kind === "MCPToolResult"
        ? (toJson(MCPToolResultSchema, msg.result) as JsonObject).structuredContent
        : (toJson(CallMCPToolSchema, msg.call) as JsonObject).args;
    const value = (json ?? {}) as JsonObject;
    return { text: JSON.stringify(value), value };
  } catch (e) {
    return {
      text: `toJson fails: ${e instanceof Error ? e.message : String(e)}`,
      value: undefined,
    };
  }
}

/**
 * Reads, decodes and inspects one message with one schema box. Input it cannot
 * read throws InputError (read-message.ts); the decoder's refusals are part of the report.
 */
export function inspectMessage(
  messageText: string,
  schemaText: string,
  options?: Partial<InspectOptions>,
): InspectReport {
  const opts = resolve(options);
  const msg = readMessage(messageText, opts.kind);
  const schemaInput = readSchemaInput(schemaText);
  const isResult = msg.kind === "MCPToolResult";
  const toolName = isResult ? undefined : msg.call.name;
  const picked = pickSchema(schemaInput, toolName);
  const rawText = isResult ? msg.result.rawStructuredContentJson : msg.call.rawArgsJson;
  const struct = isResult ? (msg.result.structuredContent ?? {}) : (msg.call.args ?? {});

  const diagnostics: Diagnostic[] = [];
  const decodeOptions = {
    rawJson: opts.rawJson,
    wholeFloats: opts.wholeFloats,
    onDiagnostic: (d: Diagnostic) => diagnostics.push(d),
  };
  let output: string | undefined;
  let error: InspectReport["error"];
  try {
    output = isResult
      ? toolResultToJson(msg.result, picked.schema, decodeOptions)
      : toolCallToJson(msg.call, picked.schema, decodeOptions);
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    error = { code: e.code, path: e.path, message: e.message };
  }

  let raw: RawStatus;
  if (rawText === undefined) raw = "absent";
  else if (opts.rawJson === "ignore") raw = "ignored";
  else if (error?.code === "raw-struct-mismatch") raw = "mismatch";
  else if (diagnostics.some((d) => d.code === "raw-json-invalid")) raw = "malformed";
  else if (opts.rawJson === "trust") raw = "trusted";
  else raw = output === rawText ? "verified" : "malformed";
  const fromRaw = raw === "verified" || raw === "trusted";

  // The Struct walk's view of every number: reading, value and its own codes.
  let inspected: NumberInspection[] = [];
  try {
    inspected = inspectNumbers(struct, picked.schema, { wholeFloats: opts.wholeFloats });
  } catch {
    // The decode's error (non-finite number, recursion) already says why.
  }
  const byPath = new Map(inspected.map((n) => [n.path, n]));
  const plain = plainJson(msg);
  const plainTexts = new Map<string, string>();
  for (const t of numberTokens(plain.text))
    plainTexts.set(t.path, plain.text.slice(t.start, t.end));

  const callCodes = (path: string) => diagnostics.filter((d) => d.path === path).map((d) => d.code);
  const rows: NumberRow[] = [];
  const rowFor = (path: string, bridgeText: string): NumberRow => {
    const n = byPath.get(path);
    const codes = callCodes(path);
    const structCodes = n?.codes ?? [];
    const reading = n?.reading ?? "unknown";
    return {
      path,
      structValue: n === undefined ? undefined : String(n.value),
      reading,
      bridgeText,
      plainText: plainTexts.get(path),
      mark: markFor(reading, codes, structCodes, fromRaw),
      codes,
      structCodes,
    };
  };
  if (output !== undefined) {
    for (const t of numberTokens(output)) rows.push(rowFor(t.path, output.slice(t.start, t.end)));
  } else {
    for (const n of inspected) rows.push(rowFor(n.path, n.text));
  }
  return {
    kind: msg.kind,
    format: msg.format,
    actionId: msg.actionId,
    toolName,
    schemaSource: picked.source,
    raw,
    output,
    error,
    diagnostics,
    numbers: rows,
    plainToJson: plain.text,
  };
}
