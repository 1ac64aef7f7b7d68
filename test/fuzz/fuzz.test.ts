// Issue 7, the in-suite fuzz run: a few hundred seeded cases per target (the
// long runs are `npm run fuzz`). A failure prints the command that replays the
// case. No verdict depends on time (issue 12): a case that hangs is stopped by
// vitest's test timeout, a wall-clock guard, not a speed check.
import { describe, expect, test } from "vitest";
import { buildCase, describeCase, runCase, type TargetName } from "./cases.js";
import type { Tally } from "./targets.js";

const SEED = 20_261_129;
const CASES: Record<TargetName, number> = { protobuf: 400, json: 400 };

describe("fuzz (short, seeded)", () => {
  for (const target of ["protobuf", "json"] as const) {
    test(`${target}: ${CASES[target]} mutated inputs, each fine or rejected with the right error`, () => {
      const tally: Tally = {};
      for (let i = 0; i < CASES[target]; i++) {
        const input = buildCase(target, SEED, i);
        const finding = runCase(input, tally);
        if (finding !== undefined)
          expect.fail(`${finding.kind}: ${finding.detail}\n${describeCase(input, SEED, i)}`);
      }
      // The cases reach every outcome the oracles check, not just parse errors.
      const outcomes = Object.keys(tally);
      if (target === "protobuf") {
        expect(outcomes).toEqual(
          expect.arrayContaining([
            "protobuf-es decode error",
            "raw text verified",
            "struct path",
            "error raw-struct-mismatch",
          ]),
        );
      } else {
        expect(outcomes).toEqual(
          expect.arrayContaining([
            "accepted",
            "error invalid-json",
            "error duplicate-key",
            "error invalid-unicode",
          ]),
        );
      }
    });
  }
});
