import type { JsonPointer } from "./json-pointer.js";

/**
 * Codes of the diagnostics this package reports. A diagnostic says what was
 * done or noticed at one position; it never carries the argument's value.
 */
export type DiagnosticCode =
  // Decoder (Struct → JSON text)
  | "not-an-integer"
  | "integer-precision-lost"
  | "number-precision-lost"
  | "ambiguous-number"
  | "schema-ref-unresolved"
  | "schema-too-complex"
  | "schema-pattern-unevaluated"
  | "non-finite-number"
  | "value-unset"
  // Encoder (JSON text → Struct)
  | "precision-lost"
  // Raw text (raw_args_json)
  | "raw-json-invalid"
  | "integer-written-as-float"
  // Repair mode
  | "argument-repaired"
  | "argument-rejected";

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
