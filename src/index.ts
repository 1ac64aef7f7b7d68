// The package root: the functions a user calls, their options and the types
// they take and return. Each is documented in README.md and docs/api.md.
// Extras live in subpaths, so a bundle carries only what it imports:
// "struct-json-bridge/messages" (the generated toolbridge.v1 messages),
// "struct-json-bridge/repair" (repair mode; brings ajv), "struct-json-bridge/re2"
// (linear-time patterns), "struct-json-bridge/mcp", "/openai", "/anthropic".

export type { DiagnosticCode, StructJsonErrorCode } from "./codes.js";
export type { Diagnostic, DiagnosticHandler } from "./diagnostics.js";
export { isStructJsonError, StructJsonError } from "./errors.js";
export type { JsonPointer } from "./json-pointer.js";
export type { PatternEngine } from "./patterns/engine.js";
export type { CompiledSchema, NumberReading } from "./schema/index.js";
export { compileSchema } from "./schema/index.js";
export type { JsonSchema, JsonSchemaObject } from "./schema/json-schema.js";
export type { StructFromJsonOptions } from "./struct/from-json.js";
export { structMessageFromJson } from "./struct/from-json.js";
export type { NumberInspection, SchemaArg, StructToJsonOptions } from "./struct/to-json.js";
export { inspectNumbers, structMessageToJson, structToJson } from "./struct/to-json.js";
export type { RawJsonMode } from "./tool/raw-json.js";
export type {
  ArgumentsRepair,
  ArgumentsRepairResult,
  RawTextPolicy,
  ToolCallFromJsonOptions,
  ToolCallToJsonOptions,
} from "./tool/tool-call.js";
export { toolCallFromJson, toolCallToJson } from "./tool/tool-call.js";
export type { ToolResultFromJsonOptions, ToolResultToJsonOptions } from "./tool/tool-result.js";
export { toolResultFromJson, toolResultToJson } from "./tool/tool-result.js";
export type { ToolDescription } from "./tool/tool-schemas.js";
export { ToolSchemas } from "./tool/tool-schemas.js";
