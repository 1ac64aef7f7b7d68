// The SDK's StdioServerTransport reads each request with JSON.parse, so a
// handler gets 9007199254740992 for 9007199254740993, silently, and writes with
// JSON.stringify, which cannot write a bigint. This transport IS the SDK's (a
// subclass: same start, close, events and errors) with the line reader and
// `send` exchanged.

import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { serializeExactMessage } from "../exact-number.js";
import { ExactReadBuffer, sdkInternals } from "../exact-read-buffer.js";
import { type ExactServerOptions, RequestGate } from "./request-gate.js";
import { exactWireMessage } from "./wire.js";

/** Options of {@link ExactStdioServerTransport}: the SDK's, and {@link ExactServerOptions}. */
export interface ExactStdioServerTransportOptions extends Partial<ExactServerOptions> {
  /** As the SDK's: the most bytes buffered for one message (default 10 MiB). */
  maxBufferSize?: number;
}

interface ServerInternals {
  _readBuffer: unknown;
  _stdout: Writable;
}

/**
 * A drop-in replacement for the SDK's `StdioServerTransport` (a subclass, same
 * arguments plus `exactTools`): each tools/call request carries its arguments'
 * exact text to `exactToolHandler`; a call whose arguments hold an integer
 * beyond 2^53 (or a number beyond float64) is refused with JSON-RPC -32602
 * naming the path unless its tool is one of `exactTools`; results are written
 * with exact numbers (bigints with their digits).
 */
export class ExactStdioServerTransport extends StdioServerTransport {
  constructor(stdin?: Readable, stdout?: Writable, options?: ExactStdioServerTransportOptions) {
    super(
      stdin,
      stdout,
      options?.maxBufferSize === undefined ? undefined : { maxBufferSize: options.maxBufferSize },
    );
    const gate = new RequestGate(options);
    const internals = sdkInternals<ServerInternals>(this, "StdioServerTransport", {
      _readBuffer: "read-buffer",
      _stdout: "writable",
    });
    internals._readBuffer = new ExactReadBuffer(options?.maxBufferSize, (line) => {
      const parsed: unknown = JSON.parse(line);
      gate.annotate(parsed, line);
      const message = JSONRPCMessageSchema.parse(parsed);
      const refused = gate.admit(message);
      if (refused === undefined) return message;
      this.send(refused).catch((error: unknown) => this.onerror?.(error as Error));
      return null;
    });
  }

  /** Writes one message as a line of exact JSON (as the SDK's `send`, with exact numbers). */
  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const stdout = (this as unknown as ServerInternals)._stdout;
      const json = `${serializeExactMessage(exactWireMessage(message))}\n`;
      if (stdout.write(json)) resolve();
      else stdout.once("drain", resolve);
    });
  }
}
