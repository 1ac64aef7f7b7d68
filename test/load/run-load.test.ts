// Issue 12: the load test's verdict counts (lost, duplicated, reordered,
// corrupted and retained calls; heap after a full collection) and never times:
// throughput, latency and RSS are printed as "reported only".
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));

test("a small load run passes by counting, and reports its speed without judging it", () => {
  const r = spawnSync(
    process.execPath,
    [
      "--expose-gc",
      "--import",
      "tsx",
      "test/load/run-load.ts",
      "--streams",
      "2",
      "--actions",
      "120",
      "--repetitions",
      "2",
    ],
    { cwd: root, encoding: "utf8" },
  );
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const lines = r.stdout.trim().split("\n");
  expect(lines).toHaveLength(4);
  for (const rep of [1, 2])
    expect(lines[rep]).toMatch(
      new RegExp(
        `^repetition ${rep}: [0-2] of 240 calls alive after GC, heap [\\d.]+ MB; reported only: [\\d]+ actions/s .*latency p50 .*, rss [\\d.]+ MB$`,
      ),
    );
  expect(lines[3]).toBe(
    "load: ok: 480 actions, none lost, duplicated, reordered or corrupted; none kept alive; heap flat",
  );
});
