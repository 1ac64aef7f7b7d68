// The server side: a Connect-ES gRPC server (HTTP/2, loopback, random port)
// that streams the model's tool calls as ClientActions and takes their results.

import { createServer, type Http2Server, type ServerHttp2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { toolCallFromJson, toolResultToJson } from "../../src/index.js";
import {
  type ClientAction,
  ClientActionSchema,
  type MCPToolResult,
  SubmitResultResponseSchema,
  ToolCallService,
} from "../../src/messages.js";
import type { ModelCall } from "./model-calls.js";

/** How the server fills `raw_args_json` (toolCallFromJson's option). */
export type RawArgsMode = "always" | "when-lossy" | "never";

/** One result as the server received it. */
export interface SubmittedResult {
  /** The message as it arrived. */
  readonly result: MCPToolResult;
  /** Its structured content as JSON text, decoded with `toolResultToJson`. */
  readonly json: string;
}

/** A running server. */
export interface ToolCallServer {
  /** The base URL for a gRPC client, e.g. http://127.0.0.1:41234. */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The actions it streams, in order. */
  readonly actions: readonly ClientAction[];
  /** Results received through SubmitResult, by action id. */
  readonly submitted: ReadonlyMap<string, SubmittedResult>;
  /** Stops the server. */
  close(): Promise<void>;
}

/** The action id of `call` in pass `mode` (each call is streamed once per pass). */
export function actionId(mode: RawArgsMode, call: ModelCall): string {
  return `${mode}/${call.id}`;
}

/** Builds the actions the server streams: every call once per mode, with toolCallFromJson. */
export function buildActions(
  calls: readonly ModelCall[],
  modes: readonly RawArgsMode[],
): ClientAction[] {
  return modes.flatMap((mode) =>
    calls.map((call) =>
      create(ClientActionSchema, {
        actionId: actionId(mode, call),
        action: {
          case: "callMcpTool",
          value: toolCallFromJson(
            { name: call.name, serverId: "strict-demo", argumentsJson: call.argumentsJson },
            { rawArgsJson: mode },
          ),
        },
      }),
    ),
  );
}

/** Starts the gRPC server on 127.0.0.1 with a free port chosen by the OS. */
export async function startToolCallServer(
  actions: readonly ClientAction[],
): Promise<ToolCallServer> {
  const known = new Set(actions.map((a) => a.actionId));
  const submitted = new Map<string, SubmittedResult>();
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
    port,
    actions,
    submitted,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A client's idle HTTP/2 session would keep close() waiting: end it.
        for (const session of sessions) session.close();
      }),
  };
}
