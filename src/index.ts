// The package root: the public API. Everything exported here is documented in
// README.md; internal modules are not part of the API.

export * from "../gen/toolbridge/v1/toolbridge_pb.js";
export type { Diagnostic, DiagnosticCode, DiagnosticHandler } from "./diagnostics.js";
export { collectDiagnostics } from "./diagnostics.js";
export type { StructJsonErrorCode } from "./errors.js";
export { isStructJsonError, StructJsonError } from "./errors.js";
export type { StructFromJsonOptions } from "./from-json.js";
export { DEFAULT_STRUCT_DEPTH, structFromJson, structFromJsonDefaults } from "./from-json.js";
export type { JsonPointer } from "./json-pointer.js";
export type { JsonSchema, JsonSchemaObject } from "./json-schema.js";
export type { RawJsonMode } from "./raw-json.js";
export type {
  Issue,
  Repair,
  RepairArgumentsOptions,
  RepairKind,
  RepairResult,
} from "./repair-arguments.js";
export { applyRepair, repairArguments, repairArgumentsDefaults } from "./repair-arguments.js";
export type { CompiledSchema, NumberReading } from "./schema/index.js";
export { compileSchema, isCompiledSchema } from "./schema/index.js";
export type { NumberInspection, SchemaArg, StructToJsonOptions } from "./to-json.js";
export {
  inspectNumbers,
  structMessageToJson,
  structToJson,
  structToJsonDefaults,
} from "./to-json.js";
export type {
  RawTextPolicy,
  ToolCallArgumentsOptions,
  ToolCallFromJsonOptions,
} from "./tool-call.js";
export { toolCallArgumentsJson, toolCallFromJson } from "./tool-call.js";
export type { ToolResultFromJsonOptions, ToolResultJsonOptions } from "./tool-result.js";
export { toolResultFromJson, toolResultJson } from "./tool-result.js";
export type { ToolDescription } from "./tool-schemas.js";
export { ToolSchemas } from "./tool-schemas.js";
