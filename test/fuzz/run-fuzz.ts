// `npm run fuzz -- [--iterations N | --seconds 60] --seed N [--target protobuf|json|all]
// [--timeout-ms 30000] [--keep-going]`: a seeded fuzz run. Each case is a pure
// function of (seed, target, iteration).
//   --iterations N  runs cases start..start+N-1 of each target: the same cases on
//                   every machine, so the verdict does not depend on speed (CI).
//   --seconds S     runs each target for S / targets seconds: for long runs by hand
//                   (the default, 60 s, when neither is given).
// The loop runs in a worker thread that is stopped when one case takes longer than
// --timeout-ms (a hang: a generous wall-clock guard, not a speed check). Exits 1 on
// the first finding (with --keep-going: at the end, having shown the first three of
// each kind and counted the rest) and prints the command that replays it:
// `npm run fuzz -- --seed N --target T --iteration K` runs that one case here,
// in this thread, and prints the error with its stack.
import { Worker } from "node:worker_threads";
import { buildCase, describeCase, runCase, TARGETS, type TargetName } from "./cases.js";
import type { WorkerInput, WorkerMessage } from "./fuzz-worker.js";
import type { Tally } from "./targets.js";

interface Options {
  /** Cases per target; undefined for a time-boxed run. */
  iterations: number | undefined;
  seconds: number;
  keepGoing: boolean;
  seed: number;
  targets: TargetName[];
  timeoutMs: number;
  iteration: number | undefined;
  start: number;
}

function usage(message: string): never {
  console.error(`fuzz: ${message}`);
  console.error(
    "usage: npm run fuzz -- [--iterations N | --seconds 60] [--seed N] [--target protobuf|json|all] [--timeout-ms 30000] [--start I] [--keep-going] [--iteration K]",
  );
  process.exit(2);
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = {
    iterations: undefined,
    seconds: 60,
    keepGoing: false,
    seed: 1,
    targets: [...TARGETS],
    timeoutMs: 30_000,
    iteration: undefined,
    start: 0,
  };
  let timed = false;
  for (let k = 0; k < argv.length; k += 2) {
    const name = argv[k];
    if (name === "--keep-going") {
      o.keepGoing = true;
      k--;
      continue;
    }
    const value = argv[k + 1];
    if (value === undefined) usage(`${name} needs a value`);
    const n = Number(value);
    const int = () => {
      if (!Number.isSafeInteger(n) || n < 0) usage(`${name} must be a non-negative integer`);
      return n;
    };
    switch (name) {
      case "--seconds":
        if (!(n > 0)) usage("--seconds must be positive");
        o.seconds = n;
        timed = true;
        break;
      case "--iterations":
        if (!(int() > 0)) usage("--iterations must be positive");
        o.iterations = n;
        break;
      case "--seed":
        o.seed = int() >>> 0;
        break;
      case "--target":
        if (value === "all") o.targets = [...TARGETS];
        else if ((TARGETS as readonly string[]).includes(value)) o.targets = [value as TargetName];
        else usage(`unknown target ${value}`);
        break;
      case "--timeout-ms":
        o.timeoutMs = int();
        break;
      case "--iteration":
        o.iteration = int();
        break;
      case "--start":
        o.start = int();
        break;
      default:
        usage(`unknown option ${name}`);
    }
  }
  if (timed && o.iterations !== undefined) usage("give --iterations or --seconds, not both");
  return o;
}

function report(
  target: TargetName,
  seed: number,
  iteration: number,
  kind: string,
  detail: string,
): void {
  console.error(`\nFINDING in target ${target} (seed ${seed}, iteration ${iteration}): ${kind}`);
  if (detail !== "") console.error(detail);
  console.error(`reproduce: ${describeCase(buildCase(target, seed, iteration), seed, iteration)}`);
}

/** Warm-up allowance before the first case (tsx compiling the worker, building the corpus). */
const WARM_UP_MS = 60_000;

/** Runs the targets in one worker thread; true when nothing was found. */
function fuzz(o: Options): Promise<boolean> {
  const progress = new SharedArrayBuffer(8);
  const current = new Int32Array(progress);
  Atomics.store(current, 0, -1);
  const input: WorkerInput = {
    targets: o.targets,
    seed: o.seed,
    start: o.start,
    budget:
      o.iterations !== undefined
        ? { iterations: o.iterations }
        : { msPerTarget: (o.seconds * 1000) / o.targets.length },
    keepGoing: o.keepGoing,
    progress,
  };
  const worker = new Worker(new URL("./fuzz-worker.mjs", import.meta.url), {
    workerData: input,
    resourceLimits: { maxOldGenerationSizeMb: 3072, stackSizeMb: 4 },
  });
  const where = () => {
    const t = Atomics.load(current, 0);
    return {
      target: TARGETS[Math.max(0, t)]!,
      iteration: Atomics.load(current, 1),
      started: t >= 0,
    };
  };
  return new Promise((resolve) => {
    let last = "";
    let lastChange = Date.now();
    let remaining = o.targets.length;
    let findings = 0;
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      resolve(ok);
    };
    const watchdog = setInterval(() => {
      const w = where();
      const key = `${w.started}/${w.target}/${w.iteration}`;
      if (key !== last) {
        last = key;
        lastChange = Date.now();
      } else if (Date.now() - lastChange > (w.started ? o.timeoutMs : WARM_UP_MS)) {
        if (w.started)
          report(
            w.target,
            o.seed,
            w.iteration,
            "hang",
            `one case ran longer than ${o.timeoutMs} ms`,
          );
        else console.error(`fuzz: the worker did not start within ${WARM_UP_MS} ms`);
        void worker.terminate();
        finish(false);
      }
    }, 100);
    worker.on("message", (m: WorkerMessage) => {
      if (m.type === "finding") {
        report(m.target, o.seed, m.iteration, m.kind, m.detail);
        if (!o.keepGoing) {
          void worker.terminate();
          finish(false);
        }
        return;
      }
      const found = Object.entries(m.findings);
      findings += found.length;
      const secs = m.ms / 1000;
      const range = m.iterations === 0 ? "none" : `${o.start}–${o.start + m.iterations - 1}`;
      console.log(
        `${m.target}: ${m.iterations} cases in ${secs.toFixed(1)} s (${Math.round(m.iterations / secs)}/s), iterations ${range}, ${found.length === 0 ? "no findings" : "FINDINGS"}`,
      );
      console.log(`  ${formatTally(m.tally)}`);
      for (const [kind, f] of found)
        console.log(`  finding ${kind}: ${f.count} case(s), first at iteration ${f.first}`);
      if (--remaining === 0) finish(findings === 0);
    });
    worker.on("error", (e) => {
      const w = where();
      report(
        w.target,
        o.seed,
        w.iteration,
        "worker crashed",
        e instanceof Error ? (e.stack ?? e.message) : String(e),
      );
      finish(false);
    });
    worker.on("exit", (code) => {
      if (!settled) {
        const w = where();
        report(
          w.target,
          o.seed,
          w.iteration,
          "worker exited",
          `exit code ${code} (out of memory?)`,
        );
        finish(false);
      }
    });
  });
}

function formatTally(t: Tally): string {
  return Object.entries(t)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}: ${v}`)
    .join(", ");
}

/** Replays one case in this thread, printing what happened. */
function replay(o: Options): boolean {
  const target = o.targets.length === 1 ? o.targets[0]! : usage("--iteration needs --target");
  const input = buildCase(target, o.seed, o.iteration!);
  console.log(describeCase(input, o.seed, o.iteration!));
  const tally: Tally = {};
  const started = performance.now();
  const finding = runCase(input, tally);
  console.log(`ran in ${Math.round(performance.now() - started)} ms: ${formatTally(tally)}`);
  if (finding === undefined) {
    console.log("no finding");
    return true;
  }
  console.error(`FINDING: ${finding.kind}\n${finding.detail}`);
  return false;
}

const options = parseOptions(process.argv.slice(2));
let ok = true;
if (options.iteration !== undefined) {
  ok = replay(options);
} else {
  console.log(
    `fuzz: seed ${options.seed}, ${options.iterations !== undefined ? `${options.iterations} cases per target` : `${options.seconds} s`} over ${options.targets.join(", ")}, hang bound ${options.timeoutMs} ms`,
  );
  ok = await fuzz(options);
}
process.exitCode = ok ? 0 : 1;
