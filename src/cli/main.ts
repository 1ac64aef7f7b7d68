#!/usr/bin/env node
// The struct-json-bridge command: decode, encode and inspect tool-call
// messages. Every failure is one line on stderr and a documented exit status.

import { writeSync } from "node:fs";
import { CliError } from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import { runCli } from "./run-cli.js";

const utf8 = new TextEncoder();

/** Waits a few milliseconds without spinning (a non-blocking pipe is full). */
function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
}

/**
 * Writes all of `chunk` to `fd` before returning, so that a failure is known
 * where it happens: "closed" when the reader has gone (EPIPE), the error's
 * system code (ENOSPC) when it cannot be written, undefined when written.
 */
function writeAll(fd: number, chunk: string | Uint8Array): string | undefined {
  const bytes = typeof chunk === "string" ? utf8.encode(chunk) : chunk;
  let at = 0;
  while (at < bytes.length) {
    try {
      at += writeSync(fd, bytes, at, bytes.length - at);
    } catch (e) {
      const code = (e as { code?: unknown } | null)?.code;
      if (code === "EAGAIN") {
        pause();
        continue;
      }
      if (code === "EPIPE") return "closed";
      return typeof code === "string" && /^E[A-Z0-9]{1,20}$/.test(code) ? code : "failed";
    }
  }
  return undefined;
}

/** Runs as the process: real stdout/stderr, exit status in process.exitCode. */
function main(): void {
  let stdoutClosed = false;
  let stderrFailed = false;
  const io: CliIo = {
    stdout: (chunk) => {
      if (stdoutClosed) return;
      const problem = writeAll(1, chunk);
      // A closed pipe (`| head -c1`) is the reader's choice, not a failure.
      if (problem === "closed") stdoutClosed = true;
      else if (problem !== undefined) {
        // Thrown into the command: the output is incomplete, and this is the one error line.
        throw new CliError(1, "output-unwritable", `cannot write stdout: ${problem}`);
      }
    },
    stderr: (line) => {
      const problem = writeAll(2, `${line}\n`);
      // Nothing can be said where stderr cannot be written: the status says it.
      if (problem !== undefined && problem !== "closed") stderrFailed = true;
    },
  };
  const status = runCli(process.argv.slice(2), io);
  process.exitCode = stderrFailed && status === 0 ? 1 : status;
}

main();
