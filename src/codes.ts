// The package's one code vocabulary. Every code is written once, in the group
// that says how it reaches the caller; docs/codes.md gives each one's meaning
// and an example path (a test checks the two against each other).

/**
 * Codes that are only ever thrown, as a `StructJsonError`'s `code`.
 * @inline
 */
type ThrownCode =
  | "recursion-limit"
  | "schema-invalid"
  | "option-invalid"
  | "invalid-json"
  | "not-an-object"
  | "duplicate-key"
  | "invalid-unicode"
  | "number-out-of-range"
  | "raw-struct-mismatch"
  | "message-invalid"
  | "arguments-rejected"
  | "exact-json-unsupported"
  | "provider-text-unavailable"
  | "provider-response-invalid";

/**
 * Codes that are only ever reported, as a diagnostic's `code`; the call goes on.
 * @inline
 */
type ReportedCode =
  | "not-an-integer"
  | "integer-precision-lost"
  | "number-precision-lost"
  | "ambiguous-number"
  | "schema-ref-unresolved"
  | "schema-too-complex"
  | "schema-pattern-unevaluated"
  | "precision-lost"
  | "raw-json-invalid"
  | "integer-written-as-float"
  | "argument-repaired"
  | "argument-rejected";

/**
 * Codes thrown by default and reported instead when an option says so
 * (`nonFinite`, `unsetValue`: "null").
 * @inline
 */
type ThrownOrReportedCode = "non-finite-number" | "value-unset";

/** Every code a `StructJsonError` can carry (docs/codes.md gives each one's meaning). */
export type StructJsonErrorCode = ThrownCode | ThrownOrReportedCode;

/** Every code a diagnostic can carry (docs/codes.md gives each one's meaning). */
export type DiagnosticCode = ReportedCode | ThrownOrReportedCode;
