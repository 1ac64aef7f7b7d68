// Struct → JSON text, guided by the tool's JSON Schema.
//
// Speed: a call is first offered to the schema's compiled writer
// (./writer-program.ts: the schema's plans resolved into a program, run as
// generated code where the runtime allows it, see ./writer-code.ts, and
// interpreted elsewhere). It writes the happy path and gives up, with no
// effect, on anything else; the call is then walked here, which is the
// definition of the output: every diagnostic with its path, every error.
// The walk is the one walk of ../schema/walk.ts (both forms of a Struct,
// the schema read through plans or a SchemaReader), with the Writer of
// ./walk-writer.ts as its visitor.
// The walk writes small outputs as text as it goes; large (and indented) ones
// build a plain JS value that the package's own writer turns into text
// (./json-text-writer.ts: UTF-8 bytes decoded once, any depth), with the
// numbers whose text JSON.stringify cannot produce (`1.0`, exact digits above
// 2^53) as texts of their own. What a number is written as, and which codes
// it reports, is defined once (./number-output.ts).
// inspectNumbers lives in ./inspect-numbers.ts, the options in
// ./to-json-options.ts; both are re-exported here.
//
// The two forms of a Struct are told apart by the caller, never by content
// (a model writes the content): structToJson reads the JsonObject form that
// generated code holds in Struct fields; structMessageToJson reads a Struct
// message. Arguments with members named `$typeName` or `fields` are data.

import type { JsonObject } from "@bufbuild/protobuf";
import type { Struct } from "@bufbuild/protobuf/wkt";
import { StructJsonError } from "../errors.js";
import { rootNode, type SchemaNode } from "../schema/index.js";
import { objectExactTexts, writeJsonText } from "./json-text-writer.js";
import { isDataObject } from "./object-data.js";
import {
  checkJsonObject,
  indentString,
  resolveOptions,
  type SchemaArg,
  type StructToJsonOptions,
} from "./to-json-options.js";
import { DIRECT_TEXT, OUTPUT_LARGE, Writer } from "./walk-writer.js";
import { writeCompiled as writeProgram } from "./writer-call.js";
import { PLAN_OVER_BUDGET, writerPlans } from "./writer-plan.js";

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
      "expected a google.protobuf.Struct message (a JsonObject goes to structToJson)",
    );
  }
  return writeStruct(struct.fields, true, inputSchema, options);
}

/** True for a protobuf-es `google.protobuf.Struct` message; only for callers that declared that form. */
function isStructMessage(x: unknown): x is Struct {
  // Fields that are an object: `x` is an object (primitives have none).
  const fields = (x as { fields?: unknown } | null)?.fields;
  return (
    isDataObject(fields) && (x as { $typeName?: unknown }).$typeName === "google.protobuf.Struct"
  );
}

function writeStruct(
  fields: Record<string, unknown>,
  msg: boolean,
  inputSchema: SchemaArg,
  options: Partial<StructToJsonOptions> | undefined,
): string {
  const opts = options === undefined ? defaultOptions() : resolveOptions(options);
  const root = rootNode(inputSchema);
  const compact = indentString(opts.indent) === "";
  // The schema's compiled writer (./writer-call.ts), when the output is compact.
  if (compact && !opts.canonical && writerPlans.enabled && writerPlans.compiled !== "off") {
    const compiled = writeProgram(root, fields, msg, opts);
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
  // alone, and a text walk that outgrows LARGE_OUTPUT is redone as a value.
  let plans = !root.isUnknown && writerPlans.enabled;
  if (compact) {
    // Small outputs are written as text during the walk: no value is built.
    // Large ones are written from a value (below), as bytes decoded once,
    // faster than a long string concatenation and its flattening (measured).
    for (;;) {
      const w = new Writer(opts, DIRECT_TEXT, plans, true);
      const outcome = attempt(w, fields, msg, root);
      if (outcome === DONE) return w.text;
      if (outcome === OUTPUT_LARGE) break;
      plans = false;
    }
  }
  // Large or indented outputs: a value, written by the package's own writer
  // (./json-text-writer.ts), which takes any depth and any number text.
  let out: unknown;
  for (;;) {
    out = attempt(new Writer(opts, objectExactTexts(), plans, true), fields, msg, root);
    if (out !== PLAN_OVER_BUDGET) break;
    plans = false;
  }
  return writeJsonText(out, indentString(opts.indent), false);
}

let resolvedDefaults: StructToJsonOptions | undefined;

/** The options of a call that passed none (resolved once: a call's options are never changed). */
function defaultOptions(): StructToJsonOptions {
  resolvedDefaults ??= resolveOptions(undefined);
  return resolvedDefaults;
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
