// Helpers shared by the hostile-input tests: exact error expectations and timing.
import { expect } from "vitest";
import { isStructJsonError, type StructJsonError } from "../src/errors.js";

/** What a hostile input must fail with. */
export interface ExpectedError {
  readonly code: StructJsonError["code"];
  readonly path: string;
  readonly position?: number;
}

/** Runs `f`, asserting it throws the package's error with exactly this code and path (and position). */
export function expectStructJsonError(f: () => unknown, expected: ExpectedError): StructJsonError {
  let error: unknown;
  try {
    f();
  } catch (e) {
    error = e;
  }
  expect(error, "expected a StructJsonError, got none").toBeDefined();
  if (!isStructJsonError(error)) throw error;
  expect({ code: error.code, path: error.path, position: error.position }).toEqual({
    code: expected.code,
    path: expected.path,
    position: expected.position ?? error.position,
  });
  return error;
}

/** Runs `f` and returns its result and how long it took. */
export function timed<T>(f: () => T): { result: T; ms: number } {
  const start = performance.now();
  const result = f();
  return { result, ms: performance.now() - start };
}

/**
 * Hang guards, not speed checks: each is hundreds of times what the operation
 * needs on an idle machine, so no verdict depends on how fast the machine is;
 * they only turn a hang (the bug these tests look for) into a failure before
 * vitest's 60 s test timeout does. Work bounds are asserted in units elsewhere
 * (test/schema-budget.test.ts, test/repair-budget.test.ts).
 */
export const BOUND = {
  /** Rejections that stop early (depth, a bad byte): milliseconds when idle. */
  fast: 10_000,
  /** One pass over a 50 MB input: about half a second when idle. */
  big: 30_000,
  /** One pass over a million keys: V8 builds such objects slowly (JSON.parse needs seconds too). */
  huge: 40_000,
} as const;

/** V8 hashes a string longer than this by its length alone (`String::kMaxHashCalcLength`). */
export const V8_HASHED_LENGTH = 16_383;

/**
 * Runs `f` and returns its result and the most distinct strings longer than
 * {@link V8_HASHED_LENGTH} that any one `Map` (as keys) or `Set` took while it
 * ran. V8 hashes such strings by their length alone, so a collection holding
 * many of them (JSON Pointers under one long key) probes linearly: quadratic
 * overall. Counted, never timed: the verdict does not depend on the machine.
 */
export function longStringKeys<T>(f: () => T): { result: T; most: number } {
  const counts = new WeakMap<object, number>();
  let most = 0;
  const note = (collection: Map<unknown, unknown> | Set<unknown>, key: unknown): void => {
    if (typeof key !== "string" || key.length <= V8_HASHED_LENGTH || collection.has(key)) return;
    const n = (counts.get(collection) ?? 0) + 1;
    counts.set(collection, n);
    if (n > most) most = n;
  };
  const mapSet = Map.prototype.set;
  const setAdd = Set.prototype.add;
  Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    note(this, key);
    return mapSet.call(this, key, value);
  };
  Set.prototype.add = function (this: Set<unknown>, value: unknown) {
    note(this, value);
    return setAdd.call(this, value);
  };
  try {
    return { result: f(), most };
  } finally {
    Map.prototype.set = mapSet;
    Set.prototype.add = setAdd;
  }
}
