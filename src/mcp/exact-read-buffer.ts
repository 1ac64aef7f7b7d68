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

/** What an SDK field an exact transport exchanges or uses must be. */
export type SdkFieldShape = "read-buffer" | "object" | "writable" | "present";

function hasMethods(value: unknown, names: readonly string[]): boolean {
  return (
    value !== null &&
    typeof value === "object" &&
    names.every((name) => typeof (value as Record<string, unknown>)[name] === "function")
  );
}

const SHAPES: Readonly<Record<SdkFieldShape, (value: unknown) => boolean>> = {
  // The SDK's ReadBuffer: the transport's data handler appends, reads and clears through it.
  "read-buffer": (value) => hasMethods(value, ["append", "readMessage", "clear"]),
  object: (value) => value !== null && typeof value === "object",
  writable: (value) => hasMethods(value, ["write", "once"]),
  // Declared, whatever it holds now (the SDK sets it to undefined when the child exits).
  present: () => true,
};

/**
 * `target` seen through the SDK fields an exact transport exchanges or uses,
 * after checking each exists with the shape it has in the SDK releases this
 * package supports: an SDK release that renamed or reshaped one fails loudly
 * here (naming the class and the field) rather than sending rounded numbers
 * or failing later with a misleading error.
 */
export function sdkInternals<T>(
  target: object,
  sdkClass: string,
  fields: Readonly<Record<string, SdkFieldShape>>,
): T {
  for (const [field, shape] of Object.entries(fields)) {
    if (!(field in target) || !SHAPES[shape]((target as Record<string, unknown>)[field])) {
      throw new Error(
        `struct-json-bridge: this @modelcontextprotocol/sdk's ${sdkClass} has no ${field} of the expected shape (${shape}); the exact transport supports @modelcontextprotocol/sdk ^1.32`,
      );
    }
  }
  return target as T;
}

/**
 * Checks that `prototype` (an SDK class's) has an accessor `name`: an exact
 * transport that puts its gate in front of the accessor would otherwise, on an
 * SDK release that made it a plain field, leave later handlers ungated.
 */
export function sdkAccessor(prototype: object, sdkClass: string, name: string): void {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
  if (typeof descriptor?.get !== "function" || typeof descriptor.set !== "function") {
    throw new Error(
      `struct-json-bridge: this @modelcontextprotocol/sdk's ${sdkClass} has no ${name} accessor; the exact transport supports @modelcontextprotocol/sdk ^1.32`,
    );
  }
}
