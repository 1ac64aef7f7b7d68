// The SDK's stdio ReadBuffer, with the line parser exchanged: the exact stdio
// transports (client and server) put one of these in place of the SDK's.

import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * Buffers a stdio stream into lines and parses each with `deserialize`;
 * `append`, `readMessage` and `clear` behave as the SDK's `ReadBuffer` (same
 * size limit, same error text). `deserialize` may return null to skip a line.
 */
export class ExactReadBuffer {
  private buffer: Buffer | undefined;
  private readonly maxBufferSize: number;
  private readonly deserialize: (line: string) => JSONRPCMessage | null;

  constructor(
    maxBufferSize: number | undefined,
    deserialize: (line: string) => JSONRPCMessage | null,
  ) {
    this.maxBufferSize = maxBufferSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.deserialize = deserialize;
  }

  append(chunk: Buffer): void {
    const newSize = (this.buffer?.length ?? 0) + chunk.length;
    if (newSize > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  readMessage(): JSONRPCMessage | null {
    for (;;) {
      if (!this.buffer) return null;
      const index = this.buffer.indexOf("\n");
      if (index === -1) return null;
      const line = this.buffer.toString("utf8", 0, index).replace(/\r$/, "");
      this.buffer = this.buffer.subarray(index + 1);
      const message = this.deserialize(line);
      if (message !== null) return message;
    }
  }

  clear(): void {
    this.buffer = undefined;
  }
}

/**
 * `target` seen through the SDK fields an exact transport exchanges, after
 * checking they exist: an SDK release that renamed them fails loudly here
 * rather than sending rounded numbers.
 */
export function sdkInternals<T>(target: object, sdkClass: string, fields: readonly string[]): T {
  for (const field of fields) {
    if (!(field in target)) {
      throw new Error(
        `struct-json-bridge: this @modelcontextprotocol/sdk's ${sdkClass} has no ${field}; the exact transport supports @modelcontextprotocol/sdk ^1.32`,
      );
    }
  }
  return target as T;
}
