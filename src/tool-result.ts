// Tool results: the same bridge for MCPToolResult.structured_content, read
// with the tool's outputSchema (row sets are where big ids live).

import { create } from "@bufbuild/protobuf";
import { type MCPToolResult, MCPToolResultSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { StructJsonError } from "./errors.js";
import { parseArguments, type StructFromJsonOptions } from "./from-json.js";
import type { JsonSchema } from "./json-schema.js";
import type { RawJsonMode } from "./raw-json.js";
import type { CompiledSchema } from "./schema/index.js";
import type { StructToJsonOptions } from "./to-json.js";
import { argumentsText, checkPolicy, type RawTextPolicy } from "./tool-call.js";

/** Options of {@link toolResultFromJson}. */
export interface ToolResultFromJsonOptions extends StructFromJsonOptions {
  /**
   * When to set `raw_structured_content_json` (the text, byte for byte):
   * "always", "when-lossy" (only when some number lost precision) or "never".
   * Default "always".
   */
  rawStructuredContentJson: RawTextPolicy;
}

/** Options of {@link toolResultJson}: the decoder's options plus the raw-text mode. */
export interface ToolResultJsonOptions extends StructToJsonOptions {
  /** As `ToolCallArgumentsOptions.rawJson`, for `raw_structured_content_json`. Default "verify". */
  rawJson: RawJsonMode;
}

/** Builds an `MCPToolResult` from a tool's structuredContent JSON text (an object, per MCP). */
export function toolResultFromJson(
  init: { actionId?: string; structuredContentJson: string; isError?: boolean },
  options?: Partial<ToolResultFromJsonOptions>,
): MCPToolResult {
  const policy = options?.rawStructuredContentJson ?? "always";
  checkPolicy("rawStructuredContentJson", policy);
  const { value, lossy } = parseArguments(
    init.structuredContentJson,
    "plain",
    options,
    policy === "when-lossy",
  );
  const keep = policy === "always" || (policy === "when-lossy" && lossy);
  return create(MCPToolResultSchema, {
    actionId: init.actionId ?? "",
    isError: init.isError ?? false,
    structuredContent: value,
    ...(keep ? { rawStructuredContentJson: init.structuredContentJson } : {}),
  });
}

/**
 * The result's structuredContent as JSON text: the raw text untouched when
 * present and verified, else the Struct decoded with the tool's output schema.
 * Throws `message-invalid` when the result carries no structured content.
 */
export function toolResultJson(
  result: MCPToolResult,
  outputSchema?: JsonSchema | CompiledSchema | null,
  options?: Partial<ToolResultJsonOptions>,
): string {
  if (result.structuredContent === undefined && result.rawStructuredContentJson === undefined) {
    throw new StructJsonError("message-invalid", "", "the result carries no structured content");
  }
  const { rawJson, ...decoder } = options ?? {};
  return argumentsText(
    result.structuredContent,
    result.rawStructuredContentJson,
    outputSchema,
    rawJson ?? "verify",
    decoder,
  );
}
