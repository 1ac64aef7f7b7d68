// JSON text checked by the engine's JSON.parse, whose error messages may quote
// the text: only the position it reports is passed on.

import { StructJsonError } from "../errors.js";

/**
 * Checks `text` with JSON.parse; on failure throws `invalid-json` with `detail`, the
 * position JSON.parse reported, if any, and nothing of the engine's message
 * (which may quote the text).
 */
export function assertJsonText(text: string, detail: string): void {
  try {
    JSON.parse(text);
  } catch (e) {
    if (!(e instanceof SyntaxError)) throw e;
    // Only V8's own ending counts: a message that quotes the text ("…" is not
    // valid JSON) may hold "position 7" as data.
    const at = / JSON at position (\d+)(?: \(line \d+ column \d+\))?$/.exec(e.message);
    throw new StructJsonError(
      "invalid-json",
      "",
      detail,
      at === null ? undefined : { position: Number(at[1]) },
    );
  }
}
