// What the CLI's test files share: input files in a temporary directory, the
// CLI run in-process (runCli with a recording CliIo), and binary messages
// written by hand where protobuf-es would refuse to write them.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { afterAll } from "vitest";
import type { CliIo } from "../src/cli/cli-io.js";
import { runCli } from "../src/cli/run-cli.js";

/** A temporary directory, removed after the calling test file; `file` writes a new file in it. */
export function tempFiles(prefix: string): {
  readonly dir: string;
  file(content: string | Uint8Array): string;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let count = 0;
  return {
    dir,
    file(content) {
      const path = join(dir, `f${count++}`);
      writeFileSync(path, content);
      return path;
    },
  };
}

/** What a run of the CLI gave: its exit status, stdout (bytes as latin1) and stderr lines. */
export interface Outcome {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process and records what it writes; `io.stdout`, when
 * given, sees each chunk first (and may throw, as a failing stdout does).
 */
export function runInProcess(argv: readonly string[], io?: Partial<CliIo>): Outcome {
  let stdout = "";
  let stderr = "";
  const status = runCli(argv, {
    stdout: (chunk) => {
      io?.stdout?.(chunk);
      stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("latin1");
    },
    stderr: (line) => {
      stderr += `${line}\n`;
    },
  });
  return { status, stdout, stderr };
}

/**
 * A binary CallMCPTool named "t" whose args hold one member, written by hand
 * (`value` is a google.protobuf.Value's bytes) so that it may be what
 * protobuf-es would refuse to write.
 */
export function binaryCall(key: string, value: Uint8Array): Uint8Array {
  const entry = new BinaryWriter()
    .tag(1, WireType.LengthDelimited)
    .string(key)
    .tag(2, WireType.LengthDelimited)
    .bytes(value)
    .finish();
  const struct = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(entry).finish();
  return new BinaryWriter()
    .tag(2, WireType.LengthDelimited)
    .string("t")
    .tag(3, WireType.LengthDelimited)
    .bytes(struct)
    .finish();
}
