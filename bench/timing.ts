// One timing round of one group: every operation of the group on one payload,
// measured by tinybench in the same process, back to back, so that their ratio
// is meaningful even on a shared, noisy machine.

import { Bench } from "tinybench";
import type { PreparedOperation } from "./operations.js";

/** How long and how often each task of a round runs. */
export interface TimingSettings {
  /** tinybench time budget per task, in ms. */
  readonly time: number;
  /** tinybench minimum samples per task. */
  readonly iterations: number;
  /** tinybench warm-up budget per task, in ms. */
  readonly warmupTime: number;
  /** tinybench minimum warm-up samples per task; 0 skips tinybench's warm-up (the calibration call warms). */
  readonly warmupIterations: number;
  /** A sample runs the operation in a loop for at least this long, so that the timer's resolution does not matter. */
  readonly minSampleMs: number;
}

/** What one round measured for one operation: median ms per call, or why it could not be measured. */
export type RoundResult = { readonly ms: number } | { readonly error: string };

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

/** How many calls one sample makes: enough to last `minSampleMs`. The first call also warms the code. */
export function calibrateBatch(op: PreparedOperation, minSampleMs: number): number {
  op.refill?.(1);
  const first = performance.now();
  consume(op.call());
  if (performance.now() - first >= minSampleMs) return 1; // big payloads: no need for more calls
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minSampleMs && calls < 100_000) {
    if (op.refill !== undefined && calls % 64 === 0) op.refill(64);
    consume(op.call());
    calls++;
    elapsed = performance.now() - start;
  }
  const perCall = elapsed / calls;
  const batch = Math.max(1, Math.min(100_000, Math.ceil(minSampleMs / Math.max(perCall, 1e-6))));
  return op.refill === undefined ? batch : Math.min(batch, maxRefillBatch);
}

/**
 * Time budget of an operation with `refill`: its fresh inputs are built outside the
 * timing but still take wall time (a schema clone costs more than compiling it lazily).
 */
const refillTimeMs = 30;

/** The engine's full garbage collection, when the process runs with --expose-gc (the harness's children do). */
const collectGarbage = (globalThis as { gc?: () => void }).gc;

/**
 * Times the given operations one after the other, in the given order; returns ms per call (median of samples).
 * `collectBetween` (the read group): a full garbage collection, outside the timing, before each operation
 * and before each sample of one call, so that no call is charged for collecting the garbage an earlier
 * operation or call left in the old generation. Every operation gets the same treatment.
 */
export async function timeRound(
  tasks: readonly { readonly id: string; readonly op: PreparedOperation; readonly batch: number }[],
  settings: TimingSettings,
  collectBetween = false,
): Promise<Map<string, RoundResult>> {
  const out = new Map<string, RoundResult>();
  const collect = collectBetween ? collectGarbage : undefined;
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
      out.set(id, { ms: result.latency.p50 / batch });
    } else if (result.state === "errored") {
      out.set(id, { error: result.error.message.split("\n")[0]!.slice(0, 120) });
    } else {
      out.set(id, { error: `task ${result.state}` });
    }
  }
  return out;
}
