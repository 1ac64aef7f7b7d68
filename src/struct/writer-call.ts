// One call through a schema's compiled writer (./writer-program.ts): picks
// generated code (./writer-code.ts) or the interpreted program, and answers
// the objects a program leaves to the call. An object whose members depend on
// its content (a value-dependent union: a nullable `$ref`, a discriminated
// `oneOf`, `if`/`then`) is written by the program of its view, one per
// content the branch predicates see, built on first use; anything else is
// walked through the call's own PlanReader (./writer-plan.ts).
//
// Form: small outputs are written as text; large ones (see LARGE_OUTPUT in
// ./large-output.ts), and where the runtime has JSON.rawJSON those with many
// fractional numbers (MANY_FRACTIONS), as a plain value (./writer-code-value.ts):
// a large one written by the package's own writer (./json-text-writer.ts,
// UTF-8 bytes decoded once), one with many fractions by the native
// JSON.stringify with JSON.rawJSON for the number texts it cannot write:
// faster on long outputs and on numbers the text would convert one string
// at a time, and less heap (no rope). An
// output's size and numbers are known only once written, so a call takes the
// form its schema's last call wanted. Both forms write the same bytes and
// give up in the same cases, and the objects a program leaves to the call are
// written in the call's form (a value too deep for the native JSON.stringify
// gives the call to the walk, which writes such values itself). Interpreted programs
// always write text: measured on a
// 5 MB row set, the interpreter's text beats the walk's native path on Node 24
// (0.83× against 0.44× of toJsonString) and loses on Node 20 (0.39×, 0.49×).
//
// Budget: the call starts charged with its program's total (every answer the
// program holds, once). A view program's total is charged the first time the
// call meets that view, and its predicates' keys each later time (as the
// engine charges them at every object): the sum stays the most the engine can
// charge the call, and when it may pass CALL_BUDGET the call gives up and is
// walked (see ./to-json.ts), which charges it as the engine does.

import { ignoreDiagnostics } from "../diagnostics.js";
import { StructJsonError } from "../errors.js";
import type { PatternEngine } from "../patterns/engine.js";
import { CALL_BUDGET, type SchemaNode } from "../schema/index.js";
import { type ExactTextSink, nativeExactTexts } from "./exact-number-text.js";
import { objectExactTexts } from "./json-text-writer.js";
import {
  compiledOutput,
  LARGE_OUTPUT,
  MANY_FRACTIONS,
  NATIVE_STRINGIFY_DEPTH,
} from "./large-output.js";
import type { StructToJsonOptions } from "./to-json-options.js";
import { DIRECT_TEXT, Writer } from "./walk-writer.js";
import { type GeneratedWriter, generatedWriter } from "./writer-code.js";
import {
  type GeneratedValueWriter,
  generatedValueWriter,
  type ValueProgramOptions,
} from "./writer-code-value.js";
import { PLAN_OVER_BUDGET, PlanReader, writerPlans } from "./writer-plan.js";
import {
  GIVE_UP,
  interpretProgram,
  MAX_COMPILED_DEPTH,
  type Program,
  type ProgramNode,
  type ProgramOptions,
  programOf,
  type ViewProgram,
  viewContentOf,
} from "./writer-program.js";

/** What a compiled call needs: structToJson's options (the walks it makes itself take them all). */
export type CompiledCallOptions = StructToJsonOptions;

/**
 * The call written by the compiled writer of the schema whose root is `root`:
 * its JSON text; undefined when the schema has none or the writer gave up
 * (the call is then walked from the start, as if never tried).
 */
export function writeCompiled(
  root: SchemaNode,
  fields: Record<string, unknown>,
  msg: boolean,
  opts: CompiledCallOptions,
): string | undefined {
  // The schema of the last call first: a program lookup is two WeakMap reads.
  let program: Program | undefined;
  if (root === last.root && opts.patterns === last.patterns) program = last.program;
  else {
    program = programOf(root, opts.patterns);
    last = {
      root,
      patterns: opts.patterns,
      program,
      form: program === undefined ? 0 : (valueLast.get(program) ?? 0),
    };
  }
  if (program === undefined) return undefined;
  const generated = generatedFor(program);
  const form = compiledOutput.form;
  if (generated !== undefined && (form === "auto" ? last.form !== 0 : form === "value")) {
    const valueWriter = generatedValueWriter(program);
    if (valueWriter !== undefined) {
      return writeValue(program, valueWriter, fields, msg, opts, last.form === 2);
    }
  }
  const call = new CompiledCall(program.units, opts, undefined);
  const text = call.run(program, generated, fields, msg, 1);
  if (typeof text === "string") {
    if (generated !== undefined) writerPlans.written.generated++;
    else writerPlans.written.interpreted++;
    sized(program, text, call.fractions);
  }
  return text;
}

/**
 * The form of a call: 0 text; 1 a value for the native JSON.stringify (with
 * JSON.rawJSON); 2 a large value for the package's own writer
 * (./json-text-writer.ts).
 */
type Form = 0 | 1 | 2;

/**
 * Programs whose last output wanted a value form: a large one (2), or
 * (where the runtime has JSON.rawJSON) one with many fractional numbers
 * (1). Both are known only once the output is written, and calls of one
 * tool tend to look alike: a call is written in the form its schema's last
 * call would have wanted. A miss costs time (one call in the slower form),
 * never output.
 */
const valueLast = new WeakMap<Program, Form>();

/** Remembers the form `program`'s output `text`, with `fractions` fractional numbers, wanted (a map write only when that changes). */
function sized(program: Program, text: string, fractions: number): void {
  const form: Form =
    text.length > LARGE_OUTPUT
      ? 2
      : fractions >= MANY_FRACTIONS && nativeExactTexts() !== undefined
        ? 1
        : 0;
  if (form === last.form || program !== last.program) return;
  last.form = form;
  if (form === 0) valueLast.delete(program);
  else valueLast.set(program, form);
}

/**
 * An output in the value form: the plain value built by the generated value
 * writer, then written with the call's exact texts by the package's own
 * writer when `large`, else by the native JSON.stringify with JSON.rawJSON
 * (the package's writer where the runtime lacks it). Its own
 * function, apart from writeCompiled, which stays small enough to be inlined
 * into its caller (with this code inside it, S measured about 3% slower).
 */
function writeValue(
  program: Program,
  valueWriter: GeneratedValueWriter,
  fields: Record<string, unknown>,
  msg: boolean,
  opts: CompiledCallOptions,
  large: boolean,
): string | undefined {
  // A large output through the package's own writer; else JSON.rawJSON where the runtime has it.
  const exact = (large ? undefined : nativeExactTexts()) ?? objectExactTexts();
  const call = new CompiledCall(program.units, opts, exact);
  const value = valueWriter(fields, msg, call, 1);
  if (value === undefined) return undefined;
  const text = exact.finish(value, "");
  writerPlans.written.generated++;
  compiledOutput.values++;
  sized(program, text, call.fractions);
  return text;
}

/** The generated writer of `program` unless tests force the interpreter or the runtime refuses code. */
function generatedFor(program: Program): GeneratedWriter | undefined {
  return writerPlans.compiled === "interpreted" ? undefined : generatedWriter(program);
}

let last: {
  readonly root: SchemaNode | undefined;
  readonly patterns: PatternEngine | undefined;
  readonly program: Program | undefined;
  /** The form the program's last output wanted (see valueLast). */
  form: Form;
} = { root: undefined, patterns: undefined, program: undefined, form: 0 };

let callCount = 0;

/**
 * One call of a compiled writer: its options, its total, and the objects its
 * program leaves to it.
 */
class CompiledCall implements ProgramOptions, ValueProgramOptions {
  readonly decimal: boolean;
  readonly listening: boolean;
  readonly depthLimit: number;
  fractions = 0;
  private readonly stamp = ++callCount;
  private reader: PlanReader | undefined = undefined;
  private silentOptions: StructToJsonOptions | undefined = undefined;
  constructor(
    /** The units charged so far (until a PlanReader takes over the count). */
    private spent: number,
    private readonly opts: CompiledCallOptions,
    /** Value mode: where exact number texts go; undefined in text mode. */
    private readonly sink: ExactTextSink | undefined,
  ) {
    this.decimal = opts.wholeFloats === "decimal";
    this.listening = opts.onDiagnostic !== ignoreDiagnostics;
    this.depthLimit = Math.min(opts.recursionLimit, MAX_COMPILED_DEPTH);
  }

  /** Runs `program` over `fields` (an object `depth` levels deep): `generated`, or interpreted. */
  run(
    program: Program,
    generated: GeneratedWriter | undefined,
    fields: Record<string, unknown>,
    msg: boolean,
    depth: number,
  ): string | undefined {
    return generated !== undefined
      ? generated(fields, msg, this, depth)
      : interpretProgram(program, fields, msg, this, depth);
  }

  walk(
    node: ProgramNode,
    value: Record<string, unknown> | readonly unknown[],
    msg: boolean,
    array: boolean,
    depth: number,
  ): string {
    const view = array ? undefined : this.viewOf(node, value as Record<string, unknown>, msg);
    if (view !== undefined) {
      const text = this.run(
        view.program,
        generatedFor(view.program),
        value as Record<string, unknown>,
        msg,
        depth,
      );
      if (typeof text === "string") {
        writerPlans.written.views++;
        return text;
      }
      throw GIVE_UP;
    }
    const w = this.walker(DIRECT_TEXT);
    this.walkWith(w, node, value, msg, depth);
    return w.text;
  }

  get exact(): ExactTextSink {
    return this.sink!;
  }

  walkValue(
    node: ProgramNode,
    value: Record<string, unknown> | readonly unknown[],
    msg: boolean,
    array: boolean,
    depth: number,
  ): unknown {
    const view = array ? undefined : this.viewOf(node, value as Record<string, unknown>, msg);
    // A view program without generated code: its objects are walked (its charge stays: a bound, not a count).
    const valueWriter = view === undefined ? undefined : generatedValueWriter(view.program);
    if (valueWriter !== undefined) {
      const out = valueWriter(value as Record<string, unknown>, msg, this, depth);
      if (out !== undefined) {
        writerPlans.written.views++;
        return out;
      }
      throw GIVE_UP;
    }
    const w = this.walker(this.exact);
    const out = this.walkWith(w, node, value, msg, depth);
    // Too deep for JSON.stringify: the whole call is walked, which writes such values itself.
    if (w.maxDepth > NATIVE_STRINGIFY_DEPTH) throw GIVE_UP;
    return out;
  }

  /**
   * The view program of an object at `node` whose members depend on its
   * content, charged as the engine charges its question; undefined when the
   * node has no views or the content's view gets no program (then walked).
   */
  private viewOf(
    node: ProgramNode,
    fields: Record<string, unknown>,
    msg: boolean,
  ): ViewProgram | undefined {
    if (node.views === undefined) return undefined;
    const content = viewContentOf(node.views, fields, msg, this.opts.patterns);
    const view = content.view;
    if (view === undefined) return undefined;
    if (content.question.notes && this.listening) throw GIVE_UP;
    // The engine charges a content's question in full once per call, and its keys each later time.
    this.charge(content.stamp === this.stamp ? node.views.keys.length : content.question.cost);
    content.stamp = this.stamp;
    if (view.stamp !== this.stamp) {
      this.charge(view.program.units);
      view.stamp = this.stamp;
    }
    return view;
  }

  /**
   * A writer for the one walk (../schema/walk.ts) of an object or array,
   * writing to `sink` (text, or a value), through the call's own PlanReader
   * (one budget): only while nobody listens, since its notes are not
   * reported here.
   */
  private walker(sink: ExactTextSink): Writer {
    if (this.listening) throw GIVE_UP;
    this.reader ??= new PlanReader(this.opts.patterns, this.spent);
    return new Writer(this.silent, sink, this.reader);
  }

  /**
   * Runs `w` over `value`: its output in value mode. Anything off the happy
   * path (an error at a path relative to this object, the budget) gives the
   * call back to the full walk.
   */
  private walkWith(
    w: Writer,
    node: ProgramNode,
    value: Record<string, unknown> | readonly unknown[],
    msg: boolean,
    depth: number,
  ): unknown {
    try {
      return w.run(value, msg, node.node, depth);
    } catch (e) {
      if (e === PLAN_OVER_BUDGET || e instanceof StructJsonError) throw GIVE_UP;
      throw e;
    }
  }

  /** The call's options with nobody listening, for the walks it makes itself. */
  private get silent(): StructToJsonOptions {
    this.silentOptions ??= { ...this.opts, onDiagnostic: ignoreDiagnostics };
    return this.silentOptions;
  }

  private charge(units: number): void {
    if (this.reader === undefined) {
      this.spent += units;
      if (this.spent > CALL_BUDGET) throw GIVE_UP;
      return;
    }
    try {
      this.reader.charge(units);
    } catch (e) {
      if (e === PLAN_OVER_BUDGET) throw GIVE_UP;
      throw e;
    }
  }
}
