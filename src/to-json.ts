// Struct → JSON text, guided by the tool's JSON Schema.
//
// Speed: the walk builds a plain JS value and hands the text work to the
// native JSON.stringify, like protobuf-es's own toJsonString. Numbers whose
// text JSON.stringify cannot produce (`1.0`, exact digits above 2^53) are
// carried as JSON.rawJSON where the runtime has it, and elsewhere as marker
// strings that are swapped for their text afterwards (see raw-number-text.ts).

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { ListValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { type DiagnosticCode, type DiagnosticHandler, ignoreDiagnostics } from "./diagnostics.js";
import { rethrowStackOverflow, StructJsonError } from "./errors.js";
import type { JsonPointer } from "./json-pointer.js";
import { pointerFrom } from "./json-pointer.js";
import type { JsonSchema } from "./json-schema.js";
import { MessageProbe, PlainProbe } from "./object-probes.js";
import type { PatternEngine } from "./patterns/engine.js";
import {
  type RawTextSink,
  rawTextMarkers,
  rawTextNative,
  rawTextObjects,
  writeJsonText,
} from "./raw-number-text.js";
import {
  type CompiledSchema,
  type NumberReading,
  rootNode,
  type SchemaNode,
  SchemaReader,
} from "./schema/index.js";

/** Options of {@link structToJson}; pass a `Partial` of it, the rest comes from {@link structToJsonDefaults}. */
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
   * level 1; deeper throws `recursion-limit`. Default 100.
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

/** The frozen defaults of {@link StructToJsonOptions}. */
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
 * Writes a `google.protobuf.Struct` message as JSON text, giving every number
 * the type `inputSchema` declares at its position (see README, "Number readings").
 * The JsonObject form protobuf-es uses for Struct *fields* is accepted when it
 * has no `$typeName` member; {@link jsonObjectToJson} takes any JsonObject.
 */
export function structToJson(
  struct: Struct | JsonObject,
  inputSchema?: SchemaArg,
  options?: Partial<StructToJsonOptions>,
): string {
  if (isStructMessage(struct)) return writeStruct(struct, true, inputSchema, options);
  // The JsonObject form (what protobuf-es keeps in Struct fields) is accepted
  // too, as long as it cannot be mistaken for a message.
  if (
    typeof struct === "object" &&
    struct !== null &&
    !Array.isArray(struct) &&
    !Object.hasOwn(struct, "$typeName")
  ) {
    return writeStruct(struct as JsonObject, false, inputSchema, options);
  }
  throw new StructJsonError(
    "message-invalid",
    "",
    "expected a google.protobuf.Struct message or its JsonObject form; for CallMCPTool.args use toolCallArgumentsJson or jsonObjectToJson, which never guess",
  );
}

/**
 * Writes the JsonObject form of a Struct (how protobuf-es represents Struct
 * fields such as `CallMCPTool.args`) as JSON text, like {@link structToJson}.
 */
export function jsonObjectToJson(
  object: JsonObject,
  inputSchema?: SchemaArg,
  options?: Partial<StructToJsonOptions>,
): string {
  if (typeof object !== "object" || object === null || Array.isArray(object)) {
    throw new StructJsonError("not-an-object", "", "the arguments must be a JSON object");
  }
  return writeStruct(object, false, inputSchema, options);
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

/** Lists every number of a Struct (message or JsonObject form) with its reading and output text. */
export function inspectNumbers(
  struct: Struct | JsonObject,
  inputSchema?: SchemaArg,
  options?: Partial<StructToJsonOptions>,
): NumberInspection[] {
  const found: NumberInspection[] = [];
  const opts = resolveOptions(options);
  const w = new Writer(opts, rawTextObjects());
  w.onNumber = (path, value, reading, text, codes) =>
    found.push({ path, value, reading, text, codes });
  const msg = isStructMessage(struct);
  w.run(msg ? (struct as Struct).fields : (struct as JsonObject), msg, rootNode(inputSchema));
  return found;
}

/** True for a protobuf-es `google.protobuf.Struct` message (as opposed to its JsonObject form). */
export function isStructMessage(x: unknown): x is Struct {
  return (
    typeof x === "object" &&
    x !== null &&
    (x as { $typeName?: unknown }).$typeName === "google.protobuf.Struct" &&
    typeof (x as { fields?: unknown }).fields === "object" &&
    (x as { fields?: unknown }).fields !== null
  );
}

function writeStruct(
  struct: Struct | JsonObject,
  msg: boolean,
  inputSchema: SchemaArg,
  options: Partial<StructToJsonOptions> | undefined,
): string {
  const opts = resolveOptions(options);
  const root = rootNode(inputSchema);
  const fields: Record<string, unknown> = msg ? (struct as Struct).fields : (struct as JsonObject);
  if (opts.canonical) {
    // Canonical text is built by our own writer: JS objects would put integer-like keys first.
    const w = new Writer(opts, undefined);
    return writeJsonText(w.run(fields, msg, root), "", true);
  }
  const sink = rawTextNative() ?? rawTextMarkers();
  const out = new Writer(opts, sink).run(fields, msg, root);
  const text = sink.finish(out, opts.indent);
  if (text !== undefined) return text;
  // A string in the arguments looked like one of our markers: redo the walk
  // with raw-text objects and our own writer, which needs no markers.
  const w = new Writer({ ...opts, onDiagnostic: ignoreDiagnostics }, rawTextObjects());
  return writeJsonText(w.run(fields, msg, root), indentString(opts.indent), false);
}

function resolveOptions(options: Partial<StructToJsonOptions> | undefined): StructToJsonOptions {
  const o: StructToJsonOptions = { ...structToJsonDefaults };
  if (options) {
    for (const k of Object.keys(options) as (keyof StructToJsonOptions)[]) {
      if (options[k] !== undefined) (o as unknown as Record<string, unknown>)[k] = options[k];
    }
  }
  const bad = (name: string, rule: string): never => {
    throw new StructJsonError("option-invalid", "", `option ${name} ${rule}`);
  };
  if (o.wholeFloats !== "decimal" && o.wholeFloats !== "integer")
    bad("wholeFloats", 'must be "decimal" or "integer"');
  if (o.nonFinite !== "error" && o.nonFinite !== "null")
    bad("nonFinite", 'must be "error" or "null"');
  if (o.unsetValue !== "error" && o.unsetValue !== "null")
    bad("unsetValue", 'must be "error" or "null"');
  if (!Number.isSafeInteger(o.recursionLimit) || o.recursionLimit < 1)
    bad("recursionLimit", "must be a positive integer");
  if (
    typeof o.indent === "number" ? !(o.indent >= 0 && o.indent <= 10) : typeof o.indent !== "string"
  )
    bad("indent", "must be a number of spaces from 0 to 10 or a string");
  if (typeof o.onDiagnostic !== "function") bad("onDiagnostic", "must be a function");
  if (
    o.patterns !== undefined &&
    typeof (o.patterns as Partial<PatternEngine> | null)?.compile !== "function"
  )
    bad("patterns", "must be a pattern engine (an object with a compile method)");
  if (o.canonical && indentString(o.indent) !== "")
    bad("canonical", "cannot be combined with indent (canonical text has no whitespace)");
  return o;
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

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** One walk of one Struct: builds the output value and reports diagnostics. */
class Writer {
  /** Keys and indices from the root to the current position, for diagnostics' paths. */
  private readonly tokens: (string | number)[] = [];
  private readonly decimal: boolean;
  private readonly note: (code: DiagnosticCode) => void;
  /** The schema reader of this walk: one budget for the whole call. */
  private readonly schema: SchemaReader;
  onNumber: NumberHook | undefined;
  private codesHere: DiagnosticCode[] | undefined;

  constructor(
    private readonly opts: StructToJsonOptions,
    /** Where texts JSON.stringify cannot write go; undefined for ECMAScript number form (canonical). */
    private readonly raw: RawTextSink | undefined,
  ) {
    this.decimal = opts.wholeFloats === "decimal";
    this.note = (code) => this.report(code);
    this.schema = new SchemaReader({ patterns: opts.patterns });
  }

  run(fields: Record<string, unknown>, msg: boolean, root: SchemaNode): unknown {
    try {
      return this.object(fields, msg, root, 1);
    } catch (e) {
      return rethrowStackOverflow(e, this.path());
    }
  }

  private path(): JsonPointer {
    return pointerFrom(this.tokens);
  }

  private report(code: DiagnosticCode): void {
    this.codesHere?.push(code);
    // Building the pointer costs more than the rest of a number's work: skip it when nobody listens.
    if (this.opts.onDiagnostic !== ignoreDiagnostics)
      this.opts.onDiagnostic({ code, path: this.path() });
  }

  private fail(code: "non-finite-number" | "value-unset" | "recursion-limit", rule: string): never {
    throw new StructJsonError(code, this.path(), rule);
  }

  private value(v: unknown, msg: boolean, node: SchemaNode, depth: number): unknown {
    if (msg) {
      const kind = (v as Value | undefined)?.kind;
      switch (kind?.case) {
        case "numberValue":
          return this.number(kind.value, node);
        case "stringValue":
        case "boolValue":
          return kind.value;
        case "nullValue":
          return null;
        case "structValue":
          return this.object(kind.value.fields, true, node, depth + 1);
        case "listValue":
          return this.array((kind.value as ListValue).values, true, node, depth + 1);
        default:
          if (this.opts.unsetValue === "null") {
            this.report("value-unset");
            return null;
          }
          return this.fail("value-unset", "a google.protobuf.Value has no kind set");
      }
    }
    switch (typeof v) {
      case "number":
        return this.number(v, node);
      case "string":
      case "boolean":
        return v;
      case "object":
        if (v === null) return null;
        if (Array.isArray(v)) return this.array(v as JsonValue[], false, node, depth + 1);
        return this.object(v as JsonObject, false, node, depth + 1);
      default:
        if (this.opts.unsetValue === "null") {
          this.report("value-unset");
          return null;
        }
        return this.fail(
          "value-unset",
          "a value is neither null, boolean, number, string, list nor struct",
        );
    }
  }

  private object(
    fields: Record<string, unknown>,
    msg: boolean,
    node: SchemaNode,
    depth: number,
  ): Record<string, unknown> {
    if (depth > this.opts.recursionLimit) {
      this.fail(
        "recursion-limit",
        `nesting deeper than recursionLimit ${this.opts.recursionLimit}`,
      );
    }
    const out: Record<string, unknown> = {};
    const keys = Object.keys(fields);
    const tokens = this.tokens;
    if (node.isUnknown) {
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        tokens.push(k);
        setMember(out, k, this.value(fields[k], msg, node, depth));
        tokens.pop();
      }
      return out;
    }
    const probe = msg
      ? new MessageProbe(fields as Record<string, Value>)
      : new PlainProbe(fields as JsonObject);
    const scope = this.schema.objectScope(node, probe, this.note);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      tokens.push(k);
      setMember(out, k, this.value(fields[k], msg, scope.child(k), depth));
      tokens.pop();
    }
    return out;
  }

  private array(
    items: readonly unknown[],
    msg: boolean,
    node: SchemaNode,
    depth: number,
  ): unknown[] {
    if (depth > this.opts.recursionLimit) {
      this.fail(
        "recursion-limit",
        `nesting deeper than recursionLimit ${this.opts.recursionLimit}`,
      );
    }
    const n = items.length;
    const out = new Array<unknown>(n);
    // Before the index is pushed: the scope's notes are about the array itself.
    const scope = node.isUnknown ? undefined : this.schema.arrayScope(node, n, this.note);
    const tokens = this.tokens;
    tokens.push(0);
    const last = tokens.length - 1;
    if (scope === undefined) {
      for (let i = 0; i < n; i++) {
        tokens[last] = i;
        out[i] = this.value(items[i], msg, node, depth);
      }
    } else {
      for (let i = 0; i < n; i++) {
        tokens[last] = i;
        out[i] = this.value(items[i], msg, scope.child(i), depth);
      }
    }
    tokens.pop();
    return out;
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
    const raw = this.raw;
    switch (reading) {
      case "integer":
        if (!Number.isInteger(v)) {
          this.report("not-an-integer");
          return v;
        }
        if (v > MAX_SAFE || v < -MAX_SAFE) {
          this.report("integer-precision-lost");
          return raw === undefined ? v : exactInteger(v, raw);
        }
        return v;
      case "number":
        if (this.decimal && raw !== undefined && Number.isInteger(v) && v < 1e21 && v > -1e21) {
          return raw.text(Object.is(v, -0) ? "-0.0" : `${v}.0`);
        }
        return v;
      case "ambiguous":
        if (!Number.isInteger(v)) return v;
        this.report("ambiguous-number");
        if (v > MAX_SAFE || v < -MAX_SAFE) {
          this.report("integer-precision-lost");
          return raw === undefined ? v : exactInteger(v, raw);
        }
        return v;
      default:
        return v;
    }
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
function exactInteger(v: number, raw: RawTextSink): unknown {
  if (v < 1e21 && v > -1e21) {
    const js = String(v);
    if (js.charCodeAt(js.length - 1) !== 48) return v;
    const digits = BigInt(v).toString();
    return digits === js ? v : raw.text(digits);
  }
  return raw.text(BigInt(v).toString());
}

/** Sets an own member, also for "__proto__" (an ordinary key here, never the prototype). */
function setMember(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    out[key] = value;
  }
}
