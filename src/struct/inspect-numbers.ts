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
  const inspector = new NumberInspector(opts);
  walkValue(args, rootNode(inputSchema), new SchemaReader({ patterns: opts.patterns }), inspector, {
    message: false,
    recursionLimit: opts.recursionLimit,
    deeper: "error",
    unsetValue: opts.unsetValue,
    only: undefined,
    path: inspector.path,
  });
  return inspector.found;
}

/** Records each number with the codes reported at it (its reading's notes, then its output's). */
class NumberInspector implements WalkVisitor {
  readonly found: NumberInspection[] = [];
  readonly path: (string | number)[] = [];
  readonly note: (code: DiagnosticCode) => void;
  private readonly decimal: boolean;
  /** Canonical output writes every number in its ECMAScript form: readings give codes only. */
  private readonly canonical: boolean;
  /** The codes reported since the current member or element began. */
  private codes: DiagnosticCode[] = [];

  constructor(private readonly opts: StructToJsonOptions) {
    this.decimal = opts.wholeFloats === "decimal";
    this.canonical = opts.canonical;
    this.note = (code) => {
      this.codes.push(code);
      if (opts.onDiagnostic !== ignoreDiagnostics) {
        opts.onDiagnostic({ code, path: pointerFrom(this.path) });
      }
    };
  }

  member(): void {
    if (this.codes.length !== 0) this.codes = [];
  }

  element(): void {
    if (this.codes.length !== 0) this.codes = [];
  }

  enterObject(): void {}
  enterArray(): void {}
  primitive(): void {}
  leave(): void {}

  number(value: number, reading: NumberReading): void {
    let text: string;
    if (typeof value === "number" && Number.isFinite(value)) {
      const output = numberOutput(value, reading, this.decimal, this.note);
      text = this.canonical ? plainNumberText(value) : numberText(value, output);
    } else text = `${nonFiniteNumber(this.opts, this.note, this.path)}`;
    this.found.push({ path: pointerFrom(this.path), value, reading, text, codes: this.codes });
    this.codes = [];
  }
}
