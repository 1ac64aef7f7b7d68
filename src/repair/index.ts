// Entry point "struct-json-bridge/repair": repair mode. It validates with ajv,
// so it is its own entry: the root entry never reaches ajv. Pass
// repairArguments to toolCallToJson's `repair` option for the one-call form.

export type {
  Issue,
  Repair,
  RepairArgumentsOptions,
  RepairKind,
  RepairResult,
} from "./repair-arguments.js";
export { repairArguments } from "./repair-arguments.js";
