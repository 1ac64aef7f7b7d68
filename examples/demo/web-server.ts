// The demo's ToolCallService for web browsers: Connect and gRPC-Web over
// HTTP/1.1 on 127.0.0.1, beside the gRPC (HTTP/2) server in tool-call-server.ts.
// Browsers cannot speak gRPC's HTTP/2 trailers nor h2c, so a page reaches the
// same service through @connectrpc/connect-web on this server instead.
//
// Run alone: node --import tsx examples/demo/web-server.ts [--port N]

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { type ConnectRouter, cors } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { toolResultToJson } from "../../src/index.js";
import {
  type ClientAction,
  SubmitResultResponseSchema,
  ToolCallService,
} from "../../src/messages.js";
import { loadModelCalls } from "./model-calls.js";
import { buildActions, type SubmittedResult } from "./tool-call-server.js";

/** A running web server. */
export interface WebToolCallServer {
  /** The base URL for a Connect-Web or gRPC-Web transport, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** The actions it streams, in order. */
  readonly actions: readonly ClientAction[];
  /** Results received through SubmitResult, by action id. */
  readonly submitted: ReadonlyMap<string, SubmittedResult>;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Options of {@link startWebToolCallServer}. */
export interface WebToolCallServerOptions {
  /** The port on 127.0.0.1; 0 lets the OS pick a free one. Default 0. */
  port: number;
}

const webServerDefaults: Readonly<WebToolCallServerOptions> = Object.freeze({ port: 0 });

/**
 * Pages may call from any loopback origin (the inspector runs on another port);
 * other origins get no CORS headers, so a web site cannot read the stream.
 */
const LOOPBACK_ORIGIN = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

function allowCors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  if (origin === undefined || !LOOPBACK_ORIGIN.test(origin)) return;
  res.setHeader("Access-Control-Allow-Origin", origin);
  res.setHeader("Vary", "Origin");
  res.setHeader("Access-Control-Allow-Methods", cors.allowedMethods.join(", "));
  res.setHeader("Access-Control-Allow-Headers", cors.allowedHeaders.join(", "));
  res.setHeader("Access-Control-Expose-Headers", cors.exposedHeaders.join(", "));
  res.setHeader("Access-Control-Max-Age", "7200");
}

/** Starts the Connect + gRPC-Web server on 127.0.0.1, streaming `actions`. */
export async function startWebToolCallServer(
  actions: readonly ClientAction[],
  options?: Partial<WebToolCallServerOptions>,
): Promise<WebToolCallServer> {
  const opts = { ...webServerDefaults, ...options };
  const known = new Set(actions.map((a) => a.actionId));
  const submitted = new Map<string, SubmittedResult>();
  // The same behaviour as the gRPC server's service (tool-call-server.ts).
  const routes = (router: ConnectRouter) =>
    router.service(ToolCallService, {
      async *streamActions() {
        yield* actions;
      },
      submitResult(result) {
        const accepted = known.has(result.actionId) && !submitted.has(result.actionId);
        if (accepted) submitted.set(result.actionId, { result, json: toolResultToJson(result) });
        return create(SubmitResultResponseSchema, { accepted });
      },
    });
  const handler = connectNodeAdapter({
    routes,
    // The Connect protocol and gRPC-Web both work over HTTP/1.1; plain gRPC does not.
    grpc: false,
  });
  const server: Server = createServer((req, res) => {
    allowCors(req, res);
    if (req.method === "OPTIONS") {
      res.writeHead(204).end();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    actions,
    submitted,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The bundled model calls as actions: once with raw_args_json, once without (schema path alone). */
export function demoWebActions(): ClientAction[] {
  return buildActions(loadModelCalls(), ["always", "never"]);
}

async function main(): Promise<void> {
  const i = process.argv.indexOf("--port");
  const port = i === -1 ? 0 : Number(process.argv[i + 1]);
  if (!Number.isSafeInteger(port) || port < 0 || port > 65535) {
    console.error("usage: web-server.ts [--port N]   (N from 0 to 65535)");
    process.exit(2);
  }
  const server = await startWebToolCallServer(demoWebActions(), { port });
  console.log(`ToolCallService (Connect, gRPC-Web) on ${server.url}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main();
}
