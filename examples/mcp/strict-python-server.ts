// The demo's strict Python MCP server (Pydantic StrictInt/StrictFloat, the
// official `mcp` Python SDK from .venv): its stdio parameters, or started over
// Streamable HTTP on 127.0.0.1 with an ephemeral port.

import { type ChildProcess, spawn } from "node:child_process";
import type { StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const PYTHON = `${ROOT}.venv/bin/python`;

/** How to start the strict server over stdio (for a stdio client transport). */
export const strictStdioServer: StdioServerParameters = {
  command: PYTHON,
  args: [`${ROOT}examples/demo/strict-mcp-server.py`],
  stderr: "ignore",
};

/** A running server: its MCP endpoint and how to stop it. */
export interface RunningServer {
  readonly url: URL;
  close(): Promise<void>;
}

/** Starts the strict server over Streamable HTTP (SSE responses, or JSON bodies with `json`). */
export async function startStrictHttpServer(options: { json: boolean }): Promise<RunningServer> {
  const child: ChildProcess = spawn(
    PYTHON,
    [`${ROOT}examples/mcp/strict-http-server.py`, ...(options.json ? ["--json"] : [])],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const guard = setTimeout(() => reject(new Error("the Python server did not start")), 60_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match !== null) {
        clearTimeout(guard);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(guard);
      reject(
        new Error(
          `the Python server exited (${code}); run \`bash examples/demo/setup-python.sh\` first`,
        ),
      );
    });
  });
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      child.stdin?.end(); // the server ends when its stdin closes
      await exited;
    },
  };
}
