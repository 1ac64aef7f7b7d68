/**
 * Longest output (in UTF-16 units) written as text; past it the text is
 * written by the native JSON.stringify from a plain value. Measured on Node 20
 * and 24: concatenation wins on small outputs (no value built), the native
 * writer on large ones, where it also holds less heap (no rope). The walk of
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
 * the text form at its best.) Measured on the bench's 50 KB M call (766
 * fractions), its numbers changed in every call: the text form 0.77–0.80× of
 * protobuf-es's toJsonString, the value form 1.10–1.11× (Node 24); the same
 * payload every call: 1.02× and 0.99×. Without `JSON.rawJSON` (markers) the
 * value form loses on M either way, so only the size decides there.
 */
export const MANY_FRACTIONS = 256;

/**
 * The deepest value handed to the native `JSON.stringify`, which recurses (on
 * Node 20–24 it overflows the stack below 5,000 levels); deeper values are
 * written by the package's iterative writer (writeJsonText of
 * ./exact-number-text.ts).
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
