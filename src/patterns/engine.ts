// What the package asks of a regular-expression engine for JSON Schema
// `pattern` / `patternProperties`. Schema patterns come from untrusted
// servers and the texts they are tested on from a model, so the engine must
// run in time linear in the text: JavaScript's own backtracking RegExp never
// tests input text with a schema-supplied pattern here.
//
// The root entry does not carry an engine (re2js is ~46 kB gzip): callers who
// want patterns evaluated pass one, e.g. `re2Patterns` from
// "struct-json-bridge/re2". Without one, a position whose reading depends on
// a pattern reads as unknown and notes `schema-pattern-unevaluated`.

import { entry, newMap } from "../map-entry.js";

/** A pattern the engine can evaluate exactly. */
export interface CompiledPattern {
  /** True when the pattern matches somewhere in `text` (ECMAScript `RegExp.prototype.test`, unanchored). */
  test(text: string): boolean;
  /**
   * Work units one test costs per code unit of text (≥ 1): a test of text
   * `t` is charged `(t.length + 1) × weight` units of the caller's budget.
   */
  readonly weight: number;
}

/** Why a pattern cannot be evaluated (it then decides nothing: positions depending on it read as unknown). */
export type PatternRefusalReason =
  /** A backreference (`\1`, `\k<name>`): no linear-time engine has them. */
  | "backreference"
  /** A lookahead or lookbehind (`(?=`, `(?!`, `(?<=`, `(?<!`). */
  | "lookaround"
  /** Valid ECMAScript whose meaning the engine cannot reproduce exactly (a Unicode property it lacks, inline modifiers). */
  | "unsupported"
  /** Not a valid ECMAScript pattern under the `u` flag (and not one of the identity escapes both modes read alike). */
  | "invalid"
  /** Longer than the engine accepts, or its compiled program too large (RE2's repeat limit of 1000 included). */
  | "too-large";

/** A pattern the engine refuses, and why. */
export interface PatternRefusal {
  readonly refused: PatternRefusalReason;
}

/**
 * A linear-time regular-expression engine for schema patterns (ECMAScript
 * syntax with `u`-flag semantics, as ajv and JSON Schema use them).
 * Implementations must not change a pattern's meaning: what they cannot
 * evaluate exactly they refuse.
 */
export interface PatternEngine {
  /** Compiles `source`; the result may be cached by the caller per engine and source. */
  compile(source: string): CompiledPattern | PatternRefusal;
}

/** True when `c` is a refusal rather than a compiled pattern. */
export function isPatternRefusal(c: CompiledPattern | PatternRefusal): c is PatternRefusal {
  return (c as Partial<PatternRefusal>).refused !== undefined;
}

const compiledByEngine = new WeakMap<
  PatternEngine,
  Map<string, CompiledPattern | PatternRefusal>
>();
/** Most distinct pattern sources kept compiled per engine. */
const MAX_CACHED_PATTERNS = 10_000;

/**
 * `engine.compile(source)`, cached per engine and source (a compiled pattern
 * does not depend on any call, so sharing it across calls changes no output).
 * An engine that throws is treated as refusing the pattern ("unsupported").
 */
export function compilePattern(
  engine: PatternEngine,
  source: string,
): CompiledPattern | PatternRefusal {
  const cache = entry(compiledByEngine, engine, newMap);
  let c = cache.get(source);
  if (c === undefined) {
    try {
      c = engine.compile(source);
    } catch {
      c = { refused: "unsupported" };
    }
    if (cache.size < MAX_CACHED_PATTERNS) cache.set(source, c);
  }
  return c;
}
