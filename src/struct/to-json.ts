// Struct → JSON text, guided by the tool's JSON Schema.
//
// Speed: a call is first offered to the schema's compiled writer
// (./writer-program.ts: the schema's plans resolved into a program, run as
// generated code where the runtime allows it, see ./writer-code.ts, and
// interpreted elsewhere). It writes the happy path and gives up, with no
// effect, on anything else; the call is then walked here, which is the
// definition of the output: every diagnostic with its path, every error.
// The walk is the one walk of ../schema/walk.ts (both forms of a Struct,
// the schema read through plans or a SchemaReader), with this module's
// Writer as its visitor.
// The walk writes small outputs as text as it goes; large ones build a plain
// JS value and hand the text work to the native JSON.stringify, like
// protobuf-es's own toJsonString. Numbers whose text JSON.stringify cannot
// produce (`1.0`, exact digits above 2^53) are carried as JSON.rawJSON where
// the runtime has it, and elsewhere as marker strings that are swapped for
// their text afterwards (see exact-number-text.ts). What a number is written
// as, and which codes it reports, is defined once (./number-output.ts).
// Values nested deeper than JSON.stringify's own recursion can take go to our
// iterative writer instead; the walk itself keeps its own stack.
// inspectNumbers lives in ./inspect-numbers.ts, the options in
// ./to-json-options.ts; both are re-exported here.
//
// The two forms of a Struct are told apart by the caller, never by content
// (a model writes the content): structToJson reads the JsonObject form that
// generated code holds in Struct fields; structMessageToJson reads a Struct
// message. Arguments with members named `$typeName` or `fields` are data.

import type { JsonObject } from "@bufbuild/protobuf";
import type { Struct } from "@bufbuild/protobuf/wkt";
import { type Diagnostic, type DiagnosticCode, ignoreDiagnostics } from "../diagnostics.js";
import { StructJsonError } from "../errors.js";
import { pointerFrom } from "../json-pointer.js";
import { type NumberReading, rootNode, type SchemaNode, SchemaReader } from "../schema/index.js";
import {
  type SchemaSource,
  type WalkOptions,
  type WalkVisitor,
  walkValue,
} from "../schema/walk.js";
import {
  type ExactTextSink,
  jsonString,
  markerExactTexts,
  nativeExactTexts,
  objectExactTexts,
  writeJsonText,
} from "./exact-number-text.js";
import { LARGE_OUTPUT } from "./large-output.js";
import {
  AS_DECIMAL,
  AS_NUMBER,
  decimalText,
  digitsText,
  numberOutput,
  numberText,
  plainNumberText,
} from "./number-output.js";
import { setOwnProperty } from "./own-property.js";
import {
  checkJsonObject,
  indentString,
  nonFiniteNumber,
  resolveOptions,
  type SchemaArg,
  type StructToJsonOptions,
} from "./to-json-options.js";
import { writeCompiled as writeProgram } from "./writer-call.js";
import { PLAN_OVER_BUDGET, PlanReader, writerPlans } from "./writer-plan.js";

export { inspectNumbers, type NumberInspection } from "./inspect-numbers.js";
export {
  resolveOptions,
  type SchemaArg,
  type StructToJsonOptions,
  structToJsonDefaults,
} from "./to-json-options.js";

/**
 * Writes a Struct's JsonObject form as JSON text, giving every number the type
 * `inputSchema` declares at its position (see README, "Number readings").
 * This is the form generated code hands you: protobuf-es represents
 * `google.protobuf.Struct` fields (`CallMCPTool.args`,
 * `MCPToolResult.structured_content`) as `JsonObject`. Every member is data,
 * `$typeName` and `fields` included; a `Struct` message (from
 * `fromBinary(StructSchema, …)` or `structMessageFromJson`) goes to
 * {@link structMessageToJson}.
 */
export function structToJson(
  args: JsonObject,
  inputSchema?: SchemaArg,
  options?: Partial<StructToJsonOptions>,
): string {
  checkJsonObject(args);
  return writeStruct(args, false, inputSchema, options);
}

/**
 * Writes a `google.protobuf.Struct` *message* (what `fromBinary(StructSchema, …)`
 * and `structMessageFromJson` return) as JSON text, like {@link structToJson}.
 * Throws `message-invalid` when `struct` is not a Struct message; the form is
 * never guessed from the content.
 */
export function structMessageToJson(
  struct: Struct,
  inputSchema?: SchemaArg,
  options?: Partial<StructToJsonOptions>,
): string {
  if (!isStructMessage(struct)) {
    throw new StructJsonError(
      "message-invalid",
      "",
      "expected a google.protobuf.Struct message; for the JsonObject form (CallMCPTool.args) use structToJson",
    );
  }
  return writeStruct(struct.fields, true, inputSchema, options);
}

/** True for a protobuf-es `google.protobuf.Struct` message; only for callers that declared that form. */
function isStructMessage(x: unknown): x is Struct {
  return (
    typeof x === "object" &&
    x !== null &&
    (x as { $typeName?: unknown }).$typeName === "google.protobuf.Struct" &&
    typeof (x as { fields?: unknown }).fields === "object" &&
    (x as { fields?: unknown }).fields !== null &&
    !Array.isArray((x as { fields?: unknown }).fields)
  );
}

/**
 * The deepest walked value handed to the native `JSON.stringify`, which
 * recurses (on Node 20–24 it overflows the stack below 5,000 levels); deeper
 * values are written by our iterative {@link writeJsonText}.
 */
const NATIVE_STRINGIFY_DEPTH = 256;

function writeStruct(
  fields: Record<string, unknown>,
  msg: boolean,
  inputSchema: SchemaArg,
  options: Partial<StructToJsonOptions> | undefined,
): string {
  const opts = options === undefined ? defaultOptions() : resolveOptions(options);
  const root = rootNode(inputSchema);
  if (!opts.canonical && writerPlans.enabled && writerPlans.compiled !== "off") {
    const compiled = writeCompiled(root, fields, msg, opts);
    if (typeof compiled === "string") return compiled;
  }
  if (opts.canonical) {
    // Canonical text is built by our own writer: JS objects would put integer-like keys first.
    const w = new Writer(opts, undefined);
    return writeJsonText(w.run(fields, msg, root), "", true);
  }
  // The schema is read through plans (./writer-plan.ts) unless there is none.
  // Every walk holds its diagnostics back until it is known to stand: a walk
  // through plans whose total may pass the budget is redone by the engine
  // alone, and a text walk that outgrows LARGE_OUTPUT is redone natively.
  let plans = !root.isUnknown && writerPlans.enabled;
  if (indentString(opts.indent) === "") {
    // Small outputs are written as text during the walk: no value is built and
    // no marker spliced. Large ones go to the native JSON.stringify (below),
    // which writes long outputs faster than string concatenation (measured).
    for (;;) {
      const w = new Writer(opts, DIRECT_TEXT, plans, true);
      const outcome = attempt(w, fields, msg, root);
      if (outcome === DONE) return w.text;
      if (outcome === OUTPUT_LARGE) break;
      plans = false;
    }
  }
  let sink: ExactTextSink;
  let first: Writer;
  let out: unknown;
  for (;;) {
    sink = nativeExactTexts() ?? markerExactTexts();
    first = new Writer(opts, sink, plans, true);
    out = attempt(first, fields, msg, root);
    if (out !== PLAN_OVER_BUDGET) break;
    plans = false;
  }
  if (first.maxDepth <= NATIVE_STRINGIFY_DEPTH) {
    const text = sink.finish(out, opts.indent);
    if (text !== undefined) return text;
  }
  // Too deep for JSON.stringify, or a string in the arguments looked like one
  // of our markers: redo the walk with JSON.rawJSON-style objects and our own writer,
  // which needs no markers and no stack. Diagnostics were already reported.
  const w = new Writer({ ...opts, onDiagnostic: ignoreDiagnostics }, objectExactTexts());
  return writeJsonText(w.run(fields, msg, root), indentString(opts.indent), false);
}

let resolvedDefaults: StructToJsonOptions | undefined;

/** The options of a call that passed none (resolved once: a call's options are never changed). */
function defaultOptions(): StructToJsonOptions {
  resolvedDefaults ??= resolveOptions(undefined);
  return resolvedDefaults;
}

/** The call written by the schema's compiled writer (./writer-call.ts), when the output is compact. */
function writeCompiled(
  root: SchemaNode,
  fields: Record<string, unknown>,
  msg: boolean,
  opts: StructToJsonOptions,
): string | undefined {
  return indentString(opts.indent) === "" ? writeProgram(root, fields, msg, opts) : undefined;
}

/** What {@link attempt} returns when a text walk finished (its text is in the writer). */
const DONE: unique symbol = Symbol("done");

/**
 * Runs a walk whose diagnostics are held: its output (DONE for a text walk),
 * or PLAN_OVER_BUDGET / OUTPUT_LARGE when it must be redone (its diagnostics
 * dropped). Any other error is the call's: the held diagnostics go out first.
 */
function attempt(
  w: Writer,
  fields: Record<string, unknown>,
  msg: boolean,
  root: SchemaNode,
): unknown {
  let out: unknown;
  try {
    out = w.run(fields, msg, root);
  } catch (e) {
    if (e === PLAN_OVER_BUDGET) {
      writerPlans.redone++;
      return e;
    }
    if (e === OUTPUT_LARGE) return e;
    w.flush();
    throw e;
  }
  w.flush();
  return w.text === "" ? out : DONE;
}

/** The output stack of a writer in text mode: nothing is built. */
const EMPTY_OUTS: never[] = [];

/** Thrown by a text walk that outgrew LARGE_OUTPUT. */
const OUTPUT_LARGE: unique symbol = Symbol("output large");

/**
 * The sink that selects text mode: `Writer` writes JSON text as it walks,
 * every number's own text included, so nothing ever reaches it.
 */
const DIRECT_TEXT: ExactTextSink = {
  text: () => null,
  finish: () => undefined,
};

/**
 * One walk of one Struct, as a visitor of the one walk (../schema/walk.ts):
 * builds the output (text as it goes, or a value for JSON.stringify) and
 * reports diagnostics. The walk keeps its own stack (no recursion over the
 * input's depth), so only `recursionLimit` bounds the nesting, whatever the
 * runtime's stack.
 */
class Writer implements WalkVisitor {
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
  private top: unknown = undefined;

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

  /** Walks the top-level object `fields` (message form: its `Value`s) at `root`; its output in value mode. */
  run(fields: Record<string, unknown>, msg: boolean, root: SchemaNode): unknown {
    const options: WalkOptions = {
      message: msg,
      recursionLimit: this.opts.recursionLimit,
      deeper: "error",
      unsetValue: this.opts.unsetValue,
      only: undefined,
      path: this.tokens,
    };
    walkValue(fields, this.plans?.root(root) ?? root, this.schema, this, options);
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
      if (output === AS_DECIMAL) out = exact.text(decimalText(v));
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
    if (js.charCodeAt(js.length - 1) !== 48) return v;
    const digits = digitsText(v);
    return digits === js ? v : exact.text(digits);
  }
  return exact.text(digitsText(v));
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
