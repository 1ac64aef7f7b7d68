// The root entry as a browser bundle (scripts/bundle-check.mjs on the source):
// it never reaches ajv or re2js (they have their own entry points) and stays
// within the gzip budget.

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

test("the root entry reaches neither ajv nor re2js and stays within 30 kB gzip", () => {
  const run = spawnSync(process.execPath, ["scripts/bundle-check.mjs", "--src", "--json"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  const report = JSON.parse(run.stdout) as {
    bundles: { name: string; gzip: number; packages: [string, number][] }[];
    failures: string[];
  };
  expect(report.failures).toEqual([]);
  const all = report.bundles[0]!;
  expect(all.packages.map(([name]) => name)).not.toContain("ajv");
  expect(all.packages.map(([name]) => name)).not.toContain("re2js");
  expect(all.gzip).toBeLessThanOrEqual(30_000);
  expect(run.status).toBe(0);
});

test("the repair entry carries ajv: the reason it is an entry of its own", () => {
  const run = spawnSync(
    process.execPath,
    [
      "scripts/bundle-check.mjs",
      "--entry",
      "src/repair/index.ts",
      "--json",
      "--max-gzip",
      "999999999",
    ],
    { cwd: ROOT, encoding: "utf8" },
  );
  // --entry measures another module whole (the ajv rule is the root entry's).
  expect(run.status).toBe(0);
  const report = JSON.parse(run.stdout) as { bundles: { packages: [string, number][] }[] };
  expect(report.bundles[0]!.packages.map(([name]) => name)).toContain("ajv");
});
