// Turns raw measurements into the ratio tables and the target checklist. Every
// speed figure is a ratio against a baseline timed in the same round, paired
// cycle by cycle within a round (alternated timing, see timing.ts) and round by
// round, then the median over rounds (the spread shows the noise).

import type { MemoryResult } from "./memory.js";
import type { GroupName, Role } from "./operations.js";
import type { PayloadName } from "./payloads.js";
import { median } from "./timing.js";

/** The measurements of one operation on one payload. */
export interface OperationResult {
  /** Operation id (see operations.ts). */
  readonly id: string;
  /** Report label. */
  readonly label: string;
  /** Ours, baseline or reference. */
  readonly role: Role;
  /** Its group. */
  readonly group: GroupName;
  /** The payload. */
  readonly payload: PayloadName;
  /** UTF-8 bytes of the payload's JSON text. */
  readonly bytes: number;
  /** "n/a" (not exported yet) or an error description; undefined when it ran. */
  readonly unavailable: string | undefined;
  /** A problem the output check found (the operation was still timed). */
  readonly checkProblem: string | undefined;
  /** Median ms per call in each round; NaN where that round failed. */
  readonly roundsMs: number[];
  /**
   * Per round, the ms per call of this operation's block in each cycle (alternated
   * timing, bench/timing.ts); empty for a round timed sequentially or that failed.
   */
  readonly roundsCyclesMs: number[][];
}

/** Everything one run produced. */
export interface RunResults {
  /** The run's environment, one line per fact. */
  readonly environment: readonly string[];
  /** True for a --quick smoke run (figures are not meaningful). */
  readonly quick: boolean;
  /** Timing results, each group in one process (the ratio tables). */
  readonly operations: readonly OperationResult[];
  /** Timing results on L and XL, each operation alone in its process (the scaling table). */
  readonly scaling: readonly OperationResult[];
  /** Peak RSS growth per operation on L. */
  readonly memory: Readonly<Record<string, MemoryResult>>;
  /** Anything worth knowing that is not a number. */
  readonly notes: readonly string[];
}

/** A ratio with its spread over rounds. */
export interface Ratio {
  /** Median over rounds. */
  readonly value: number;
  /** Smallest round. */
  readonly min: number;
  /** Largest round. */
  readonly max: number;
}

function find(r: RunResults, id: string, payload: PayloadName): OperationResult | undefined {
  return r.operations.find((o) => o.id === id && o.payload === payload);
}

/** Median ms per call, NaN when not measured; from the scaling runs when `isolated`. */
export function medianMs(
  r: RunResults,
  id: string,
  payload: PayloadName,
  isolated = false,
): number {
  const o = (isolated ? r.scaling : r.operations).find((x) => x.id === id && x.payload === payload);
  return o === undefined || o.unavailable !== undefined ? Number.NaN : median(o.roundsMs);
}

/**
 * One round's ratio of `a`'s time over `b`'s. Alternated rounds: the median over
 * the cycles of the ratio of the two blocks in the same cycle, which ran a few ms
 * apart and so at the same machine speed. Sequential rounds: the ratio of the
 * two operations' round medians.
 */
function roundRatio(a: OperationResult, b: OperationResult, round: number): number {
  const ca = a.roundsCyclesMs[round] ?? [];
  const cb = b.roundsCyclesMs[round] ?? [];
  if (ca.length > 0 && ca.length === cb.length) return median(ca.map((x, c) => x / cb[c]!));
  return a.roundsMs[round]! / b.roundsMs[round]!;
}

/**
 * `numerator`'s time over `denominator`'s, paired round by round (and, alternated,
 * cycle by cycle within a round). With the baseline as numerator this is the
 * throughput ratio (> 1: ours is faster).
 */
export function timeRatio(
  r: RunResults,
  numeratorId: string,
  denominatorId: string,
  payload: PayloadName,
): Ratio | undefined {
  const a = find(r, numeratorId, payload);
  const b = find(r, denominatorId, payload);
  if (
    a === undefined ||
    b === undefined ||
    a.unavailable !== undefined ||
    b.unavailable !== undefined
  ) {
    return undefined;
  }
  const per: number[] = [];
  for (let i = 0; i < Math.min(a.roundsMs.length, b.roundsMs.length); i++) {
    const q = roundRatio(a, b, i);
    if (Number.isFinite(q)) per.push(q);
  }
  if (per.length === 0) return undefined;
  return { value: median(per), min: Math.min(...per), max: Math.max(...per) };
}

const fmtNumber = (x: number): string =>
  x >= 10 ? x.toFixed(1) : x >= 0.1 ? x.toFixed(2) : x.toPrecision(2);

const fmtRatio = (q: Ratio | undefined): string =>
  q === undefined
    ? "n/a"
    : q.min === q.max
      ? `${fmtNumber(q.value)}×`
      : `${fmtNumber(q.value)}× [${fmtNumber(q.min)}–${fmtNumber(q.max)}]`;

function fmtMBps(r: RunResults, id: string, payload: PayloadName): string {
  const o = find(r, id, payload);
  if (o === undefined) return "–";
  if (o.unavailable !== undefined) return "n/a";
  const ms = median(o.roundsMs);
  return Number.isFinite(ms) ? (o.bytes / 1e6 / (ms / 1000)).toFixed(1) : "error";
}

function fmtTime(ms: number): string {
  if (!Number.isFinite(ms)) return "n/a";
  if (ms < 1) return `${(ms * 1000).toFixed(2)} µs`;
  return `${ms.toFixed(ms < 10 ? 2 : 0)} ms`;
}

const fmtBytes = (b: number): string =>
  b >= 1e6 ? `${(b / 1e6).toFixed(1)} MB` : b >= 1e3 ? `${(b / 1e3).toFixed(1)} KB` : `${b} B`;

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

function payloadsOf(r: RunResults, group: GroupName): PayloadName[] {
  const seen: PayloadName[] = [];
  for (const o of r.operations)
    if (o.group === group && !seen.includes(o.payload)) seen.push(o.payload);
  return seen;
}

function bytesOf(r: RunResults, payload: PayloadName): number {
  return [...r.operations, ...r.scaling].find((o) => o.payload === payload)?.bytes ?? Number.NaN;
}

const fmtFactor = (q: number): string => (Number.isFinite(q) ? `${q.toFixed(2)}×` : "–");

/**
 * Ours over the baseline for one memory measure; NaN when either is missing, or
 * when the baseline grew by less than 1 MiB (a ratio to nearly nothing means nothing).
 */
function memoryRatio(
  r: RunResults,
  ours: string,
  base: string,
  measure: "heapMiB" | "rssMiB",
): number {
  const a = r.memory[ours];
  const b = r.memory[base];
  return a !== undefined && b !== undefined && !("error" in a) && !("error" in b) && b[measure] >= 1
    ? a[measure] / b[measure]
    : Number.NaN;
}

/** The peak-heap rows (RSS beside them) of both directions on L, named by `target`. */
function memoryRows(r: RunResults, target: (ours: string, base: string) => string): TargetRow[] {
  return (
    [
      ["structToJson", "toJsonString"],
      ["structMessageFromJson", "fromJsonString"],
    ] as const
  ).map(([ours, base]) => {
    const q = memoryRatio(r, ours, base, "heapMiB");
    return {
      target: target(ours, base),
      measured: Number.isFinite(q)
        ? `${q.toFixed(2)}× (heap; RSS ${fmtFactor(memoryRatio(r, ours, base, "rssMiB"))})`
        : "n/a",
      ok: Number.isFinite(q) ? q <= 1 : undefined,
    };
  });
}

/** One row of the target checklist. */
export interface TargetRow {
  /** What the issue asks. */
  readonly target: string;
  /** What this run measured. */
  readonly measured: string;
  /** Met, missed, or not measurable in this run. */
  readonly ok: boolean | undefined;
}

/** Checks every target of the issue against this run. */
export function evaluateTargets(r: RunResults): TargetRow[] {
  const rows: TargetRow[] = [];
  const atLeast = (target: string, q: Ratio | undefined, min: number) =>
    rows.push({ target, measured: fmtRatio(q), ok: q === undefined ? undefined : q.value >= min });
  for (const p of ["M", "L"] as const) {
    atLeast(
      `structToJson on ${p} ≥ 1.0× toJsonString`,
      timeRatio(r, "toJsonString", "structToJson", p),
      1,
    );
    atLeast(
      `structToJson on ${p} ≥ 0.5× JSON.stringify`,
      timeRatio(r, "JSON.stringify", "structToJson", p),
      0.5,
    );
  }
  for (const p of ["S", "M", "L"] as const) {
    atLeast(
      `structFromJson on ${p} ≥ 1.0× fromJsonString`,
      timeRatio(r, "fromJsonString", "structMessageFromJson", p),
      1,
    );
  }
  atLeast(
    'toolCallArgumentsJson "verify" on L ≥ 1.0× fromJsonString',
    timeRatio(r, "fromJsonString", "verify", "L"),
    1,
  );
  const cached = timeRatio(r, "cached-schema", "no-schema", "S");
  rows.push({
    target: "cached schema path on S ≤ 1.1× the time without a schema",
    measured: fmtRatio(cached),
    ok: cached === undefined ? undefined : cached.value <= 1.1,
  });
  const sizeRatio = bytesOf(r, "XL") / bytesOf(r, "L");
  for (const id of ["structToJson", "structMessageFromJson", "verify"]) {
    const q = medianMs(r, id, "XL", true) / medianMs(r, id, "L", true) / sizeRatio;
    rows.push({
      target: `${id}: XL/L time ratio ≤ 1.2 × size ratio`,
      measured: Number.isFinite(q) ? `${q.toFixed(2)} × size ratio` : "n/a",
      ok: Number.isFinite(q) ? q <= 1.2 : undefined,
    });
  }
  rows.push(...memoryRows(r, (ours, base) => `peak memory on L: ${ours} ≤ 1.0× ${base}`));
  return rows;
}

/**
 * A ratio checked against a bound: met only when the whole spread over rounds
 * is on the right side of it (a claim whose spread crosses its target is not met).
 */
function bounded(q: Ratio | undefined, bound: number, atLeast: boolean): boolean | undefined {
  if (q === undefined) return undefined;
  return atLeast ? q.min >= bound : q.max <= bound;
}

/** True when every round is within ±`share` of the median. */
function spreadWithin(q: Ratio, share: number): boolean {
  return q.min >= q.value * (1 - share) && q.max <= q.value * (1 + share);
}

/**
 * Checks the targets of issue 16 against this run, on the Node line the run
 * used (`nodeMajor`: 24 and later have JSON.rawJSON and the stricter target).
 */
export function evaluateIssue16Targets(r: RunResults, nodeMajor: number): TargetRow[] {
  const rows: TargetRow[] = [];
  const add = (target: string, q: Ratio | undefined, bound: number, atLeast: boolean) =>
    rows.push({ target, measured: fmtRatio(q), ok: bounded(q, bound, atLeast) });
  add(
    "structToJson (cached schema) on S ≥ 1.5× toJsonString",
    timeRatio(r, "toJsonString", "structToJson", "S"),
    1.5,
    true,
  );
  const large = nodeMajor >= 24 ? 1.0 : 0.9;
  for (const p of ["M", "L"] as const) {
    add(
      `structToJson (cached schema) on ${p} ≥ ${large.toFixed(1)}× toJsonString (Node ${nodeMajor})`,
      timeRatio(r, "toJsonString", "structToJson", p),
      large,
      true,
    );
  }
  // The cached path timed in first use's blocks (see "cached-refill" in operations.ts).
  add(
    "structToJson with a fresh, equal schema object on S ≤ 2× the time of the cached path",
    timeRatio(r, "first-use", "cached-refill", "S"),
    2,
    false,
  );
  for (const p of ["S", "M", "L"] as const) {
    const q = timeRatio(r, "fromJsonString", "structMessageFromJson", p);
    rows.push({
      target: `structFromJson on ${p} ≥ 1.5× fromJsonString, spread within ±15%`,
      measured: fmtRatio(q),
      ok: q === undefined ? undefined : q.min >= 1.5 && spreadWithin(q, 0.15),
    });
  }
  rows.push(...memoryRows(r, (ours, base) => `peak heap on L (5 MB): ${ours} ≤ 1.0× ${base}`));
  rows.push({
    target: "output byte-identical to before on every test, golden vector and decoder vector",
    measured: "checked by the test suite (vitest), not by the harness",
    ok: undefined,
  });
  return rows;
}

/** Renders the whole report as Markdown (readable as plain text too). */
export function renderReport(r: RunResults): string {
  const out: string[] = [];
  out.push(
    `## Benchmark run${r.quick ? " (--quick smoke run: figures are NOT meaningful)" : ""}`,
    "",
  );
  out.push(...r.environment.map((l) => `- ${l}`), "");
  out.push(
    "Ratios are throughput ratios against a baseline timed in the same round (> 1× means ours is",
    "faster). A round's ratio is the median over its cycles of the ratio of the two operations'",
    "blocks in the same cycle (alternated timing; sequential: of their round medians); shown is",
    "the median over rounds, with the range over rounds in brackets. MB/s is the JSON text's",
    "UTF-8 size over the median time per call.",
    "",
  );

  out.push("### Struct → JSON text", "");
  out.push(
    table(
      [
        "payload",
        "size",
        "structToJson MB/s",
        "÷ toJsonString",
        "÷ JSON.stringify",
        "jsonObjectToJson ÷ toJsonString",
        "toJsonString MB/s",
        "JSON.stringify MB/s",
      ],
      payloadsOf(r, "write").map((p) => [
        p,
        fmtBytes(bytesOf(r, p)),
        fmtMBps(r, "structToJson", p),
        fmtRatio(timeRatio(r, "toJsonString", "structToJson", p)),
        fmtRatio(timeRatio(r, "JSON.stringify", "structToJson", p)),
        fmtRatio(timeRatio(r, "toJsonString", "jsonObjectToJson", p)),
        fmtMBps(r, "toJsonString", p),
        fmtMBps(r, "JSON.stringify", p),
      ]),
    ),
    "",
  );

  const varied = timeRatio(r, "toJsonString-varied", "structToJson-varied", "M");
  if (varied !== undefined) {
    out.push(
      "M with its fractional numbers changed in every call (64 variants written in turn, so V8's",
      "number-string cache cannot serve the text form as it serves one payload written again and",
      `again): structToJson ÷ toJsonString ${fmtRatio(varied)}.`,
      "",
    );
  }

  out.push("### JSON text → Struct, and raw-text verification", "");
  out.push(
    table(
      [
        "payload",
        "size",
        "structFromJson MB/s",
        "÷ fromJsonString",
        "÷ JSON.parse",
        "verify MB/s",
        "verify ÷ fromJsonString",
        "verify ÷ JSON.parse",
        "fromJsonString MB/s",
        "JSON.parse MB/s",
        "lossless-json ÷ fromJsonString",
      ],
      payloadsOf(r, "read").map((p) => [
        p,
        fmtBytes(bytesOf(r, p)),
        fmtMBps(r, "structMessageFromJson", p),
        fmtRatio(timeRatio(r, "fromJsonString", "structMessageFromJson", p)),
        fmtRatio(timeRatio(r, "JSON.parse", "structMessageFromJson", p)),
        fmtMBps(r, "verify", p),
        fmtRatio(timeRatio(r, "fromJsonString", "verify", p)),
        fmtRatio(timeRatio(r, "JSON.parse", "verify", p)),
        fmtMBps(r, "fromJsonString", p),
        fmtMBps(r, "JSON.parse", p),
        fmtRatio(timeRatio(r, "fromJsonString", "lossless-json", p)),
      ]),
    ),
    "",
  );

  out.push(
    "### The schema: time per call ÷ structToJson without a schema (lower is better)",
    "",
    "The last two columns divide first use's time by the cached path's: timed in blocks like",
    "first use's (at most 64 calls, each block after its fresh copies are built; the target's",
    "measure), and in blocks of its own (thousands of calls; the measure before session 22).",
    "",
  );
  out.push(
    table(
      [
        "payload",
        "without a schema (time)",
        "same schema object (cached)",
        "compiled schema",
        "compileSchema, new object",
        "first use of a new object",
        "compileSchema (time)",
        "first use ÷ cached, same blocks",
        "first use ÷ cached, own blocks",
      ],
      payloadsOf(r, "schema").map((p) => [
        p,
        fmtTime(medianMs(r, "no-schema", p)),
        fmtRatio(timeRatio(r, "cached-schema", "no-schema", p)),
        fmtRatio(timeRatio(r, "compiled-schema", "no-schema", p)),
        fmtRatio(timeRatio(r, "compileSchema", "no-schema", p)),
        fmtRatio(timeRatio(r, "first-use", "no-schema", p)),
        fmtTime(medianMs(r, "compileSchema", p)),
        fmtRatio(timeRatio(r, "first-use", "cached-refill", p)),
        fmtRatio(timeRatio(r, "first-use", "cached-schema", p)),
      ]),
    ),
    "",
  );

  const sizeRatio = bytesOf(r, "XL") / bytesOf(r, "L");
  if (Number.isFinite(sizeRatio)) {
    out.push(
      `### Scaling: XL (${fmtBytes(bytesOf(r, "XL"))}) vs L (${fmtBytes(bytesOf(r, "L"))})`,
      "",
      "Each operation timed alone in its own process on each payload (median over rounds).",
      "",
    );
    const ids = [
      "structToJson",
      "toJsonString",
      "JSON.stringify",
      "structMessageFromJson",
      "verify",
    ];
    out.push(
      table(
        ["operation", "L time", "XL time", "XL/L time ratio", "÷ size ratio (target ≤ 1.2)"],
        [...ids, "fromJsonString", "JSON.parse"].map((id) => {
          const l = medianMs(r, id, "L", true);
          const xl = medianMs(r, id, "XL", true);
          const q = xl / l;
          return [
            id,
            fmtTime(l),
            fmtTime(xl),
            Number.isFinite(q) ? q.toFixed(2) : "n/a",
            Number.isFinite(q) ? (q / sizeRatio).toFixed(2) : "n/a",
          ];
        }),
      ),
      "",
      `Size ratio: ${sizeRatio.toFixed(2)}.`,
      "",
    );
  }

  const memIds = Object.keys(r.memory);
  if (memIds.length > 0) {
    out.push(
      "### Peak memory on L: growth during one call (fresh process per call, median of runs)",
      "",
    );
    out.push(
      "Heap: V8's used heap (live and not yet collected) at its highest during the call, from",
      "v8.GCProfiler (exact). RSS: the kernel's peak (VmHWM) during the call; it misses whatever",
      "fits in heap pages the process had already committed, so it under-reports.",
      "",
    );
    const baselineOf: Record<string, string> = {
      structToJson: "toJsonString",
      structMessageFromJson: "fromJsonString",
      verify: "fromJsonString",
    };
    const ratio = (id: string, measure: "heapMiB" | "rssMiB"): string => {
      const base = baselineOf[id];
      const q = base === undefined ? Number.NaN : memoryRatio(r, id, base, measure);
      return Number.isFinite(q) ? `${q.toFixed(2)}× ${base}` : "–";
    };
    out.push(
      table(
        [
          "operation",
          "peak heap growth",
          "÷ protobuf-es baseline",
          "peak RSS growth",
          "÷ protobuf-es baseline",
        ],
        memIds.map((id) => {
          const m = r.memory[id]!;
          return "error" in m
            ? [id, m.error, "–", "–", "–"]
            : [
                id,
                `${m.heapMiB.toFixed(1)} MiB`,
                ratio(id, "heapMiB"),
                `${m.rssMiB.toFixed(1)} MiB`,
                ratio(id, "rssMiB"),
              ];
        }),
      ),
      "",
    );
  }

  const verdict = (t: TargetRow): string =>
    t.ok === undefined ? "n/a" : r.quick ? (t.ok ? "(✓)" : "(✗)") : t.ok ? "✓" : "✗";
  const nodeMajor = Number(process.versions.node.split(".")[0]);
  out.push(
    `### Targets (issue 16), Node ${process.versions.node}`,
    "",
    "Median of the per-round ratios [min–max over rounds]; ✓ only when the whole spread meets the target.",
    "",
  );
  out.push(
    table(
      ["target", "measured", ""],
      evaluateIssue16Targets(r, nodeMajor).map((t) => [t.target, t.measured, verdict(t)]),
    ),
    "",
  );

  out.push("### Earlier checks (issue 6)", "");
  out.push(
    table(
      ["target", "measured", ""],
      evaluateTargets(r).map((t) => [
        t.target,
        t.measured,
        t.ok === undefined ? "n/a" : r.quick ? (t.ok ? "(✓)" : "(✗)") : t.ok ? "✓" : "✗",
      ]),
    ),
    "",
  );
  if (r.quick)
    out.push("Quick run: ✓/✗ in brackets are not assessments (tiny sizes, few samples).", "");

  const notes = [...r.notes];
  const grouped = new Map<string, PayloadName[]>();
  for (const o of [...r.operations, ...r.scaling]) {
    const problem = o.unavailable ?? o.checkProblem;
    if (problem === undefined) continue;
    const key = `${o.label}: ${o.unavailable === undefined ? "output check failed: " : ""}${problem}`;
    grouped.set(key, [...(grouped.get(key) ?? []), o.payload]);
  }
  for (const [key, payloads] of grouped)
    notes.push(`${key} (${[...new Set(payloads)].join(", ")})`);
  if (notes.length > 0) out.push("### Notes", "", ...notes.map((n) => `- ${n}`), "");
  return out.join("\n");
}
