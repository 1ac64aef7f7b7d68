// The CLI's own failures, with the exit code each one means.

/** Exit status: 0 success, 1 input rejected, 2 usage error. */
export type ExitCode = 0 | 1 | 2;

/** A failure to report as one line on stderr, then exit with `exitCode`. */
export class CliError extends Error {
  override name = "CliError";
  /** 1: the input was rejected (unreadable, malformed, ambiguous); 2: the command line was wrong. */
  readonly exitCode: 1 | 2;

  constructor(exitCode: 1 | 2, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.exitCode = exitCode;
  }
}

/** A command-line mistake (exit 2). */
export function usageError(message: string): CliError {
  return new CliError(2, message);
}

/** An input the CLI cannot use (exit 1). */
export function inputError(message: string, cause?: unknown): CliError {
  return new CliError(1, message, cause === undefined ? undefined : { cause });
}
