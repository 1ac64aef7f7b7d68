// The linear-time pattern engine: re2js (a JavaScript port of RE2) behind the
// PatternEngine interface. Its own entry point ("struct-json-bridge/re2"), so
// the root bundle carries re2js only when a caller imports it.

import { RE2JS } from "re2js";
import type { CompiledPattern, PatternEngine, PatternRefusal } from "./engine.js";
import { translatePattern } from "./translate.js";

/** Largest compiled RE2 program accepted (instructions); a test costs about this much per character. */
export const MAX_PROGRAM_SIZE = 20_000;
/** RE2 instructions per work unit charged per character tested. */
const INSTRUCTIONS_PER_UNIT = 64;

/** The size of a compiled pattern's program, from re2js's internals when available, else the text length. */
function programSize(re: RE2JS, text: string): number {
  const prog = (re.re2() as { prog?: { inst?: unknown } }).prog;
  return Array.isArray(prog?.inst) ? prog.inst.length : text.length;
}

/**
 * Compiles a JSON Schema pattern (ECMAScript syntax, `u`-flag semantics) for
 * linear-time testing: translated exactly to RE2 syntax (see
 * ./translate.ts for what is translated and what is refused), then compiled by re2js.
 */
export function compileRe2Pattern(source: string): CompiledPattern | PatternRefusal {
  const t = translatePattern(source);
  if ("refused" in t) return { refused: t.refused };
  let re: RE2JS;
  try {
    re = RE2JS.compile(t.re2);
  } catch (e) {
    // RE2's own limits (repeat counts above 1000, nesting) or a script name it lacks.
    const message = e instanceof Error ? e.message : "";
    return { refused: /repeat|too large|nest/i.test(message) ? "too-large" : "unsupported" };
  }
  const size = programSize(re, t.re2);
  if (size > MAX_PROGRAM_SIZE) return { refused: "too-large" };
  return {
    test: (text) => re.test(text),
    weight: Math.max(1, Math.ceil(size / INSTRUCTIONS_PER_UNIT)),
  };
}

/**
 * The RE2 pattern engine, for the decoder's `patterns` option (and repair's):
 * `structToJson(struct, schema, { patterns: re2Patterns })`.
 */
export const re2Patterns: PatternEngine = Object.freeze({ compile: compileRe2Pattern });
