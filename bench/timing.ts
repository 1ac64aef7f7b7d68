// One timing round of one group: every operation of the group on one payload,
// measured in the same process so that their ratio is meaningful even on a
// shared, noisy machine.
//
// Two designs (bench/main.ts --timing):
//
// "alternated" (the default, issue 16). The round is a series of cycles; a cycle
// times one block of each operation, in the group's order on even cycles and in
// reverse on odd ones (A B C, C B A, A B C, …), so every pair of operations is
// timed close together and neither is always first. A block is `batch` calls, as
// many as last a few ms (one call on large payloads). Before each block, outside
// its timing: the operation's fresh inputs (refill) and a collection of the young
// generation (a scavenge), so that the block starts with an empty young generation
// and pays for no other block's short-lived garbage. Why: on the 2-vCPU VM the
// harness runs on, the machine runs at half speed for seconds at a time; timing
// the operations one after the other (the "sequential" design) let a slow period
// fall on one side of a ratio only, and single rounds' ratios swung 0.65–2.49×
// around a median of 1.25×. Blocks a few ms apart see the same speed.
// Interleaving call by call without the collections was tried and dropped: a
// collection lands on whichever operation runs when it starts, so each operation
// paid for the others' garbage.
//
// Why not a full collection before each block: it deoptimises. A full GC while no
// result of an operation is alive frees the hidden classes (maps) of its results
// and intermediates, and V8 discards optimised code that embeds them ("weak
// objects" in --trace-deopt); the next block runs unoptimised until it is
// re-optimised. Measured (Node 20, built package): structFromJson on S went from
// 2.2 to 37 µs per call with a full GC before each 500-call block (protobuf-es's
// fromJsonString from 4.6 to 5–10 µs), on L from 66–95 to 137–147 ms per call
// (protobuf-es's unchanged); with a scavenge instead, both are as without any.
// A scavenge collects no maps and leaves the code alone.
//
// Fairness. An operation's own allocation is still paid within its block: a large
// payload allocates and collects within its one call; a small one's block lasts
// long enough (minSampleMs) to fill several young generations, so its own
// scavenges (and any promotion they cause) land in it. What a block does not pay
// is the part of a young generation it leaves at its end: less than one scavenge
// of mostly dead objects (tens of µs), the same bias for every operation. Old-
// generation garbage is not collected between blocks: V8 marks incrementally in
// steps charged to allocation, so most of a major collection's cost falls on the
// operations in proportion to what they allocate; a finalisation that lands in
// one block makes that cycle an outlier, which the median over cycles discards.
//
// Each block gives a time per call; an operation's round figure is the median of
// its blocks (roundsMs), and a ratio's round figure is the median, over the
// cycles, of the ratio of the two operations' blocks in that cycle (report.ts):
// the blocks of one cycle saw the same machine speed, so a slow phase cancels in
// the ratio instead of moving it.
//
// "sequential" (the design before issue 16, kept to compare): each operation is
// timed by tinybench for its whole budget, one after the other.

import { Bench } from "tinybench";
import type { PreparedOperation } from "./operations.js";

/** Which timing design a round uses (see the top of this file). */
export type TimingDesign = "alternated" | "sequential";

/** The timing designs, the default first. */
export const timingDesigns: readonly TimingDesign[] = ["alternated", "sequential"];

/** How long and how often each operation of a round runs. */
export interface TimingSettings {
  /** Timed ms per operation per round (alternated: block time only; sequential: tinybench's budget). */
  readonly time: number;
  /** Least blocks (alternated: cycles) or samples (sequential) per operation per round. */
  readonly iterations: number;
  /** sequential: tinybench warm-up budget per task, in ms. */
  readonly warmupTime: number;
  /**
   * Untimed warm-up: alternated, cycles before each round (no collections); sequential,
   * tinybench's minimum warm-up samples (0 skips it: the calibration call warms).
   */
  readonly warmupIterations: number;
  /** A block (sample) runs the operation in a loop for at least this long, so that the timer's resolution does not matter. */
  readonly minSampleMs: number;
  /**
   * alternated: untimed blocks before a process's first round, in turn, until every
   * operation has run at least this long (see warmUpAlternated).
   */
  readonly processWarmupMs: number;
}

/**
 * What one round measured for one operation: median ms per call and, alternated,
 * the ms per call of its block in each cycle (for ratios paired cycle by cycle);
 * or why it could not be measured.
 */
export type RoundResult =
  | { readonly ms: number; readonly cyclesMs: readonly number[] }
  | { readonly error: string };

/**
 * Counts undefined results, which makes every result "used" without keeping it
 * alive: holding the previous result (a classic sink) would promote each large
 * output to the old generation and time the garbage collector instead.
 */
export let undefinedResults = 0;

/**
 * Charges a call with everything its result still costs the caller: a string
 * built by concatenation is a rope that V8 flattens on first use (writing it to
 * a socket, say), which on a 5 MB text is tens of milliseconds. Reading one
 * character flattens it; on a flat string (JSON.stringify's) it costs nothing.
 */
export function consume(result: unknown): void {
  if (typeof result === "string") {
    if (result.charCodeAt(result.length >> 1) === -1) undefinedResults++;
  } else if (result === undefined) {
    undefinedResults++;
  }
}

/** Most calls per sample of an operation with `refill`: each call needs its own fresh input, built outside the timing. */
const maxRefillBatch = 64;

/** Calls per calibration window (inputs refilled outside it). */
const calibrationWindow = 16;

/**
 * How many calls one sample makes: enough to last `minSampleMs`. The first
 * call is not timed: it compiles code and lazy schema state (a schema's first
 * use, a generated comparator), and a collection may land in it, which once
 * made a process time 0.6 µs calls one by one (batch 1) for its whole life:
 * 10–17× their time, cold caches and the clock's own cost included (and the
 * M call, whose second call generates its value form's code, 0.67× instead of
 * 0.95× toJsonString). The per-call time is the median of short windows, so
 * that one such pause in the calibration cannot shrink every block. `now` is
 * the clock (tests pass their own).
 */
export function calibrateBatch(
  op: PreparedOperation,
  minSampleMs: number,
  now: () => number = () => performance.now(),
): number {
  op.refill?.(1);
  consume(op.call());
  // Big payloads: one call lasts a block. Judged on the median of three calls
  // when the first is slow: a call can be slow once more (a second form's code
  // being generated, a collection).
  const single: number[] = [];
  for (let k = 0; k < 3; k++) {
    op.refill?.(1);
    const start = now();
    consume(op.call());
    single.push(now() - start);
    if (single[0]! < minSampleMs) break;
  }
  if (median(single) >= minSampleMs) return 1;
  const windows: number[] = [];
  let spent = 0;
  while ((spent < minSampleMs || windows.length < 5) && windows.length < 1000) {
    op.refill?.(calibrationWindow);
    const start = now();
    for (let i = 0; i < calibrationWindow; i++) consume(op.call());
    const ms = now() - start;
    windows.push(ms / calibrationWindow);
    spent += ms;
  }
  const perCall = median(windows);
  const batch = Math.max(1, Math.min(100_000, Math.ceil(minSampleMs / Math.max(perCall, 1e-6))));
  return op.refill === undefined ? batch : Math.min(batch, maxRefillBatch);
}

/**
 * Time budget of an operation with `refill`: its fresh inputs are built outside the
 * timing but still take wall time (a schema clone costs more than compiling it lazily).
 */
const refillTimeMs = 30;

/** The engine's full garbage collection, when the process runs with --expose-gc (the harness's children do). */
const collectGarbage = (globalThis as { gc?: (options?: { type: "minor" | "major" }) => void }).gc;

/** One operation of a round, with the calls per block (sample) that calibrateBatch chose. */
export interface RoundTask {
  readonly id: string;
  readonly op: PreparedOperation;
  readonly batch: number;
}

/** The median of the finite numbers in `xs`; NaN when there are none. */
export function median(xs: readonly number[]): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The first line of an error's message, short enough for a note. */
function shortError(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 120);
}

/** Runs one block of `task` outside any timing (warm-up). */
function runBlock(task: RoundTask): void {
  task.op.refill?.(task.batch);
  const call = task.op.call;
  for (let i = 0; i < task.batch; i++) consume(call());
}

/**
 * The engine's collection of the young generation alone (a scavenge), when the
 * process runs with --expose-gc (the harness's children do). Not a full
 * collection: see the top of this file.
 */
function collectYoungGeneration(): void {
  collectGarbage?.({ type: "minor" });
}

/** Runs one block of `task`: inputs and a scavenge outside the timing, then `batch` calls timed. ms per call. */
function timeBlock(task: RoundTask): number {
  task.op.refill?.(task.batch);
  collectYoungGeneration();
  const call = task.op.call;
  const batch = task.batch;
  const start = performance.now();
  for (let i = 0; i < batch; i++) consume(call());
  return (performance.now() - start) / batch;
}

/**
 * Runs untimed blocks of the operations in turn (order reversed every cycle)
 * until each has run for at least `ms`. Once per process, before its first
 * round: V8 optimises a function after it has run for a while, and a program
 * generated per schema is dozens of functions, each optimised on its own: on M
 * the generated writer's functions reached optimised code over about a second
 * of calls (`--trace-opt`), so a first round that starts after 25 ms measured
 * code still being optimised (M on Node 24: 0.70× in round 1, 0.85× by round
 * 4). The rounds measure the steady state; the first calls of a process are
 * not what the ratios claim. An operation that throws is left to the rounds.
 * `now` is the clock (tests pass their own).
 */
export function warmUpAlternated(
  tasks: readonly RoundTask[],
  ms: number,
  now: () => number = () => performance.now(),
): void {
  const spent = new Map<RoundTask, number>(tasks.map((t) => [t, 0]));
  let live = [...tasks];
  for (let cycle = 0; live.length > 0; cycle++) {
    for (const task of cycle % 2 === 0 ? [...live] : [...live].reverse()) {
      // As a timed block, without the timing: a scavenge first, so that the warm-up's
      // fresh inputs are not promoted into an old generation the rounds then pay for.
      collectYoungGeneration();
      const start = now();
      try {
        runBlock(task);
      } catch {
        spent.set(task, ms);
      }
      spent.set(task, spent.get(task)! + now() - start);
    }
    live = live.filter((t) => spent.get(t)! < ms);
  }
}

/**
 * Times the operations in alternated blocks (see the top of this file): cycles in
 * the given order and its reverse, a scavenge before each block, until every
 * operation has `settings.iterations` blocks and, on average, `settings.time` ms of
 * timed calls (or the round's wall time reaches four times that, collections and
 * inputs included). An operation that throws is out of the rest of the round.
 */
export function timeRoundAlternated(
  tasks: readonly RoundTask[],
  settings: TimingSettings,
): Map<string, RoundResult> {
  const out = new Map<string, RoundResult>();
  let live = [...tasks];
  const cycles = new Map<string, number[]>(tasks.map((t) => [t.id, []]));
  const fail = (task: RoundTask, e: unknown) => {
    out.set(task.id, { error: shortError(e) });
    live = live.filter((t) => t !== task);
  };
  for (let w = 0; w < settings.warmupIterations; w++) {
    for (const task of w % 2 === 0 ? [...live] : [...live].reverse()) {
      try {
        runBlock(task);
      } catch (e) {
        fail(task, e);
      }
    }
  }
  const wallStart = performance.now();
  let timed = 0;
  for (let cycle = 0; live.length > 0; cycle++) {
    const enough = cycle >= settings.iterations;
    const budget = settings.time * live.length;
    if (enough && (timed >= budget || performance.now() - wallStart >= 4 * budget)) break;
    for (const task of cycle % 2 === 0 ? [...live] : [...live].reverse()) {
      try {
        const ms = timeBlock(task);
        cycles.get(task.id)!.push(ms);
        timed += ms * task.batch;
      } catch (e) {
        fail(task, e);
      }
    }
  }
  for (const task of tasks) {
    if (out.has(task.id)) continue;
    const cyclesMs = cycles.get(task.id)!;
    out.set(task.id, { ms: median(cyclesMs), cyclesMs });
  }
  return out;
}

/**
 * The sequential design (before issue 16, kept to compare): times the given operations one after the
 * other, in the given order, each by tinybench; returns ms per call (median of samples).
 * `collectBetween` (the read group): a full garbage collection, outside the timing, before each operation
 * and before each sample of one call, so that no call is charged for collecting the garbage an earlier
 * operation or call left in the old generation. Meant as the same treatment for every operation; it is
 * not (a full collection deoptimises this package's code more than protobuf-es's: see the top of this file).
 */
export async function timeRoundSequential(
  tasks: readonly RoundTask[],
  settings: TimingSettings,
  collectBetween = false,
): Promise<Map<string, RoundResult>> {
  const out = new Map<string, RoundResult>();
  const collect =
    collectBetween && collectGarbage !== undefined ? () => collectGarbage() : undefined;
  for (const { id, op, batch } of tasks) {
    const refill = op.refill;
    const bench = new Bench({
      time: refill === undefined ? settings.time : Math.min(settings.time, refillTimeMs),
      iterations: settings.iterations,
      warmupTime: settings.warmupTime,
      warmupIterations: settings.warmupIterations,
      warmup: settings.warmupIterations > 0,
      throws: false,
    });
    const call = op.call;
    collect?.();
    const beforeEach =
      refill !== undefined ? () => refill(batch) : batch === 1 ? collect : undefined;
    bench.add(
      id,
      () => {
        for (let i = 0; i < batch; i++) consume(call());
      },
      beforeEach === undefined ? {} : { beforeEach },
    );
    await bench.run();
    const result = bench.tasks[0]!.result;
    if (result.state === "completed") {
      out.set(id, { ms: result.latency.p50 / batch, cyclesMs: [] });
    } else if (result.state === "errored") {
      out.set(id, { error: result.error.message.split("\n")[0]!.slice(0, 120) });
    } else {
      out.set(id, { error: `task ${result.state}` });
    }
  }
  return out;
}
