// Reading the CLI's inputs: a file, or stdin for "-". Messages name the
// input by its role ("the input", "the --schema file"), never by the path
// given on the command line. Reading stops at INPUT_BYTE_LIMIT, so that a
// huge file, an endless device (/dev/zero) or an endless pipe is a clear
// error after bounded work, never a hang or an exhausted memory.

import { closeSync, openSync, readSync } from "node:fs";
import { type CliError, inputError } from "./cli-error.js";

/** Where the input comes from: a file path, or "-" for stdin. */
export type InputName = string;

/** What an input is for, as messages name it: "the input", "the --schema file". */
export type InputRole = string;

/** How error lines name the input FILE (or stdin): the message, or encode's argument text. */
export const INPUT_FILE: InputRole = "the input";

/**
 * The most bytes an input (a message, an argument text, a --schema file) may
 * have: 64 MiB, far beyond any tool call, well within what one JavaScript
 * string and the parsers' work can hold.
 */
export const INPUT_BYTE_LIMIT = 64 * 1024 * 1024;

const CHUNK_BYTES = 64 * 1024;

/** Waits a few milliseconds without spinning (stdin may be non-blocking). */
function pause(): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
}

/** Every byte from `fd` to its end; `too-large` once more than `limit` bytes arrive. */
function readToEnd(fd: number, limit: number): Uint8Array | "too-large" {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const chunk = new Uint8Array(CHUNK_BYTES);
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      // A non-blocking stdin (a terminal or pipe shared with another process)
      // has no data yet: wait for it, as readFileSync would not.
      if ((e as { code?: unknown }).code === "EAGAIN") {
        pause();
        continue;
      }
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > limit) return "too-large";
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  return Buffer.concat(chunks, total);
}

/** Why a read failed, in a word the error line may show (never the path). */
function readProblem(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code;
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return "no such file";
    case "EISDIR":
      return "it is a directory";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    default:
      return typeof code === "string" && /^E[A-Z0-9]{1,20}$/.test(code) ? code : "unreadable";
  }
}

/** All bytes of a file, or of stdin for "-", up to {@link INPUT_BYTE_LIMIT}. */
export function readBytes(name: InputName, role: InputRole): Uint8Array {
  let result: Uint8Array | "too-large";
  try {
    const fd = name === "-" ? 0 : openSync(name, "r");
    try {
      result = readToEnd(fd, INPUT_BYTE_LIMIT);
    } finally {
      if (fd !== 0) closeSync(fd);
    }
  } catch (e) {
    throw inputError("input-unreadable", `cannot read ${role}: ${readProblem(e)}`, { cause: e });
  }
  if (result === "too-large") {
    throw inputError(
      "input-too-large",
      `${role} is larger than the limit of ${INPUT_BYTE_LIMIT} bytes (64 MiB)`,
    );
  }
  return result;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The error for bytes that start with a byte order mark, which neither JSON
 * text (RFC 8259 §8.1) nor binary protobuf begins with: editors on Windows
 * write one. Undefined for bytes without one.
 */
export function byteOrderMarkError(bytes: Uint8Array, role: InputRole): CliError | undefined {
  const [a, b, c] = bytes;
  if (a === 0xef && b === 0xbb && c === 0xbf) {
    return inputError(
      "invalid-json",
      `${role} starts with a UTF-8 byte order mark (U+FEFF) at position 0: JSON text has none`,
    );
  }
  if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) {
    return inputError(
      "invalid-unicode",
      `${role} is UTF-16 text (it starts with a UTF-16 byte order mark), not UTF-8`,
    );
  }
  return undefined;
}

/** UTF-8 text as is, byte for byte; `invalid-unicode` for anything else. */
export function utf8Text(bytes: Uint8Array, role: InputRole): string {
  const bom = byteOrderMarkError(bytes, role);
  if (bom !== undefined) throw bom;
  try {
    return utf8.decode(bytes);
  } catch (e) {
    throw inputError("invalid-unicode", `${role} is not valid UTF-8 text`, { cause: e });
  }
}

/** A file (or stdin) as UTF-8 text, byte for byte. */
export function readText(name: InputName, role: InputRole): string {
  return utf8Text(readBytes(name, role), role);
}
