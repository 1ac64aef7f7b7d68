/**
 * Longest output (in UTF-16 units) written as text; past it the text is
 * written from a plain value by the package's own writer
 * (./json-text-writer.ts: UTF-8 bytes decoded once). Measured on Node 20 and
 * 24: concatenation wins on small outputs (no value built), a writer of values
 * on large ones, where it also holds less heap (no rope). The walk of
 * ./to-json.ts redoes a text walk that outgrows it; a compiled writer
 * (./writer-call.ts) writes a call as its schema's last call came out.
 */
export const LARGE_OUTPUT = 256 * 1024;

/**
 * Fractional numbers (`0.25`, not `25` or `1.0`) in an output past which a
 * compiled writer writes its schema's next call as a value even when the text
 * is short, where the runtime has `JSON.rawJSON`. Text needs a JS string per
 * number, made by V8's number-to-text conversion: 130–190 ns for a number not
 * converted before, against 70–90 ns inside the native JSON.stringify, which
 * makes no string. (A number converted before comes from V8's number-string
 * cache in 15–30 ns: a benchmark that writes one payload again and again sees
 * the text form at its best.) On the bench's 50 KB M call (766 fractions),
 * Node 24, with its numbers changed in every call, the value form is about a
 * quarter faster than the text, and about as fast on one payload written
 * again and again (bench/RESULTS.md, the "numbers" group). Without
 * `JSON.rawJSON` the value form once paid a marker string and a splice per
 * exact text (M: 197 `1.0`s and ids) and lost on the repeated payload (Node
 * 20: 0.84× against 1.0× toJsonString): there only the size decides.
 */
export const MANY_FRACTIONS = 256;

/**
 * The deepest value handed to the native `JSON.stringify`, which recurses (on
 * Node 20–24 it overflows the stack below 5,000 levels); deeper values are
 * written by the package's iterative writer (writeJsonText of
 * ./json-text-writer.ts).
 */
export const NATIVE_STRINGIFY_DEPTH = 256;

/**
 * How a compiled writer (./writer-call.ts) writes a call: "auto" as its
 * schema's last call came out (see {@link LARGE_OUTPUT} and
 * {@link MANY_FRACTIONS}); "text" or "value"
 * to force one form (tests and measurements). Both write the same bytes.
 */
export const compiledOutput: {
  form: "auto" | "text" | "value";
  /** Calls written as a value (counted for tests). */
  values: number;
} = { form: "auto", values: 0 };
