// inspectNumbers: every number of a Struct's JsonObject form with its reading
// and the text structToJson writes for it, for `inspect` tools. A consumer of
// the one walk (../schema/walk.ts) with one SchemaReader (one budget, as a
// call of structToJson), the texts and codes from ./number-output.ts: the
// same definitions the writer uses, so what is shown is what is sent.

import type { JsonObject } from "@bufbuild/protobuf";
import type { DiagnosticCode } from "../diagnostics.js";
import { ignoreDiagnostics } from "../diagnostics.js";
import { type JsonPointer, pointerFrom } from "../json-pointer.js";
import { type NumberReading, rootNode, SchemaReader } from "../schema/index.js";
import { type WalkVisitor, walkValue } from "../schema/walk.js";
import { numberOutput, numberText, plainNumberText } from "./number-output.js";
import {
  checkJsonObject,
  nonFiniteNumber,
  resolveOptions,
  type SchemaArg,
  type StructToJsonOptions,
} from "./to-json-options.js";

/** One number as the decoder saw and wrote it (for `inspect` tools). */
export interface NumberInspection {
  /** Where, as a JSON Pointer. */
  readonly path: JsonPointer;
  /** The float64 the Struct carries. */
  readonly value: number;
  /** The schema's reading of this position. */
  readonly reading: NumberReading;
  /** The text written for it. */
  readonly text: string;
  /** The diagnostics reported at this position. */
  readonly codes: readonly DiagnosticCode[];
}

/**
 * Lists every number of a Struct's JsonObject form (as {@link structToJson}
 * takes it) with its reading and the text {@link structToJson} writes for it.
 * Reports diagnostics and throws errors as structToJson does.
 */
export function inspectNumbers(
  args: JsonObject,
  inputSchema?: SchemaArg,
  options?: Partial<StructToJsonOptions>,
): NumberInspection[] {
  checkJsonObject(args);
  const opts = resolveOptions(options);
  const decimal = opts.wholeFloats === "decimal";
  const found: NumberInspection[] = [];
  const path: (string | number)[] = [];
  // The codes reported since the current member or element began: a number's
  // are its reading's notes, then its output's.
  let codes: DiagnosticCode[] = [];
  const note = (code: DiagnosticCode): void => {
    codes.push(code);
    if (opts.onDiagnostic !== ignoreDiagnostics) {
      opts.onDiagnostic({ code, path: pointerFrom(path) });
    }
  };
  const next = (): void => {
    if (codes.length !== 0) codes = [];
  };
  const ignore = (): void => {};
  const inspector: WalkVisitor = {
    note,
    member: next,
    element: next,
    enterObject: ignore,
    enterArray: ignore,
    primitive: ignore,
    leave: ignore,
    number(value, reading) {
      let text: string;
      if (typeof value === "number" && Number.isFinite(value)) {
        const output = numberOutput(value, reading, decimal, note);
        // Canonical output writes every number in its ECMAScript form: readings give codes only.
        text = opts.canonical ? plainNumberText(value) : numberText(value, output);
      } else text = `${nonFiniteNumber(opts, note, path)}`;
      found.push({ path: pointerFrom(path), value, reading, text, codes });
      codes = [];
    },
  };
  walkValue(args, rootNode(inputSchema), new SchemaReader({ patterns: opts.patterns }), inspector, {
    message: false,
    recursionLimit: opts.recursionLimit,
    deeper: "error",
    unsetValue: opts.unsetValue,
    only: undefined,
    path,
  });
  return found;
}
