#!/usr/bin/env node
// Build: compiles src/ and gen/ twice, as ES modules (dist/src, dist/gen) and as
// CommonJS (dist/cjs/src, dist/cjs/gen), then checks that every entry of
// package.json "exports" points at files the build wrote. Both builds compile
// the whole tree, so a new subpath needs only its entry in "exports":
//
//   "./repair": {
//     "import": { "types": "./dist/src/repair/index.d.ts", "default": "./dist/src/repair/index.js" },
//     "require": { "types": "./dist/cjs/src/repair/index.d.ts", "default": "./dist/cjs/src/repair/index.js" }
//   }
//
// Usage: node scripts/build.mjs   (npm run build; `prepack` runs it too)
// Exit codes: 0 built, 1 a compile error or an export without its files.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TSC = join(ROOT, "node_modules/typescript/bin/tsc");

rmSync(join(ROOT, "dist"), { recursive: true, force: true });
for (const project of ["tsconfig.build.json", "tsconfig.build-cjs.json"]) {
  try {
    execFileSync(process.execPath, [TSC, "-p", project], { cwd: ROOT, stdio: "inherit" });
  } catch {
    console.error(`build: tsc -p ${project} failed`);
    process.exit(1);
  }
}
// The package is "type": "module"; this marker makes dist/cjs CommonJS for
// Node and for TypeScript's node16/nodenext resolution alike.
writeFileSync(join(ROOT, "dist/cjs/package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);

/** Every file path an exports entry can resolve to, with the conditions leading to it. */
function targets(entry, conditions = []) {
  if (typeof entry === "string") return [{ conditions, file: entry }];
  if (entry === null || typeof entry !== "object") return [];
  return Object.entries(entry).flatMap(([condition, value]) =>
    targets(value, [...conditions, condition]),
  );
}

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const problems = [];
for (const [subpath, entry] of Object.entries(pkg.exports)) {
  const found = targets(entry);
  const code = found.filter((t) => t.file.startsWith("./dist/"));
  if (code.length > 0) {
    for (const condition of ["import", "require"]) {
      if (!code.some((t) => t.conditions[0] === condition)) {
        problems.push(`${subpath}: no "${condition}" condition`);
      }
    }
  }
  for (const { conditions, file } of found) {
    if (file.includes("*")) continue; // patterns (the .proto files) are checked by publint
    if (!existsSync(join(ROOT, file))) {
      problems.push(`${subpath} [${conditions.join(" > ")}]: ${file} was not built`);
    }
  }
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`build: ${problem}`);
  process.exit(1);
}
