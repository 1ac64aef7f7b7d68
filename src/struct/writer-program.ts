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
// beyond the happy path shows up, and the call is then walked by ./to-json.ts
// from the start: an object at a node whose members depend on the content in
// a way no view program covers (patterns with keys of their own, a node past
// MAX_PLAN_VIEWS selections), a diagnostic while someone listens, a
// non-finite or unset value, a malformed message, a nesting past the limit.
// So every error, diagnostic and path is the one the walk gives. Objects of
// value-dependent unions are written by a program per view (see
// ./writer-call.ts). The interpreter writes text at any size; generated
// code writes a schema's large outputs as a plain value for the native
// JSON.stringify instead (./writer-code-value.ts, chosen in ./writer-call.ts).
//
// Budget: a program is built by one PlanReader that asks every question the
// program can answer once, so its total is the most any call through the
// program can be charged. A schema whose total may pass CALL_BUDGET gets no
// program (its calls take the walk, which charges each call as the engine
// does); below it, no call can run out of budget, and every answer is the
// engine's (see ./writer-plan.ts).

import type { DiagnosticCode } from "../diagnostics.js";
import { entry, newWeakMap } from "../map-entry.js";
import type { PatternEngine } from "../patterns/engine.js";
import {
  type NumberReading,
  type ObjectProbe,
  type SchemaNode,
  UNKNOWN_NODE,
} from "../schema/index.js";
import { type ProbeKeys, probeSignature } from "../schema/object-info.js";
import { PRIMITIVE_KINDS } from "../schema/walk.js";
import { jsonString } from "./exact-number-text.js";
import { numberOutput, numberText, plainNumberText } from "./number-output.js";
import { isObjectData } from "./object-data.js";
import { MemberProbe, memberPrimitive } from "./object-probes.js";
import {
  MAX_PLAN_VIEWS,
  NO_MEMBERS,
  type NodePlan,
  PLAN_OVER_BUDGET,
  PlanReader,
  type ViewQuestion,
  viewQuestion,
} from "./writer-plan.js";

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
  /** Undefined: an object here is written by a view program (see `views`) or walked. */
  object: ObjectProgram | undefined;
  /** Set when an object's members here depend on its content (a value-dependent union): a program per view. */
  views: ViewPrograms | undefined;
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

/**
 * What a program knows of an object node whose members depend on the
 * content (a value-dependent union), made on first use: per content the
 * branch predicates see, what its first object costs a call and the program
 * of the branches it selects (one per selection, at most MAX_PLAN_VIEWS).
 */
export interface ViewPrograms extends ProbeKeys {
  readonly plan: NodePlan;
  /** By probe signature; emptied when it reaches MAX_VIEW_CONTENTS (its entries are remade on demand). */
  readonly contents: Map<string, ViewContent>;
  /** The content met last (objects in a row often look alike): checked before the signature is made. */
  last: ViewContent | undefined;
  /** By selection; null: that selection gets no program (its objects are walked). */
  readonly programs: Map<string, ViewProgram | null>;
}

/** One content at a value-dependent node: its question, and the program of the branches it selects. */
export interface ViewContent {
  /** What the probe gave for each of the keys ({@link ABSENT}: no such member). */
  readonly values: readonly unknown[];
  readonly question: ViewQuestion;
  /** Undefined: objects with this content are walked. */
  readonly view: ViewProgram | undefined;
  /** The last call that was charged for the question. */
  stamp: number;
}

/**
 * A program whose root is one view of an object node (only the root's object
 * is written); its total leaves out the view question, charged per content.
 */
export interface ViewProgram {
  readonly program: Program;
  /** The last call that was charged for it. */
  stamp: number;
}

/**
 * The views of a plan, one object for every program that reaches the plan
 * (a schema's program and its view programs alike), so that a view program
 * is built once per selection however deep objects of one schema nest.
 */
const viewsByPlan = new WeakMap<NodePlan, ViewPrograms>();

function viewProgramsOf(plan: NodePlan, keys: ProbeKeys): ViewPrograms {
  return entry(viewsByPlan, plan, () => ({
    keys: keys.keys,
    valued: keys.valued,
    plan,
    contents: new Map(),
    last: undefined,
    programs: new Map(),
  }));
}

/** Most contents remembered per value-dependent node (each a few words; remade on demand). */
export const MAX_VIEW_CONTENTS = 1024;

/** One schema's compiled writer: its nodes, the root first. */
export interface Program {
  readonly nodes: readonly ProgramNode[];
  /** Named members over all nodes (the size generated code would have). */
  readonly members: number;
  /** The most units a call through the program can be charged (every answer it holds, once). */
  readonly units: number;
  /** The program's generated writer once ./writer-code.ts has made it; null: none (interpreted). */
  code: unknown;
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
  const programs = entry(programsByEngine, patterns ?? NO_ENGINE, newWeakMap);
  return entry(programs, root, () => buildProgram(root, patterns, undefined) ?? null) ?? undefined;
}

/**
 * What `views` knows of an object (`fields`; `msg`: a Struct message's) at
 * its node: its question and the program of the branches it selects, built on
 * first use.
 */
export function viewContentOf(
  views: ViewPrograms,
  fields: Record<string, unknown>,
  msg: boolean,
  patterns: PatternEngine | undefined,
): ViewContent {
  // Objects in a row (and the levels of a recursive tree) often look alike:
  // the last content is checked on the fields themselves, no probe made.
  const last = views.last;
  return last !== undefined && sameContent(last.values, views, fields, msg)
    ? last
    : otherContent(views, fields, msg, patterns);
}

/** {@link viewContentOf} for a content other than the last one. */
function otherContent(
  views: ViewPrograms,
  fields: Record<string, unknown>,
  msg: boolean,
  patterns: PatternEngine | undefined,
): ViewContent {
  const probe = new MemberProbe(fields, msg);
  const signature = probeSignature(views, probe);
  let c = views.contents.get(signature);
  if (c === undefined) {
    const question = viewQuestion(views.plan, probe, signature, patterns);
    let p = views.programs.get(question.selection);
    if (p === undefined && views.programs.size < MAX_PLAN_VIEWS) {
      const program = buildProgram(views.plan.node, patterns, probe);
      p = program === undefined ? null : { program, stamp: 0 };
      views.programs.set(question.selection, p);
    }
    c = {
      values: views.keys.map((k, i) => memberContent(fields, k, views.valued[i]!, msg)),
      question,
      view: p ?? undefined,
      stamp: 0,
    };
    if (views.contents.size >= MAX_VIEW_CONTENTS) views.contents.clear();
    views.contents.set(signature, c);
  }
  views.last = c;
  return c;
}

/** What a content holds for a member absent from the object. */
const ABSENT: unique symbol = Symbol("absent");
/** What a content holds for a member present whose value no predicate reads. */
const PRESENT: unique symbol = Symbol("present");

/**
 * What a content holds for member `key` of `fields`, as a probe of them would
 * give it: its primitive (`valued`; undefined for a container), PRESENT, or
 * ABSENT.
 */
function memberContent(
  fields: Record<string, unknown>,
  key: string,
  valued: boolean,
  msg: boolean,
): unknown {
  return !Object.hasOwn(fields, key)
    ? ABSENT
    : valued
      ? memberPrimitive(fields[key], msg)
      : PRESENT;
}

/**
 * Whether `fields` hold the content `values` for the keys of `on`: then their
 * probe signature is that of the content `values` came from (equal primitives
 * write equal signatures).
 */
function sameContent(
  values: readonly unknown[],
  on: ProbeKeys,
  fields: Record<string, unknown>,
  msg: boolean,
): boolean {
  const { keys, valued } = on;
  for (let i = 0; i < keys.length; i++) {
    if (memberContent(fields, keys[i]!, valued[i]!, msg) !== values[i]) return false;
  }
  return true;
}

/**
 * Resolves every plan reachable from `root` into a program, with one
 * PlanReader charged for every answer once (the most a call can be charged);
 * undefined when that may pass CALL_BUDGET or the program outgrows its bounds.
 * With `view` (the content of an object at `root` whose members depend on
 * it), the root holds only that view's members, and the total counts the
 * view's first-time cost too (the most a call's first object of that view,
 * and everything below it, can be charged).
 */
function buildProgram(
  root: SchemaNode,
  patterns: PatternEngine | undefined,
  view: ObjectProbe | undefined,
): Program | undefined {
  const reader = new PlanReader(patterns);
  const nodes: ProgramNode[] = [];
  const byPlan = new Map<NodePlan, ProgramNode>();
  const pending: (readonly [NodePlan, ProgramNode])[] = [];
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
      pending.push([plan, n]);
    }
    return n;
  };
  let noted = false;
  let questionUnits = 0;
  const note = () => {
    noted = true;
  };
  try {
    const rootPlan = reader.root(root);
    if (view !== undefined && rootPlan.isUnknown) return undefined;
    // A view program's root is that view alone, a node of its own. A member
    // whose schema is the root's own node (a `$ref` to it, a schema object
    // that contains itself) gets the plain node, whose objects choose their
    // view by their own content (given the root's view, a nested object was
    // written, and its numbers read, as its parent's content decided).
    let viewNode: ProgramNode | undefined;
    if (view === undefined) nodeOf(rootPlan);
    else {
      viewNode = emptyNode(0, rootPlan.node);
      nodes.push(viewNode);
      pending.push([rootPlan, viewNode]);
    }
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (nodes.length > MAX_PROGRAM_NODES || members > MAX_PROGRAM_MEMBERS) return undefined;
      const [plan, n] = next;
      const viewRoot = view !== undefined && n === viewNode;
      noted = false;
      const before = reader.units;
      const object = viewRoot
        ? reader.viewObject(plan, view, note)
        : reader.staticObject(plan, note);
      // A view program's total leaves out the view question (charged per content).
      if (viewRoot) questionUnits = reader.units - before;
      if (object !== undefined) {
        const objectNotes = noted;
        // A view's members are asked with the object's content, so that the same view is kept.
        const probe = viewRoot ? view : NO_MEMBERS;
        const keys = [...object.named];
        const children = keys.map((key) =>
          nodeOf(reader.member(object.table, plan.node, probe, key)),
        );
        members += keys.length;
        const rest = object.empty
          ? unknownNode()
          : nodeOf(reader.member(object.table, plan.node, probe, unnamedKey(object.named)));
        n.object = {
          notes: objectNotes,
          keys,
          keyTexts: keys.map((key) => `${jsonString(key)}:`),
          children,
          index: new Map(keys.map((key, i) => [key, i])),
          rest,
        };
      } else if (viewRoot) {
        return undefined;
      } else {
        const keys = reader.viewKeys(plan);
        if (keys !== undefined) n.views = viewProgramsOf(plan, keys);
      }
      // A view program's root only writes that view's object.
      if (viewRoot) continue;
      noted = false;
      n.whole = READINGS.indexOf(reader.numberReading(plan, 1, note));
      n.wholeNotes = noted;
      noted = false;
      n.fraction = READINGS.indexOf(reader.numberReading(plan, 0.5, note));
      n.fractionNotes = noted;
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
  return { nodes, members, units: reader.units - questionUnits, code: undefined };
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
    views: undefined,
    array: undefined,
    node,
  };
}

/** A key `named` does not hold, to ask for the child every such key shares. */
function unnamedKey(named: ReadonlySet<string>): string {
  let key = "";
  while (named.has(key)) key += "_";
  return key;
}

/** Thrown inside a compiled writer to give the call back to the walk. */
export const GIVE_UP: unique symbol = Symbol("give up");

/**
 * The keys of an object a program writes. An object of a kind of its own (a
 * Date, a Map: ./object-data.ts) gives up, and the walk refuses it.
 */
export function dataKeys(o: object): string[] {
  if (!isObjectData(o)) throw GIVE_UP;
  return Object.keys(o);
}

/** What a compiled writer needs of the call's options. */
export interface ProgramOptions {
  /** wholeFloats is "decimal". */
  readonly decimal: boolean;
  /**
   * Fractional numbers written so far by generated code (counted for the
   * choice of form, MANY_FRACTIONS in ./large-output.ts; the interpreter
   * writes text at any count and leaves it alone).
   */
  fractions: number;
  /** Someone listens to diagnostics: any diagnostic or note gives the call back. */
  readonly listening: boolean;
  /** recursionLimit, capped so that the writer's own recursion stays far from the runtime's stack. */
  readonly depthLimit: number;
  /**
   * Writes an object or array (`array`) at a node the program leaves to the
   * call (its members depend on the content: a view program, or the walk),
   * `depth` levels deep, with the call's one budget; throws GIVE_UP when the
   * walk would not stand.
   */
  walk(
    node: ProgramNode,
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
 * are `Value`s): the JSON text, or undefined when the call must be walked.
 */
export function interpretProgram(
  program: Program,
  fields: Record<string, unknown>,
  msg: boolean,
  options: ProgramOptions,
  depth = 1,
): string | undefined {
  try {
    return new Interpreter(options, msg).object(program.nodes[0]!, fields, depth);
  } catch (e) {
    if (e === GIVE_UP) return undefined;
    throw e;
  }
}

/**
 * The program interpreted (runtimes that refuse generated code): a recursive
 * writer, at most MAX_COMPILED_DEPTH deep, that gives up on anything off the
 * happy path.
 */
class Interpreter {
  constructor(
    private readonly options: ProgramOptions,
    private readonly msg: boolean,
  ) {}

  value(n: ProgramNode, v: unknown, depth: number): string {
    let x = v;
    if (this.msg) {
      // A Value message is written as its content, in the plain form's
      // terms; one whose case and content disagree gives up. A scalar case's
      // content must have the type PRIMITIVE_KINDS gives it (any other case,
      // an inherited name included, names no type there).
      const kind = (v as { kind?: { case?: unknown; value?: unknown } } | undefined)?.kind;
      const c = kind?.case;
      x = kind?.value;
      if (c === "nullValue") return "null";
      if (c === "structValue") {
        x = (x as { fields?: unknown } | undefined)?.fields;
        if (typeof x !== "object" || x === null || Array.isArray(x)) throw GIVE_UP;
      } else if (c === "listValue") {
        x = (x as { values?: unknown } | undefined)?.values;
        if (!Array.isArray(x)) throw GIVE_UP;
      } else if (typeof x !== PRIMITIVE_KINDS[c as keyof typeof PRIMITIVE_KINDS]) throw GIVE_UP;
    }
    switch (typeof x) {
      case "number":
        return this.number(n, x);
      case "string":
        return jsonString(x);
      case "boolean":
        return x ? "true" : "false";
      case "object":
        if (x === null) return "null";
        return Array.isArray(x)
          ? this.array(n, x, depth + 1)
          : this.object(n, x as Record<string, unknown>, depth + 1);
    }
    throw GIVE_UP;
  }

  /** An object or array the program leaves to the call. */
  private walk(
    n: ProgramNode,
    value: Record<string, unknown> | readonly unknown[],
    array: boolean,
    depth: number,
  ): string {
    return this.options.walk(n, value, this.msg, array, depth);
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
    const keys = dataKeys(fields);
    let text = "{";
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const at = p.index.get(key);
      if (i > 0) text += ",";
      text +=
        at === undefined
          ? `${jsonString(key)}:${this.value(p.rest, fields[key], depth)}`
          : p.keyTexts[at]! + this.value(p.children[at]!, fields[key], depth);
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
    }
    return `${text}]`;
  }
}
