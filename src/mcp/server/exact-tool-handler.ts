// A tool handler's side of exactness: integers beyond 2^53 in the arguments
// arrive exactly (bigint, or their JSON text), never rounded; a result's
// bigints are written with their digits, in structuredContent and in its text
// content.

import { type CallToolResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import { type JsonPointer, parsePointer } from "../../json-pointer.js";
import { serializeExactMessage } from "../exact-number.js";
import { buildExactJson } from "../exact-parse.js";
import { STRUCTURED_CONTENT_JSON_META_KEY } from "../exact-result.js";
import { exactInteger, type NumberLoss, numberLoss, suspectNumbers } from "./number-loss.js";
import { ARGUMENTS_JSON_META_KEY } from "./request-gate.js";
import { replaceBigints } from "./wire.js";

/** Options of {@link exactToolHandler}. */
export interface ExactToolHandlerOptions {
  /**
   * How an integer that a JavaScript number cannot hold (9007199254740993)
   * arrives: `"bigint"` (default) or `"text"`, its JSON text as a string.
   * Every other number arrives as a number.
   */
  integers: "bigint" | "text";
}

/** `T` with each number possibly an exact integer `I` (bigint or its text). */
export type ExactArguments<T, I = bigint> = T extends number
  ? number | I
  : T extends readonly (infer U)[]
    ? ExactArguments<U, I>[]
    : T extends object
      ? { [K in keyof T]: ExactArguments<T[K], I> }
      : T;

type JsonRecord = Record<string, unknown>;

/** The least a handler's `extra` holds: the request's `_meta`. */
export interface ToolHandlerExtra {
  _meta?: JsonRecord | undefined;
}

/** What a tool handler returns; `structuredContent` may hold bigints. */
export interface ExactToolResult {
  structuredContent?: JsonRecord | undefined;
  content?: unknown[] | undefined;
  _meta?: JsonRecord | undefined;
  [key: string]: unknown;
}

function invalidParams(loss: Pick<NumberLoss, "code" | "path">, detail: string): McpError {
  return new McpError(
    -32602,
    `${loss.code} at ${loss.path === "" ? "(root)" : loss.path}: ${detail}`,
    {
      errors: [{ code: loss.code, path: loss.path }],
    },
  );
}

/** The arguments' exact JSON text, when the call came through an exact server transport. */
export function exactArgumentsJson(extra: ToolHandlerExtra): string | undefined {
  const text = extra._meta?.[ARGUMENTS_JSON_META_KEY];
  return typeof text === "string" ? text : undefined;
}

/** `args` with each number that `text` writes beyond a JavaScript number's reach replaced by its exact integer. */
function exactArguments(args: unknown, text: string, integers: "bigint" | "text"): unknown {
  const wanted: { path: JsonPointer; text: string }[] = [];
  buildExactJson(text, (written, path) => {
    const code = numberLoss(written);
    if (code === "number-out-of-range") {
      throw invalidParams(
        { code, path: path() },
        "the number is beyond what a JavaScript number holds",
      );
    }
    if (code !== undefined) wanted.push({ path: path(), text: written });
    return 0;
  });
  for (const { path, text: written } of wanted) {
    const tokens = parsePointer(path) ?? [];
    let parent: unknown = args;
    for (const token of tokens.slice(0, -1)) {
      parent =
        parent !== null && typeof parent === "object" ? (parent as JsonRecord)[token] : undefined;
    }
    const last = tokens[tokens.length - 1];
    const current =
      last !== undefined &&
      parent !== null &&
      typeof parent === "object" &&
      Object.hasOwn(parent, last)
        ? (parent as JsonRecord)[last]
        : undefined;
    if (typeof current !== "number" || current !== Number(written)) {
      // The validated arguments no longer hold this number where the text has it (a schema transformed it).
      throw invalidParams(
        { code: "integer-precision-lost", path },
        "this integer cannot be held by a JavaScript number, and the validated arguments do not keep it in place",
      );
    }
    const exact = integers === "text" ? written : exactInteger(written);
    Object.defineProperty(parent, last as string, {
      value: exact,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return args;
}

/** The result with bigints in structuredContent written exactly: their digits recorded for the transport, and as text content. */
function exactResult(result: ExactToolResult): CallToolResult {
  const structured = result.structuredContent;
  if (structured === undefined || structured === null) {
    return (result.content === undefined ? { ...result, content: [] } : result) as CallToolResult;
  }
  const exactText = serializeExactMessage(structured);
  const plain = JSON.parse(exactText) as JsonRecord;
  const needsText = result.content === undefined || result.content.length === 0;
  if (replaceBigints(structured) === structured && exactText === JSON.stringify(plain)) {
    return (
      needsText ? { ...result, content: [{ type: "text", text: exactText }] } : result
    ) as CallToolResult;
  }
  return {
    ...result,
    // Its nearest float64s, for the SDK's outputSchema check; the exact
    // transports write the digits from the text in _meta.
    structuredContent: plain,
    ...(needsText ? { content: [{ type: "text", text: exactText }] } : {}),
    _meta: { ...result._meta, [STRUCTURED_CONTENT_JSON_META_KEY]: exactText },
  } as CallToolResult;
}

/**
 * Wraps a tool handler (for `McpServer.registerTool`, or a low-level
 * `tools/call` handler) so that integers beyond 2^53 in its arguments arrive
 * exactly, as `bigint` (or text, see {@link ExactToolHandlerOptions}), and a
 * result whose `structuredContent` holds bigints is written with their digits
 * (also as the text content, when the handler gives none). List the tool in
 * the exact server transport's `exactTools`. Without an exact transport, an
 * integer beyond 2^53 cannot be trusted and the call is refused
 * (`McpError` -32602 naming the path), never passed on rounded.
 */
export function exactToolHandler<Args, Extra extends ToolHandlerExtra, R extends ExactToolResult>(
  handler: (args: ExactArguments<Args, bigint>, extra: Extra) => R | Promise<R>,
  options?: Partial<ExactToolHandlerOptions> & { integers?: "bigint" },
): (args: Args, extra: Extra) => Promise<CallToolResult>;
export function exactToolHandler<Args, Extra extends ToolHandlerExtra, R extends ExactToolResult>(
  handler: (args: ExactArguments<Args, string>, extra: Extra) => R | Promise<R>,
  options: Partial<ExactToolHandlerOptions> & { integers: "text" },
): (args: Args, extra: Extra) => Promise<CallToolResult>;
export function exactToolHandler<Args, Extra extends ToolHandlerExtra, R extends ExactToolResult>(
  handler: (args: never, extra: Extra) => R | Promise<R>,
  options?: Partial<ExactToolHandlerOptions>,
): (args: Args, extra: Extra) => Promise<CallToolResult> {
  const integers = options?.integers ?? "bigint";
  return async (args, extra) => {
    const text = exactArgumentsJson(extra);
    let exact: unknown = args;
    if (text === undefined) {
      const suspect = suspectNumbers(args)[0];
      if (suspect !== undefined) {
        throw invalidParams(
          suspect,
          "this call did not come through an exact server transport, so this number may have been rounded on arrival",
        );
      }
    } else exact = exactArguments(args, text, integers);
    return exactResult(await handler(exact as never, extra));
  };
}
