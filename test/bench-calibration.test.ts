// The harness's choice of calls per timed block and its warm-up before a
// process's first round (bench/timing.ts), on a fake clock: a slow first call
// or one pause during the calibration must not shrink the blocks of a whole
// process (a fresh-schema operation once ran with one call per block and read
// 10–17× its time).
import { describe, expect, test } from "vitest";
import type { PreparedOperation } from "../bench/operations.js";
import { calibrateBatch, warmUpAlternated } from "../bench/timing.js";

/** An operation whose k-th call (0-based) takes `cost(k)` ms on the fake clock it shares. */
function fakeOperation(
  cost: (k: number) => number,
  refills: boolean,
): { op: PreparedOperation; now: () => number } {
  let clock = 0;
  let calls = 0;
  const op: PreparedOperation = {
    call: () => {
      clock += cost(calls++);
      return "x";
    },
    ...(refills ? { refill: () => {} } : {}),
  };
  return { op, now: () => clock };
}

/** A call's cost in ms, a power of two so that the fake clock's sums are exact. */
const FAST = 2 ** -10;

describe("calibrateBatch: calls per block", () => {
  test.each([
    // [case, ms per call, refill, minSampleMs, batch]
    ["steady fast calls", () => FAST, false, 5, 5120],
    ["steady fast calls with fresh inputs (capped)", () => FAST, true, 5, 64],
    [
      "a 50 ms first call (compiling), then fast",
      (k: number) => (k === 0 ? 50 : FAST),
      false,
      5,
      5120,
    ],
    ["a 50 ms first call with fresh inputs", (k: number) => (k === 0 ? 50 : FAST), true, 5, 64],
    [
      "an 8 ms pause in the calibration's windows",
      (k: number) => (k === 40 ? 8 : FAST),
      false,
      5,
      5120,
    ],
    ["an 8 ms pause, fresh inputs", (k: number) => (k === 40 ? 8 : FAST), true, 5, 64],
    ["every call 6 ms: one call per block", () => 6, false, 5, 1],
    [
      "a 6 ms second call alone (a second form's code)",
      (k: number) => (k === 1 ? 6 : FAST),
      false,
      5,
      5120,
    ],
    [
      "6 ms second and third calls: one call per block",
      (k: number) => (k === 1 || k === 2 ? 6 : FAST),
      false,
      5,
      1,
    ],
    ["a 4.9 ms second call, then fast", (k: number) => (k === 1 ? 4.9 : FAST), true, 5, 64],
    ["1 ms calls", () => 1, false, 5, 5],
    ["0.375 ms calls with fresh inputs", () => 0.375, true, 5, 14],
  ] as const)("%s", (_, cost, refill, minSampleMs, batch) => {
    const { op, now } = fakeOperation(cost, refill);
    expect(calibrateBatch(op, minSampleMs, now)).toBe(batch);
  });
});

describe("warmUpAlternated: untimed blocks until every operation has run long enough", () => {
  test.each([
    // [case, ms per call of each operation, calls per block, warm-up ms, calls made]
    ["equal operations", [1, 1], [5, 5], 1000, [1000, 1000]],
    ["a slow and a fast one: each runs its own time", [4, 0.25], [2, 40], 1000, [250, 4000]],
    ["a block longer than the warm-up: one block", [8, 1], [200, 5], 1000, [200, 1000]],
    ["one operation throws: the other still warms", [-1, 1], [5, 5], 100, [1, 100]],
  ] as const)("%s", (_, costs, batches, ms, calls) => {
    let clock = 0;
    const made = costs.map(() => 0);
    const tasks = costs.map((cost, i) => ({
      id: `op${i}`,
      batch: batches[i]!,
      op: {
        call: () => {
          made[i]!++;
          if (cost < 0) throw new Error("broken");
          clock += cost;
          return "x";
        },
      },
    }));
    warmUpAlternated(tasks, ms, () => clock);
    expect(made).toEqual(calls);
  });
});
