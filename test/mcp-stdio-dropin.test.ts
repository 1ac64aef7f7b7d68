// ExactStdioClientTransport is a drop-in for the SDK's StdioClientTransport:
// the same scenarios run against both, and their observable behaviour (events
// in order, errors, rejections, pid, stderr) must be identical.

import {
  StdioClientTransport,
  type StdioServerParameters,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import {
  ExactReadBuffer,
  type SdkFieldShape,
  sdkAccessor,
  sdkInternals,
} from "../src/mcp/exact-read-buffer.js";
import { ExactStdioClientTransport } from "../src/mcp/index.js";
import { ExactStdioServerTransport } from "../src/mcp/server/index.js";

const ROOT = new URL("..", import.meta.url).pathname;

type Make = (params: StdioServerParameters) => StdioClientTransport;
const TRANSPORTS: [string, Make][] = [
  ["the SDK's StdioClientTransport", (p) => new StdioClientTransport(p)],
  ["ExactStdioClientTransport", (p) => new ExactStdioClientTransport(p)],
];

/** A child that writes `chunks` (one write each, in order), then exits when its stdin ends. */
function server(chunks: string[], extra = ""): StdioServerParameters {
  const script = `
    const chunks = ${JSON.stringify(chunks)};
    (async () => {
      for (const c of chunks) await new Promise((r) => process.stdout.write(c, r));
      ${extra}
    })();
    process.stdin.resume();
    process.stdin.on("end", () => process.exit(0));`;
  return { command: process.execPath, args: ["-e", script], cwd: ROOT };
}

/** Records every event of a transport, as text. */
class Recorder {
  readonly log: string[] = [];
  private waiters: { until: (log: string[]) => boolean; resolve: () => void }[] = [];

  attach(t: StdioClientTransport, onmessage?: (m: JSONRPCMessage) => void): void {
    t.onmessage = (m) => {
      this.push(`message ${JSON.stringify(m)}`);
      onmessage?.(m);
    };
    t.onerror = (e) => this.push(`error ${e.constructor.name}: ${e.message}`);
    t.onclose = () => this.push("close");
  }

  push(entry: string): void {
    this.log.push(entry);
    for (const w of [...this.waiters]) {
      if (w.until(this.log)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  }

  /** Resolves once `until` holds (a generous guard fails a hang, never a slow machine's verdict). */
  wait(until: (log: string[]) => boolean): Promise<void> {
    if (until(this.log)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const guard = setTimeout(
        () => reject(new Error(`hang: ${JSON.stringify(this.log)}`)),
        20_000,
      );
      this.waiters.push({
        until,
        resolve: () => {
          clearTimeout(guard);
          resolve();
        },
      });
    });
  }
}

const has = (entry: string) => (log: string[]) => log.includes(entry);
const A = '{"jsonrpc":"2.0","method":"a"}';
const B = '{"jsonrpc":"2.0","method":"b"}';

interface Scenario {
  name: string;
  run(make: Make): Promise<string[]>;
  expected: string[];
}

const scenarios: Scenario[] = [
  {
    name: "onmessage throws: reported through onerror, and the next message of the same chunk arrives",
    async run(make) {
      const r = new Recorder();
      const t = make(server([`${A}\n${B}\n`]));
      r.attach(t, (m) => {
        if ((m as { method: string }).method === "a") throw new Error("handler failed");
      });
      await t.start();
      await r.wait(has(`message ${B}`));
      await t.close();
      await r.wait(has("close"));
      return r.log;
    },
    expected: [`message ${A}`, "error Error: handler failed", `message ${B}`, "close"],
  },
  {
    name: "a line that is not JSON: onerror, then the next line",
    async run(make) {
      const r = new Recorder();
      const t = make(server([`{oops\n${B}\n`]));
      r.attach(t);
      await t.start();
      await r.wait(has(`message ${B}`));
      await t.close();
      return r.log.map((e) => (e.startsWith("error SyntaxError") ? "error SyntaxError" : e));
    },
    expected: ["error SyntaxError", `message ${B}`, "close"],
  },
  {
    name: "JSON that is not a JSON-RPC message: onerror (the SDK's schema error), then the next line",
    async run(make) {
      const r = new Recorder();
      const t = make(server([`{"hello":1}\n${B}\n`]));
      r.attach(t);
      await t.start();
      await r.wait(has(`message ${B}`));
      await t.close();
      return r.log.map((e) => (e.startsWith("error ZodError") ? "error ZodError" : e));
    },
    expected: ["error ZodError", `message ${B}`, "close"],
  },
  {
    name: "CRLF line ends and a message split across writes",
    async run(make) {
      const r = new Recorder();
      const t = make(server([`${A}\r\n${B.slice(0, 7)}`, `${B.slice(7)}\n`]));
      r.attach(t);
      await t.start();
      await r.wait(has(`message ${B}`));
      await t.close();
      return r.log;
    },
    expected: [`message ${A}`, `message ${B}`, "close"],
  },
  {
    // (One write below PIPE_BUF arrives as one chunk, as in the scenario above.)
    name: "a chunk over maxBufferSize: onerror, then the transport closes the child",
    async run(make) {
      const r = new Recorder();
      const t = make({ ...server([`${A}\n${"x".repeat(200)}`]), maxBufferSize: 64 });
      // The SDK counts the whole chunk before reading any line of it: A is lost too.
      r.attach(t);
      await t.start();
      await r.wait(has("close"));
      return r.log;
    },
    expected: ["error Error: ReadBuffer exceeded maximum size of 64 bytes", "close"],
  },
  {
    name: "the child exits on its own: onclose once, pid gone, send refused",
    async run(make) {
      const r = new Recorder();
      const t = make(server([`${A}\n`], "process.exit(3);"));
      r.attach(t);
      await t.start();
      r.push(`pid ${typeof t.pid}`);
      await r.wait(has("close"));
      r.push(`pid ${t.pid}`);
      await t
        .send({ jsonrpc: "2.0", method: "x" })
        .catch((e: Error) => r.push(`send rejected: ${e.message}`));
      await t.close();
      return r.log;
    },
    expected: ["pid number", `message ${A}`, "close", "pid null", "send rejected: Not connected"],
  },
  {
    name: "start twice: the second start is refused with the SDK's message",
    async run(make) {
      const r = new Recorder();
      const t = make(server([]));
      r.attach(t);
      await t.start();
      await t.start().catch((e: Error) => r.push(`start rejected: ${e.message}`));
      await t.close();
      return r.log;
    },
    expected: [
      "start rejected: StdioClientTransport already started! If using Client class, note that connect() calls start() automatically.",
      "close",
    ],
  },
  {
    name: "send before start, close before start",
    async run(make) {
      const r = new Recorder();
      const t = make(server([]));
      r.attach(t);
      await t
        .send({ jsonrpc: "2.0", method: "x" })
        .catch((e: Error) => r.push(`send rejected: ${e.message}`));
      await t.close();
      r.push(`closed, pid ${t.pid}`);
      return r.log;
    },
    expected: ["send rejected: Not connected", "closed, pid null"],
  },
  {
    name: "a command that does not exist: onerror, then start rejects with the same error",
    async run(make) {
      const r = new Recorder();
      const t = make({ command: "/nonexistent/struct-json-bridge-no-such-server" });
      r.attach(t);
      await t.start().catch((e: NodeJS.ErrnoException) => r.push(`start rejected: ${e.code}`));
      return r.log;
    },
    expected: [
      "error Error: spawn /nonexistent/struct-json-bridge-no-such-server ENOENT",
      "start rejected: ENOENT",
    ],
  },
  {
    name: "stderr 'pipe': the stream exists before start and carries the child's stderr",
    async run(make) {
      const r = new Recorder();
      const t = make({
        ...server([`${A}\n`], 'process.stderr.write("warming up\\n");'),
        stderr: "pipe",
      });
      r.attach(t);
      const stderr = t.stderr;
      r.push(`stderr before start: ${stderr === null ? "null" : "stream"}`);
      let text = "";
      stderr?.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("\n")) r.push(`stderr: ${text.trim()}`);
      });
      await t.start();
      await r.wait((log) => log.includes("stderr: warming up") && log.includes(`message ${A}`));
      await t.close();
      return r.log.filter((e) => e !== `message ${A}`);
    },
    expected: ["stderr before start: stream", "stderr: warming up", "close"],
  },
  {
    name: "env and cwd reach the child as with the SDK",
    async run(make) {
      const r = new Recorder();
      const t = make({
        ...server(
          [],
          'process.stdout.write(JSON.stringify({jsonrpc:"2.0",method:"env",params:{cwd:process.cwd(),x:process.env.SJB_X??null,home:process.env.HOME===undefined}})+"\\n");',
        ),
        env: { SJB_X: "1" },
        cwd: "/",
      });
      r.attach(t);
      await t.start();
      await r.wait((log) => log.some((e) => e.includes('"method":"env"')));
      await t.close();
      return r.log;
    },
    expected: [
      `message {"jsonrpc":"2.0","method":"env","params":{"cwd":"/","x":"1","home":${process.env.HOME === undefined}}}`,
      "close",
    ],
  },
];

describe("ExactStdioClientTransport behaves as the SDK's StdioClientTransport", () => {
  test.each(scenarios)("$name", async ({ run, expected }) => {
    const logs: string[][] = [];
    for (const [, make] of TRANSPORTS) logs.push(await run(make));
    expect(logs[0]).toEqual(expected);
    expect(logs[1]).toEqual(logs[0]);
  });

  test("same class surface: a subclass, no session id, no setProtocolVersion", () => {
    const params = server([]);
    const sdk = new StdioClientTransport(params);
    const exact = new ExactStdioClientTransport(params);
    expect(exact).toBeInstanceOf(StdioClientTransport);
    for (const member of ["sessionId", "setProtocolVersion", "stderr", "pid"] as const) {
      expect(member in exact).toBe(member in sdk);
    }
    expect(exact.stderr).toBe(null);
    expect(exact.pid).toBe(null);
  });
});

describe("the SDK internals the exact transports exchange (canary for SDK upgrades)", () => {
  test("the Node HTTP server transport's onmessage is an accessor (the gate sits in front of it)", () => {
    expect(() =>
      sdkAccessor(
        StreamableHTTPServerTransport.prototype,
        "StreamableHTTPServerTransport",
        "onmessage",
      ),
    ).not.toThrow();
    class PlainField {
      onmessage: unknown = undefined;
    }
    expect(() =>
      sdkAccessor(PlainField.prototype, "StreamableHTTPServerTransport", "onmessage"),
    ).toThrow(
      "struct-json-bridge: this @modelcontextprotocol/sdk's StreamableHTTPServerTransport has no onmessage accessor; the exact transport supports @modelcontextprotocol/sdk ^1.32",
    );
  });

  const fields = (target: object) => target as Record<string, unknown>;

  test("the installed SDK has each field with the shape the guard expects, and the exact reader takes its place", async () => {
    const params = server([]);
    const sdkClient = fields(new StdioClientTransport(params));
    expect(sdkClient._readBuffer).toBeInstanceOf(ReadBuffer);
    expect(sdkClient._serverParams).toBe(params);
    const sdkServer = fields(new StdioServerTransport());
    expect(sdkServer._readBuffer).toBeInstanceOf(ReadBuffer);
    expect(sdkServer._stdout).toBe(process.stdout);
    expect(fields(new ExactStdioClientTransport(params))._readBuffer).toBeInstanceOf(
      ExactReadBuffer,
    );
    expect(fields(new ExactStdioServerTransport())._readBuffer).toBeInstanceOf(ExactReadBuffer);
    // _process exists once started (start checks it): send writes to its stdin.
    const started = new ExactStdioClientTransport(params);
    await started.start();
    expect(fields(started)._process).toMatchObject({ stdin: expect.anything() });
    await started.close();
  });

  const expectation = (field: string, shape: SdkFieldShape) =>
    `struct-json-bridge: this @modelcontextprotocol/sdk's StdioServerTransport has no ${field} of the expected shape (${shape}); the exact transport supports @modelcontextprotocol/sdk ^1.32`;
  test.each<[string, object, Record<string, SdkFieldShape>, string | undefined]>([
    [
      "a renamed field",
      { _buffer: new ReadBuffer() },
      { _readBuffer: "read-buffer" },
      "_readBuffer",
    ],
    [
      "a field of another shape",
      { _readBuffer: {} },
      { _readBuffer: "read-buffer" },
      "_readBuffer",
    ],
    ["a writable without once", { _stdout: { write() {} } }, { _stdout: "writable" }, "_stdout"],
    [
      "null where an object was",
      { _serverParams: null },
      { _serverParams: "object" },
      "_serverParams",
    ],
    ["a field declared but unset", { _process: undefined }, { _process: "present" }, undefined],
    ["a field not declared", {}, { _process: "present" }, "_process"],
    [
      "the SDK's own reader",
      { _readBuffer: new ReadBuffer() },
      { _readBuffer: "read-buffer" },
      undefined,
    ],
  ])("sdkInternals: %s", (_label, target, wanted, failing) => {
    const check = () => sdkInternals(target, "StdioServerTransport", wanted);
    if (failing === undefined) expect(check()).toBe(target);
    else expect(check).toThrow(expectation(failing, wanted[failing]!));
  });
});
