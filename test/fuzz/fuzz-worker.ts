// The fuzz loop, in a worker thread so that the runner can stop it when a case
// hangs (a synchronous loop cannot be interrupted from its own thread). Before
// each case the worker publishes (target, iteration) in shared memory.
import { parentPort, workerData } from "node:worker_threads";
import { buildCase, runCase, TARGETS, type TargetName } from "./cases.js";
import { corpus } from "./corpus.js";
import type { Tally } from "./targets.js";

/** What the runner passes to the worker. */
export interface WorkerInput {
  readonly targets: readonly TargetName[];
  readonly seed: number;
  readonly start: number;
  /**
   * How long each target runs: a fixed number of cases (the same cases on every
   * machine: what CI uses), or a time counted after the worker has warmed up.
   */
  readonly budget: { readonly iterations: number } | { readonly msPerTarget: number };
  /**
   * Go on after a finding rather than stop: the first {@link SHOWN_PER_KIND}
   * findings of each kind are reported in full, the rest only counted.
   */
  readonly keepGoing: boolean;
  /** Int32Array over a SharedArrayBuffer: [0] = target index (-1 while warming up), [1] = iteration. */
  readonly progress: SharedArrayBuffer;
}

/** What the worker sends back. */
export type WorkerMessage =
  | {
      readonly type: "finding";
      readonly target: TargetName;
      readonly iteration: number;
      readonly kind: string;
      readonly detail: string;
    }
  | {
      readonly type: "done";
      /** Findings by kind: how many, and the first iteration of each. */
      readonly findings: Readonly<Record<string, { count: number; first: number }>>;
      readonly target: TargetName;
      readonly iterations: number;
      readonly ms: number;
      readonly tally: Tally;
    };

/** Findings of one kind reported in full per target with keepGoing; the rest are counted. */
const SHOWN_PER_KIND = 3;

const input = workerData as WorkerInput;
const progress = new Int32Array(input.progress);
corpus(); // warm-up (builds the seeds) before any clock starts
for (const target of input.targets) {
  Atomics.store(progress, 0, TARGETS.indexOf(target));
  const tally: Tally = {};
  const started = Date.now();
  const budget = input.budget;
  const more =
    "iterations" in budget
      ? (i: number) => i < input.start + budget.iterations
      : (_: number) => Date.now() < started + budget.msPerTarget;
  let i = input.start;
  const findings: Record<string, { count: number; first: number }> = {};
  let stop = false;
  for (; more(i); i++) {
    Atomics.store(progress, 1, i);
    const finding = runCase(buildCase(target, input.seed, i), tally);
    if (finding === undefined) continue;
    const seen = findings[finding.kind] ?? { count: 0, first: i };
    findings[finding.kind] = seen;
    if (++seen.count <= SHOWN_PER_KIND)
      parentPort!.postMessage({
        type: "finding",
        target,
        iteration: i,
        ...finding,
      } satisfies WorkerMessage);
    if (!input.keepGoing) {
      stop = true;
      break;
    }
  }
  if (stop) break;
  parentPort!.postMessage({
    type: "done",
    target,
    findings,
    iterations: i - input.start,
    ms: Date.now() - started,
    tally,
  } satisfies WorkerMessage);
}
