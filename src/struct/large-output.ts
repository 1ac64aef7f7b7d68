/**
 * Longest output (in UTF-16 units) written as text during the walk (and by a
 * compiled writer); past it the call is redone and the text written by the
 * native JSON.stringify. Measured on Node 20 and 24: concatenation wins on
 * small outputs (no value built), the native writer on large ones (a 5 MB
 * text built by concatenation leaves a rope and its garbage behind).
 */
export const LARGE_OUTPUT = 256 * 1024;
