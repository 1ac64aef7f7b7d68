// Tool calls: building CallMCPTool on the server, getting its arguments'
// JSON text back on the client.

import { create, type JsonObject } from "@bufbuild/protobuf";
import { type CallMCPTool, CallMCPToolSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { ignoreDiagnostics } from "./diagnostics.js";
import { StructJsonError } from "./errors.js";
import { parseArguments, type StructFromJsonOptions } from "./from-json.js";
import type { JsonSchema } from "./json-schema.js";
import { type RawJsonMode, verifyRawJson } from "./raw-json.js";
import { applyRepair } from "./repair-arguments.js";
import { type CompiledSchema, isCompiledSchema } from "./schema/index.js";
import { type StructToJsonOptions, structToJson, structToJsonDefaults } from "./to-json.js";

/** When the server carries the model's text beside the Struct. */
export type RawTextPolicy = "always" | "when-lossy" | "never";

/** Options of {@link toolCallFromJson}. */
export interface ToolCallFromJsonOptions extends StructFromJsonOptions {
  /**
   * When to set `raw_args_json` (the argument text, byte for byte): "always",
   * "when-lossy" (only when some number's float64 does not carry what was
   * written, i.e. a `precision-lost` diagnostic), or "never". Default "always".
   */
  rawArgsJson: RawTextPolicy;
}

/** Options of {@link toolCallArgumentsJson}: the decoder's options plus the raw-text mode. */
export interface ToolCallArgumentsOptions extends StructToJsonOptions {
  /**
   * What to do with `raw_args_json` when present. "verify" (default): use it
   * untouched if it is one well-formed JSON object that agrees with `args`;
   * malformed → `raw-json-invalid` and the Struct path; disagreeing → throw
   * `raw-struct-mismatch`. "trust": return it without parsing (only for
   * pipelines whose sender is trusted). "ignore": always decode `args`.
   */
  rawJson: RawJsonMode;
  /**
   * Apply repair mode (see `repairArguments`) to the decoded text before
   * returning it; arguments with no single reading throw `arguments-rejected`.
   * Default false.
   */
  repair: boolean;
}

/** Builds a `CallMCPTool` from the model's argument JSON text (the server side). */
export function toolCallFromJson(
  init: { name: string; serverId?: string; argumentsJson: string },
  options?: Partial<ToolCallFromJsonOptions>,
): CallMCPTool {
  const policy = options?.rawArgsJson ?? "always";
  checkPolicy("rawArgsJson", policy);
  const { value, lossy } = parseArguments(
    init.argumentsJson,
    "plain",
    options,
    policy === "when-lossy",
  );
  const keep = policy === "always" || (policy === "when-lossy" && lossy);
  return create(CallMCPToolSchema, {
    name: init.name,
    serverId: init.serverId ?? "",
    args: value,
    ...(keep ? { rawArgsJson: init.argumentsJson } : {}),
  });
}

/**
 * The call's arguments as the JSON text a strict MCP server expects (the
 * client side): `raw_args_json` untouched when present and verified, else
 * the Struct decoded with the tool's input schema.
 */
export function toolCallArgumentsJson(
  call: CallMCPTool,
  inputSchema?: JsonSchema | CompiledSchema | null,
  options?: Partial<ToolCallArgumentsOptions>,
): string {
  const mode = options?.rawJson ?? "verify";
  const text = argumentsText(call.args, call.rawArgsJson, inputSchema, mode, options);
  if (options?.repair !== true) return text;
  if (isCompiledSchema(inputSchema)) {
    throw new StructJsonError(
      "option-invalid",
      "",
      "repair needs the JSON Schema itself, not a CompiledSchema",
    );
  }
  return applyRepair(text, inputSchema, options.onDiagnostic);
}

/** The shared decoding path of tool calls and tool results. */
export function argumentsText(
  struct: JsonObject | undefined,
  raw: string | undefined,
  schema: JsonSchema | CompiledSchema | null | undefined,
  mode: RawJsonMode,
  options: Partial<StructToJsonOptions> | undefined,
): string {
  if (mode !== "verify" && mode !== "trust" && mode !== "ignore") {
    throw new StructJsonError(
      "option-invalid",
      "",
      'option rawJson must be "verify", "trust" or "ignore"',
    );
  }
  if (raw !== undefined && mode !== "ignore") {
    if (mode === "trust") return raw;
    const onDiagnostic = options?.onDiagnostic ?? ignoreDiagnostics;
    const limit = options?.recursionLimit ?? structToJsonDefaults.recursionLimit;
    if (verifyRawJson(raw, struct ?? {}, schema, limit, onDiagnostic)) return raw;
  }
  return structToJson(struct ?? {}, schema, stripOwn(options));
}

/** The decoder's options without this module's own. */
function stripOwn(
  options: Partial<ToolCallArgumentsOptions> | undefined,
): Partial<StructToJsonOptions> | undefined {
  if (options === undefined) return undefined;
  const { rawJson: _r, repair: _p, ...rest } = options;
  return rest;
}

/** Throws `option-invalid` for an unknown raw-text policy. */
export function checkPolicy(name: string, policy: string): void {
  if (policy !== "always" && policy !== "when-lossy" && policy !== "never") {
    throw new StructJsonError(
      "option-invalid",
      "",
      `option ${name} must be "always", "when-lossy" or "never"`,
    );
  }
}
