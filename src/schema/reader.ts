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
import { entry, newMap } from "../map-entry.js";
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

/** The scope of an object or array below which nothing is known. */
const EMPTY_SCOPE: ObjectScope & ArrayScope = { child: () => UNKNOWN_NODE_IMPL };

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

/** A node's answers before this call has any. */
const noAnswers = (): CallAnswers => ({});

/** Marks a question whose answer did not fit the call's budget. */
const TOO_COMPLEX: unique symbol = Symbol("too complex");

let engineCount = 0;
const engineIds = new WeakMap<PatternEngine, number>();

function engineKey(engine: PatternEngine | undefined): string {
  return engine === undefined ? "" : String(entry(engineIds, engine, () => ++engineCount));
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
    return entry(this.answered, node, noAnswers);
  }

  /** The map in `field` of `node`'s answers, made on first use. */
  private mapOf<F extends "selections" | "members" | "elements">(
    node: NodeBase,
    field: F,
  ): NonNullable<CallAnswers[F]> {
    const mine = this.answersOf(node);
    mine[field] ??= new Map() as NonNullable<CallAnswers[F]>;
    return mine[field] as NonNullable<CallAnswers[F]>;
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

  /**
   * What `node` answers in `slot` (`compute` works it out; the question
   * sharing it is the slot's initial: w, f, o, a), its notes emitted; one
   * unit when this call has it already. Undefined when nothing is known
   * there (an unknown node; a node too complex or undecided, noted) or the
   * answer does not fit the budget (noted).
   */
  private answer<T extends { readonly notes: number }>(
    node: SchemaNode,
    note: NoteSink,
    slot: "whole" | "fraction" | "objectInfo" | "arrayInfo",
    compute: (node: NodeBase, work: Work) => T,
  ): T | undefined {
    if (!(node instanceof NodeBase) || node.isUnknown) return undefined;
    // Only the nodes too complex or undecided have no document.
    if (node.kind === K_COMPLEX || node.kind === K_UNDECIDED || node.doc === null) {
      emitNotes(node.kind === K_UNDECIDED ? NOTE_PATTERN : NOTE_COMPLEX, note);
      return undefined;
    }
    this.grant();
    const mine = this.answersOf(node);
    let found = mine[slot] as T | typeof TOO_COMPLEX | undefined;
    if (found === undefined) {
      found = this.ask(node, slot[0]!, (work) => compute(node, work));
      mine[slot] = found;
    } else if (!this.afford(1)) found = TOO_COMPLEX;
    if (found === TOO_COMPLEX) {
      note("schema-too-complex");
      return undefined;
    }
    if (found.notes !== 0) emitNotes(found.notes, note);
    return found;
  }

  /** The reading of a number `value` at `node`; notes go to `note`. */
  numberReading(node: SchemaNode, value: number, note: NoteSink): NumberReading {
    const whole = Number.isInteger(value);
    const m = this.answer(node, note, whole ? "whole" : "fraction", (n, work): Memo<Reading> => {
      const r = run(work, new ReadOp(whole), n);
      return { value: r === DROPPED ? R_UNKNOWN : r, notes: work.notes };
    });
    return m === undefined ? "unknown" : PUBLIC_READING[m.value]!;
  }

  /** The scope of an object value at `node`; `probe` lets branch filtering look at its members. */
  objectScope(at: SchemaNode, probe: ObjectProbe, note: NoteSink): ObjectScope {
    const info = this.answer(at, note, "objectInfo", computeObjectInfo);
    if (info === undefined) return EMPTY_SCOPE;
    const node = at as NodeBase;
    if (info.dynamic.length === 0) {
      const mine = this.answersOf(node);
      mine.staticScope ??= new MemberScope(this, node, info.named, "", undefined);
      return mine.staticScope;
    }
    if (!this.afford(info.keys.length)) {
      note("schema-too-complex");
      return EMPTY_SCOPE;
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
      return EMPTY_SCOPE;
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
    const shared = named !== undefined && !named.has(key);
    return this.child(
      node,
      entry(this.mapOf(node, "members"), viewKey, newMap),
      shared ? UNNAMED : key,
      () => (shared ? `u${viewKey}` : `${this.memberPrefix}${viewKey}|${key}`),
      () => new ObjectChildOp(node.doc!, key, view ?? null, new ObjectPredicateOp()),
    );
  }

  /** The scope of an array value at `node` (element nodes do not depend on the array's content). */
  arrayScope(at: SchemaNode, _length: number, note: NoteSink): ArrayScope {
    const info = this.answer(at, note, "arrayInfo", computeArrayInfo);
    return info === undefined ? EMPTY_SCOPE : new ElementScope(this, at as NodeBase, info.tail);
  }

  /** The node of element `index` of an array at `node`. */
  element(node: NodeBase, index: number): SchemaNode {
    return this.child(
      node,
      this.mapOf(node, "elements"),
      index,
      () => `i${index}`,
      () => new ArrayChildOp(node.doc!, index, new ArrayAdmitsOp()),
    );
  }

  /**
   * The node of a member or element of a value at `node`: this call's answer
   * under `key` in `mine`, else the one `question` names, computed by `op`
   * (a new one per computation) when the schema has none.
   */
  private child<K>(
    node: NodeBase,
    mine: Map<K, unknown>,
    key: K,
    question: () => string,
    op: () => ObjectChildOp | ArrayChildOp,
  ): SchemaNode {
    this.grant();
    const r = this.recall(mine, key, node, question, (work) => {
      try {
        const c = run(work, op(), node);
        return c === DROPPED || c === CUT_NODE ? UNKNOWN_NODE_IMPL : c;
      } catch (e) {
        // A member whose node depends on a pattern not evaluated (elements depend on none).
        if (e === PATTERN_UNDECIDED) return UNDECIDED_NODE;
        throw e;
      }
    });
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
