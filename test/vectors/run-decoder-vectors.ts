// Runs the shared decoder vectors (decoder-vectors.json). The same module runs
// in Node (test/vectors/decoder-vectors.test.ts) and, bundled by esbuild, in
// Chromium (test/browser/vectors.test.ts): both must produce identical outcomes.
// Browser-safe: no Node APIs here.

import { create, fromBinary, fromJson, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import {
  type Diagnostic,
  isStructJsonError,
  type JsonSchema,
  structMessageToJson,
  toolCallToJson,
  toolResultToJson,
} from "../../src/index.js";
import { CallMCPToolSchema, MCPToolResultSchema } from "../../src/messages.js";

/** What a vector decodes. */
export type VectorTarget = "call" | "result" | "struct";

/** One vector, as stored in decoder-vectors.json. */
export interface DecoderVector {
  /** Unique, readable name. */
  readonly name: string;
  /**
   * "call": toolCallToJson of a CallMCPTool; "result": toolResultToJson of an
   * MCPToolResult; "struct": structMessageToJson of a google.protobuf.Struct message.
   */
  readonly target: VectorTarget;
  /**
   * The Struct's content as JSON text, as protobuf-es would hold it after
   * JSON.parse (so 9007199254740993 is the float64 9007199254740992). Exclusive
   * with `base64`.
   */
  readonly args?: string;
  /** The raw JSON text field (raw_args_json / raw_structured_content_json); absent when unset. */
  readonly raw?: string;
  /** The message as binary protobuf, base64, for what JSON cannot say (NaN, -0, unset values). */
  readonly base64?: string;
  /** What the base64 message holds, for readers. */
  readonly note?: string;
  /** The tool's schema; absent: none. */
  readonly schema?: JsonSchema;
  /** Options passed to the decoder (JSON-able ones only). */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The expected outcome. */
  readonly expect: VectorOutcome;
}

/** What a decoder did with one vector: its text or its error, and its diagnostics. */
export interface VectorOutcome {
  readonly output?: string;
  readonly error?: { readonly code: string; readonly path: string };
  readonly diagnostics: readonly { readonly code: string; readonly path: string }[];
}

/** The vectors file. */
export interface DecoderVectorFile {
  readonly about: string;
  readonly vectors: readonly DecoderVector[];
}

/** The vector's message as binary protobuf. */
function messageBytes(v: DecoderVector): Uint8Array {
  if ((v.args === undefined) === (v.base64 === undefined)) {
    throw new Error(`vector ${v.name}: give exactly one of args and base64`);
  }
  if (v.base64 !== undefined) return base64Decode(v.base64);
  const content = JSON.parse(v.args!) as JsonObject;
  switch (v.target) {
    case "call":
      return toBinary(
        CallMCPToolSchema,
        create(CallMCPToolSchema, {
          name: "vector",
          args: content,
          ...(v.raw === undefined ? {} : { rawArgsJson: v.raw }),
        }),
      );
    case "result":
      return toBinary(
        MCPToolResultSchema,
        create(MCPToolResultSchema, {
          actionId: "vector",
          structuredContent: content,
          ...(v.raw === undefined ? {} : { rawStructuredContentJson: v.raw }),
        }),
      );
    case "struct":
      return toBinary(StructSchema, fromJson(StructSchema, content));
  }
}

/** Decodes the vector's message from binary, as a receiver gets it, and runs the decoder on it. */
function decode(v: DecoderVector, options: Readonly<Record<string, unknown>>): string {
  const bytes = messageBytes(v);
  switch (v.target) {
    case "call":
      return toolCallToJson(fromBinary(CallMCPToolSchema, bytes), v.schema, options);
    case "result":
      return toolResultToJson(fromBinary(MCPToolResultSchema, bytes), v.schema, options);
    case "struct":
      return structMessageToJson(fromBinary(StructSchema, bytes), v.schema, options);
  }
}

/** Runs one vector; never throws for what the decoder refuses (that is the outcome). */
export function runDecoderVector(v: DecoderVector): VectorOutcome {
  const diagnostics: Diagnostic[] = [];
  const options = { ...v.options, onDiagnostic: (d: Diagnostic) => diagnostics.push(d) };
  const list = () => diagnostics.map((d) => ({ code: d.code, path: d.path }));
  try {
    return { output: decode(v, options), diagnostics: list() };
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    return { error: { code: e.code, path: e.path }, diagnostics: list() };
  }
}

/** Runs every vector of a file, in order. */
export function runDecoderVectors(
  file: DecoderVectorFile,
): { name: string; outcome: VectorOutcome }[] {
  return file.vectors.map((v) => ({ name: v.name, outcome: runDecoderVector(v) }));
}
