// ExactStreamableHTTPClientTransport: the SDK's StreamableHTTPClientTransport
// with exact bodies. Drop-in scenarios run against both transports (the
// TypeScript SDK's own server, and a raw server for the error cases); exact
// numbers both ways against the demo's strict Python server (the TypeScript
// SDK's server behind the exact server transport: test/mcp-server.test.ts).

import type { ServerResponse } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  ExactStreamableHTTPClientTransport,
  exactJsonArguments,
  STRUCTURED_CONTENT_JSON_META_KEY,
  structuredContentJson,
} from "../src/mcp/index.js";
import { listen, type RunningServer, startPythonServer, startTsServer } from "./mcp/servers.js";

type Make = (url: URL) => StreamableHTTPClientTransport;
const TRANSPORTS: [string, Make][] = [
  ["SDK", (url) => new StreamableHTTPClientTransport(url)],
  ["exact", (url) => new ExactStreamableHTTPClientTransport(url)],
];

const HANG_GUARD = 60_000;

/** Runs `scenario` with each transport; returns each one's log. */
async function both(scenario: (make: Make) => Promise<string[]>): Promise<string[][]> {
  const logs: string[][] = [];
  for (const [, make] of TRANSPORTS) logs.push(await scenario(make));
  return logs;
}

function describeError(e: unknown): string {
  const error = e as Error & { code?: unknown };
  const code = error instanceof StreamableHTTPError ? ` ${error.code}` : "";
  return `${error.constructor.name}${code}: ${error.message.replace(/[0-9a-f-]{36}/g, "<uuid>")}`;
}

describe.each([false, true])(
  "drop-in against the TypeScript SDK's server (JSON responses: %s)",
  (json) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startTsServer({ exact: false, json });
    });
    afterAll(() => server.close());

    test(
      "session id, protocol version, calls, terminateSession, a call after it, close",
      async () => {
        const [sdk, exact] = await both(async (make) => {
          const log: string[] = [];
          const t = make(server.url);
          t.onerror = (e) => log.push(`onerror ${describeError(e)}`);
          t.onclose = () => log.push("onclose");
          const client = new Client({ name: "drop-in", version: "1" });
          await client.connect(t);
          log.push(
            `session ${typeof t.sessionId} ${t.sessionId?.length}`,
            `protocol ${t.protocolVersion}`,
          );
          const tools = await client.listTools();
          log.push(`tools ${tools.tools.map((tool) => tool.name).join(",")}`);
          const result = await client.callTool({ name: "plain_echo", arguments: { id: 5 } });
          log.push(`result ${JSON.stringify(result)}`);
          await t.terminateSession();
          log.push(`after terminate: ${t.sessionId}`);
          await client
            .callTool({ name: "plain_echo", arguments: { id: 6 } })
            .catch((e: unknown) => log.push(`call rejected: ${describeError(e)}`));
          await client.close();
          return log;
        });
        expect(exact).toEqual(sdk);
        expect(sdk).toContain("session string 36");
        expect(sdk).toContain('result {"content":[{"type":"text","text":"number:5"}]}');
        expect(sdk).toContain("after terminate: undefined");
        expect(sdk.filter((e) => e === "onclose")).toHaveLength(1);
      },
      HANG_GUARD,
    );

    test(
      "a big id through the SDK's own server: refused by exactToolHandler (it cannot trust the number), alike",
      async () => {
        const [sdk, exact] = await both(async (make) => {
          const client = new Client({ name: "drop-in", version: "1" });
          await client.connect(make(server.url));
          const result = await client.callTool({
            name: "get_order",
            arguments: { order_id: 2 ** 60, quantity: 1, price: 0.5 },
          });
          await client.close();
          return [JSON.stringify(result)];
        });
        expect(exact).toEqual(sdk);
        expect(sdk[0]).toContain("integer-precision-lost at /order_id");
      },
      HANG_GUARD,
    );
  },
);

/** A raw HTTP endpoint that answers every POST with `respond`. */
async function rawServer(
  respond: (res: ServerResponse, body: string) => void,
): Promise<RunningServer> {
  const { server, url } = await listen(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.method !== "POST") {
      res.writeHead(405).end();
      return;
    }
    respond(res, body);
  });
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const REQUEST: JSONRPCMessage = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "t", arguments: {} },
};
const RESULT = (id: number, sc: string) =>
  `{"jsonrpc":"2.0","id":${id},"result":{"content":[],"structuredContent":${sc}}}`;

interface RawScenario {
  name: string;
  respond: (res: ServerResponse) => void;
  /** Messages to wait for before closing. */
  messages: number;
  onmessage?: (m: JSONRPCMessage) => void;
  expected: string[];
  /** What the SDK's transport logs, when more than `expected` without the exact texts. */
  sdkExpected?: string[];
}

/** A message as logged: without the exact text the exact transport records (it is logged on its own). */
function withoutExactText(m: JSONRPCMessage): unknown {
  const { result } = m as { result?: { _meta?: Record<string, unknown> } };
  if (result?._meta === undefined || !Object.hasOwn(result._meta, STRUCTURED_CONTENT_JSON_META_KEY))
    return m;
  const { [STRUCTURED_CONTENT_JSON_META_KEY]: _exact, ...meta } = result._meta;
  const { _meta, ...rest } = result;
  return { ...m, result: Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta } };
}

const sse = (res: ServerResponse, chunks: (string | Buffer)[]) => {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const c of chunks) res.write(c);
  res.end();
};

const rawScenarios: RawScenario[] = [
  {
    name: "HTTP 500: StreamableHTTPError with the body text, through onerror and the rejection",
    respond: (res) => res.writeHead(500, { "content-type": "text/plain" }).end("boom"),
    messages: 0,
    expected: [
      "onerror StreamableHTTPError 500: Streamable HTTP error: Error POSTing to endpoint: boom",
      "send rejected: StreamableHTTPError 500: Streamable HTTP error: Error POSTing to endpoint: boom",
    ],
  },
  {
    name: "an unexpected content type",
    respond: (res) => res.writeHead(200, { "content-type": "text/plain" }).end("hi"),
    messages: 0,
    expected: [
      "onerror StreamableHTTPError -1: Streamable HTTP error: Unexpected content type: text/plain",
      "send rejected: StreamableHTTPError -1: Streamable HTTP error: Unexpected content type: text/plain",
    ],
  },
  {
    name: "a JSON body that is not JSON",
    respond: (res) => res.writeHead(200, { "content-type": "application/json" }).end("{nope"),
    messages: 0,
    expected: ["onerror SyntaxError", "send rejected: SyntaxError"],
  },
  {
    name: "a JSON body with a batch of two results",
    respond: (res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(`[${RESULT(1, '{"n":1.0}')},${RESULT(1, "{}")}]`),
    messages: 2,
    expected: [
      'message {"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"n":1}}} exact {"n":1.0}',
      'message {"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{}}} exact {}',
      "sent",
    ],
  },
  {
    name: "SSE: onmessage throws on the first event; the second still arrives",
    respond: (res) =>
      sse(res, [
        `event: message\ndata: {"jsonrpc":"2.0","method":"a"}\n\ndata: ${RESULT(1, '{"id":9007199254740993}')}\n\n`,
      ]),
    messages: 2,
    onmessage: (m) => {
      if ("method" in m) throw new Error("handler failed");
    },
    expected: [
      "sent",
      'message {"jsonrpc":"2.0","method":"a"}',
      "onerror Error: handler failed",
      'message {"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"id":9007199254740992}}} exact {"id":9007199254740993}',
    ],
  },
  {
    name: "SSE: CRLF and CR line ends, comments, ids, retry, multi-line data, chunks split inside a number and a character",
    respond: (res) => {
      const text = `: hello\r\nid: 7\rretry: 5000\r\ndata: {"jsonrpc":"2.0","method":"n",\ndata: "params":{"s":"é€😀"}}\n\ndata: ${RESULT(1, '{"ids":[18014398509481985,1.50]}')}\n\n`;
      const bytes = Buffer.from(text);
      const cut1 = bytes.indexOf(Buffer.from("€")) + 1; // inside a multi-byte character
      const cut2 = bytes.indexOf(Buffer.from("8509481985")); // inside a number
      sse(res, [bytes.subarray(0, cut1), bytes.subarray(cut1, cut2), bytes.subarray(cut2)]);
    },
    messages: 2,
    expected: [
      "sent",
      'message {"jsonrpc":"2.0","method":"n","params":{"s":"é€😀"}}',
      'message {"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"ids":[18014398509481984,1.5]}}} exact {"ids":[18014398509481985,1.50]}',
    ],
  },
  {
    name: "SSE: a server's own value under the exact-text key is not passed on",
    respond: (res) =>
      sse(res, [
        `data: {"jsonrpc":"2.0","id":1,"result":{"content":[],"_meta":{"${STRUCTURED_CONTENT_JSON_META_KEY}":"{\\"id\\":1}"}}}\n\n`,
      ]),
    messages: 1,
    expected: ["sent", 'message {"jsonrpc":"2.0","id":1,"result":{"content":[]}}'],
    // The SDK's transport passes the server's claim on, where structuredContentJson finds it.
    sdkExpected: [
      "sent",
      'message {"jsonrpc":"2.0","id":1,"result":{"content":[]}} exact {"id":1}',
    ],
  },
];

describe("drop-in against a raw HTTP server", () => {
  test.each(rawScenarios)(
    "$name",
    async ({ respond, messages, onmessage, expected, sdkExpected }) => {
      const server = await rawServer((res) => respond(res));
      try {
        const [sdk, exact] = await both(async (make) => {
          const log: string[] = [];
          const t = make(server.url);
          let seen = 0;
          let done: () => void = () => {};
          const all = new Promise<void>((resolve) => {
            done = resolve;
          });
          if (messages === 0) done();
          t.onerror = (e) =>
            log.push(`onerror ${describeError(e).replace(/^SyntaxError.*/, "SyntaxError")}`);
          t.onmessage = (m) => {
            const sc = structuredContentJson((m as { result?: object }).result ?? {});
            log.push(
              `message ${JSON.stringify(withoutExactText(m))}${sc === undefined ? "" : ` exact ${sc}`}`,
            );
            seen++;
            if (seen === messages) done();
            onmessage?.(m);
          };
          await t.start();
          await t
            .send(REQUEST)
            .then(() => log.push("sent"))
            .catch((e: unknown) =>
              log.push(
                `send rejected: ${describeError(e).replace(/^SyntaxError.*/, "SyntaxError")}`,
              ),
            );
          await all;
          // What happened before close: closing aborts a stream the SDK may still be reading.
          const before = [...log];
          await t.close();
          return before;
        });
        // The exact transport logs what the SDK's logs, plus the exact texts.
        expect(exact).toEqual(expected);
        expect(sdk).toEqual(sdkExpected ?? expected.map((e) => e.replace(/ exact .*$/, "")));
      } finally {
        await server.close();
      }
    },
    HANG_GUARD,
  );

  test("a batch of requests is sent exactly, as one array, and its answers arrive", async () => {
    let received = "";
    const server = await rawServer((res, body) => {
      received = body;
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(`[${RESULT(1, '{"n":1.0}')},${RESULT(2, "{}")}]`);
    });
    const seen: string[] = [];
    try {
      const t = new ExactStreamableHTTPClientTransport(server.url);
      t.onmessage = (m) =>
        seen.push(structuredContentJson((m as { result: object }).result) ?? "-");
      await t.start();
      const batch = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "t", arguments: exactJsonArguments('{"a":1.0}') },
        },
        {
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "t", arguments: { b: 2n } },
        },
      ];
      await t.send(batch as unknown as JSONRPCMessage);
      await t.close();
    } finally {
      await server.close();
    }
    expect(received).toBe(
      '[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"a":1.0}}},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"b":2}}}]',
    );
    expect(seen).toEqual(['{"n":1.0}', "{}"]);
  });

  test("a result nested 100,000 levels deep reaches onmessage as with the SDK's transport", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const server = await rawServer((res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(RESULT(1, `{"deep":${deep}}`)),
    );
    try {
      const logs = await both(async (make) => {
        const log: string[] = [];
        const t = make(server.url);
        t.onmessage = (m) => log.push(`message ${"result" in m ? "result" : "other"}`);
        t.onerror = (e) => log.push(`onerror ${e.message}`);
        await t.start();
        await t.send(REQUEST).then(() => log.push("sent"));
        await t.close();
        return log;
      });
      expect(logs[1]).toEqual(logs[0]);
      expect(logs[0]).toEqual(["message result", "sent"]);
    } finally {
      await server.close();
    }
  });

  test("a message JSON.stringify cannot write: onerror, then the rejection, alike", async () => {
    const server = await rawServer((res) => res.writeHead(202).end());
    try {
      const logs = await both(async (make) => {
        const log: string[] = [];
        const t = make(server.url);
        t.onerror = (e) => log.push(`onerror ${e.constructor.name}`);
        await t.start();
        const cyclic: Record<string, unknown> = { jsonrpc: "2.0", method: "notifications/x" };
        cyclic.params = { self: cyclic };
        await t
          .send(cyclic as JSONRPCMessage)
          .catch((e: Error) => log.push(`rejected ${e.constructor.name}`));
        await t.close();
        return log;
      });
      expect(logs[1]).toEqual(logs[0]);
      expect(logs[0]).toEqual(["onerror TypeError", "rejected TypeError"]);
    } finally {
      await server.close();
    }
  });

  test("start twice is refused alike; close calls onclose", async () => {
    const logs = await both(async (make) => {
      const log: string[] = [];
      const t = make(new URL("http://127.0.0.1:9/mcp"));
      t.onclose = () => log.push("onclose");
      await t.start();
      await t.start().catch((e: Error) => log.push(e.message));
      await t.close();
      return log;
    });
    expect(logs[1]).toEqual(logs[0]);
    expect(logs[0]).toEqual([
      "StreamableHTTPClientTransport already started! If using Client class, note that connect() calls start() automatically.",
      "onclose",
    ]);
  });

  test("the request body is the message's exact text, on every runtime; a given fetch is still used", async () => {
    let received = "";
    const server = await rawServer((res, body) => {
      received = body;
      res.writeHead(202).end();
    });
    const seen: string[] = [];
    try {
      const t = new ExactStreamableHTTPClientTransport(server.url, {
        fetch: (url, init) => {
          seen.push(String(init?.method));
          return fetch(url, init);
        },
      });
      await t.start();
      await t.send({
        jsonrpc: "2.0",
        method: "notifications/x",
        params: {
          ...exactJsonArguments('{"id":9007199254740993,"t":1.0}'),
          big: 18014398509481985n,
        },
      } as JSONRPCMessage);
      await t.close();
    } finally {
      await server.close();
    }
    expect(received).toBe(
      '{"jsonrpc":"2.0","method":"notifications/x","params":{"id":9007199254740993,"t":1.0,"big":18014398509481985}}',
    );
    expect(seen).toEqual(["POST"]);
  });
});

describe.each([false, true])(
  "exact numbers against the demo's strict Python server (JSON responses: %s)",
  (json) => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startPythonServer({ json });
    }, HANG_GUARD);
    afterAll(() => server?.close());

    test(
      "a StrictInt id above 2^53 arrives exactly and comes back exactly",
      async () => {
        const client = new Client({ name: "exact-http", version: "1" });
        const transport = new ExactStreamableHTTPClientTransport(server.url);
        await client.connect(transport);
        expect(typeof transport.sessionId).toBe("string");
        const user = await client.callTool({
          name: "get_user",
          arguments: exactJsonArguments('{"user_id":9007199254740993}'),
        });
        expect(user.isError).toBeFalsy();
        expect(structuredContentJson(user)).toContain('"user_id":9007199254740993');
        const rows = await client.callTool({
          name: "query_rows",
          arguments: exactJsonArguments('{"table":"users","min_id":9007199254740993,"limit":2}'),
        });
        expect(structuredContentJson(rows)).toContain(
          '"rows":[[9007199254740993,"Ada",1.0],[9007199254740995,"Grace",0.5]]',
        );
        // StrictFloat refuses 5 but takes 5.0: the float's text survives the trip.
        const alert = await client.callTool({
          name: "set_alert",
          arguments: exactJsonArguments('{"metric":"cpu","threshold":5.0,"window_seconds":60}'),
        });
        expect(alert.isError).toBeFalsy();
        expect(structuredContentJson(alert)).toContain('"threshold":5.0');
        await transport.terminateSession();
        expect(transport.sessionId).toBeUndefined();
        await client.close();
      },
      HANG_GUARD,
    );

    test(
      "the SDK's own transport: the result's ids are what JSON.parse made of them",
      async () => {
        const client = new Client({ name: "sdk-http", version: "1" });
        await client.connect(new StreamableHTTPClientTransport(server.url));
        const rows = await client.callTool({
          name: "query_rows",
          arguments: { table: "users", min_id: 2 ** 53, limit: 1 },
        });
        expect(structuredContentJson(rows)).toBeUndefined();
        expect((rows.structuredContent as { rows: unknown[][] }).rows[0]![0]).toBe(
          9007199254740992,
        );
        await client.close();
      },
      HANG_GUARD,
    );
  },
);

describe("responses read as the SDK reads them, from an in-process fetch", () => {
  const QUIET = {
    maxRetries: 0,
    initialReconnectionDelay: 1,
    maxReconnectionDelay: 1,
    reconnectionDelayGrowFactor: 1,
  };
  const make = (exact: boolean, fetch: FetchLike): StreamableHTTPClientTransport => {
    const url = new URL("http://127.0.0.1:9/mcp");
    const options = { fetch, reconnectionOptions: QUIET };
    return exact
      ? new ExactStreamableHTTPClientTransport(url, options)
      : new StreamableHTTPClientTransport(url, options);
  };
  const logged = (t: StreamableHTTPClientTransport, log: string[]) => {
    t.onerror = (e) => log.push(`onerror ${describeError(e)}`);
    t.onmessage = (m) => {
      const sc = structuredContentJson((m as { result?: object }).result ?? {});
      log.push(
        `message ${JSON.stringify(withoutExactText(m))}${sc === undefined ? "" : ` exact ${sc}`}`,
      );
    };
  };

  test.each([
    ["no content type", undefined],
    ["text/plain", "text/plain"],
    ["application/json", "application/json"],
  ])(
    "a stream opened by GET (%s) is an SSE stream to the SDK, whatever its content type: its result's exact text is recorded",
    async (_name, type) => {
      const logs: string[][] = [];
      for (const exact of [false, true]) {
        const log: string[] = [];
        const t = make(exact, async (_url, init) => {
          if (init?.method !== "GET") return new Response(null, { status: 405 });
          const headers: Record<string, string> =
            type === undefined ? {} : { "content-type": type };
          const body = `id: 1\ndata: ${RESULT(1, '{"id":9007199254740993}')}\n\n`;
          return new Response(new TextEncoder().encode(body), { status: 200, headers });
        });
        logged(t, log);
        await t.start();
        await t.resumeStream("0");
        for (let i = 0; i < 100 && log.length === 0; i++)
          await new Promise((resolve) => setTimeout(resolve, 5));
        await t.close();
        logs.push(log);
      }
      const message =
        'message {"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"id":9007199254740992}}}';
      expect(logs).toEqual([[message], [`${message} exact {"id":9007199254740993}`]]);
    },
  );

  test.each([
    ["200", 200],
    ["202", 202],
  ])(
    "a notification answered %s with a JSON body that never ends: send resolves and the body is cancelled, as with the SDK's",
    async (_name, status) => {
      const logs: string[][] = [];
      for (const exact of [false, true]) {
        const log: string[] = [];
        const t = make(exact, async () => {
          const body = new ReadableStream<Uint8Array>({
            start: (controller) => controller.enqueue(new TextEncoder().encode('{"jsonrpc":')),
            cancel: () => {
              log.push("body cancelled");
            },
          });
          return new Response(body, { status, headers: { "content-type": "application/json" } });
        });
        logged(t, log);
        await t.start();
        const sent = t.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: {} });
        const hung = new Promise((resolve) => setTimeout(() => resolve("still pending"), 1_000));
        log.push(String(await Promise.race([sent.then(() => "sent"), hung])));
        await t.close();
        logs.push(log);
      }
      expect(logs).toEqual([
        ["body cancelled", "sent"],
        ["body cancelled", "sent"],
      ]);
    },
  );
});
