// Finds where a member's value sits in JSON text, so that a transport can hand
// on a tool result's exact text rather than what JSON.parse made of it. Read
// with the package's one parser (parseJsonSpans) in JSON.parse's reading (the
// text has already been read by JSON.parse): lone surrogates and numbers
// beyond float64 are kept, and of a repeated key the last one counts.

import { isStructJsonError } from "../errors.js";
import {
  type JsonSpanNode,
  type JsonSpanOptions,
  parseJsonSpans,
  spanAt,
} from "../struct/parse-json.js";

/** The parser's options for JSON.parse's reading of a text JSON.parse has accepted. */
export const JSON_PARSE_READING: JsonSpanOptions = Object.freeze({
  duplicateKeys: "keep",
  loneSurrogates: "keep",
  outOfRangeNumbers: "keep",
});

/**
 * The text of the value at `keys` (object member names, or array indices as
 * numbers, outermost first) in `text`, which must be well-formed JSON (already
 * accepted by `JSON.parse`). With duplicate names the last one wins, as with
 * JSON.parse. Undefined when the path does not exist (or the text is not JSON).
 */
export function memberText(text: string, keys: readonly (string | number)[]): string | undefined {
  return memberTextReader(text)(keys);
}

/** {@link memberText} for many paths of one text. */
export type MemberTextReader = (keys: readonly (string | number)[]) => string | undefined;

/**
 * {@link memberText} of `text` for any number of paths, the text parsed once
 * (on the first call): a batch of n messages costs one parse, not n.
 */
export function memberTextReader(text: string): MemberTextReader {
  let root: JsonSpanNode | null | undefined; // null: not JSON
  return (keys) => {
    if (root === undefined) {
      try {
        root = parseJsonSpans(text, Number.MAX_SAFE_INTEGER, JSON_PARSE_READING);
      } catch (e) {
        if (!isStructJsonError(e)) throw e;
        root = null;
      }
    }
    if (root === null) return undefined;
    const node = spanAt(root, keys);
    return node === undefined ? undefined : text.slice(node.start, node.end);
  };
}
