// The argument text as a tree of spans, so that repairs can edit it in place:
// everything a repair does not touch keeps its bytes (key order, number texts,
// string escapes, whitespace), which a parse-and-stringify round trip would not.

import { isStructJsonError } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";
import {
  type JsonArraySpan,
  type JsonMemberSpan,
  type JsonNumberSpan,
  type JsonObjectSpan,
  type JsonSpanNode,
  type JsonStringSpan,
  parseJsonSpans,
} from "../struct/parse-json.js";

/** A JSON value with its `[start, end)` span in the text it was read from. */
export type JsonNode = JsonSpanNode;
/** An object; `members` in text order. */
export type ObjectNode = JsonObjectSpan;
/** One `"key": value` of an object; `keyStart` is the offset of its opening quote. */
export type Member = JsonMemberSpan;
/** An array. */
export type ArrayNode = JsonArraySpan;
/** A string; `value` is unescaped. */
export type StringNode = JsonStringSpan;
/** A number; `text` is exactly as written. */
export type NumberNode = JsonNumberSpan;

/** Why a text could not be read; `code` doubles as the issue keyword. */
export interface TreeFailure {
  readonly code: "invalid-json" | "duplicate-key" | "number-out-of-range" | "recursion-limit";
  readonly path: JsonPointer;
}

/** A text read into a tree, or the first reason it cannot be. */
export type TreeResult =
  | { readonly ok: true; readonly root: JsonNode; readonly hasFloatText: boolean }
  | { readonly ok: false; readonly failure: TreeFailure };

/**
 * Reads JSON text into a span tree with the package's one parser
 * (parseJsonSpans, iterative: any depth within the limit is safe). Duplicate
 * keys (even with equal values: they are two readings of one member) and
 * numbers beyond float64's range are failures. A syntax error
 * or too deep a text is reported at the root, the path of the whole text.
 */
export function readJsonTree(text: string, recursionLimit: number): TreeResult {
  let root: JsonNode;
  try {
    // Lone surrogates are kept: they are data for the schema (patterns, lengths), as JSON.parse reads them.
    root = parseJsonSpans(text, recursionLimit, { loneSurrogates: "keep" });
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    const code = e.code as TreeFailure["code"];
    const path = code === "invalid-json" || code === "recursion-limit" ? "" : e.path;
    return { ok: false, failure: { code, path } };
  }
  return { ok: true, root, hasFloatText: hasFloatText(root) };
}

/** True when some number is written with a fraction or an exponent. */
function hasFloatText(root: JsonNode): boolean {
  const stack: JsonNode[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.kind === "number") {
      if (/[.eE]/.test(node.text)) return true;
    } else if (node.kind === "object") {
      for (const m of node.members) stack.push(m.value);
    } else if (node.kind === "array") {
      // One push per item: spreading 130,000 items overflowed the stack (as arguments of one call).
      for (const item of node.items) stack.push(item);
    }
  }
  return false;
}

/**
 * The plain value ajv validates: objects without a prototype (so `__proto__`,
 * `constructor` and `toString` are ordinary keys, and `required` cannot be met
 * by an inherited member), numbers as float64.
 */
export function validationValue(root: JsonNode): unknown {
  // Its own stack, no recursion over the arguments' depth: each container is
  // created when met and filled as its children are converted.
  const convert = (node: JsonNode): unknown => {
    switch (node.kind) {
      case "object":
        return Object.create(null) as Record<string, unknown>;
      case "array":
        return new Array<unknown>(node.items.length);
      case "string":
        return node.value;
      case "number":
        return Number(node.text);
      case "true":
        return true;
      case "false":
        return false;
      case "null":
        return null;
    }
  };
  const out = convert(root);
  const stack: [JsonNode, unknown][] = [[root, out]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, value] = top;
    if (node.kind === "object") {
      const target = value as Record<string, unknown>;
      for (const m of node.members) {
        const child = convert(m.value);
        target[m.key] = child;
        if (m.value.kind === "object" || m.value.kind === "array") stack.push([m.value, child]);
      }
    } else if (node.kind === "array") {
      const target = value as unknown[];
      node.items.forEach((item, i) => {
        const child = convert(item);
        target[i] = child;
        if (item.kind === "object" || item.kind === "array") stack.push([item, child]);
      });
    }
  }
  return out;
}
