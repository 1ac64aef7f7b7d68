// The BUILT CLI (dist/src/cli/main.js), run as a subprocess the way users run
// it, on the fixtures in test/fixtures/cli: exact stdout, stderr and exit code.

import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DECODE_HELP } from "../src/cli/decode-command.js";
import { ENCODE_HELP } from "../src/cli/encode-command.js";
import { INSPECT_HELP } from "../src/cli/inspect-command.js";
import { toolResultFromJson } from "../src/index.js";
import { MCPToolResultSchema } from "../src/messages.js";
import { binaryCall } from "./cli-helpers.js";

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
const json = (v: unknown) => JSON.stringify(v);

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
    [["--help", "inspect"], INSPECT_HELP],
    [["-h", "encode"], ENCODE_HELP],
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
    [["decode", "--bogus"], "struct-json-bridge: usage-error: decode: unknown option (see --help)"],
    [
      ["decode", "--name", "t"],
      "struct-json-bridge: usage-error: decode: unknown option --name (see --help)",
    ],
    [
      ["inspect", "--raw=trust"],
      "struct-json-bridge: usage-error: inspect: unknown option --raw (see --help)",
    ],
    [
      ["decode", "--sk-proj-abc123"],
      "struct-json-bridge: usage-error: decode: unknown option (see --help)",
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
    [
      ["decode", "--raw", "trust", "--raw", "ignore", "action.json"],
      "struct-json-bridge: usage-error: decode: --raw is given twice (see --help)",
    ],
    [
      ["decode", "--schema", "--tool", "x", "action.json"],
      "struct-json-bridge: usage-error: decode: --schema needs a value (see --help)",
    ],
    [
      ["decode", "--help=yes"],
      "struct-json-bridge: usage-error: decode: --help takes no value (see --help)",
    ],
    [["decode", "-x"], "struct-json-bridge: usage-error: decode: unknown option -x (see --help)"],
    [
      ["help", "toString"],
      "struct-json-bridge: usage-error: unknown command (the commands are decode, encode and inspect) (see --help)",
    ],
    [
      ["--help", "__proto__"],
      "struct-json-bridge: usage-error: unknown command (the commands are decode, encode and inspect) (see --help)",
    ],
    [
      ["help", "decode", "extra"],
      "struct-json-bridge: usage-error: --help and help take one COMMAND at most; --version takes none (see --help)",
    ],
    [
      ["--version", "extra"],
      "struct-json-bridge: usage-error: --help and help take one COMMAND at most; --version takes none (see --help)",
    ],
    [
      ["decode", "--Bogus=secret"],
      "struct-json-bridge: usage-error: decode: unknown option (see --help)",
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
  // ProtoJSON written by hand may hold a number its Struct's float64 cannot
  // give back: reported as encode reports it. A float64 written at any
  // precision (protobuf-es's shortest form, Java's 17 digits) is no loss.
  test.each([
    [
      '{"name":"t","args":{"a":9007199254740993}}',
      '{"a":9007199254740992}',
      "/a\tprecision-lost\n",
    ],
    ['{"name":"t","args":{"a":[0.30000000000000000001]}}', '{"a":[0.3]}', "/a/0\tprecision-lost\n"],
    ['{"name":"t","args":{"a":1e-400}}', '{"a":0}', "/a\tprecision-lost\n"],
    [
      '{"callMcpTool":{"name":"t","args":{"x":{"a~b":9007199254740993}}}}',
      '{"x":{"a~b":9007199254740992}}',
      "/x/a~0b\tprecision-lost\n",
    ],
    [
      '{"structuredContent":{"n":9007199254740993}}',
      '{"n":9007199254740992}',
      "/n\tprecision-lost\n",
    ],
    [
      '{"name":"t","args":{"a":1152921504606847000,"b":1.15292150460684698E18}}',
      '{"a":1152921504606847000,"b":1152921504606847000}',
      "",
    ],
  ])("ProtoJSON %s: precision-lost where the text is not its float64", (input, out, stderr) => {
    expect(cli(["decode", "-"], input)).toEqual({ status: 0, stdout: `${out}\n`, stderr });
  });

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
    expect(r).toEqual({ status: 0, stdout: `${ARGS_TEXT}\n`, stderr: "" });
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
    [["--raw", "trust"], ARGS_TEXT, ""],
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
      "message-invalid: the input is not a binary ClientAction, CallMCPTool or MCPToolResult (as a ClientAction: it has an invalid field tag or wire type)",
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

// ---- issue 12: the edges -----------------------------------------------------

const tmp = mkdtempSync(join(tmpdir(), "sjb-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let tmpCount = 0;
/** Writes `content` to a new file (outside the fixtures) and returns its path. */
function tmpFile(content: string | Uint8Array): string {
  const path = join(tmp, `in${tmpCount++}`);
  writeFileSync(path, content);
  return path;
}

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

const zeros = (n: number) => "/0".repeat(n);
const HEADER = "path\tstruct\traw\treading\toutput\tcodes";

/** decode and inspect both reject the --schema file with exactly this line (exit 1). */
function expectSchemaRejected(schemaFile: string, line: string): void {
  for (const command of [
    ["decode", "action.binpb"],
    ["inspect", "action.binpb"],
  ]) {
    expect(cli([...command, "--schema", schemaFile])).toEqual({
      status: 1,
      stdout: "",
      stderr: `struct-json-bridge: ${line}\n`,
    });
  }
}

describe("deep input: a documented exit and one line, never a stack overflow", () => {
  test.each([3000, 100_000])(
    "inspect and decode on raw_args_json nested %i levels (the issue's crash)",
    (depth) => {
      const f = tmpFile(
        json({ callMcpTool: { name: "t", args: { a: 1 }, rawArgsJson: `{"a":${nested(depth)}}` } }),
      );
      expect(cli(["inspect", f, "--schema", "lookup-schema.json"])).toEqual({
        status: 0,
        stdout: `${HEADER}\n/a\t1\t-\tunknown\t1\t-\n`,
        stderr:
          '\traw-json-invalid\nstruct-json-bridge: warning: schema-describes-no-number: the schema describes none of the message\'s 1 number (each reads "unknown")\n',
      });
      expect(cli(["decode", f])).toEqual({
        status: 0,
        stdout: '{"a":1}\n',
        stderr: "\traw-json-invalid\n",
      });
    },
  );

  test.each([
    ["decode", []],
    ["inspect", ["--schema", "lookup-schema.json"]],
  ])("%s: ProtoJSON arguments nested 100000 levels", (command, opts) => {
    const action = tmpFile(`{"callMcpTool":{"name":"t","args":{"a":${nested(100_000)}}}}`);
    const call = tmpFile(`{"name":"t","args":{"a":${nested(50)}}}`);
    const line = (path: string) =>
      `struct-json-bridge: recursion-limit at ${path} of the input message: a Struct nests deeper than 49 levels\n`;
    expect(cli([command, action, ...opts])).toEqual({
      status: 1,
      stdout: "",
      stderr: line(`/callMcpTool/args/a${zeros(48)}`),
    });
    expect(cli([command, call, ...opts])).toEqual({
      status: 1,
      stdout: "",
      stderr: line(`/args/a${zeros(48)}`),
    });
  });

  test("the deepest Struct encode writes (49 levels) is read back; one more is not", () => {
    const ok = cliBytes(["encode", "--name", "t", "--format", "binary"], `{"a":${nested(48)}}`);
    expect(cli(["decode", tmpFile(ok)])).toEqual({
      status: 0,
      stdout: `{"a":${nested(48)}}\n`,
      stderr: "",
    });
    expect(cli(["encode", "--name", "t"], `{"a":${nested(100_000)}}`)).toEqual({
      status: 1,
      stdout: "",
      stderr: `struct-json-bridge: recursion-limit at /a${zeros(48)}: nesting deeper than recursionLimit 49\n`,
    });
  });

  test("binary: a Struct nested 5000 levels", () => {
    // Value{list_value{values:[Value{…}]}} by hand: protobuf-es would refuse to write it.
    let value = Uint8Array.from([0x20, 0x01]); // bool_value: true
    for (let i = 0; i < 5000; i++) {
      const list = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(value).finish();
      value = new BinaryWriter().tag(6, WireType.LengthDelimited).bytes(list).finish();
    }
    const call = binaryCall("a", value);
    for (const command of [["decode"], ["inspect", "--schema", "lookup-schema.json"]]) {
      expect(cli([...command, tmpFile(call)])).toEqual({
        status: 1,
        stdout: "",
        stderr:
          "struct-json-bridge: recursion-limit: the input nests deeper than protobuf's recursion limit\n",
      });
    }
  });

  test("a --schema file nested 100000 levels", () => {
    const schema = tmpFile(`{"x":${nested(100_000)}}`);
    expectSchemaRejected(
      schema,
      `recursion-limit at /x${zeros(511)} of the --schema file: nesting deeper than 512 levels`,
    );
  });
});

describe("no input value in any message", () => {
  test("the issue's case: a string where the Struct goes", () => {
    expect(cli(["decode", "-"], '{"name":"t","args":"sk-live-SECRET"}\n')).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "struct-json-bridge: message-invalid at /args of the input message: expected an object\n",
    });
  });

  test.each([
    ['{"name":"t","args":{},"extra":"sk-live-SECRET"}', "/extra", "CallMCPTool has no such field"],
    ['{"name":{"k":"sk-live-SECRET"}}', "/name", "expected a string"],
    ['{"structuredContent":{},"isError":"sk-live-SECRET"}', "/isError", "expected true or false"],
    [
      '{"name":"t","server_id":"sk-live-SECRET","serverId":"x"}',
      "/serverId",
      "a field (or a oneof) is set twice, under two names",
    ],
  ])("%s", (text, path, detail) => {
    expect(cli(["decode", "-"], text)).toEqual({
      status: 1,
      stdout: "",
      stderr: `struct-json-bridge: message-invalid at ${path} of the input message: ${detail}\n`,
    });
  });

  test("a path holding control characters stays on one line", () => {
    const key = "a\nb\t\u001b[31m\\";
    const text = `{"name":"t","args":{${json(key)}:1e999}}`;
    expect(cli(["decode", "-"], text)).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "struct-json-bridge: number-out-of-range at /args/a\\nb\\t\\u001b[31m\\\\ of the input message: the number is beyond float64's range\n",
    });
    const action = cliBytes(["encode", "--name", "t"], `{${json(key)}:9007199254740993}`);
    expect(cli(["inspect", "-", "--schema", "lookup-schema.json"], action).stdout).toBe(
      `${HEADER}\n/a\\nb\\t\\u001b[31m\\\\\t9007199254740992\t9007199254740993\tunknown\t9007199254740992\t-\n`,
    );
  });
});

describe("ProtoJSON is read by the package's parser, in the package's words", () => {
  test.each([
    [
      '{"name":"t","args":{"x":1e999}}',
      "number-out-of-range at /args/x of the input message: the number is beyond float64's range",
    ],
    [
      '{"callMcpTool":{"name":"t","args":{"x":-1e999}}}',
      "number-out-of-range at /callMcpTool/args/x of the input message: the number is beyond float64's range",
    ],
    [
      '{"name":"t","args":{"x":"\\ud800"}}',
      "invalid-unicode at /args/x of the input message: a string holds a lone surrogate (not valid UTF-8)",
    ],
    [
      '{"name":"t","args":{"x":["ok","\\udc00x"]}}',
      "invalid-unicode at /args/x/1 of the input message: a string holds a lone surrogate (not valid UTF-8)",
    ],
    [
      '{"name":"t\\ud800","args":{}}',
      "invalid-unicode at /name of the input message: a string holds a lone surrogate (not valid UTF-8)",
    ],
    [
      '{"structuredContent":{"a":1,"a":2}}',
      "duplicate-key at /structuredContent/a of the input message: a key appears twice in one object (two readings)",
    ],
    [
      '{"name":"t","args":{"a":1,}}',
      "invalid-json at /args of the input message: expected a string key at position 26",
    ],
  ])("%s", (text, line) => {
    for (const command of [["decode"], ["inspect", "--schema", "lookup-schema.json"]]) {
      expect(cli([...command, "-"], text)).toEqual({
        status: 1,
        stdout: "",
        stderr: `struct-json-bridge: ${line}\n`,
      });
    }
  });
});

describe("--schema: a JSON Schema or tools, nothing else", () => {
  const notASchema = (rule: string) => `not a JSON Schema: ${rule}`;
  test.each([
    [
      '{"type":5}',
      "/type",
      notASchema('"type" must be a JSON type name or a non-empty array of them'),
    ],
    [
      '{"type":"integr"}',
      "/type",
      notASchema('"type" must be a JSON type name or a non-empty array of them'),
    ],
    [
      '{"properties":{"id":{"type":["integer",null]}}}',
      "/properties/id/type",
      notASchema('"type" must be a JSON type name or a non-empty array of them'),
    ],
    ['{"properties":{"id":5}}', "/properties/id", notASchema("a schema is an object or a boolean")],
    [
      '{"properties":[]}',
      "/properties",
      notASchema('"properties" must be an object whose members are schemas'),
    ],
    ['{"allOf":[]}', "/allOf", notASchema('"allOf" must be a non-empty array of schemas')],
    ['{"items":"x"}', "/items", notASchema('"items" must be a schema or an array of schemas')],
    ['{"multipleOf":0}', "/multipleOf", notASchema('"multipleOf" must be a number greater than 0')],
    ['{"$ref":5}', "/$ref", notASchema('"$ref" must be a string')],
    [
      '{"$defs":{"a":{"type":5}}}',
      "/$defs/a/type",
      notASchema('"type" must be a JSON type name or a non-empty array of them'),
    ],

    ["5", "(root)", "neither a JSON Schema (an object or a boolean) nor tools"],
    ['"x"', "(root)", "neither a JSON Schema (an object or a boolean) nor tools"],
    ["null", "(root)", "neither a JSON Schema (an object or a boolean) nor tools"],
    ["[1]", "/0", "a tool must be an object with a string name"],
    ['{"tools":{}}', "/tools", "a tools list's tools must be an array"],
    ['{"tools":[{"description":"x"}]}', "/tools/0", "a tool must be an object with a string name"],
    [
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"x"}}',
      "/error",
      "a JSON-RPC error response, not a tools list",
    ],
    [
      '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}',
      "(root)",
      "a JSON-RPC message that holds no tools list (result.tools)",
    ],
    ['{"tools":[{"name":"lookup"},{"name":"lookup"}]}', "/tools/1", "two tools have the same name"],
    [
      '{"tools":[{"name":"lookup","inputSchema":{"properties":{"id":{"type":5}}}}]}',
      "/tools/0/inputSchema/properties/id/type",
      notASchema('"type" must be a JSON type name or a non-empty array of them'),
    ],
  ])("%s is rejected", (schema, path, detail) => {
    const f = tmpFile(schema);
    expectSchemaRejected(f, `schema-invalid at ${path} of the --schema file: ${detail}`);
  });

  test("a saved JSON-RPC tools/list response is the tools list it holds", () => {
    const tools = JSON.parse(fixture("tools-list.json").toString("utf8")) as unknown;
    const envelope = tmpFile(json({ jsonrpc: "2.0", id: 7, result: tools }));
    const bare = tmpFile(json((tools as { tools: unknown }).tools));
    for (const f of [envelope, bare]) {
      for (const args of [
        ["inspect", "action.binpb", "--schema"],
        ["decode", "--raw", "ignore", "action.binpb", "--schema"],
        ["decode", "result.json", "--tool", "query_rows", "--schema"],
      ]) {
        const expected = cli([...args, "tools-list.json"]);
        expect(expected.status).toBe(0);
        expect(cli([...args, f])).toEqual(expected);
      }
    }
  });

  test("a schema that describes none of the numbers is a warning", () => {
    const elsewhere = tmpFile('{"type":"object","properties":{"other":{"type":"integer"}}}');
    const warning = (n: number) =>
      `struct-json-bridge: warning: schema-describes-no-number: the schema describes none of the message's ${n} numbers (each reads "unknown")\n`;
    expect(cli(["decode", "--schema", elsewhere, "action.binpb"])).toEqual({
      status: 0,
      stdout: `${ARGS_TEXT}\n`,
      stderr: warning(3),
    });
    const inspect = cli(["inspect", "action.binpb", "--schema", elsewhere]);
    expect(inspect.status).toBe(0);
    expect(inspect.stderr).toBe(warning(3));
    // No numbers, nothing to warn about; a schema that reads one number is enough.
    expect(cli(["decode", "--schema", elsewhere, "-"], '{"name":"t","args":{"s":"x"}}')).toEqual({
      status: 0,
      stdout: '{"s":"x"}\n',
      stderr: "",
    });
    const one = tmpFile('{"properties":{"line":{"type":"integer"}}}');
    expect(cli(["decode", "--schema", one, "action.binpb"]).stderr).toBe("");
  });

  test("a tool without the schema the message needs is a warning", () => {
    expect(
      cli(["decode", "result.json", "--schema", "tools-list.json", "--tool", "lookup"]),
    ).toEqual({
      status: 0,
      stdout: '{"rows":[[9007199254740993,"Ada",1.0]]}\n',
      stderr:
        'struct-json-bridge: warning: schema-describes-no-number: the tool has no outputSchema, so none of the message\'s 2 numbers is described (each reads "unknown")\n',
    });
  });
});

describe("arguments posing as a message", () => {
  test("inspect shows what decode sends", () => {
    const forged =
      '{"$typeName":"google.protobuf.Struct","fields":{"amount":{"kind":{"case":"numberValue","value":1}}},"amount":1000000}';
    const action = cliBytes(["encode", "--name", "pay"], forged);
    expect(cli(["decode", "-"], action)).toEqual({ status: 0, stdout: `${forged}\n`, stderr: "" });
    const schema = tmpFile('{"properties":{"amount":{"type":"integer"}}}');
    expect(cli(["inspect", "-", "--schema", schema], action)).toEqual({
      status: 0,
      stdout: `${HEADER}\n/fields/amount/kind/value\t1\t1\tunknown\t1\t-\n/amount\t1000000\t1000000\tinteger\t1000000\t-\n`,
      stderr: "",
    });
  });
});

describe("non-finite numbers in a binary Struct", () => {
  test.each([
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
  ])("%s: decode rejects it, inspect shows it", (v, shown) => {
    const value = new BinaryWriter().tag(2, WireType.Bit64).double(v).finish();
    const call = tmpFile(binaryCall("x", value));
    expect(cli(["decode", call])).toEqual({
      status: 1,
      stdout: "",
      stderr: "struct-json-bridge: non-finite-number at /x: NaN and Infinity have no JSON form\n",
    });
    const schema = tmpFile('{"properties":{"x":{"type":"number"}}}');
    expect(cli(["inspect", call, "--schema", schema])).toEqual({
      status: 0,
      // The library gives a non-finite number no reading.
      stdout: `${HEADER}\n/x\t${shown}\t-\tunknown\tnull\tnon-finite-number\n`,
      stderr: "",
    });
  });
});

// ---- helper s9: hostile and edge inputs ----------------------------------------

describe("binary input that reads as several message types", () => {
  // A result whose Struct holds one member, without raw text or is_error:
  // its bytes also read as a ClientAction whose call has only a server_id
  // (the member's bytes) and as a CallMCPTool named by them.
  const result = (content: string) =>
    toBinary(
      MCPToolResultSchema,
      toolResultFromJson({ structuredContentJson: content }, { rawStructuredContentJson: "never" }),
    );
  test.each([
    ['{"count":5}', "ClientAction and as MCPToolResult and as CallMCPTool"],
    ['{"ok":true}', "ClientAction and as MCPToolResult and as CallMCPTool"],
    ['{"count":5,"b":"x"}', "MCPToolResult and as CallMCPTool"],
  ])("the result %s is ambiguous, never read as another type", (content, readings) => {
    const f = tmpFile(result(content));
    const line = `struct-json-bridge: message-ambiguous: cannot tell which message this is (it reads as ${readings}): pass --type\n`;
    expect(cli(["decode", f])).toEqual({ status: 1, stdout: "", stderr: line });
    expect(cli(["inspect", f, "--schema", "lookup-schema.json"])).toEqual({
      status: 1,
      stdout: "",
      stderr: line,
    });
    expect(cli(["decode", "--type", "result", f])).toEqual({
      status: 0,
      stdout: `${content}\n`,
      stderr: "",
    });
  });
});

describe("bytes that read both as ProtoJSON and as binary", () => {
  // A result whose action_id is a 32-byte ProtoJSON text: its bytes are
  // "\n" (field 1), " " (length 32), then the text: valid JSON after a blank.
  const id = '{"name":"t","args":{"a":123456}}';
  test.each([
    [
      "a result with only that action_id",
      create(MCPToolResultSchema, { actionId: id }),
      "message-ambiguous: the input reads both as ProtoJSON and as a binary message: pass --format",
    ],
    [
      "a result with that action_id and structured content (not JSON)",
      create(MCPToolResultSchema, { actionId: id, structuredContent: {} }),
      "message-ambiguous: cannot tell which message this is (it reads as ClientAction and as MCPToolResult): pass --type",
    ],
  ])("%s is not read as the ProtoJSON it holds", (_label, message, line) => {
    const f = tmpFile(toBinary(MCPToolResultSchema, message));
    expect(cli(["decode", f])).toEqual({
      status: 1,
      stdout: "",
      stderr: `struct-json-bridge: ${line}\n`,
    });
  });

  test("ProtoJSON after blank lines is still ProtoJSON", () => {
    expect(cli(["decode"], `\n\n  ${fixture("action.json").toString()}`)).toEqual({
      status: 0,
      stdout: `${ARGS_TEXT}\n`,
      stderr: "",
    });
  });
});

describe("decode's output is the library's text and one newline", () => {
  test.each([
    ['{"a":1}', '{"a":1}\n'],
    ['{"a":1}\n', '{"a":1}\n\n'],
    ['{"a":1}\r\n', '{"a":1}\r\n\n'],
    [' {"a":1} ', ' {"a":1} \n'],
  ])("raw text %j", (raw, stdout) => {
    const f = tmpFile(json({ name: "t", args: { a: 1 }, rawArgsJson: raw }));
    expect(cli(["decode", f])).toEqual({ status: 0, stdout, stderr: "" });
  });
});

describe("input that is not what the CLI reads: one line, a documented exit", () => {
  const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
  const utf16 = (text: string, littleEndian: boolean) => {
    const le = Buffer.from(`\ufeff${text}`, "utf16le");
    return littleEndian ? le : le.swap16();
  };
  const bomLine = (role: string) =>
    `invalid-json: ${role} starts with a UTF-8 byte order mark (U+FEFF) at position 0: JSON text has none`;
  const utf16Line =
    "invalid-unicode: the input is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8";
  const call = '{"name":"t","args":{"a":1}}';
  test.each([
    [
      "decode, a BOM before ProtoJSON",
      ["decode"],
      Buffer.concat([BOM, Buffer.from(call)]),
      bomLine("the input"),
    ],
    [
      "decode --format json, a BOM",
      ["decode", "--format", "json"],
      Buffer.concat([BOM, Buffer.from(call)]),
      bomLine("the input"),
    ],
    [
      "inspect, a BOM",
      ["inspect", "-", "--schema", "lookup-schema.json"],
      Buffer.concat([BOM, Buffer.from(call)]),
      bomLine("the input"),
    ],
    [
      "encode, a BOM",
      ["encode", "--name", "t"],
      Buffer.concat([BOM, Buffer.from('{"a":1}')]),
      bomLine("the input"),
    ],
    [
      "decode, ProtoJSON with a byte that is not UTF-8",
      ["decode"],
      Buffer.from('{"name":"t","args":{"a":"\xff"}}', "latin1"),
      "invalid-unicode: the input is not valid UTF-8 text",
    ],
    [
      "inspect, ProtoJSON after blanks with a byte that is not UTF-8",
      ["inspect", "-", "--schema", "lookup-schema.json"],
      Buffer.from('\n {"name":"t","args":{"a":"\xff"}}', "latin1"),
      "invalid-unicode: the input is not valid UTF-8 text",
    ],
    ["decode, UTF-16LE", ["decode"], utf16(call, true), utf16Line],
    ["decode, UTF-16BE", ["decode"], utf16(call, false), utf16Line],
    ["encode, UTF-16LE", ["encode", "--name", "t"], utf16('{"a":1}', true), utf16Line],
    ["encode, UTF-16BE", ["encode", "--name", "t"], utf16('{"a":1}', false), utf16Line],
    [
      "encode, empty",
      ["encode", "--name", "t"],
      "",
      "invalid-json at (root): unexpected end of input at position 0",
    ],
    [
      "decode, blanks only",
      ["decode", "--format", "json"],
      " \n",
      "invalid-json at (root) of the input message: unexpected end of input at position 2",
    ],
    [
      "decode, a path below a file",
      ["decode", "action.json/x"],
      "",
      "input-unreadable: cannot read the input: no such file",
    ],
    [
      "decode, an endless device",
      ["decode", "/dev/zero"],
      "",
      "input-too-large: the input is larger than the limit of 67108864 bytes (64 MiB)",
    ],
    [
      "decode, an endless --schema",
      ["decode", "--schema", "/dev/zero", "action.json"],
      "",
      "input-too-large: the --schema file is larger than the limit of 67108864 bytes (64 MiB)",
    ],
    [
      "encode, a directory",
      ["encode", "--name", "t", "."],
      "",
      "input-unreadable: cannot read the input: it is a directory",
    ],
    [
      "decode, a directory as --schema",
      ["decode", "--schema", ".", "action.json"],
      "",
      "input-unreadable: cannot read the --schema file: it is a directory",
    ],
  ] as const)("%s", (_label, args, stdin, line) => {
    expect(cli(args, stdin)).toEqual({
      status: 1,
      stdout: "",
      stderr: `struct-json-bridge: ${line}\n`,
    });
  });

  test("a --schema file with a BOM", () => {
    const schema = tmpFile(Buffer.concat([BOM, Buffer.from("{}")]));
    expectSchemaRejected(schema, bomLine("the --schema file"));
  });

  test("stdin beyond 64 MiB is too large, even as valid UTF-8 JSON", () => {
    const limit = 64 * 1024 * 1024;
    const text = Buffer.alloc(limit + 1, 0x20);
    text.write('{"a":"', 0);
    text.write('"}', limit - 1);
    for (const command of [["encode", "--name", "t"], ["decode"]]) {
      expect(cli(command, text)).toEqual({
        status: 1,
        stdout: "",
        stderr:
          "struct-json-bridge: input-too-large: the input is larger than the limit of 67108864 bytes (64 MiB)\n",
      });
    }
  });

  test("paths with spaces, and a FILE starting with '-' after '--'", () => {
    const spaced = join(tmp, "a file with spaces.json");
    writeFileSync(spaced, fixture("action.json"));
    const dashed = join(tmp, "-dashed.json");
    writeFileSync(dashed, fixture("action.json"));
    const expected = { status: 0, stdout: `${ARGS_TEXT}\n`, stderr: "" };
    expect(cli(["decode", spaced])).toEqual(expected);
    expect(
      spawnSync(process.execPath, [CLI, "decode", "--", "-dashed.json"], {
        cwd: tmp,
      }).stdout.toString(),
    ).toBe(expected.stdout);
  });
});

describe("the command line: conflicts and odd spellings are usage errors", () => {
  test.each([
    [
      ["decode", "--schema", "-"],
      "decode: stdin cannot be both the input and the --schema file (give one of them a FILE)",
    ],
    [
      ["decode", "--schema=-", "-"],
      "decode: stdin cannot be both the input and the --schema file (give one of them a FILE)",
    ],
    [
      ["inspect", "-", "--schema", "-"],
      "inspect: stdin cannot be both the input and the --schema file (give one of them a FILE)",
    ],
    [
      ["decode", "--tool", "lookup", "action.json"],
      "decode: --tool picks a tool of the --schema file: give --schema FILE",
    ],
    [["decode", "-h-"], "decode: unknown option"],
    [
      ["encode", "--name", "t\ufffd"],
      "encode: --name is not valid UTF-8 (it holds U+FFFD, the mark of bytes that are not)",
    ],
    [
      ["encode", "--name", "t", "--server-id", "\ufffd"],
      "encode: --server-id is not valid UTF-8 (it holds U+FFFD, the mark of bytes that are not)",
    ],
    [
      ["encode", "--name", "t", "--action-id=\ufffd"],
      "encode: --action-id is not valid UTF-8 (it holds U+FFFD, the mark of bytes that are not)",
    ],
    [
      ["inspect", "action.json", "--schema", "tools-list.json", "--tool", "\ufffd"],
      "inspect: --tool is not valid UTF-8 (it holds U+FFFD, the mark of bytes that are not)",
    ],
    [["decode", "-h-", "--bogus", "action.json"], "decode: unknown option"],
    [["encode", "--name", "t", "-h-"], "encode: unknown option"],
  ])("%j", (args, detail) => {
    expect(cli(args, fixture("lookup-schema.json"))).toEqual({
      status: 2,
      stdout: "",
      stderr: `struct-json-bridge: usage-error: ${detail} (see --help)\n`,
    });
  });

  test("a --name of bytes that are not UTF-8 is refused, not carried as U+FFFD", () => {
    const r = spawnSync(
      "bash",
      ["-c", `"$0" "$1" encode --name $'lookup\\xff' args.json`, process.execPath, CLI],
      {
        cwd: FIXTURES,
      },
    );
    expect({ status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() }).toEqual({
      status: 2,
      stdout: "",
      stderr:
        "struct-json-bridge: usage-error: encode: --name is not valid UTF-8 (it holds U+FFFD, the mark of bytes that are not) (see --help)\n",
    });
  });

  test("--schema from stdin with the input a FILE is fine", () => {
    expect(cli(["decode", "--schema", "-", "action.binpb"], fixture("lookup-schema.json"))).toEqual(
      {
        status: 0,
        stdout: `${ARGS_TEXT}\n`,
        stderr: "",
      },
    );
  });
});

describe("output", () => {
  /** Runs the CLI with stdout (or stderr) on /dev/full. */
  function toFull(args: readonly string[], stream: "stdout" | "stderr"): Run {
    const full = openSync("/dev/full", "w");
    try {
      const r = spawnSync(process.execPath, [CLI, ...args], {
        cwd: FIXTURES,
        stdio: ["ignore", stream === "stdout" ? full : "pipe", stream === "stderr" ? full : "pipe"],
      });
      return {
        status: r.status,
        stdout: r.stdout?.toString("utf8") ?? "",
        stderr: r.stderr?.toString("utf8") ?? "",
      };
    } finally {
      closeSync(full);
    }
  }

  test.each([
    [["decode", "action.binpb"]],
    [["encode", "--name", "t", "--format", "binary", "args.json"]],
    [["inspect", "action.binpb", "--schema", "lookup-schema.json"]],
    [["--help"]],
  ])("%j: stdout that cannot be written is output-unwritable, exit 1, no diagnostics", (args) => {
    expect(toFull(args, "stdout")).toEqual({
      status: 1,
      stdout: "",
      stderr: "struct-json-bridge: output-unwritable: cannot write stdout: ENOSPC\n",
    });
  });

  test("stderr that cannot be written: exit 1 when there were diagnostics to say", () => {
    expect(
      toFull(
        ["decode", "--raw", "ignore", "--schema", "lookup-schema.json", "action.binpb"],
        "stderr",
      ),
    ).toEqual({
      status: 1,
      stdout: '{"id":9007199254740992,"line":5,"temp":1.0,"tags":["a"]}\n',
      stderr: "",
    });
    expect(toFull(["decode", "action.binpb"], "stderr")).toEqual({
      status: 0,
      stdout: `${ARGS_TEXT}\n`,
      stderr: "",
    });
  });

  test.each([["decode"], ["inspect", "--schema", "lookup-schema.json"], ["encode", "--name", "t"]])(
    "%s: a reader that stops after one byte (EPIPE) is not an error",
    (...args) => {
      const big = tmpFile(
        json({ name: "t", args: { a: Array.from({ length: 100_000 }, (_, i) => i) } }),
      );
      const input =
        args[0] === "encode"
          ? tmpFile(json({ a: Array.from({ length: 100_000 }, (_, i) => i) }))
          : big;
      const r = spawnSync(
        "bash",
        [
          "-c",
          `"$0" "$@" ${JSON.stringify(input)} | head -c1 >/dev/null; exit "\${PIPESTATUS[0]}"`,
          process.execPath,
          CLI,
          ...args,
        ],
        { cwd: FIXTURES },
      );
      expect({ status: r.status, stderr: r.stderr.toString() }).toEqual({
        status: 0,
        stderr:
          args[0] === "inspect"
            ? 'struct-json-bridge: warning: schema-describes-no-number: the schema describes none of the message\'s 100000 numbers (each reads "unknown")\n'
            : "",
      });
    },
  );
});

test("inspect shows a Struct's negative zero as -0, not as 0", () => {
  const value = new BinaryWriter().tag(2, WireType.Bit64).double(-0).finish();
  const call = tmpFile(binaryCall("x", value));
  const schema = tmpFile('{"properties":{"x":{"type":"number"}}}');
  expect(cli(["inspect", call, "--schema", schema])).toEqual({
    status: 0,
    stdout: `${HEADER}\n/x\t-0\t-\tnumber\t-0.0\t-\n`,
    stderr: "",
  });
});

describe("encode's ProtoJSON keeps a negative zero", () => {
  test.each([
    ['{"x":-0}', '{"x":-0}'],
    [
      '{"x":-0.0,"y":[-0,{"__proto__":-0}],"z":"-0"}',
      '{"x":-0,"y":[-0,{"__proto__":-0}],"z":"-0"}',
    ],
    ['{"x":-1e-400}', '{"x":-0}'],
  ])("%s: args %s, and decode reads the raw text back", (text, args) => {
    const encoded = cli(["encode", "--name", "t", "--raw", "always"], text);
    expect(encoded.stdout).toBe(
      `{"callMcpTool":{"name":"t","args":${args},"rawArgsJson":${json(text)}}}\n`,
    );
    expect(cli(["decode"], encoded.stdout)).toEqual({ status: 0, stdout: `${text}\n`, stderr: "" });
  });
});

test("a non-blocking stdin pipe that has no data yet is waited for (it was EAGAIN)", () => {
  // Python hands the CLI the read end of an O_NONBLOCK pipe and writes in two parts, late.
  const script = `
import os, subprocess, fcntl, time, sys
r, w = os.pipe()
fcntl.fcntl(r, fcntl.F_SETFL, fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)
p = subprocess.Popen(sys.argv[1:3] + ["decode"], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
os.close(r)
data = open(sys.argv[3], "rb").read()
try:
    time.sleep(0.3); os.write(w, data[:20]); time.sleep(0.3); os.write(w, data[20:])
except BrokenPipeError:
    pass
os.close(w)
out, err = p.communicate(timeout=60)
sys.stdout.write(f"{p.returncode}\\n{out.decode()}{err.decode()}")
`;
  const r = spawnSync("python3", [
    "-c",
    script,
    process.execPath,
    CLI,
    join(FIXTURES, "action.json"),
  ]);
  expect(r.stdout.toString()).toBe(`0\n${ARGS_TEXT}\n`);
});

test("a path holding bidirectional formatting characters is escaped, so columns show in order", () => {
  const key = "a\u202eb\u2066c\u200fd\u061ce";
  const action = cliBytes(["encode", "--name", "t"], `{${json(key)}:9007199254740993}`);
  expect(cli(["inspect", "-", "--schema", "lookup-schema.json"], action).stdout).toBe(
    `${HEADER}\n/a\\u202eb\\u2066c\\u200fd\\u061ce\t9007199254740992\t9007199254740993\tunknown\t9007199254740992\t-\n`,
  );
  expect(cli(["decode", "-"], `{"name":"t","args":{${json(key)}:1e999}}`)).toEqual({
    status: 1,
    stdout: "",
    stderr:
      "struct-json-bridge: number-out-of-range at /args/a\\u202eb\\u2066c\\u200fd\\u061ce of the input message: the number is beyond float64's range\n",
  });
});
