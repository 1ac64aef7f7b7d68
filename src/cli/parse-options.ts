// Command-line parsing shared by the commands. node:util's parseArgs splits
// the arguments into tokens; the rules (and every message) are ours, so that
// no argument value is ever echoed back.

import { parseArgs } from "node:util";
import { usageError } from "./cli-error.js";

/** The options a command takes: string-valued options and boolean flags. */
export type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Parsed options and positionals. */
export interface ParsedArgs {
  /** Option values by name (strings, or true for flags). */
  readonly values: Record<string, string | boolean | undefined>;
  /** Arguments that are not options. */
  readonly positionals: readonly string[];
}

/**
 * Every long option of every command. An unknown option is named in the
 * error line only when it is one of these (another command's option): any
 * other spelling is an argument of the command line, which may be a pasted
 * secret, and is never echoed.
 */
const CLI_OPTIONS: ReadonlySet<string> = new Set([
  "schema",
  "tool",
  "format",
  "type",
  "raw",
  "whole-floats",
  "name",
  "server-id",
  "action-id",
  "help",
]);

/** " --name" for another command's option or a one-letter short option; "" for anything else (never echoed). */
function optionName(rawName: string): string {
  const known = rawName.startsWith("--") && CLI_OPTIONS.has(rawName.slice(2));
  return known || /^-[A-Za-z0-9]$/.test(rawName) ? ` ${rawName}` : "";
}

/**
 * Parses `argv` (after the command name). Unknown options, missing values,
 * values on flags and options given twice are usage errors.
 */
export function parseOptions(
  command: string,
  argv: readonly string[],
  options: OptionSpec,
): ParsedArgs {
  const spec: OptionSpec = { ...options, help: { type: "boolean", short: "h" } };
  const { tokens } = parseArgs({
    args: [...argv],
    options: spec,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const values: Record<string, string | boolean | undefined> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === "positional") {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === "option-terminator") {
      // parseArgs also ends the options at a "-" inside a group of short
      // options ("-h-"): only "--" itself does.
      if (argv[token.index] !== "--") throw usageError(`${command}: unknown option`);
      continue;
    }
    const option = Object.hasOwn(spec, token.name) ? spec[token.name] : undefined;
    if (option === undefined) {
      throw usageError(`${command}: unknown option${optionName(token.rawName)}`);
    }
    const name = `--${token.name}`;
    if (Object.hasOwn(values, token.name)) throw usageError(`${command}: ${name} is given twice`);
    if (option.type === "boolean") {
      if (token.value !== undefined) throw usageError(`${command}: ${name} takes no value`);
      values[token.name] = true;
      continue;
    }
    // As parseArgs' strict mode: a value that looks like an option must be
    // written inline (--schema=-x), else it is a forgotten value.
    const value = token.value;
    if (value === undefined || (!token.inlineValue && value.length > 1 && value.startsWith("-"))) {
      throw usageError(`${command}: ${name} needs a value`);
    }
    values[token.name] = value;
  }
  return { values, positionals };
}

/** One of `allowed`, or a usage error naming the option (never the value given). */
export function choice<T extends string>(
  option: string,
  value: string | boolean | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value))
    return value as T;
  throw usageError(`--${option} must be ${allowed.join(" or ")}`);
}

/**
 * A string option whose value becomes message content or names a tool
 * (--name, --server-id, --action-id, --tool); undefined when not given.
 * Node decodes the command line as UTF-8 and puts U+FFFD for bytes that are
 * not: such a value is refused rather than carried changed.
 */
export function textOption(
  command: string,
  option: string,
  value: string | boolean | undefined,
): string | undefined {
  if (typeof value !== "string") return undefined;
  if (value.includes("\ufffd")) {
    throw usageError(
      `${command}: --${option} is not valid UTF-8 (it holds U+FFFD, the mark of bytes that are not)`,
    );
  }
  return value;
}

/** The single input name among the positionals ("-" when there is none). */
export function singleInput(command: string, positionals: readonly string[]): string {
  if (positionals.length > 1)
    throw usageError(`${command}: expected one input FILE, got ${positionals.length}`);
  return positionals[0] ?? "-";
}

/** Stdin can be read once: not for both the input and the --schema file. */
export function checkOneStdin(
  command: string,
  input: string,
  schemaFile: string | undefined,
): void {
  if (input === "-" && schemaFile === "-") {
    throw usageError(
      `${command}: stdin cannot be both the input and the --schema file (give one of them a FILE)`,
    );
  }
}
