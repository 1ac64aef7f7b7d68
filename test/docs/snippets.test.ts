// The README's and docs' code blocks: each says its language, JSON blocks
// parse, and the TypeScript/JavaScript ones type-check under strict against the
// source (the package name maps to src/ through tsconfig.json "paths").
// scripts/consumer-check.mjs checks them again against the packed tarball and
// runs the runnable ones on each Node line.

import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { docSnippets, fencedBlocks, writeSnippets } from "../../scripts/doc-snippets.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;

describe("fencedBlocks", () => {
  test.each([
    ["no blocks", "text only\n", []],
    [
      "a ts block",
      "a\n```ts\nconst x = 1;\n```\n",
      [{ line: 2, lang: "ts", run: false, code: "const x = 1;\n" }],
    ],
    [
      "a runnable block",
      "```ts run\nlet a;\nlet b;\n```\n",
      [{ line: 1, lang: "ts", run: true, code: "let a;\nlet b;\n" }],
    ],
    [
      "a block without a language",
      "```\nplain\n```\n",
      [{ line: 1, lang: "", run: false, code: "plain\n" }],
    ],
    [
      "a longer fence holds a shorter one",
      "````md\n```ts\nx\n```\n````\n",
      [{ line: 1, lang: "md", run: false, code: "```ts\nx\n```\n" }],
    ],
    [
      "tildes, indented up to three spaces",
      "   ~~~JSON\n{}\n   ~~~\n",
      [{ line: 1, lang: "json", run: false, code: "{}\n" }],
    ],
  ])("%s", (_name, markdown, expected) => {
    expect(fencedBlocks(markdown)).toEqual(expected);
  });
});

describe("the docs' code blocks", () => {
  test("every block says its language and every JSON block parses", () => {
    expect(() => docSnippets(ROOT)).not.toThrow();
  });

  test("the README has a runnable server-side example and a client-side example", () => {
    const readme = docSnippets(ROOT).filter((s) => s.where.startsWith("README.md:"));
    expect(readme.filter((s) => s.run).length).toBeGreaterThanOrEqual(1);
    expect(readme.some((s) => s.code.includes("toolCallFromJson("))).toBe(true);
    expect(readme.some((s) => s.code.includes("toolCallToJson("))).toBe(true);
  });

  test("every TypeScript and JavaScript block type-checks under strict", () => {
    const dir = join(ROOT, "test/docs/.snippets");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const list = writeSnippets(dir, ROOT);
    expect(list.length).toBeGreaterThan(0);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.json",
        // strict, as users compile; unused names are fine in an illustration.
        compilerOptions: {
          strict: true,
          noUnusedLocals: false,
          noUnusedParameters: false,
          allowJs: true,
          checkJs: true,
          noEmit: true,
        },
        files: list.map((s) => s.file),
        include: [],
      }),
    );
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(dir, "tsconfig.json")],
      { encoding: "utf8" },
    );
    // The output names each failing snippet by its file (README-55.ts = README.md line 55).
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  });
});
