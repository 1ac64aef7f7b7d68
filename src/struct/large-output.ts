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
 * The deepest value handed to the native `JSON.stringify`, which recurses (on
 * Node 20–24 it overflows the stack below 5,000 levels); deeper values are
 * written by the package's iterative writer (writeJsonText of
 * ./exact-number-text.ts).
 */
export const NATIVE_STRINGIFY_DEPTH = 256;

/**
 * How a compiled writer (./writer-call.ts) writes a call: "auto" as its
 * schema's last call came out (see {@link LARGE_OUTPUT}); "text" or "value"
 * to force one form (tests and measurements). Both write the same bytes.
 */
export const compiledOutput: {
  form: "auto" | "text" | "value";
  /** Calls written as a value (counted for tests). */
  values: number;
} = { form: "auto", values: 0 };
