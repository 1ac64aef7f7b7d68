// A tool handler's side of exactness: integers beyond 2^53 in the arguments
// arrive exactly (bigint, or their JSON text), never rounded; a result's
// bigints are written with their digits, in structuredContent and in its text
// content.

import { type CallToolResult, McpError } from "@modelcontextprotocol/sdk/types.js";
import { type JsonPointer, pointerFrom } from "../../json-pointer.js";
import { checkOneOf, makeOptions } from "../../options.js";
import { setOwnProperty } from "../../struct/own-property.js";
import { serializeExactMessage } from "../exact-number.js";
import { buildExactJson } from "../exact-parse.js";
import { STRUCTURED_CONTENT_JSON_META_KEY } from "../exact-result.js";
import { exactInteger, type NumberLoss, numberLoss, suspectNumbers } from "./number-loss.js";
import { vettedArgumentsJson } from "./request-gate.js";
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

const handlerDefaults: Readonly<ExactToolHandlerOptions> = Object.freeze({ integers: "bigint" });

/** `T` with each number possibly an exact integer `I` (bigint or its text). */
export type ExactArguments<T, I = bigint> = T extends number
  ? number | I
  : T extends readonly (infer U)[]
    ? ExactArguments<U, I>[]
    : T extends object
      ? { [K in keyof T]: ExactArguments<T[K], I> }
      : T;

/** A JSON object as handlers and results carry it (`_meta`, `structuredContent`). */
export type JsonRecord = Record<string, unknown>;

/** The least a handler's `extra` holds: the request's `_meta`. */
export interface ToolHandlerExtra {
  _meta?: JsonRecord | undefined;
}

/**
 * What {@link exactToolHandler} returns: a tool callback for `McpServer.registerTool`
 * with an `inputSchema` (called with the arguments and `extra`) or without one
 * (called with `extra` alone), or for a low-level `tools/call` handler.
 */
export type ExactToolCallback<Args, Extra> = ((
  args: Args,
  extra: Extra,
) => Promise<CallToolResult>) &
  ((extra: NoInfer<Extra>) => Promise<CallToolResult>);

/** What a tool handler returns; `structuredContent` may hold bigints. */
export interface ExactToolResult {
  structuredContent?: JsonRecord | undefined;
  content?: unknown[] | undefined;
  _meta?: JsonRecord | undefined;
  [key: string]: unknown;
}

function invalidParams(
  loss: Pick<NumberLoss, "code" | "path">,
  detail: string,
  member?: "_meta",
): McpError {
  const where = `${loss.path === "" ? "(root)" : loss.path}${member === undefined ? "" : ` of ${member}`}`;
  const error = { code: loss.code, path: loss.path };
  return new McpError(-32602, `${loss.code} at ${where}: ${detail}`, {
    errors: [member === undefined ? error : { ...error, member }],
  });
}

const UNGATED =
  "this call did not come through an exact server transport, so this number may have been rounded on arrival";

/**
 * The arguments' exact JSON text, when the call came through an exact server
 * transport: only the text that transport put in `extra._meta` (that very
 * object, the text unchanged) counts; a string a client sent under
 * `ARGUMENTS_JSON_META_KEY` past a plain transport does not.
 */
export function exactArgumentsJson(extra: ToolHandlerExtra): string | undefined {
  return vettedArgumentsJson(extra._meta);
}

/** An integer of the exact text that a JavaScript number cannot hold, and what the handler gets for it. */
class ExactInteger {
  constructor(
    readonly text: string,
    readonly value: bigint | string,
  ) {}
}

interface Node {
  readonly value: unknown;
  readonly exact: unknown;
  readonly parent: Node | undefined;
  readonly token: string | number;
}

function pathOf(node: Node): JsonPointer {
  const tokens: (string | number)[] = [];
  for (let n: Node | undefined = node; n?.parent !== undefined; n = n.parent) tokens.push(n.token);
  return pointerFrom(tokens.reverse());
}

function isContainer(value: unknown): value is JsonRecord | unknown[] {
  return value !== null && typeof value === "object";
}

/** How many ExactIntegers `value` holds. */
function countExact(value: unknown): number {
  let count = 0;
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof ExactInteger) count++;
    else if (isContainer(v)) for (const child of Object.values(v)) stack.push(child);
  }
  return count;
}

/**
 * `args` (as the SDK validated them) with each integer that `text` writes beyond
 * a JavaScript number's reach put back exactly. Walks both in step, once: an
 * exact integer whose place in `args` holds anything but its float64 (a schema
 * transformed it) is refused, never handed on.
 */
function exactArguments(args: unknown, text: string, integers: "bigint" | "text"): unknown {
  let outOfRange: string | undefined;
  let total = 0;
  const built = buildExactJson(text, (written, path) => {
    const code = numberLoss(written);
    if (code === undefined) return Number(written);
    if (code === "number-out-of-range") {
      outOfRange ??= path();
      return Number(written);
    }
    total++;
    return new ExactInteger(
      written,
      integers === "text" ? written : (exactInteger(written) as bigint),
    );
  }) as { value: unknown };
  if (outOfRange !== undefined) {
    throw invalidParams(
      { code: "number-out-of-range", path: outOfRange },
      "the number is beyond what a JavaScript number holds",
    );
  }
  if (total === 0) return args;
  let accounted = 0;
  const notKept = (node: Node) =>
    invalidParams(
      { code: "integer-precision-lost", path: pathOf(node) },
      "this integer cannot be held by a JavaScript number, and the validated arguments do not keep it in place",
    );
  const stack: Node[] = [{ value: args, exact: built.value, parent: undefined, token: "" }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const { value, exact } = node;
    if (!isContainer(exact)) continue;
    if (!isContainer(value) || Array.isArray(value) !== Array.isArray(exact)) {
      if (countExact(exact) > 0) throw notKept(node);
      continue;
    }
    for (const key of Object.keys(exact)) {
      const exactChild = (exact as JsonRecord)[key];
      if (!Object.hasOwn(value, key)) {
        accounted += countExact(exactChild); // the schema dropped it: the handler never sees it
        continue;
      }
      const child = (value as JsonRecord)[key];
      const childNode: Node = { value: child, exact: exactChild, parent: node, token: key };
      if (exactChild instanceof ExactInteger) {
        if (typeof child !== "number" || child !== Number(exactChild.text))
          throw notKept(childNode);
        setOwnProperty(value, key, exactChild.value);
        accounted++;
      } else if (isContainer(exactChild)) stack.push(childNode);
    }
  }
  if (accounted !== total)
    throw invalidParams(
      { code: "integer-precision-lost", path: "" },
      "the validated arguments do not keep every exact integer in place",
    );
  // A schema that moves or drops members (a transform) can carry a rounded
  // integer to a place where the text holds no such number: found there, it
  // is refused, never handed on as if exact.
  const stray = strayInteger(args, built.value);
  if (stray !== undefined) throw notKept(stray);
  return args;
}

/**
 * A place in `args` (exact integers put back) holding an integer beyond 2^53
 * as a number where `exact` (the text's reading) does not hold that very number.
 */
function strayInteger(args: unknown, exact: unknown): Node | undefined {
  const stack: Node[] = [{ value: args, exact, parent: undefined, token: "" }];
  while (stack.length > 0) {
    const node = stack.pop() as Node;
    const { value } = node;
    if (typeof value === "number") {
      if (Number.isInteger(value) && !Number.isSafeInteger(value) && value !== node.exact)
        return node;
    } else if (isContainer(value)) {
      const twin = node.exact;
      const paired = isContainer(twin) && Array.isArray(twin) === Array.isArray(value);
      for (const key of Object.keys(value)) {
        stack.push({
          value: (value as JsonRecord)[key],
          exact: paired && Object.hasOwn(twin, key) ? (twin as JsonRecord)[key] : undefined,
          parent: node,
          token: key,
        });
      }
    }
  }
  return undefined;
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
): ExactToolCallback<Args, Extra>;
export function exactToolHandler<Args, Extra extends ToolHandlerExtra, R extends ExactToolResult>(
  handler: (args: ExactArguments<Args, string>, extra: Extra) => R | Promise<R>,
  options: Partial<ExactToolHandlerOptions> & { integers: "text" },
): ExactToolCallback<Args, Extra>;
/** A tool without `inputSchema`: `McpServer` calls the handler with `extra` alone. */
export function exactToolHandler<Extra extends ToolHandlerExtra, R extends ExactToolResult>(
  handler: (extra: Extra) => R | Promise<R>,
  options?: Partial<ExactToolHandlerOptions>,
): ExactToolCallback<Extra, Extra>;
export function exactToolHandler<Args, Extra extends ToolHandlerExtra, R extends ExactToolResult>(
  handler: (args: never, extra: Extra) => R | Promise<R>,
  options?: Partial<ExactToolHandlerOptions>,
): ExactToolCallback<Args, Extra> {
  const { integers } = makeOptions(handlerDefaults, options, (o) =>
    checkOneOf("integers", o.integers, ["bigint", "text"]),
  );
  const callback = async (args: Args, extra?: Extra): Promise<CallToolResult> => {
    // McpServer calls the handler of a tool registered without inputSchema
    // with `extra` alone (no arguments reach it): hand it on the same way,
    // rather than failing on the missing `extra`.
    if (extra === undefined) return exactResult(await handler(args as never, extra as never));
    const text = exactArgumentsJson(extra);
    let exact: unknown = args;
    if (text === undefined) {
      const suspect = suspectNumbers(args, 1)[0];
      if (suspect !== undefined) throw invalidParams(suspect, UNGATED);
      // The gate refuses these; without it, `extra._meta` is JSON.parse's reading too.
      const metaSuspect = suspectNumbers(extra._meta, 1)[0];
      if (metaSuspect !== undefined) throw invalidParams(metaSuspect, UNGATED, "_meta");
    } else exact = exactArguments(args, text, integers);
    return exactResult(await handler(exact as never, extra));
  };
  return callback as ExactToolCallback<Args, Extra>;
}
