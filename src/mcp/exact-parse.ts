// Builds a value from JSON text that JSON.parse has already accepted, handing
// each number's own text to a callback. Read with the package's one parser
// (parseJsonSpans) in JSON.parse's reading: lone surrogates, numbers beyond
// float64 and repeated names (the last one wins) are kept. Without recursion
// (any depth is fine) and without any parser whose errors could quote the text.

import { isStructJsonError } from "../errors.js";
import { type JsonPointer, pointerAppend } from "../json-pointer.js";
import { setOwnProperty } from "../struct/own-property.js";
import { type JsonSpanNode, parseJsonSpans } from "../struct/parse-json.js";
import { JSON_PARSE_READING } from "./json-span.js";

/** Decides what a number becomes; `path` computes the number's JSON Pointer on demand. */
export type NumberReader = (text: string, path: () => JsonPointer) => unknown;

/** Why {@link buildExactJson} refused a text that JSON.parse accepts. */
export interface DuplicateName {
  readonly duplicate: JsonPointer;
}

/**
 * The value of `text`, which MUST already be accepted by `JSON.parse`, with each
 * number replaced by what `readNumber` returns. Objects are plain (own
 * `__proto__` members are ordinary members). With `rejectDuplicates`, a member
 * name repeated in one object returns `{ duplicate: path }` instead.
 */
export function buildExactJson(
  text: string,
  readNumber: NumberReader,
  rejectDuplicates = false,
): { value: unknown } | DuplicateName {
  let root: JsonSpanNode;
  try {
    root = parseJsonSpans(text, Number.MAX_SAFE_INTEGER, {
      ...JSON_PARSE_READING,
      duplicateKeys: rejectDuplicates ? "reject" : "keep",
    });
  } catch (e) {
    if (isStructJsonError(e) && e.code === "duplicate-key") return { duplicate: e.path };
    throw e;
  }
  return { value: buildValue(root, readNumber) };
}

/** A container being filled: its node, its value, its pointer. */
interface Fill {
  readonly node: JsonSpanNode;
  readonly target: { value: unknown } | Record<string, unknown> | unknown[];
  readonly key: string | number;
  readonly pointer: JsonPointer;
}

/** The value of a span tree, numbers through `readNumber`; iterative. */
function buildValue(root: JsonSpanNode, readNumber: NumberReader): unknown {
  const top = { value: undefined as unknown };
  const work: Fill[] = [{ node: root, target: top, key: "value", pointer: "" }];
  for (let fill = work.pop(); fill !== undefined; fill = work.pop()) {
    const { node, pointer } = fill;
    let value: unknown;
    switch (node.kind) {
      case "object": {
        const object: Record<string, unknown> = {};
        // Members placed in text order now (a repeated name keeps its first
        // place and, filled last, its last value: JSON.parse's reading).
        for (const m of node.members) setOwnProperty(object, m.key, undefined);
        for (let k = node.members.length - 1; k >= 0; k--) {
          const m = node.members[k]!;
          work.push({
            node: m.value,
            target: object,
            key: m.key,
            pointer: pointerAppend(pointer, m.key),
          });
        }
        value = object;
        break;
      }
      case "array": {
        const array: unknown[] = new Array(node.items.length);
        for (let k = node.items.length - 1; k >= 0; k--) {
          work.push({
            node: node.items[k]!,
            target: array,
            key: k,
            pointer: pointerAppend(pointer, k),
          });
        }
        value = array;
        break;
      }
      case "string":
        value = node.value;
        break;
      case "number":
        value = readNumber(node.text, () => pointer);
        break;
      case "true":
        value = true;
        break;
      case "false":
        value = false;
        break;
      case "null":
        value = null;
        break;
    }
    if (Array.isArray(fill.target)) fill.target[fill.key as number] = value;
    else setOwnProperty(fill.target, String(fill.key), value);
  }
  return top.value;
}
