// Peak memory per operation, each call in a fresh child process (--expose-gc),
// so that one operation's heap growth cannot hide or inflate another's.

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { MemoryReport } from "./child.js";
import type { PayloadName } from "./payloads.js";
import { median } from "./timing.js";

/** Peak growth of one call, median over the repetitions (MiB), or why it is missing. */
export type MemoryResult =
  | { readonly heapMiB: number; readonly rssMiB: number; readonly rssMethod: string }
  | { readonly error: string };

const childPath = fileURLToPath(new URL("./child.ts", import.meta.url));

/** How to start a child: extra Node flags, and whether its stderr (progress) goes to ours. */
export interface ChildOptions {
  /** Node flags besides the loader flags of this process and --expose-gc. */
  readonly nodeFlags?: readonly string[];
  /** Pass the child's stderr through (progress lines) instead of capturing it for errors. */
  readonly showProgress?: boolean;
}

/** Runs `node [this process's loader flags] --expose-gc bench/child.ts ARGS`; returns its last stdout line, parsed. */
export function runChild(args: readonly string[], options: ChildOptions = {}): unknown {
  const r = spawnSync(
    process.execPath,
    [...process.execArgv, "--expose-gc", ...(options.nodeFlags ?? []), childPath, ...args],
    {
      encoding: "utf8",
      maxBuffer: 64 << 20,
      stdio: ["ignore", "pipe", options.showProgress === true ? "inherit" : "pipe"],
    },
  );
  if (r.status !== 0) {
    const tail = (r.stderr ?? "").trim().split("\n").slice(-3).join(" | ");
    throw new Error(
      `child ${args.join(" ")} exited with ${r.status ?? r.signal}${tail === "" ? "" : `: ${tail}`}`,
    );
  }
  const line = r.stdout.trim().split("\n").pop() ?? "";
  return JSON.parse(line) as unknown;
}

/** Measures the peak heap and RSS growth of one call of `opId` on `payload`, `reps` times in fresh processes. */
export function measureMemory(
  opId: string,
  payload: PayloadName,
  scale: "quick" | "full",
  reps: number,
): MemoryResult {
  const heap: number[] = [];
  const rss: number[] = [];
  let rssMethod = "";
  for (let i = 0; i < reps; i++) {
    const report = runChild(["memory", opId, payload, scale]) as MemoryReport;
    if ("error" in report) return { error: report.error };
    heap.push(Math.max(0, report.heapPeak - report.heapBase) / 2 ** 20);
    rss.push(Math.max(0, report.rssPeakKiB - report.rssBaseKiB) / 1024);
    rssMethod = report.rssMethod;
  }
  return { heapMiB: median(heap), rssMiB: median(rss), rssMethod };
}
