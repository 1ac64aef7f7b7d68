import type { StructJsonErrorCode } from "./codes.js";
import type { JsonPointer } from "./json-pointer.js";

export type { StructJsonErrorCode } from "./codes.js";

/**
 * The one error this package throws for bad input. `path` is an RFC 6901 JSON
 * Pointer into the arguments ("" for the root); the message names the path and
 * the rule, never an argument value (values may be private).
 */
export class StructJsonError extends Error {
  override name = "StructJsonError";
  /** What rule was broken; stable, for programs to branch on. */
  readonly code: StructJsonErrorCode;
  /** Where, as an RFC 6901 JSON Pointer into the arguments. */
  readonly path: JsonPointer;
  /** Character offset into the JSON text, for errors found while parsing text. */
  readonly position: number | undefined;

  constructor(
    code: StructJsonErrorCode,
    path: JsonPointer,
    detail: string,
    options?: { cause?: unknown; position?: number },
  ) {
    super(
      `${code} at ${path === "" ? "(root)" : path}: ${detail}`,
      options?.cause === undefined ? undefined : { cause: withholdForeignText(options.cause) },
    );
    this.code = code;
    this.path = path;
    this.position = options?.position;
  }
}

/**
 * What a {@link StructJsonError} keeps as its `cause`: our own errors (their
 * messages name paths and rules only) as they are; anything else (protobuf-es,
 * lossless-json and `JSON.parse` messages quote the input) as a stand-in that
 * keeps only the error's class name, never its message or stack.
 */
function withholdForeignText(cause: unknown): unknown {
  if (isStructJsonError(cause)) return cause;
  const name =
    cause instanceof Error && /^[A-Za-z]{1,40}$/.test(cause.name) ? cause.name : "a thrown value";
  return new Error(`${name} (its message is withheld: it may quote the input)`);
}

/** True when `e` is a {@link StructJsonError} (also across package copies). */
export function isStructJsonError(e: unknown): e is StructJsonError {
  return (
    e instanceof StructJsonError ||
    (e instanceof Error &&
      e.name === "StructJsonError" &&
      typeof (e as Partial<StructJsonError>).code === "string" &&
      typeof (e as Partial<StructJsonError>).path === "string")
  );
}

/**
 * True when `e` is the engine's stack overflow: V8's and JavaScriptCore's
 * RangeError ("Maximum call stack size exceeded"), SpiderMonkey's
 * InternalError ("too much recursion"). The package's one test for it.
 */
export function isStackOverflow(e: unknown): boolean {
  if (e instanceof RangeError) return /call stack/i.test(e.message);
  return e instanceof Error && e.name === "InternalError" && /too much recursion/i.test(e.message);
}

/**
 * Turns an engine stack overflow into the documented `recursion-limit` error, so
 * callers never see a bare RangeError even when they raise `recursionLimit`.
 */
export function rethrowStackOverflow(e: unknown, path: JsonPointer = ""): never {
  if (isStackOverflow(e)) {
    throw new StructJsonError("recursion-limit", path, "nesting exceeds the runtime's stack", {
      cause: e,
    });
  }
  throw e;
}
