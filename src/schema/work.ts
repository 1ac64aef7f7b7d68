// Bounded, cycle-safe, memoized recursion over schema nodes.
//
// One computation (a reading, a member's node, an object's or array's info)
// runs with a Work: the units it may spend (what is left of its call's budget,
// see ./reader.ts) and a depth limit; past either it throws WORK_EXCEEDED.
// Its memos live in its Op instances and die with it, so what a computation
// costs depends only on the schema and its question, never on earlier calls.
//
// A node met again while it is being computed (a recursive schema at the same
// position) contributes nothing (DROPPED). A result that depended on such a
// cut at a node lower on the stack is only valid while that part of the stack
// stands, so it is kept in a memo checked against the stack frame it depends
// on (exact).
//
// A disjunction (an anyOf, oneOf, if's then/else) is a frame of its own (run
// with `deepens` false): met again while its branches are being computed (a
// recursive union reached through a `$ref` beside it, at the same position)
// it is cut like a node, and its result is memoized like a node's. Without
// that, n branches that each reach the union again through distinct ref
// objects were computed under every order of the stack, 2^n times; with it
// each branch is computed once per union, so a recursive union costs units
// linear in its branches (pinned in test/schema-budget.test.ts).

import { isStackOverflow } from "../errors.js";
import type { PatternEngine } from "../patterns/engine.js";

/** Deepest nesting of in-place applicators followed in one computation. */
export const MAX_DEPTH = 200;

/** Note bit: a `$ref` did not resolve. */
export const NOTE_UNRESOLVED = 1;
/** Note bit: the schema was too complex to read here. */
export const NOTE_COMPLEX = 2;
/** Note bit: a pattern this position depends on could not be evaluated. */
export const NOTE_PATTERN = 4;

/** Thrown when a computation runs out of budget or depth; caught where the computation started. */
export class WorkExceeded extends Error {
  override name = "WorkExceeded";
}
/** The one instance thrown (no stack capture per throw). */
export const WORK_EXCEEDED = new WorkExceeded("schema too complex");

/** Thrown when a member's node depends on a pattern that cannot be evaluated. */
export class PatternUndecided extends Error {
  override name = "PatternUndecided";
}
/** The one instance thrown. */
export const PATTERN_UNDECIDED = new PatternUndecided("pattern not evaluated");

/** True when `e` means "give up: too complex" (including a stack overflow). */
export function isWorkExceeded(e: unknown): boolean {
  return e === WORK_EXCEEDED || isStackOverflow(e);
}

const NO_CUTS: readonly number[] = [];

/** Budget and bookkeeping of one computation. */
export class Work {
  units = 0;
  depth = 0;
  /** Stack indices the current computation's cuts pointed at. */
  cuts: readonly number[] = NO_CUTS;
  /** Note bits gathered by the current computation. */
  notes = 0;
  constructor(
    /** Most units this computation may spend. */
    readonly limit: number,
    /** The engine that tests `patternProperties`; undefined: patterns are not evaluated. */
    readonly patterns: PatternEngine | undefined,
    /** The call's composites past the document's intern table (see Doc.intern). */
    readonly interned: Map<string, unknown>,
  ) {}
  /** Spends `units` (default one); throws WORK_EXCEEDED past the limit. */
  charge(units = 1): void {
    this.units += units;
    if (this.units > this.limit) throw WORK_EXCEEDED;
  }
}

/** Marks a node cut because it is already being computed. */
export const DROPPED: unique symbol = Symbol("dropped");

/** A memoized result and the notes its computation produced. */
export interface Memo<T> {
  readonly value: T;
  readonly notes: number;
}

/** A result that depends on stack frames below its node. */
interface Temp<T> extends Memo<T> {
  readonly cuts: readonly number[];
  readonly high: number;
  readonly serial: number;
}

let serials = 0;

/** One recursive computation over nodes: its memo (per computation) and how to compute a node. */
export abstract class Op<N, T> {
  /** Nodes being computed, with their stack index. */
  readonly stack = new Map<N, number>();
  /** Serial of the frame at each stack index. */
  readonly frames: number[] = [];
  /** Context-dependent results of this computation. */
  readonly temp = new Map<N, Temp<T>>();
  /** Results that hold whatever the stack. */
  readonly memo = new Map<N, Memo<T>>();
  abstract compute(node: N, work: Work): T;
}

function addCuts(work: Work, cuts: readonly number[]): void {
  for (const c of cuts) if (!work.cuts.includes(c)) work.cuts = [...work.cuts, c];
}

/**
 * Runs `op` on `node`: memo, cycle cut, budget, then compute and memoize.
 * `deepens` false: a frame that is neither charged nor counted towards
 * MAX_DEPTH (a disjunction, whose branches' frames are).
 */
export function run<N, T>(work: Work, op: Op<N, T>, node: N, deepens = true): T | typeof DROPPED {
  const memo = op.memo.get(node);
  if (memo !== undefined) {
    work.notes |= memo.notes;
    return memo.value;
  }
  const at = op.stack.get(node);
  if (at !== undefined) {
    addCuts(work, [at]);
    return DROPPED;
  }
  const t = op.temp.get(node);
  // Valid only while the frame it depends on is still on the stack (LIFO: then
  // so is everything below it).
  if (t !== undefined && t.high < op.stack.size && op.frames[t.high] === t.serial) {
    addCuts(work, t.cuts);
    work.notes |= t.notes;
    return t.value;
  }
  // A disjunction's frame is paid for by its branches' (each charged as it runs).
  if (deepens) work.charge();
  const depth = deepens ? 1 : 0;
  work.depth += depth;
  if (work.depth > MAX_DEPTH) {
    work.depth -= depth;
    throw WORK_EXCEEDED;
  }
  const index = op.stack.size;
  op.stack.set(node, index);
  op.frames[index] = ++serials;
  const outerCuts = work.cuts;
  const outerNotes = work.notes;
  work.cuts = NO_CUTS;
  work.notes = 0;
  let value: T;
  try {
    value = op.compute(node, work);
  } catch (e) {
    op.stack.delete(node);
    work.depth -= depth;
    // The caller may go on (an undecided pattern beside a subschema that decides, see
    // ./children.ts): it finds its own cuts and notes as they were.
    work.cuts = outerCuts;
    work.notes = outerNotes;
    throw e;
  }
  op.stack.delete(node);
  work.depth -= depth;
  const cuts = work.cuts.length === 0 ? NO_CUTS : work.cuts.filter((c) => c < index);
  const notes = work.notes;
  if (cuts.length === 0) {
    op.memo.set(node, { value, notes });
  } else {
    const high = Math.max(...cuts);
    op.temp.set(node, { value, notes, cuts, high, serial: op.frames[high]! });
  }
  work.cuts = outerCuts;
  addCuts(work, cuts);
  work.notes = outerNotes | notes;
  return value;
}
