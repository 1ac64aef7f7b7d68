// Struct → JSON text, guided by the tool's JSON Schema.
//
// Speed: a call is first offered to the schema's compiled writer
// (./writer-program.ts: the schema's plans resolved into a program, run as
// generated code where the runtime allows it, see ./writer-code.ts, and
// interpreted elsewhere). It writes the happy path and gives up, with no
// effect, on anything else; the call is then walked here, which is the
// definition of the output: every diagnostic with its path, every error.
// The walk writes small outputs as text as it goes; large ones build a plain
// JS value and hand the text work to the native JSON.stringify, like
// protobuf-es's own toJsonString. Numbers whose text JSON.stringify cannot
// produce (`1.0`, exact digits above 2^53) are carried as JSON.rawJSON where
// the runtime has it, and elsewhere as marker strings that are swapped for
// their text afterwards (see exact-number-text.ts). What a number is written
// as, and which codes it reports, is defined once (./number-output.ts).
// Values nested deeper than JSON.stringify's own recursion can take go to our
// iterative writer instead; the walk itself keeps its own stack.
//
// The two forms of a Struct are told apart by the caller, never by content
// (a model writes the content): structToJson reads the JsonObject form that
// generated code holds in Struct fields; structMessageToJson reads a Struct
// message. Arguments with members named `$typeName` or `fields` are data.

import type { JsonObject } from "@bufbuild/protobuf";
import type { ListValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import {
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticHandler,
  ignoreDiagnostics,
} from "../diagnostics.js";
import { StructJsonError } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";
import { pointerFrom } from "../json-pointer.js";
import { checkFunction, checkLimit, checkOneOf, invalidOption, makeOptions } from "../options.js";
import type { PatternEngine } from "../patterns/engine.js";
import {
  type ArrayScope,
  type CompiledSchema,
  type NumberReading,
  type ObjectProbe,
  type ObjectScope,
  rootNode,
  type SchemaNode,
  SchemaReader,
} from "../schema/index.js";
import type { JsonSchema } from "../schema/json-schema.js";
import {
  type ExactTextSink,
  jsonString,
  markerExactTexts,
  nativeExactTexts,
  objectExactTexts,
  writeJsonText,
} from "./exact-number-text.js";
import { LARGE_OUTPUT } from "./large-output.js";
import { AS_DECIMAL, AS_NUMBER, decimalText, digitsText, numberOutput } from "./number-output.js";
import { MessageProbe, PlainProbe } from "./object-probes.js";
import { setOwnProperty } from "./own-property.js";
import { writeCompiled as writeProgram } from "./writer-call.js";
import { PLAN_OVER_BUDGET, PlanReader, type SchemaSource, writerPlans } from "./writer-plan.js";

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
   * A `Value` with no kind set: "error" throws `value-unset`; "null" writes
   * `null` and reports `value-unset`. Default "error". (protobuf-es itself turns
   * unset values inside message fields into null when it decodes, so this only
   * sees them in `Struct` messages.)
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
   * as `JSON.stringify`'s third argument. Default 0 (compact).
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
 */
export function inspectNumbers(
  args: JsonObject,
  inputSchema?: SchemaArg,
  options?: Partial<StructToJsonOptions>,
): NumberInspection[] {
  checkJsonObject(args);
  const found: NumberInspection[] = [];
  const opts = resolveOptions(options);
  const w = new Writer(opts, objectExactTexts());
  w.onNumber = (path, value, reading, text, codes) =>
    found.push({ path, value, reading, text, codes });
  w.run(args, false, rootNode(inputSchema));
  return found;
}

/** Throws `not-an-object` unless `x` is a (non-array) object. */
function checkJsonObject(x: unknown): asserts x is JsonObject {
  if (typeof x !== "object" || x === null || Array.isArray(x)) {
    throw new StructJsonError("not-an-object", "", "the arguments must be a JSON object");
  }
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

/** The output containers of a writer in text mode: nothing is built. */
const EMPTY_OUT: unknown[] = [];

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
    checkFunction("onDiagnostic", o.onDiagnostic);
    if (
      o.patterns !== undefined &&
      typeof (o.patterns as Partial<PatternEngine> | null)?.compile !== "function"
    )
      invalidOption("patterns", "must be a pattern engine (an object with a compile method)");
    if (o.canonical && indentString(o.indent) !== "")
      invalidOption(
        "canonical",
        "cannot be combined with indent (canonical text has no whitespace)",
      );
  });
}

function indentString(indent: number | string): string {
  return typeof indent === "number" ? " ".repeat(Math.floor(indent)) : indent.slice(0, 10);
}

type NumberHook = (
  path: JsonPointer,
  value: number,
  reading: NumberReading,
  text: string,
  codes: DiagnosticCode[],
) => void;

/** An object or array being walked: where the walk is in it, and what it builds. */
interface Frame {
  /** The object's members (message form: `Value`s) or the array's elements. */
  readonly source: Record<string, unknown> | readonly unknown[];
  /** The object's keys; undefined for an array. */
  readonly keys: readonly string[] | undefined;
  readonly length: number;
  readonly out: Record<string, unknown> | unknown[];
  /** The schema node of every child when the schema says nothing here; else undefined. */
  readonly unknownChild: SchemaNode | undefined;
  readonly scope: ObjectScope | ArrayScope | undefined;
  /** The next child to walk. */
  next: number;
}

/** What an unwrap returns for an object or array; the container itself is in `Writer.container`. */
const CONTAINER: unique symbol = Symbol("container");

/** Thrown by a text walk that outgrew LARGE_OUTPUT. */
const OUTPUT_LARGE: unique symbol = Symbol("output large");

/** What {@link Writer.number} returns in text mode for a text of its own; the text is in `Writer.ownText`. */
const OWN_TEXT: unique symbol = Symbol("own text");

/**
 * The sink of a writer in text mode: `Writer` writes JSON text as it walks and
 * keeps a number's own text in `ownText` (no stand-in object per number).
 */
const DIRECT_TEXT: ExactTextSink = {
  text: () => OWN_TEXT,
  finish: () => undefined,
};

/** A text walk's own sink: the number's text stays here until it is written (no object per number). */
class TextSink implements ExactTextSink {
  last = "";
  text(text: string): unknown {
    this.last = text;
    return OWN_TEXT;
  }
  finish(): undefined {
    return undefined;
  }
}

/**
 * One walk of one Struct: builds the output value and reports diagnostics. The
 * walk keeps its own stack of frames (no recursion over the input's depth), so
 * only `recursionLimit` bounds the nesting, whatever the runtime's stack.
 */
class Writer {
  /** Keys and indices from the root to the current position, for diagnostics' paths. */
  private readonly tokens: (string | number)[] = [];
  private readonly decimal: boolean;
  private readonly note: (code: DiagnosticCode) => void;
  onNumber: NumberHook | undefined;
  /** The deepest nesting met (the top-level object is 1). */
  maxDepth = 0;
  /** Whether the walk reads the message form (`Value`s) rather than the JsonObject form. */
  private msg = false;
  /** The object or array an unwrap returned {@link CONTAINER} for (no allocation per value). */
  private container: Record<string, unknown> | readonly unknown[] | undefined;
  private containerIsArray = false;
  private codesHere: DiagnosticCode[] | undefined;
  /** The schema reader of this walk: one budget for the whole call. */
  private readonly schema: SchemaSource;
  /** Set when the walk reads plans: the schema source that makes them. */
  private readonly plans: PlanReader | undefined;
  /** Diagnostics held back until a walk through plans is known to stand. */
  private held: Diagnostic[] | undefined;
  /** Text mode (sink {@link DIRECT_TEXT}): the JSON text written so far. */
  text = "";
  /** Text mode: keeps the text of the last number {@link OWN_TEXT} stood for. */
  private readonly textSink: TextSink | undefined;
  private readonly direct: boolean;
  private readonly exact: ExactTextSink | undefined;

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
    this.textSink = this.direct ? new TextSink() : undefined;
    this.exact = this.textSink ?? exact;
  }

  /** Walks `fields` (an array when `array`) at `root`, `depth` levels deep (the top-level object is 1). */
  run(
    fields: Record<string, unknown> | readonly unknown[],
    msg: boolean,
    root: SchemaNode,
    array = false,
    depth = 1,
  ): unknown {
    this.msg = msg;
    const direct = this.direct;
    const stack: Frame[] = [];
    const tokens = this.tokens;
    const rootFrame = this.open(fields, array, this.plans?.root(root) ?? root, depth);
    stack.push(rootFrame);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      if (frame.next === frame.length) {
        stack.pop();
        tokens.pop();
        if (direct) {
          this.text += frame.keys === undefined ? "]" : "}";
          if (this.text.length > LARGE_OUTPUT && this.held !== undefined) throw OUTPUT_LARGE;
        }
        continue;
      }
      const i = frame.next++;
      const keys = frame.keys;
      const key = keys === undefined ? i : keys[i]!;
      tokens[tokens.length - 1] = key;
      const node =
        frame.unknownChild ??
        (keys === undefined
          ? (frame.scope as ArrayScope).child(i)
          : (frame.scope as ObjectScope).child(key as string));
      const v =
        keys === undefined
          ? (frame.source as readonly unknown[])[i]
          : (frame.source as Record<string, unknown>)[key as string];
      if (direct) {
        // Separator and key first: a container's own scope notes come after them in the walk anyway.
        // One append per member (short pieces are joined flat first): fewer rope nodes.
        let piece = i > 0 ? "," : "";
        if (keys !== undefined) {
          // A member the plan names carries its key pre-escaped.
          piece += this.plans?.takeKeyText() ?? `${jsonString(key as string)}:`;
        }
        const out = msg ? this.unwrapMessage(v, node) : this.unwrapPlain(v, node);
        if (out === CONTAINER) {
          this.text += piece;
          stack.push(this.open(this.container!, this.containerIsArray, node, stack.length + depth));
        } else {
          this.text += piece + valueText(out, this.textSink!.last);
        }
        continue;
      }
      let out = msg ? this.unwrapMessage(v, node) : this.unwrapPlain(v, node);
      if (out === CONTAINER) {
        const opened = this.open(
          this.container!,
          this.containerIsArray,
          node,
          stack.length + depth,
        );
        out = opened.out;
        stack.push(opened);
      }
      if (keys === undefined) (frame.out as unknown[])[i] = out;
      else setOwnProperty(frame.out as Record<string, unknown>, key as string, out);
    }
    return rootFrame.out;
  }

  /**
   * Starts walking an object or array at the current path (`depth` levels
   * deep): checks the depth, asks the schema for its scope, and pushes the
   * path slot its children will use.
   */
  private open(
    source: Record<string, unknown> | readonly unknown[],
    array: boolean,
    node: SchemaNode,
    depth: number,
  ): Frame {
    if (depth > this.opts.recursionLimit) {
      this.fail(
        "recursion-limit",
        `nesting deeper than recursionLimit ${this.opts.recursionLimit}`,
      );
    }
    if (depth > this.maxDepth) this.maxDepth = depth;
    let frame: Frame;
    if (array) {
      const items = source as readonly unknown[];
      const n = items.length;
      // Before the index is pushed: the scope's notes are about the array itself.
      frame = {
        source: items,
        keys: undefined,
        length: n,
        out: this.direct ? EMPTY_OUT : new Array<unknown>(n),
        unknownChild: node.isUnknown ? node : undefined,
        scope: node.isUnknown ? undefined : this.schema.arrayScope(node, n, this.note),
        next: 0,
      };
    } else {
      const fields = source as Record<string, unknown>;
      const keys = Object.keys(fields);
      frame = {
        source: fields,
        keys,
        length: keys.length,
        out: this.direct ? EMPTY_OUT : {},
        unknownChild: node.isUnknown ? node : undefined,
        scope: node.isUnknown
          ? undefined
          : this.schema.objectScope(node, this.probe(fields), this.note),
        next: 0,
      };
    }
    if (this.direct) this.text += array ? "[" : "{";
    this.tokens.push(0);
    return frame;
  }

  private probe(fields: Record<string, unknown>): ObjectProbe {
    return this.msg
      ? new MessageProbe(fields as Record<string, Value>)
      : new PlainProbe(fields as JsonObject);
  }

  private path(): JsonPointer {
    return pointerFrom(this.tokens);
  }

  private report(code: DiagnosticCode): void {
    this.codesHere?.push(code);
    // Building the pointer costs more than the rest of a number's work: skip it when nobody listens.
    if (this.opts.onDiagnostic !== ignoreDiagnostics) {
      const d: Diagnostic = { code, path: this.path() };
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

  private fail(
    code: "non-finite-number" | "value-unset" | "recursion-limit" | "message-invalid",
    rule: string,
  ): never {
    throw new StructJsonError(code, this.path(), rule);
  }

  /** A `google.protobuf.Value` message: its output, or {@link CONTAINER}. */
  private unwrapMessage(v: unknown, node: SchemaNode): unknown {
    const kind = (v as Value | undefined)?.kind;
    switch (kind?.case) {
      case "numberValue":
        return this.number(kind.value, node);
      case "stringValue":
      case "boolValue":
        return kind.value;
      case "nullValue":
        return null;
      case "structValue": {
        const fields = (kind.value as Partial<Struct> | undefined)?.fields;
        if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
          return this.fail("message-invalid", "a struct_value is not a google.protobuf.Struct");
        }
        this.container = fields;
        this.containerIsArray = false;
        return CONTAINER;
      }
      case "listValue": {
        const values = (kind.value as Partial<ListValue> | undefined)?.values;
        if (!Array.isArray(values)) {
          return this.fail("message-invalid", "a list_value is not a google.protobuf.ListValue");
        }
        this.container = values;
        this.containerIsArray = true;
        return CONTAINER;
      }
      default:
        return this.unset("a google.protobuf.Value has no kind set");
    }
  }

  /** A JsonValue (the JsonObject form): its output, or {@link CONTAINER}. */
  private unwrapPlain(v: unknown, node: SchemaNode): unknown {
    switch (typeof v) {
      case "number":
        return this.number(v, node);
      case "string":
      case "boolean":
        return v;
      case "object":
        if (v === null) return null;
        this.container = v as Record<string, unknown> | unknown[];
        this.containerIsArray = Array.isArray(v);
        return CONTAINER;
      default:
        return this.unset("a value is neither null, boolean, number, string, list nor struct");
    }
  }

  private unset(rule: string): null {
    if (this.opts.unsetValue === "null") {
      this.report("value-unset");
      return null;
    }
    return this.fail("value-unset", rule);
  }

  private number(v: number, node: SchemaNode): unknown {
    if (this.onNumber !== undefined) return this.inspectNumber(v, node);
    if (typeof v !== "number" || !Number.isFinite(v)) {
      if (this.opts.nonFinite === "null") {
        this.report("non-finite-number");
        return null;
      }
      return this.fail("non-finite-number", "NaN and Infinity have no JSON form");
    }
    if (node.isUnknown) return v;
    const reading = this.schema.numberReading(node, v, this.note);
    const output = numberOutput(v, reading, this.decimal, this.note);
    const exact = this.exact;
    if (output === AS_NUMBER || exact === undefined) return v;
    if (output === AS_DECIMAL) return exact.text(decimalText(v));
    return exactInteger(v, exact, this.direct);
  }

  /** The slow path of {@link number} for {@link inspectNumbers}: records what was done. */
  private inspectNumber(v: number, node: SchemaNode): unknown {
    const hook = this.onNumber!;
    this.onNumber = undefined;
    const codes: DiagnosticCode[] = [];
    this.codesHere = codes;
    try {
      const reading =
        node.isUnknown || !Number.isFinite(v)
          ? "unknown"
          : this.schema.numberReading(node, v, () => {});
      const out = this.number(v, node);
      const text = writeJsonText(out, "", false);
      hook(this.path(), v, reading, text, codes);
      return out;
    } finally {
      this.codesHere = undefined;
      this.onNumber = hook;
    }
  }
}

/**
 * A whole float64 above 2^53 as its exact digits. JS's own form is the shortest
 * round-trip text, padded with zeros (2**60 is "1152921504606847000"); when it
 * does not end in 0 nothing was padded and it is exact, so the number itself
 * can go to JSON.stringify, and only the rest pays for BigInt.
 */
function exactInteger(v: number, exact: ExactTextSink, direct: boolean): unknown {
  // A walk for the native writer keeps exact numbers as numbers, so that
  // only the others need a stand-in (and String(v) decides which cheaply).
  if (!direct && v < 1e21 && v > -1e21) {
    const js = String(v);
    if (js.charCodeAt(js.length - 1) !== 48) return v;
    const digits = digitsText(v);
    return digits === js ? v : exact.text(digits);
  }
  return exact.text(digitsText(v));
}

/** The text of a walked primitive in text mode ({@link OWN_TEXT}: the number's own text). */
function valueText(out: unknown, ownText: string): string {
  switch (typeof out) {
    case "string":
      return jsonString(out);
    case "number":
      // As JSON.stringify: -0 is "0"; non-finite numbers never get here.
      return out === 0 ? "0" : `${out}`;
    case "boolean":
      return out ? "true" : "false";
    default:
      return out === OWN_TEXT ? ownText : "null";
  }
}
