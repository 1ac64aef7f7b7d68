// Tool results: the same bridge for MCPToolResult.structured_content, read
// with the tool's outputSchema (row sets are where big ids live).

import type { MCPToolResult } from "../../gen/toolbridge/v1/toolbridge_pb.js";
import { checkOneOf, makeOptions } from "../options.js";
import type { CompiledSchema } from "../schema/index.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { type StructFromJsonOptions, structFromJsonDefaults } from "../struct/from-json.js";
import type { StructToJsonOptions } from "../struct/to-json.js";
import type { RawJsonMode } from "./raw-json.js";
import {
  argumentsText,
  checkMessage,
  initField,
  type RawTextPolicy,
  rawTextPolicies,
  structField,
  toolCallToJsonDefaults,
} from "./tool-call.js";
import { mcpToolResultMessage } from "./tool-messages.js";

/** Options of {@link toolResultFromJson}. */
export interface ToolResultFromJsonOptions extends StructFromJsonOptions {
  /**
   * When to set `raw_structured_content_json` (the text, byte for byte):
   * "always", "when-lossy" (only when some number lost precision) or "never".
   * Default "always".
   */
  rawStructuredContentJson: RawTextPolicy;
}

/** Options of {@link toolResultToJson}: the decoder's options plus the raw-text mode. */
export interface ToolResultToJsonOptions extends StructToJsonOptions {
  /** As `ToolCallToJsonOptions.rawJson`, for `raw_structured_content_json`. Default "verify". */
  rawJson: RawJsonMode;
}

/** The tool call's: `repair`, resolved there too, is never read. */
const toolResultToJsonDefaults: Readonly<ToolResultToJsonOptions> = toolCallToJsonDefaults;

const toolResultFromJsonDefaults: Readonly<ToolResultFromJsonOptions> = Object.freeze({
  ...structFromJsonDefaults,
  rawStructuredContentJson: "always",
});

/**
 * Builds an `MCPToolResult` from a tool's structuredContent JSON text (an
 * object, per MCP). The mirror of {@link toolResultToJson}.
 */
export function toolResultFromJson(
  init: { actionId?: string; structuredContentJson: string; isError?: boolean },
  options?: Partial<ToolResultFromJsonOptions>,
): MCPToolResult {
  const opts = makeOptions(toolResultFromJsonDefaults, options, (o) =>
    checkOneOf("rawStructuredContentJson", o.rawStructuredContentJson, rawTextPolicies),
  );
  checkMessage(init, "MCPToolResult");
  const actionId = initField(init, "actionId", "string", "");
  const isError = initField(init, "isError", "boolean", false);
  const json = init.structuredContentJson;
  const { value, keepText } = structField(json, opts.rawStructuredContentJson, opts);
  return mcpToolResultMessage(actionId, value, keepText ? json : undefined, isError);
}

/**
 * The result's structuredContent as JSON text: the raw text untouched when
 * present and verified, else the Struct decoded with the tool's output schema.
 * Throws `message-invalid` when the result carries no structured content
 * (with only the raw text, unless `rawJson` "trust" returns it).
 * The mirror of {@link toolResultFromJson}.
 */
export function toolResultToJson(
  result: MCPToolResult,
  outputSchema?: JsonSchema | CompiledSchema | null,
  options?: Partial<ToolResultToJsonOptions>,
): string {
  checkMessage(result, "MCPToolResult");
  // No structured content (nor a raw text that "trust" returns): message-invalid.
  return argumentsText(
    result.structuredContent,
    result.rawStructuredContentJson,
    outputSchema,
    makeOptions(toolResultToJsonDefaults, options),
  );
}
