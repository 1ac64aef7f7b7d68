// The exact HTTP client against the SDK's own StreamableHTTPClientTransport on
// the very same response bytes, cut into two chunks at every byte boundary
// (inside numbers, inside multi-byte characters, between CR and LF): both
// must hand onmessage the same messages and report the same errors, and the
// exact one must record each result's structuredContent text byte for byte.
// The responses come from an in-process fetch, so every cut is deterministic.

import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import {
  ExactStreamableHTTPClientTransport,
  STRUCTURED_CONTENT_JSON_META_KEY,
  structuredContentJson,
} from "../src/mcp/index.js";

const BIG = "9007199254740993";
const CONTENT_1 = `{"id":${BIG},"f":1.0,"s":"\\ud83d\\ude00 é","n":[-0,1e400,18014398509481985]}`;
const CONTENT_2 = '{ "deep" : [ [ { "x" : 12345678901234567890 } ] ] }';
const RESULT_1 = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"东京😀"}],"structuredContent":${CONTENT_1}}}`;
const PROGRESS = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${BIG}}}`;
const ERROR = `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"no","data":{"n":${BIG}}}}`;
// A result the SDK refuses (its `_meta` is not an object): refused alike, never given a `_meta`.
const BAD_META = `{"jsonrpc":"2.0","id":4,"result":{"content":[],"structuredContent":${CONTENT_2},"_meta":5}}`;
const NULL_META = `{"jsonrpc":"2.0","id":5,"result":{"content":[],"structuredContent":{"a":1},"_meta":null}}`;
const CLAIM = `{"jsonrpc":"2.0","id":3,"result":{"content":[],"structuredContent":${CONTENT_2},"_meta":{"${STRUCTURED_CONTENT_JSON_META_KEY}":"{}","k":1}}}`;

interface Body {
  readonly name: string;
  readonly type: string;
  readonly text: string;
  /** The exact structuredContent texts, in message order. */
  readonly exact: readonly string[];
  /** How many messages the SDK hands on. */
  readonly count: number;
}

const BODIES: readonly Body[] = [
  {
    name: "an SSE stream: a notification, a comment, a result, an error, a claim (LF, CRLF, CR line ends)",
    type: "text/event-stream",
    text: `event: message\ndata: ${PROGRESS}\n\n: keep-alive\r\ndata: ${RESULT_1}\r\n\r\nid: 7\rretry: 5\rdata: ${ERROR}\r\rdata: ${CLAIM}\n\n`,
    exact: [CONTENT_1, CONTENT_2],
    count: 4,
  },
  {
    name: "an SSE event whose data spans lines",
    type: "text/event-stream",
    text: `data: {"jsonrpc":"2.0","id":1,\ndata: "result":{"content":[],"structuredContent":\ndata: ${CONTENT_2}}}\n\n`,
    exact: [CONTENT_2],
    count: 1,
  },
  {
    name: "an SSE event with a bare `data` line (an empty data line) inside its structuredContent",
    type: "text/event-stream",
    text: `data: {"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"a":\ndata\ndata: ${BIG}}}}\n\n`,
    exact: [`{"a":\n\n${BIG}}`],
    count: 1,
  },
  {
    name: "a JSON batch: a result, a notification, an error, a claim",
    type: "application/json",
    text: `[${RESULT_1},\n${PROGRESS} , ${ERROR},${CLAIM}]`,
    exact: [CONTENT_1, CONTENT_2],
    count: 4,
  },
  {
    name: "an SSE stream: results whose _meta is not an object (the SDK refuses them), then a result",
    type: "text/event-stream",
    text: `data: ${BAD_META}\n\ndata: ${NULL_META}\n\ndata: ${RESULT_1}\n\n`,
    exact: [CONTENT_1],
    count: 1,
  },
  {
    name: "a JSON body after a BOM (dropped by the SDK's reader)",
    type: "application/json",
    text: `\ufeff${RESULT_1}`,
    exact: [CONTENT_1],
    count: 1,
  },
  {
    // (Node's fetch drops two: one as the BOM, and its decoder one more.)
    name: "a JSON body after two BOMs (read as the SDK's reader reads it)",
    type: "application/json",
    text: `\ufeff\ufeff${RESULT_1}`,
    exact: [CONTENT_1],
    count: 1,
  },
  {
    name: "a JSON body after three BOMs (a BOM the SDK's reader keeps: not JSON, refused alike)",
    type: "application/json",
    text: `\ufeff\ufeff\ufeff${RESULT_1}`,
    exact: [],
    count: 0,
  },
  {
    name: "a JSON batch: a result whose _meta is not an object (the SDK refuses the batch)",
    type: "application/json",
    text: `[${RESULT_1},${BAD_META}]`,
    exact: [],
    count: 0,
  },
];

/** A fetch answering every POST with `chunks` (one enqueue each) as `type`. */
function replay(chunks: readonly Uint8Array[], type: string): FetchLike {
  return async (_url, init) => {
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": type } });
  };
}

/** The messages and errors one transport reports for one response; the exact texts beside. */
async function run(exact: boolean, chunks: readonly Uint8Array[], type: string) {
  const url = new URL("http://127.0.0.1:9/mcp");
  const options = {
    fetch: replay(chunks, type),
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1,
      maxReconnectionDelay: 1,
      reconnectionDelayGrowFactor: 1,
    },
  };
  const transport = exact
    ? new ExactStreamableHTTPClientTransport(url, options)
    : new StreamableHTTPClientTransport(url, options);
  const messages: unknown[] = [];
  const texts: string[] = [];
  const errors: string[] = [];
  let expected = 0;
  let settle: () => void = () => {};
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  transport.onmessage = (message: JSONRPCMessage) => {
    const result = (message as { result?: { _meta?: Record<string, unknown> } }).result;
    if (result !== undefined) {
      const text = structuredContentJson(result);
      if (text !== undefined) texts.push(text);
      if (result._meta !== undefined) {
        const { [STRUCTURED_CONTENT_JSON_META_KEY]: _text, ...rest } = result._meta;
        if (Object.keys(rest).length === 0) delete result._meta;
        else result._meta = rest;
      }
    }
    messages.push(message);
    if (messages.length === expected) settle();
  };
  transport.onerror = (error) => errors.push(error.constructor.name);
  await transport.start();
  return { transport, messages, texts, errors, settled, expect: (n: number) => (expected = n) };
}

/** Both readings of `chunks`: the SDK's, and the exact transport's. */
async function readings(chunks: readonly Uint8Array[], body: Body, count: number) {
  const out = [];
  for (const exact of [false, true]) {
    const r = await run(exact, chunks, body.type);
    r.expect(count);
    await r.transport
      .send({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "t", arguments: { id: 1 } },
      })
      .catch((error: Error) => r.errors.push(`send rejected: ${error.constructor.name}`));
    // (A JSON body is read before send settles: when none of its messages is handed on, nothing is awaited.)
    if (count > 0 || body.type !== "application/json")
      await Promise.race([r.settled, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    await r.transport.close();
    out.push({ messages: r.messages, texts: r.texts, errors: r.errors });
  }
  return out;
}

describe("the exact HTTP client reads what the SDK's reads, at every byte boundary", () => {
  const encoder = new TextEncoder();
  test.each(BODIES)(
    "$name",
    async (body) => {
      const bytes = encoder.encode(body.text);
      const whole = await readings([bytes], body, body.count);
      const [sdk, exact] = whole as [(typeof whole)[0], (typeof whole)[0]];
      expect(exact.messages).toEqual(sdk.messages);
      expect(exact.errors).toEqual(sdk.errors);
      expect(sdk.messages).toHaveLength(body.count);
      expect(exact.texts).toEqual(body.exact);
      // (The SDK hands on a server's own claim under the key; the exact transport drops it.)
      for (let cut = 1; cut < bytes.length; cut++) {
        const [sdkCut, exactCut] = await readings(
          [bytes.subarray(0, cut), bytes.subarray(cut)],
          body,
          sdk.messages.length,
        );
        expect({ cut, ...exactCut }).toEqual({ cut, ...exact });
        expect({ cut, ...sdkCut }).toEqual({ cut, ...sdk });
      }
    },
    120_000,
  );
});

describe("the end of an SSE stream", () => {
  const encoder = new TextEncoder();
  // A notification with an id first: at the end of the stream, the SDK (no
  // result received, a priming event seen) tries to reconnect, and with no
  // retries says so through onerror: the mark that the whole stream was read.
  const PRIMED = `id: 1\ndata: ${PROGRESS}\n\n`;
  const END = "Error";
  test.each([
    ["CR CR, then text without a line end", [`${PRIMED}data: ${RESULT_1}\r\r`, "x"]],
    ["CR, CR, then text without a line end", [`${PRIMED}data: ${RESULT_1}\r`, "\r", ": c"]],
    ["LF, CR, then an incomplete character", [`${PRIMED}data: ${RESULT_1}\n\r`, "\u00e9"]],
  ])(
    "an event whose last line end is a CR ending a chunk, followed by text with no line end, is never dispatched (%s)",
    async (_name, texts) => {
      const chunks = texts.map((t) => encoder.encode(t));
      // (The incomplete character: the first byte of é alone.)
      const bytes = chunks.map((c, i) =>
        i === chunks.length - 1 && texts[i] === "\u00e9" ? c.subarray(0, 1) : c,
      );
      const logs = [];
      for (const exact of [false, true]) {
        const r = await run(exact, bytes, "text/event-stream");
        await r.transport.send({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "t", arguments: { id: 1 } },
        });
        for (let i = 0; i < 400 && !r.errors.includes(END); i++)
          await new Promise((resolve) => setTimeout(resolve, 5));
        await r.transport.close();
        logs.push({ messages: r.messages.length, texts: r.texts, errors: r.errors });
      }
      expect(logs).toEqual([
        { messages: 1, texts: [], errors: [END] },
        { messages: 1, texts: [], errors: [END] },
      ]);
    },
  );
});
