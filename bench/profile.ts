// Where the time goes: runs one operation in a loop under `node --cpu-prof` (in a
// child process) and prints the functions with the most self and total time.
// Usage: [BENCH_PACKAGE=bench/out/pkg/src/index.js] node --import tsx bench/profile.ts OP PAYLOAD [SECONDS] [--top N] [--quick] [--no-inlining]
//   e.g. node --import tsx bench/profile.ts structMessageFromJson L 8
// OP is an operation id from bench/operations.ts (structToJson, structMessageFromJson, verify,
// toJsonString, fromJsonString, ...). The .cpuprofile files (open them in Chrome DevTools)
// and a summary are written to bench/out/prof/.

import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runChild } from "./memory.js";
import { operationById } from "./operations.js";
import { type PayloadName, payloadNames } from "./payloads.js";

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** One function's share of the measured samples. */
export interface FunctionTime {
  /** Function name and location, e.g. "writeValue src/struct/to-json.ts:120". */
  readonly where: string;
  /** Share of the samples where it was on top of the stack. */
  readonly self: number;
  /** Share of the samples where it was anywhere on the stack. */
  readonly total: number;
}

function shortUrl(url: string): string {
  if (url === "") return "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm !== -1) return url.slice(nm + "node_modules/".length).replace(/\/dist\/(esm|cjs)\//, "/");
  const src = url.search(/\/(src|bench|gen)\//);
  return src === -1 ? url.replace(/^file:\/\//, "") : url.slice(src + 1);
}

function describe(f: CallFrame): string {
  // V8's own entries: "(garbage collector)", "(program)", "(root)", "(idle)".
  if (f.functionName.startsWith("(")) return f.functionName;
  const name = f.functionName === "" ? "(anonymous)" : f.functionName;
  // tsx compiles each .ts file to one line: only the file is worth showing.
  const line = f.url === "" || f.url.endsWith(".ts") ? "" : `:${f.lineNumber + 1}`;
  return `${name} ${shortUrl(f.url)}${line}`;
}

/**
 * Attributes the samples taken inside `measuredLoop` (and garbage collection
 * after the loop started) to functions. Setup and payload generation are left out.
 */
export function summariseProfile(profile: CpuProfile): {
  functions: FunctionTime[];
  samples: number;
} {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let measured = 0;
  let loopStarted = false;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(profile.samples[i]!)!;
    const stack: string[] = [];
    let inLoop = false;
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      if (f.functionName === "measuredLoop") inLoop = true;
      stack.push(describe(f));
    }
    loopStarted ||= inLoop;
    const gc = leaf.callFrame.functionName === "(garbage collector)";
    if (!inLoop && !(gc && loopStarted)) continue;
    measured += dt;
    self.set(stack[0]!, (self.get(stack[0]!) ?? 0) + dt);
    for (const key of new Set(stack)) total.set(key, (total.get(key) ?? 0) + dt);
  }
  const functions = [...total.keys()]
    .map((where) => ({
      where,
      self: (self.get(where) ?? 0) / measured,
      total: total.get(where)! / measured,
    }))
    .filter((f) => !["(root)", "measuredLoop"].some((n) => f.where.startsWith(n)));
  return { functions, samples: measured };
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

function render(title: string, rows: readonly FunctionTime[]): string {
  return [
    `#### ${title}`,
    "",
    "| function | self | total |",
    "| --- | --- | --- |",
    ...rows.map((f) => `| ${f.where.replace(/\|/g, "\\|")} | ${pct(f.self)} | ${pct(f.total)} |`),
    "",
  ].join("\n");
}

function main(): void {
  const args = process.argv.slice(2);
  const positional = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--top");
  const topAt = args.indexOf("--top");
  const top = topAt === -1 ? 20 : Number(args[topAt + 1]);
  const [opId, payloadName, secondsText] = positional;
  if (
    operationById(opId ?? "") === undefined ||
    !payloadNames.includes(payloadName as PayloadName)
  ) {
    throw new Error("usage: profile.ts OP PAYLOAD [SECONDS] [--top N] [--quick] [--no-inlining]");
  }
  const node = process.versions.node.split(".")[0];
  const dir = fileURLToPath(
    new URL(`./out/prof/${opId}-${payloadName}-node${node}/`, import.meta.url),
  );
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const scale = args.includes("--quick") ? "quick" : "full";
  const result = runChild(["loop", opId!, payloadName!, scale, secondsText ?? "5"], {
    nodeFlags: [
      "--cpu-prof",
      `--cpu-prof-dir=${dir}`,
      "--cpu-prof-interval=200",
      // Inlined callees count as their caller's self time; this splits them out (and slows everything).
      ...(args.includes("--no-inlining") ? ["--no-turbo-inlining"] : []),
    ],
  }) as { calls?: number; error?: string };
  if (result.error !== undefined) throw new Error(`${opId} on ${payloadName}: ${result.error}`);
  const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (file === undefined) throw new Error(`no .cpuprofile written to ${dir}`);
  const { functions, samples } = summariseProfile(
    JSON.parse(readFileSync(dir + file, "utf8")) as CpuProfile,
  );
  const bySelf = [...functions].sort((a, b) => b.self - a.self).slice(0, top);
  const ours = functions
    .filter((f) => / src\//.test(f.where))
    .sort((a, b) => b.total - a.total)
    .slice(0, top);
  const text = [
    `### Profile: ${opId} on ${payloadName}, Node ${process.version}${args.includes("--no-inlining") ? ", inlining off" : ""}: ${result.calls} calls, ${(samples / 1e6).toFixed(1)} s sampled`,
    "",
    render("Most self time (including native code and the garbage collector)", bySelf),
    render("The package's functions by total time", ours),
  ].join("\n");
  writeFileSync(`${dir}summary.md`, `${text}\n`);
  process.stdout.write(`${text}\nprofile: ${dir}${file}\n`);
}

try {
  main();
} catch (e) {
  process.stderr.write(`profile: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
}
