// Where a command writes: injected so that commands stay plain functions.

import type { Diagnostic } from "../diagnostics.js";
import { displayPath } from "./display.js";

/** The CLI's outputs. */
export interface CliIo {
  /** Writes to stdout (text or bytes, as given). */
  stdout(chunk: string | Uint8Array): void;
  /** Writes one line to stderr (the newline is added). */
  stderr(line: string): void;
}

/**
 * Writes one diagnostic as `path<TAB>code` on stderr (the path is "" for the
 * root; control characters and backslashes in it are escaped).
 */
export function printDiagnostic(io: CliIo, d: Diagnostic): void {
  io.stderr(`${displayPath(d.path)}\t${d.code}`);
}

/**
 * Collects diagnostics and prints them once the command has succeeded: when
 * the input is rejected, the one-line error is all that is printed.
 */
export function diagnosticsAfterSuccess(io: CliIo): {
  onDiagnostic: (d: Diagnostic) => void;
  flush(): void;
} {
  const list: Diagnostic[] = [];
  return {
    onDiagnostic: (d) => list.push(d),
    flush: () => {
      for (const d of list) printDiagnostic(io, d);
    },
  };
}
