// The CLI's failures, with the exit code each one means. Every line the CLI
// prints about a failure is built here, from a code, a JSON Pointer and a
// fixed sentence: never from an input value or from another library's text.

import { isStructJsonError, type StructJsonErrorCode } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";
import { displayPath, oneLine } from "./display.js";

/** The command's name, which starts every line it writes to stderr. */
export const PROGRAM = "struct-json-bridge";

/** Exit status: 0 success, 1 input rejected, 2 usage error, 70 internal error. */
export type ExitCode = 0 | 1 | 2 | 70;

/** The CLI's own codes, beside the library's {@link StructJsonErrorCode}s. */
export type CliErrorCode =
  /** The command line is wrong (exit 2). */
  | "usage-error"
  /** A file (or stdin) cannot be read. */
  | "input-unreadable"
  /** A file (or stdin) holds more bytes than the CLI reads (INPUT_BYTE_LIMIT). */
  | "input-too-large"
  /** Stdout cannot be written (a full disk); a closed pipe is not this. */
  | "output-unwritable"
  /** The input message cannot be told apart from another type: pass --type. */
  | "message-ambiguous"
  /** The --schema file has no tool for this message, or several. */
  | "tool-not-found"
  /** A bug of ours (exit 70). */
  | "internal-error";

/** Every code an error line can start with. */
export type ErrorLineCode = CliErrorCode | StructJsonErrorCode;

/** Where an error is: a JSON Pointer, and the document it points into (default: the arguments). */
export interface ErrorPlace {
  readonly path?: JsonPointer | undefined;
  readonly document?: string | undefined;
}

/** A failure to report as one line on stderr, then exit with `exitCode`. */
export class CliError extends Error {
  override name = "CliError";
  /** 1: the input was rejected; 2: the command line was wrong; 70: a bug. */
  readonly exitCode: 1 | 2 | 70;
  /** What rule was broken. */
  readonly code: ErrorLineCode;
  /** Where, as a JSON Pointer into `document`; undefined when no place applies. */
  readonly path: JsonPointer | undefined;
  /** The document `path` points into ("the input message"); undefined: the arguments. */
  readonly document: string | undefined;
  /** A fixed sentence (no input values). */
  readonly detail: string;

  constructor(
    exitCode: 1 | 2 | 70,
    code: ErrorLineCode,
    detail: string,
    options?: ErrorPlace & { cause?: unknown },
  ) {
    super(
      `${code}${options?.path === undefined ? "" : ` at ${options.path}`}: ${detail}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.exitCode = exitCode;
    this.code = code;
    this.path = options?.path;
    this.document = options?.document;
    this.detail = detail;
  }
}

/** A command-line mistake (exit 2). */
export function usageError(detail: string): CliError {
  return new CliError(2, "usage-error", detail);
}

/** An input the CLI cannot use (exit 1). */
export function inputError(
  code: ErrorLineCode,
  detail: string,
  options?: ErrorPlace & { cause?: unknown },
): CliError {
  return new CliError(1, code, detail, options);
}

/**
 * The detail sentence of one of the library's errors: its message is
 * `code at path: detail`, built from the code and the path (see errors.ts).
 */
function structJsonDetail(e: { message: string; code: string; path: string }): string {
  const prefix = `${e.code} at ${e.path === "" ? "(root)" : e.path}: `;
  const message = String(e.message);
  return message.startsWith(prefix) ? message.slice(prefix.length) : "rejected";
}

/**
 * One of the library's errors as a CLI error; `document` names what its path
 * points into when that is not the arguments ("the input message").
 */
export function fromStructJsonError(e: unknown, document?: string): CliError | undefined {
  if (!isStructJsonError(e)) return undefined;
  return inputError(e.code, structJsonDetail(e), { path: e.path, document, cause: e });
}

/**
 * The stderr line for an error, `code[ at path[ of document]]: detail`: one
 * line whatever the path holds.
 */
export function errorLine(e: CliError): string {
  const of = e.document === undefined ? "" : ` of ${e.document}`;
  const at =
    e.path === undefined ? "" : ` at ${e.path === "" ? "(root)" : displayPath(e.path)}${of}`;
  const help = e.exitCode === 2 ? " (see --help)" : "";
  return `${PROGRAM}: ${e.code}${at}: ${oneLine(e.detail)}${help}`;
}
