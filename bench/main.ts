// The benchmark harness (issue 6): `npm run bench` for the full run, `npm run bench -- --quick`
// for a smoke run. Prints the ratio tables and the target checklist as Markdown, and
// writes them (and the raw numbers as JSON) to bench/out/.
//
// Options:
//   --quick            tiny payloads, one short round; checks the harness works, nothing about speed
//   --rounds N         timing rounds (default 5; XL runs at most 3)
//   --payloads S,M,..  only these payloads (default S,M,L,XL,Deep)
//   --no-memory        skip the peak-memory child processes
//   --built            measure the package compiled by tsc (to bench/out/pkg/) instead of src/
//                      through tsx, whose keepNames wrappers cost a little per closure created
//   --groups write,..  only these groups (default write,read,schema,numbers; numbers: M with
//                      its fractional numbers changed in every call); the scaling table runs
//                      only with every group, L and XL
//   --processes N      spread each group's rounds over N child processes (default 1), so that
//                      the spread includes how the JIT settled in each process
//   --timing DESIGN    alternated (default: blocks of each operation in turn, a scavenge
//                      before each) or sequential (the design before issue 16, to compare);
//                      see bench/timing.ts
//
// Environment: BENCH_SHOW_BATCH=1 prints each group's calls per block (bench/timing.ts
// calibrateBatch) to stderr; BENCH_PROCESS_WARMUP_MS=N sets the untimed warm-up before a
// process's first round (default 1000 ms on S, M, L and Deep; bench/timing.ts warmUpAlternated).
//
// Exit status: 0 when the harness ran, whatever the figures; 1 when the harness itself
// broke (a baseline failed, a child process crashed, an exception escaped).

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import type { GroupRunResult } from "./group-run.js";
import { type MemoryResult, measureMemory, runChild } from "./memory.js";
import { type GroupName, operations } from "./operations.js";
import { loadPackageApi, type PackageApi, packageSource } from "./package-api.js";
import { type PayloadName, payloadNames } from "./payloads.js";
import { type OperationResult, type RunResults, renderReport } from "./report.js";
import { type TimingDesign, timingDesigns } from "./timing.js";

const groupNames: readonly GroupName[] = ["write", "read", "schema", "numbers"];

interface CliOptions {
  readonly quick: boolean;
  readonly rounds: number;
  readonly payloads: readonly PayloadName[];
  readonly memory: boolean;
  readonly built: boolean;
  readonly groups: readonly GroupName[];
  readonly timing: TimingDesign;
  readonly processes: number;
}

function parseArgs(argv: readonly string[]): CliOptions {
  let quick = false;
  let rounds: number | undefined;
  let payloads: PayloadName[] = [...payloadNames];
  let memory = true;
  let built = false;
  let groups: GroupName[] = [...groupNames];
  let timing: TimingDesign = timingDesigns[0]!;
  let processes = 1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--quick") quick = true;
    else if (a === "--no-memory") memory = false;
    else if (a === "--built") built = true;
    else if (a === "--rounds") rounds = Number(argv[++i]);
    else if (a === "--processes") processes = Number(argv[++i]);
    else if (a === "--timing") {
      timing = (argv[++i] ?? "") as TimingDesign;
      if (!timingDesigns.includes(timing))
        throw new Error(`unknown timing ${timing} (have ${timingDesigns.join(",")})`);
    } else if (a === "--groups") {
      groups = (argv[++i] ?? "").split(",") as GroupName[];
      for (const g of groups) {
        if (!groupNames.includes(g))
          throw new Error(`unknown group ${g} (have ${groupNames.join(",")})`);
      }
    } else if (a === "--payloads") {
      payloads = (argv[++i] ?? "").split(",") as PayloadName[];
      for (const p of payloads) {
        if (!payloadNames.includes(p))
          throw new Error(`unknown payload ${p} (have ${payloadNames.join(",")})`);
      }
    } else throw new Error(`unknown option ${a}`);
  }
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 1)) {
    throw new Error("--rounds needs a positive integer");
  }
  if (!(Number.isInteger(processes) && processes >= 1)) {
    throw new Error("--processes needs a positive integer");
  }
  return {
    quick,
    rounds: rounds ?? (quick ? 1 : 5),
    payloads,
    memory,
    built,
    groups,
    timing,
    processes: Math.min(processes, rounds ?? (quick ? 1 : 5)),
  };
}

/** The operations timed alone on L and XL for the scaling table. */
const scalingOperationIds = [
  "structToJson",
  "toJsonString",
  "JSON.stringify",
  "structMessageFromJson",
  "verify",
  "fromJsonString",
  "JSON.parse",
];

/** The operations measured for peak memory, on L. */
const memoryOperationIds = [
  "structToJson",
  "toJsonString",
  "JSON.stringify",
  "structMessageFromJson",
  "verify",
  "fromJsonString",
  "JSON.parse",
];

function environment(api: PackageApi, opts: CliOptions): string[] {
  const have = (
    [
      "structToJson",
      "jsonObjectToJson",
      "compileSchema",
      "structMessageFromJson",
      "toolCallFromJson",
      "toolCallToJson",
    ] as const
  )
    .map((n) => `${n} ${api[n] === undefined ? "✗" : "✓"}`)
    .join(", ");
  return [
    `Node ${process.version} (V8 ${process.versions.v8}), JSON.rawJSON ${typeof (JSON as { rawJSON?: unknown }).rawJSON === "function" ? "available" : "not available"}`,
    `${cpus()[0]?.model ?? "unknown CPU"}, ${availableParallelism()} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `load average at start: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
    `package from ${packageSource()}: ${api.loadError === undefined ? have : `did not load (${api.loadError})`}`,
    `rounds: ${opts.rounds} (XL: at most 3) in ${opts.processes} process${opts.processes === 1 ? "" : "es"} per group; payloads: ${opts.payloads.join(", ")}; groups: ${opts.groups.join(", ")}`,
    opts.timing === "alternated"
      ? "timing: alternated blocks (each operation in turn, order reversed every cycle, a scavenge outside the timing before each block); a round's ratio is the median of the ratios of blocks in the same cycle"
      : "timing: sequential (each operation timed by tinybench for its whole budget, one after the other; the design before issue 16)",
  ];
}

/**
 * Times one group on one payload, its rounds spread as evenly as they go over
 * `opts.processes` child processes; merges their rounds in order.
 */
function timeGroup(
  group: GroupName,
  payload: PayloadName,
  scale: "quick" | "full",
  opts: CliOptions,
): GroupRunResult {
  let merged: GroupRunResult | undefined;
  for (let p = 0, first = 0; p < opts.processes; p++) {
    const rounds = Math.floor(((p + 1) * opts.rounds) / opts.processes) - first;
    const run = runChild(
      ["time", group, payload, scale, String(rounds), opts.timing, String(first)],
      { showProgress: true },
    ) as GroupRunResult;
    first += rounds;
    if (merged === undefined) {
      merged = run;
      continue;
    }
    for (const [i, r] of run.results.entries()) {
      const into = merged.results[i]!;
      into.roundsMs.push(...r.roundsMs);
      into.roundsCyclesMs.push(...r.roundsCyclesMs);
    }
    for (const n of run.notes) if (!merged.notes.includes(n)) merged.notes.push(n);
  }
  return merged!;
}

/** Compiles the package with tsc to bench/out/pkg/ and points the children at it (BENCH_PACKAGE). */
function buildPackage(): void {
  const root = fileURLToPath(new URL("../", import.meta.url));
  const outDir = fileURLToPath(new URL("./out/pkg/", import.meta.url));
  rmSync(outDir, { recursive: true, force: true });
  // tsc emits even when some file does not typecheck (other work in progress): only missing output is fatal.
  spawnSync(
    process.execPath,
    [
      `${root}node_modules/typescript/bin/tsc`,
      "-p",
      `${root}tsconfig.build.json`,
      "--outDir",
      outDir,
    ],
    { stdio: "ignore" },
  );
  const index = `${outDir}src/index.js`;
  if (!existsSync(index)) throw new Error(`tsc did not write ${index}`);
  process.env.BENCH_PACKAGE = index;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.built) buildPackage();
  const api = await loadPackageApi();
  const env = environment(api, opts);
  const notes: string[] = [];
  const log = (s: string) => process.stderr.write(`${s}\n`);
  log(env.join("\n"));
  const started = performance.now();
  const results: OperationResult[] = [];
  const scaling: OperationResult[] = [];
  const scale = opts.quick ? "quick" : "full";
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  // XL only serves the scaling table.
  for (const name of opts.payloads.filter((p) => p !== "XL")) {
    for (const group of opts.groups) {
      if (!operations.some((o) => o.group === group && o.payloads.includes(name))) continue;
      const run = timeGroup(group, name, scale, opts);
      results.push(...run.results);
      notes.push(...run.notes);
      log(`${name} ${group} done (${elapsed()})`);
    }
  }
  // Scaling: each operation alone in its process, so that neither payload's time includes
  // collecting garbage among other operations' inputs (a heap of XL inputs is about 1 GB).
  if (
    opts.payloads.includes("L") &&
    opts.payloads.includes("XL") &&
    groupNames.every((g) => opts.groups.includes(g))
  ) {
    // --quick checks the machinery once, not every operation (the groups ran them all).
    for (const id of opts.quick ? scalingOperationIds.slice(0, 2) : scalingOperationIds) {
      for (const name of ["L", "XL"] as const) {
        // XL calls take seconds: three rounds give a median.
        const rounds = name === "XL" ? Math.min(opts.rounds, 3) : opts.rounds;
        const run = runChild(["time", id, name, scale, String(rounds), opts.timing], {
          showProgress: true,
        }) as GroupRunResult;
        scaling.push(...run.results);
        notes.push(...run.notes.map((n) => `scaling: ${n}`));
      }
      log(`scaling ${id} done (${elapsed()})`);
    }
  }

  const memory: Record<string, MemoryResult> = {};
  if (opts.memory && opts.payloads.includes("L")) {
    const reps = opts.quick ? 1 : 3;
    for (const id of opts.quick ? memoryOperationIds.slice(0, 2) : memoryOperationIds) {
      const m = measureMemory(id, "L", opts.quick ? "quick" : "full", reps);
      if ("error" in m && operations.find((o) => o.id === id)?.usesPackage === false) {
        throw new Error(`memory of baseline ${id}: ${m.error}`);
      }
      memory[id] = m;
      log(
        `  memory ${id}: ${"error" in m ? m.error : `heap ${m.heapMiB.toFixed(1)} MiB, RSS ${m.rssMiB.toFixed(1)} MiB`}`,
      );
    }
    if (Object.values(memory).some((m) => "rssMethod" in m && m.rssMethod === "maxRSS")) {
      notes.push("RSS peaks from maxRSS (VmHWM could not be reset): a lower bound");
    }
  }
  env.push(
    `load average at end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}; wall time ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  const run: RunResults = {
    environment: env,
    quick: opts.quick,
    operations: results,
    scaling,
    memory,
    notes,
  };
  const report = renderReport(run);
  process.stdout.write(`${report}\n`);
  const outDir = fileURLToPath(new URL("./out/", import.meta.url));
  mkdirSync(outDir, { recursive: true });
  const stem = `${opts.quick ? "quick" : "full"}-node${process.versions.node.split(".")[0]}${opts.timing === "alternated" ? "" : `-${opts.timing}`}`;
  writeFileSync(`${outDir}${stem}.md`, `${report}\n`);
  writeFileSync(`${outDir}${stem}.json`, `${JSON.stringify(run, null, 2)}\n`);
  log(`written: bench/out/${stem}.md and .json`);
}

try {
  await main();
} catch (e) {
  process.stderr.write(
    `bench: harness failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exitCode = 1;
}
