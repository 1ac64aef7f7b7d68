// The package's own JSON writer (./src/struct/json-text-writer.ts): UTF-8
// bytes decoded once. Held to JSON.stringify on everything JSON.stringify can
// write, and to its own rules (RawText, sorted keys, any depth) on the rest.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { RawText } from "../src/struct/exact-number-text.js";
import { objectExactTexts, writeJsonText } from "../src/struct/json-text-writer.js";

describe("writeJsonText: strings and numbers as JSON.stringify writes them", () => {
  test.each([
    ["printable ASCII", "plain text ~!@#$%^&*()_+{}|:<>?"],
    ["quote and backslash", 'a "quoted" \\ back\\slash'],
    ["short escapes", "\b\t\n\f\r"],
    ["other control characters", "\u0000\u0001\u000b\u001f"],
    ["DEL and C1 controls are not escaped", "\u007f\u0080\u009f"],
    ["Latin-1 and two-byte UTF-8", "café ñ ß µ"],
    ["three-byte UTF-8", "東京 €"],
    ["U+2028 and U+2029 are not escaped", "a\u2028b\u2029c"],
    ["a surrogate pair (four-byte UTF-8)", "🚚 𝄞"],
    ["a lone high surrogate", "x\ud800y"],
    ["a lone low surrogate", "x\udc00y"],
    ["a high surrogate at the end", "x\udbff"],
    ["two high surrogates then a low one", "\ud800\ud800\udc00"],
    ["a low surrogate before a high one", "\udc00\ud800"],
    ["U+FEFF first", "\ufeffbom"],
    ["the empty string", ""],
    ["each UTF-8 length at its edges", "\u007f\u0080\u07ff\u0800\ud7ff\ue000\uffff"],
    ["the first and last four-byte characters", "\ud800\udc00\udbff\udfff"],
    ["an escape after non-ASCII and a pair", 'é🚚"\n'],
    ["a lone surrogate after non-ASCII and a pair", "é🚚\ud800é"],
    ["a long string that needs an escape at its end", `${"é".repeat(300)}\\`],
  ])("%s", (_, s) => {
    expect(writeJsonText(s, "", false)).toBe(JSON.stringify(s));
    expect(writeJsonText({ [s]: [s] }, "", false)).toBe(JSON.stringify({ [s]: [s] }));
  });

  test.each([
    [0, "0"],
    [-0, "0"],
    [1e21, "1e+21"],
    [-1.5e-7, "-1.5e-7"],
    [5e-324, "5e-324"],
    [2 ** 60, "1152921504606847000"],
    // Numbers of at most 15 significant digits and 6 decimals are written
    // digit by digit, the rest by String(v).
    [7, "7"],
    [-7, "-7"],
    [9, "9"],
    [10, "10"],
    [-10, "-10"],
    [99, "99"],
    [100, "100"],
    [999_999_999, "999999999"],
    [1_000_000_000, "1000000000"],
    [-1_000_000_000, "-1000000000"],
    [2 ** 31 - 1, "2147483647"],
    [-(2 ** 31 - 1), "-2147483647"],
    [-(2 ** 31), "-2147483648"],
    [2 ** 31, "2147483648"],
    [2 ** 32 + 5, "4294967301"],
    [2 ** 53 - 1, "9007199254740991"],
    [-0.5, "-0.5"],
    [1234.5, "1234.5"],
    [0.1, "0.1"],
    [-0.05, "-0.05"],
    [0.30000000000000004, "0.30000000000000004"],
    [123.456789, "123.456789"],
    [1.2345678, "1.2345678"],
    [0.000001, "0.000001"],
    [-0.000001, "-0.000001"],
    [0.0000015, "0.0000015"],
    [1e-7, "1e-7"],
    [0.1 + 0.7, "0.7999999999999999"],
    [99_999_999_999_999.9, "99999999999999.9"],
    [999_999_999_999_999.9, "999999999999999.9"],
    [123_456_789_012_345.6, "123456789012345.6"],
    [999_999_999_999_999, "999999999999999"],
    [1e15, "1000000000000000"],
    [-1e15 - 2, "-1000000000000002"],
    [2 ** 53 + 2, "9007199254740994"],
    [1e20 + 1, "100000000000000000000"],
    [Number.MIN_VALUE * 2, "1e-323"],
    [Number.MAX_VALUE, "1.7976931348623157e+308"],
    [Number.NaN, "null"],
    [Number.POSITIVE_INFINITY, "null"],
  ])("the number %d as %s", (v, text) => {
    expect(writeJsonText(v, "", false)).toBe(text);
    expect(writeJsonText([v], "", false)).toBe(`[${text}]`);
  });

  test.each([
    ["booleans and null", [true, false, null], "[true,false,null]"],
    ["empty containers", { a: [], b: {} }, '{"a":[],"b":{}}'],
    [
      "a hole and undefined in an array",
      Object.assign(new Array(3), { 0: 1, 2: undefined }),
      "[1,null,null]",
    ],
    [
      "undefined and a function in an object are null",
      { a: undefined, f: () => 1 },
      '{"a":null,"f":null}',
    ],
    [
      "integer-like keys first, as JSON.stringify",
      { b: 1, 2: 2, a: 3, 1: 4 },
      '{"1":4,"2":2,"b":1,"a":3}',
    ],
    [
      "an own __proto__ member",
      JSON.parse('{"__proto__":{"x":1}}') as unknown,
      '{"__proto__":{"x":1}}',
    ],
  ])("%s", (_, v, text) => {
    expect(writeJsonText(v, "", false)).toBe(text);
  });
});

describe("writeJsonText: its own texts, order and depth", () => {
  test("RawText is written as its text, anywhere", () => {
    const v = { id: new RawText("9007199254740993"), f: [new RawText("1.0"), 2] };
    expect(writeJsonText(v, "", false)).toBe('{"id":9007199254740993,"f":[1.0,2]}');
    expect(writeJsonText(new RawText("-0"), "", false)).toBe("-0");
  });

  test("sorted keys: by UTF-16 code units, at every level", () => {
    const v = { b: 1, a: { é: 1, z: 2, "\ud83d\ude9a": 3, "\uffff": 4 }, 10: 0, 2: 0 };
    expect(writeJsonText(v, "", true)).toBe(
      '{"10":0,"2":0,"a":{"z":2,"é":1,"🚚":3,"\uffff":4},"b":1}',
    );
  });

  test.each([["  "], ["\t"], ["--"]])("indented with %j as JSON.stringify indents", (indent) => {
    const v = { a: [1, { b: [] }, {}], c: "d", e: { f: null } };
    expect(writeJsonText(v, indent, false)).toBe(JSON.stringify(v, null, indent));
  });

  test("the sink's numeric indent is JSON.stringify's number of spaces", () => {
    const sink = objectExactTexts();
    const v = { a: [sink.decimal(3), sink.digits(2 ** 64)] };
    expect(sink.finish(v, 2)).toBe('{\n  "a": [\n    3.0,\n    18446744073709551616\n  ]\n}');
    expect(sink.finish(v, 0)).toBe('{"a":[3.0,18446744073709551616]}');
  });

  // Below 2^64 the digits come from float64 arithmetic, above it from BigInt.
  test.each([
    [2 ** 53 + 2, "9007199254740994"],
    [-(2 ** 54), "-18014398509481984"],
    [2 ** 60, "1152921504606846976"],
    [1e19, "10000000000000000000"],
    [1e19 + 2048, "10000000000000002048"],
    [10_000_000_001 * 2 ** 20, "10485760001048576"],
    [2 ** 63, "9223372036854775808"],
    [2 ** 64 - 2048, "18446744073709549568"],
    [-(2 ** 64 - 2048), "-18446744073709549568"],
    [2 ** 64, "18446744073709551616"],
    [2 ** 70, "1180591620717411303424"],
    [1e21, "1000000000000000000000"],
  ])("the sink's exact digits of %d: %s", (v, text) => {
    const sink = objectExactTexts();
    expect(sink.finish([sink.digits(v)], "")).toBe(`[${text}]`);
  });

  test.each([
    [0, "0.0"],
    [-0, "-0.0"],
    [3, "3.0"],
    [-12, "-12.0"],
    [2 ** 31, "2147483648.0"],
    [999_999_999_999_999, "999999999999999.0"],
    [1e15, "1000000000000000.0"],
    [-(2 ** 53), "-9007199254740992.0"],
    [1e20, "100000000000000000000.0"],
  ])("the sink's decimal literal of %d: %s", (v, text) => {
    const sink = objectExactTexts();
    expect(sink.finish({ x: sink.decimal(v) }, "")).toBe(`{"x":${text}}`);
  });

  // Strings from ENCODER_LENGTH (64) on go to the runtime's encoder whole, shorter ones
  // through the copy loop: each kind of content on both sides of the edge.
  test.each([
    ["printable ASCII", "a"],
    ["a quote", '"'],
    ["a backslash", "\\"],
    ["a control character", "\u0001"],
    ["a line feed", "\n"],
    ["DEL", "\u007f"],
    ["Latin-1", "é"],
    ["three-byte UTF-8", "東"],
    ["a surrogate pair", "🚚"],
    ["a lone high surrogate", "\ud800"],
    ["a lone low surrogate", "\udc00"],
  ])("strings of 62 to 66 units with %s first, in the middle and last", (_, c) => {
    for (let n = 62; n <= 66; n++) {
      const fill = "x".repeat(n - c.length);
      const middle = fill.length >> 1;
      for (const s of [c + fill, fill.slice(0, middle) + c + fill.slice(middle), fill + c]) {
        expect(s.length).toBe(n);
        const v = { [s]: [s, 1, s], k: s };
        expect(writeJsonText(v, "", false)).toBe(JSON.stringify(v));
        expect(writeJsonText(v, "  ", false)).toBe(JSON.stringify(v, null, "  "));
      }
    }
  });

  test("long strings among short ones, numbers and exact texts", () => {
    const long = `${"é".repeat(40)}${"x".repeat(40)}`;
    const v = [long, "short", -12, new RawText("1.0"), `${long}\n`, "ü", 3.25, long, null];
    expect(writeJsonText(v, "", false)).toBe(
      `[${JSON.stringify(long)},"short",-12,1.0,${JSON.stringify(`${long}\n`)},"ü",3.25,${JSON.stringify(long)},null]`,
    );
  });

  test("100,000 levels deep, without recursion", () => {
    let v: unknown = [];
    for (let i = 0; i < 100_000; i++) v = { a: [v] };
    expect(writeJsonText(v, "", false)).toBe(
      `${'{"a":['.repeat(100_000)}[]${"]}".repeat(100_000)}`,
    );
  });
});

describe("writeJsonText: one buffer, from call to call", () => {
  test("outputs past the buffer's size, and past what it keeps (16 MiB), then small ones", () => {
    const long = "é".repeat(100_000) + "x".repeat(100_000);
    expect(writeJsonText([long, long], "", false)).toBe(JSON.stringify([long, long]));
    const huge = "a".repeat(17 * 1024 * 1024);
    expect(writeJsonText({ huge }, "", false)).toBe(JSON.stringify({ huge }));
    expect(writeJsonText({ s: "small" }, "", false)).toBe('{"s":"small"}');
  });

  test("no call sees what an earlier one wrote", () => {
    expect(writeJsonText("x".repeat(5000), "", false)).toBe(JSON.stringify("x".repeat(5000)));
    expect(writeJsonText("", "", false)).toBe('""');
    expect(writeJsonText([], "", false)).toBe("[]");
  });

  test("an error thrown while writing leaves the next call whole", () => {
    expect(() => writeJsonText([1, 2n], "", false)).toThrow(TypeError);
    expect(writeJsonText([1, "two"], "", false)).toBe('[1,"two"]');
  });
});

describe("writeJsonText against JSON.stringify (seeded)", () => {
  const unit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
  const text = fc.oneof(
    fc.string(),
    fc.string({ unit: "grapheme" }),
    fc.string({ unit }),
    // Around and past the encoder's length (64 units).
    fc.string({ unit, minLength: 50, maxLength: 90 }),
    fc.string({ unit: "grapheme", minLength: 30, maxLength: 80 }),
  );
  const json = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.constant(null),
      fc.boolean(),
      fc.double(),
      fc.integer(),
      text,
      fc.array(tie("v"), { maxLength: 5 }),
      fc.dictionary(text, tie("v"), { maxKeys: 5 }),
    ),
  })).v;

  test("numbers: decimals of every length, at every scale", () => {
    const decimal = fc
      .tuple(fc.integer({ min: -(2 ** 53), max: 2 ** 53 }), fc.integer({ min: 0, max: 9 }))
      .map(([n, k]) => n / 10 ** k);
    const scaled = fc
      .tuple(fc.double({ noNaN: true }), fc.integer({ min: -8, max: 16 }))
      .map(([x, e]) => x * 10 ** e);
    fc.assert(
      fc.property(fc.array(fc.oneof(decimal, scaled, fc.double()), { maxLength: 20 }), (a) => {
        expect(writeJsonText(a, "", false)).toBe(JSON.stringify(a));
      }),
      { seed: 20261208, numRuns: 5000 },
    );
  });

  test("the sink's whole numbers: exact digits and decimal literals at every size", () => {
    const sink = objectExactTexts();
    const wholes = fc.tuple(fc.double({ min: 2 ** 53, max: 2 ** 80, noNaN: true }), fc.boolean());
    fc.assert(
      fc.property(
        fc.array(wholes, { maxLength: 10 }),
        fc.double({ min: -1e21, max: 1e21 }),
        (a, d) => {
          const vs = a.map(([x, minus]) => (minus ? -1 : 1) * Math.round(x));
          const w = Math.trunc(d);
          const out = [...vs.map((v) => sink.digits(v)), sink.decimal(w)];
          const text = [...vs.map((v) => BigInt(v).toString()), `${Object.is(w, -0) ? "-0" : w}.0`];
          expect(sink.finish(out, "")).toBe(`[${text.join(",")}]`);
        },
      ),
      { seed: 20261208, numRuns: 3000 },
    );
  });

  test("compact and indented", () => {
    fc.assert(
      fc.property(json, fc.constantFrom("", "  ", "\t"), (v, indent) => {
        expect(writeJsonText(v, indent, false)).toBe(JSON.stringify(v, null, indent));
      }),
      { seed: 20261202, numRuns: 3000 },
    );
  });
});
