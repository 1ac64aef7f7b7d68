// Issue 7, the in-suite fuzz run: a few hundred seeded cases per target, each
// bounded in time (the long, time-boxed run is `npm run fuzz`). A failure
// prints the command that replays the case.
import { describe, expect, test } from "vitest";
import { BOUND } from "../hostile-helpers.js";
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
        const started = performance.now();
        const finding = runCase(input, tally);
        const ms = performance.now() - started;
        if (finding !== undefined || ms > BOUND.big) {
          const what =
            finding === undefined
              ? `took ${Math.round(ms)} ms`
              : `${finding.kind}: ${finding.detail}`;
          expect.fail(`${what}\n${describeCase(input, SEED, i)}`);
        }
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
