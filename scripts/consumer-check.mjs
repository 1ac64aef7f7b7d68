#!/usr/bin/env node
// Consumer check: packs the tarball the way `npm publish` would (prepack builds
// it), installs it into a blank project in a temp dir next to a chosen
// @bufbuild/protobuf version, and there, as a user would:
//   - checks the tarball's contents (LICENSE, the CommonJS build, the .proto, no source maps);
//   - type-checks the README's and docs' snippets and the examples under `strict`
//     against the installed package's types;
//   - on each given Node binary: requires it from CommonJS and imports it from ESM
//     (root and subpaths), runs the examples (server | client) and every runnable snippet.
//
// Usage: node scripts/consumer-check.mjs [--protobuf VERSION] [--node PATH]... [--keep]
//   --protobuf  the @bufbuild/protobuf to install (default: the devDependency's);
//               CI runs the lowest of the peer range and "latest"
//   --node      a Node binary to run on (repeatable; default: this one)
//   --keep      keep the temp dir and print its path
// Exit codes: 0 ok, 1 a check failed, 2 usage error.

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeSnippets } from "./doc-snippets.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

function parseArgs(argv) {
  const opts = { protobuf: pkg.devDependencies["@bufbuild/protobuf"], nodes: [], keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--protobuf" && argv[i + 1] !== undefined) opts.protobuf = argv[++i];
    else if (a === "--node" && argv[i + 1] !== undefined) opts.nodes.push(resolve(argv[++i]));
    else if (a === "--keep") opts.keep = true;
    else {
      console.error(`consumer-check: unknown argument ${a}`);
      process.exit(2);
    }
  }
  if (opts.nodes.length === 0) opts.nodes.push(process.execPath);
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const failures = [];
const tmp = mkdtempSync(join(tmpdir(), "sjb-consumer-"));

function run(label, command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", ...options });
  if (r.status === 0) {
    console.log(`ok   ${label}`);
    return r.stdout;
  }
  failures.push(label);
  console.log(`FAIL ${label} (exit ${r.status ?? r.signal})\n${r.stdout ?? ""}${r.stderr ?? ""}`);
  return undefined;
}

try {
  // 1. Pack (prepack builds dist/).
  const packed = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", tmp], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }),
  )[0];
  const files = packed.files.map((f) => f.path);
  const expect = (label, ok) => (ok ? console.log(`ok   ${label}`) : failures.push(label));
  expect("tarball has LICENSE", files.includes("LICENSE"));
  expect("tarball has the CommonJS build", files.includes("dist/cjs/package.json"));
  expect("tarball has the .proto", files.includes("proto/toolbridge/v1/toolbridge.proto"));
  expect("tarball has no source maps", !files.some((f) => f.endsWith(".map")));
  console.log(`     ${packed.filename}: ${files.length} files, ${packed.size} bytes`);

  // 2. A blank project with the tarball and the chosen protobuf runtime.
  const app = join(tmp, "app");
  cpSync(join(ROOT, "examples/tool-calls"), join(app, "examples/tool-calls"), { recursive: true });
  cpSync(join(ROOT, "examples/data"), join(app, "examples/data"), { recursive: true });
  cpSync(join(ROOT, "test/smoke"), join(app, "smoke"), { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    `${JSON.stringify({ name: "blank-consumer", private: true, type: "module" }, null, 2)}\n`,
  );
  run(
    `npm install the tarball with @bufbuild/protobuf@${opts.protobuf}`,
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      join(tmp, packed.filename),
      `@bufbuild/protobuf@${opts.protobuf}`,
      `@modelcontextprotocol/sdk@${pkg.devDependencies["@modelcontextprotocol/sdk"]}`,
      `@connectrpc/connect@${pkg.devDependencies["@connectrpc/connect"]}`,
      `@connectrpc/connect-web@${pkg.devDependencies["@connectrpc/connect-web"]}`,
      `openai@${pkg.devDependencies.openai}`,
      `@anthropic-ai/sdk@${pkg.devDependencies["@anthropic-ai/sdk"]}`,
    ],
    { cwd: app },
  );
  const installed = JSON.parse(
    readFileSync(join(app, "node_modules/@bufbuild/protobuf/package.json"), "utf8"),
  ).version;
  console.log(`     @bufbuild/protobuf ${installed}`);

  // 3. Type-check the snippets and examples against the installed types.
  const snippets = writeSnippets(join(app, "snippets"));
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: "ES2022",
        lib: ["ES2023"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        noEmit: true,
        allowJs: true,
        checkJs: true,
        skipLibCheck: true,
        typeRoots: [join(ROOT, "node_modules/@types")],
        types: ["node"],
      },
      include: ["snippets", "examples"],
    }),
  );
  run(
    `type-check ${snippets.length} doc snippets and the examples (strict)`,
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
    { cwd: app },
  );

  // 4. Run on each Node line.
  for (const node of opts.nodes) {
    const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
    run(`${version}: import from ESM`, node, ["smoke/consumer.mjs"], { cwd: app });
    run(`${version}: require from CommonJS`, node, ["smoke/consumer.cjs"], { cwd: app });
    run(`${version}: both builds in one process`, node, ["smoke/dual.mjs"], { cwd: app });
    const server = spawnSync(node, ["examples/tool-calls/server.ts"], { cwd: app });
    if (server.status !== 0) {
      failures.push(`${version}: examples/tool-calls/server.ts`);
      console.log(`FAIL ${version}: server.ts\n${server.stderr}`);
    } else {
      const out = run(
        `${version}: server.ts | client.ts`,
        node,
        ["examples/tool-calls/client.ts"],
        {
          cwd: app,
          input: server.stdout,
        },
      );
      // The id above 2^53 the model wrote arrives exactly through raw_args_json.
      if (out !== undefined && !out.includes('"user_id": 9007199254740993')) {
        failures.push(`${version}: client.ts did not print the exact id`);
      }
    }
    for (const s of snippets.filter((snippet) => snippet.run)) {
      run(`${version}: ${s.where}`, node, [join("snippets", s.file)], { cwd: app });
    }
  }
} finally {
  if (opts.keep) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.log(`consumer-check: ${failures.length} failed: ${failures.join("; ")}`);
  process.exit(1);
}
console.log("consumer-check: ok");
