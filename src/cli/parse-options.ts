// Command-line parsing shared by the commands: node:util's parseArgs in strict
// mode, with its errors turned into one-line usage errors.

import { parseArgs } from "node:util";
import { usageError } from "./cli-error.js";

/** The option spec parseArgs takes (string-valued options and boolean flags). */
export type OptionSpec = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Parsed options and positionals. */
export interface ParsedArgs {
  /** Option values by name (strings, or true for flags). */
  readonly values: Record<string, string | boolean | undefined>;
  /** Arguments that are not options. */
  readonly positionals: readonly string[];
}

/** Parses `argv` (after the command name); unknown options and missing values are usage errors. */
export function parseOptions(
  command: string,
  argv: readonly string[],
  options: OptionSpec,
): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedArgs["values"], positionals };
  } catch (e) {
    // parseArgs' messages go on with advice about "--"; the first sentence is the point.
    const why = (e instanceof Error ? e.message : String(e)).split(/\.(\s|$)/)[0]!;
    throw usageError(`${command}: ${why}`);
  }
}

/** One of `allowed`, or a usage error naming the option. */
export function choice<T extends string>(
  option: string,
  value: string | boolean | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value))
    return value as T;
  throw usageError(`--${option} must be ${allowed.join(" or ")}, not ${JSON.stringify(value)}`);
}

/** The single input name among the positionals ("-" when there is none). */
export function singleInput(command: string, positionals: readonly string[]): string {
  if (positionals.length > 1)
    throw usageError(`${command}: expected one input FILE, got ${positionals.length}`);
  return positionals[0] ?? "-";
}
