// Subscribes to the demo server's StreamActions from the browser, through
// Connect-Web (the Connect protocol or gRPC-Web over fetch), and decodes each
// action in the page with the same code as the inspector.

import { toBinary } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { type ClientAction, ClientActionSchema, ToolCallService } from "../../../src/messages.js";

/** The wire protocols a browser can use. */
export type WebProtocol = "connect" | "grpc-web";

/** One action as it arrived, with its binary form for the inspector. */
export interface LiveAction {
  readonly action: ClientAction;
  /** The action re-encoded as binary protobuf, base64: what the inspector's message box takes. */
  readonly base64: string;
}

/**
 * Calls StreamActions on `baseUrl` and hands each action to `onAction` as it
 * arrives; resolves when the server ends the stream. Binary protobuf on the
 * wire, as a production client would use.
 */
export async function streamActions(
  baseUrl: string,
  protocol: WebProtocol,
  onAction: (a: LiveAction) => void,
  signal?: AbortSignal,
): Promise<number> {
  const transport =
    protocol === "connect"
      ? createConnectTransport({ baseUrl, useBinaryFormat: true })
      : createGrpcWebTransport({ baseUrl, useBinaryFormat: true });
  const client = createClient(ToolCallService, transport);
  let n = 0;
  const options = signal === undefined ? {} : { signal };
  for await (const action of client.streamActions({ clientId: "inspector" }, options)) {
    onAction({ action, base64: base64Encode(toBinary(ClientActionSchema, action)) });
    n++;
  }
  return n;
}
