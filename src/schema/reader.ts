// The writer-facing calls: one SchemaReader per public call (structToJson,
// inspectNumbers, a raw-text verification), holding that call's budget.
//
// Budget: a call may spend CALL_BUDGET units, plus POSITION_ALLOWANCE for each
// position it asks about (each number read, each object or array scoped, each
// member or element looked up), so the work of a call is bounded by a number
// linear in its arguments. Each question (a node's reading, a member's node,
// an object's or array's info) is answered by one computation whose cost in
// units depends only on the schema and the question (./work.ts); the first
// time a call asks a question it is charged that cost, every later time one
// unit. A compiled schema keeps finished answers with their cost and charges
// that cost again, so a warm schema costs a call exactly what a fresh one
// does: outputs never depend on earlier calls. A question that does not fit
// what is left reads as too complex, and the whole budget is spent.
import type { PatternEngine } from "../patterns/engine.js";
import { ArrayAdmitsOp, ObjectPredicateOp } from "./branch-filter.js";
import { ArrayChildOp, CUT_NODE, ObjectChildOp, type View } from "./children.js";
import {
  type Costed,
  K_COMPLEX,
  K_UNDECIDED,
  MAX_ANSWERS,
  NodeBase,
  TOO_COMPLEX_NODE,
  UNDECIDED_NODE,
  UNKNOWN_NODE_IMPL,
} from "./nodes.js";
import { PUBLIC_READING, R_UNKNOWN, type Reading } from "./number-reading.js";
import {
  computeArrayInfo,
  computeObjectInfo,
  probeSignature,
  selectBranches,
} from "./object-info.js";
import { ReadOp } from "./readings.js";
import type {
  ArrayScope,
  NoteSink,
  NumberReading,
  ObjectProbe,
  ObjectScope,
  SchemaNode,
} from "./types.js";
import {
  DROPPED,
  isWorkExceeded,
  type Memo,
  NOTE_COMPLEX,
  NOTE_PATTERN,
  NOTE_UNRESOLVED,
  PATTERN_UNDECIDED,
  run,
  Work,
} from "./work.js";

/** Units every call may spend, before the allowance of the positions it reads. */
export const CALL_BUDGET = 20_000;
/** Units added to a call's budget for each position it asks about. */
export const POSITION_ALLOWANCE = 64;

/** Options of a {@link SchemaReader}. */
export interface SchemaReaderOptions {
  /**
   * The engine that evaluates `patternProperties` (e.g. `re2Patterns` from
   * "struct-json-bridge/re2"). Default undefined: a member whose node depends
   * on a pattern reads as unknown and notes `schema-pattern-unevaluated`.
   */
  patterns: PatternEngine | undefined;
}

function emitNotes(bits: number, note: NoteSink): void {
  if ((bits & NOTE_UNRESOLVED) !== 0) note("schema-ref-unresolved");
  if ((bits & NOTE_COMPLEX) !== 0) note("schema-too-complex");
  if ((bits & NOTE_PATTERN) !== 0) note("schema-pattern-unevaluated");
}

const EMPTY_OBJECT_SCOPE: ObjectScope = { child: () => UNKNOWN_NODE_IMPL };
const EMPTY_ARRAY_SCOPE: ArrayScope = { child: () => UNKNOWN_NODE_IMPL };

/** What one call has answered about one node (answers are never undefined). */
interface CallAnswers {
  whole?: unknown;
  fraction?: unknown;
  objectInfo?: unknown;
  arrayInfo?: unknown;
  /** The scope without value-dependent branches, made once per call. */
  staticScope?: ObjectScope;
  selections?: Map<string, unknown>;
  /** By view key, then by member key (UNNAMED: the answer every unnamed key shares). */
  members?: Map<string, Map<string | typeof UNNAMED, unknown>>;
  elements?: Map<number, unknown>;
}

/** The member key every key no `properties` names stands for. */
const UNNAMED: unique symbol = Symbol("unnamed");

/** The map under `key` in `outer`, made on first use. */
function inner<K, L, V>(outer: Map<K, Map<L, V>>, key: K): Map<L, V> {
  let m = outer.get(key);
  if (m === undefined) {
    m = new Map();
    outer.set(key, m);
  }
  return m;
}

/** Marks a question whose answer did not fit the call's budget. */
const TOO_COMPLEX: unique symbol = Symbol("too complex");

let engineCount = 0;
const engineIds = new WeakMap<PatternEngine, number>();

function engineKey(engine: PatternEngine | undefined): string {
  if (engine === undefined) return "";
  let id = engineIds.get(engine);
  if (id === undefined) {
    id = ++engineCount;
    engineIds.set(engine, id);
  }
  return String(id);
}

/**
 * The schema reader of one call: what the schema says at each position the
 * writer walks to, within one budget (see the top of ./reader.ts). Create one
 * per public call; never share one between calls.
 */
export class SchemaReader {
  private remaining = CALL_BUDGET;
  private spent = 0;
  /** This call's answers, per node. */
  private readonly answered = new Map<NodeBase, CallAnswers>();
  /** This call's composites past the document's intern table. */
  private readonly interned = new Map<string, unknown>();
  private readonly patterns: PatternEngine | undefined;
  /** Part of every member question: members depend on the pattern engine. */
  private readonly memberPrefix: string;

  constructor(options?: Partial<SchemaReaderOptions>) {
    this.patterns = options?.patterns;
    this.memberPrefix = `k${engineKey(this.patterns)}|`;
  }

  /** Units this call has been charged so far (deterministic: a function of the schema and the positions read). */
  get units(): number {
    return this.spent;
  }

  private spend(units: number): void {
    this.remaining -= units;
    this.spent += units;
  }

  /** Spends `units` when they fit; else spends what is left and returns false. */
  private afford(units: number): boolean {
    if (units > this.remaining) {
      this.spend(this.remaining);
      return false;
    }
    this.spend(units);
    return true;
  }

  /** Adds one position's allowance to the budget. */
  private grant(): void {
    this.remaining += POSITION_ALLOWANCE;
  }

  /** Answers `question` about `node`: from this call, from the schema's shared answers, or computed. */
  private ask<T>(
    node: NodeBase,
    question: string,
    compute: (work: Work) => T,
  ): T | typeof TOO_COMPLEX {
    const shared = node.answers?.get(question) as Costed<T> | undefined;
    if (shared !== undefined) return this.afford(shared.cost) ? shared.value : TOO_COMPLEX;
    const work = new Work(this.remaining, this.patterns, this.interned);
    try {
      const answer = compute(work);
      this.spend(work.units);
      node.answers ??= new Map();
      if (node.answers.size < MAX_ANSWERS)
        node.answers.set(question, { value: answer, cost: work.units });
      return answer;
    } catch (e) {
      if (!isWorkExceeded(e)) throw e;
      this.spend(this.remaining);
      return TOO_COMPLEX;
    }
  }

  /** What this call has answered about `node`. */
  private answersOf(node: NodeBase): CallAnswers {
    let a = this.answered.get(node);
    if (a === undefined) {
      a = {};
      this.answered.set(node, a);
    }
    return a;
  }

  /** The map in `field` of `node`'s answers, made on first use. */
  private mapOf<F extends "selections" | "members" | "elements">(
    node: NodeBase,
    field: F,
  ): NonNullable<CallAnswers[F]> {
    const mine = this.answersOf(node);
    let m = mine[field];
    if (m === undefined) {
      m = new Map() as NonNullable<CallAnswers[F]>;
      mine[field] = m;
    }
    return m as NonNullable<CallAnswers[F]>;
  }

  /** This call's answer in `slot` of `node`'s answers (one unit), else `ask`'s, remembered there. */
  private recallSlot<T>(
    node: NodeBase,
    slot: "whole" | "fraction" | "objectInfo" | "arrayInfo",
    question: string,
    compute: (work: Work) => T,
  ): T | typeof TOO_COMPLEX {
    const mine = this.answersOf(node);
    const known = mine[slot] as T | typeof TOO_COMPLEX | undefined;
    if (known !== undefined) return this.afford(1) ? known : TOO_COMPLEX;
    const answer = this.ask(node, question, compute);
    mine[slot] = answer;
    return answer;
  }

  /** This call's answer under `key` in `mine` (one unit), else `ask`'s, remembered there. */
  private recall<K, T>(
    mine: Map<K, unknown>,
    key: K,
    node: NodeBase,
    question: () => string,
    compute: (work: Work) => T,
  ): T | typeof TOO_COMPLEX {
    const known = mine.get(key) as T | typeof TOO_COMPLEX | undefined;
    if (known !== undefined) return this.afford(1) ? known : TOO_COMPLEX;
    const answer = this.ask(node, question(), compute);
    mine.set(key, answer);
    return answer;
  }

  /** The reading of a number `value` at `node`; notes go to `note`. */
  numberReading(node: SchemaNode, value: number, note: NoteSink): NumberReading {
    if (!(node instanceof NodeBase) || node.isUnknown) return "unknown";
    if (node.kind === K_COMPLEX || node.kind === K_UNDECIDED) {
      emitNotes(node.kind === K_COMPLEX ? NOTE_COMPLEX : NOTE_PATTERN, note);
      return "unknown";
    }
    this.grant();
    const whole = Number.isInteger(value);
    const m = this.recallSlot(
      node,
      whole ? "whole" : "fraction",
      whole ? "w" : "f",
      (work): Memo<Reading> => {
        const r = run(work, new ReadOp(whole), node);
        return { value: r === DROPPED ? R_UNKNOWN : r, notes: work.notes };
      },
    );
    if (m === TOO_COMPLEX) {
      note("schema-too-complex");
      return "unknown";
    }
    if (m.notes !== 0) emitNotes(m.notes, note);
    return PUBLIC_READING[m.value]!;
  }

  /**
   * What an object or array value at `node` needs (its notes emitted);
   * undefined when nothing is known below it.
   */
  private containerInfo<T extends { readonly notes: number }>(
    node: SchemaNode,
    note: NoteSink,
    slot: "objectInfo" | "arrayInfo",
    compute: (node: NodeBase, work: Work) => T,
  ): { node: NodeBase; info: T } | undefined {
    if (!(node instanceof NodeBase) || node.isUnknown) return undefined;
    if (node.kind === K_COMPLEX || node.kind === K_UNDECIDED || node.doc === null) {
      emitNotes(node.kind === K_UNDECIDED ? NOTE_PATTERN : NOTE_COMPLEX, note);
      return undefined;
    }
    this.grant();
    const info = this.recallSlot(node, slot, slot === "objectInfo" ? "o" : "a", (work) =>
      compute(node, work),
    );
    if (info === TOO_COMPLEX) {
      note("schema-too-complex");
      return undefined;
    }
    if (info.notes !== 0) emitNotes(info.notes, note);
    return { node, info };
  }

  /** The scope of an object value at `node`; `probe` lets branch filtering look at its members. */
  objectScope(at: SchemaNode, probe: ObjectProbe, note: NoteSink): ObjectScope {
    const found = this.containerInfo(at, note, "objectInfo", computeObjectInfo);
    if (found === undefined) return EMPTY_OBJECT_SCOPE;
    const { node, info } = found;
    if (info.dynamic.length === 0) {
      const mine = this.answersOf(node);
      mine.staticScope ??= new MemberScope(this, node, info.named, "", undefined);
      return mine.staticScope;
    }
    if (!this.afford(info.keys.length)) {
      note("schema-too-complex");
      return EMPTY_OBJECT_SCOPE;
    }
    const signature = probeSignature(info, probe);
    const selection = this.recall(
      this.mapOf(node, "selections"),
      signature,
      node,
      () => `s${signature}`,
      (work) => selectBranches(info, probe, work),
    );
    if (selection === TOO_COMPLEX) {
      note("schema-too-complex");
      return EMPTY_OBJECT_SCOPE;
    }
    return new MemberScope(this, node, info.named, selection.key, selection.view);
  }

  /**
   * The node of member `key` of an object at `node`, with the branches `view`
   * keeps (`viewKey` names it). A key outside `named` asks the question every
   * such key shares (the answer and its cost are the same for all of them).
   */
  member(
    node: NodeBase,
    named: ReadonlySet<string> | undefined,
    viewKey: string,
    view: View | undefined,
    key: string,
  ): SchemaNode {
    const doc = node.doc!;
    this.grant();
    const shared = named !== undefined && !named.has(key);
    const r = this.recall(
      inner(this.mapOf(node, "members"), viewKey),
      shared ? UNNAMED : key,
      node,
      () => (shared ? `u${viewKey}` : `${this.memberPrefix}${viewKey}|${key}`),
      (work) => {
        try {
          const c = run(
            work,
            new ObjectChildOp(doc, key, view ?? null, new ObjectPredicateOp()),
            node,
          );
          return c === DROPPED || c === CUT_NODE ? UNKNOWN_NODE_IMPL : c;
        } catch (e) {
          if (e === PATTERN_UNDECIDED) return UNDECIDED_NODE;
          throw e;
        }
      },
    );
    return r === TOO_COMPLEX ? TOO_COMPLEX_NODE : r;
  }

  /** The scope of an array value at `node` (element nodes do not depend on the array's content). */
  arrayScope(at: SchemaNode, _length: number, note: NoteSink): ArrayScope {
    const found = this.containerInfo(at, note, "arrayInfo", computeArrayInfo);
    return found === undefined
      ? EMPTY_ARRAY_SCOPE
      : new ElementScope(this, found.node, found.info.tail);
  }

  /** The node of element `index` of an array at `node`. */
  element(node: NodeBase, index: number): SchemaNode {
    const doc = node.doc!;
    this.grant();
    const r = this.recall(
      this.mapOf(node, "elements"),
      index,
      node,
      () => `i${index}`,
      (work) => {
        const c = run(work, new ArrayChildOp(doc, index, new ArrayAdmitsOp()), node);
        return c === DROPPED || c === CUT_NODE ? UNKNOWN_NODE_IMPL : c;
      },
    );
    return r === TOO_COMPLEX ? TOO_COMPLEX_NODE : r;
  }
}

class MemberScope implements ObjectScope {
  constructor(
    private readonly reader: SchemaReader,
    private readonly node: NodeBase,
    private readonly named: ReadonlySet<string> | undefined,
    private readonly viewKey: string,
    private readonly view: View | undefined,
  ) {}
  child(key: string): SchemaNode {
    return this.reader.member(this.node, this.named, this.viewKey, this.view, key);
  }
}

class ElementScope implements ArrayScope {
  constructor(
    private readonly reader: SchemaReader,
    private readonly node: NodeBase,
    private readonly tail: number,
  ) {}
  child(index: number): SchemaNode {
    if (!Number.isInteger(index) || index < 0) return UNKNOWN_NODE_IMPL;
    return this.reader.element(this.node, Math.min(index, this.tail));
  }
}
