#!/usr/bin/env node
// Bundle check: builds the package's browser entry the way a web app's bundler
// would (esbuild, platform=browser, minified, tree-shaken), fails on any import
// of a Node built-in, on any module of ajv or re2js (they belong to the
// "./repair" and "./re2" subpaths: the root entry must decode under a
// Content-Security-Policy without unsafe-eval, and stay small), and on a gzip
// size above the budget, and prints the size minified and gzipped.
//
// Usage: node scripts/bundle-check.mjs [--src | --entry FILE] [--max-gzip BYTES] [--json]
//   default  bundles what package.json "exports" ["."] gives a browser (dist/, so
//            run `npm run build` first);
//   --src    bundles src/index.ts instead (no build needed, same code);
//   --entry  bundles another module (e.g. to see that src/mcp/index.ts is Node-only);
//   --max-gzip fails when the full bundle's gzip size exceeds BYTES (default 30000);
//   --json   prints one JSON object instead of the table.
// Exit codes: 0 ok, 1 a check failed, 2 usage or setup error.

import { existsSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_MAX_GZIP = 30_000;
const SRC_ENTRY = join(ROOT, "src/index.ts");

/** Packages the root entry must never reach: each has its own subpath. */
const FORBIDDEN_PACKAGES = ["ajv", "re2js"];

/**
 * Bundles that are measured: the whole root export, and what a decode-only
 * client pulls in (its messages come from the "./messages" subpath, which sits
 * beside the root entry: messages.js or messages.ts).
 */
const BUNDLES = [
  { name: "all exports", code: (from) => `export * from ${JSON.stringify(from)};` },
  {
    name: "client decode path",
    code: (from) =>
      `export { toolCallToJson, ToolSchemas } from ${JSON.stringify(from)};\n` +
      `export { ClientActionSchema } from ${JSON.stringify(from.replace(/index(\.[jt]s)$/, "messages$1"))};`,
  },
];

function usage(message) {
  console.error(`bundle-check: ${message}`);
  console.error(
    "usage: node scripts/bundle-check.mjs [--src | --entry FILE] [--max-gzip BYTES] [--json]",
  );
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { entry: undefined, maxGzip: DEFAULT_MAX_GZIP, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--src") opts.entry = SRC_ENTRY;
    else if (a === "--entry") {
      if (argv[i + 1] === undefined) usage("--entry needs a file");
      opts.entry = resolve(argv[++i]);
    } else if (a === "--json") opts.json = true;
    else if (a === "--max-gzip") {
      const n = Number(argv[++i]);
      if (!Number.isSafeInteger(n) || n <= 0) usage("--max-gzip needs a positive number of bytes");
      opts.maxGzip = n;
    } else usage(`unknown argument ${a}`);
  }
  return opts;
}

/** The file package.json "exports"["."] resolves to for a browser bundler (browser > import > default). */
function browserEntry() {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  let target = pkg.exports?.["."];
  for (let depth = 0; typeof target === "object" && target !== null && depth < 8; depth++) {
    const key = ["browser", "import", "default"].find((k) => k in target);
    if (key === undefined)
      usage('package.json exports["."] has no browser, import or default condition');
    target = target[key];
  }
  if (typeof target !== "string") usage('package.json exports["."] does not resolve to a file');
  return join(ROOT, target);
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, m.split("/")[0]]));

/** True for "node:x", "fs", "fs/promises" and the like. */
function isNodeBuiltin(spec) {
  return (
    spec.startsWith("node:") || NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(spec.split("/")[0])
  );
}

/** An esbuild plugin that records every import of a Node built-in, with its importer. */
function nodeBuiltinGuard(found) {
  return {
    name: "node-builtin-guard",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point" || !isNodeBuiltin(args.path)) return undefined;
        found.push({ spec: args.path, importer: relative(ROOT, args.importer) || "(entry)" });
        // Keep going, so that one run lists every offending import.
        return { path: args.path, external: true };
      });
    },
  };
}

/** Groups the bundle's bytes by npm package (or "struct-json-bridge" for our own code). */
function byPackage(metafile) {
  const sizes = new Map();
  for (const output of Object.values(metafile.outputs)) {
    for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
      const name = m ? m[1] : "struct-json-bridge";
      sizes.set(name, (sizes.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...sizes].sort((a, b) => b[1] - a[1]);
}

async function measure(bundle, from) {
  const found = [];
  const result = await esbuild.build({
    stdin: { contents: bundle.code(from), resolveDir: ROOT, loader: "js", sourcefile: "entry.js" },
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [nodeBuiltinGuard(found)],
  });
  const code = result.outputFiles[0].contents;
  return {
    name: bundle.name,
    nodeImports: found,
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length,
    packages: byPackage(result.metafile),
  };
}

const kB = (n) => `${(n / 1000).toFixed(1)} kB`;

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const entry = opts.entry ?? browserEntry();
  if (!existsSync(entry)) {
    usage(`${relative(ROOT, entry)} does not exist: run \`npm run build\` first (or pass --src)`);
  }
  const from = `./${relative(ROOT, entry)}`;
  let results;
  try {
    results = [];
    // Another module (--entry) need not export the client's names: measure it whole only.
    const bundles =
      opts.entry === undefined || opts.entry === SRC_ENTRY ? BUNDLES : BUNDLES.slice(0, 1);
    for (const b of bundles) results.push(await measure(b, from));
  } catch (e) {
    const errors = e?.errors?.map((x) => `${x.location?.file ?? ""}: ${x.text}`) ?? [String(e)];
    console.error(`bundle-check: esbuild failed:\n  ${errors.join("\n  ")}`);
    process.exit(1);
  }
  const failures = [
    ...new Set(
      results.flatMap((r) =>
        r.nodeImports.map((f) => `${f.importer} imports Node built-in "${f.spec}"`),
      ),
    ),
  ];
  const full = results[0];
  if (opts.entry === undefined || opts.entry === SRC_ENTRY) {
    for (const [name] of full.packages) {
      if (FORBIDDEN_PACKAGES.includes(name)) failures.push(`the root entry reaches ${name}`);
    }
  }
  if (full.gzip > opts.maxGzip) {
    failures.push(
      `the full bundle is ${full.gzip} B gzipped, above the budget of ${opts.maxGzip} B`,
    );
  }
  if (opts.json) {
    console.log(JSON.stringify({ entry: from, bundles: results, failures }, null, 2));
  } else {
    console.log(
      `bundle-check: ${from} for the browser (esbuild, platform=browser, minify, es2022)`,
    );
    for (const r of results) {
      console.log(
        `  ${r.name.padEnd(20)} ${kB(r.minified).padStart(9)} minified  ${kB(r.gzip).padStart(8)} gzip  ${kB(r.brotli).padStart(8)} brotli`,
      );
    }
    const top = full.packages
      .slice(0, 6)
      .map(([n, b]) => `${n} ${kB(b)}`)
      .join(", ");
    console.log(`  largest parts (minified): ${top}`);
    console.log(`  Node built-in imports: ${full.nodeImports.length === 0 ? "none" : "FOUND"}`);
  }
  if (failures.length > 0) {
    for (const f of failures) console.error(`bundle-check: FAIL: ${f}`);
    process.exit(1);
  }
}

await main();
