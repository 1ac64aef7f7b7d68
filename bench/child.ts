// The child process of the harness: every measurement runs in a fresh process,
// so that no payload's inputs or garbage sit in another measurement's heap.
//   time GROUP PAYLOAD SCALE ROUNDS [DESIGN [FIRST]]  times a group (ratios are within one
//                                    child), or one operation alone when GROUP is an operation id;
//                                    DESIGN is a timing design of timing.ts (default: alternated),
//                                    FIRST the number of the first round (default 0)
//   memory OP PAYLOAD SCALE          the peak RSS growth of one call (Linux: VmHWM reset just before it)
//   loop OP PAYLOAD SCALE SECONDS    calls in a loop, for `node --cpu-prof`
// SCALE is "quick" or "full". Prints one JSON line on stdout; progress goes to stderr.

import { readFileSync, writeFileSync } from "node:fs";
import { GCProfiler, getHeapStatistics } from "node:v8";
import { fullSettings, quickSettings, runGroup } from "./group-run.js";
import {
  NotAvailable,
  operationById,
  PayloadInputs,
  type PreparedOperation,
} from "./operations.js";
import { describeError, loadPackageApi } from "./package-api.js";
import { fullScale, makePayload, type PayloadName, payloadNames, quickScale } from "./payloads.js";
import { consume, type TimingDesign, timingDesigns } from "./timing.js";

/**
 * What a memory child reports, or why it could not measure. Heap: V8's used heap
 * (live objects and garbage not yet collected) just before each GC during the call
 * and after it, from v8.GCProfiler: exact, since usage only falls at a GC. RSS: the
 * kernel's high-water mark (Linux VmHWM, reset just before the call), which
 * under-reports when the heap already has committed free pages.
 */
export type MemoryReport =
  | {
      readonly heapBase: number;
      readonly heapPeak: number;
      readonly gcs: number;
      readonly rssBaseKiB: number;
      readonly rssPeakKiB: number;
      readonly rssMethod: "VmHWM" | "maxRSS";
    }
  | { readonly error: string };

/** Holds the last result, so that it stays alive until after the reading. */
export let lastResult: unknown;

function statusKiB(field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"));
    return m === null ? undefined : Number(m[1]);
  } catch {
    return undefined;
  }
}

/** Resets the kernel's peak-RSS counter (Linux ≥ 4.0); false where that is not possible. */
function resetPeak(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error("run with --expose-gc");
  gc();
  gc();
}

/**
 * Calls the operation for `seconds`. profile.ts counts the CPU samples under this
 * function (by its name), so setup and payload generation stay out of the profile.
 */
function measuredLoop(
  op: PreparedOperation,
  seconds: number,
): { calls: number; undefinedResults: number } {
  const until = performance.now() + 1000 * seconds;
  let calls = 0;
  let undefinedResults = 0;
  while (performance.now() < until) {
    op.refill?.(1);
    // Not kept alive: see timing.ts on why holding results skews the figures.
    const result = op.call();
    if (result === undefined) undefinedResults++;
    consume(result);
    calls++;
  }
  return { calls, undefinedResults };
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function main(): Promise<void> {
  const [mode, what, payloadName, scaleName, count, designName, firstRound] = process.argv.slice(2);
  const design = (designName ?? timingDesigns[0]) as TimingDesign;
  if (
    !payloadNames.includes(payloadName as PayloadName) ||
    (scaleName !== "quick" && scaleName !== "full") ||
    !timingDesigns.includes(design)
  ) {
    throw new Error(
      `usage: child.ts time|memory|loop GROUP|OP PAYLOAD quick|full [N] [${timingDesigns.join("|")}]; got ${process.argv.slice(2).join(" ")}`,
    );
  }
  const name = payloadName as PayloadName;
  const payload = makePayload(name, scaleName === "quick" ? quickScale : fullScale);
  const api = await loadPackageApi();
  if (mode === "time") {
    const settings = scaleName === "quick" ? quickSettings : fullSettings[design][name];
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const rounds = Number(count ?? "1");
    const first = Number(firstRound ?? "0");
    print(await runGroup(what ?? "", payload, api, rounds, settings, design, log, first));
    return;
  }
  const spec = operationById(what ?? "");
  if (spec === undefined || (mode !== "memory" && mode !== "loop"))
    throw new Error(`unknown mode or operation: ${mode} ${what}`);
  const inputs = new PayloadInputs(payload, api);
  let op: PreparedOperation;
  try {
    op = spec.prepare(inputs);
    op.refill?.(1);
    lastResult = op.call(); // warm: compiles the code and any lazy schema state
  } catch (e) {
    print({
      error:
        e instanceof NotAvailable ? "n/a (not in the package yet)" : `error: ${describeError(e)}`,
    });
    return;
  }
  if (mode === "loop") {
    lastResult = undefined;
    print(measuredLoop(op, Number(count ?? "5")));
    return;
  }
  lastResult = undefined;
  op.refill?.(1);
  collectGarbage();
  const rssBase = statusKiB("VmRSS");
  const useHwm = rssBase !== undefined && resetPeak();
  const maxRssBefore = process.resourceUsage().maxRSS;
  const heapBase = getHeapStatistics().used_heap_size;
  const profiler = new GCProfiler();
  profiler.start();
  lastResult = op.call();
  consume(lastResult); // a rope's flat copy is part of what the call costs
  const heapEnd = getHeapStatistics().used_heap_size;
  const gcStats = profiler.stop()?.statistics ?? [];
  const rssPeak = useHwm ? statusKiB("VmHWM") : process.resourceUsage().maxRSS;
  const report: MemoryReport = {
    heapBase,
    heapPeak: Math.max(heapEnd, ...gcStats.map((g) => g.beforeGC.heapStatistics.usedHeapSize)),
    gcs: gcStats.length,
    rssBaseKiB: useHwm ? rssBase : maxRssBefore,
    rssPeakKiB: rssPeak ?? maxRssBefore,
    rssMethod: useHwm ? "VmHWM" : "maxRSS",
  };
  print(report);
}

await main();
