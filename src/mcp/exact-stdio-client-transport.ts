// The SDK's StdioClientTransport writes messages with JSON.stringify and reads
// them with JSON.parse: on Node 20 that cannot write 9007199254740993, and on
// every runtime JSON.parse rounds it when a tool's result comes back. This
// transport IS the SDK's (a subclass: the same spawning, events, errors and
// shutdown) with two parts exchanged: the line reader records each result's
// exact structuredContent text, and `send` writes exact numbers.

import type { Writable } from "node:stream";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { serializeExactMessage } from "./exact-number.js";
import { ExactReadBuffer, sdkInternals } from "./exact-read-buffer.js";
import { readExactMessage } from "./exact-result.js";

interface ClientInternals {
  _readBuffer: unknown;
  _serverParams: { maxBufferSize?: number };
  _process?: { stdin: Writable | null };
}

/**
 * A drop-in replacement for the SDK's `StdioClientTransport` (a subclass, same
 * parameters and behaviour): it writes exact numbers from `toolCallArguments`
 * (and `bigint`s) on every Node version, and records each result's exact
 * structuredContent text (see `structuredContentJson`).
 */
export class ExactStdioClientTransport extends StdioClientTransport {
  constructor(...args: ConstructorParameters<typeof StdioClientTransport>) {
    super(...args);
    const internals = sdkInternals<ClientInternals>(this, "StdioClientTransport", {
      _readBuffer: "read-buffer",
      _serverParams: "object",
    });
    internals._readBuffer = new ExactReadBuffer(
      internals._serverParams.maxBufferSize,
      readExactMessage,
    );
  }

  /** As the SDK's `start`; then checks that the child process is where `send` writes to it. */
  override async start(): Promise<void> {
    await super.start();
    // The SDK sets _process only here: a release that renamed it would make every send fail as "Not connected".
    sdkInternals(this, "StdioClientTransport", { _process: "present" });
  }

  /** Writes one message as a line of exact JSON (as the SDK's `send`, with exact numbers). */
  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const stdin = (this as unknown as ClientInternals)._process?.stdin;
      if (!stdin) throw new Error("Not connected");
      const json = `${serializeExactMessage(message)}\n`;
      if (stdin.write(json)) resolve();
      else stdin.once("drain", resolve);
    });
  }
}
