/**
 * Longest output (in UTF-16 units) the walk of ./to-json.ts writes as text;
 * past it the call is redone and the text written by the native
 * JSON.stringify. Measured on Node 20 and 24: the walk's concatenation wins on
 * small outputs (no value built), the native writer on large ones. Compiled
 * writers (./writer-program.ts) write outputs of any size as text: without the
 * walk's bookkeeping their concatenation beats the native path on a 5 MB row
 * set on Node 22 and 24, and matches it on Node 20.
 */
export const LARGE_OUTPUT = 256 * 1024;
