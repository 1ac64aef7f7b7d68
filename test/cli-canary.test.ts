// "Paths and codes, never values": a canary value in every field of every
// input kind the CLI reads (ProtoJSON and binary messages, raw_args_json,
// schema files, tools lists, argument texts, argv values), through every
// command. The canary may appear only where it is the legitimate output
// (decode's and encode's stdout); never on stderr, never in inspect's table.
// Run in-process (runCli, with files in a temporary directory) so that the
// whole table takes seconds; test/cli.test.ts runs the built CLI itself.

import { join } from "node:path";
import { fromJson, type JsonValue, toBinary } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import {
  CallMCPToolSchema,
  ClientActionSchema,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import { type Outcome, runInProcess, tempFiles } from "./cli-helpers.js";

const CANARY = "sk-live-CANARY-51f0";
const C = CANARY;

const { dir, file } = tempFiles("sjb-canary-");
const run = (argv: readonly string[]) => runInProcess(argv);

const json = (v: unknown) => JSON.stringify(v);

// ---- messages -------------------------------------------------------------

const SCHEMA = {
  type: "object",
  properties: { n: { type: "integer" }, s: { type: "string" } },
};
const TOOLS = { tools: [{ name: "lookup", inputSchema: SCHEMA, outputSchema: SCHEMA }] };
const TOOLS_FILE = file(json(TOOLS));
const SCHEMA_FILE = file(json(SCHEMA));

/** A message (as ProtoJSON text), and whether decode may print the canary (it is in the arguments). */
interface MessageCase {
  readonly label: string;
  readonly text: string | Uint8Array;
  readonly decodePrintsCanary?: boolean;
}

const goodAction = {
  actionId: C,
  callMcpTool: {
    serverId: C,
    name: "lookup",
    args: { s: C, n: 5, o: { t: C, list: [C, 1.5] } },
    rawArgsJson: json({ s: C, n: 5, o: { t: C, list: [C, 1.5] } }),
  },
};
const goodCall = goodAction.callMcpTool;
const goodResult = {
  actionId: C,
  structuredContent: { s: C, n: 5 },
  rawStructuredContentJson: json({ s: C, n: 5 }),
  isError: false,
};

const binary = {
  action: toBinary(ClientActionSchema, fromJson(ClientActionSchema, goodAction as JsonValue)),
  call: toBinary(CallMCPToolSchema, fromJson(CallMCPToolSchema, goodCall as JsonValue)),
  result: toBinary(MCPToolResultSchema, fromJson(MCPToolResultSchema, goodResult as JsonValue)),
};

/** The offset of the canary's first byte in `bytes`. */
function canaryAt(bytes: Uint8Array): number {
  return Buffer.from(bytes).indexOf(C);
}

/** `bytes` with the canary's n-th byte made invalid UTF-8. */
function spoilUtf8(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[canaryAt(out) + 3] = 0xff;
  return out;
}

/** `bytes` with a field 15 (unknown to every type) holding the canary. */
function withUnknownField(bytes: Uint8Array): Uint8Array {
  const c = Buffer.from(C);
  return Uint8Array.from([...bytes, 0x7a, c.length, ...c]);
}

const MESSAGES: readonly MessageCase[] = [
  // Well-formed: the canary in every field; decode prints the arguments.
  { label: "ProtoJSON ClientAction", text: json(goodAction), decodePrintsCanary: true },
  { label: "ProtoJSON CallMCPTool", text: json(goodCall), decodePrintsCanary: true },
  { label: "ProtoJSON MCPToolResult", text: json(goodResult), decodePrintsCanary: true },
  { label: "binary ClientAction", text: binary.action, decodePrintsCanary: true },
  { label: "binary CallMCPTool", text: binary.call, decodePrintsCanary: true },
  { label: "binary MCPToolResult", text: binary.result, decodePrintsCanary: true },
  {
    label: "proto names",
    text: json({ call_mcp_tool: { server_id: C, name: "lookup", args: { s: C } } }),
    decodePrintsCanary: true,
  },
  // The tool's name is the canary: no tool of that name in a tools list.
  { label: "canary tool name", text: json({ callMcpTool: { name: C, args: { n: 1 } } }) },
  // Wrong JSON types, unknown members, two names for one field.
  { label: "args a string (the issue's case)", text: json({ name: "t", args: C }) },
  { label: "args an array", text: json({ name: "t", args: [C] }) },
  { label: "name an object", text: json({ name: { x: C }, args: {} }) },
  { label: "name a number", text: json({ name: 5, args: { s: C } }) },
  { label: "serverId an array", text: json({ serverId: [C], name: "t" }) },
  { label: "actionId an object", text: json({ actionId: { k: C }, callMcpTool: { name: "t" } }) },
  { label: "rawArgsJson an object", text: json({ name: "t", rawArgsJson: { s: C } }) },
  { label: "isError a string", text: json({ structuredContent: {}, isError: C }) },
  { label: "structuredContent a string", text: json({ structuredContent: C }) },
  { label: "unknown member", text: json({ name: "t", args: {}, extra: C }) },
  { label: "unknown member in the call", text: json({ callMcpTool: { name: "t", extra: C } }) },
  { label: "a field under two names", text: json({ name: "t", server_id: C, serverId: C }) },
  { label: "members of two types", text: json({ name: C, isError: true }) },
  { label: "no action", text: json({ actionId: C, callMcpTool: null }) },
  { label: "not an object", text: json([C]) },
  // Text the package's parser rejects, with the canary before the fault.
  { label: "syntax error", text: `{"name":"t","args":{"s":"${C}" "n":1}}` },
  { label: "trailing comma", text: `{"name":"t","args":{"s":"${C}",}}` },
  { label: "duplicate key", text: `{"name":"t","args":{"s":"${C}","s":"${C}"}}` },
  { label: "lone surrogate", text: `{"name":"t","args":{"s":"${C}\\ud800"}}` },
  { label: "number beyond float64", text: `{"name":"t","args":{"s":"${C}","x":1e999}}` },
  { label: "control character", text: `{"name":"t","args":{"s":"${C}\n"}}` },
  { label: "unterminated", text: `{"name":"t","args":{"s":"${C}` },
  { label: "data after the value", text: `{"name":"t"} "${C}"` },
  {
    label: "nesting beyond the Struct limit",
    text: `{"name":"t","args":{"s":"${C}","d":${"[".repeat(60)}"${C}"${"]".repeat(60)}}}`,
  },
  // raw_args_json: malformed (decode falls back to the Struct), or disagreeing.
  {
    label: "raw text malformed",
    text: json({ name: "t", args: { s: C }, rawArgsJson: `{"s":"${C}",}` }),
    decodePrintsCanary: true,
  },
  {
    label: "raw text disagrees",
    text: json({ name: "t", args: { s: "x" }, rawArgsJson: json({ s: C }) }),
    decodePrintsCanary: true,
  },
  {
    label: "raw text disagrees in a number",
    text: json({ name: "t", args: { n: 1, s: C }, rawArgsJson: json({ n: 2, s: C }) }),
    decodePrintsCanary: true,
  },
  {
    label: "raw structured content disagrees",
    text: json({ structuredContent: { s: "x" }, rawStructuredContentJson: json({ s: C }) }),
    decodePrintsCanary: true,
  },
  // Binary that is cut, spoiled or carries more than the type defines.
  {
    label: "binary cut inside the canary",
    text: binary.action.slice(0, canaryAt(binary.action) + 5),
  },
  { label: "binary cut at the end", text: binary.action.slice(0, -1) },
  { label: "binary canary not UTF-8", text: spoilUtf8(binary.action) },
  { label: "binary result canary not UTF-8", text: spoilUtf8(binary.result) },
  { label: "binary unknown field", text: withUnknownField(binary.action) },
  { label: "binary call unknown field", text: withUnknownField(binary.call) },
  { label: "canary alone", text: C },
  { label: "canary after a brace", text: `{${C}` },
];

describe("a canary in every field of the input message", () => {
  const commands: readonly [string, (f: string) => string[]][] = [
    ["decode", (f) => ["decode", f]],
    ["decode --schema", (f) => ["decode", "--schema", TOOLS_FILE, "--tool", "lookup", f]],
    ["decode --raw trust", (f) => ["decode", "--raw", "trust", f]],
    ["decode --raw ignore", (f) => ["decode", "--raw", "ignore", "--schema", SCHEMA_FILE, f]],
    ["decode --type call", (f) => ["decode", "--type", "call", f]],
    ["decode --format binary", (f) => ["decode", "--format", "binary", f]],
    ["inspect", (f) => ["inspect", f, "--schema", TOOLS_FILE, "--tool", "lookup"]],
    ["inspect (tool by the call's name)", (f) => ["inspect", f, "--schema", TOOLS_FILE]],
    ["inspect --type result", (f) => ["inspect", "--type", "result", f, "--schema", SCHEMA_FILE]],
  ];
  const rows = MESSAGES.flatMap((m) =>
    commands.map(([name, argv]) => [m.label, name, m, argv] as const),
  );
  test.each(rows)("%s, %s", (_label, command, m, argv) => {
    const r = run(argv(file(m.text)));
    expect(r.stderr).not.toContain(C);
    const legit = m.decodePrintsCanary === true && command.startsWith("decode") && r.status === 0;
    if (!legit) expect(r.stdout).not.toContain(C);
    expectOneVoice(r);
  });
});

/** Exit 0 with diagnostics/warnings on stderr, or exit 1/2 with exactly one error line. */
function expectOneVoice(r: Outcome): void {
  if (r.status === 0) {
    for (const line of r.stderr.split("\n").slice(0, -1)) {
      expect(line).toMatch(/^([^\t]*\t[a-z-]+|struct-json-bridge: warning: [a-z-]+: .+)$/);
    }
    return;
  }
  expect([1, 2]).toContain(r.status);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(/^struct-json-bridge: [a-z-]+( at [^\n]+)?: [^\n]+\n$/);
}

// ---- schema files and tools lists ------------------------------------------

const PLAIN_ACTION = file(
  json({ callMcpTool: { name: "lookup", args: { n: 5, s: "x" }, rawArgsJson: '{"n":5,"s":"x"}' } }),
);
const PLAIN_RESULT = file(json({ structuredContent: { n: 5 } }));

const SCHEMAS: readonly [string, string][] = [
  [
    "annotations",
    json({
      type: "object",
      title: C,
      description: C,
      "x-vendor": C,
      properties: {
        n: { type: "integer", title: C, default: C, examples: [C], enum: [5, C], const: 5 },
        s: { type: "string", pattern: C, format: C },
      },
    }),
  ],
  ["type the canary", json({ type: C })],
  ["type list holding the canary", json({ properties: { n: { type: ["integer", C] } } })],
  ["$ref to the canary", json({ properties: { n: { $ref: `#/$defs/${C}` } } })],
  ["$ref a number", json({ properties: { n: { $ref: 5 } }, description: C })],
  ["allOf the canary", json({ allOf: C })],
  ["properties the canary", json({ properties: C })],
  ["items the canary", json({ properties: { n: { items: C } } })],
  ["multipleOf the canary", json({ properties: { n: { multipleOf: C } } })],
  ["enum the canary", json({ properties: { n: { enum: C } } })],
  ["schema a string", json(C)],
  ["schema null", "null"],
  ["JSON-RPC error", json({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: C } })],
  ["JSON-RPC without tools", json({ jsonrpc: "2.0", id: 1, result: { content: [{ text: C }] } })],
  [
    "JSON-RPC tools list",
    json({
      jsonrpc: "2.0",
      id: C,
      result: { tools: [{ name: "lookup", inputSchema: SCHEMA, description: C }] },
    }),
  ],
  ["tools with the canary's name", json({ tools: [{ name: C, inputSchema: SCHEMA }] })],
  [
    "tools, another with the canary's name",
    json({
      tools: [
        { name: C, inputSchema: SCHEMA },
        { name: "lookup", inputSchema: { description: C } },
      ],
    }),
  ],
  [
    "two tools of one name",
    json({ tools: [{ name: "lookup", description: C }, { name: "lookup" }] }),
  ],
  ["a tool without a name", json({ tools: [{ description: C, inputSchema: SCHEMA }] })],
  ["tools the canary", json({ tools: C })],
  ["array of tools", json([{ name: "lookup", inputSchema: { type: C } }])],
  [
    "one tool, schema broken",
    json({ name: "lookup", inputSchema: { type: C }, outputSchema: { type: C } }),
  ],
  [
    "one tool, schema null",
    json({ name: "lookup", inputSchema: null, outputSchema: null, description: C }),
  ],
  ["syntax error", `{"description":"${C}",}`],
  ["duplicate key", `{"description":"${C}","description":"${C}"}`],
  ["lone surrogate", `{"description":"${C}\\udc00"}`],
  ["number beyond float64", `{"description":"${C}","maximum":-1e999}`],
  ["nesting beyond the limit", `{"description":"${C}","x":${"[".repeat(600)}${"]".repeat(600)}}`],
  ["not UTF-8", `{"description":"${C}\u00ff"}`],
];

describe("a canary in every part of the --schema file", () => {
  const commands: readonly [string, (s: string) => string[]][] = [
    ["decode", (s) => ["decode", "--schema", s, PLAIN_ACTION]],
    ["decode a result", (s) => ["decode", "--schema", s, "--tool", "lookup", PLAIN_RESULT]],
    ["inspect", (s) => ["inspect", PLAIN_ACTION, "--schema", s]],
    ["inspect a result", (s) => ["inspect", PLAIN_RESULT, "--schema", s]],
  ];
  const rows = SCHEMAS.flatMap(([label, text]) =>
    commands.map(([name, argv]) => [label, name, text, argv] as const),
  );
  test.each(rows)("%s, %s", (label, _command, text, argv) => {
    const bytes = label === "not UTF-8" ? Buffer.from(text, "latin1") : text;
    const r = run(argv(file(bytes)));
    expect(r.stderr).not.toContain(C);
    expect(r.stdout).not.toContain(C);
    expectOneVoice(r);
  });
});

// ---- argument texts (encode) ------------------------------------------------

const ARGUMENTS: readonly [string, string | Uint8Array, boolean][] = [
  ["well-formed", `{"s":"${C}","n":9007199254740993,"o":{"t":"${C}"}}`, true],
  ["trailing comma", `{"s":"${C}",}`, false],
  ["duplicate key", `{"s":"${C}","s":"${C}"}`, false],
  ["lone surrogate", `{"s":"${C}\\ud800"}`, false],
  ["number beyond float64", `{"s":"${C}","x":1e999}`, false],
  ["not an object", `["${C}"]`, false],
  ["the canary bare", C, false],
  ["deep", `{"s":"${C}","d":${"[".repeat(100_000)}${"]".repeat(100_000)}}`, false],
  ["not UTF-8", Uint8Array.from([...Buffer.from(`{"s":"${C}`), 0xff, 0x22, 0x7d]), false],
];

describe("a canary in the arguments text (encode)", () => {
  test.each(ARGUMENTS)("%s", (_label, text, ok) => {
    const f = file(text);
    for (const argv of [
      ["encode", "--name", "t", f],
      ["encode", "--name", "t", "--format", "binary", "--raw", "when-lossy", f],
    ]) {
      const r = run(argv);
      expect(r.status).toBe(ok ? 0 : 1);
      expect(r.stderr).not.toContain(C);
      if (!ok) expect(r.stdout).toBe("");
      expectOneVoice(r);
    }
  });
});

// ---- argv values ---------------------------------------------------------------

describe("a canary as a command-line value", () => {
  const action = file(json({ callMcpTool: { name: "lookup", args: { n: 5 } } }));
  const missing = join(dir, C);
  test.each([
    [["decode", "--tool", C, "--schema", TOOLS_FILE, action]],
    [["decode", "--format", C, action]],
    [["decode", "--type", C, action]],
    [["decode", "--raw", C, action]],
    [["decode", "--whole-floats", C, action]],
    [["decode", missing]],
    [["decode", "--schema", missing, action]],
    [["decode", `--schema=${missing}`, action]],
    [["decode", action, C]],
    [["decode", `--bogus=${C}`, action]],
    [["decode", `--help=${C}`]],
    [["decode", "--schema", TOOLS_FILE, "--schema", C, action]],
    [["decode", "--", C]],
    [["inspect", missing, "--schema", TOOLS_FILE]],
    [["inspect", action, "--schema", missing]],
    [["inspect", action, "--schema", TOOLS_FILE, "--tool", C]],
    [["inspect", "--type", C, action, "--schema", TOOLS_FILE]],
    [["encode", "--name", "t", "--raw", C, action]],
    [["encode", "--name", "t", "--format", C, action]],
    [["encode", "--name", "t", missing]],
    [["encode", "--name", C, C]],
    [[C]],
    [["help", C]],
  ])("%j", (argv) => {
    const r = run(argv);
    expect(r.stderr).not.toContain(C);
    expect(r.stdout).not.toContain(C);
    expect(r.status).not.toBe(0);
    expectOneVoice(r);
  });

  test("encode's --name, --server-id and --action-id are output, and only output", () => {
    const args = file('{"n":5}');
    const r = run(["encode", "--name", C, "--server-id", C, "--action-id", C, args]);
    expect(r).toEqual({
      status: 0,
      stdout: `{"actionId":"${C}","callMcpTool":{"serverId":"${C}","name":"${C}","args":{"n":5},"rawArgsJson":"{\\"n\\":5}"}}\n`,
      stderr: "",
    });
  });
});
