// struct-json-bridge/mcp: exact numbers through the official MCP TypeScript SDK
// client, on the runtime this suite runs on (CI runs it on Node 20 and Node 24).

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterEach, describe, expect, test } from "vitest";
import { isStructJsonError, toolCallFromJson } from "../src/index.js";
import { exactNumberValue } from "../src/mcp/exact-number.js";
import {
  deserializeExactMessage,
  ExactNumber,
  ExactStdioClientTransport,
  exactJsonArguments,
  hasNativeRawJson,
  isRawJson,
  STRUCTURED_CONTENT_JSON_META_KEY,
  serializeExactMessage,
  structuredContentJson,
  toolCallArguments,
} from "../src/mcp/index.js";
import { memberText } from "../src/mcp/json-span.js";

const ROOT = new URL("..", import.meta.url).pathname;
const nodeMajor = Number(process.versions.node.split(".")[0]);

/** The text a value becomes in exact JSON, whatever stand-in the runtime uses. */
function textOf(v: unknown): string {
  return serializeExactMessage(v);
}

describe("exactNumberValue: plain numbers where JavaScript writes the same text", () => {
  test.each([
    ["5", "number", "5"],
    ["-12", "number", "-12"],
    ["0.1", "number", "0.1"],
    ["1e+21", "number", "1e+21"],
    ["9007199254740991", "number", "9007199254740991"],
    ["9007199254740993", "exact", "9007199254740993"],
    ["18014398509481985", "exact", "18014398509481985"],
    ["1.0", "exact", "1.0"],
    ["-0", "exact", "-0"],
    ["1E21", "exact", "1E21"],
    ["0.30000000000000000001", "exact", "0.30000000000000000001"],
  ])("%s → %s", (text, kind, json) => {
    const v = exactNumberValue(text, "/x");
    expect(typeof v === "number" ? "number" : "exact").toBe(kind);
    if (kind === "exact") {
      expect(hasNativeRawJson ? isRawJson(v) : v instanceof ExactNumber).toBe(true);
    }
    expect(textOf({ x: v })).toBe(`{"x":${json}}`);
  });

  test("the runtime's stand-in matches its JSON.rawJSON support", () => {
    expect(hasNativeRawJson).toBe(typeof (JSON as { rawJSON?: unknown }).rawJSON === "function");
    // Node 22+ has JSON.rawJSON; Node 20 does not.
    expect(hasNativeRawJson).toBe(nodeMajor >= 22);
  });
});

describe("ExactNumber (runtimes without JSON.rawJSON)", () => {
  test("plain JSON.stringify refuses it instead of rounding", () => {
    const args = { ticket: { ids: [1, new ExactNumber("9007199254740993", "/ticket/ids/1")] } };
    let caught: unknown;
    try {
      JSON.stringify(args);
    } catch (e) {
      caught = e;
    }
    expect(isStructJsonError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: "exact-json-unsupported", path: "/ticket/ids/1" });
    expect(String((caught as Error).message)).not.toContain("9007199254740993");
  });

  // (Labels, not %j: JSON.stringify of a marker throws, by design.)
  test.each([
    ["a big id", { a: new ExactNumber("9007199254740993", "/a") }, '{"a":9007199254740993}'],
    ["whole float and -0", [new ExactNumber("1.0", "/0"), new ExactNumber("-0", "/1")], "[1.0,-0]"],
    [
      "nested",
      { deep: { er: [{ n: new ExactNumber("2.50", "/deep/er/0/n") }] } },
      '{"deep":{"er":[{"n":2.50}]}}',
    ],
    [
      "a look-alike string",
      { s: "sjb-exact-00-0", n: new ExactNumber("1.0", "/n") },
      '{"s":"sjb-exact-00-0","n":1.0}',
    ],
    ["no markers", { plain: [1, "two", null, true] }, '{"plain":[1,"two",null,true]}'],
  ])("serializeExactMessage: %s", (_label, value, json) => {
    expect(serializeExactMessage(value)).toBe(json);
  });

  test("arguments nested deeper than JSON.stringify can write: recursion-limit, never a RangeError", () => {
    const depth = 100_000;
    const args = exactJsonArguments(`{"a":${"[".repeat(depth)}1${"]".repeat(depth)},"n":1.0}`);
    const message = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: args } };
    expect(() => serializeExactMessage(message)).toThrow(
      expect.objectContaining({ name: "StructJsonError", code: "recursion-limit", path: "" }),
    );
    // Not left active: the next message is written as usual.
    expect(serializeExactMessage({ n: new ExactNumber("1.0", "/n") })).toBe('{"n":1.0}');
  });

  test("the stand-in does not leak into a later plain JSON.stringify", () => {
    const n = new ExactNumber("1.0", "/n");
    expect(serializeExactMessage({ n })).toBe('{"n":1.0}');
    expect(() => JSON.stringify({ n })).toThrow(/exact-json-unsupported/);
  });
});

describe("exactJsonArguments", () => {
  test.each([
    ['{"id":9007199254740993,"line":5,"t":1.0}', '{"id":9007199254740993,"line":5,"t":1.0}'],
    ['{ "a" : [ 1 , 2.0 ] , "b" : { "c" : -0 } }', '{"a":[1,2.0],"b":{"c":-0}}'],
    ['{"s":"\\u00e9\\n","n":null,"b":false}', '{"s":"é\\n","n":null,"b":false}'],
  ])("%s → %s", (json, exact) => {
    expect(serializeExactMessage(exactJsonArguments(json))).toBe(exact);
  });

  test("__proto__ is an ordinary member, never a prototype", () => {
    const args = exactJsonArguments('{"__proto__":{"polluted":1},"constructor":{"x":2}}');
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.keys(args)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(serializeExactMessage(args)).toBe('{"__proto__":{"polluted":1},"constructor":{"x":2}}');
  });

  test.each([
    ['{"a":', "invalid-json", ""],
    ["[1,2]", "not-an-object", ""],
    ["42", "not-an-object", ""],
    ['{"a":1,"a":2}', "invalid-json", "/a"],
    ['{"o":{"x~/":1,"x~/":2}}', "invalid-json", "/o/x~0~1"],
  ])("%s is rejected with %s at %s", (json, code, path) => {
    expect(() => exactJsonArguments(json)).toThrow(expect.objectContaining({ code, path }));
  });
});

describe("memberText: the exact text of a member in JSON text", () => {
  test.each([
    [
      '{"result":{"structuredContent":{"id":9007199254740993}}}',
      ["result", "structuredContent"],
      '{"id":9007199254740993}',
    ],
    [
      '{ "result" : { "x":"}" , "structuredContent" : [1.0, {"a":"]"}] } }',
      ["result", "structuredContent"],
      '[1.0, {"a":"]"}]',
    ],
    [
      '{"result":{"structuredContent":1},"result":{"structuredContent":2.50}}',
      ["result", "structuredContent"],
      "2.50",
    ],
    ['{"re\\u0073ult":{"a\\"b":true}}', ["result", 'a"b'], "true"],
    ['{"result":{"structuredContent":"x\\"}"}}', ["result", "structuredContent"], '"x\\"}"'],
    ['{"result":[{"structuredContent":1}]}', ["result", "structuredContent"], undefined],
    ['{"result":{}}', ["result", "structuredContent"], undefined],
    ['{"a":1}', [], '{"a":1}'],
  ])("%s at %j", (text, keys, expected) => {
    expect(memberText(text, keys)).toBe(expected);
  });

  test("a sibling nested 100,000 levels deep does not overflow the stack", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const text = `{"result":{"junk":${deep},"structuredContent":{"n":1.0}}}`;
    expect(memberText(text, ["result", "structuredContent"])).toBe('{"n":1.0}');
  });
});

describe("deserializeExactMessage", () => {
  test("records a result's structuredContent text exactly", () => {
    const line =
      '{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":{"rows":[[9007199254740993,"Ada",1.0]]}}}';
    const msg = deserializeExactMessage(line) as {
      result: { _meta?: unknown; structuredContent?: unknown };
    };
    expect(structuredContentJson(msg.result)).toBe('{"rows":[[9007199254740993,"Ada",1.0]]}');
    // What the SDK sees is unchanged apart from _meta: JSON.parse's reading.
    expect(msg.result.structuredContent).toEqual({ rows: [[9007199254740992, "Ada", 1]] });
  });

  test("a server's own value under the key is dropped, not trusted", () => {
    const spoof = `{"jsonrpc":"2.0","id":1,"result":{"_meta":{"${STRUCTURED_CONTENT_JSON_META_KEY}":"{\\"id\\":1}","keep":1},"content":[]}}`;
    const msg = deserializeExactMessage(spoof) as { result: { _meta?: Record<string, unknown> } };
    expect(structuredContentJson(msg.result)).toBeUndefined();
    expect(msg.result._meta).toEqual({ keep: 1 });
  });

  test("requests and notifications pass through untouched", () => {
    const line = '{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}';
    expect(deserializeExactMessage(line)).toEqual(JSON.parse(line));
  });
});

// A raw MCP server over stdio, written without any SDK: it reads each line
// with lossless-json and echoes a call's arguments back with every number's
// text exactly as it arrived, so the test sees the bytes the client wrote.
const RAW_ECHO_SERVER = `
import { parse, stringify } from "lossless-json";
import { createInterface } from "node:readline";
const out = (m) => process.stdout.write(stringify(m) + "\\n");
for await (const line of createInterface({ input: process.stdin })) {
  const m = parse(line);
  if (m.method === "initialize") out({ jsonrpc: "2.0", id: m.id, result: {
    protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "raw-echo", version: "1" } } });
  else if (m.method === "tools/list") out({ jsonrpc: "2.0", id: m.id, result: { tools: [{ name: "echo",
    inputSchema: { type: "object", properties: { id: { type: "integer" }, ids: { type: "array", items: { type: "integer" } }, t: { type: "number" } } } }] } });
  else if (m.method === "tools/call") out({ jsonrpc: "2.0", id: m.id, result: {
    content: [{ type: "text", text: stringify(m.params.arguments) }], structuredContent: { received: m.params.arguments } } });
  else if (m.id !== undefined) out({ jsonrpc: "2.0", id: m.id, result: {} });
}`;

const serverParams = {
  command: process.execPath,
  args: ["--input-type=module", "-e", RAW_ECHO_SERVER],
  cwd: ROOT,
};

const SCHEMA = {
  type: "object",
  properties: {
    id: { type: "integer" },
    ids: { type: "array", items: { type: "integer" } },
    t: { type: "number" },
  },
};
const MODEL_TEXT = '{"id":9007199254740993,"ids":[9007199254740995,7,18014398509481985],"t":1.0}';

let open: Client | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "mcp-adapter-test", version: "1" });
  await client.connect(transport);
  open = client;
  return client;
}

describe("through the official SDK client", () => {
  test.each([
    ["always", MODEL_TEXT],
    ["never", '{"id":9007199254740992,"ids":[9007199254740996,7,18014398509481984],"t":1.0}'],
  ] as const)(
    "ExactStdioClientTransport delivers the bridge's text exactly (rawArgsJson %s)",
    async (raw, sent) => {
      const call = toolCallFromJson(
        { name: "echo", argumentsJson: MODEL_TEXT },
        { rawArgsJson: raw },
      );
      const client = await connect(new ExactStdioClientTransport(serverParams));
      const result = await client.callTool({
        name: "echo",
        arguments: toolCallArguments(call, SCHEMA),
      });
      // The server saw exactly the text toolCallToJson wrote …
      expect((result.content as { text: string }[])[0]!.text).toBe(sent);
      // … and the result's text comes back exactly too, while the SDK's own
      // object holds what JSON.parse made of it.
      expect(structuredContentJson(result)).toBe(`{"received":${sent}}`);
      expect(result.structuredContent).toEqual({ received: JSON.parse(sent) });
    },
  );

  test("the SDK's own StdioClientTransport: exact with JSON.rawJSON, a clear error without", async () => {
    const call = toolCallFromJson({ name: "echo", argumentsJson: MODEL_TEXT });
    const client = await connect(new StdioClientTransport(serverParams));
    const sending = client.callTool({ name: "echo", arguments: toolCallArguments(call, SCHEMA) });
    if (hasNativeRawJson) {
      const result = await sending;
      expect((result.content as { text: string }[])[0]!.text).toBe(MODEL_TEXT);
      // Without the exact transport the result is what JSON.parse made of it.
      expect(structuredContentJson(result)).toBeUndefined();
    } else {
      await expect(sending).rejects.toMatchObject({ code: "exact-json-unsupported", path: "/id" });
    }
  });

  test("plain objects without exact numbers work with either transport", async () => {
    for (const transport of [
      new ExactStdioClientTransport(serverParams),
      new StdioClientTransport(serverParams),
    ]) {
      const client = await connect(transport);
      const result = await client.callTool({ name: "echo", arguments: { id: 5, t: 0.5 } });
      expect((result.content as { text: string }[])[0]!.text).toBe('{"id":5,"t":0.5}');
      await client.close();
      open = undefined;
    }
  });
});
