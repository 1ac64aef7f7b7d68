// MCP servers over Streamable HTTP for the tests, each on 127.0.0.1 with an
// ephemeral port: the TypeScript SDK's own transport (or the exact one) in
// this process, and the demo's strict Python server (Pydantic StrictInt) in a
// child process.

import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { EXACT_TOOLS, exactServer } from "../../examples/mcp/exact-server.js";
import {
  type RunningServer,
  startStrictHttpServer,
} from "../../examples/mcp/strict-python-server.js";
import { ExactStreamableHTTPServerTransport } from "../../src/mcp/server/index.js";

export type { RunningServer };

/** Listens on 127.0.0.1 (ephemeral port) with `handler`. */
export async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<{ server: Server; url: URL }> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: new URL(`http://127.0.0.1:${port}/mcp`) };
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The TypeScript SDK's server (the exact-server fixture's tools) behind the
 * SDK's StreamableHTTPServerTransport, or behind ExactStreamableHTTPServerTransport;
 * one transport per session, as in the SDK's examples.
 */
export async function startTsServer(options: {
  exact: boolean;
  json: boolean;
}): Promise<RunningServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const { server, url } = await listen(async (req, res) => {
    if (req.url !== "/mcp") {
      res.writeHead(404, { "content-type": "text/plain" }).end("no such endpoint");
      return;
    }
    const id = req.headers["mcp-session-id"];
    const existing = typeof id === "string" ? sessions.get(id) : undefined;
    if (existing !== undefined) {
      await existing.handleRequest(req, res);
      return;
    }
    const transportOptions = {
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: options.json,
      onsessioninitialized: (sessionId: string) => {
        sessions.set(sessionId, transport);
      },
    };
    const transport = options.exact
      ? new ExactStreamableHTTPServerTransport({ ...transportOptions, exactTools: EXACT_TOOLS })
      : new StreamableHTTPServerTransport(transportOptions);
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    if (req.method === "POST" && typeof id !== "string") {
      await exactServer().connect(transport);
      await transport.handleRequest(req, res);
      return;
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        jsonrpc: "2.0",
        error: { code: -32001, message: "Session not found" },
        id: null,
      }),
    );
  });
  return {
    url,
    async close() {
      for (const transport of sessions.values()) await transport.close();
      await stop(server);
    },
  };
}

/** The demo's strict Python MCP server over Streamable HTTP (SSE, or JSON bodies). */
export const startPythonServer = startStrictHttpServer;

/** A JSON-RPC POST of `body` to an MCP endpoint, as a Streamable HTTP client sends it (for web-standard transports). */
export function mcpPost(body: string): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });
}
