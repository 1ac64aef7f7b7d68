// Bounded, cycle-safe, memoized recursion over schema nodes.
//
// Every public call gets a Work with a budget of WORK_BUDGET units (one unit
// per node visited or schema object walked) and a depth limit; past either,
// the call gives up with WORK_EXCEEDED and its position reads as too complex.
// The nodes being computed at that moment are marked as failed, so later calls
// that need them give up at once instead of spending the budget again.
//
// A node met again while it is being computed (a recursive schema at the same
// position) contributes nothing (DROPPED). Results are memoized per node; a
// result that depended on such a cut at a node lower on the stack is only valid
// while that part of the stack stands, so it is kept in a per-call memo
// checked against the stack frame it depends on (exact, and linear for
// recursive unions).

/** Work units one public call may spend (a unit: one node visited or one schema object walked). */
export const WORK_BUDGET = 20_000;
/** Deepest nesting of in-place applicators followed in one call. */
export const MAX_DEPTH = 200;

/** Note bit: a `$ref` did not resolve. */
export const NOTE_UNRESOLVED = 1;
/** Note bit: the schema was too complex to read here. */
export const NOTE_COMPLEX = 2;

/** Thrown when a call runs out of budget or depth; caught at the public boundary. */
export class WorkExceeded extends Error {
  override name = "WorkExceeded";
}
/** The one instance thrown (no stack capture per throw). */
export const WORK_EXCEEDED = new WorkExceeded("schema too complex");

/** True when `e` means "give up: too complex" (including a stack overflow). */
export function isWorkExceeded(e: unknown): boolean {
  return e === WORK_EXCEEDED || (e instanceof RangeError && /call stack/i.test(e.message));
}

const NO_CUTS: readonly number[] = [];

/** Budget and bookkeeping of one public call. */
export class Work {
  units = 0;
  depth = 0;
  /** Stack indices the current computation's cuts pointed at. */
  cuts: readonly number[] = NO_CUTS;
  /** Note bits gathered by the current computation. */
  notes = 0;
  /** Spends one unit. */
  charge(): void {
    if (++this.units > WORK_BUDGET) throw WORK_EXCEEDED;
  }
}

/** Marks a node cut because it is already being computed. */
export const DROPPED: unique symbol = Symbol("dropped");

/** A memoized result and the notes its computation produced. */
export interface Memo<T> {
  readonly value: T;
  readonly notes: number;
}

/** A frozen memo per (small integer value, notes): memoizing readings allocates nothing. */
const SHARED_MEMOS: readonly (readonly Memo<number>[])[] = Array.from({ length: 8 }, (_, value) =>
  Array.from({ length: 4 }, (_, notes) => Object.freeze({ value, notes })),
);

/** The shared memo of a small integer result (0–7) and its note bits. */
export function sharedMemo<T extends number>(value: T, notes: number): Memo<T> {
  return SHARED_MEMOS[value]![notes] as Memo<T>;
}

/** The memo of a node whose computation ran out of budget. */
export const FAILED: Memo<never> = Object.freeze({
  value: undefined as never,
  notes: NOTE_COMPLEX,
});

/** A result that depends on stack frames below its node. */
interface Temp<T> extends Memo<T> {
  readonly cuts: readonly number[];
  readonly high: number;
  readonly serial: number;
}

let serials = 0;

/** One recursive computation over nodes: where its memo lives and how to compute it. */
export abstract class Op<N, T> {
  /** Nodes being computed, with their stack index. */
  readonly stack = new Map<N, number>();
  /** Serial of the frame at each stack index. */
  readonly frames: number[] = [];
  /** Context-dependent results of this call. */
  readonly temp = new Map<N, Temp<T>>();
  abstract get(node: N): Memo<T> | undefined;
  abstract set(node: N, memo: Memo<T>): void;
  abstract compute(node: N, work: Work): T;
}

function addCuts(work: Work, cuts: readonly number[]): void {
  for (const c of cuts) if (!work.cuts.includes(c)) work.cuts = [...work.cuts, c];
}

/** Runs `op` on `node`: memo, cycle cut, budget, then compute and memoize. */
export function run<N, T>(work: Work, op: Op<N, T>, node: N): T | typeof DROPPED {
  const memo = op.get(node);
  if (memo !== undefined) {
    if (memo === FAILED) throw WORK_EXCEEDED;
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
  work.charge();
  if (++work.depth > MAX_DEPTH) throw WORK_EXCEEDED;
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
    work.depth--;
    if (isWorkExceeded(e)) op.set(node, FAILED);
    throw e;
  }
  op.stack.delete(node);
  work.depth--;
  const cuts = work.cuts.length === 0 ? NO_CUTS : work.cuts.filter((c) => c < index);
  const notes = work.notes;
  if (cuts.length === 0) {
    op.set(node, { value, notes });
  } else {
    const high = Math.max(...cuts);
    op.temp.set(node, { value, notes, cuts, high, serial: op.frames[high]! });
  }
  work.cuts = outerCuts;
  addCuts(work, cuts);
  work.notes = outerNotes | notes;
  return value;
}
