// The package root: the functions a user calls, their options and the types
// they take and return. Each is documented in README.md and docs/api.md.
// Extras live in subpaths, so a bundle carries only what it imports:
// "struct-json-bridge/messages" (the generated toolbridge.v1 messages),
// "struct-json-bridge/repair" (repair mode; brings ajv), "struct-json-bridge/re2"
// (linear-time patterns), "struct-json-bridge/mcp", "/openai", "/anthropic".

export type { DiagnosticCode, StructJsonErrorCode } from "./codes.js";
export type { Diagnostic, DiagnosticHandler } from "./diagnostics.js";
export { isStructJsonError, StructJsonError } from "./errors.js";
export type { StructFromJsonOptions } from "./from-json.js";
export { structMessageFromJson } from "./from-json.js";
export type { JsonPointer } from "./json-pointer.js";
export type { JsonSchema, JsonSchemaObject } from "./json-schema.js";
export type { PatternEngine } from "./patterns/engine.js";
export type { RawJsonMode } from "./raw-json.js";
export type { CompiledSchema, NumberReading } from "./schema/index.js";
export { compileSchema } from "./schema/index.js";
export type { NumberInspection, SchemaArg, StructToJsonOptions } from "./to-json.js";
export { inspectNumbers, structMessageToJson, structToJson } from "./to-json.js";
export type {
  ArgumentsRepair,
  ArgumentsRepairResult,
  RawTextPolicy,
  ToolCallFromJsonOptions,
  ToolCallToJsonOptions,
} from "./tool-call.js";
export { toolCallFromJson, toolCallToJson } from "./tool-call.js";
export type { ToolResultFromJsonOptions, ToolResultToJsonOptions } from "./tool-result.js";
export { toolResultFromJson, toolResultToJson } from "./tool-result.js";
export type { ToolDescription } from "./tool-schemas.js";
export { ToolSchemas } from "./tool-schemas.js";
