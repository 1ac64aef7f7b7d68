#!/usr/bin/env node
// Doc snippets: every fenced code block of README.md and docs/**/*.md, so that
// CI can type-check the TypeScript and JavaScript ones under `strict` and run
// the runnable ones against the packed tarball (scripts/consumer-check.mjs).
//
// A block's info string says what it is:
//   ```ts / ```typescript   an ES module, type-checked
//   ```cts                  a CommonJS module, type-checked
//   ```js / ```mjs / ```cjs the same, type-checked as JavaScript (checkJs)
//   add the word `run` (```ts run) and CI also runs it, on every Node line
//   ```json                 must parse
//   sh, console, text, proto, python, diff, …   not checked
// A block without a language is refused: every block says what it is.
// Snippets are whole modules: declare what a fragment leaves out
// (`declare const bytes: Uint8Array;`), so a reader sees it too.
//
// Usage: node scripts/doc-snippets.mjs OUT_DIR
//   writes OUT_DIR/<doc>-<line>.<ext> and OUT_DIR/snippets.json (the list, with
//   which are runnable); exit 1 on a block without a language or bad JSON.

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Code languages: the file extension each is checked as. */
const CHECKED = { ts: "ts", typescript: "ts", cts: "cts", js: "mjs", mjs: "mjs", cjs: "cjs" };
/** Languages shown to the reader but not checked (shell sessions, output, other languages). */
const SHOWN = new Set([
  "sh",
  "bash",
  "shell",
  "console",
  "text",
  "proto",
  "protobuf",
  "python",
  "py",
  "diff",
  "html",
  "jsonl",
  "http",
  "yaml",
  "toml",
  "go",
  "rust",
  "java",
]);

/** The Markdown files whose blocks are checked: README.md and docs/ (API reference excluded). */
export function docFiles(root = ROOT) {
  const files = [join(root, "README.md")];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "api") walk(path);
      else if (entry.isFile() && entry.name.endsWith(".md")) files.push(path);
    }
  };
  walk(join(root, "docs"));
  return files.sort();
}

/**
 * The fenced blocks of one Markdown text: `{ line, lang, run, code }`, line
 * being the fence's (1-based). Fences of three or more backticks or tildes.
 */
export function fencedBlocks(markdown) {
  const blocks = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const [, fence, info] = open;
    const words = info.trim().split(/\s+/).filter(Boolean);
    const body = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trimStart().startsWith(fence)) body.push(lines[j++]);
    blocks.push({
      line: i + 1,
      lang: (words[0] ?? "").toLowerCase(),
      run: words.includes("run"),
      code: `${body.join("\n")}\n`,
    });
    i = j;
  }
  return blocks;
}

/** Every block of the docs, checked for a language; throws listing the unlabeled ones. */
export function docSnippets(root = ROOT) {
  const snippets = [];
  const problems = [];
  for (const file of docFiles(root)) {
    const doc = relative(root, file);
    for (const block of fencedBlocks(readFileSync(file, "utf8"))) {
      const where = `${doc}:${block.line}`;
      if (block.lang === "") problems.push(`${where}: a code block without a language`);
      else if (block.lang === "json") {
        try {
          JSON.parse(block.code);
        } catch (e) {
          problems.push(`${where}: invalid JSON (${e instanceof Error ? e.message : e})`);
        }
      } else if (block.lang in CHECKED) {
        const name = `${doc.replace(/\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-")}-${block.line}`;
        snippets.push({
          where,
          file: `${name}.${CHECKED[block.lang]}`,
          run: block.run,
          code: block.code,
        });
      } else if (!SHOWN.has(block.lang)) {
        problems.push(
          `${where}: unknown code language "${block.lang}" (see scripts/doc-snippets.mjs)`,
        );
      }
    }
  }
  if (problems.length > 0) throw new Error(problems.join("\n"));
  return snippets;
}

/** Writes the snippets into `outDir` with a list `snippets.json`; returns the list. */
export function writeSnippets(outDir, root = ROOT) {
  const snippets = docSnippets(root);
  mkdirSync(outDir, { recursive: true });
  for (const s of snippets) writeFileSync(join(outDir, s.file), `// ${s.where}\n${s.code}`);
  const list = snippets.map(({ where, file, run }) => ({ where, file, run }));
  writeFileSync(join(outDir, "snippets.json"), `${JSON.stringify(list, null, 2)}\n`);
  return list;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (outDir === undefined) {
    console.error("usage: node scripts/doc-snippets.mjs OUT_DIR");
    process.exit(2);
  }
  try {
    const list = writeSnippets(outDir);
    console.log(
      `doc-snippets: ${list.length} snippets (${list.filter((s) => s.run).length} runnable)`,
    );
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
