// A writer compiled per schema: the plans of every node a schema can reach
// (./writer-plan.ts), resolved once into a program of small tables (readings
// as small integers, each member's child and pre-escaped key, each element's
// child), and written by a recursive writer that asks no schema engine at all.
// Where the runtime allows `new Function`, ./writer-code.ts generates the same
// writer as specialised code from the same program; elsewhere (a
// Content-Security-Policy without 'unsafe-eval', edge runtimes) this module's
// interpreter runs the program. Both are the one walk (../schema/walk.ts,
// with ./to-json.ts's Writer as its visitor) specialised to one schema from
// the same plans: they write exactly what it writes, or give up.
//
// They give up (return undefined, having had no effect) whenever anything
// beyond the happy path shows up, or the text outgrows LARGE_OUTPUT (large
// outputs are written by the native JSON.stringify, see ./to-json.ts), and the call is then walked by ./to-json.ts
// from the start: an object at a node whose members depend on the content
// (value-dependent unions, patterns), a diagnostic while someone listens, a
// non-finite or unset value, a malformed message, a nesting past the limit.
// So every error, diagnostic and path is the one the walk gives.
//
// Budget: a program is built by one PlanReader that asks every question the
// program can answer once, so its total is the most any call through the
// program can be charged. A schema whose total may pass CALL_BUDGET gets no
// program (its calls take the walk, which charges each call as the engine
// does); below it, no call can run out of budget, and every answer is the
// engine's (see ./writer-plan.ts).

import type { JsonObject } from "@bufbuild/protobuf";
import type { Value } from "@bufbuild/protobuf/wkt";
import type { DiagnosticCode } from "../diagnostics.js";
import type { PatternEngine } from "../patterns/engine.js";
import { type NumberReading, type SchemaNode, UNKNOWN_NODE } from "../schema/index.js";
import { jsonString } from "./exact-number-text.js";
import { LARGE_OUTPUT } from "./large-output.js";
import { numberOutput, numberText, plainNumberText } from "./number-output.js";
import { MessageProbe, PlainProbe } from "./object-probes.js";
import { type NodePlan, PLAN_OVER_BUDGET, PlanReader } from "./writer-plan.js";

/** Readings as small integers, in the program and in generated code. */
export const READINGS: readonly NumberReading[] = ["unknown", "integer", "number", "ambiguous"];

/** What a program knows of one schema node. */
export interface ProgramNode {
  /** Index in {@link Program.nodes}. */
  readonly id: number;
  /** The schema says nothing here: numbers are written as they are, and every child is this node again. */
  readonly unknown: boolean;
  /** Index into {@link READINGS} of a whole value's reading, and whether that answer has notes. */
  whole: number;
  wholeNotes: boolean;
  /** The same for a fractional value. */
  fraction: number;
  fractionNotes: boolean;
  /** Undefined: an object here is walked by the engine (its members depend on its content). */
  object: ObjectProgram | undefined;
  /** Undefined: an array here is walked by the engine. */
  array: ArrayProgram | undefined;
  /** The schema node, for the walk of an object or array the program leaves to it. */
  readonly node: SchemaNode;
}

/** An object's members at a node. */
export interface ObjectProgram {
  readonly notes: boolean;
  /** The keys `properties` names, each with its child and its key as JSON text with the colon. */
  readonly keys: readonly string[];
  readonly keyTexts: readonly string[];
  readonly children: readonly ProgramNode[];
  /** Key → index into `keys` (a Map: keys like `__proto__` are data). */
  readonly index: ReadonlyMap<string, number>;
  /** The child of every other key. */
  readonly rest: ProgramNode;
}

/** An array's elements at a node: element i's child is `elements[min(i, elements.length - 1)]`. */
export interface ArrayProgram {
  readonly notes: boolean;
  readonly elements: readonly ProgramNode[];
}

/** One schema's compiled writer: its nodes, the root first. */
export interface Program {
  readonly nodes: readonly ProgramNode[];
  /** Named members over all nodes (the size generated code would have). */
  readonly members: number;
  /** The most units a call through the program can be charged (every answer it holds, once). */
  readonly units: number;
}

/** Most nodes a program may have; a larger schema is walked (and read through plans) per call. */
export const MAX_PROGRAM_NODES = 4096;
/** Most named members and elements over a program's nodes. */
export const MAX_PROGRAM_MEMBERS = 16384;

/** Programs by pattern engine, then by root schema node; null: the schema gets none. */
const programsByEngine = new WeakMap<object, WeakMap<SchemaNode, Program | null>>();
const NO_ENGINE = {};

/** The program of the schema whose root is `root`, built on first use; undefined when the schema gets none. */
export function programOf(
  root: SchemaNode,
  patterns: PatternEngine | undefined,
): Program | undefined {
  const key = patterns ?? NO_ENGINE;
  let programs = programsByEngine.get(key);
  if (programs === undefined) {
    programs = new WeakMap();
    programsByEngine.set(key, programs);
  }
  let p = programs.get(root);
  if (p === undefined) {
    p = buildProgram(root, patterns) ?? null;
    programs.set(root, p);
  }
  return p ?? undefined;
}

/**
 * Resolves every plan reachable from `root` into a program, with one
 * PlanReader charged for every answer once (the most a call can be charged);
 * undefined when that may pass CALL_BUDGET or the program outgrows its bounds.
 */
function buildProgram(root: SchemaNode, patterns: PatternEngine | undefined): Program | undefined {
  const reader = new PlanReader(patterns);
  const nodes: ProgramNode[] = [];
  const byPlan = new Map<NodePlan, ProgramNode>();
  const pending: NodePlan[] = [];
  let members = 0;
  let unknown: ProgramNode | undefined;
  const unknownNode = (): ProgramNode => {
    if (unknown === undefined) {
      const n = emptyNode(nodes.length, UNKNOWN_NODE);
      n.object = {
        notes: false,
        keys: [],
        keyTexts: [],
        children: [],
        index: new Map(),
        rest: n,
      };
      n.array = { notes: false, elements: [n] };
      nodes.push(n);
      unknown = n;
    }
    return unknown;
  };
  const nodeOf = (plan: NodePlan): ProgramNode => {
    if (plan.isUnknown) return unknownNode();
    let n = byPlan.get(plan);
    if (n === undefined) {
      n = emptyNode(nodes.length, plan.node);
      nodes.push(n);
      byPlan.set(plan, n);
      pending.push(plan);
    }
    return n;
  };
  let noted = false;
  const note = () => {
    noted = true;
  };
  try {
    nodeOf(reader.root(root));
    for (let plan = pending.pop(); plan !== undefined; plan = pending.pop()) {
      if (nodes.length > MAX_PROGRAM_NODES || members > MAX_PROGRAM_MEMBERS) return undefined;
      const n = byPlan.get(plan)!;
      noted = false;
      n.whole = READINGS.indexOf(reader.numberReading(plan, 1, note));
      n.wholeNotes = noted;
      noted = false;
      n.fraction = READINGS.indexOf(reader.numberReading(plan, 0.5, note));
      n.fractionNotes = noted;
      noted = false;
      const object = reader.staticObject(plan, note);
      if (object !== undefined) {
        const objectNotes = noted;
        const keys = [...object.named];
        const children = keys.map((key) => {
          const child = nodeOf(reader.member(object.table, plan.node, NO_MEMBERS, key));
          return child;
        });
        members += keys.length;
        const rest = object.empty
          ? unknownNode()
          : nodeOf(reader.member(object.table, plan.node, NO_MEMBERS, unnamedKey(object.named)));
        n.object = {
          notes: objectNotes,
          keys,
          keyTexts: keys.map((key) => `${jsonString(key)}:`),
          children,
          index: new Map(keys.map((key, i) => [key, i])),
          rest,
        };
      }
      noted = false;
      const array = reader.staticArray(plan, note);
      if (array !== undefined) {
        const arrayNotes = noted;
        const elements: ProgramNode[] = [];
        if (array.empty) elements.push(unknownNode());
        else {
          for (let i = 0; i <= array.tail; i++) {
            elements.push(nodeOf(reader.element(array.answer, plan.node, i)));
          }
        }
        members += elements.length;
        n.array = { notes: arrayNotes, elements };
      }
    }
  } catch (e) {
    if (e === PLAN_OVER_BUDGET) return undefined;
    throw e;
  }
  if (nodes.length > MAX_PROGRAM_NODES || members > MAX_PROGRAM_MEMBERS) return undefined;
  return { nodes, members, units: reader.units };
}

/** A program node before its answers are filled in. */
function emptyNode(id: number, node: SchemaNode): ProgramNode {
  return {
    id,
    unknown: node.isUnknown,
    whole: 0,
    wholeNotes: false,
    fraction: 0,
    fractionNotes: false,
    object: undefined,
    array: undefined,
    node,
  };
}

/** A probe of no content: a static member table does not look at the object. */
const NO_MEMBERS = { has: () => false, primitive: () => undefined };

/** A key `named` does not hold, to ask for the child every such key shares. */
function unnamedKey(named: ReadonlySet<string>): string {
  let key = "";
  while (named.has(key)) key += "_";
  return key;
}

/** Thrown inside a compiled writer to give the call back to the walk. */
export const GIVE_UP: unique symbol = Symbol("give up");

/** Thrown inside a compiled writer whose text outgrew LARGE_OUTPUT: the call goes to the native writer. */
export const TOO_LARGE: unique symbol = Symbol("too large");

/** What a compiled writer needs of the call's options. */
export interface ProgramOptions {
  /** wholeFloats is "decimal". */
  readonly decimal: boolean;
  /** Someone listens to diagnostics: any diagnostic or note gives the call back. */
  readonly listening: boolean;
  /** recursionLimit, capped so that the writer's own recursion stays far from the runtime's stack. */
  readonly depthLimit: number;
  /**
   * Writes an object or array (`array`) at a node the program leaves to the
   * walk (its members depend on the content), `depth` levels deep, with the
   * call's one budget; throws GIVE_UP when the walk would not stand.
   */
  walk(
    node: SchemaNode,
    value: Record<string, unknown> | readonly unknown[],
    msg: boolean,
    array: boolean,
    depth: number,
  ): string;
}

/** Deepest nesting a compiled writer walks by recursion; deeper values take the walk (its own stack). */
export const MAX_COMPILED_DEPTH = 128;

/**
 * The slow path of a number at a node (`reading`, `notes`: the answer's):
 * what ./number-output.ts says it is written as; gives up on a non-finite
 * value, or on any code or note while someone listens.
 */
export function slowNumberText(
  v: number,
  reading: number,
  notes: boolean,
  decimal: boolean,
  listening: boolean,
): string {
  if (!Number.isFinite(v)) throw GIVE_UP;
  if (notes && listening) throw GIVE_UP;
  return numberText(v, numberOutput(v, READINGS[reading]!, decimal, listening ? giveUp : ignore));
}

function giveUp(_code: DiagnosticCode): never {
  throw GIVE_UP;
}

function ignore(_code: DiagnosticCode): void {}

/**
 * Runs `program` over a Struct's members (`msg`: the message form, members
 * are `Value`s): the JSON text; undefined when the call must be walked, null
 * when its text outgrew LARGE_OUTPUT (the walk would too: it goes native).
 */
export function interpretProgram(
  program: Program,
  fields: Record<string, unknown>,
  msg: boolean,
  options: ProgramOptions,
): string | undefined | null {
  try {
    return new Interpreter(options, msg).object(program.nodes[0]!, fields, 1);
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    if (e === TOO_LARGE) return null;
    throw e;
  }
}

/**
 * A recursive writer that gives up on anything off the happy path: the value
 * forms (JsonObject / message) unwrapped once for both node sources below.
 */
abstract class ValueWriter<N> {
  constructor(
    protected readonly options: ProgramOptions,
    protected readonly msg: boolean,
  ) {}

  abstract number(n: N, v: number): string;
  abstract object(n: N, fields: Record<string, unknown>, depth: number): string;
  abstract array(n: N, items: readonly unknown[], depth: number): string;

  value(n: N, v: unknown, depth: number): string {
    if (this.msg) {
      const kind = (v as { kind?: { case?: unknown; value?: unknown } } | undefined)?.kind;
      const x = kind?.value;
      switch (kind?.case) {
        case "numberValue":
          if (typeof x === "number") return this.number(n, x);
          break;
        case "stringValue":
          if (typeof x === "string") return jsonString(x);
          break;
        case "boolValue":
          if (typeof x === "boolean") return x ? "true" : "false";
          break;
        case "nullValue":
          return "null";
        case "structValue": {
          const fields = (x as { fields?: unknown } | undefined)?.fields;
          if (typeof fields === "object" && fields !== null && !Array.isArray(fields)) {
            return this.object(n, fields as Record<string, unknown>, depth + 1);
          }
          break;
        }
        case "listValue": {
          const values = (x as { values?: unknown } | undefined)?.values;
          if (Array.isArray(values)) return this.array(n, values, depth + 1);
          break;
        }
      }
      throw GIVE_UP;
    }
    switch (typeof v) {
      case "number":
        return this.number(n, v);
      case "string":
        return jsonString(v);
      case "boolean":
        return v ? "true" : "false";
      case "object":
        if (v === null) return "null";
        return Array.isArray(v)
          ? this.array(n, v, depth + 1)
          : this.object(n, v as Record<string, unknown>, depth + 1);
    }
    throw GIVE_UP;
  }
}

/** The program interpreted (runtimes that refuse generated code). */
class Interpreter extends ValueWriter<ProgramNode> {
  /** An object or array the program leaves to the walk (only while nobody listens: its notes would need paths). */
  private walk(
    n: ProgramNode,
    value: Record<string, unknown> | readonly unknown[],
    array: boolean,
    depth: number,
  ): string {
    if (this.options.listening) throw GIVE_UP;
    return this.options.walk(n.node, value, this.msg, array, depth);
  }

  number(n: ProgramNode, v: number): string {
    const o = this.options;
    if (n.unknown) {
      if (v - v !== 0) throw GIVE_UP; // NaN, ±Infinity
      return plainNumberText(v);
    }
    return Number.isInteger(v)
      ? slowNumberText(v, n.whole, n.wholeNotes, o.decimal, o.listening)
      : slowNumberText(v, n.fraction, n.fractionNotes, o.decimal, o.listening);
  }

  object(n: ProgramNode, fields: Record<string, unknown>, depth: number): string {
    const p = n.object;
    if (p === undefined) return this.walk(n, fields, false, depth);
    if (depth > this.options.depthLimit) throw GIVE_UP;
    if (p.notes && this.options.listening) throw GIVE_UP;
    const keys = Object.keys(fields);
    let text = "{";
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const at = p.index.get(key);
      if (i > 0) text += ",";
      text +=
        at === undefined
          ? `${jsonString(key)}:${this.value(p.rest, fields[key], depth)}`
          : p.keyTexts[at]! + this.value(p.children[at]!, fields[key], depth);
      if (text.length > LARGE_OUTPUT) throw TOO_LARGE;
    }
    return `${text}}`;
  }

  array(n: ProgramNode, items: readonly unknown[], depth: number): string {
    const p = n.array;
    if (p === undefined) return this.walk(n, items, true, depth);
    if (depth > this.options.depthLimit) throw GIVE_UP;
    if (p.notes && this.options.listening) throw GIVE_UP;
    const last = p.elements.length - 1;
    let text = "[";
    for (let i = 0; i < items.length; i++) {
      if (i > 0) text += ",";
      text += this.value(p.elements[Math.min(i, last)]!, items[i], depth);
      if (text.length > LARGE_OUTPUT) throw TOO_LARGE;
    }
    return `${text}]`;
  }
}

/**
 * The walk of an object or array a program leaves to the call (its members
 * depend on the content), while nobody listens: every question asked of the
 * call's PlanReader, which charges it as the walk of ./to-json.ts would; its
 * PLAN_OVER_BUDGET, like anything off the happy path, gives the call back.
 */
export function walkWithReader(
  reader: PlanReader,
  options: ProgramOptions,
  node: SchemaNode,
  value: Record<string, unknown> | readonly unknown[],
  msg: boolean,
  array: boolean,
  depth: number,
): string {
  try {
    const w = new ReaderWalk(options, msg, reader);
    const plan = reader.root(node);
    return array
      ? w.array(plan, value as readonly unknown[], depth)
      : w.object(plan, value as Record<string, unknown>, depth);
  } catch (e) {
    if (e === PLAN_OVER_BUDGET) throw GIVE_UP;
    throw e;
  }
}

function noNote(): void {}

class ReaderWalk extends ValueWriter<SchemaNode> {
  constructor(
    options: ProgramOptions,
    msg: boolean,
    private readonly reader: PlanReader,
  ) {
    super(options, msg);
  }

  number(n: SchemaNode, v: number): string {
    if (v - v !== 0) throw GIVE_UP; // NaN, ±Infinity
    if (n.isUnknown) return plainNumberText(v);
    const reading = this.reader.numberReading(n, v, noNote);
    return numberText(v, numberOutput(v, reading, this.options.decimal, ignore));
  }

  object(n: SchemaNode, fields: Record<string, unknown>, depth: number): string {
    if (depth > this.options.depthLimit) throw GIVE_UP;
    const scope = n.isUnknown
      ? undefined
      : this.reader.objectScope(
          n,
          this.msg
            ? new MessageProbe(fields as Record<string, Value>)
            : new PlainProbe(fields as JsonObject),
          noNote,
        );
    const keys = Object.keys(fields);
    let text = "{";
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (i > 0) text += ",";
      const child = scope === undefined ? n : scope.child(key);
      text +=
        (this.reader.takeKeyText() ?? `${jsonString(key)}:`) +
        this.value(child, fields[key], depth);
    }
    return `${text}}`;
  }

  array(n: SchemaNode, items: readonly unknown[], depth: number): string {
    if (depth > this.options.depthLimit) throw GIVE_UP;
    const scope = n.isUnknown ? undefined : this.reader.arrayScope(n, items.length, noNote);
    let text = "[";
    for (let i = 0; i < items.length; i++) {
      if (i > 0) text += ",";
      text += this.value(scope === undefined ? n : scope.child(i), items[i], depth);
    }
    return `${text}]`;
  }
}
