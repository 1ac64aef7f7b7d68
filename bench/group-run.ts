// Times one group of operations on one payload for several rounds. Runs in a
// child process of its own (see child.ts), so that the heap holds only this
// group's inputs: a large live heap from other payloads would slow every
// operation's garbage collection and blur the ratios.

import {
  type GroupName,
  NotAvailable,
  type OperationSpec,
  operations,
  PayloadInputs,
  type PreparedOperation,
} from "./operations.js";
import { describeError, type PackageApi } from "./package-api.js";
import type { Payload, PayloadName } from "./payloads.js";
import type { OperationResult } from "./report.js";
import {
  calibrateBatch,
  type TimingDesign,
  type TimingSettings,
  timeRoundAlternated,
  timeRoundSequential,
  warmUpAlternated,
} from "./timing.js";

/** Settings of the --quick smoke run: seconds in all. */
export const quickSettings: TimingSettings = Object.freeze({
  time: 5,
  iterations: 2,
  warmupTime: 1,
  warmupIterations: 1,
  minSampleMs: 0.2,
  processWarmupMs: 0,
});

/** Alternated settings of the full run on the payloads of up to 50 KB (S, M, Deep). */
const smallAlternated: TimingSettings = {
  time: 200,
  iterations: 40,
  warmupTime: 0,
  warmupIterations: 5,
  minSampleMs: 5,
  processWarmupMs: 1000,
};

/** Sequential settings of the full run on S, M and Deep. */
const smallSequential: TimingSettings = {
  time: 300,
  iterations: 10,
  warmupTime: 100,
  warmupIterations: 5,
  minSampleMs: 2,
  processWarmupMs: 0,
};

/** XL, either design: its calls take seconds, so three blocks of one call per round, warmed by the calibration's calls. */
const xlSettings: TimingSettings = {
  time: 1,
  iterations: 3,
  warmupTime: 0,
  warmupIterations: 0,
  minSampleMs: 1,
  processWarmupMs: 0,
};

/**
 * Settings of the full run, per payload and design. Alternated: blocks of at least 5 ms
 * on S, M and Deep (thousands of calls, several young generations each) and 40 or
 * more cycles per round; one call per block on L (tens of ms), at least 11 cycles: its
 * calls vary most (a major collection lands in one call or another).
 */
export const fullSettings: Readonly<
  Record<TimingDesign, Readonly<Record<PayloadName, TimingSettings>>>
> = Object.freeze({
  alternated: {
    S: smallAlternated,
    M: smallAlternated,
    Deep: smallAlternated,
    L: {
      time: 900,
      iterations: 11,
      warmupTime: 0,
      warmupIterations: 1,
      minSampleMs: 5,
      processWarmupMs: 1000,
    },
    XL: xlSettings,
  },
  sequential: {
    S: smallSequential,
    M: smallSequential,
    Deep: smallSequential,
    L: {
      time: 600,
      iterations: 5,
      warmupTime: 200,
      warmupIterations: 2,
      minSampleMs: 2,
      processWarmupMs: 0,
    },
    XL: xlSettings,
  },
});

/** What a group run reports back to the parent. */
export interface GroupRunResult {
  /** One entry per operation of the group that applies to the payload. */
  readonly results: OperationResult[];
  /** Round failures and notes about how inputs were built. */
  readonly notes: string[];
}

interface Slot {
  readonly result: OperationResult;
  readonly op: PreparedOperation | undefined;
}

/**
 * Prepares every operation of the group and checks one call of each. A baseline
 * that fails is a broken harness (thrown); one of ours that fails is a result.
 */
function prepareGroup(inputs: PayloadInputs, specs: readonly OperationSpec[]): Slot[] {
  const slots: Slot[] = [];
  for (const spec of specs) {
    if (!spec.payloads.includes(inputs.payload.name)) continue;
    let op: PreparedOperation | undefined;
    let unavailable: string | undefined;
    let checkProblem: string | undefined;
    try {
      op = spec.prepare(inputs);
      op.refill?.(1);
      checkProblem = op.check?.(op.call());
    } catch (e) {
      if (!spec.usesPackage) {
        throw new Error(
          `baseline ${spec.id} failed on ${inputs.payload.name}: ${describeError(e)}`,
        );
      }
      op = undefined;
      unavailable =
        e instanceof NotAvailable ? "n/a (not in the package yet)" : `error: ${describeError(e)}`;
    }
    if (checkProblem !== undefined && !spec.usesPackage) {
      throw new Error(`baseline ${spec.id} on ${inputs.payload.name}: ${checkProblem}`);
    }
    const result: OperationResult = {
      id: spec.id,
      label: spec.label,
      role: spec.role,
      group: spec.group,
      payload: inputs.payload.name,
      bytes: inputs.payload.bytes,
      unavailable,
      checkProblem,
      roundsMs: [],
      roundsCyclesMs: [],
    };
    slots.push({ op, result });
  }
  return slots;
}

/**
 * Times every operation of `group` (a group name, or one operation id for an
 * isolated measurement) on `payload`, `rounds` times, rotating the order each round,
 * with the given timing design. `firstRound`: the number of the first round (rounds
 * spread over several processes), which sets the order the operations start in.
 */
export async function runGroup(
  group: GroupName | string,
  payload: Payload,
  api: PackageApi,
  rounds: number,
  settings: TimingSettings,
  design: TimingDesign,
  log: (line: string) => void,
  firstRound = 0,
): Promise<GroupRunResult> {
  const inputs = new PayloadInputs(payload, api);
  const notes: string[] = [];
  const specs = operations.filter((o) => o.group === group || o.id === group);
  if (specs.length === 0) throw new Error(`no group or operation named ${group}`);
  const slots = prepareGroup(inputs, specs);
  const live = slots
    .filter((s) => s.op !== undefined)
    .map((s) => ({ ...s, batch: calibrateBatch(s.op!, settings.minSampleMs) }));
  const warmupMs = Number(process.env.BENCH_PROCESS_WARMUP_MS ?? settings.processWarmupMs);
  if (design === "alternated" && warmupMs > 0) {
    warmUpAlternated(
      live.map((s) => ({ id: s.result.id, op: s.op!, batch: s.batch })),
      warmupMs,
    );
    // Calls per block for the steady state the rounds measure.
    for (const s of live) s.batch = calibrateBatch(s.op!, settings.minSampleMs);
  }
  if (process.env.BENCH_SHOW_BATCH)
    process.stderr.write(`BATCH ${live.map((s) => `${s.result.id}=${s.batch}`).join(" ")}\n`);
  for (let round = firstRound; round < firstRound + rounds && live.length > 0; round++) {
    // No operation always runs first (cold caches) or last (a heap grown by the others).
    const order = live.map((_, i) => live[(i + round) % live.length]!);
    const tasks = order.map((s) => ({ id: s.result.id, op: s.op!, batch: s.batch }));
    const timed =
      design === "alternated"
        ? timeRoundAlternated(tasks, settings)
        : await timeRoundSequential(
            tasks,
            settings,
            specs.every((s) => s.group === "read"),
          );
    for (const s of live) {
      const t = timed.get(s.result.id);
      s.result.roundsMs.push(t !== undefined && "ms" in t ? t.ms : Number.NaN);
      s.result.roundsCyclesMs.push(t !== undefined && "ms" in t ? [...t.cyclesMs] : []);
      if (t !== undefined && "error" in t) {
        notes.push(`${s.result.label} on ${payload.name}, round ${round + 1}: ${t.error}`);
      }
    }
    log(`  ${payload.name} ${group}: round ${round + 1}`);
  }
  for (const n of inputs.notes) notes.push(`${payload.name}: ${n}`);
  return { results: slots.map((s) => s.result), notes };
}
