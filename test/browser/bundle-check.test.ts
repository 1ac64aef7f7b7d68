// The bundle check itself: the core bundles for the browser with no Node
// built-in, and a module that imports one is refused with its importer named.

import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";

const run = (...args: string[]) =>
  spawnSync(process.execPath, ["scripts/bundle-check.mjs", ...args], { encoding: "utf8" });

interface Report {
  entry: string;
  bundles: { name: string; nodeImports: unknown[]; minified: number; gzip: number }[];
  failures: string[];
}

describe("bundle check", () => {
  test("the core (src) bundles for the browser without Node built-ins", () => {
    const r = run("--src", "--json");
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.entry).toBe("./src/index.ts");
    expect(report.bundles.map((b) => [b.name, b.nodeImports])).toEqual([
      ["all exports", []],
      ["client decode path", []],
    ]);
    expect(report.failures).toEqual([]);
    for (const b of report.bundles) expect(b.gzip).toBeLessThan(b.minified);
  });

  test("a module importing Node built-ins fails, naming each import", () => {
    const r = run("--entry", "test/browser/fixtures/node-only.ts");
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      [
        'bundle-check: FAIL: test/browser/fixtures/node-only.ts imports Node built-in "node:fs"',
        'bundle-check: FAIL: test/browser/fixtures/node-only.ts imports Node built-in "path"',
        "",
      ].join("\n"),
    );
  });

  test("a gzip budget below the bundle's size fails", () => {
    const r = run("--src", "--max-gzip", "1000");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /^bundle-check: FAIL: the full bundle is \d+ B gzipped, above the budget of 1000 B\n$/,
    );
  });

  test.each([
    [["--max-gzip", "x"], "bundle-check: --max-gzip needs a positive number of bytes"],
    [["--nope"], "bundle-check: unknown argument --nope"],
  ])("usage error %j exits 2", (args, line) => {
    const r = run(...args);
    expect(r.status).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe(line);
  });
});
