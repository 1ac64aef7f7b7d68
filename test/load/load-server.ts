// A ToolCallService server for the load test, built like the demo's
// (examples/demo/tool-call-server.ts: Connect-ES over HTTP/2 on 127.0.0.1,
// actions made with toolCallFromJson) but generating each stream's actions on
// the fly, numbered per client, and stamping when each one is sent, so that
// clients can measure end-to-end latency (server and clients share a clock:
// same process).
import { createServer, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { toolCallFromJson, toolResultToJson } from "../../src/index.js";
import {
  ClientActionSchema,
  SubmitResultResponseSchema,
  ToolCallService,
} from "../../src/messages.js";
import { argumentsText } from "./load-actions.js";

/** A running load server. */
export interface LoadServer {
  /** Base URL for gRPC clients (loopback). */
  readonly url: string;
  /** Send times (performance.now()) per client id, by action number. */
  readonly sent: Map<string, Float64Array>;
  /** Results accepted through SubmitResult. */
  readonly accepted: () => number;
  /** Stops the server and ends idle sessions. */
  close(): Promise<void>;
}

/** Starts the server; each StreamActions call streams `actions` actions for its client id. */
export async function startLoadServer(actions: number): Promise<LoadServer> {
  const sent = new Map<string, Float64Array>();
  let accepted = 0;
  const routes = (router: ConnectRouter) =>
    router.service(ToolCallService, {
      async *streamActions(request) {
        const times = new Float64Array(actions);
        sent.set(request.clientId, times);
        for (let k = 0; k < actions; k++) {
          const action = create(ClientActionSchema, {
            actionId: `${request.clientId}/${k}`,
            action: {
              case: "callMcpTool",
              value: toolCallFromJson({
                name: "load",
                serverId: "s",
                argumentsJson: argumentsText(k),
              }),
            },
          });
          times[k] = performance.now();
          yield action;
        }
      },
      submitResult(result) {
        // Decoding the result is part of the work under load.
        toolResultToJson(result);
        accepted++;
        return create(SubmitResultResponseSchema, { accepted: true });
      },
    });
  const server: Http2Server = createServer(connectNodeAdapter({ routes }));
  const sessions = new Set<ServerHttp2Session>();
  server.on("session", (session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.close();
      }),
  };
}
