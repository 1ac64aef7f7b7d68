// Repair mode: run tool calls whose failing arguments have exactly one
// reading, reject the rest with a value-free report, and log both.

import type { Diagnostic, DiagnosticHandler } from "../diagnostics.js";
import { isStackOverflow, isStructJsonError } from "../errors.js";
import type { JsonPointer } from "../json-pointer.js";
import { parsePointer } from "../json-pointer.js";
import { checkFunction, checkLimit, makeOptions } from "../options.js";
import { isCompiledSchema } from "../schema/index.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { Budget, REPAIR_BUDGET } from "./budget.js";
import { applyEdits } from "./edits.js";
import { integerLiteralCandidates } from "./integer-literal.js";
import type { JsonNode } from "./json-tree.js";
import { readJsonTree, validationValue } from "./json-tree.js";
import { LocatedFailures, type Position, Positions } from "./positions.js";
import type { Candidate, RepairKind, RoundCandidate } from "./rules.js";
import { excludes, findCandidates } from "./rules.js";
import type { Compiled, Failure } from "./validator.js";
import { validatorFor } from "./validator.js";

export type { RepairKind } from "./rules.js";

/** One repair that was applied: where, and which rule. Never a value. */
export interface Repair {
  /** RFC 6901 JSON Pointer of the repaired position, in the arguments as written. */
  readonly path: JsonPointer;
  /** Which rule applied. */
  readonly kind: RepairKind;
}

/**
 * One reason the arguments were rejected. `keyword` is the failing JSON Schema
 * keyword as ajv names it ("type", "required", "minimum", "oneOf", ...), or one
 * of this package's codes: "invalid-json", "not-an-object", "duplicate-key",
 * "number-out-of-range", "recursion-limit", "schema-invalid",
 * "schema-too-complex" (the schema's size, nesting or union width, or the
 * work validating these arguments takes, does not fit the call's `budget`;
 * path "" — it is the call's, not a position's), and
 * "schema-pattern-unevaluated" (the arguments reach a schema pattern the
 * linear-time engine refuses, e.g. one with a backreference or a lookaround;
 * path: the string, or the member whose key, is tested).
 */
export interface Issue {
  /** RFC 6901 JSON Pointer of the failing position ("" is the whole object). */
  readonly path: JsonPointer;
  /** The failing keyword or code. */
  readonly keyword: string;
}

/** The outcome of {@link repairArguments}. */
export type RepairResult =
  | { readonly ok: true; readonly argumentsJson: string; readonly repairs: readonly Repair[] }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/**
 * Options of {@link repairArguments}: pass a `Partial` of it; a member left
 * out (or `undefined`) takes the default its paragraph names.
 */
export interface RepairArgumentsOptions {
  /**
   * Receives `argument-repaired` (detail: the repair's kind) for each repair
   * of an accepted call, `argument-rejected` (detail: the failing keywords,
   * comma-separated) for each failing position of a rejected one, and the
   * schema reader's findings (e.g. `schema-ref-unresolved`). Never a value.
   * Default: ignored.
   */
  onDiagnostic: DiagnosticHandler;
  /** Deepest JSON nesting accepted (objects and arrays), also after a string's JSON is parsed in place. Default 100. */
  recursionLimit: number;
  /**
   * Work units the call may spend: the schema's size and nesting, each
   * schema evaluation validation makes (every union branch tried, every
   * `$ref` followed), the members and elements those evaluations loop over,
   * and every pattern test in proportion to the text tested (docs/repair.md
   * lists the units). Past it the call is rejected with `schema-too-complex`
   * at path "". Counted, never timed: the outcome never depends on the
   * machine. A positive safe integer. Default 1,000,000.
   */
  budget: number;
}

/** The frozen defaults of {@link RepairArgumentsOptions} (private: each option documents its own). */
const repairArgumentsDefaults: Readonly<RepairArgumentsOptions> = Object.freeze({
  onDiagnostic: () => {},
  recursionLimit: 100,
  budget: REPAIR_BUDGET,
});

// Each round applies the repairs at the positions failing in it; a string's
// parsed JSON may only fail (and be repaired) in the next round. Every repair
// shortens the text, so rounds end anyway; the cap bounds the work.
const maxRounds = 32;
// A round's proposals are applied together, and those whose position still
// fails are withdrawn; withdrawing can (rarely) change the others' outcome.
const maxAttempts = 8;

/**
 * Validates a tool call's argument JSON text against the tool's input schema
 * (ajv, draft-07, 2019-09 or 2020-12) and repairs what has exactly one reading.
 * Arguments the schema accepts come back as the same string, except for whole
 * numbers written as `5.0` where the schema reads an integer; repaired text
 * keeps every untouched byte. Bad input, schemas included, gives `ok: false`,
 * never an exception. Schema patterns run in a linear-time engine (re2js),
 * and the whole call's work is bounded by the `budget` option.
 */
export function repairArguments(
  argumentsJson: string,
  inputSchema: JsonSchema | null | undefined,
  options?: Partial<RepairArgumentsOptions>,
): RepairResult {
  return repairArgumentsMetered(argumentsJson, inputSchema, options).result;
}

/**
 * {@link repairArguments}, and the work units the call spent: for the tests'
 * catalogue of hostile inputs and for measurements. Not part of the package's
 * API (the root entry does not export it).
 */
export function repairArgumentsMetered(
  argumentsJson: string,
  inputSchema: JsonSchema | null | undefined,
  options?: Partial<RepairArgumentsOptions>,
): { readonly result: RepairResult; readonly units: number } {
  const opts = readOptions(options);
  const budget = new Budget(opts.budget);
  let result: RepairResult;
  try {
    result = repair(argumentsJson, inputSchema, opts, budget);
  } catch (e) {
    // Deep data under a limit set above what the runtime's stack holds (the
    // JSON reader recurses): a documented rejection, never a RangeError.
    if (!isStackOverflow(e)) throw e;
    result = reject([{ path: "", keyword: "recursion-limit" }], opts.onDiagnostic);
  }
  return { result, units: Math.min(budget.spent, budget.limit) };
}

function repair(
  argumentsJson: string,
  inputSchema: JsonSchema | null | undefined,
  opts: RepairArgumentsOptions,
  budget: Budget,
): RepairResult {
  const emit = opts.onDiagnostic;
  if (typeof argumentsJson !== "string")
    return reject([{ path: "", keyword: "invalid-json" }], emit);
  const limit = opts.recursionLimit;
  const first = readJsonTree(argumentsJson, limit);
  if (!first.ok) return reject([{ path: first.failure.path, keyword: first.failure.code }], emit);
  if (first.root.kind !== "object") return reject([{ path: "", keyword: "not-an-object" }], emit);
  if (inputSchema === null || inputSchema === undefined) {
    return { ok: true, argumentsJson, repairs: [] };
  }
  // The schema's units are charged on every call, compiled now or by an
  // earlier one: the outcome never depends on what ran before.
  const compiled = schemaValidator(inputSchema, opts.budget);
  const fits = budget.tryCharge(compiled.units);
  if ("refused" in compiled) return reject([{ path: "", keyword: compiled.refused }], emit);
  if (!fits) return reject([{ path: "", keyword: "schema-too-complex" }], emit);
  const validate: Validator = (value) => compiled.validate(value, budget);

  let text = argumentsJson;
  let root: JsonNode = first.root;
  let hasFloatText = first.hasFloatText;
  // Positions are kept and compared by their node in `positions`, never by
  // pointer string (see ./positions.ts: V8 hashes long strings by length).
  const positions = new Positions();
  let failures = new LocatedFailures(validate(validationValue(root)), positions);
  const repairs: Repair[] = [];
  const blocked = new Set<Position>();
  // Where a later round may change a value: where the arguments as written
  // failed, or inside a string's JSON parsed in place. A value the schema
  // admitted as written is never changed because a repair elsewhere switched
  // what applies to it (an omission turning an `if` to its `else`): that
  // would be a second reading of the call, chosen by us.
  const mayChange = new MayChange(failures);
  for (let round = 0; failures.list.length > 0 && round < maxRounds; round++) {
    const next = repairRound(
      text,
      root,
      failures,
      validate,
      positions,
      blocked,
      limit,
      compiled.presenceConditional,
      mayChange,
    );
    if (next === undefined) break;
    for (const c of next.applied) {
      repairs.push({ path: c.path, kind: c.kind });
      if (c.kind === "string-to-object" || c.kind === "string-to-array") mayChange.parsed.add(c.at);
    }
    ({ text, root, hasFloatText, failures } = next);
  }
  if (failures.list.length > 0) return reject(issuesOf(failures), emit);

  if (hasFloatText) {
    const notes: Diagnostic[] = [];
    const { candidates: literals, notWhole } = integerLiterals(root, inputSchema, notes);
    for (const d of notes) emit(d);
    if (notWhole.length > 0) {
      return reject(
        notWhole.map((path) => ({ path, keyword: "type" })),
        emit,
      );
    }
    if (literals.length > 0) {
      text = applyEdits(
        text,
        literals.map((c) => c.edit),
      );
      for (const c of literals) repairs.push({ path: c.path, kind: c.kind });
    }
  }
  for (const r of repairs) emit({ code: "argument-repaired", path: r.path, detail: r.kind });
  return { ok: true, argumentsJson: text, repairs };
}

/** The integer-literal rewrites; none when the schema reader cannot read a schema ajv accepted. */
function integerLiterals(
  root: JsonNode,
  schema: JsonSchema,
  notes: Diagnostic[],
): ReturnType<typeof integerLiteralCandidates> {
  try {
    return integerLiteralCandidates(root, schema, (code, path) => notes.push({ code, path }));
  } catch (e) {
    if (isStructJsonError(e)) return { candidates: [], notWhole: [] };
    throw e;
  }
}

/** The positions a repair round may change (see {@link repair}). */
class MayChange {
  /** The positions where the arguments as written failed. */
  private readonly failed: ReadonlySet<Position>;
  /** The positions of strings whose JSON was parsed in place. */
  readonly parsed = new Set<Position>();
  constructor(first: LocatedFailures) {
    this.failed = new Set(first.byPosition.keys());
  }
  has(at: Position): boolean {
    return this.failed.has(at) || hasAncestorIn(at, this.parsed);
  }
}

/** Validates a value under the call's budget. */
type Validator = (value: unknown) => readonly Failure[];

interface RoundResult {
  readonly text: string;
  readonly root: JsonNode;
  readonly hasFloatText: boolean;
  readonly failures: LocatedFailures;
  readonly applied: readonly RoundCandidate[];
}

/**
 * One round: propose a repair at each failing position, apply them together,
 * withdraw those whose position still fails (blocking it for later rounds),
 * until what is left is applied with no failure at its own position.
 * Undefined when nothing could be repaired.
 */
function repairRound(
  text: string,
  root: JsonNode,
  failures: LocatedFailures,
  validate: Validator,
  positions: Positions,
  blocked: Set<Position>,
  limit: number,
  presenceConditional: boolean,
  mayChange: MayChange,
): RoundResult | undefined {
  let candidates = findCandidates(root, failures, blocked, positions, limit).filter((c) =>
    mayChange.has(c.at),
  );
  for (let attempt = 0; candidates.length > 0 && attempt < maxAttempts; attempt++) {
    const nextText = applyEdits(
      text,
      candidates.map((c) => c.edit),
    );
    const tree = readJsonTree(nextText, limit);
    if (!tree.ok) {
      // Cannot happen for the edits above; never keep a text that does not read back.
      for (const c of candidates) blocked.add(c.at);
      return undefined;
    }
    const repaired = validationValue(tree.root);
    const nextFailures = new LocatedFailures(validate(repaired), positions);
    const broken = brokenByRepairs(failures, nextFailures, candidates);
    const stillFails = (c: RoundCandidate) =>
      (nextFailures.byPosition.has(c.at) && !awaitsInnerRepair(c, nextFailures)) || broken(c);
    const kept = candidates.filter((c) => !stillFails(c));
    if (kept.length === candidates.length) {
      // A candidate below a failed alternative may have another reading (see withAnotherReading).
      const alternatives = withAnotherReading(
        text,
        failures,
        candidates,
        repaired,
        validate,
        presenceConditional,
      );
      if (alternatives === "spent") {
        // The budget ran out while checking: the round ends with that failure.
        const spent = new LocatedFailures(spentFailure, positions);
        return { text, root, hasFloatText: false, failures: spent, applied: [] };
      }
      if (alternatives.length === 0) {
        return {
          text: nextText,
          root: tree.root,
          hasFloatText: tree.hasFloatText,
          failures: nextFailures,
          applied: candidates,
        };
      }
      const withdrawn = new Set(alternatives);
      for (const c of withdrawn) blocked.add(c.at);
      candidates = candidates.filter((c) => !withdrawn.has(c));
      continue;
    }
    for (const c of candidates) if (stillFails(c)) blocked.add(c.at);
    candidates = kept;
  }
  return undefined;
}

/**
 * True when a string's parsed JSON fails at its own position only as a union
 * summary (`anyOf`, `if`, a `oneOf` no two branches pass) or for branches that
 * admit no value of its kind, and fails below it: a branch that admits it
 * fails on its content, which the next round repairs. Without this, a string
 * holding an object whose member needs a repair was rejected under Pydantic's
 * `Optional` (`anyOf [{$ref}, {type: null}]`) though repaired without it.
 * Safe: no branch admitted the string (a candidate's every failure excludes
 * it), so its JSON is its one reading.
 */
function awaitsInnerRepair(c: RoundCandidate, failures: LocatedFailures): boolean {
  if (c.kind !== "string-to-object" && c.kind !== "string-to-array") return false;
  const kind = c.kind === "string-to-object" ? "object" : "array";
  for (const f of failures.byPosition.get(c.at) ?? []) {
    if (f.keyword === "anyOf" || f.keyword === "if") continue;
    if (f.keyword === "oneOf" && f.params.passingSchemas == null) continue;
    if (!excludes(f, kind)) return false;
  }
  return failures.failsBelow(c.at);
}

/**
 * The candidates a repair round must withdraw because applying them made a
 * position fail for a keyword it did not fail for before, where the
 * arguments as written met it: a proper ancestor of candidates (`uniqueItems`
 * over `["1",1]`, `minProperties` after an omission, a `not`, an `if`
 * switched to a failing `then`: those below it are withdrawn), or a position
 * unrelated to any candidate (an `if` switched to an `else` that fails a
 * sibling: no one candidate is to blame, so all are). Such a repair is not the
 * arguments' one reading, and a rejection must not describe a text we made.
 * Failures at or below a candidate are its own (its position still failing,
 * or a string's JSON parsed in place). Linear: each position is walked once.
 */
function brokenByRepairs(
  before: LocatedFailures,
  after: LocatedFailures,
  candidates: readonly RoundCandidate[],
): (c: RoundCandidate) => boolean {
  const broken: Position[] = [];
  for (const [at, list] of after.byPosition) {
    const had = new Set(before.byPosition.get(at)?.map((f) => f.keyword));
    if (list.some((f) => !stoppedKeywords.has(f.keyword) && !had.has(f.keyword))) broken.push(at);
  }
  if (broken.length === 0) return () => false;
  const own = new Set(candidates.map((c) => c.at));
  const above = new Set<Position>(); // proper ancestors of candidates
  for (const c of candidates) {
    for (let p = c.at.parent; p !== undefined && !above.has(p); p = p.parent) above.add(p);
  }
  const inOwn = memoizedAncestry(own);
  const marked = new Set<Position>();
  for (const at of broken) {
    if (inOwn(at)) continue;
    if (!above.has(at)) return () => true;
    marked.add(at);
  }
  const inMarked = memoizedAncestry(marked);
  return (c) => c.at.parent !== undefined && inMarked(c.at.parent);
}

/** Whether a position or one of its ancestors is in `set`; each position's answer is kept. */
function memoizedAncestry(set: ReadonlySet<Position>): (at: Position) => boolean {
  const known = new Map<Position, boolean>();
  return (at) => {
    const path: Position[] = [];
    let answer = false;
    for (let p: Position | undefined = at; p !== undefined; p = p.parent) {
      const k = known.get(p);
      if (k !== undefined) {
        answer = k;
        break;
      }
      path.push(p);
      if (set.has(p)) {
        answer = true;
        break;
      }
    }
    for (const p of path) known.set(p, answer);
    return answer;
  };
}

/** A validation that stopped (budget, refused pattern, stack): not a schema's verdict on the repair. */
const stoppedKeywords = new Set([
  "schema-too-complex",
  "schema-pattern-unevaluated",
  "recursion-limit",
  "schema-invalid",
]);

/** Keywords whose failure at a position may come from alternatives at the positions below it. */
const alternativeKeywords = new Set(["anyOf", "oneOf", "contains", "if"]);
const spentFailure: readonly Failure[] = [{ path: "", keyword: "schema-too-complex", params: {} }];

/**
 * The candidates whose value as written passes once the other candidates are
 * applied: those had more than one reading. A position fails under a union,
 * `contains` or `if` at an enclosing position when one alternative is not
 * met, though another may admit the value as written and fail elsewhere
 * (`anyOf [{a: integer}, {b: integer}]` with `{"a":"1","b":"2"}`: repairing
 * `/b` alone makes `"1"` valid; `contains: {const: true}` with
 * `["true","false"]`: `"false"` never needed to change); so can a member
 * omitted where `dependencies` applied a schema to its siblings. Only candidates
 * below such a failure are checked: one validation each, on the budget, of
 * `repaired` (the value with every candidate applied) with that one position
 * put back as written and then restored, so no check copies or reads the text.
 */
function withAnotherReading(
  text: string,
  failures: LocatedFailures,
  candidates: readonly RoundCandidate[],
  repaired: unknown,
  validate: Validator,
  presenceConditional: boolean,
): RoundCandidate[] | "spent" {
  const enclosing = new Set<Position>();
  failures.list.forEach((f, i) => {
    if (alternativeKeywords.has(f.keyword)) enclosing.add(failures.at[i]!);
  });
  if (presenceConditional) {
    // Omitting a member can switch off a dependent schema (`dependencies`,
    // `dependentSchemas`) that made its siblings fail: they are checked too.
    for (const c of candidates) {
      if (c.edit.type === "omit" && c.at.parent !== undefined) enclosing.add(c.at.parent);
    }
  }
  if (enclosing.size === 0) return [];
  const out: RoundCandidate[] = [];
  for (const c of candidates) {
    if (!hasAncestorIn(c.at, enclosing)) continue;
    const tokens = parsePointer(c.path);
    if (tokens === undefined || tokens.length === 0) continue;
    let parent = repaired as Record<string, unknown>;
    for (const t of tokens.slice(0, -1)) parent = parent[t] as Record<string, unknown>;
    const key = tokens[tokens.length - 1]!;
    const had = Object.hasOwn(parent, key);
    const now = parent[key];
    parent[key] = asWritten(text, c);
    const without = validate(repaired);
    if (had) parent[key] = now;
    else delete parent[key];
    if (without.some((f) => f.keyword === "schema-too-complex")) return "spent";
    // One comparison per failure, never a key: strings of other lengths are not read.
    if (!without.some((f) => f.path === c.path)) out.push(c);
  }
  return out;
}

/** True when a proper ancestor of `at` is in `set`. */
function hasAncestorIn(at: Position, set: ReadonlySet<Position>): boolean {
  for (let p = at.parent; p !== undefined; p = p.parent) if (set.has(p)) return true;
  return false;
}

/** The validation value a candidate replaces or omits, as the text has it. */
function asWritten(text: string, c: Candidate): unknown {
  switch (c.kind) {
    case "null-omitted":
      return null;
    case "empty-array-omitted":
      return [];
    default:
      // A string: its JSON literal is exactly the span the edit replaces.
      return c.edit.type === "replace"
        ? (JSON.parse(text.slice(c.edit.start, c.edit.end)) as unknown)
        : undefined;
  }
}

/**
 * The validator of `schema`, or its refusal. A compiled schema is opaque and
 * ajv needs the schema itself: reading the wrapper as a schema would accept
 * everything, so it is refused outright. A revoked proxy throws a TypeError
 * at the first look (instanceof, Array.isArray): not a schema either.
 */
function schemaValidator(schema: JsonSchema, limit: number): Compiled {
  try {
    return isCompiledSchema(schema)
      ? { refused: "schema-invalid", units: 0 }
      : validatorFor(schema, limit);
  } catch (e) {
    if (e instanceof TypeError) return { refused: "schema-invalid", units: 0 };
    throw e;
  }
}

/** Failures as issues: path and keyword only, each pair once, in ajv's order. */
function issuesOf(failures: LocatedFailures): Issue[] {
  const seen = new Map<Position, Set<string>>();
  const out: Issue[] = [];
  failures.list.forEach((f, i) => {
    const at = failures.at[i]!;
    let keywords = seen.get(at);
    if (keywords === undefined) {
      keywords = new Set();
      seen.set(at, keywords);
    } else if (keywords.has(f.keyword)) {
      return;
    }
    keywords.add(f.keyword);
    out.push({ path: f.path, keyword: f.keyword });
  });
  return out;
}

function reject(issues: readonly Issue[], emit: DiagnosticHandler): RepairResult {
  // By position, never by pointer string (see ./positions.ts).
  const positions = new Positions();
  const byPosition = new Map<Position, { path: JsonPointer; keywords: string[] }>();
  for (const i of issues) {
    const at = positions.of(i.path);
    const here = byPosition.get(at);
    if (here === undefined) byPosition.set(at, { path: i.path, keywords: [i.keyword] });
    else if (!here.keywords.includes(i.keyword)) here.keywords.push(i.keyword);
  }
  for (const { path, keywords } of byPosition.values()) {
    emit({ code: "argument-rejected", path, detail: keywords.join(",") });
  }
  return { ok: false, issues };
}

function readOptions(options: Partial<RepairArgumentsOptions> | undefined): RepairArgumentsOptions {
  return makeOptions(repairArgumentsDefaults, options, (o) => {
    checkFunction("onDiagnostic", o.onDiagnostic);
    checkLimit("recursionLimit", o.recursionLimit);
    checkLimit("budget", o.budget);
  });
}
