// The BUILT CLI (dist/src/cli/main.js), run as a subprocess the way users run
// it, on the fixtures in test/fixtures/cli: exact stdout, stderr and exit code.

import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { DECODE_HELP } from "../src/cli/decode-command.js";
import { ENCODE_HELP } from "../src/cli/encode-command.js";
import { INSPECT_HELP } from "../src/cli/inspect-command.js";

const ROOT = new URL("..", import.meta.url).pathname;
const CLI = join(ROOT, "dist/src/cli/main.js");
const FIXTURES = join(ROOT, "test/fixtures/cli");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

beforeAll(() => {
  // Build unless dist is newer than every source (CI has just built it; a
  // rebuild would delete dist under other suites that read it).
  let built = 0;
  try {
    built = statSync(CLI).mtimeMs;
  } catch {
    // not built yet
  }
  if (built < Math.max(newestMtime(join(ROOT, "src")), newestMtime(join(ROOT, "gen")))) {
    execFileSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "pipe" });
  }
}, 300_000);

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: readonly string[], stdin?: string | Buffer): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: FIXTURES,
    input: Buffer.from(stdin ?? ""),
  });
  return { status: r.status, stdout: r.stdout.toString("utf8"), stderr: r.stderr.toString("utf8") };
}

function cliBytes(args: readonly string[], stdin?: string | Buffer): Buffer {
  return spawnSync(process.execPath, [CLI, ...args], { cwd: FIXTURES, input: stdin ?? "" }).stdout;
}

const fixture = (name: string) => readFileSync(join(FIXTURES, name));

const ARGS_TEXT = '{"id": 9007199254740993, "line": 5, "temp": 1.0, "tags": ["a"]}\n';
const ACTION_JSON =
  '{"actionId":"a1","callMcpTool":{"serverId":"db","name":"lookup","args":{"id":9007199254740992,"line":5,"temp":1,"tags":["a"]},"rawArgsJson":"{\\"id\\": 9007199254740993, \\"line\\": 5, \\"temp\\": 1.0, \\"tags\\": [\\"a\\"]}\\n"}}\n';

describe("help and usage", () => {
  test.each([
    [["--help"], /^Usage: struct-json-bridge <command> \[options\]\n/],
    [["help"], /^Usage: struct-json-bridge <command> \[options\]\n/],
  ])("%j prints the overview and exits 0", (args, first) => {
    const r = cli(args);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(first);
    expect(r.stdout).toContain("Exit status: 0 ok, 1 input rejected");
    expect(r.stderr).toBe("");
  });

  test.each([
    [["decode", "--help"], DECODE_HELP],
    [["encode", "-h"], ENCODE_HELP],
    [["inspect", "--help"], INSPECT_HELP],
    [["help", "decode"], DECODE_HELP],
  ])("%j prints that command's help", (args, help) => {
    expect(cli(args)).toEqual({ status: 0, stdout: `${help}\n`, stderr: "" });
  });

  test("no command: the overview on stderr, exit 2", () => {
    const r = cli([]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^Usage: struct-json-bridge/);
  });

  test("--version prints the package version", () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    expect(cli(["--version"])).toEqual({ status: 0, stdout: `${version}\n`, stderr: "" });
  });

  test.each([
    [
      ["bogus"],
      "struct-json-bridge: usage-error: unknown command (the commands are decode, encode and inspect) (see --help)",
    ],
    [
      ["help", "bogus"],
      "struct-json-bridge: usage-error: unknown command (the commands are decode, encode and inspect) (see --help)",
    ],
    [
      ["decode", "--bogus"],
      "struct-json-bridge: usage-error: decode: unknown option --bogus (see --help)",
    ],
    [
      ["decode", "--format", "xml", "action.json"],
      "struct-json-bridge: usage-error: --format must be binary or json (see --help)",
    ],
    [
      ["decode", "--raw", "maybe", "action.json"],
      "struct-json-bridge: usage-error: --raw must be verify or trust or ignore (see --help)",
    ],
    [
      ["decode", "--schema"],
      "struct-json-bridge: usage-error: decode: --schema needs a value (see --help)",
    ],
    [
      ["decode", "a.json", "b.json"],
      "struct-json-bridge: usage-error: decode: expected one input FILE, got 2 (see --help)",
    ],
    [
      ["encode", "args.json"],
      "struct-json-bridge: usage-error: encode: --name NAME is required (see --help)",
    ],
    [
      ["encode", "--name", "t", "--raw", "sometimes", "args.json"],
      "struct-json-bridge: usage-error: --raw must be always or when-lossy or never (see --help)",
    ],
    [
      ["inspect", "--schema", "tools-list.json"],
      "struct-json-bridge: usage-error: inspect: FILE is required (- for stdin) (see --help)",
    ],
    [
      ["inspect", "action.json"],
      "struct-json-bridge: usage-error: inspect: --schema FILE is required (see --help)",
    ],
  ])("%j is a usage error (exit 2, one line)", (args, line) => {
    expect(cli(args)).toEqual({ status: 2, stdout: "", stderr: `${line}\n` });
  });
});

describe("encode", () => {
  test("ProtoJSON by default; raw_args_json is the input byte for byte; precision-lost on stderr", () => {
    expect(
      cli(["encode", "--name", "lookup", "--server-id", "db", "--action-id", "a1", "args.json"]),
    ).toEqual({
      status: 0,
      stdout: ACTION_JSON,
      stderr: "/id\tprecision-lost\n",
    });
  });

  test("--format binary writes the same ClientAction as the binary fixture, from stdin", () => {
    const out = cliBytes(
      [
        "encode",
        "--name",
        "lookup",
        "--server-id",
        "db",
        "--action-id",
        "a1",
        "--format",
        "binary",
        "-",
      ],
      ARGS_TEXT,
    );
    expect(out.equals(fixture("action.binpb"))).toBe(true);
  });

  test.each([
    ["always", '"rawArgsJson":"{\\"n\\":5}"'],
    ["when-lossy", undefined],
    ["never", undefined],
  ])("--raw %s on lossless input", (raw, member) => {
    const r = cli(["encode", "--name", "t", "--raw", raw], '{"n":5}');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      `{"callMcpTool":{"name":"t","args":{"n":5}${member === undefined ? "" : `,${member}`}}}\n`,
    );
  });

  test.each([
    [
      "args-invalid.json",
      [],
      "struct-json-bridge: invalid-json at /line: unexpected end of input at position 33",
    ],
    [
      "-",
      "[1, 2]",
      "struct-json-bridge: not-an-object at (root): the top level must be a JSON object",
    ],
    [
      "-",
      '{"a": 1, "a": 2}',
      "struct-json-bridge: duplicate-key at /a: a key appears twice in one object (two readings)",
    ],
    [
      "-",
      '{"x": 1e400}',
      "struct-json-bridge: number-out-of-range at /x: the number is beyond float64's range",
    ],
    [
      "missing.json",
      [],
      "struct-json-bridge: input-unreadable: cannot read the input: no such file",
    ],
  ] as const)("bad input %s is rejected (exit 1, one line)", (file, stdin, line) => {
    const r = cli(["encode", "--name", "t", file], typeof stdin === "string" ? stdin : undefined);
    expect(r).toEqual({ status: 1, stdout: "", stderr: `${line}\n` });
  });

  test("input that is not UTF-8 is rejected", () => {
    const r = cli(
      ["encode", "--name", "t"],
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    );
    expect(r).toEqual({
      status: 1,
      stdout: "",
      stderr: "struct-json-bridge: invalid-unicode: the input is not valid UTF-8 text\n",
    });
  });
});

describe("decode", () => {
  test.each([
    ["binary file, auto-detected", ["action.binpb"]],
    ["ProtoJSON file, auto-detected", ["action.json"]],
    ["binary on stdin, --format binary", ["--format", "binary", "-"], "action.binpb"],
    [
      "ProtoJSON, --format json --type action",
      ["--format", "json", "--type", "action", "action.json"],
    ],
    ["with a tools/list schema", ["--schema", "tools-list.json", "action.binpb"]],
  ])("%s: raw_args_json verified and passed on untouched", (_label, args, stdinFile?: string) => {
    const r = cli(["decode", ...args], stdinFile === undefined ? undefined : fixture(stdinFile));
    expect(r).toEqual({ status: 0, stdout: ARGS_TEXT, stderr: "" });
  });

  test.each([
    [
      ["--raw", "ignore", "--schema", "lookup-schema.json"],
      '{"id":9007199254740992,"line":5,"temp":1.0,"tags":["a"]}',
      "/id\tinteger-precision-lost\n",
    ],
    [
      ["--raw", "ignore", "--schema", "tools-list.json", "--whole-floats", "integer"],
      '{"id":9007199254740992,"line":5,"temp":1,"tags":["a"]}',
      "/id\tinteger-precision-lost\n",
    ],
    [["--raw", "ignore"], '{"id":9007199254740992,"line":5,"temp":1,"tags":["a"]}', ""],
    [["--raw", "trust"], ARGS_TEXT.trimEnd(), ""],
  ])("%j", (opts, json, stderr) => {
    expect(cli(["decode", ...opts, "action.binpb"])).toEqual({
      status: 0,
      stdout: `${json}\n`,
      stderr,
    });
  });

  test("a CallMCPTool without raw text: the schema restores what it can", () => {
    expect(cli(["decode", "--schema", "tools-list.json", "call-no-raw.json"])).toEqual({
      status: 0,
      stdout: '{"line":5,"temp":1.0}\n',
      stderr: "",
    });
  });

  test.each([
    [
      ["result.json", "--schema", "tools-list.json", "--tool", "query_rows"],
      '{"rows":[[9007199254740993,"Ada",1.0]]}',
      "",
    ],
    [
      ["--raw", "ignore", "--schema", "tools-list.json", "--tool", "query_rows", "result.json"],
      '{"rows":[[9007199254740992,"Ada",1.0]]}',
      "/rows/0/0\tinteger-precision-lost\n",
    ],
  ])("an MCPToolResult: %j", (args, json, stderr) => {
    expect(cli(["decode", ...args])).toEqual({ status: 0, stdout: `${json}\n`, stderr });
  });

  test.each([
    [
      ["action-truncated.binpb"],
      "message-invalid: the input is neither ProtoJSON nor a binary ClientAction, CallMCPTool or MCPToolResult (as a ClientAction: it ends inside a field)",
    ],
    [
      ["--format", "binary", "action.json"],
      "message-invalid: the input is neither ProtoJSON nor a binary ClientAction, CallMCPTool or MCPToolResult (as a ClientAction: it has an invalid field tag or wire type)",
    ],
    [
      ["--type", "result", "action.binpb"],
      "message-invalid: not a valid binary MCPToolResult: it has an invalid field tag or wire type",
    ],
    [["--format", "json", "action.binpb"], "invalid-unicode: the input is not valid UTF-8 text"],
    [
      ["args-invalid.json"],
      "invalid-json at /line of the input message: unexpected end of input at position 33",
    ],
    [
      ["call-duplicate-key.json"],
      "duplicate-key at /name of the input message: a key appears twice in one object (two readings)",
    ],
    [
      ["call-mismatch.json"],
      "raw-struct-mismatch at /id: the raw JSON text and the Struct disagree here (two readings)",
    ],
    [
      ["args.json"],
      "message-ambiguous: cannot tell which message this ProtoJSON is (no member of ClientAction, CallMCPTool or MCPToolResult): pass --type",
    ],
    [
      ["--schema", "schema-unreadable.json", "action.binpb"],
      "invalid-json at /properties of the --schema file: unexpected end of input at position 60",
    ],
    [
      ["--schema", "schema-duplicate-key.json", "action.binpb"],
      "duplicate-key at /type of the --schema file: a key appears twice in one object (two readings)",
    ],
    [
      ["--schema", "missing.json", "action.binpb"],
      "input-unreadable: cannot read the --schema file: no such file",
    ],
    [
      ["--schema", "tools-list.json", "result.json"],
      "tool-not-found: the --schema file lists several tools: pass --tool NAME",
    ],
    [
      ["--schema", "tools-list.json", "--tool", "nope", "action.binpb"],
      "tool-not-found: the --schema file lists no tool by the name given to --tool",
    ],
    [["missing.bin"], "input-unreadable: cannot read the input: no such file"],
    [["."], "input-unreadable: cannot read the input: it is a directory"],
  ])("%j is rejected (exit 1, one line)", (args, line) => {
    expect(cli(["decode", ...args])).toEqual({
      status: 1,
      stdout: "",
      stderr: `struct-json-bridge: ${line}\n`,
    });
  });

  test("a ClientAction forced to read as an MCPToolResult is rejected, not half-read", () => {
    // Field 2 (the call) parses as a Struct only by dropping its fields: never silently.
    const bytes = cliBytes(["encode", "--name", "lookup", "--format", "binary"], '{"id":1}');
    expect(cli(["decode", "--type", "result"], bytes)).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "struct-json-bridge: message-invalid: not a valid binary MCPToolResult: it has fields this type does not define\n",
    });
  });

  test("empty input is rejected", () => {
    expect(cli(["decode"], "")).toEqual({
      status: 1,
      stdout: "",
      stderr: "struct-json-bridge: message-invalid: the input is empty\n",
    });
  });

  test("encode | decode round-trips through binary", () => {
    const bytes = cliBytes(
      ["encode", "--name", "lookup", "--format", "binary"],
      '{"ids":[9007199254740993,2],"t":0.5}',
    );
    expect(cli(["decode"], bytes)).toEqual({
      status: 0,
      stdout: '{"ids":[9007199254740993,2],"t":0.5}\n',
      stderr: "",
    });
  });
});

describe("inspect", () => {
  test("a ClientAction: per number its path, Struct value, raw text, reading, output and codes", () => {
    expect(cli(["inspect", "action.binpb", "--schema", "tools-list.json"])).toEqual({
      status: 0,
      stdout: [
        "path\tstruct\traw\treading\toutput\tcodes",
        "/id\t9007199254740992\t9007199254740993\tinteger\t9007199254740992\tinteger-precision-lost",
        "/line\t5\t5\tinteger\t5\t-",
        "/temp\t1\t1.0\tnumber\t1.0\t-",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  test("an MCPToolResult under its outputSchema", () => {
    expect(
      cli(["inspect", "result.json", "--schema", "tools-list.json", "--tool", "query_rows"]),
    ).toEqual({
      status: 0,
      stdout: [
        "path\tstruct\traw\treading\toutput\tcodes",
        "/rows/0/0\t9007199254740992\t9007199254740993\tinteger\t9007199254740992\tinteger-precision-lost",
        "/rows/0/2\t1\t1.0\tnumber\t1.0\t-",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  test("without raw text the raw column is '-'", () => {
    expect(cli(["inspect", "call-no-raw.json", "--schema", "lookup-schema.json"])).toEqual({
      status: 0,
      stdout: [
        "path\tstruct\traw\treading\toutput\tcodes",
        "/line\t5\t-\tinteger\t5\t-",
        "/temp\t1\t-\tnumber\t1.0\t-",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  test.each([
    [
      ["action-truncated.binpb", "--schema", "tools-list.json"],
      "message-invalid: the input is neither ProtoJSON nor a binary ClientAction, CallMCPTool or MCPToolResult (as a ClientAction: it ends inside a field)",
    ],
    [
      ["action.binpb", "--schema", "schema-unreadable.json"],
      "invalid-json at /properties of the --schema file: unexpected end of input at position 60",
    ],
  ])("%j is rejected (exit 1, one line)", (args, line) => {
    expect(cli(["inspect", ...args])).toEqual({
      status: 1,
      stdout: "",
      stderr: `struct-json-bridge: ${line}\n`,
    });
  });
});
