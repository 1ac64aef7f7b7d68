// JSON texts the CLI reads (ProtoJSON messages, schema files, raw argument
// texts) go through the package's own parser: one definition of valid JSON,
// one vocabulary of codes, and nesting checked before it is descended.

import type { JsonValue } from "@bufbuild/protobuf";
import type { JsonPointer } from "../json-pointer.js";
import { pointerAppend } from "../json-pointer.js";
import { type ParseListener, parseJsonText } from "../struct/parse-json.js";
import { fromStructJsonError, inputError } from "./cli-error.js";

/** A document the CLI reads as JSON: how error lines name it, and how deep it may nest. */
export interface JsonDocument {
  /** "the input message", "the --schema file". */
  readonly name: string;
  /** Levels of nesting allowed (an object or array is one level). */
  readonly nestingLimit: number;
  /** The rule broken by nesting deeper, as error lines state it. */
  readonly nestingRule: string;
}

/**
 * Parses `text` as one JSON value; throws a one-line input error whose path
 * points into `document`.
 */
export function parseJsonInput(
  text: string,
  document: JsonDocument,
  listener?: ParseListener,
): JsonValue {
  try {
    return parseJsonText(text, "plain", document.nestingLimit, listener);
  } catch (e) {
    const error = fromStructJsonError(e, document.name);
    if (error?.code === "recursion-limit") {
      throw inputError("recursion-limit", document.nestingRule, {
        path: error.path,
        document: document.name,
        cause: e,
      });
    }
    throw error ?? e;
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
  document: JsonDocument,
): void {
  if (value === null || typeof value !== "object") return;
  const stack: { value: object; path: JsonPointer; depth: number }[] = [{ value, path, depth: 1 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.depth > limit) {
      throw inputError("recursion-limit", document.nestingRule, {
        path: top.path,
        document: document.name,
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
