// Verifying a raw JSON text (raw_args_json, raw_structured_content_json)
// against the Struct that travelled beside it.

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { type Diagnostic, type DiagnosticHandler, ignoreDiagnostics } from "../diagnostics.js";
import { isStructJsonError, StructJsonError } from "../errors.js";
import { pointerFrom } from "../json-pointer.js";
import { entry, newMap } from "../map-entry.js";
import type { PatternEngine } from "../patterns/engine.js";
import { type CompiledSchema, type PathTree, walkNumbers } from "../schema/index.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { isDataObject } from "../struct/object-data.js";
import { type ParseListener, parseJsonObjectText, scanJsonText } from "../struct/parse-json.js";

/** How a receiver treats a raw JSON text carried beside the Struct. */
export type RawJsonMode = "verify" | "trust" | "ignore";

/** The error codes that make a raw text "malformed" (one reading is left: the Struct's). */
const MALFORMED = new Set([
  "invalid-json",
  "duplicate-key",
  "invalid-unicode",
  "number-out-of-range",
  "not-an-object",
  "recursion-limit",
]);

/**
 * Checks that `raw` is one well-formed JSON object agreeing with `struct`
 * (same keys, strings, booleans, nulls, shapes; every number's float64 equal).
 * Returns true when it agrees; false when it is malformed (after reporting
 * `raw-json-invalid`); throws `raw-struct-mismatch` when it is well-formed but
 * disagrees (two readings: never guess). Where the schema reads *integer*
 * (`patterns`: the engine for `patternProperties`, as in structToJson;
 * without it such positions read as unknown), a number written with a
 * fraction or exponent is reported as the text writes it: a whole number
 * (`5.0`, `5e0`) as `integer-written-as-float`, any other (`1.5`, `1e-400`,
 * `9007199254740993.5`, whose float64s are whole) as `not-an-integer`. No
 * listener (`onDiagnostic` is `ignoreDiagnostics`): nothing is looked for.
 */
export function verifyRawJson(
  raw: string,
  struct: JsonObject,
  schema: JsonSchema | CompiledSchema | null | undefined,
  recursionLimit: number,
  onDiagnostic: DiagnosticHandler,
  patterns?: PatternEngine,
): boolean {
  const search =
    schema != null && onDiagnostic !== ignoreDiagnostics
      ? new FractionSearch(typeof raw === "string" ? raw.length : 0)
      : undefined;
  let parsed: JsonObject;
  try {
    parsed = parseJsonObjectText(raw, "plain", recursionLimit, search);
  } catch (e) {
    if (isStructJsonError(e) && MALFORMED.has(e.code)) {
      onDiagnostic({ code: "raw-json-invalid", path: "" });
      return false;
    }
    throw e;
  }
  const tokens: (string | number)[] = [];
  if (!agrees(parsed, struct, tokens)) {
    throw new StructJsonError(
      "raw-struct-mismatch",
      pointerFrom(tokens),
      "the raw JSON text and the Struct disagree here (two readings)",
    );
  }
  if (search === undefined) return true;
  if (search.tooMany) {
    reportFromText(raw, parsed, schema!, recursionLimit, onDiagnostic, patterns);
    return true;
  }
  const { only, branches, keys } = search;
  if (keys.length === 0) return true;
  const found = markIntegers(parsed, schema!, only, recursionLimit, patterns, onDiagnostic);
  // In the text's order.
  if (found.size > 0) {
    for (let i = 0; i < keys.length; i++) {
      const d = found.get(branches[i]!.get(keys[i]!)!);
      if (d !== undefined) onDiagnostic(d);
    }
  }
  return true;
}

/**
 * The leaf markers of the walk's `only` tree (empty, never filled: the walk
 * only asks whether a child has one): a whole number written with a fraction
 * or exponent, and any other number so written.
 */
const WHOLE: PathTree = new Map();
const NOT_WHOLE: PathTree = new Map();

/**
 * The parser's listener: each number written with a fraction or exponent,
 * in the text's order, as the branch of `only` holding it and its key there
 * (no path of its own: a pointer is made only for a diagnostic, by the walk).
 */
class FractionSearch implements ParseListener {
  readonly only: PathTree = new Map();
  readonly branches: PathTree[] = [];
  readonly keys: (string | number)[] = [];
  /** Past the budget: no branch is kept, the numbers are found again by a scan of the text. */
  tooMany = false;
  /** The last path's tokens but its last, and the branches along them (`chain[k]`: after k tokens). */
  private readonly lastTokens: (string | number)[] = [];
  private readonly chain: PathTree[] = [this.only];

  /**
   * Finding a number's branch costs its depth: many `1.0` deep down once
   * cost count × depth (200 times the text at the default recursionLimit,
   * quadratic with a raised one: a 30 KB text held 200 MB). Branches are
   * found while their depths add up to the text's length at most; past that,
   * the numbers are found again by a scan of the text (linear).
   */
  constructor(private budget: number) {}

  /**
   * The branch holding the last of `tokens`, made as needed. The numbers come
   * in the text's order, so a path shares a prefix with the one before (a
   * level deeper, the next member): the branches along it are taken from the
   * last path's, compared token by token rather than looked up from the root.
   */
  private branchOf(tokens: readonly (string | number)[]): PathTree {
    const last = this.lastTokens;
    const chain = this.chain;
    const depth = tokens.length - 1;
    let k = 0;
    const shared = Math.min(depth, last.length);
    while (k < shared && last[k] === tokens[k]) k++;
    let branch = chain[k]!;
    for (; k < depth; k++) {
      const token = tokens[k]!;
      branch = entry(branch, token, newMap);
      last[k] = token;
      chain[k + 1] = branch;
    }
    last.length = depth;
    chain.length = depth + 1;
    return branch;
  }

  wholeWithFraction(tokens: readonly (string | number)[]): void {
    this.keep(tokens, WHOLE);
  }

  notWhole(tokens: readonly (string | number)[]): void {
    this.keep(tokens, NOT_WHOLE);
  }

  private keep(tokens: readonly (string | number)[], mark: PathTree): void {
    // A number that is the whole text (no path): not an object, so malformed.
    if (this.tooMany || tokens.length === 0) return;
    this.budget -= tokens.length + 1;
    if (this.budget < 0) {
      this.tooMany = true;
      this.branches.length = 0;
      this.keys.length = 0;
      this.only.clear();
      return;
    }
    // Never a Set of pointers: V8 hashes a string past 16,383 characters by
    // its length alone, so the pointers under one long key all collided (a
    // 120 KB text took minutes).
    const branch = this.branchOf(tokens);
    const key = tokens[tokens.length - 1]!;
    branch.set(key, mark);
    this.branches.push(branch);
    this.keys.push(key);
  }
}

/**
 * Walks the paths in `only`; where the schema reads integer (whatever the
 * float64: the text is what is passed on), swaps the leaf's marker for a
 * leaf of its own, mapped to its diagnostic: `integer-written-as-float` for
 * a whole number, `not-an-integer` for any other. The reader's notes along
 * the paths are reported as the Struct path reports them: they say where a
 * reading was not made (a pattern no engine evaluated, a `$ref` to nowhere,
 * the budget), so where a diagnostic may be missing.
 */
function markIntegers(
  parsed: JsonObject,
  schema: JsonSchema | CompiledSchema,
  only: PathTree,
  recursionLimit: number,
  patterns: PatternEngine | undefined,
  onDiagnostic: DiagnosticHandler,
): Map<PathTree, Diagnostic> {
  const found = new Map<PathTree, Diagnostic>();
  walkNumbers(
    parsed,
    schema,
    (path, _value, reading) => {
      if (reading !== "integer") return;
      let at: PathTree | undefined = only;
      for (let k = 0; k < path.length - 1; k++) at = at?.get(path[k]!);
      const last = path[path.length - 1]!;
      const leaf = at?.get(last);
      if (leaf !== WHOLE && leaf !== NOT_WHOLE) return;
      const own: PathTree = new Map();
      at!.set(last, own);
      found.set(own, {
        code: leaf === WHOLE ? "integer-written-as-float" : "not-an-integer",
        path: pointerFrom(path),
      });
    },
    {
      patterns,
      recursionLimit,
      only,
      onNote: (code, path) => onDiagnostic({ code, path: pointerFrom(path) }),
    },
  );
  return found;
}

/**
 * The integer diagnostics in the text's order, for a text with more numbers
 * written with a fraction or exponent deep down than paths fit in its
 * length: the walk's `only` tree is built from a scan of the text with each
 * container's branch made once, and a pointer is made only for a diagnostic
 * reported. Linear in the text (plus the diagnostics' own paths).
 */
function reportFromText(
  raw: string,
  parsed: JsonObject,
  schema: JsonSchema | CompiledSchema,
  recursionLimit: number,
  onDiagnostic: DiagnosticHandler,
  patterns: PatternEngine | undefined,
): void {
  const only: PathTree = new Map();
  forEachFraction(raw, only, (frames, tokens, whole) => {
    let j = frames.length - 1;
    while (frames[j]!.tree === undefined) j--;
    for (let l = j + 1; l < frames.length; l++) {
      const branch: PathTree = new Map();
      frames[l - 1]!.tree!.set(tokens[l - 1]!, branch);
      frames[l]!.tree = branch;
    }
    frames[frames.length - 1]!.tree!.set(tokens[tokens.length - 1]!, whole ? WHOLE : NOT_WHOLE);
  });
  const found = markIntegers(parsed, schema, only, recursionLimit, patterns, onDiagnostic);
  if (found.size === 0) return;
  forEachFraction(raw, only, (frames, tokens) => {
    const leaf = frames[frames.length - 1]!.tree?.get(tokens[tokens.length - 1]!);
    const d = leaf === undefined ? undefined : found.get(leaf);
    if (d !== undefined) onDiagnostic(d);
  });
}

/** An open object or array of the text; `tree`: its branch of the `only` tree, if made. */
interface TextFrame {
  tree: PathTree | undefined;
}

/**
 * Calls `visit` for each number written with a fraction or exponent (as the
 * parser's `wholeWithFraction` and `notWhole` report them, `whole` telling
 * which), in the text's order, with the open containers and the path. Each
 * container's `tree` is its branch of `tree` (the top-level object's is
 * `tree` itself), when there is one. The text was just read with the
 * verification's limits: the scan checks nothing again, and keeps its own stack.
 */
function forEachFraction(
  raw: string,
  tree: PathTree,
  visit: (frames: TextFrame[], tokens: readonly (string | number)[], whole: boolean) => void,
): void {
  const frames: TextFrame[] = [];
  scanJsonText(raw, {
    open(tokens) {
      frames.push({
        tree:
          frames.length === 0
            ? tree
            : frames[frames.length - 1]!.tree?.get(tokens[tokens.length - 1]!),
      });
    },
    close() {
      frames.pop();
    },
    wholeWithFraction: (tokens) => visit(frames, tokens, true),
    notWhole: (tokens) => visit(frames, tokens, false),
  });
}

/** A pair of containers being compared. */
interface Pair {
  readonly raw: JsonObject | readonly JsonValue[];
  readonly struct: JsonObject | readonly JsonValue[];
  /** The raw object's keys; undefined for arrays. */
  readonly keys: readonly string[] | undefined;
  next: number;
}

/**
 * Deep agreement, walked with its own stack (no recursion over the input's
 * depth); on a difference, `tokens` is left holding its path.
 */
function agrees(raw: JsonObject, struct: JsonObject, tokens: (string | number)[]): boolean {
  const stack: Pair[] = [];
  if (!open(raw, struct, stack, tokens)) return false;
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const keys = top.keys;
    const length = keys === undefined ? top.raw.length : keys.length;
    if (top.next === length) {
      if (keys !== undefined && Object.keys(top.struct).length !== length) {
        // Every raw key is in the Struct, so the Struct has one the raw text
        // lacks: point at the first.
        for (const k of Object.keys(top.struct)) {
          if (!Object.hasOwn(top.raw, k)) {
            tokens[tokens.length - 1] = k;
            return false;
          }
        }
      }
      stack.pop();
      tokens.pop();
      continue;
    }
    const i = top.next++;
    let r: JsonValue;
    let s: JsonValue | undefined;
    if (keys === undefined) {
      tokens[tokens.length - 1] = i;
      r = (top.raw as readonly JsonValue[])[i]!;
      s = (top.struct as readonly JsonValue[])[i];
    } else {
      const k = keys[i]!;
      tokens[tokens.length - 1] = k;
      if (!Object.hasOwn(top.struct, k)) return false;
      r = (top.raw as JsonObject)[k]!;
      s = (top.struct as JsonObject)[k];
    }
    if (typeof r !== "object" || r === null) {
      // The one rule for two scalars to agree: `Object.is`, so -0 and +0
      // differ (their float64s do; the decoder writes them apart) and NaN,
      // which JSON cannot carry, would equal itself.
      if (!Object.is(r, s)) return false;
    } else if (!open(r, s, stack, tokens)) {
      return false;
    }
  }
  return true;
}

/**
 * Compares two containers' kinds (and arrays' lengths) and pushes the pair
 * with the path slot of its children; false (with `tokens` at the difference)
 * when the shapes differ.
 */
function open(
  raw: JsonObject | readonly JsonValue[],
  struct: JsonValue | undefined,
  stack: Pair[],
  tokens: (string | number)[],
): boolean {
  if (typeof struct !== "object" || struct === null) return false;
  if (Array.isArray(raw)) {
    if (!Array.isArray(struct) || raw.length !== struct.length) return false;
    stack.push({ raw, struct, keys: undefined, next: 0 });
    tokens.push(0);
    return true;
  }
  // A Date or a Map lists no members: it would agree with `{}`.
  if (!isDataObject(struct)) return false;
  const keys = Object.keys(raw);
  const structObject = struct as JsonObject;
  stack.push({ raw: raw as JsonObject, struct: structObject, keys, next: 0 });
  tokens.push("");
  return true;
}
