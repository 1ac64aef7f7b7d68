// The struct-json-bridge command without the process around it: argv in,
// output through a CliIo, an exit status back. Every failure is one line on
// stderr and a documented exit status.

import { readFileSync } from "node:fs";
import { isStackOverflow } from "../errors.js";
import {
  CliError,
  type ExitCode,
  errorLine,
  fromStructJsonError,
  inputError,
  PROGRAM,
} from "./cli-error.js";
import type { CliIo } from "./cli-io.js";
import { DECODE_HELP, decodeCommand } from "./decode-command.js";
import { ENCODE_HELP, encodeCommand } from "./encode-command.js";
import { INSPECT_HELP, inspectCommand } from "./inspect-command.js";

/** `struct-json-bridge --help`. */
const MAIN_HELP = `Usage: ${PROGRAM} <command> [options]

Carries LLM tool calls through protobuf without corrupting their numbers.

Commands:
  decode [FILE|-]          message (binary or ProtoJSON) → arguments JSON text
  encode --name NAME [FILE|-]
                           arguments JSON text → ClientAction
  inspect FILE --schema F  per number: path, Struct value, raw text, schema
                           reading, output text, diagnostics

Run "${PROGRAM} <command> --help" for a command's options.

Exit status: 0 ok, 1 input rejected (malformed, truncated, too large (64 MiB)
or ambiguous input, an unreadable file or schema, arguments that disagree with
raw_args_json) or stdout that cannot be written, 2 usage error (unknown command
or option, a missing or invalid value), 70 internal error (a bug: please report it).

A failure is one line on stderr: "${PROGRAM}: CODE at PATH: what is wrong",
built from codes, JSON Pointer paths and positions, never from input values.`;

const COMMANDS: Record<string, { run: (argv: readonly string[], io: CliIo) => 0; help: string }> = {
  decode: { run: decodeCommand, help: DECODE_HELP },
  encode: { run: encodeCommand, help: ENCODE_HELP },
  inspect: { run: inspectCommand, help: INSPECT_HELP },
};

function version(): string {
  for (const rel of ["../../../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === PROGRAM && typeof pkg.version === "string") return pkg.version;
    } catch {
      // try the next layout (dist/src/cli or src/cli)
    }
  }
  return "unknown";
}

/** Runs the CLI with `argv` (without node and the script) and returns the exit status. */
export function runCli(argv: readonly string[], io: CliIo): ExitCode {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      // `help decode`, `--help decode`: that command's help.
      const named = rest[0];
      const topic =
        named !== undefined && Object.hasOwn(COMMANDS, named) ? COMMANDS[named] : undefined;
      if (named !== undefined && topic === undefined) throw unknownCommand();
      if (rest.length > (named === undefined ? 0 : 1)) throw unexpectedArguments();
      if (command === undefined) {
        io.stderr(MAIN_HELP);
        return 2;
      }
      io.stdout(`${topic?.help ?? MAIN_HELP}\n`);
      return 0;
    }
    if (command === "--version" || command === "-v") {
      if (rest.length > 0) throw unexpectedArguments();
      io.stdout(`${version()}\n`);
      return 0;
    }
    const cmd = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (cmd === undefined) throw unknownCommand();
    return cmd.run(rest, io);
  } catch (e) {
    const error = asCliError(e);
    io.stderr(errorLine(error));
    return error.exitCode;
  }
}

function unexpectedArguments(): CliError {
  return new CliError(
    2,
    "usage-error",
    "--help and help take one COMMAND at most; --version takes none",
  );
}

function unknownCommand(): CliError {
  return new CliError(
    2,
    "usage-error",
    "unknown command (the commands are decode, encode and inspect)",
  );
}

/**
 * Any failure as one of ours. The library's errors keep their code and path
 * (into the arguments); a stack overflow is input nesting deeper than this
 * runtime can hold; anything else is a bug, described by its class alone,
 * since a foreign error's text may quote the input.
 */
function asCliError(e: unknown): CliError {
  if (e instanceof CliError) return e;
  const ours = fromStructJsonError(e);
  if (ours !== undefined) return ours;
  if (isStackOverflow(e)) {
    return inputError(
      "recursion-limit",
      "the input nests deeper than this runtime's stack can hold",
      {
        cause: e,
      },
    );
  }
  const kind = e instanceof Error && /^[A-Za-z]{1,40}$/.test(e.name) ? e.name : "failure";
  return new CliError(70, "internal-error", `an unexpected ${kind} (a bug: please report it)`, {
    cause: e,
  });
}
