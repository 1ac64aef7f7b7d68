// A TypeScript MCP server whose handlers get ids above 2^53 exactly, over
// stdio and over Streamable HTTP, called with the SDK's client.
// Run: npx tsx examples/mcp/ts-server.ts

import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ExactStdioClientTransport,
  ExactStreamableHTTPClientTransport,
  exactJsonArguments,
  structuredContentJson,
} from "../../src/mcp/index.js";
import { ExactStreamableHTTPServerTransport } from "../../src/mcp/server/index.js";
import { EXACT_TOOLS, exactServer } from "./exact-server.js";

async function calls(label: string, transport: Transport): Promise<void> {
  const client = new Client({ name: "ts-server-example", version: "1.0.0" });
  await client.connect(transport);
  await client
    .callTool({
      name: "get_order",
      arguments: exactJsonArguments('{"order_id":9007199254740993,"quantity":2,"price":1.5}'),
    })
    .then(
      (order) => console.log(`${label}: get_order → ${structuredContentJson(order)}`),
      // Node 20 has no JSON.rawJSON: the SDK's HTTP transport cannot write the digits, so it refuses.
      (e: Error) => console.log(`${label}: get_order refused → ${e.message}`),
    );
  await client
    .callTool({ name: "plain_echo", arguments: exactJsonArguments('{"id":9007199254740993}') })
    .catch((e: Error) => console.log(`${label}: plain_echo refused → ${e.message}`));
  await client.close();
}

// stdio: this repository's exact-server.ts, spawned as a child process.
await calls(
  "stdio",
  new ExactStdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", new URL("./exact-server.ts", import.meta.url).pathname],
  }),
);

// Streamable HTTP on 127.0.0.1: one exact transport per session.
const sessions = new Map<string, ExactStreamableHTTPServerTransport>();
const http = createServer(async (req, res) => {
  const id = req.headers["mcp-session-id"];
  let transport = typeof id === "string" ? sessions.get(id) : undefined;
  if (transport === undefined) {
    transport = new ExactStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      exactTools: EXACT_TOOLS,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, transport!);
      },
    });
    await exactServer().connect(transport);
  }
  await transport.handleRequest(req, res);
});
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const { port } = http.address() as AddressInfo;
try {
  await calls(
    "http",
    new ExactStreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)),
  );
} finally {
  for (const transport of sessions.values()) await transport.close();
  http.closeAllConnections();
  http.close();
}
