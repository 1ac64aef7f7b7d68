// struct-json-bridge/mcp/server: an integer above 2^53 in a tool's arguments
// never reaches a handler rounded (it arrives as a bigint or text, or the call
// is refused with JSON-RPC -32602 naming the path), and a result's bigints are
// written with their digits. End to end with the real SDK client and server.

import { randomUUID } from "node:crypto";
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { EXACT_TOOLS, exactServer } from "../examples/mcp/exact-server.js";
import { buildExactJson } from "../src/mcp/exact-parse.js";
import {
  ExactStdioClientTransport,
  ExactStreamableHTTPClientTransport,
  exactJsonArguments,
  hasNativeRawJson,
  STRUCTURED_CONTENT_JSON_META_KEY,
  structuredContentJson,
} from "../src/mcp/index.js";
import {
  ARGUMENTS_JSON_META_KEY,
  ExactStdioServerTransport,
  ExactWebStandardStreamableHTTPServerTransport,
  exactArgumentsJson,
  exactToolHandler,
} from "../src/mcp/server/index.js";
import {
  exactInteger,
  numberLoss,
  numberLosses,
  suspectNumbers,
} from "../src/mcp/server/number-loss.js";
import { RequestGate } from "../src/mcp/server/request-gate.js";
import { exactWireMessage } from "../src/mcp/server/wire.js";
import { gatedExtra } from "./mcp/gated-extra.js";
import { mcpPost, type RunningServer, startTsServer } from "./mcp/servers.js";

const ROOT = new URL("..", import.meta.url).pathname;
const HANG_GUARD = 60_000;

describe("numberLoss: which numbers a JavaScript number would change", () => {
  test.each([
    ["5", undefined],
    ["-0", undefined],
    ["0.1", undefined],
    ["1.0", undefined],
    ["1e-400", undefined], // a fraction: its nearest float64 is its reading
    ["9007199254740992", undefined],
    ["9007199254740993", "integer-precision-lost"],
    ["-9007199254740993", "integer-precision-lost"],
    ["9007199254740993.0", "integer-precision-lost"],
    ["9.007199254740993e15", "integer-precision-lost"],
    ["90071992547409930e-1", "integer-precision-lost"],
    ["9007199254740993.5", undefined],
    ["18446744073709551616", undefined], // 2^64: a float64 holds it exactly
    ["18446744073709551615", "integer-precision-lost"],
    ["1e21", undefined],
    ["1e400", "number-out-of-range"],
    ["-1e400", "number-out-of-range"],
    [`1${"0".repeat(400)}.5`, "number-out-of-range"],
  ])("%s → %s", (text, code) => {
    expect(numberLoss(text)).toBe(code);
  });

  test.each([
    ["9007199254740993", 9007199254740993n],
    ["-9.007199254740993e15", -9007199254740993n],
    ["120000.0", 120000n],
    ["0e5", 0n],
    ["1.5", undefined],
    ["1e400", undefined],
    ["1e999999999", undefined],
  ])("exactInteger(%s) = %s", (text, value) => {
    expect(exactInteger(text)).toBe(value);
  });

  test("numberLosses names each path (RFC 6901), in text order", () => {
    expect(
      numberLosses('{"a/b":[1,9007199254740993,{"~":1e400}],"c":{"d":18014398509481985},"e":0.1}'),
    ).toEqual([
      { code: "integer-precision-lost", path: "/a~1b/1", text: "9007199254740993" },
      { code: "number-out-of-range", path: "/a~1b/2/~0", text: "1e400" },
      { code: "integer-precision-lost", path: "/c/d", text: "18014398509481985" },
    ]);
  });

  test("suspectNumbers: without the text, every integer beyond 2^53 is suspect", () => {
    expect(
      suspectNumbers({ a: [1, 2 ** 53, { b: 2 ** 53 - 1 }], c: Number.POSITIVE_INFINITY }),
    ).toEqual([
      { code: "integer-precision-lost", path: "/a/1", text: "" },
      { code: "number-out-of-range", path: "/c", text: "" },
    ]);
  });
});

describe("buildExactJson: iterative, exact, hostile-proof", () => {
  const asText = (text: string) => buildExactJson(text, (written) => `#${written}`);
  test.each([
    [
      '{"a":[1,{"b":-2.50}],"c":[],"d":{},"e":"x","f":true,"g":null}',
      { a: ["#1", { b: "#-2.50" }], c: [], d: {}, e: "x", f: true, g: null },
    ],
    [" [ 1 , [ ] , { } ] ", ["#1", [], {}]],
    ["7", "#7"],
    ['"s"', "s"],
  ])("%s", (text, value) => {
    expect(asText(text)).toEqual({ value });
  });

  test("__proto__ is an own member, never a prototype", () => {
    const built = buildExactJson('{"__proto__":{"polluted":1}}', Number) as {
      value: Record<string, unknown>;
    };
    expect(Object.getPrototypeOf(built.value)).toBe(Object.prototype);
    expect(Object.keys(built.value)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test("a repeated name is reported with its path when asked", () => {
    expect(buildExactJson('{"a":{"b":1,"b":2}}', Number, true)).toEqual({ duplicate: "/a/b" });
    expect(buildExactJson('{"a":{"b":1,"b":2}}', Number)).toEqual({ value: { a: { b: 2 } } });
  });

  test("100,000 levels deep, with a path to the innermost number", () => {
    const depth = 100_000;
    const text = `${'{"a":['.repeat(depth)}9007199254740993${"]}".repeat(depth)}`;
    expect(numberLosses(text)).toEqual([
      { code: "integer-precision-lost", path: "/a/0".repeat(depth), text: "9007199254740993" },
    ]);
  });
});

describe("RequestGate", () => {
  const call = (args: string, meta = "") =>
    `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t","arguments":${args}${meta}}}`;
  const admit = (gate: RequestGate, text: string) => {
    const parsed = JSON.parse(text) as JSONRPCMessage;
    gate.annotate(parsed, text);
    return {
      refused: gate.admit(parsed),
      message: parsed as { params: { _meta?: Record<string, unknown> } },
    };
  };

  test("a call holding an integer beyond 2^53 is refused with -32602 naming each path", () => {
    const { refused } = admit(
      new RequestGate(undefined),
      call('{"ids":[1,9007199254740993,18014398509481985]}'),
    );
    expect(refused).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32602,
        message:
          "Invalid params: integer-precision-lost at /ids/1: the integer cannot be held exactly by a JavaScript number, and this tool does not take exact integers",
        data: {
          errors: [
            { code: "integer-precision-lost", path: "/ids/1" },
            { code: "integer-precision-lost", path: "/ids/2" },
          ],
        },
      },
    });
  });

  test("an exact tool gets the call, with the exact text; out-of-range numbers are refused for every tool", () => {
    const gate = new RequestGate({ exactTools: (name) => name === "t" });
    const ok = admit(gate, call('{"id":9007199254740993}'));
    expect(ok.refused).toBeUndefined();
    expect(ok.message.params._meta).toEqual({
      [ARGUMENTS_JSON_META_KEY]: '{"id":9007199254740993}',
    });
    expect(admit(gate, call('{"x":1e400}')).refused?.error.message).toBe(
      "Invalid params: number-out-of-range at /x: the number is beyond what a JavaScript number holds",
    );
  });

  test("a client's own value under the key is replaced (annotated) or dropped (not annotated)", () => {
    const gate = new RequestGate({ exactTools: ["t"] });
    const spoof = `,"_meta":{"${ARGUMENTS_JSON_META_KEY}":"{\\"id\\":9007199254740993}","struct-json-bridge/argumentsJsonNonce":"guess","k":1}`;
    const annotated = admit(gate, call('{"id":5}', spoof));
    expect(annotated.message.params._meta).toEqual({ k: 1, [ARGUMENTS_JSON_META_KEY]: '{"id":5}' });
    // Not annotated (a body parsed by someone else): the claim is dropped, and big integers cannot be trusted.
    const parsed = JSON.parse(call('{"id":9007199254740993}', spoof)) as JSONRPCMessage;
    expect(gate.admit(parsed)?.error.data).toEqual({
      errors: [{ code: "integer-precision-lost", path: "/id" }],
    });
    expect((parsed as { params: { _meta: unknown } }).params._meta).toEqual({ k: 1 });
  });

  test("other messages pass untouched", () => {
    const gate = new RequestGate(undefined);
    for (const text of [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":9007199254740993}}',
      '{"jsonrpc":"2.0","method":"notifications/x","params":{"x":9007199254740993}}',
    ]) {
      expect(admit(gate, text)).toEqual({ refused: undefined, message: JSON.parse(text) });
    }
  });
});

describe("options outside their documented values: option-invalid, naming the option", () => {
  test.each<[string, () => unknown, string]>([
    [
      "exactTools as a string",
      () => new RequestGate({ exactTools: "get_order" as never }),
      "exactTools",
    ],
    [
      "exactTools with a number in the list",
      () => new RequestGate({ exactTools: ["a", 1] as never }),
      "exactTools",
    ],
    ["exactTools null", () => new RequestGate({ exactTools: null as never }), "exactTools"],
    [
      "exactTools on the stdio transport",
      () =>
        new ExactStdioServerTransport(new PassThrough(), new PassThrough(), {
          exactTools: {} as never,
        }),
      "exactTools",
    ],
    [
      "exactTools on the web-standard transport",
      () => new ExactWebStandardStreamableHTTPServerTransport({ exactTools: "x" as never }),
      "exactTools",
    ],
    [
      'integers: "number"',
      () => exactToolHandler(() => ({ content: [] }), { integers: "number" as never }),
      "integers",
    ],
  ])("%s", (_label, make, option) => {
    expect(make).toThrow(expect.objectContaining({ code: "option-invalid", path: "" }));
    expect(make).toThrow(`option ${option} must be`);
  });

  test("a list and a predicate both name the exact tools; absent, none is exact", () => {
    const line = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"n":9007199254740993}}}`;
    const refusedBy = (gate: RequestGate) => {
      const parsed: unknown = JSON.parse(line);
      gate.annotate(parsed, line);
      return gate.admit(parsed as JSONRPCMessage) !== undefined;
    };
    expect(refusedBy(new RequestGate({ exactTools: ["t"] }))).toBe(false);
    expect(refusedBy(new RequestGate({ exactTools: (name) => name === "t" }))).toBe(false);
    expect(refusedBy(new RequestGate({ exactTools: ["u"] }))).toBe(true);
    expect(refusedBy(new RequestGate(undefined))).toBe(true);
    expect(refusedBy(new RequestGate({}))).toBe(true);
  });
});

describe("exactToolHandler", () => {
  // The exact text as an exact transport hands it on: through a real gate (a string put under the key by hand is not trusted).
  const extraWith = (text?: string) => (text === undefined ? { _meta: {} } : gatedExtra(text));

  test("integers beyond 2^53 arrive as bigint (default) or text; others as numbers", async () => {
    const seen: unknown[] = [];
    const record = (args: unknown) => {
      seen.push(args);
      return { content: [] };
    };
    const text = '{"id":9007199254740993,"n":[1,18014398509481985],"f":1.0}';
    await exactToolHandler(record)(JSON.parse(text), extraWith(text));
    await exactToolHandler(record, { integers: "text" })(JSON.parse(text), extraWith(text));
    expect(seen).toEqual([
      { id: 9007199254740993n, n: [1, 18014398509481985n], f: 1 },
      { id: "9007199254740993", n: [1, "18014398509481985"], f: 1 },
    ]);
  });

  test("without an exact transport, a big integer is refused (McpError -32602 with the path)", async () => {
    const handler = exactToolHandler(() => ({ content: [] }));
    await expect(handler({ a: { b: 2 ** 60 } }, extraWith())).rejects.toMatchObject({
      code: -32602,
      data: { errors: [{ code: "integer-precision-lost", path: "/a/b" }] },
    });
    await expect(handler({ a: { b: 2 ** 52 } }, extraWith())).resolves.toEqual({ content: [] });
  });

  test.each([
    [{ trace: 2 ** 60 }, "integer-precision-lost", "/trace"],
    [{ x: [1, Number.NEGATIVE_INFINITY] }, "number-out-of-range", "/x/1"],
  ])(
    "without an exact transport, a suspect number in _meta is refused too (%j)",
    async (meta, code, path) => {
      const handler = exactToolHandler(() => ({ content: [] }));
      const refusal = handler({ a: 1 }, { _meta: meta });
      await expect(refusal).rejects.toBeInstanceOf(McpError);
      await expect(refusal).rejects.toMatchObject({
        code: -32602,
        data: { errors: [{ code, path, member: "_meta" }] },
      });
      expect(((await refusal.catch((e: unknown) => e)) as Error).message).toContain(
        ` at ${path} of _meta:`,
      );
      await expect(handler({ a: 1 }, { _meta: { progressToken: 7 } })).resolves.toEqual({
        content: [],
      });
    },
  );

  test("exact text that disagrees with the validated arguments is refused, not trusted", async () => {
    const handler = exactToolHandler(() => ({ content: [] }));
    const refusal = handler({ id: 5 }, extraWith('{"id":9007199254740993}'));
    await expect(refusal).rejects.toBeInstanceOf(McpError);
    await expect(refusal).rejects.toMatchObject({
      code: -32602,
      data: { errors: [{ path: "/id" }] },
    });
  });

  test("a result's bigints: digits in _meta and in the text content; numbers for the SDK's schema check", async () => {
    const handler = exactToolHandler(() => ({
      structuredContent: { id: 9007199254740993n, ok: true },
    }));
    expect(await handler({}, extraWith("{}"))).toEqual({
      structuredContent: { id: 9007199254740992, ok: true },
      content: [{ type: "text", text: '{"id":9007199254740993,"ok":true}' }],
      _meta: { [STRUCTURED_CONTENT_JSON_META_KEY]: '{"id":9007199254740993,"ok":true}' },
    });
    const plain = exactToolHandler(() => ({ structuredContent: { n: 2 } }));
    expect(await plain({}, extraWith("{}"))).toEqual({
      structuredContent: { n: 2 },
      content: [{ type: "text", text: '{"n":2}' }],
    });
  });

  test("a member the schema dropped is fine; a value the schema transformed is refused; 2^53 + 2 passes", async () => {
    const record = exactToolHandler((args) => ({
      content: [{ type: "text", text: String(Object.keys(args as object)) }],
    }));
    const text = '{"keep":9007199254740994,"dropped":{"id":9007199254740993}}';
    await expect(record({ keep: 9007199254740994 }, extraWith(text))).resolves.toMatchObject({
      content: [{ text: "keep" }],
    });
    await expect(
      record({ keep: 9007199254740994, dropped: "9007199254740992" }, extraWith(text)),
    ).rejects.toMatchObject({ code: -32602, data: { errors: [{ path: "/dropped" }] } });
    await expect(
      record({ keep: 9007199254740994, dropped: { id: 1 } }, extraWith(text)),
    ).rejects.toMatchObject({ code: -32602, data: { errors: [{ path: "/dropped/id" }] } });
  });

  test("linear in the text: 20,000 exact integers 20,000 levels deep", async () => {
    const depth = 20_000;
    const ids = Array.from(
      { length: 20_000 },
      (_, i) => `${9007199254740993n + 2n * BigInt(i)}`,
    ).join(",");
    const text = `${'{"a":'.repeat(depth)}[${ids}]${"}".repeat(depth)}`;
    const args = JSON.parse(text);
    let seen: unknown;
    await exactToolHandler((received) => {
      seen = received;
      return { content: [] };
    })(args, extraWith(text));
    let inner = seen as { a: unknown };
    for (let i = 0; i < depth - 1; i++) inner = inner.a as { a: unknown };
    expect((inner.a as bigint[]).slice(0, 2)).toEqual([9007199254740993n, 9007199254740995n]);
  });

  test("exactArgumentsJson reads the text the exact transport recorded", () => {
    expect(exactArgumentsJson(extraWith('{"a":1.0}'))).toBe('{"a":1.0}');
    expect(exactArgumentsJson({})).toBeUndefined();
  });

  test("a text put under the key by hand (no exact transport) is not trusted: the call is refused", async () => {
    let ran = false;
    const handler = exactToolHandler(() => {
      ran = true;
      return { content: [] };
    });
    // The SDK parsed and validated n = 2^53; the client's own text claims 2^53 + 1.
    const forged = { _meta: { [ARGUMENTS_JSON_META_KEY]: '{"id":5,"n":9007199254740993}' } };
    expect(exactArgumentsJson(forged)).toBeUndefined();
    await expect(handler({ id: 5, n: 9007199254740992 }, forged)).rejects.toMatchObject({
      code: -32602,
      data: { errors: [{ code: "integer-precision-lost", path: "/n" }] },
    });
    expect(ran).toBe(false);
    // The same text, admitted by a gate: trusted, and read exactly.
    const seen: unknown[] = [];
    await exactToolHandler((args) => {
      seen.push(args);
      return { content: [] };
    })({ id: 5, n: 9007199254740992 }, gatedExtra('{"id":5,"n":9007199254740993}'));
    expect(seen).toEqual([{ id: 5, n: 9007199254740993n }]);
  });

  test("a gate of another copy of the module (a require beside an import, two installs) is trusted too", async () => {
    const text = '{"id":5,"n":9007199254740993}';
    vi.resetModules();
    const other = (await import(
      "../src/mcp/server/request-gate.js"
    )) as typeof import("../src/mcp/server/request-gate.js");
    expect(other.RequestGate).not.toBe(RequestGate);
    const extra = gatedExtra(text);
    expect(other.vettedArgumentsJson(extra._meta)).toBe(text);
    const forged = { [ARGUMENTS_JSON_META_KEY]: text };
    expect(other.vettedArgumentsJson(forged)).toBeUndefined();
  });

  test("a gate's text is trusted only in the _meta object it admitted, and only while unchanged", async () => {
    const text = '{"id":5,"n":9007199254740993}';
    const extra = gatedExtra(text);
    expect(exactArgumentsJson(extra)).toBe(text);
    // A copy holds the same string, but is not the object the gate admitted.
    expect(exactArgumentsJson({ _meta: { ...extra._meta } })).toBeUndefined();
    expect(exactArgumentsJson({ ...extra })).toBe(text); // (the same _meta: a shallow copy of extra)
    // The admitted object with its text replaced afterwards.
    extra._meta[ARGUMENTS_JSON_META_KEY] = '{"id":5,"n":9007199254740995}';
    expect(exactArgumentsJson(extra)).toBeUndefined();
    const handler = exactToolHandler(() => ({ content: [] }));
    await expect(handler({ id: 5, n: 9007199254740996 }, extra)).rejects.toMatchObject({
      code: -32602,
      data: { errors: [{ code: "integer-precision-lost", path: "/n" }] },
    });
    delete extra._meta[ARGUMENTS_JSON_META_KEY];
    expect(exactArgumentsJson(extra)).toBeUndefined();
  });
});

describe("exactWireMessage", () => {
  test("structuredContent from the recorded text when it reads as the same value; the key is not written", () => {
    const message = {
      jsonrpc: "2.0" as const,
      id: 1,
      result: {
        content: [],
        structuredContent: { id: 9007199254740992 },
        _meta: { [STRUCTURED_CONTENT_JSON_META_KEY]: '{"id":9007199254740993}' },
      },
    };
    const wire = exactWireMessage(message);
    expect((wire as unknown as { result: object }).result).not.toHaveProperty("_meta");
    const other = { ...message, result: { ...message.result, structuredContent: { id: 1 } } };
    expect(
      (exactWireMessage(other) as unknown as { result: { structuredContent: unknown } }).result
        .structuredContent,
    ).toEqual({ id: 1 });
  });
});

/** A stdio server pair over in-memory streams: what a transport writes, line by line. */
function stdioPair(make: (stdin: PassThrough, stdout: PassThrough) => StdioServerTransport) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  let buffered = "";
  stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
      lines.push(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
    }
  });
  return { transport: make(stdin, stdout), stdin, lines };
}

describe("ExactStdioServerTransport behaves as the SDK's StdioServerTransport", () => {
  test("onmessage throws, a bad line, start twice, send, close: the same events in the same order", async () => {
    const logs: string[][] = [];
    for (const make of [
      (i: PassThrough, o: PassThrough) => new StdioServerTransport(i, o),
      (i: PassThrough, o: PassThrough) => new ExactStdioServerTransport(i, o),
    ]) {
      const log: string[] = [];
      const { transport, stdin, lines } = stdioPair(make);
      transport.onmessage = (m) => {
        log.push(`message ${JSON.stringify(m)}`);
        if ("method" in m && m.method === "a") throw new Error("handler failed");
      };
      transport.onerror = (e) => log.push(`error ${e.constructor.name}`);
      transport.onclose = () => log.push("close");
      await transport.start();
      await transport.start().catch((e: Error) => log.push(e.message));
      stdin.write(
        '{"jsonrpc":"2.0","method":"a"}\n{oops\n{"x":1}\r\n{"jsonrpc":"2.0","method":"b"}\n',
      );
      await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
      log.push(...lines.map((l) => `wrote ${l}`));
      await transport.close();
      logs.push(log);
    }
    expect(logs[1]).toEqual(logs[0]);
    expect(logs[0]).toEqual([
      "StdioServerTransport already started! If using Server class, note that connect() calls start() automatically.",
      'message {"jsonrpc":"2.0","method":"a"}',
      "error Error",
      "error SyntaxError",
      "error ZodError",
      'message {"jsonrpc":"2.0","method":"b"}',
      'wrote {"jsonrpc":"2.0","id":1,"result":{}}',
      "close",
    ]);
  });

  test("a refused call is answered on stdout and never reaches the server", async () => {
    const { transport, stdin, lines } = stdioPair((i, o) => new ExactStdioServerTransport(i, o));
    const seen: JSONRPCMessage[] = [];
    transport.onmessage = (m) => seen.push(m);
    await transport.start();
    stdin.write(
      '{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"t","arguments":{"a":[9007199254740993]}}}\n',
    );
    await transport.send({
      jsonrpc: "2.0",
      method: "notifications/x",
      params: { big: 18014398509481985n },
    } as never);
    await transport.close();
    expect(seen).toEqual([]);
    expect(lines.map((l) => JSON.parse(l).error?.data ?? l)).toEqual([
      { errors: [{ code: "integer-precision-lost", path: "/a/0" }] },
      '{"jsonrpc":"2.0","method":"notifications/x","params":{"big":18014398509481985}}',
    ]);
  });
});

const stdioServer = {
  command: process.execPath,
  args: ["--import", "tsx", "examples/mcp/exact-server.ts"],
  cwd: ROOT,
};

/** The calls every end-to-end run makes, and what each must give. */
async function exactCalls(client: Client, exactResults: boolean): Promise<void> {
  const order = await client.callTool({
    name: "get_order",
    arguments: exactJsonArguments('{"order_id":9007199254740993,"quantity":2,"price":1.5}'),
  });
  const text =
    '{"order_id":9007199254740993,"id_type":"bigint","quantity":2,"price":1.5,"next_id":9007199254740994}';
  expect(order.content).toEqual([{ type: "text", text }]);
  expect(structuredContentJson(order)).toBe(exactResults ? text : undefined);

  const texts = await client.callTool({
    name: "order_texts",
    arguments: exactJsonArguments('{"ids":[9007199254740993,5,-18014398509481985]}'),
  });
  expect(texts.content).toEqual([
    { type: "text", text: "string:9007199254740993,number:5,string:-18014398509481985" },
  ]);

  await expect(
    client.callTool({
      name: "nested_echo",
      arguments: exactJsonArguments('{"items":[{"id":1},{"id":9007199254740993}]}'),
    }),
  ).rejects.toMatchObject({
    code: -32602,
    message: expect.stringContaining("integer-precision-lost at /items/1/id"),
    data: { errors: [{ code: "integer-precision-lost", path: "/items/1/id" }] },
  });
  // 2^53 itself is held exactly: it passes as a number.
  const exactlyHeld = await client.callTool({ name: "plain_echo", arguments: { id: 2 ** 53 } });
  expect(exactlyHeld.content).toEqual([{ type: "text", text: "number:9007199254740992" }]);
  await expect(
    client.callTool({
      name: "get_order",
      arguments: exactJsonArguments('{"order_id":1e400,"quantity":1,"price":1}'),
    }),
  ).rejects.toMatchObject({
    code: -32602,
    data: { errors: [{ code: "number-out-of-range", path: "/order_id" }] },
  });
}

describe("end to end over stdio: the SDK's Client and McpServer", () => {
  test(
    "with ExactStdioClientTransport",
    async () => {
      const client = new Client({ name: "e2e", version: "1" });
      await client.connect(new ExactStdioClientTransport(stdioServer));
      await exactCalls(client, true);
      await client.close();
    },
    HANG_GUARD,
  );

  test(
    "with the SDK's StdioClientTransport (exact arguments need JSON.rawJSON to be written)",
    async () => {
      const client = new Client({ name: "e2e", version: "1" });
      await client.connect(new StdioClientTransport(stdioServer));
      if (hasNativeRawJson) await exactCalls(client, false);
      else {
        await expect(
          client.callTool({
            name: "get_order",
            arguments: exactJsonArguments('{"order_id":9007199254740993,"quantity":1,"price":1}'),
          }),
        ).rejects.toMatchObject({ code: "exact-json-unsupported" });
      }
      await client.close();
    },
    HANG_GUARD,
  );
});

describe.each([false, true])("end to end over Streamable HTTP (JSON responses: %s)", (json) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTsServer({ exact: true, json });
  });
  afterAll(() => server.close());

  test(
    "with ExactStreamableHTTPClientTransport",
    async () => {
      const client = new Client({ name: "e2e", version: "1" });
      await client.connect(new ExactStreamableHTTPClientTransport(server.url));
      if (hasNativeRawJson) await exactCalls(client, true);
      else {
        // Node 20: everything but writing a bigint result over the SDK's HTTP transport, which
        // is refused with -32603, never written rounded.
        await expect(
          client.callTool({
            name: "get_order",
            arguments: exactJsonArguments('{"order_id":9007199254740993,"quantity":2,"price":1.5}'),
          }),
        ).rejects.toMatchObject({
          code: -32603,
          message: expect.stringContaining("exact-json-unsupported at /order_id"),
        });
        const texts = await client.callTool({
          name: "order_texts",
          arguments: exactJsonArguments('{"ids":[9007199254740993]}'),
        });
        expect(texts.content).toEqual([{ type: "text", text: "string:9007199254740993" }]);
      }
      await client.close();
    },
    HANG_GUARD,
  );

  test("a malformed body gets the SDK's own answer (the transport read it first)", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: "{oops",
    });
    expect([response.status, await response.json()]).toEqual([
      400,
      { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null },
    ]);
  });

  test(
    "a batch: the refused call is answered with -32602, the other one runs",
    async () => {
      const client = new Client({ name: "e2e", version: "1" });
      const transport = new StreamableHTTPClientTransport(server.url);
      await client.connect(transport);
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      };
      const body =
        '[{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"plain_echo","arguments":{"id":9007199254740993}}},' +
        '{"jsonrpc":"2.0","id":"y","method":"tools/call","params":{"name":"order_texts","arguments":{"ids":[18014398509481985]}}}]';
      const response = await fetch(server.url, { method: "POST", headers, body });
      const text = await response.text();
      const messages = (
        json
          ? JSON.parse(text)
          : text
              .split("\n")
              .filter((l) => l.startsWith("data: "))
              .map((l) => JSON.parse(l.slice(6)))
      ) as {
        id: string;
        error?: { code: number; data: unknown };
        result?: { content: unknown };
      }[];
      const byId = Object.fromEntries(messages.map((m) => [m.id, m]));
      expect(byId.x?.error).toMatchObject({
        code: -32602,
        data: { errors: [{ code: "integer-precision-lost", path: "/id" }] },
      });
      expect(byId.y?.result?.content).toEqual([{ type: "text", text: "string:18014398509481985" }]);
      await client.close();
    },
    HANG_GUARD,
  );
});

describe.each([false, true])(
  "end to end through the web-standard transport, in process (JSON responses: %s)",
  (json) => {
    /** A fetch that hands each request to a session's transport, as a Workers or Hono route would. */
    function inProcessFetch() {
      const sessions = new Map<string, ExactWebStandardStreamableHTTPServerTransport>();
      return async (url: string | URL, init?: RequestInit): Promise<Response> => {
        const request = new Request(url, init);
        const id = request.headers.get("mcp-session-id");
        let transport = id === null ? undefined : sessions.get(id);
        if (transport === undefined) {
          const created = new ExactWebStandardStreamableHTTPServerTransport({
            sessionIdGenerator: randomUUID,
            enableJsonResponse: json,
            exactTools: EXACT_TOOLS,
            onsessioninitialized: (sessionId) => {
              sessions.set(sessionId, created);
            },
          });
          await exactServer().connect(created);
          transport = created;
        }
        return transport.handleRequest(request);
      };
    }

    test(
      "the same calls, refusals and results as over Node's http",
      async () => {
        const client = new Client({ name: "e2e", version: "1" });
        await client.connect(
          new ExactStreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), {
            fetch: inProcessFetch(),
          }),
        );
        if (hasNativeRawJson) await exactCalls(client, true);
        else {
          await expect(
            client.callTool({
              name: "nested_echo",
              arguments: exactJsonArguments('{"items":[{"id":9007199254740993}]}'),
            }),
          ).rejects.toMatchObject({ code: -32602, data: { errors: [{ path: "/items/0/id" }] } });
        }
        await client.close();
      },
      HANG_GUARD,
    );

    test("a malformed or oversized body gets the SDK's own answer", async () => {
      const post = async (body: string) => {
        const transport = new ExactWebStandardStreamableHTTPServerTransport({
          maxRequestBodySize: 64,
        });
        await exactServer().connect(transport);
        return transport.handleRequest(mcpPost(body));
      };
      const malformed = await post("{oops");
      expect([malformed.status, await malformed.json()]).toEqual([
        400,
        { jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null },
      ]);
      const oversized = await post(`{"pad":"${"x".repeat(100)}"}`);
      expect(oversized.status).toBe(413);
    });
  },
);

describe.each([false, true])(
  "the web-standard HTTP server transports answer alike, the SDK's and the exact one (JSON responses: %s)",
  (json) => {
    const base = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"${LATEST_PROTOCOL_VERSION}","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`;
    const session = {
      ...base,
      "mcp-session-id": "s1",
      "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
    };
    const steps: [string, RequestInit][] = [
      [
        "tools/list before initialize",
        { method: "POST", headers: base, body: '{"jsonrpc":"2.0","id":0,"method":"tools/list"}' },
      ],
      [
        "no Accept",
        { method: "POST", headers: { "content-type": "application/json" }, body: initialize },
      ],
      [
        "not JSON content",
        { method: "POST", headers: { ...base, "content-type": "text/plain" }, body: initialize },
      ],
      ["malformed", { method: "POST", headers: base, body: "{oops" }],
      ["oversized", { method: "POST", headers: base, body: `{"pad":"${"x".repeat(5000)}"}` }],
      ["not JSON-RPC", { method: "POST", headers: base, body: '{"hello":1}' }],
      ["initialize", { method: "POST", headers: base, body: initialize }],
      [
        "initialized",
        {
          method: "POST",
          headers: session,
          body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        },
      ],
      [
        "no session id",
        { method: "POST", headers: base, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' },
      ],
      [
        "wrong session id",
        {
          method: "POST",
          headers: { ...session, "mcp-session-id": "s2" },
          body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
        },
      ],
      [
        "tools/list",
        {
          method: "POST",
          headers: session,
          body: '{"jsonrpc":"2.0","id":3,"method":"tools/list"}',
        },
      ],
      [
        "a call without big numbers",
        {
          method: "POST",
          headers: session,
          body: '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"plain_echo","arguments":{"id":7}}}',
        },
      ],
      ["PUT", { method: "PUT", headers: session }],
      ["DELETE", { method: "DELETE", headers: session }],
      [
        "after DELETE",
        {
          method: "POST",
          headers: session,
          body: '{"jsonrpc":"2.0","id":5,"method":"tools/list"}',
        },
      ],
    ];

    test("status, content type and body of every step", async () => {
      const logs: string[][] = [];
      for (const Transport of [
        (await import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"))
          .WebStandardStreamableHTTPServerTransport,
        ExactWebStandardStreamableHTTPServerTransport,
      ]) {
        const transport = new Transport({
          sessionIdGenerator: () => "s1",
          enableJsonResponse: json,
          maxRequestBodySize: 4096,
        });
        const errors: string[] = [];
        await exactServer().connect(transport);
        transport.onerror = (e) => errors.push(e.message);
        const log: string[] = [];
        for (const [name, init] of steps) {
          const response = await transport.handleRequest(new Request("http://127.0.0.1/mcp", init));
          log.push(
            `${name}: ${response.status} ${response.headers.get("content-type")} ${await response.text()}`,
          );
        }
        log.push(...errors.map((e) => `onerror ${e}`));
        logs.push(log);
      }
      expect(logs[1]).toEqual(logs[0]);
      expect(logs[0]!.find((l) => l.startsWith("a call without big numbers"))).toContain(
        "number:7",
      );
    });
  },
);
