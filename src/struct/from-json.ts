// JSON text → Struct, losslessly checked: the server side of the bridge.

import type { JsonObject } from "@bufbuild/protobuf";
import type { Struct } from "@bufbuild/protobuf/wkt";
import { type DiagnosticHandler, ignoreDiagnostics } from "../diagnostics.js";
import { pointerFrom } from "../json-pointer.js";
import { checkFunction, checkLimit, makeOptions } from "../options.js";
import { type ParseListener, type ParseTarget, parseJsonObjectText } from "./parse-json.js";

/**
 * The default nesting limit of {@link structMessageFromJson}: the deepest JSON that
 * protobuf-es, with its default `fromBinary` recursion limit (100 message
 * levels; each JSON level is a Struct and a Value), still decodes when the
 * Struct travels inside `CallMCPTool` inside `ClientAction` (measured in
 * test/from-json.test.ts). Whatever the encoder accepts, every receiver decodes.
 */
export const DEFAULT_STRUCT_DEPTH = 49;

/**
 * Options of {@link structMessageFromJson}, `toolCallFromJson` and
 * `toolResultFromJson`: pass a `Partial` of it; a member left out (or
 * `undefined`) takes the default its paragraph names.
 */
export interface StructFromJsonOptions {
  /**
   * Deepest nesting of objects and arrays accepted, the top-level object being
   * level 1; deeper throws `recursion-limit`. Default 49: the deepest JSON
   * that protobuf-es, with its default `fromBinary` recursion limit, still
   * decodes when the Struct travels inside `CallMCPTool` inside `ClientAction`,
   * so whatever the encoder accepts, every receiver decodes.
   */
  recursionLimit: number;
  /** Receives each diagnostic (`precision-lost` with its path). Default: ignored. */
  onDiagnostic: DiagnosticHandler;
}

/** The frozen defaults of {@link StructFromJsonOptions} (private to the package: each option documents its own). */
export const structFromJsonDefaults: Readonly<StructFromJsonOptions> = Object.freeze({
  recursionLimit: DEFAULT_STRUCT_DEPTH,
  onDiagnostic: ignoreDiagnostics,
});

/**
 * Parses a JSON object text into a `google.protobuf.Struct` message (the
 * mirror of `structMessageToJson`), seeing every
 * number's text: reports `precision-lost` where the float64 cannot carry the
 * number written, and throws StructJsonError for duplicate keys, lone
 * surrogates, numbers beyond float64, syntax errors, non-objects and depth.
 */
export function structMessageFromJson(
  json: string,
  options?: Partial<StructFromJsonOptions>,
): Struct {
  return parseArguments(json, "struct", options).value as Struct;
}

/** Parse result plus whether any number lost precision (for `rawArgsJson: "when-lossy"`). */
export interface ParsedArguments<T> {
  /** The Struct message or its JsonObject form. */
  readonly value: T;
  /** True when some number's float64 does not carry what was written (computed only when asked for). */
  readonly lossy: boolean;
}

/** structMessageFromJson for either target; the JsonObject form is what protobuf-es stores in Struct fields. */
export function parseArguments<T extends ParseTarget>(
  json: string,
  target: T,
  options: Partial<StructFromJsonOptions> | undefined,
  needLossy = false,
): ParsedArguments<T extends "struct" ? Struct : JsonObject> {
  const opts = resolveFromJsonOptions(options);
  let lossy = false;
  const onDiagnostic = opts.onDiagnostic;
  // The precision check costs a third of a parse of number-heavy text: only
  // when someone listens, or the caller must know (rawArgsJson: "when-lossy").
  const listener: ParseListener | undefined =
    onDiagnostic === ignoreDiagnostics && !needLossy
      ? undefined
      : {
          precisionLost(tokens) {
            lossy = true;
            if (onDiagnostic !== ignoreDiagnostics)
              onDiagnostic({ code: "precision-lost", path: pointerFrom(tokens) });
          },
        };
  const value = parseJsonObjectText(json, target, opts.recursionLimit, listener);
  return { value, lossy };
}

/** Merges options over the defaults and checks them. */
export function resolveFromJsonOptions(
  options: Partial<StructFromJsonOptions> | undefined,
): StructFromJsonOptions {
  return makeOptions(structFromJsonDefaults, options, checkFromJsonOptions);
}

/** The checks of resolved options (one function, not a closure per call: the read path of a small call is a few µs). */
function checkFromJsonOptions(o: StructFromJsonOptions): void {
  checkLimit("recursionLimit", o.recursionLimit);
  checkFunction("onDiagnostic", o.onDiagnostic);
}
