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
