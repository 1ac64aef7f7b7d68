// Entry point "struct-json-bridge/re2": the linear-time pattern engine and what
// it is built on. The root entry exports only the PatternEngine types.

export type {
  CompiledPattern,
  PatternEngine,
  PatternRefusal,
  PatternRefusalReason,
} from "./engine.js";
export { compileRe2Pattern, re2Patterns } from "./re2.js";
export { type Translation, translatePattern } from "./translate.js";
