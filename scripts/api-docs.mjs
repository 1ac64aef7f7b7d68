#!/usr/bin/env node
// API reference: runs TypeDoc over every entry point of package.json "exports"
// (./dist/src/X.js → src/X.ts) and writes HTML to docs/api/. Fails when an
// export has no doc comment (TypeDoc's notDocumented validation, as an error).
//
// TypeDoc needs TypeScript ≤ 6 while the project compiles with TypeScript 7, so
// both are installed into a private prefix, .typedoc/, on first use (not
// devDependencies: they must not replace the project's `typescript`).
//
// Usage: node scripts/api-docs.mjs [--out DIR]   (npm run docs:api)
// Exit codes: 0 written, 1 an undocumented export or a TypeDoc error, 2 setup error.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PREFIX = join(ROOT, ".typedoc");
const TYPEDOC = join(PREFIX, "node_modules/typedoc/package.json");
const VERSIONS = ["typedoc@0.28", "typescript@5.9"];

const outIndex = process.argv.indexOf("--out");
const out = outIndex === -1 ? join(ROOT, "docs/api") : process.argv[outIndex + 1];
if (out === undefined) {
  console.error("usage: node scripts/api-docs.mjs [--out DIR]");
  process.exit(2);
}

if (!existsSync(TYPEDOC)) {
  try {
    execFileSync(
      "npm",
      [
        "install",
        "--prefix",
        PREFIX,
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
      ].concat(VERSIONS),
      { stdio: "inherit" },
    );
  } catch {
    console.error(`api-docs: could not install ${VERSIONS.join(" ")} into .typedoc/`);
    process.exit(2);
  }
}

/** The source module of each code entry in "exports" (the ESM build's path, back to src/). */
function entryPoints() {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const sources = [];
  for (const entry of Object.values(pkg.exports)) {
    const target = entry?.import?.default;
    if (typeof target !== "string") continue; // package.json, the .proto files
    const source = target.replace(/^\.\/dist\//, "").replace(/\.js$/, ".ts");
    if (!existsSync(join(ROOT, source))) {
      console.error(`api-docs: no source ${source} for export ${target}`);
      process.exit(2);
    }
    sources.push(source);
  }
  return sources;
}

// TypeDoc's own API (from .typedoc/, with its TypeScript 5.9), so that the
// generated code's `@generated` tag can join TypeDoc's default block tags.
const typedoc = await import(
  pathToFileURL(join(PREFIX, "node_modules/typedoc/dist/index.js")).href
);
const app = await typedoc.Application.bootstrapWithPlugins({
  entryPoints: entryPoints(),
  tsconfig: join(ROOT, "tsconfig.build.json"),
  out,
  name: "struct-json-bridge",
  readme: "none",
  // Source links to the repository (a placeholder URL until it is published).
  disableGit: true,
  sourceLinkTemplate:
    "https://github.com/struct-json-bridge/struct-json-bridge/blob/main/{path}#L{line}",
  excludePrivate: true,
  excludeInternal: true,
  blockTags: [...typedoc.OptionDefaults.blockTags, "@generated"],
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  // Every export, and every method of an exported class; not each member of
  // an inline object type (the generated messages' oneof cases, result unions).
  requiredToBeDocumented: [
    "Enum",
    "Variable",
    "Function",
    "Class",
    "Interface",
    "TypeAlias",
    "Namespace",
    "Method",
    "Accessor",
  ],
  treatValidationWarningsAsErrors: true,
  treatWarningsAsErrors: true,
  // The project compiles with TypeScript 7; 5.9 here only reads the declarations.
  skipErrorChecking: true,
});
const project = await app.convert();
if (project === undefined || app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error(
    "api-docs: TypeDoc failed (an undocumented export is an error: add its doc comment)",
  );
  process.exit(1);
}
app.validate(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error("api-docs: an export without a doc comment, or a broken link (listed above)");
  process.exit(1);
}
await app.generateDocs(project, out);
console.log(`api-docs: ${join(out, "index.html")}`);
