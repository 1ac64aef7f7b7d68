// The options of the Struct → JSON direction (structToJson,
// structMessageToJson, inspectNumbers): their documented interface, private
// defaults, the checks a call's options pass, and the rules every consumer of
// the walk applies alike (the arguments' form, numbers with no JSON form).

import type { JsonObject } from "@bufbuild/protobuf";
import { type DiagnosticCode, type DiagnosticHandler, ignoreDiagnostics } from "../diagnostics.js";
import { StructJsonError } from "../errors.js";
import { pointerFrom } from "../json-pointer.js";
import { checkFunction, checkLimit, checkOneOf, invalidOption, makeOptions } from "../options.js";
import type { PatternEngine } from "../patterns/engine.js";
import type { CompiledSchema } from "../schema/index.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { isDataObject } from "./object-data.js";

/**
 * Options of {@link structToJson}, {@link structMessageToJson} and
 * {@link inspectNumbers}: pass a `Partial` of it; a member left out (or
 * `undefined`) takes the default its paragraph names.
 */
export interface StructToJsonOptions {
  /**
   * How a whole value at a position the schema reads as *number* is written:
   * "decimal" → `1.0`, "integer" → `1`. Integer positions are always written as
   * integer literals. Default "decimal".
   */
  wholeFloats: "decimal" | "integer";
  /**
   * NaN and ±Infinity (possible in binary protobuf, not in JSON): "error" throws
   * `non-finite-number`; "null" writes `null` and reports the same code as a
   * diagnostic. Default "error".
   */
  nonFinite: "error" | "null";
  /**
   * A `Value` with no kind set, or a JsonObject member that is no JSON value
   * (`undefined`, a function, a bigint, a symbol, or an object of a kind of its
   * own: a Date, a Map, a boxed primitive): "error" throws `value-unset`;
   * "null" writes `null` and reports `value-unset`. Default "error".
   * (protobuf-es itself turns unset values inside message fields into null
   * when it decodes, so a decoded message has none.)
   */
  unsetValue: "error" | "null";
  /**
   * Deepest nesting of objects and arrays accepted, the top-level object being
   * level 1; deeper throws `recursion-limit`. Default 100. The walk keeps its
   * own stack, so any limit is safe: the runtime's stack never decides.
   */
  recursionLimit: number;
  /**
   * Pretty printing for display: a number of spaces (0–10) or an indent string,
   * as `JSON.stringify`'s third argument (its first 10 UTF-16 units; a lone
   * surrogate among them is refused, as UTF-8 output cannot carry one).
   * Default 0 (compact).
   */
  indent: number | string;
  /**
   * RFC 8785 (JCS) output for hashing and golden files: keys sorted by UTF-16
   * code units, numbers in ECMAScript form (so `1.0` is `1` and readings only
   * produce diagnostics), no whitespace. Cannot be combined with `indent`.
   * Default false.
   */
  canonical: boolean;
  /** Receives each diagnostic (`{ code, path }`, never a value). Default: ignored. */
  onDiagnostic: DiagnosticHandler;
  /**
   * A linear-time engine for the schema's `patternProperties`, e.g.
   * `re2Patterns` from "struct-json-bridge/re2". Default undefined: a member
   * whose reading depends on a pattern reads as unknown (a whole value is
   * written as an integer, as JSON would) and `schema-pattern-unevaluated` is
   * reported at it. Patterns are never run by JavaScript's backtracking RegExp.
   */
  patterns: PatternEngine | undefined;
}

/** The frozen defaults of {@link StructToJsonOptions} (private to the package: each option documents its own). */
export const structToJsonDefaults: Readonly<StructToJsonOptions> = Object.freeze({
  wholeFloats: "decimal",
  nonFinite: "error",
  unsetValue: "error",
  recursionLimit: 100,
  indent: 0,
  canonical: false,
  onDiagnostic: ignoreDiagnostics,
  patterns: undefined,
});

/** A tool schema as the decoder takes it: JSON Schema, compiled schema, or none. */
export type SchemaArg = JsonSchema | CompiledSchema | null | undefined;

/** Throws `not-an-object` unless `x` is a (non-array) object that holds its data as members (./object-data.ts). */
export function checkJsonObject(x: unknown): asserts x is JsonObject {
  if (!isDataObject(x)) {
    throw new StructJsonError("not-an-object", "", "the arguments must be a JSON object");
  }
}

/** The options of a call: `options` over the defaults, each checked (a bad one throws `option-invalid`). */
export function resolveOptions(
  options: Partial<StructToJsonOptions> | undefined,
): StructToJsonOptions {
  return makeOptions(structToJsonDefaults, options, (o) => {
    checkOneOf("wholeFloats", o.wholeFloats, ["decimal", "integer"]);
    checkOneOf("nonFinite", o.nonFinite, ["error", "null"]);
    checkOneOf("unsetValue", o.unsetValue, ["error", "null"]);
    checkLimit("recursionLimit", o.recursionLimit);
    if (
      typeof o.indent === "number"
        ? !(o.indent >= 0 && o.indent <= 10)
        : typeof o.indent !== "string"
    )
      invalidOption("indent", "must be a number of spaces from 0 to 10 or a string");
    if (LONE_SURROGATE.test(indentString(o.indent)))
      invalidOption("indent", "must not hold a lone surrogate in its first 10 units");
    checkFunction("onDiagnostic", o.onDiagnostic);
    if (
      o.patterns !== undefined &&
      typeof (o.patterns as Partial<PatternEngine> | null)?.compile !== "function"
    )
      invalidOption("patterns", "must be a pattern engine");
    if (typeof o.canonical !== "boolean") invalidOption("canonical", "must be a boolean");
    if (o.canonical && indentString(o.indent) !== "")
      invalidOption("canonical", "cannot be combined with indent");
  });
}

/** A surrogate that is not half of a pair (with the `u` flag a pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/** The indent string of option `indent` ("" for none). */
export function indentString(indent: number | string): string {
  return typeof indent === "number" ? " ".repeat(Math.floor(indent)) : indent.slice(0, 10);
}

/**
 * A number with no JSON form (NaN, ±Infinity, a forged message's non-number)
 * at `path`: null after reporting `non-finite-number` (option nonFinite
 * "null"), else the `non-finite-number` error.
 */
export function nonFiniteNumber(
  opts: StructToJsonOptions,
  report: (code: DiagnosticCode) => void,
  path: readonly (string | number)[],
): null {
  if (opts.nonFinite === "null") {
    report("non-finite-number");
    return null;
  }
  throw new StructJsonError(
    "non-finite-number",
    pointerFrom(path),
    "NaN and Infinity have no JSON form",
  );
}
