// The SDK's StreamableHTTPServerTransport reads each POST body with JSON.parse
// and writes each response with JSON.stringify. This transport IS the SDK's (a
// subclass: same sessions, SSE and JSON responses, errors and limits): it
// reads the body itself, hands the SDK the parsed body (as the SDK's
// `parsedBody` argument allows) with each tools/call's exact arguments text
// beside it, and writes results with exact numbers.

import type { IncomingMessage, ServerResponse } from "node:http";
import {
  StreamableHTTPServerTransport,
  type StreamableHTTPServerTransportOptions,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { sdkAccessor } from "../exact-read-buffer.js";
import { type ExactServerOptions, type MessageHandler, RequestGate } from "./request-gate.js";
import { exactHttpMessage } from "./wire.js";

/** Options of {@link ExactStreamableHTTPServerTransport}: the SDK's, and {@link ExactServerOptions}. */
export type ExactStreamableHTTPServerTransportOptions = StreamableHTTPServerTransportOptions &
  Partial<ExactServerOptions>;

const DEFAULT_MAX_REQUEST_BODY_SIZE = 4 * 1024 * 1024; // the SDK's

/**
 * Reads at most `max` + 1 bytes of `req` (then pauses it, as the SDK stops
 * reading); a stream error ends the read with what arrived.
 */
function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      req.off("data", onData);
      req.off("end", finish);
      req.off("error", finish);
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > max) {
        req.pause();
        finish();
      }
    };
    req.on("data", onData);
    req.on("end", finish);
    req.on("error", finish);
  });
}

/**
 * A drop-in replacement for the SDK's (Node) `StreamableHTTPServerTransport` (a
 * subclass, same options plus `exactTools`): each tools/call request carries
 * its arguments' exact text to `exactToolHandler`; a call whose arguments
 * hold an integer beyond 2^53 (or a number beyond float64) is refused with
 * JSON-RPC -32602 naming the path unless its tool is one of `exactTools`;
 * results are written with exact numbers where the runtime has JSON.rawJSON
 * (Node ≥ 22), and refused with JSON-RPC -32603 where it does not, never rounded.
 * Pass no `parsedBody` (no `express.json()` before it): a body parsed by
 * someone else has lost its digits, so its big integers are refused.
 */
export class ExactStreamableHTTPServerTransport extends StreamableHTTPServerTransport {
  private readonly gate: RequestGate;
  private readonly maxBodySize: number;
  private protocolHandler: MessageHandler | undefined;

  constructor(options: ExactStreamableHTTPServerTransportOptions = {}) {
    // The gate sits in front of the SDK's onmessage accessor (see the setter below).
    sdkAccessor(
      StreamableHTTPServerTransport.prototype,
      "StreamableHTTPServerTransport",
      "onmessage",
    );
    const { exactTools, ...sdkOptions } = options;
    super(sdkOptions);
    this.gate = new RequestGate(exactTools === undefined ? undefined : { exactTools });
    this.maxBodySize = options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  }

  /** The handler the server installed; the SDK's transport calls a gate in front of it. */
  override get onmessage(): MessageHandler | undefined {
    return this.protocolHandler;
  }

  override set onmessage(handler: MessageHandler | undefined) {
    this.protocolHandler = handler;
    const gated = this.gate.guard(handler, (refused) => {
      this.send(refused).catch((error: unknown) => this.onerror?.(error as Error));
    });
    Reflect.set(StreamableHTTPServerTransport.prototype, "onmessage", gated, this);
  }

  /** As the SDK's; a POST body is read here (same size limit) so that its exact text is kept. */
  override async handleRequest(
    req: Parameters<StreamableHTTPServerTransport["handleRequest"]>[0],
    res: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> {
    if (parsedBody !== undefined || req.method !== "POST" || req.readableEnded) {
      return super.handleRequest(req, res, parsedBody);
    }
    if (Number(req.headers["content-length"]) > this.maxBodySize)
      return super.handleRequest(req, res);
    const holder = req as IncomingMessage & { rawBody?: unknown };
    const bytes =
      holder.rawBody instanceof Buffer ? holder.rawBody : await readBody(req, this.maxBodySize);
    // The SDK (through @hono/node-server) reads a `rawBody` Buffer in place of the consumed stream.
    holder.rawBody = bytes;
    if (bytes.length > this.maxBodySize) return super.handleRequest(req, res);
    const text = new TextDecoder().decode(bytes);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return super.handleRequest(req, res); // the SDK answers its own parse error
    }
    this.gate.annotateBody(body, text);
    return super.handleRequest(req, res, body);
  }

  /** As the SDK's, with exact numbers (see the class comment for runtimes without JSON.rawJSON). */
  override send(
    message: JSONRPCMessage,
    options?: Parameters<StreamableHTTPServerTransport["send"]>[1],
  ): Promise<void> {
    return super.send(exactHttpMessage(message), options);
  }
}
