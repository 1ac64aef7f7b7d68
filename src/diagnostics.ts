import type { DiagnosticCode } from "./codes.js";
import type { JsonPointer } from "./json-pointer.js";

export type { DiagnosticCode } from "./codes.js";

/** One finding at one position: a code and an RFC 6901 JSON Pointer, never a value. */
export interface Diagnostic {
  /** What was done or noticed. */
  readonly code: DiagnosticCode;
  /** Where, as a JSON Pointer into the arguments ("" is the whole object). */
  readonly path: JsonPointer;
  /** For `argument-repaired`: the repair's kind; for `argument-rejected`: the failing keywords. */
  readonly detail?: string;
}

/** Receives diagnostics as they are found; the default drops them. */
export type DiagnosticHandler = (d: Diagnostic) => void;

/** A handler that ignores every diagnostic. */
export const ignoreDiagnostics: DiagnosticHandler = () => {};

/** Collects diagnostics into an array, for tests and for callers that want a list. */
export function collectDiagnostics(): { list: Diagnostic[]; onDiagnostic: DiagnosticHandler } {
  const list: Diagnostic[] = [];
  return { list, onDiagnostic: (d) => list.push(d) };
}
