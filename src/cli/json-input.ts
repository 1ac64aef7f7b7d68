// JSON texts the CLI reads (ProtoJSON messages, schema files, raw argument
// texts) go through the package's own parser: one definition of valid JSON,
// one vocabulary of codes, and nesting checked before it is descended.

import type { JsonValue } from "@bufbuild/protobuf";
import type { JsonPointer } from "../json-pointer.js";
import { pointerAppend } from "../json-pointer.js";
import { parseJsonText } from "../parse-json.js";
import { fromStructJsonError, inputError } from "./cli-error.js";

/**
 * Parses `text` as one JSON value nesting at most `nestingLimit` levels;
 * throws a one-line input error whose path points into the text read as
 * `where` ("the input message", "the --schema file").
 */
export function parseJsonInput(text: string, nestingLimit: number, where: string): JsonValue {
  try {
    return parseJsonText(text, "plain", nestingLimit);
  } catch (e) {
    throw fromStructJsonError(e, where) ?? e;
  }
}

/** True for a JSON object (not null, not an array). */
export function isJsonObject(v: unknown): v is { readonly [key: string]: JsonValue } {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Throws `recursion-limit` when `value` (found at `path`) nests deeper than
 * `limit` levels (an object or array is one level). Walks with its own stack.
 */
export function checkNesting(
  value: JsonValue,
  path: JsonPointer,
  limit: number,
  where: string,
): void {
  if (value === null || typeof value !== "object") return;
  const stack: { value: object; path: JsonPointer; depth: number }[] = [{ value, path, depth: 1 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.depth > limit) {
      throw inputError("recursion-limit", `nesting deeper than the limit of ${limit} levels`, {
        path: top.path,
        document: where,
      });
    }
    const children: readonly [string | number, JsonValue][] = Array.isArray(top.value)
      ? (top.value as JsonValue[]).map((v, i) => [i, v] as const)
      : Object.entries(top.value as { [key: string]: JsonValue });
    for (const [token, child] of children) {
      if (child !== null && typeof child === "object")
        stack.push({ value: child, path: pointerAppend(top.path, token), depth: top.depth + 1 });
    }
  }
}
