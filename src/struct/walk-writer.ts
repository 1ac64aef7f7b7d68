import { type Diagnostic, type DiagnosticCode, ignoreDiagnostics } from "../diagnostics.js";
import { pointerFrom } from "../json-pointer.js";
import { type NumberReading, type SchemaNode, SchemaReader } from "../schema/index.js";
import {
  type SchemaSource,
  type WalkOptions,
  type WalkVisitor,
  walkValue,
} from "../schema/walk.js";
import { type ExactTextSink, jsonString } from "./exact-number-text.js";
import { LARGE_OUTPUT } from "./large-output.js";
import {
  AS_DECIMAL,
  AS_NUMBER,
  digitsText,
  numberOutput,
  numberText,
  plainNumberText,
} from "./number-output.js";
import { setOwnProperty } from "./own-property.js";
import { nonFiniteNumber, type StructToJsonOptions } from "./to-json-options.js";
import { PlanReader } from "./writer-plan.js";

/** The output stack of a writer in text mode: nothing is built. */
const EMPTY_OUTS: never[] = [];

/** Thrown by a text walk that outgrew LARGE_OUTPUT. */
export const OUTPUT_LARGE: unique symbol = Symbol("output large");

/**
 * The sink that selects text mode: `Writer` writes JSON text as it walks,
 * every number's own text included, so nothing ever reaches it.
 */
export const DIRECT_TEXT: ExactTextSink = {
  digits: () => null,
  decimal: () => null,
  finish: () => "",
};

/**
 * One walk of one Struct, as a visitor of the one walk (../schema/walk.ts):
 * builds the output (text as it goes, or a value for a JSON writer) and
 * reports diagnostics. The walk keeps its own stack (no recursion over the
 * input's depth), so only `recursionLimit` bounds the nesting, whatever the
 * runtime's stack.
 */
export class Writer implements WalkVisitor {
  /** Keys and indices from the root to the current position (kept by the walk), for diagnostics' paths. */
  private readonly tokens: (string | number)[] = [];
  private readonly decimal: boolean;
  readonly note: (code: DiagnosticCode) => void;
  /** The deepest nesting met (the top-level object is 1). */
  maxDepth = 0;
  /** The schema reader of this walk: one budget for the whole call. */
  private readonly schema: SchemaSource;
  /** Set when the walk reads plans: the schema source that makes them. */
  private readonly plans: PlanReader | undefined;
  /** Diagnostics held back until a walk through plans is known to stand. */
  private held: Diagnostic[] | undefined;
  /** Text mode (sink {@link DIRECT_TEXT}): the JSON text written so far. */
  text = "";
  /** Text mode: the separator and key to write before the next value. */
  private piece = "";
  private readonly direct: boolean;
  private readonly exact: ExactTextSink | undefined;
  /** Value mode: the open objects' and arrays' outputs, innermost last. */
  private readonly outs: (Record<string, unknown> | unknown[])[];
  /** Value mode: the key or index the next value is stored under. */
  private slot: string | number = 0;
  /** Value mode: the output of the top-level value. */
  private top: unknown;

  constructor(
    private readonly opts: StructToJsonOptions,
    /** Where texts JSON.stringify cannot write go; undefined for ECMAScript number form (canonical). */
    exact: ExactTextSink | undefined,
    /** Read the schema through plans (./writer-plan.ts), with this reader if given; the caller handles PLAN_OVER_BUDGET. */
    planned: boolean | PlanReader = false,
    /** Hold diagnostics back until {@link flush} (a text walk also stops at OUTPUT_LARGE). */
    hold = false,
  ) {
    this.decimal = opts.wholeFloats === "decimal";
    this.note = (code) => this.report(code);
    this.held = hold ? [] : undefined;
    if (planned !== false) {
      this.plans = planned === true ? new PlanReader(opts.patterns) : planned;
      this.schema = this.plans;
    } else {
      this.plans = undefined;
      this.schema = new SchemaReader({ patterns: opts.patterns });
    }
    this.direct = exact === DIRECT_TEXT;
    this.outs = this.direct ? EMPTY_OUTS : [];
    this.exact = exact;
  }

  /**
   * Walks `value` (the top-level object's fields, or an object's fields or an
   * array's values `depth` levels deep; message form: its `Value`s) at `root`;
   * its output in value mode (text mode: see {@link text}).
   */
  run(
    value: Record<string, unknown> | readonly unknown[],
    msg: boolean,
    root: SchemaNode,
    depth = 1,
  ): unknown {
    const options: WalkOptions = {
      message: msg,
      recursionLimit: this.opts.recursionLimit,
      deeper: "error",
      unsetValue: this.opts.unsetValue,
      only: undefined,
      path: this.tokens,
    };
    walkValue(value, this.plans?.root(root) ?? root, this.schema, this, options, depth);
    return this.top;
  }

  member(key: string, index: number): void {
    if (this.direct) {
      // One append per member (short pieces are joined flat first): fewer rope nodes.
      // A member the plan names carries its key pre-escaped.
      this.piece = (index > 0 ? "," : "") + (this.plans?.takeKeyText() ?? `${jsonString(key)}:`);
    } else {
      this.slot = key;
    }
  }

  element(index: number): void {
    if (this.direct) this.piece = index > 0 ? "," : "";
    else this.slot = index;
  }

  enterObject(_keys: readonly string[], depth: number): void {
    if (depth > this.maxDepth) this.maxDepth = depth;
    if (this.direct) {
      this.text += `${this.piece}{`;
      return;
    }
    const out: Record<string, unknown> = {};
    this.put(out);
    this.outs.push(out);
  }

  enterArray(length: number, depth: number): void {
    if (depth > this.maxDepth) this.maxDepth = depth;
    if (this.direct) {
      this.text += `${this.piece}[`;
      return;
    }
    const out = new Array<unknown>(length);
    this.put(out);
    this.outs.push(out);
  }

  leave(array: boolean): void {
    if (this.direct) {
      this.text += array ? "]" : "}";
      if (this.text.length > LARGE_OUTPUT && this.held !== undefined) throw OUTPUT_LARGE;
    } else {
      this.outs.pop();
    }
  }

  primitive(value: unknown): void {
    if (this.direct) this.text += this.piece + valueText(value);
    else this.put(value);
  }

  number(v: number, reading: NumberReading): void {
    // The walk asks the schema only about finite numbers: any other reading means one.
    if (reading === "unknown" && (typeof v !== "number" || v - v !== 0)) {
      const out = nonFiniteNumber(this.opts, this.note, this.tokens);
      if (this.direct) this.text += `${this.piece}null`;
      else this.put(out);
      return;
    }
    if (this.direct) {
      this.text +=
        this.piece +
        (reading === "unknown"
          ? plainNumberText(v)
          : numberText(v, numberOutput(v, reading, this.decimal, this.note)));
      return;
    }
    let out: unknown = v;
    const exact = this.exact;
    if (reading !== "unknown" && exact !== undefined) {
      const output = numberOutput(v, reading, this.decimal, this.note);
      if (output === AS_DECIMAL) out = exact.decimal(v);
      else if (output !== AS_NUMBER) out = exactInteger(v, exact);
    } else if (reading !== "unknown") {
      numberOutput(v, reading, this.decimal, this.note); // canonical: the codes only
    }
    this.put(out);
  }

  /** Value mode: stores a value's output in its object or array (the top-level value's: kept). */
  private put(out: unknown): void {
    const outs = this.outs;
    if (outs.length === 0) {
      this.top = out;
      return;
    }
    const parent = outs[outs.length - 1]!;
    const slot = this.slot;
    if (typeof slot === "number") (parent as unknown[])[slot] = out;
    else setOwnProperty(parent as Record<string, unknown>, slot, out);
  }

  private report(code: DiagnosticCode): void {
    // Building the pointer costs more than the rest of a number's work: skip it when nobody listens.
    if (this.opts.onDiagnostic !== ignoreDiagnostics) {
      const d: Diagnostic = { code, path: pointerFrom(this.tokens) };
      if (this.held !== undefined) this.held.push(d);
      else this.opts.onDiagnostic(d);
    }
  }

  /** Delivers the diagnostics a walk through plans held back, in order. */
  flush(): void {
    const held = this.held;
    if (held === undefined) return;
    this.held = undefined;
    for (const d of held) this.opts.onDiagnostic(d);
  }
}

/**
 * A whole float64 above 2^53 as its exact digits. JS's own form is the shortest
 * round-trip text, padded with zeros (2**60 is "1152921504606847000"); when it
 * does not end in 0 nothing was padded and it is exact, so the number itself
 * can go to JSON.stringify, and only the rest pays for BigInt.
 */
function exactInteger(v: number, exact: ExactTextSink): unknown {
  // A walk for the native writer keeps exact numbers as numbers, so that
  // only the others need a stand-in (and String(v) decides which cheaply).
  if (v < 1e21 && v > -1e21) {
    const js = String(v);
    if (js.charCodeAt(js.length - 1) !== 48 || digitsText(v) === js) return v;
  }
  return exact.digits(v);
}

/** The text of a walked primitive in text mode (a forged message's other contents: null). */
function valueText(out: unknown): string {
  switch (typeof out) {
    case "string":
      return jsonString(out);
    case "number":
      // As JSON.stringify writes a finite number: -0 is "0".
      return out === 0 ? "0" : `${out}`;
    case "boolean":
      return out ? "true" : "false";
    default:
      return "null";
  }
}
