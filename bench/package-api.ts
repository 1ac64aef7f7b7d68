// Loads the package's functions lazily and loosely typed, so that the harness
// runs (baselines only) at every stage of development: a function that is not
// exported yet, or a module that does not load, makes our rows "n/a".

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** The package functions the benchmark calls; each is undefined until the package exports it. */
export interface PackageApi {
  /** `structMessageToJson(struct, schema, options)`: a Struct message (kept under its old bench id). */
  readonly structToJson:
    | ((struct: unknown, schema?: unknown, options?: object) => string)
    | undefined;
  /** `structToJson(object, schema, options)`: the JsonObject of a Struct field (old bench id). */
  readonly jsonObjectToJson:
    | ((object: unknown, schema?: unknown, options?: object) => string)
    | undefined;
  /** `compileSchema(schema)`. */
  readonly compileSchema: ((schema: unknown) => unknown) | undefined;
  /** `structMessageFromJson(text, options)`. */
  readonly structMessageFromJson: ((json: string, options?: object) => unknown) | undefined;
  /** `toolCallFromJson(init, options)`. */
  readonly toolCallFromJson:
    | ((init: { name: string; argumentsJson: string }, options?: object) => unknown)
    | undefined;
  /** `toolCallToJson(call, schema, options)`. */
  readonly toolCallToJson:
    | ((call: unknown, schema?: unknown, options?: object) => string)
    | undefined;
  /** Why the package did not load at all, if it did not. */
  readonly loadError: string | undefined;
}

type AnyFunction = (...args: never[]) => unknown;

function pick<T>(mod: Record<string, unknown>, name: string): T | undefined {
  const f = mod[name];
  return typeof f === "function" ? (f as AnyFunction as T) : undefined;
}

/**
 * Where the package is loaded from: src/ through tsx by default, or the compiled
 * index.js named by the BENCH_PACKAGE environment variable (`main.ts --built` sets it).
 * tsx wraps every function it compiles in a `__name` call (esbuild's keepNames), which
 * costs something wherever the package creates closures per call; the compiled code does not.
 */
export function packageSource(): string {
  return process.env.BENCH_PACKAGE ?? "src/ (TypeScript through tsx)";
}

/** Imports the package (see {@link packageSource}); never throws. */
export async function loadPackageApi(): Promise<PackageApi> {
  let mod: Record<string, unknown> = {};
  let loadError: string | undefined;
  try {
    const built = process.env.BENCH_PACKAGE;
    mod = (built === undefined
      ? await import("../src/index.js")
      : await import(pathToFileURL(resolve(built)).href)) as unknown as Record<string, unknown>;
  } catch (e) {
    loadError = e instanceof Error ? `${e.name}: ${e.message.split("\n")[0]}` : String(e);
  }
  const api: PackageApi = {
    structToJson: pick(mod, "structMessageToJson"),
    jsonObjectToJson: pick(mod, "structToJson"),
    compileSchema: pick(mod, "compileSchema"),
    structMessageFromJson: pick(mod, "structMessageFromJson"),
    toolCallFromJson: pick(mod, "toolCallFromJson"),
    toolCallToJson: pick(mod, "toolCallToJson"),
    loadError,
  };
  return Object.freeze(api);
}

/** A short, value-free description of an error thrown by an operation (code and path when it has them). */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const { code, path } = e as Error & { code?: unknown; path?: unknown };
    if (typeof code === "string" && typeof path === "string") {
      return `${code} at ${path === "" ? "(root)" : path}`;
    }
    if (/not yet/i.test(e.message)) return "not implemented yet";
    return `${e.name}: ${e.message.split("\n")[0]!.slice(0, 120)}`;
  }
  return String(e).slice(0, 120);
}
