// The MCP SDK's stdio transports write messages with JSON.stringify and read
// them with JSON.parse: on Node 20 that cannot write 9007199254740993, and on
// every runtime JSON.parse rounds it when a tool's result comes back. This
// transport speaks the same protocol (one JSON-RPC message per line over a
// child's stdin/stdout) but writes exact numbers and keeps each tool result's
// structuredContent text as the server sent it.

import { type ChildProcess, type IOType, spawn } from "node:child_process";
import { PassThrough, type Stream } from "node:stream";
import {
  getDefaultEnvironment,
  type StdioServerParameters,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { serializeExactMessage } from "./exact-number.js";
import { memberText } from "./json-span.js";

/** The `_meta` key under which {@link deserializeExactMessage} puts a result's exact structuredContent text. */
export const STRUCTURED_CONTENT_JSON_META_KEY = "struct-json-bridge/structuredContentJson";

const DEFAULT_MAX_BUFFER = 10 * 1024 * 1024;

/**
 * Parses one JSON-RPC message as the SDK does, and when it is a result with
 * `structuredContent`, records that member's exact text (as the server wrote
 * it, byte for byte) in `result._meta` under {@link STRUCTURED_CONTENT_JSON_META_KEY}.
 */
export function deserializeExactMessage(line: string): JSONRPCMessage {
  const message = deserializeMessage(line);
  if (!("result" in message)) return message;
  const result = message.result as Record<string, unknown>;
  const meta = result._meta as Record<string, unknown> | undefined;
  const sc = result.structuredContent;
  // A server's own value under our key is never passed on: only text we cut out ourselves.
  if (meta !== undefined && Object.hasOwn(meta, STRUCTURED_CONTENT_JSON_META_KEY)) {
    const { [STRUCTURED_CONTENT_JSON_META_KEY]: _dropped, ...rest } = meta;
    result._meta = rest;
  }
  if (sc !== null && typeof sc === "object" && !Array.isArray(sc)) {
    const text = memberText(line, ["result", "structuredContent"]);
    if (text !== undefined) {
      result._meta = {
        ...(result._meta as object | undefined),
        [STRUCTURED_CONTENT_JSON_META_KEY]: text,
      };
    }
  }
  return message;
}

/**
 * The exact JSON text of a tool result's `structuredContent`, as the server sent
 * it, when the result came through {@link ExactStdioClientTransport} (or
 * {@link deserializeExactMessage}); undefined otherwise. Pass it to
 * `toolResultFromJson` to carry big ids onward without rounding.
 */
export function structuredContentJson(result: { _meta?: unknown }): string | undefined {
  const meta = result._meta;
  if (meta === null || typeof meta !== "object") return undefined;
  const text = (meta as Record<string, unknown>)[STRUCTURED_CONTENT_JSON_META_KEY];
  return typeof text === "string" ? text : undefined;
}

/**
 * A drop-in replacement for the SDK's `StdioClientTransport` (same parameters):
 * spawns the server and exchanges newline-delimited JSON-RPC over its stdio,
 * writing exact numbers from `toolCallArguments` on every Node version and
 * recording each result's exact structuredContent text (see {@link structuredContentJson}).
 */
export class ExactStdioClientTransport implements Transport {
  /** Called when the server process has exited or the transport was closed. */
  onclose?: () => void;
  /** Called on a spawn, stream or parse error. */
  onerror?: (error: Error) => void;
  /** Called with each message read from the server. */
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly params: StdioServerParameters;
  private child: ChildProcess | undefined;
  private buffer: Buffer | undefined;
  private readonly stderrStream: PassThrough | null;

  constructor(params: StdioServerParameters) {
    this.params = params;
    this.stderrStream =
      params.stderr === "pipe" || params.stderr === "overlapped" ? new PassThrough() : null;
  }

  /** Starts the server process. */
  start(): Promise<void> {
    if (this.child !== undefined) throw new Error("ExactStdioClientTransport already started");
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args ?? [], {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        stdio: ["pipe", "pipe", (this.params.stderr ?? "inherit") as IOType],
        shell: false,
        windowsHide: true,
        ...(this.params.cwd === undefined ? {} : { cwd: this.params.cwd }),
      });
      this.child = child;
      child.on("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on("spawn", () => resolve());
      child.on("close", () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
      if (this.stderrStream !== null && child.stderr !== null) child.stderr.pipe(this.stderrStream);
    });
  }

  /** The server's stderr when `stderr: "pipe"` was passed (available before start). */
  get stderr(): Stream | null {
    return this.stderrStream ?? this.child?.stderr ?? null;
  }

  /** The server's process id, once started. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  private receive(chunk: Buffer): void {
    const max = this.params.maxBufferSize ?? DEFAULT_MAX_BUFFER;
    this.buffer = this.buffer === undefined ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const nl = this.buffer.indexOf(0x0a);
      if (nl === -1) break;
      const line = this.buffer.toString("utf8", 0, nl).replace(/\r$/, "");
      this.buffer = this.buffer.subarray(nl + 1);
      let message: JSONRPCMessage;
      try {
        message = deserializeExactMessage(line);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      this.onmessage?.(message);
    }
    if (this.buffer.length > max) {
      this.buffer = undefined;
      this.onerror?.(new Error(`message exceeds maxBufferSize (${max} bytes)`));
      this.close().catch(() => {});
    }
  }

  /** Writes one message as a line of exact JSON. */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (stdin == null) {
        reject(new Error("Not connected"));
        return;
      }
      let line: string;
      try {
        line = `${serializeExactMessage(message)}\n`;
      } catch (error) {
        reject(error);
        return;
      }
      if (stdin.write(line)) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Closes stdin and waits for the server to exit, then SIGTERM, then SIGKILL (2 s each), as the SDK does. */
  async close(): Promise<void> {
    const child = this.child;
    this.buffer = undefined;
    if (child === undefined) return;
    this.child = undefined;
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const wait = () =>
      Promise.race([closed, new Promise<void>((r) => setTimeout(r, 2000).unref())]);
    try {
      child.stdin?.end();
    } catch {
      // already gone
    }
    await wait();
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (child.exitCode !== null || child.signalCode !== null) break;
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
      if (signal === "SIGTERM") await wait();
    }
  }
}
