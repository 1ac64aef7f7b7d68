// Issue 12: CI's verdict may not depend on the machine's speed. The fuzz CLI
// runs a fixed number of seeded cases per target (`--iterations`), so two runs
// anywhere run the same cases and end the same way; .ci/run uses only that.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

function fuzz(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", "test/fuzz/run-fuzz.ts", ...args], {
    cwd: root,
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The output without its timings ("N cases in 1.2 s (345/s)" → "N cases"). */
const untimed = (out: string) => out.replace(/ in [\d.]+ s \(\d+\/s\)/g, "");

describe("npm run fuzz -- --iterations N", () => {
  test("runs exactly cases start..start+N-1 of each target, and the same ones every time", () => {
    const first = fuzz("--iterations", "30", "--seed", "5", "--start", "100");
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    const lines = untimed(first.stdout).trim().split("\n");
    expect(lines[0]).toBe(
      "fuzz: seed 5, 30 cases per target over protobuf, json, hang bound 30000 ms",
    );
    expect(lines[1]).toBe("protobuf: 30 cases, iterations 100–129, no findings");
    expect(lines[3]).toBe("json: 30 cases, iterations 100–129, no findings");
    // The tallies (how each case ended) add up to the cases run and repeat exactly.
    const again = fuzz("--iterations", "30", "--seed", "5", "--start", "100");
    expect(untimed(again.stdout)).toBe(untimed(first.stdout));
  });

  test("takes --iterations or --seconds, not both", () => {
    const r = fuzz("--iterations", "10", "--seconds", "5");
    expect(r.status).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe("fuzz: give --iterations or --seconds, not both");
  });

  test.each([["0"], ["1.5"]])("rejects --iterations %s", (n) => {
    const r = fuzz("--iterations", n);
    expect(r.status).toBe(2);
  });
});

describe(".ci/run decides by counting, never by timing", () => {
  const ci = readFileSync(`${root}.ci/run`, "utf8");
  const commands = ci.split("\n").filter((line) => /^\s*(extra|step|npm|node|"\$)/.test(line));

  test("the fuzz step runs a fixed number of seeded cases", () => {
    const step = commands.filter((line) => line.includes("fuzz"));
    expect(step).toHaveLength(1);
    expect(step[0]).toMatch(/ --iterations \d+ --seed \d+$/);
  });

  test("no step is bounded by seconds", () => {
    for (const line of commands) expect(line).not.toMatch(/--seconds|--max-seconds|--time\b/);
  });

  test("the load test runs fixed counts", () => {
    const step = commands.filter((line) => line.includes("test:load"));
    expect(step).toHaveLength(1);
    expect(step[0]).toMatch(/ --streams \d+ --actions \d+ --repetitions \d+$/);
  });
});
