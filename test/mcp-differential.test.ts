// Differential and adversarial tests of the MCP exact layer: what the gate
// reads (the package's parser over the text) against what the SDK reads
// (JSON.parse, then zod), what a handler receives against an independent
// lossless reading (lossless-json, BigInt), end to end through McpServer,
// what the client readers record (JSON and SSE, against the SDK's own SSE
// reading), and what serializeExactMessage writes against JSON.stringify.
// Fixed seeds and run counts; no verdict depends on time (one test's timeout
// guards against a quadratic read).

import { PassThrough } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { EventSourceParserStream } from "eventsource-parser/stream";
import fc from "fast-check";
import { isLosslessNumber, parse as losslessParse } from "lossless-json";
import { describe, expect, test, vi } from "vitest";
import { z } from "zod";
import { pointerFrom } from "../src/json-pointer.js";
import { exactEventStream, exactResponseText } from "../src/mcp/exact-http-client-transport.js";
import {
  deserializeExactMessage,
  ExactNumber,
  exactJsonArguments,
  STRUCTURED_CONTENT_JSON_META_KEY,
  serializeExactMessage,
  structuredContentJson,
} from "../src/mcp/index.js";
import { memberText } from "../src/mcp/json-span.js";
import {
  ARGUMENTS_JSON_META_KEY,
  ExactStdioServerTransport,
  ExactWebStandardStreamableHTTPServerTransport,
  exactToolHandler,
  type ToolHandlerExtra,
} from "../src/mcp/server/index.js";
import { exactInteger, numberLoss } from "../src/mcp/server/number-loss.js";
import { RequestGate } from "../src/mcp/server/request-gate.js";
import { gatedExtra } from "./mcp/gated-extra.js";
import { mcpPost } from "./mcp/servers.js";
import {
  argumentsText,
  encodeString,
  floatText,
  intText,
  runs,
  textLosesPrecision,
  ws,
} from "./property-arbitraries.js";

// The package's span parser, counted (it still parses): a batch must cost one parse of its text.
const spanParses = vi.hoisted(() => ({ count: 0 }));
vi.mock("../src/struct/parse-json.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../src/struct/parse-json.js")>();
  return {
    ...original,
    parseJsonSpans: (...args: Parameters<typeof original.parseJsonSpans>) => {
      spanParses.count++;
      return original.parseJsonSpans(...args);
    },
  };
});

const HANG_GUARD = 30_000;
const BIG = "9007199254740993"; // 2^53 + 1: JSON.parse reads 9007199254740992

// ---------------------------------------------------------------------------
// An independent oracle: lossless-json's reading, numbers judged with BigInt.
// ---------------------------------------------------------------------------

/** The integer a JSON number text denotes, or undefined for a fraction (BigInt arithmetic only). */
function oracleInteger(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m === null) throw new Error("not a JSON number");
  const [, sign, int, frac = "", exp = "0"] = m;
  let digits = BigInt(int! + frac);
  let e = Number(exp) - frac.length;
  if (digits === 0n) return 0n;
  while (digits % 10n === 0n) {
    digits /= 10n;
    e++;
  }
  if (e < 0) return undefined;
  if (e > 400) return undefined; // beyond float64 anyway
  const magnitude = digits * 10n ** BigInt(e);
  return sign === "-" ? -magnitude : magnitude;
}

type OracleCode = "integer-precision-lost" | "number-out-of-range";

/**
 * How JSON.parse would change the number `text`, by the oracle: an integer
 * written as plain digits must be the float64's exact digits; any other whole
 * text must be denoted by the float64's shortest form or its exact integer
 * (the package's reading of `9.007199254740993e15` and `6.02e23` alike).
 */
function oracleLoss(text: string): OracleCode | undefined {
  const n = Number(text);
  if (!Number.isFinite(n)) return "number-out-of-range";
  const i = oracleInteger(text);
  if (i === undefined) return undefined;
  return textLosesPrecision(text) ? "integer-precision-lost" : undefined;
}

/** Every number of a lossless reading, in text order, with its path. */
function oracleNumbers(
  v: unknown,
  tokens: (string | number)[] = [],
  out: { path: string; text: string }[] = [],
) {
  if (isLosslessNumber(v)) out.push({ path: pointerFrom(tokens), text: v.value });
  else if (Array.isArray(v))
    for (const [i, x] of v.entries()) oracleNumbers(x, [...tokens, i], out);
  else if (v !== null && typeof v === "object")
    for (const k of Object.keys(v)) oracleNumbers((v as never)[k], [...tokens, k], out);
  return out;
}

/** Losses in a fixed order, for comparing sets. */
const bySpot = (losses: readonly { code: string; path: string }[]) =>
  [...losses].sort((a, b) =>
    a.path === b.path ? a.code.localeCompare(b.code) : a.path < b.path ? -1 : 1,
  );

/** The losses the gate must name for arguments text `text` (text order). */
function oracleLosses(text: string, exactTool: boolean): { code: OracleCode; path: string }[] {
  const out: { code: OracleCode; path: string }[] = [];
  for (const { path, text: t } of oracleNumbers(losslessParse(text))) {
    const code = oracleLoss(t);
    if (code === undefined || (exactTool && code === "integer-precision-lost")) continue;
    out.push({ code, path });
  }
  return out;
}

/** What an exact handler must receive for `text`: lossy integers as bigint, other numbers as JSON.parse reads them. */
function oracleExactValue(text: string): unknown {
  const convert = (v: unknown): unknown => {
    if (isLosslessNumber(v)) {
      return oracleLoss(v.value) === "integer-precision-lost"
        ? oracleInteger(v.value)
        : Number(v.value);
    }
    if (Array.isArray(v)) return v.map(convert);
    if (v !== null && typeof v === "object") {
      const o: Record<string, unknown> = {};
      for (const k of Object.keys(v))
        Object.defineProperty(o, k, {
          value: convert((v as never)[k]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return o;
    }
    return v;
  };
  return convert(losslessParse(text));
}

/** True when `value` has an own top-level `__proto__` member (zod's record would drop it from the arguments). */
function hasTopProto(value: unknown): boolean {
  return value !== null && typeof value === "object" && Object.hasOwn(value, "__proto__");
}

/** JSON whitespace trimmed (the span the gate cuts). */
const trimJson = (s: string) => s.replace(/^[ \t\n\r]+|[ \t\n\r]+$/g, "");

/** A JSON string literal for `s` spelled by `choices` (escapes of every kind). */
const spelled = (s: string) =>
  fc.array(fc.nat(11), { minLength: 1, maxLength: 6 }).map((c) => encodeString(s, c));

// ---------------------------------------------------------------------------
// The SDK's reading, as its server does it, beside the gate's.
// ---------------------------------------------------------------------------

interface Reading {
  refused: { code: number; message: string; data?: unknown } | undefined;
  name: string;
  args: unknown;
  argumentsJson: unknown;
}

/** One line through the gate and the SDK's own parsing (JSONRPCMessageSchema, then CallToolRequestSchema). */
function readLine(line: string, exactTools: readonly string[]): Reading {
  const gate = new RequestGate({ exactTools });
  const parsed: unknown = JSON.parse(line);
  gate.annotate(parsed, line);
  const message = JSONRPCMessageSchema.parse(parsed);
  const refused = gate.admit(message);
  const request = CallToolRequestSchema.parse(message);
  return {
    refused: refused === undefined ? undefined : refused.error,
    name: request.params.name,
    args: request.params.arguments,
    argumentsJson: request.params._meta?.[ARGUMENTS_JSON_META_KEY],
  };
}

describe("the gate refuses what the SDK would hand on changed: _meta numbers, a __proto__ member", () => {
  const head = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":';
  const refused = (
    code: string,
    path: string,
    member?: "_meta",
  ): { code: number; data: { errors: Record<string, string>[] } } => ({
    code: -32602,
    data: { errors: [member === undefined ? { code, path } : { code, path, member }] },
  });
  test.each([
    [
      "a number in _meta that JSON.parse rounds, plain tool",
      `${head}{"name":"plain","arguments":{"a":1},"_meta":{"trace":${BIG}}}}`,
      refused("integer-precision-lost", "/trace", "_meta"),
    ],
    [
      "a number in _meta that JSON.parse rounds, exact tool (the handler reads _meta as numbers too)",
      `${head}{"name":"exact","arguments":{"a":1},"_meta":{"x":{"ids":[1,${BIG}]}}}}`,
      refused("integer-precision-lost", "/x/ids/1", "_meta"),
    ],
    [
      "a number beyond float64 in _meta",
      `${head}{"name":"exact","arguments":{},"_meta":{"\\u0074":-1e400}}}`,
      refused("number-out-of-range", "/t", "_meta"),
    ],
    [
      "an argument named _meta is not the request's _meta",
      `${head}{"name":"plain","arguments":{"_meta":{"trace":${BIG}}}}}`,
      refused("integer-precision-lost", "/_meta/trace"),
    ],
    [
      "__proto__ at the top of the arguments, plain tool",
      `${head}{"name":"plain","arguments":{"__proto__":{"admin":true},"b":1}}}`,
      refused("member-dropped", "/__proto__"),
    ],
    [
      "__proto__ at the top of the arguments, exact tool, spelled with an escape",
      `${head}{"name":"exact","arguments":{"b":1,"\\u005f_proto__":[]}}}`,
      refused("member-dropped", "/__proto__"),
    ],
    [
      "__proto__ as the arguments' repeated name",
      `${head}{"name":"exact","arguments":{"__proto__":1,"__proto__":null}}}`,
      refused("member-dropped", "/__proto__"),
    ],
  ])("%s", (_label, line, error) => {
    expect(readLine(line, ["exact"]).refused).toEqual(expect.objectContaining(error));
  });

  test.each([
    ["2^53 itself and small numbers in _meta", `"_meta":{"a":9007199254740992,"b":[1.5,-0,1e300]}`],
    ["a progressToken the SDK accepts", `"_meta":{"progressToken":9007199254740991}`],
    ["a string progressToken", `"_meta":{"progressToken":"${BIG}"}`],
    ["__proto__ below the top of the arguments", `"arguments":{"a":{"__proto__":{"b":1}}}`],
    [
      "__proto__ in _meta (the SDK drops it there: no tool reads it)",
      `"_meta":{"__proto__":{"a":1}}`,
    ],
  ])("passes: %s", (_label, member) => {
    const reading = readLine(`${head}{"name":"plain",${member}}}`, ["exact"]);
    expect(reading.refused).toBeUndefined();
  });

  test("the gate's own keys never reach the handler's _meta", () => {
    const gate = new RequestGate({ exactTools: ["exact"] });
    const line = `${head}{"name":"exact","arguments":{"a":${BIG}},"_meta":{"k":1,"struct-json-bridge/metaJson":"{}"}}}`;
    const parsed: unknown = JSON.parse(line);
    gate.annotate(parsed, line);
    const message = JSONRPCMessageSchema.parse(parsed) as { params: { _meta: object } };
    expect(gate.admit(message as never)).toBeUndefined();
    expect(message.params._meta).toEqual({ k: 1, [ARGUMENTS_JSON_META_KEY]: `{"a":${BIG}}` });
  });

  test("a progressToken beyond 2^53 is the SDK's to refuse: its schema rejects the message before the gate", async () => {
    const line = `${head}{"name":"plain","arguments":{},"_meta":{"progressToken":${BIG}}}}`;
    expect(() => readLine(line, ["exact"])).toThrow(/safe integer/);
    // Over HTTP the SDK answers it as a malformed message, behind the exact transport too.
    const transport = new ExactWebStandardStreamableHTTPServerTransport({
      enableJsonResponse: true,
    });
    await recordingServer(new Map()).connect(transport);
    const response = await transport.handleRequest(mcpPost(line));
    expect([response.status, await response.json()]).toEqual([
      400,
      {
        jsonrpc: "2.0",
        error: { code: -32700, message: "Parse error: Invalid JSON-RPC message" },
        id: null,
      },
    ]);
    await transport.close();
  });
});

describe("the gate reads what the SDK reads (hostile spellings of one tools/call)", () => {
  const head = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":';
  const refusedAt = (path: string, code = "integer-precision-lost") => ({
    code: -32602,
    data: { errors: [{ code, path }] },
  });
  test.each([
    [
      "arguments twice: the last one counts for both",
      `${head}{"name":"plain","arguments":{"a":${BIG}},"arguments":{"a":1}}}`,
      { refused: undefined, name: "plain", args: { a: 1 }, argumentsJson: '{"a":1}' },
    ],
    [
      "arguments twice, the big one last",
      `${head}{"name":"plain","arguments":{"a":1},"arguments":{"a":${BIG}}}}`,
      { refused: refusedAt("/a"), name: "plain" },
    ],
    [
      "the last arguments spelled with an escape",
      `${head}{"name":"plain","arguments":{"a":1},"\\u0061rguments":{"b":${BIG}}}}`,
      { refused: refusedAt("/b"), name: "plain" },
    ],
    [
      "params twice, the second spelled with an escape",
      `${head}{"name":"plain","arguments":{"a":1}},"p\\u0061rams":{"name":"plain","arguments":{"c":[${BIG}]}}}`,
      { refused: refusedAt("/c/0"), name: "plain" },
    ],
    [
      "name twice: the exact tool first, a plain one last (escaped)",
      `${head}{"name":"exact","arguments":{"a":${BIG}},"n\\u0061me":"plain"}}`,
      { refused: refusedAt("/a"), name: "plain" },
    ],
    [
      "name twice: a plain tool first, the exact one last (escaped)",
      `${head}{"name":"plain","arguments":{"a":${BIG}},"name":"ex\\u0061ct"}}`,
      { refused: undefined, name: "exact", argumentsJson: `{"a":${BIG}}` },
    ],
    [
      "the exact tool's name escaped (\\u0065)",
      `${head}{"name":"\\u0065xact","arguments":{"a":${BIG}}}}`,
      { refused: undefined, name: "exact", argumentsJson: `{"a":${BIG}}` },
    ],
    [
      "method spelled with escapes",
      `{"jsonrpc":"2.0","id":1,"method":"tools\\/c\\u0061ll","params":{"name":"plain","arguments":{"a":${BIG}}}}`,
      { refused: refusedAt("/a"), name: "plain" },
    ],
    [
      "__proto__ in the arguments: refused though zod drops it",
      `${head}{"name":"plain","arguments":{"__proto__":{"a":${BIG}},"b":1}}}`,
      { refused: refusedAt("/__proto__/a"), name: "plain", args: { b: 1 } },
    ],
    [
      "__proto__ in params hides nothing",
      `${head}{"name":"plain","__proto__":{"arguments":{"a":${BIG}}},"arguments":{"a":2}}}`,
      { refused: undefined, name: "plain", args: { a: 2 }, argumentsJson: '{"a":2}' },
    ],
    [
      "a forged exact text under __proto__ of _meta",
      `${head}{"name":"plain","arguments":{"a":${BIG}},"_meta":{"__proto__":{"${ARGUMENTS_JSON_META_KEY}":"{}","struct-json-bridge/argumentsJsonNonce":"x"}}}}`,
      { refused: refusedAt("/a"), name: "plain" },
    ],
    [
      "a forged nonce beside a forged text",
      `${head}{"name":"exact","arguments":{"a":1},"_meta":{"${ARGUMENTS_JSON_META_KEY}":"{\\"a\\":${BIG}}","struct-json-bridge/argumentsJsonNonce":"x"}}}`,
      { refused: undefined, name: "exact", args: { a: 1 }, argumentsJson: '{"a":1}' },
    ],
    [
      "out of range in a nested array, exact tool",
      `${head}{"name":"exact","arguments":{"a":[[[1e400]]]}}}`,
      { refused: refusedAt("/a/0/0/0", "number-out-of-range"), name: "exact" },
    ],
    [
      "whitespace of every kind, CR at the end",
      ` \t{ "jsonrpc" :"2.0" ,"id":1,"method":"tools/call","params":\n{"name":"plain" , "arguments" :\r{ "a" :\t${BIG} } } }\r`,
      { refused: refusedAt("/a"), name: "plain" },
    ],
  ])("%s", (_label, line, expected) => {
    const reading = readLine(line, ["exact"]);
    expect(reading).toMatchObject(expected);
    if (reading.argumentsJson !== undefined && reading.refused === undefined) {
      // The text handed on reads as the very arguments the SDK validated.
      expect(reading.args).toEqual(JSON.parse(reading.argumentsJson as string));
    }
  });

  test("a batch: each message annotated from its own place in the text", () => {
    const gate = new RequestGate({ exactTools: ["exact"] });
    const text = `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"exact","arguments":{"a":${BIG}}}} ,\n{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"exact","arguments":{"a":2},"\\u0061rguments":{"b":[${BIG}1]}}},"x",null,[]]`;
    const body = JSON.parse(text) as unknown[];
    gate.annotateBody(body, text);
    const texts = body
      .slice(0, 2)
      .map((m) => (m as { params: { _meta: Record<string, unknown> } }).params._meta);
    expect(texts.map((meta) => meta[ARGUMENTS_JSON_META_KEY])).toEqual([
      `{"a":${BIG}}`,
      `{"b":[${BIG}1]}`,
    ]);
    expect(body.slice(2)).toEqual(["x", null, []]);
  });

  // Keys (message, params, arguments) spelled every way, repeated, with
  // random tools and argument objects: the gate refuses exactly the calls the
  // oracle says JSON.parse changed, and the text it hands on is the span
  // JSON.parse read the arguments from.
  const member = (key: string, value: fc.Arbitrary<string>) =>
    fc.tuple(spelled(key), ws, ws, value).map(([k, a, b, v]) => `${k}${a}:${b}${v}`);
  const args = fc.array(argumentsText, { minLength: 1, maxLength: 2 });
  const call = fc
    .record({
      names: fc.array(fc.constantFrom("exact", "plain"), { minLength: 1, maxLength: 2 }),
      args,
      nameSpellings: fc.array(fc.array(fc.nat(11), { minLength: 1, maxLength: 6 }), {
        minLength: 2,
        maxLength: 2,
      }),
      keys: fc.tuple(
        member("jsonrpc", fc.constant('"2.0"')),
        member("id", fc.constantFrom("1", '"x"', "-7", "0")),
        member("method", spelled("tools/call")),
      ),
      argumentsKeys: fc.array(spelled("arguments"), { minLength: 2, maxLength: 2 }),
      nameKeys: fc.array(spelled("name"), { minLength: 2, maxLength: 2 }),
      paramsKey: spelled("params"),
      sp: ws,
    })
    .map((g) => {
      const params: string[] = [];
      for (const [i, n] of g.names.entries())
        params.push(`${g.nameKeys[i]}:${encodeString(n, g.nameSpellings[i]!)}`);
      for (const [i, a] of g.args.entries()) params.push(`${g.argumentsKeys[i]}${g.sp}:${a.text}`);
      const line = `{${g.keys.join(",")},${g.paramsKey}:{${params.join(`,${g.sp}`)}}}`;
      return { line, name: g.names.at(-1)!, argsText: g.args.at(-1)!.text };
    });

  test("property: refusals and exact text agree with JSON.parse's reading and the oracle", () => {
    fc.assert(
      fc.property(call, ({ line, name, argsText }) => {
        const reading = readLine(line, ["exact"]);
        expect(reading.name).toBe(name);
        const losses = oracleLosses(argsText, name === "exact");
        if (losses.length > 0) {
          // (Sorted: the oracle walks Object.keys, which puts integer-like keys first.)
          const refused = reading.refused as unknown as {
            message: string;
            data: { errors: typeof losses };
          };
          expect(refused.message).toMatch(
            /^Invalid params: (integer-precision-lost|number-out-of-range) at /,
          );
          expect(bySpot(refused.data.errors)).toEqual(bySpot(losses));
          return;
        }
        if (hasTopProto(JSON.parse(argsText))) {
          // zod would drop it from the arguments the tool sees: refused, never handed on changed.
          expect(reading.refused).toMatchObject({
            code: -32602,
            data: { errors: [{ code: "member-dropped", path: "/__proto__" }] },
          });
          return;
        }
        expect(reading.refused).toBeUndefined();
        expect(reading.argumentsJson).toBe(trimJson(argsText));
        expect(reading.args).toEqual(JSON.parse(argsText));
      }),
      runs(300, 71),
    );
  });
});

// ---------------------------------------------------------------------------
// exactToolHandler: what a handler receives, against the oracle.
// ---------------------------------------------------------------------------

describe("exactToolHandler receives the oracle's exact value", () => {
  test("property: random argument texts, as JSON.parse hands them over", async () => {
    await fc.assert(
      fc.asyncProperty(argumentsText, async ({ text }) => {
        let seen: unknown;
        const handler = exactToolHandler((received) => {
          seen = received;
          return { content: [] };
        });
        const extra = gatedExtra(text);
        expect(extra._meta[ARGUMENTS_JSON_META_KEY]).toBe(trimJson(text));
        const outcome = handler(JSON.parse(text), extra);
        const outOfRange = oracleLosses(text, true);
        if (outOfRange.length > 0) {
          await expect(outcome).rejects.toMatchObject({
            code: -32602,
            data: { errors: [outOfRange[0]] },
          });
          return;
        }
        await outcome;
        expect(seen).toEqual(oracleExactValue(text));
      }),
      runs(300, 72),
    );
  });
});

// ---------------------------------------------------------------------------
// End to end over stdio: the SDK's McpServer behind ExactStdioServerTransport.
// ---------------------------------------------------------------------------

/** What each handler received, by request id. */
type Seen = Map<unknown, { tool: string; args: unknown }>;

/** A server whose tools record what their handlers received. */
function recordingServer(seen: Seen): McpServer {
  const server = new McpServer({ name: "diff", version: "1" });
  const exact = (tool: string) =>
    exactToolHandler((args, extra: ToolHandlerExtra & { requestId?: unknown }) => {
      seen.set(extra.requestId, { tool, args });
      return { content: [] };
    });
  server.registerTool("exact", { inputSchema: z.looseObject({}) }, exact("exact") as never);
  server.registerTool("plain", { inputSchema: z.looseObject({}) }, ((
    args: unknown,
    extra: { requestId?: unknown },
  ) => {
    seen.set(extra.requestId, { tool: "plain", args });
    return { content: [] };
  }) as never);
  // Schemas that move or drop members (transforms): a number rounded on arrival must not slip through.
  server.registerTool(
    "renamed",
    {
      inputSchema: z
        .object({ order_id: z.number() })
        .transform((o) => ({ orderId: o.order_id })) as never,
    },
    exact("renamed") as never,
  );
  server.registerTool(
    "positive",
    { inputSchema: { ids: z.array(z.number()).transform((a) => a.filter((x) => x > 0)) } },
    exact("positive") as never,
  );
  return server;
}

/** The exact stdio transport, with the recording server's exact tools. */
const exactStdio = (stdin: PassThrough, stdout: PassThrough): StdioServerTransport =>
  new ExactStdioServerTransport(stdin, stdout, { exactTools: ["exact", "renamed", "positive"] });

/**
 * Sends `lines` (then a ping) to a fresh server over ExactStdioServerTransport
 * (or the transport `make` gives); the replies and what the handlers saw.
 */
async function overStdio(
  lines: string[],
  make: (stdin: PassThrough, stdout: PassThrough) => StdioServerTransport = exactStdio,
) {
  const seen: Seen = new Map();
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const replies = new Map<
    unknown,
    { result?: unknown; error?: { code: number; data?: unknown } }
  >();
  const errors: string[] = [];
  const expected = new Set<unknown>(["end"]);
  for (const line of lines) {
    try {
      const id = (JSON.parse(line) as { id?: unknown }).id;
      if (typeof id === "string" || Number.isSafeInteger(id)) expected.add(id);
    } catch {
      // not JSON: no reply expected
    }
  }
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let pending = "";
  stdout.on("data", (chunk) => {
    pending += String(chunk);
    for (let i = pending.indexOf("\n"); i !== -1; i = pending.indexOf("\n")) {
      const reply = JSON.parse(pending.slice(0, i));
      pending = pending.slice(i + 1);
      replies.set(reply.id, reply);
      if ([...expected].every((id) => replies.has(id))) finish();
    }
  });
  const server = recordingServer(seen);
  const transport = make(stdin, stdout);
  await server.connect(transport);
  transport.onerror = (e) => errors.push(e.name);
  stdin.write(`${lines.join("\n")}\n{"jsonrpc":"2.0","id":"end","method":"ping"}\n`);
  await done;
  await server.close();
  replies.delete("end");
  return { seen: Object.fromEntries(seen), replies: Object.fromEntries(replies), errors };
}

describe("end to end over stdio: what a handler receives", () => {
  const callLine = (id: number, name: string, args: string) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

  test(
    "a schema that renames or drops members never hands on a rounded integer",
    async () => {
      const { seen, replies } = await overStdio([
        callLine(1, "renamed", `{"order_id":${BIG}}`),
        callLine(2, "positive", `{"ids":[-1,${BIG}]}`),
        callLine(3, "positive", `{"ids":[${BIG},-1,5]}`),
        callLine(4, "renamed", '{"order_id":9007199254740992}'),
        callLine(5, "positive", '{"ids":[-1,9007199254740992]}'),
      ]);
      // Numbers the text holds exactly (2^53 itself) pass, wherever the schema puts them.
      expect(seen).toEqual({
        3: { tool: "positive", args: { ids: [9007199254740993n, 5] } },
        4: { tool: "renamed", args: { orderId: 9007199254740992 } },
        5: { tool: "positive", args: { ids: [9007199254740992] } },
      });
      // (McpServer turns the handler's McpError into an isError result.)
      for (const [id, path] of [
        [1, "/orderId"],
        [2, "/ids/0"],
      ] as const) {
        expect(replies[id]).toMatchObject({
          result: {
            isError: true,
            content: [
              { type: "text", text: expect.stringContaining(`integer-precision-lost at ${path}:`) },
            ],
          },
        });
      }
    },
    HANG_GUARD,
  );

  test.each([
    [
      "the SDK's own StdioServerTransport (no gate)",
      (i: PassThrough, o: PassThrough) => new StdioServerTransport(i, o),
    ],
    ["ExactStdioServerTransport", exactStdio],
  ])(
    "a client's own text under the key never reaches the handler as exact: %s",
    async (label, make) => {
      // The SDK validates n = 2^53; the forged text claims 2^53 + 1.
      const forgedMeta = `"_meta":{"${ARGUMENTS_JSON_META_KEY}":"{\\"id\\":5,\\"n\\":${BIG}}","struct-json-bridge/argumentsJsonNonce":"guess"}`;
      const { seen, replies } = await overStdio(
        [
          `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"exact","arguments":{"id":5,"n":9007199254740992},${forgedMeta}}}`,
          `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"exact","arguments":{"id":5},${forgedMeta}}}`,
        ],
        make,
      );
      if (label === "ExactStdioServerTransport") {
        // The gate replaced the claim with the call's own text: the handler gets what was sent.
        expect(seen).toEqual({
          1: { tool: "exact", args: { id: 5, n: 9007199254740992 } },
          2: { tool: "exact", args: { id: 5 } },
        });
        return;
      }
      // No gate: no exact text can be trusted, so 2^53 (which may have been rounded) is refused.
      expect(seen).toEqual({ 2: { tool: "exact", args: { id: 5 } } });
      expect(replies[1]).toMatchObject({
        result: {
          isError: true,
          content: [
            { type: "text", text: expect.stringContaining("integer-precision-lost at /n:") },
          ],
        },
      });
    },
    HANG_GUARD,
  );

  test(
    "an id JavaScript prints with the same digits but holds otherwise (2^60 as 1152921504606847000)",
    async () => {
      const { seen, replies } = await overStdio([
        callLine(1, "exact", '{"id":1152921504606847000}'),
        callLine(2, "plain", '{"id":1152921504606847000}'),
        callLine(3, "plain", '{"id":1152921504606846976}'),
      ]);
      expect(seen).toEqual({
        1: { tool: "exact", args: { id: 1152921504606847000n } },
        3: { tool: "plain", args: { id: 2 ** 60 } },
      });
      expect(replies[2]).toMatchObject({
        error: {
          code: -32602,
          data: { errors: [{ code: "integer-precision-lost", path: "/id" }] },
        },
      });
    },
    HANG_GUARD,
  );

  test(
    "a tool without inputSchema (McpServer calls its handler with extra alone) writes its bigints",
    async () => {
      const server = new McpServer({ name: "no-args", version: "1" });
      server.registerTool(
        "next_id",
        { description: "no arguments" },
        exactToolHandler((extra) => ({
          structuredContent: { id: 9007199254740993n, meta: typeof extra },
        })),
      );
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const reply = new Promise<string>((resolve) =>
        stdout.once("data", (chunk) => resolve(String(chunk))),
      );
      await server.connect(
        new ExactStdioServerTransport(stdin, stdout, { exactTools: ["next_id"] }),
      );
      stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"next_id"}}\n');
      const line = await reply;
      await server.close();
      expect(JSON.parse(line).result.isError).toBeUndefined();
      expect(losslessParse(line)).toMatchObject({
        result: { structuredContent: { id: { value: "9007199254740993" }, meta: "object" } },
      });
    },
    HANG_GUARD,
  );

  test(
    "a low-level tools/call handler (Server.setRequestHandler) handing on `extra` gets exact integers",
    async () => {
      const server = new Server(
        { name: "low-level", version: "1" },
        { capabilities: { tools: {} } },
      );
      const seen: unknown[] = [];
      const handler = exactToolHandler((args) => {
        seen.push(args);
        return { content: [] };
      });
      // The SDK hands the handler a parsed copy of the request, but `extra._meta` is the object the gate admitted.
      server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
        handler(request.params.arguments, extra),
      );
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const reply = new Promise<string>((resolve) =>
        stdout.once("data", (chunk) => resolve(String(chunk))),
      );
      await server.connect(new ExactStdioServerTransport(stdin, stdout, { exactTools: ["t"] }));
      stdin.write(
        `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"id":${BIG}}}}\n`,
      );
      const line = await reply;
      await server.close();
      expect(JSON.parse(line).result).toEqual({ content: [] });
      expect(seen).toEqual([{ id: 9007199254740993n }]);
    },
    HANG_GUARD,
  );

  test(
    "duplicate and escaped keys, __proto__, a huge id, a BOM: the gate and the handler agree",
    async () => {
      const head = '{"jsonrpc":"2.0","id":';
      const { seen, replies, errors } = await overStdio([
        `${head}1,"method":"tools/call","params":{"name":"plain","arguments":{"a":${BIG}},"\\u0061rguments":{"a":1}}}`,
        `${head}2,"method":"tools/call","params":{"name":"exact","arguments":{"a":1},"\\u0061rguments":{"a":${BIG}}}}`,
        `${head}3,"method":"tools/call","params":{"name":"exact","arguments":{"a":${BIG}},"n\\u0061me":"plain"}}`,
        `${head}4,"method":"tools/call","params":{"name":"exact","arguments":{"__proto__":{"a":${BIG}},"b":${BIG}}}}`,
        `${head}${BIG},"method":"tools/call","params":{"name":"exact","arguments":{"a":1}}}`,
        `\ufeff${head}6,"method":"tools/call","params":{"name":"plain","arguments":{"a":1}}}`,
        `${head}7,"method":"tools/call","params":{"name":"exact","arguments":[${BIG}]}}`,
      ]);
      expect(seen).toEqual({
        1: { tool: "plain", args: { a: 1 } },
        2: { tool: "exact", args: { a: 9007199254740993n } },
      });
      expect(replies[3]).toMatchObject({
        error: { code: -32602, data: { errors: [{ path: "/a" }] } },
      });
      // zod would drop __proto__ from what the handler sees: refused rather than handed on changed.
      expect(replies[4]).toMatchObject({
        error: { code: -32602, data: { errors: [{ code: "member-dropped", path: "/__proto__" }] } },
      });
      expect(replies[7]).toMatchObject({ error: { code: -32602 } });
      expect(Object.keys(replies).sort()).toEqual(["1", "2", "3", "4", "7"]);
      // The huge id (zod: not a safe integer) and the BOM (JSON.parse) fail as with the SDK's own transport.
      expect(errors).toEqual(["ZodError", "SyntaxError"]);
    },
    HANG_GUARD,
  );
});

/**
 * Each number of a lossless reading as the value the round trip must keep: a
 * float64 of 2^53 or more in magnitude (every one is whole) as the exact
 * integer its text denotes, for a fraction the float64's own (the echo writes
 * a bigint's digits or JavaScript's form of a number: `9223372036854776000`
 * for 2^63 denotes the integer that `9.223372036854776e18` does, not 2^63, so
 * no reading of the digits by float64 may stand in for that); anything else
 * as its float64 (-0 as 0: JSON.stringify writes 0).
 */
function canonical(v: unknown): unknown {
  if (isLosslessNumber(v)) {
    const n = Number(v.value);
    if (Math.abs(n) >= 2 ** 53) return oracleInteger(v.value) ?? BigInt(n);
    return n === 0 ? 0 : n;
  }
  if (Array.isArray(v)) return v.map((x) => canonical(x));
  if (v !== null && typeof v === "object") {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(v))
      Object.defineProperty(o, k, {
        value: canonical((v as never)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return o;
  }
  return v;
}

describe("round trip through the SDK's McpServer over stdio: arguments in, structuredContent out", () => {
  test(
    "property: an exact echo tool writes back the very values the client wrote",
    async () => {
      const server = new McpServer({ name: "echo", version: "1" });
      server.registerTool(
        "echo",
        { inputSchema: z.looseObject({}) },
        exactToolHandler((args) => ({
          structuredContent: args as Record<string, unknown>,
        })) as never,
      );
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const waiting = new Map<number, (line: string) => void>();
      let pending = "";
      stdout.on("data", (chunk) => {
        pending += String(chunk);
        for (let i = pending.indexOf("\n"); i !== -1; i = pending.indexOf("\n")) {
          const line = pending.slice(0, i);
          pending = pending.slice(i + 1);
          const id = (JSON.parse(line) as { id: number }).id;
          waiting.get(id)?.(line);
          waiting.delete(id);
        }
      });
      await server.connect(new ExactStdioServerTransport(stdin, stdout, { exactTools: ["echo"] }));
      let next = 0;
      const call = (argsText: string) => {
        const id = next++;
        const reply = new Promise<string>((resolve) => waiting.set(id, resolve));
        stdin.write(
          `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":${argsText}}}\n`,
        );
        return reply;
      };
      try {
        await fc.assert(
          fc.asyncProperty(argumentsText, async (generated) => {
            // One message a line: raw line breaks occur only as whitespace between tokens.
            const text = generated.text.replace(/[\r\n]/g, " ");
            const line = await call(text);
            const reply = losslessParse(line) as {
              result: { structuredContent: unknown; content: { text: string }[] };
              error?: { data: unknown };
            };
            if (hasTopProto(JSON.parse(text))) {
              expect(reply.error?.data).toEqual({
                errors: [{ code: "member-dropped", path: "/__proto__" }],
              });
              return;
            }
            const expected = canonical(losslessParse(text));
            expect(canonical(reply.result.structuredContent)).toEqual(expected);
            // The text content is the same exact JSON.
            expect(canonical(losslessParse(reply.result.content[0]!.text))).toEqual(expected);
          }),
          runs(150, 77),
        );
      } finally {
        await server.close();
      }
    },
    HANG_GUARD,
  );
});

/** Posts `body` to a fresh web-standard exact transport serving `recordingServer(seen)`; its answers by id. */
async function postBatch(
  seen: Seen,
  body: string,
): Promise<Record<string, { id: string; error?: unknown }>> {
  const transport = new ExactWebStandardStreamableHTTPServerTransport({
    enableJsonResponse: true,
    exactTools: ["exact"],
  });
  await recordingServer(seen).connect(transport);
  const response = await transport.handleRequest(mcpPost(body));
  const messages = (await response.json()) as { id: string; error?: unknown }[];
  await transport.close();
  return Object.fromEntries(messages.map((m) => [m.id, m]));
}

describe("a batch through the web-standard transport", () => {
  test(
    "_meta numbers and a __proto__ member are refused per call, each from its own text; the rest pass",
    async () => {
      const seen: Seen = new Map();
      const call = (id: string, params: string) =>
        `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":${params}}`;
      const body = `[${[
        call("a", `{"name":"exact","arguments":{"x":${BIG}},"_meta":{"trace":[${BIG}]}}`),
        call("b", '{"name":"plain","arguments":{"\\u005f_proto__":{"admin":true},"x":1}}'),
        call("c", `{"name":"exact","arguments":{"x":${BIG}},"_meta":{"trace":"${BIG}"}}`),
      ].join(",")}]`;
      const byId = await postBatch(seen, body);
      expect(byId.a).toMatchObject({
        error: {
          code: -32602,
          message: expect.stringMatching(
            /^Invalid params: integer-precision-lost at \/trace\/0 of _meta: /,
          ),
          data: { errors: [{ code: "integer-precision-lost", path: "/trace/0", member: "_meta" }] },
        },
      });
      expect(byId.b).toMatchObject({
        error: {
          code: -32602,
          message: expect.stringMatching(/^Invalid params: member-dropped at \/__proto__: /),
          data: { errors: [{ code: "member-dropped", path: "/__proto__" }] },
        },
      });
      expect(byId.c).toMatchObject({ result: { content: [] } });
      expect(Object.fromEntries(seen)).toEqual({
        c: { tool: "exact", args: { x: 9007199254740993n } },
      });
    },
    HANG_GUARD,
  );

  test(
    "each call of a batch is gated on its own text, escapes and duplicates included",
    async () => {
      const seen: Seen = new Map();
      const body = `[{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"plain","arguments":{"x":1},"\\u0061rguments":{"x":${BIG}}}},{"jsonrpc":"2.0","id":"b","method":"tools/call","params":{"name":"exact","arguments":{"x":${BIG}},"arguments":{"y":[${BIG}]}}}]`;
      const byId = await postBatch(seen, body);
      expect(byId.a).toMatchObject({
        error: { code: -32602, data: { errors: [{ path: "/x" }] } },
      });
      expect(byId.b).toMatchObject({ result: { content: [] } });
      expect(Object.fromEntries(seen)).toEqual({
        b: { tool: "exact", args: { y: [9007199254740993n] } },
      });
    },
    HANG_GUARD,
  );
});

// ---------------------------------------------------------------------------
// The client side: a result's exact structuredContent text.
// ---------------------------------------------------------------------------

describe("a result's exact structuredContent text is never the server's own claim", () => {
  const forged = String.raw`{"jsonrpc":"2.0","id":1,"result":{"content":[],"structured\u0043ontent":{"id":5},"_meta":{"struct-json-bridge\/structuredContentJson":"{\"id\":9007199254740993}"}}}`;

  test("keys spelled with escapes: the claim is dropped and the text recorded (HTTP and stdio readers)", () => {
    for (const read of [
      (t: string) => JSON.parse(exactResponseText(t)) as JSONRPCMessage,
      deserializeExactMessage,
    ]) {
      const message = read(forged) as unknown as {
        result: { structuredContent: unknown; _meta?: unknown };
      };
      expect(message.result.structuredContent).toEqual({ id: 5 });
      expect(structuredContentJson(message.result)).toBe('{"id":5}');
    }
    const noContent = String.raw`{"jsonrpc":"2.0","id":1,"result":{"content":[],"_meta":{"struct-json-bridge\/structuredContentJson":"{}","k":1}}}`;
    expect(JSON.parse(exactResponseText(noContent)).result._meta).toEqual({ k: 1 });
  });

  test("a top-level __proto__ member, which the SDK's CallToolResultSchema drops: no text is recorded (HTTP and stdio readers)", () => {
    // The member's name spelled with an escape: JSON.parse reads __proto__ all the same.
    const line =
      '{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"\\u005f_proto__":{"admin":true},"id":9007199254740993},"_meta":{"struct-json-bridge/structuredContentJson":"{}","k":1}}}';
    for (const read of [
      (t: string) => JSON.parse(exactResponseText(t)) as JSONRPCMessage,
      deserializeExactMessage,
    ]) {
      const message = read(line) as unknown as { result: { _meta?: unknown } };
      expect(structuredContentJson(message.result)).toBeUndefined();
      expect(message.result._meta).toEqual({ k: 1 }); // the server's claim is still dropped
      // What the SDK's client validates lacks the member: the text would have held one more.
      expect(
        Object.keys(CallToolResultSchema.parse(message.result).structuredContent ?? {}),
      ).toEqual(["id"]);
    }
    // Deeper down, __proto__ is an ordinary member the SDK keeps: recorded.
    const nested =
      '{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"a":{"__proto__":1}}}}';
    expect(
      structuredContentJson((deserializeExactMessage(nested) as { result: object }).result),
    ).toBe('{"a":{"__proto__":1}}');
  });

  test("the HTTP reader hands the SDK what JSON.parse reads: -0 and 1e400 kept", () => {
    const special =
      '{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"z":-0,"x":1e400,"y":[-1e400,-0.0]},"content":[]}}';
    const message = JSON.parse(exactResponseText(special));
    const sc = message.result.structuredContent;
    expect([Object.is(sc.z, -0), sc.x, sc.y[0], Object.is(sc.y[1], -0)]).toEqual([
      true,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      true,
    ]);
    expect(structuredContentJson(message.result)).toBe('{"z":-0,"x":1e400,"y":[-1e400,-0.0]}');
  });

  test("the HTTP reader drops a claim under the key in a result deeper than JSON.stringify's stack", () => {
    const deep = `${"[".repeat(20_000)}7${"]".repeat(20_000)}`;
    const forgedDeep = `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"d":${deep}},"_meta":{"${STRUCTURED_CONTENT_JSON_META_KEY}":"{\\"id\\":${BIG}}"},"content":[]}}`;
    const read = JSON.parse(exactResponseText(forgedDeep));
    expect(structuredContentJson(read.result)).toBe(`{"d":${deep}}`);
    let inner: unknown = read.result.structuredContent.d;
    for (let i = 0; i < 20_000; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe(7);
  });

  // Result messages with every key spelled by random escapes, structuredContent
  // maybe repeated, maybe a forged claim: the recorded text is always the span
  // JSON.parse read structuredContent from, or nothing.
  const resultMessage = fc
    .record({
      contents: fc.array(argumentsText, { maxLength: 2 }),
      claim: fc.option(fc.constantFrom(`{"id":${BIG}}`, "{}", "[1]"), { nil: undefined }),
      metaFirst: fc.boolean(),
      keys: fc.record({
        result: spelled("result"),
        structuredContent: fc.array(spelled("structuredContent"), { minLength: 2, maxLength: 2 }),
        meta: spelled("_meta"),
        claim: spelled(STRUCTURED_CONTENT_JSON_META_KEY),
      }),
    })
    .map(({ contents, claim, metaFirst, keys }) => {
      const members = contents.map((c, i) => `${keys.structuredContent[i]}:${c.text}`);
      if (claim !== undefined) {
        const meta = `${keys.meta}:{${keys.claim}:${JSON.stringify(claim)}}`;
        if (metaFirst) members.unshift(meta);
        else members.push(meta);
      }
      members.push('"content":[]');
      return {
        text: `{"jsonrpc":"2.0","id":1,${keys.result}:{${members.join(",")}}}`,
        content: contents.at(-1)?.text,
      };
    });

  test("property: the HTTP and stdio readers record JSON.parse's structuredContent span, or nothing", () => {
    fc.assert(
      fc.property(resultMessage, ({ text, content }) => {
        for (const read of [
          (t: string) => JSON.parse(exactResponseText(t)) as JSONRPCMessage,
          deserializeExactMessage,
        ]) {
          const { result } = read(text) as unknown as {
            result: { structuredContent?: unknown; _meta?: unknown };
          };
          // A top-level __proto__ member (the SDK's CallToolResultSchema drops it): no text recorded.
          const recorded =
            content === undefined || hasTopProto(JSON.parse(content))
              ? undefined
              : trimJson(content);
          expect(structuredContentJson(result)).toBe(recorded);
          if (content !== undefined) expect(result.structuredContent).toEqual(JSON.parse(content));
        }
      }),
      runs(300, 73),
    );
  });
});

// ---------------------------------------------------------------------------
// The SSE reader against the SDK's own (TextDecoderStream, eventsource-parser).
// ---------------------------------------------------------------------------

/** The events the SDK's SSE reading gives for `chunks`, through exactEventStream or not. */
async function sseEvents(chunks: readonly Uint8Array[], exact: boolean) {
  let stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  if (exact) stream = exactEventStream(stream);
  const reader = stream
    .pipeThrough(new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>)
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  const events: { event: string | undefined; id: string | undefined; data: string }[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read())
    events.push({ event: r.value.event, id: r.value.id, data: r.value.data });
  return events;
}

/** An event as the SDK's transport takes it: the message JSON.parse reads (our key dropped), or that there is none. */
function sdkTakes(e: { event: string | undefined; id: string | undefined; data: string }) {
  let message: unknown = e.data.trim() === "" ? "" : "not JSON";
  try {
    const m = JSON.parse(e.data);
    const meta = m?.result?._meta;
    if (meta !== undefined) {
      delete meta[STRUCTURED_CONTENT_JSON_META_KEY];
      if (Object.keys(meta).length === 0) delete m.result._meta;
    }
    message = m;
  } catch {
    // not JSON: the SDK reports a SyntaxError either way
  }
  return { event: e.event, id: e.id, message };
}

describe("the SSE reader hands the SDK the events the SDK would read", () => {
  const forged = `{"jsonrpc":"2.0","id":1,"result":{"content":[],"_meta":{"${STRUCTURED_CONTENT_JSON_META_KEY}":"{\\"id\\":${BIG}}"}}}`;
  const bytes = (...texts: string[]) => texts.map((t) => new TextEncoder().encode(t));

  test.each([
    // A second BOM: the SDK's parser reads the field "\ufeffdata" (unknown): no event.
    ["two BOMs", [`\ufeff\ufeffdata: ${forged}\n\n`], []],
    // "ï»¿" (a BOM read as Latin-1) at the start: the SDK's parser drops it and reads the event.
    ["a Latin-1 BOM", [`\u00ef\u00bb\u00bfdata: ${forged}\n\n`], ["claim dropped"]],
    [
      "a BOM, then a Latin-1 BOM",
      [`\ufeff\u00ef\u00bb\u00bfdata: ${forged}\n\n`],
      ["claim dropped"],
    ],
    ["a Latin-1 BOM split over two chunks", ["\u00ef", `\u00bb\u00bfdata: ${forged}\n\n`], []],
    // The SDK's parser has no flush: a final CR is never read as a line end.
    ["a final CR", [`data: ${forged}\n\r`], []],
    ["a final CR in its own chunk", [`data: ${forged}\n`, "\r"], []],
  ])("%s", async (_label, chunks, expected) => {
    const sdk = await sseEvents(bytes(...chunks), false);
    const exact = await sseEvents(bytes(...chunks), true);
    expect(exact.map(sdkTakes)).toEqual(sdk.map(sdkTakes));
    expect(
      exact.map((e) =>
        e.data.includes(STRUCTURED_CONTENT_JSON_META_KEY) ? "claim kept" : "claim dropped",
      ),
    ).toEqual(expected);
  });

  test("an 8 MB event in 2 KB chunks is read once, not again for each chunk (the timeout guards a quadratic read)", async () => {
    const filler = "x".repeat(2048);
    const head = `data: {"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"id":${BIG},"pad":"`;
    const chunks = bytes(
      head,
      ...Array.from({ length: 4096 }, () => filler),
      '"},"content":[]}}\n\n',
    );
    const [event] = await sseEvents(chunks, true);
    const m = JSON.parse(event!.data);
    expect(m.result.structuredContent.pad.length).toBe(4096 * 2048);
    expect(structuredContentJson(m.result)?.startsWith(`{"id":${BIG},"pad":"xx`)).toBe(true);
  }, 20_000);

  const message = fc.constantFrom(
    `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"id":${BIG},"é":"😀"},"content":[]}}`,
    forged,
    '{"jsonrpc":"2.0","method":"notifications/x","params":{"v":-0,"w":1e400}}',
    '{"jsonrpc" :\n"2.0",\n"id":3,"result":{"structuredContent":\n{"a":[1.0,\n2]}}}',
    "not json",
    "",
  );
  const eol = fc.constantFrom("\n", "\r", "\r\n");
  const line = fc.oneof(
    fc.tuple(message, fc.constantFrom("data: ", "data:", "data:  "), eol).map(
      ([m, prefix, e]) =>
        `${m
          .split("\n")
          .map((l) => prefix + l)
          .join(e)}${e}`,
    ),
    fc
      .tuple(
        fc.constantFrom(
          ": comment",
          "event: message",
          "event: other",
          "id: 7",
          "retry: 10",
          "data",
          "data:",
          "dat: x",
          "\ufeffdata: 1",
          "\u00ef\u00bb\u00bfdata: 2",
        ),
        eol,
      )
      .map(([l, e]) => l + e),
    eol,
  );
  const stream = fc
    .tuple(
      fc.option(fc.constantFrom("\ufeff", "\u00ef\u00bb\u00bf", "\ufeff\ufeff"), { nil: "" }),
      fc.array(line, { maxLength: 10 }),
      fc.array(fc.nat(400), { maxLength: 8 }),
    )
    .map(([bom, lines, cuts]) => {
      const all = new TextEncoder().encode(bom + lines.join(""));
      const points = [...new Set(cuts.map((c) => c % (all.length + 1)))].sort((a, b) => a - b);
      const chunks: Uint8Array[] = [];
      let from = 0;
      for (const p of [...points, all.length]) {
        chunks.push(all.slice(from, p));
        from = p;
      }
      return chunks;
    });

  test("property: random streams, cut anywhere (inside characters and CRLF): the same events, claims dropped", async () => {
    await fc.assert(
      fc.asyncProperty(stream, async (chunks) => {
        const sdk = await sseEvents(chunks, false);
        const exact = await sseEvents(chunks, true);
        expect(exact.map(sdkTakes)).toEqual(sdk.map(sdkTakes));
        // A recorded text is only ever the structuredContent the message holds.
        for (const e of exact) {
          let m: { result?: { structuredContent?: unknown; _meta?: unknown } } | undefined;
          try {
            m = JSON.parse(e.data);
          } catch {
            continue; // the SDK takes no message from it
          }
          const recorded = m?.result === undefined ? undefined : structuredContentJson(m.result);
          if (recorded !== undefined)
            expect(JSON.parse(recorded)).toEqual(m?.result?.structuredContent);
        }
      }),
      runs(400, 79),
    );
  });
});

describe("a batch costs one parse of its text, however many messages it holds", () => {
  const n = 300;
  test("the server gate", () => {
    const body = `[${Array.from({ length: n }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"t","arguments":{"i":${i}}}}`).join(",")}]`;
    const parsed = JSON.parse(body) as { params: { _meta: Record<string, unknown> } }[];
    spanParses.count = 0;
    new RequestGate(undefined).annotateBody(parsed, body);
    expect(spanParses.count).toBe(1);
    expect(parsed[n - 1]!.params._meta[ARGUMENTS_JSON_META_KEY]).toBe(`{"i":${n - 1}}`);
  });

  test("the HTTP client", () => {
    const body = `[${Array.from({ length: n }, (_, i) => `{"jsonrpc":"2.0","id":${i},"result":{"content":[],"structuredContent":{"i":${i}.0}}}`).join(",")}]`;
    spanParses.count = 0;
    const messages = JSON.parse(exactResponseText(body)) as { result: { _meta?: unknown } }[];
    expect(spanParses.count).toBe(1);
    expect(structuredContentJson(messages[n - 1]!.result)).toBe(`{"i":${n - 1}.0}`);
  });
});

// ---------------------------------------------------------------------------
// serializeExactMessage against JSON.stringify.
// ---------------------------------------------------------------------------

/** A value with a toJSON method (JSON.stringify calls it with the key). */
class Stamp {
  constructor(readonly n: number) {}
  toJSON(key: string): unknown {
    return { stamp: this.n, key };
  }
}

const oddValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { maxDepth: 3 },
    { arbitrary: tie("leaf"), weight: 4 },
    { arbitrary: tie("array"), weight: 1 },
    { arbitrary: tie("object"), weight: 1 },
  ),
  leaf: fc.oneof(
    fc.double(),
    fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, 5e-324),
    fc.string({ unit: "binary", maxLength: 6 }),
    fc.string({ unit: fc.constantFrom("\ud800", "\udc00", "a", '"', "\\", "\u2028", "\u0000") }),
    fc.constantFrom(undefined, null, true, false, () => 1, Symbol("s")),
    fc.nat().map((n) => new Stamp(n)),
    fc.date({ noInvalidDate: true }),
  ),
  array: fc.tuple(fc.array(tie("value"), { maxLength: 4 }), fc.nat(5)).map(([items, holes]) => {
    const a = [...items];
    a.length += holes; // sparse tail
    if (a.length > 1) delete a[0]; // a hole in front
    return a;
  }),
  object: fc.dictionary(
    fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom("__proto__", "toJSON", "")),
    tie("value"),
    { maxKeys: 4 },
  ),
}));

/**
 * The reference for serializeExactMessage: JSON.stringify's text, with each
 * placeholder string `"@@exact-k@@"` replaced by `texts[k]`, and each number
 * that JavaScript writes as plain digits beyond 2^53 (its shortest form,
 * `1152921504606847000` for 2 ** 60) written with the digits of its exact
 * value instead, as an integer reader must read it.
 */
function referenceText(value: unknown, texts: string[] = []): string {
  const placeholder = (t: string) => {
    texts.push(t);
    return `@@exact-${texts.length - 1}@@`;
  };
  const json = JSON.stringify(value, (_k, v: unknown) => {
    const n = v instanceof Number ? v.valueOf() : v;
    return typeof n === "number" && /^-?\d+$/.test(String(n)) && Math.abs(n) >= 2 ** 53
      ? placeholder(BigInt(n).toString())
      : v;
  });
  return json === undefined
    ? (json as unknown as string)
    : json.replace(/"@@exact-(\d+)@@"/g, (_m, k: string) => texts[Number(k)]!);
}

describe("serializeExactMessage writes what JSON.stringify writes", () => {
  test("property: any value without exact numbers, byte for byte (a whole number beyond 2^53 with its exact digits)", () => {
    fc.assert(
      fc.property(oddValue.value, (value) => {
        expect(serializeExactMessage(value)).toBe(referenceText(value));
      }),
      runs(500, 74),
    );
  });

  test("an ExactNumber or a bigint that a toJSON returns, or a boxed bigint, is written as the number", () => {
    class Id {
      constructor(readonly text: string) {}
      toJSON(): unknown {
        return this.text.startsWith("-") ? BigInt(this.text) : new ExactNumber(this.text, "/id");
      }
    }
    expect(
      serializeExactMessage({
        id: new Id("9007199254740993"),
        ids: [new Id("-18014398509481985")],
      }),
    ).toBe('{"id":9007199254740993,"ids":[-18014398509481985]}');
    // A boxed bigint, as a boxed number, is written as its value.
    expect(serializeExactMessage([Object(9007199254740993n), Object(2 ** 60)])).toBe(
      "[9007199254740993,1152921504606846976]",
    );
  });

  test("a whole number JavaScript writes as digits that are not its value gets its exact digits", () => {
    const cases: [unknown, string][] = [
      [{ a: 2 ** 60 }, '{"a":1152921504606846976}'],
      [[-(2 ** 63)], "[-9223372036854775808]"],
      [[2 ** 53, 2 ** 53 - 1], "[9007199254740992,9007199254740991]"],
      [[Object(2 ** 64)], "[18446744073709551616]"],
      // From 1e21 JavaScript writes an exponent: no integer reader misreads it.
      [[1e21, 2 ** 70, 1.5], "[1e+21,1.1805916207174113e+21,1.5]"],
    ];
    for (const [value, text] of cases) expect(serializeExactMessage(value)).toBe(text);
  });

  /** A value with ExactNumbers and bigints among odd values, and the reference text written by hand. */
  const withExact = fc
    .tuple(
      fc.array(
        fc.oneof(
          fc.tuple(oddValue.value, fc.constant(undefined)),
          fc.tuple(
            fc.oneof(intText, floatText).map((t) => new ExactNumber(t, "")),
            fc.constant("exact"),
          ),
          fc.tuple(fc.bigInt(), fc.constant("bigint")),
        ),
        { maxLength: 6 },
      ),
      fc.boolean(),
    )
    .map(([parts, asObject]) => {
      // Reference: JSON.stringify with each exact number as a unique placeholder, then the texts put back.
      const texts: string[] = [];
      const placeholder = (t: string) => {
        texts.push(t);
        return `@@exact-${texts.length - 1}@@`;
      };
      const values = parts.map(([v]) => v);
      const stands = parts.map(([v, kind]) =>
        kind === "exact"
          ? placeholder((v as ExactNumber).text)
          : kind === "bigint"
            ? placeholder(String(v))
            : v,
      );
      const shape = (items: unknown[]): unknown =>
        asObject ? Object.fromEntries(items.map((v, i) => [`k${i}`, v])) : items;
      const value = shape(values);
      const reference = referenceText(shape(stands), texts);
      return { value, reference };
    });

  test("property: with ExactNumbers and bigints, each written exactly in place", () => {
    fc.assert(
      fc.property(withExact, ({ value, reference }) => {
        expect(serializeExactMessage(value)).toBe(reference);
      }),
      runs(300, 75),
    );
  });

  test("an ExactNumber whose text is not a JSON number is refused, never written into the message", () => {
    for (const text of ['1,"admin":true', "1}", "", " 1", "0x10", "NaN", "-", "01", "1.", "+1"]) {
      expect(() => new ExactNumber(text, "/a")).toThrow(
        expect.objectContaining({ code: "invalid-json", path: "/a" }),
      );
    }
    expect(serializeExactMessage({ a: new ExactNumber("-0.0e+00", "/a") })).toBe('{"a":-0.0e+00}');
  });
});

describe("the client's writing: exactJsonArguments then serializeExactMessage", () => {
  test("property: every number of the arguments is written with its own text, every value kept", () => {
    fc.assert(
      fc.property(argumentsText, ({ text }) => {
        const message = {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "t", arguments: exactJsonArguments(text) },
        };
        const written = memberText(serializeExactMessage(message), ["params", "arguments"]);
        expect(written).toBeDefined();
        const texts = (t: string) =>
          oracleNumbers(losslessParse(t)).sort((a, b) => (a.path < b.path ? -1 : 1));
        expect(texts(written!)).toEqual(texts(text));
        expect(JSON.parse(written!)).toEqual(JSON.parse(text));
      }),
      runs(300, 78),
    );
  });
});

// ---------------------------------------------------------------------------
// numberLoss and exactInteger against BigInt.
// ---------------------------------------------------------------------------

describe("numberLoss and exactInteger agree with BigInt arithmetic", () => {
  /** Number texts, respelled with exponents and trailing zeros that keep the value. */
  const numberText = fc.oneof(
    intText,
    floatText,
    fc
      .tuple(intText, fc.nat(20), fc.boolean())
      .filter(([t]) => t !== "-0")
      .map(([t, zeros, upper]) => `${t}${"0".repeat(zeros)}${upper ? "E" : "e"}-${zeros}`),
    fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: -30, max: 330 }))
      .map(([d, e]) => `${d}e${e}`),
    // JavaScript's own text of a float64 beyond 2^53 (digits padded with zeros below 1e21).
    fc.double({ min: 2 ** 53, max: 1e21, noNaN: true }).map(String),
    fc.double({ min: -1e21, max: -(2 ** 53), noNaN: true }).map(String),
  );

  test.each([
    ["1152921504606847000", "integer-precision-lost"], // String(2 ** 60); 2 ** 60 is 1152921504606846976
    ["-1152921504606847000", "integer-precision-lost"],
    ["18446744073709552000", "integer-precision-lost"], // String(2 ** 64)
    ["100000000000000000000000", "integer-precision-lost"],
    ["1152921504606846976", undefined],
    ["18014398509481984", undefined],
    // Not plain digits: read by the float64's shortest form, as the rest of the package does.
    ["1152921504606847000.0", undefined],
    ["1e23", undefined],
    ["6.02e23", undefined],
  ])("plain digits are held only as the float64's exact digits: %s → %s", (text, code) => {
    expect(numberLoss(text)).toBe(code);
  });

  test("property: the code, and the integer a lossy text denotes", () => {
    fc.assert(
      fc.property(numberText, (text) => {
        const code = oracleLoss(text);
        expect(numberLoss(text)).toBe(code);
        const n = Number(text);
        const whole = Number.isFinite(n) ? oracleInteger(text) : undefined;
        expect(exactInteger(text)).toBe(whole);
      }),
      runs(1000, 76),
    );
  });
});
