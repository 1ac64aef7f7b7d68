// The texts of ./src/struct/number-output.ts: the same as JavaScript's own
// (String, BigInt) on every whole number, whichever fast path writes it.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { nativeExactTexts } from "../src/struct/exact-number-text.js";
import { objectExactTexts } from "../src/struct/json-text-writer.js";
import { decimalText, digitsText, plainNumberText } from "../src/struct/number-output.js";

const TWO_30 = 2 ** 30;
const TWO_53 = 2 ** 53;
const TWO_54 = 2 ** 54;

/** Whole numbers at every boundary the fast paths have: V8's small integers, 2^31, 2^53, 2^54. */
const boundaries = [0, -0, 1, -1, TWO_30 - 1, TWO_30, -TWO_30, -TWO_30 - 1, 2 ** 31, -(2 ** 31)]
  .concat([TWO_53 - 1, TWO_53, TWO_53 + 2, -TWO_53, TWO_54 - 2, TWO_54, TWO_54 + 4, -TWO_54])
  .concat([2 ** 60, 2 ** 63, 2 ** 64, 1e21, 1.7976931348623157e308, -(2 ** 70)]);

describe("number texts", () => {
  test.each(boundaries.map((v) => [Object.is(v, -0) ? "-0" : String(v), v]))(
    "%s: digits exact, plain text as String's",
    (_, v) => {
      expect(digitsText(v)).toBe(BigInt(v).toString());
      expect(plainNumberText(v)).toBe(v === 0 ? "0" : String(v));
    },
  );

  test.each([
    [0.75, "0.75"],
    [-1.5e-7, "-1.5e-7"],
    [1e21, "1e+21"],
    [123456789.5, "123456789.5"],
    [2 ** 31 + 0.5, "2147483648.5"],
  ])("a fraction or an exponent form, %s, is written as String writes it", (v, text) => {
    expect(plainNumberText(v)).toBe(text);
  });

  test("seeded: whole numbers of every magnitude up to 2^70 and fractions", () => {
    const whole = fc
      .tuple(
        fc.integer({ min: 0, max: 70 }),
        fc.double({ min: 1, max: 2, noNaN: true }),
        fc.boolean(),
      )
      .map(([e, m, neg]) => (neg ? -1 : 1) * Math.floor(2 ** e * m));
    fc.assert(
      fc.property(whole, (v) => {
        expect(digitsText(v)).toBe(BigInt(v).toString());
        expect(plainNumberText(v)).toBe(v === 0 ? "0" : String(v));
        if (Math.abs(v) < 1e21) expect(decimalText(v)).toBe(`${String(v)}.0`);
      }),
      { seed: 20261130, numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (v) => {
        expect(plainNumberText(v)).toBe(v === 0 ? "0" : String(v));
      }),
      { seed: 20261131, numRuns: 5000 },
    );
  });
});

describe("whole numbers written as floats, through each sink of exact texts", () => {
  // The runtime's sink hands out one JSON.rawJSON object per small whole
  // number, reused at every place: each place must still read as its own.
  const sinks = [
    ["runtime", nativeExactTexts],
    ["objects", objectExactTexts],
  ] as const;
  const wholes = [0, -0, 1, 3, 1023, 1024, -1, -3, 2 ** 31, 1e20, 2 ** 53];
  test.each(sinks.flatMap(([name, make]) => wholes.map((v) => [name, v, make] as const)))(
    "%s: %d twice, beside other numbers",
    (_name, v, make) => {
      // One sink per call, as the writer makes them (markers count their texts).
      const sink = make();
      if (sink === undefined) {
        expect(typeof (JSON as { rawJSON?: unknown }).rawJSON).toBe("undefined");
        return;
      }
      const value = { a: sink.decimal(v), b: [sink.decimal(v), 2, sink.decimal(v + 1)] };
      const t = decimalText(v);
      expect(sink.finish(value, 0)).toBe(`{"a":${t},"b":[${t},2,${decimalText(v + 1)}]}`);
    },
  );

  test("the runtime's stand-ins of 0.0 to 1023.0 are made once each", () => {
    const sink = nativeExactTexts();
    if (sink === undefined) {
      expect(typeof (JSON as { rawJSON?: unknown }).rawJSON).toBe("undefined");
      return;
    }
    expect(sink.decimal(7)).toBe(sink.decimal(7));
    expect(sink.decimal(0)).toBe(sink.decimal(0));
    expect(sink.decimal(-0)).not.toBe(sink.decimal(0));
    expect(sink.decimal(1024)).not.toBe(sink.decimal(1024));
  });
});
