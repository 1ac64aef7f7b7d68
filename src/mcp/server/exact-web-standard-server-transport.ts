// The SDK's WebStandardStreamableHTTPServerTransport (Request in, Response
// out: Workers, Deno, Bun, Hono, Node) reads each POST body with JSON.parse.
// This subclass reads the body itself and hands the SDK the parsed body (the
// SDK's `parsedBody` option) with each tools/call's exact arguments text; see
// ExactStreamableHTTPServerTransport for the same on Node's http.

import {
  type HandleRequestOptions,
  WebStandardStreamableHTTPServerTransport,
  type WebStandardStreamableHTTPServerTransportOptions,
} from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type ExactServerOptions, type MessageHandler, RequestGate } from "./request-gate.js";
import { exactHttpMessage } from "./wire.js";

/** Options of {@link ExactWebStandardStreamableHTTPServerTransport}: the SDK's, and {@link ExactServerOptions}. */
export type ExactWebStandardStreamableHTTPServerTransportOptions =
  WebStandardStreamableHTTPServerTransportOptions & Partial<ExactServerOptions>;

const DEFAULT_MAX_REQUEST_BODY_SIZE = 4 * 1024 * 1024; // the SDK's

/** At most `max` + 1 bytes of `body` (the SDK stops reading there too); a stream error ends the read. */
async function readBody(
  body: ReadableStream<Uint8Array>,
  max: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size <= max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // What arrived is handed to the SDK, which reports the body as it would.
  } finally {
    reader.releaseLock();
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * A drop-in replacement for the SDK's `WebStandardStreamableHTTPServerTransport`
 * (a subclass, same options plus `exactTools`), with the same exactness as
 * `ExactStreamableHTTPServerTransport`: calls refused with -32602 or passed on
 * with their exact arguments text; results exact where the runtime has
 * JSON.rawJSON, refused with -32603 where it does not. Pass no `parsedBody`.
 */
export class ExactWebStandardStreamableHTTPServerTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly gate: RequestGate;
  private readonly maxBodySize: number;

  constructor(options: ExactWebStandardStreamableHTTPServerTransportOptions = {}) {
    const { exactTools, ...sdkOptions } = options;
    super(sdkOptions);
    const gate = new RequestGate(exactTools === undefined ? undefined : { exactTools });
    this.gate = gate;
    this.maxBodySize = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
    // The SDK calls this.onmessage: an accessor puts the gate in front of whatever the server installs.
    let gated: MessageHandler | undefined;
    Object.defineProperty(this, "onmessage", {
      configurable: true,
      enumerable: true,
      get: () => gated,
      set: (handler: MessageHandler | undefined) => {
        gated = gate.guard(handler, (refused) => {
          this.send(refused).catch((error: unknown) => this.onerror?.(error as Error));
        });
      },
    });
  }

  /** As the SDK's; a POST body is read here (same size limit) so that its exact text is kept. */
  override async handleRequest(req: Request, options?: HandleRequestOptions): Promise<Response> {
    if (
      req.method !== "POST" ||
      options?.parsedBody !== undefined ||
      req.body === null ||
      req.bodyUsed
    ) {
      return super.handleRequest(req, options);
    }
    if (Number(req.headers.get("content-length")) > this.maxBodySize)
      return super.handleRequest(req, options);
    const bytes = await readBody(req.body, this.maxBodySize);
    // The SDK gets the same request with the bytes read: it answers size and syntax errors itself.
    const replay = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: bytes,
      signal: req.signal,
    });
    if (bytes.byteLength > this.maxBodySize) return super.handleRequest(replay, options);
    const text = new TextDecoder().decode(bytes);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return super.handleRequest(replay, options);
    }
    this.gate.annotateBody(body, text);
    return super.handleRequest(replay, { ...options, parsedBody: body });
  }

  /** As the SDK's, with exact numbers (JSON.rawJSON; -32603 where the runtime has none). */
  override send(
    message: JSONRPCMessage,
    options?: Parameters<WebStandardStreamableHTTPServerTransport["send"]>[1],
  ): Promise<void> {
    return super.send(exactHttpMessage(message), options);
  }
}
