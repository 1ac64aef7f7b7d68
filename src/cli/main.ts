#!/usr/bin/env node
// The struct-json-bridge command: decode, encode and inspect tool-call
// messages. Every failure is one line on stderr and a documented exit status.

import type { CliIo } from "./cli-io.js";
import { runCli } from "./run-cli.js";

/** Runs as the process: real stdout/stderr, exit status in process.exitCode. */
function main(): void {
  // A closed pipe (e.g. `| head`) is not an error of ours.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
  });
  const io: CliIo = {
    stdout: (chunk) => process.stdout.write(chunk),
    stderr: (line) => process.stderr.write(`${line}\n`),
  };
  process.exitCode = runCli(process.argv.slice(2), io);
}

main();
