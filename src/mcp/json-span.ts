// Finds where a member's value sits in JSON text, so that a transport can hand
// on a tool result's exact text rather than what JSON.parse made of it. Read
// with the package's one parser (parseJsonSpans); the text has already been
// read by JSON.parse, whose reading of a repeated key (the last one wins) the
// span follows.

import { isStructJsonError } from "../errors.js";
import { parseJsonSpans, spanAt } from "../parse-json.js";

/**
 * The text of the value at `keys` (object member names, or array indices as
 * numbers, outermost first) in `text`, which must be well-formed JSON (already
 * accepted by `JSON.parse`). With duplicate names the last one wins, as with
 * JSON.parse. Undefined when the path does not exist, or when the package's
 * parser refuses the text (a lone surrogate, a number beyond float64): such
 * text has no exact reading to pass on.
 */
export function memberText(text: string, keys: readonly (string | number)[]): string | undefined {
  let root: ReturnType<typeof parseJsonSpans>;
  try {
    root = parseJsonSpans(text, Number.MAX_SAFE_INTEGER, { duplicateKeys: "keep" });
  } catch (e) {
    if (isStructJsonError(e)) return undefined;
    throw e;
  }
  const node = spanAt(root, keys);
  return node === undefined ? undefined : text.slice(node.start, node.end);
}
