// docs/cli.md, option by option and code by code: every documented option
// value does what the page says, and every documented error code comes with
// its documented exit status and one line. In-process (runCli on files in a
// temporary directory); test/cli.test.ts runs the built CLI for what needs a
// process (stdin, pipes, exit codes of the process itself).

import { truncateSync } from "node:fs";
import { join } from "node:path";
import { create, toBinary, toJsonString } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { describe, expect, test } from "vitest";
import {
  CallMCPToolSchema,
  ClientActionSchema,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import { INPUT_BYTE_LIMIT, readBytes } from "../src/cli/read-input.js";
import { binaryCall, runInProcess, tempFiles } from "./cli-helpers.js";

const { dir, file } = tempFiles("sjb-cli-options-");
const runWith = runInProcess;
const run = (argv: readonly string[]) => runInProcess(argv);
const json = (v: unknown) => JSON.stringify(v);

// One call in every form, with raw text that differs from the Struct's reading.
const ARGS = '{"id":9007199254740993,"line":5,"temp":1.0}';
const STRUCT = { id: 9007199254740992, line: 5, temp: 1 };
const call = create(CallMCPToolSchema, { name: "lookup", args: STRUCT, rawArgsJson: ARGS });
const action = create(ClientActionSchema, {
  actionId: "a1",
  action: { case: "callMcpTool", value: call },
});
const result = create(MCPToolResultSchema, {
  actionId: "r1",
  structuredContent: STRUCT,
  rawStructuredContentJson: ARGS,
});
const SCHEMA = {
  type: "object",
  properties: { id: { type: "integer" }, line: { type: "integer" }, temp: { type: "number" } },
};
const TOOLS = file(
  json({
    tools: [{ name: "lookup", inputSchema: SCHEMA, outputSchema: SCHEMA }, { name: "other" }],
  }),
);
const ONE_TOOL = file(
  json({ tools: [{ name: "lookup", inputSchema: SCHEMA, outputSchema: SCHEMA }] }),
);
const SCHEMA_FILE = file(json(SCHEMA));

const FILES = {
  "binary action": file(toBinary(ClientActionSchema, action)),
  "binary call": file(toBinary(CallMCPToolSchema, call)),
  "binary result": file(toBinary(MCPToolResultSchema, result)),
  "ProtoJSON action": file(toJsonString(ClientActionSchema, action)),
  "ProtoJSON call": file(toJsonString(CallMCPToolSchema, call)),
  "ProtoJSON result": file(toJsonString(MCPToolResultSchema, result)),
};
type FormName = keyof typeof FILES;
const typeOf = (form: FormName) => form.split(" ")[1] as "action" | "call" | "result";
const formatOf = (form: FormName) => (form.startsWith("binary") ? "binary" : "json");

const FROM_RAW = `${ARGS}\n`;
const FROM_STRUCT = '{"id":9007199254740992,"line":5,"temp":1.0}\n';
const FROM_STRUCT_NO_SCHEMA = '{"id":9007199254740992,"line":5,"temp":1}\n';
const PRECISION = "/id\tinteger-precision-lost\n";

describe("decode: every --format and --type on every form", () => {
  const forms = Object.keys(FILES) as FormName[];
  test.each(
    forms.flatMap((form) => [
      [form, [] as string[]],
      [form, ["--format", formatOf(form)]],
      [form, ["--type", typeOf(form)]],
      [form, ["--format", formatOf(form), "--type", typeOf(form)]],
    ]),
  )("%s %j", (form, options) => {
    // A binary result without --type reads as a call as well: see the next table.
    const r = run(["decode", ...options, "--schema", ONE_TOOL, FILES[form]]);
    expect(r).toEqual({ status: 0, stdout: FROM_RAW, stderr: "" });
  });

  test.each([
    ["binary action", ["--format", "json"], "invalid-unicode: the input is not valid UTF-8 text"],
    [
      "ProtoJSON action",
      ["--format", "binary"],
      "message-invalid: the input is not a binary ClientAction, CallMCPTool or MCPToolResult (as a ClientAction: it has an invalid field tag or wire type)",
    ],
    [
      "ProtoJSON action",
      ["--type", "call"],
      "message-invalid at /actionId of the input message: CallMCPTool has no such field",
    ],
    [
      "ProtoJSON call",
      ["--type", "action"],
      "message-invalid at /name of the input message: ClientAction has no such field",
    ],
    [
      "ProtoJSON result",
      ["--type", "call"],
      "message-invalid at /actionId of the input message: CallMCPTool has no such field",
    ],
    [
      "binary call",
      ["--type", "result"],
      "message-invalid: not a valid binary MCPToolResult: it has an invalid field tag or wire type",
    ],
  ] as const)("%s %j is rejected", (form, options, line) => {
    expect(run(["decode", ...options, FILES[form]])).toEqual({
      status: 1,
      stdout: "",
      stderr: `struct-json-bridge: ${line}\n`,
    });
  });
});

describe("decode: --raw, --whole-floats, --schema and --tool", () => {
  const action = FILES["binary action"];
  const res = FILES["ProtoJSON result"];
  test.each([
    [[action], FROM_RAW, ""],
    [["--raw", "verify", action], FROM_RAW, ""],
    [["--raw", "trust", action], FROM_RAW, ""],
    [["--raw", "ignore", action], FROM_STRUCT_NO_SCHEMA, ""],
    [["--raw", "ignore", "--schema", SCHEMA_FILE, action], FROM_STRUCT, PRECISION],
    [
      ["--raw", "ignore", "--whole-floats", "decimal", "--schema", SCHEMA_FILE, action],
      FROM_STRUCT,
      PRECISION,
    ],
    [
      ["--raw", "ignore", "--whole-floats", "integer", "--schema", SCHEMA_FILE, action],
      FROM_STRUCT_NO_SCHEMA,
      PRECISION,
    ],
    [["--raw", "ignore", "--schema", TOOLS, action], FROM_STRUCT, PRECISION],
    [["--raw", "ignore", "--schema", TOOLS, "--tool", "lookup", action], FROM_STRUCT, PRECISION],
    [["--raw", "ignore", "--schema", TOOLS, "--tool", "lookup", res], FROM_STRUCT, PRECISION],
    [["--raw", "ignore", "--schema", ONE_TOOL, res], FROM_STRUCT, PRECISION],
    [["--raw=ignore", `--schema=${SCHEMA_FILE}`, "--", action], FROM_STRUCT, PRECISION],
  ])("%j", (args, stdout, stderr) => {
    expect(run(["decode", ...args])).toEqual({ status: 0, stdout, stderr });
  });

  test("--raw verify with raw text that disagrees is raw-struct-mismatch; trust passes it; ignore skips it", () => {
    const lie = file(
      toBinary(
        CallMCPToolSchema,
        create(CallMCPToolSchema, { name: "lookup", args: { n: 1 }, rawArgsJson: '{"n":2}' }),
      ),
    );
    expect(run(["decode", "--raw", "verify", lie])).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "struct-json-bridge: raw-struct-mismatch at /n: the raw JSON text and the Struct disagree here (two readings)\n",
    });
    expect(run(["decode", "--raw", "trust", lie])).toEqual({
      status: 0,
      stdout: '{"n":2}\n',
      stderr: "",
    });
    expect(run(["decode", "--raw", "ignore", lie])).toEqual({
      status: 0,
      stdout: '{"n":1}\n',
      stderr: "",
    });
  });
});

describe("encode: --raw and --format", () => {
  const lossy = file('{"id":9007199254740993}');
  const exact = file('{"id":5}');
  test.each([
    [lossy, "always", true, "/id\tprecision-lost\n"],
    [lossy, "when-lossy", true, "/id\tprecision-lost\n"],
    [lossy, "never", false, "/id\tprecision-lost\n"],
    [exact, "always", true, ""],
    [exact, "when-lossy", false, ""],
    [exact, "never", false, ""],
  ])("%s --raw %s: raw text carried: %s", (input, raw, carried, stderr) => {
    const r = run(["encode", "--name", "t", "--raw", raw, input]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(stderr);
    expect(r.stdout.includes('"rawArgsJson"')).toBe(carried);
    const binary = runWith(["encode", "--name", "t", "--raw", raw, "--format", "binary", input]);
    expect(binary.status).toBe(0);
    // The same message, as decode reads it back.
    expect(run(["decode", file(Buffer.from(binary.stdout, "latin1"))]).stdout).toBe(
      run(["decode", file(r.stdout)]).stdout,
    );
  });

  test("--format json is one line; --format binary has no newline", () => {
    const text = run(["encode", "--name", "t", "--format", "json", exact]).stdout;
    expect(text).toBe(
      '{"callMcpTool":{"name":"t","args":{"id":5},"rawArgsJson":"{\\"id\\":5}"}}\n',
    );
    const bytes = runWith(["encode", "--name", "t", "--format", "binary", exact]).stdout;
    expect(bytes.endsWith("\n")).toBe(false);
  });
});

describe("inspect: --format, --type, --tool", () => {
  const ROWS =
    "path\tstruct\traw\treading\toutput\tcodes\n/id\t9007199254740992\t9007199254740993\tinteger\t9007199254740992\tinteger-precision-lost\n/line\t5\t5\tinteger\t5\t-\n/temp\t1\t1.0\tnumber\t1.0\t-\n";
  test.each([
    ["binary action", []],
    ["binary action", ["--format", "binary", "--type", "action"]],
    ["binary call", ["--type", "call"]],
    ["binary result", ["--type", "result", "--tool", "lookup"]],
    ["ProtoJSON action", ["--format", "json"]],
    ["ProtoJSON call", ["--tool", "lookup"]],
    ["ProtoJSON result", ["--tool", "lookup"]],
  ] as const)("%s %j", (form, options) => {
    expect(run(["inspect", FILES[form], "--schema", TOOLS, ...options])).toEqual({
      status: 0,
      stdout: ROWS,
      stderr: "",
    });
  });
});

describe("every documented code: its exit status and one line", () => {
  /** The bytes of the last length-delimited field `number` of `bytes`. */
  function fieldOf(bytes: Uint8Array, number: number): Uint8Array {
    const reader = new BinaryReader(bytes);
    let found: Uint8Array = Uint8Array.of();
    while (reader.pos < reader.len) {
      const [field, wireType] = reader.tag();
      if (field === number) found = reader.bytes();
      else reader.skip(wireType, field);
    }
    return found;
  }
  const nan = new BinaryWriter().tag(2, WireType.Bit64).double(Number.NaN).finish();

  test.each([
    ["usage-error", 2, ["decode", "--bogus"], "usage-error: decode: unknown option (see --help)"],
    [
      "input-unreadable",
      1,
      ["decode", join(dir, "missing")],
      "input-unreadable: cannot read the input: no such file",
    ],
    [
      "invalid-unicode",
      1,
      ["encode", "--name", "t", file(Uint8Array.from([0x7b, 0xff, 0x7d]))],
      "invalid-unicode: the input is not valid UTF-8 text",
    ],
    [
      "invalid-json",
      1,
      ["encode", "--name", "t", file("{")],
      "invalid-json at (root): unexpected end of input at position 1",
    ],
    [
      "duplicate-key",
      1,
      ["encode", "--name", "t", file('{"a":1,"a":1}')],
      "duplicate-key at /a: a key appears twice in one object (two readings)",
    ],
    [
      "number-out-of-range",
      1,
      ["encode", "--name", "t", file('{"a":1e400}')],
      "number-out-of-range at /a: the number is beyond float64's range",
    ],
    [
      "not-an-object",
      1,
      ["decode", "--format", "json", file("[1]")],
      "not-an-object at (root) of the input message: ProtoJSON input must be a JSON object",
    ],
    [
      "recursion-limit",
      1,
      ["encode", "--name", "t", file(`{"a":${"[".repeat(60)}${"]".repeat(60)}}`)],
      `recursion-limit at /a${"/0".repeat(48)}: nesting deeper than recursionLimit 49`,
    ],
    ["message-invalid", 1, ["decode", file("")], "message-invalid: the input is empty"],
    [
      "message-ambiguous",
      1,
      ["decode", file('{"actionId":"x"}')],
      "message-ambiguous: cannot tell which message this ProtoJSON is (no member of ClientAction, CallMCPTool or MCPToolResult): pass --type",
    ],
    [
      "schema-invalid",
      1,
      ["decode", "--schema", file('{"type":5}'), FILES["binary action"]],
      'schema-invalid at /type of the --schema file: not a JSON Schema: "type" must be a JSON type name or a non-empty array of them',
    ],
    [
      "tool-not-found",
      1,
      ["decode", "--schema", TOOLS, "--tool", "nope", FILES["binary action"]],
      "tool-not-found: the --schema file lists no tool by the name given to --tool",
    ],
    [
      "non-finite-number",
      1,
      ["decode", file(binaryCall("x", nan))],
      "non-finite-number at /x: NaN and Infinity have no JSON form",
    ],
    [
      "value-unset",
      1,
      ["decode", file(binaryCall("x", new Uint8Array()))],
      "value-unset at /x: a google.protobuf.Value has no kind set",
    ],
  ] as const)("%s: exit %i", (_code, status, argv, line) => {
    expect(run(argv)).toEqual({ status, stdout: "", stderr: `struct-json-bridge: ${line}\n` });
  });

  test.each([
    ["a call", ["decode"]],
    ["a call, --type call", ["decode", "--type", "call"]],
    ["a call, inspect", ["inspect", "--schema", SCHEMA_FILE]],
  ] as const)(
    "an unset Value (protobuf-es reads it as null) in %s is value-unset",
    (_label, argv) => {
      expect(run([...argv, file(binaryCall("x", Uint8Array.of()))])).toEqual({
        status: 1,
        stdout: "",
        stderr: "struct-json-bridge: value-unset at /x: a google.protobuf.Value has no kind set\n",
      });
    },
  );

  test("an unset Value deep in lists and structs of an action and a result", () => {
    // Value{list_value{values:[Value{struct_value{fields{"k": Value{}}}}]}}
    const entry = new BinaryWriter()
      .tag(1, WireType.LengthDelimited)
      .string("k")
      .tag(2, WireType.LengthDelimited)
      .bytes(Uint8Array.of())
      .finish();
    const struct = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(entry).finish();
    const inner = new BinaryWriter().tag(5, WireType.LengthDelimited).bytes(struct).finish();
    const list = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(inner).finish();
    const value = new BinaryWriter().tag(6, WireType.LengthDelimited).bytes(list).finish();
    const callBytes = binaryCall("a/b", value);
    const actionBytes = new BinaryWriter()
      .tag(2, WireType.LengthDelimited)
      .bytes(callBytes)
      .finish();
    const resultBytes = new BinaryWriter()
      .tag(1, WireType.LengthDelimited)
      .string("r")
      .tag(2, WireType.LengthDelimited)
      .bytes(fieldOf(callBytes, 3))
      .finish();
    for (const [bytes, type] of [
      [callBytes, "call"],
      [actionBytes, "action"],
      [resultBytes, "result"],
    ] as const) {
      expect(run(["decode", "--type", type, file(bytes)])).toEqual({
        status: 1,
        stdout: "",
        stderr:
          "struct-json-bridge: value-unset at /a~1b/0/k: a google.protobuf.Value has no kind set\n",
      });
    }
  });

  test.each([
    [
      new TypeError("sk-live-SECRET"),
      70,
      "internal-error: an unexpected TypeError (a bug: please report it)",
    ],
    [
      { toString: (): string => "sk-live-SECRET" },
      70,
      "internal-error: an unexpected failure (a bug: please report it)",
    ],
    [
      new RangeError("Maximum call stack size exceeded"),
      1,
      "recursion-limit: the input nests deeper than this runtime's stack can hold",
    ],
  ])("a failure thrown by the runtime (%s): exit %i, never its text", (thrown, status, line) => {
    const r = runWith(["decode", FILES["binary action"]], {
      stdout: () => {
        throw thrown;
      },
    });
    expect(r).toEqual({ status, stdout: "", stderr: `struct-json-bridge: ${line}\n` });
  });
});

describe("the 64 MiB input limit", () => {
  /** A file of `size` zero bytes (sparse: nothing is written). */
  function sized(size: number): string {
    const path = file("");
    truncateSync(path, size);
    return path;
  }

  test("exactly INPUT_BYTE_LIMIT bytes are read; one more is input-too-large", () => {
    expect(INPUT_BYTE_LIMIT).toBe(64 * 1024 * 1024);
    expect(readBytes(sized(INPUT_BYTE_LIMIT), "the input").length).toBe(INPUT_BYTE_LIMIT);
    expect(() => readBytes(sized(INPUT_BYTE_LIMIT + 1), "the input")).toThrow(
      "input-too-large: the input is larger than the limit of 67108864 bytes (64 MiB)",
    );
    expect(
      run(["decode", "--schema", sized(INPUT_BYTE_LIMIT + 1), FILES["binary action"]]),
    ).toEqual({
      status: 1,
      stdout: "",
      stderr:
        "struct-json-bridge: input-too-large: the --schema file is larger than the limit of 67108864 bytes (64 MiB)\n",
    });
  });
});
