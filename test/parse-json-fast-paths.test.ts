// The parser's allocation-free paths (issue 16): numbers computed from their
// digits, raw surrogate pairs read as plain text, escaped strings joined from
// slices of the input, arrays copied out of a shared stack. Each must give
// exactly what JSON.parse gives, and fail with the same code, path and
// position as the character-by-character reading it replaced.

import type { ListValue, Value } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { structMessageFromJson } from "../src/index.js";
import { parseJsonSpans, parseJsonText } from "../src/struct/parse-json.js";
import { type ExpectedError, expectStructJsonError } from "./hostile-helpers.js";

/** Fixed seed and run count: no verdict depends on time or chance. */
const runs = { seed: 0x16fa57, numRuns: 1500 };

/** The plain JSON value a Value message denotes (numbers kept as they are, -0 included). */
function plainOf(value: Value): unknown {
  const kind = value.kind;
  switch (kind.case) {
    case "structValue":
      return Object.fromEntries(Object.entries(kind.value.fields).map(([k, v]) => [k, plainOf(v)]));
    case "listValue":
      return (kind.value as ListValue).values.map(plainOf);
    case "nullValue":
      return null;
    default:
      return kind.value;
  }
}

/** True when every surrogate in `s` is half of a pair. */
function wellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = s.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

describe("numbers read from their digits", () => {
  const digitRun = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
  const numberText = fc
    .record({
      negative: fc.boolean(),
      whole: fc.oneof(fc.constant("0"), fc.tuple(fc.constantFrom(..."123456789"), digitRun(0, 17))),
      fraction: fc.option(digitRun(1, 17), { nil: undefined }),
      exponent: fc.option(fc.tuple(fc.constantFrom("e", "E", "e+", "e-", "E-"), digitRun(1, 3)), {
        nil: undefined,
      }),
    })
    .map(({ negative, whole, fraction, exponent }) => {
      const w = typeof whole === "string" ? whole : whole.join("");
      return `${negative ? "-" : ""}${w}${fraction === undefined ? "" : `.${fraction}`}${exponent === undefined ? "" : exponent.join("")}`;
    })
    .filter((t) => Number.isFinite(JSON.parse(t)));

  test("any number text (15 digits or fewer, and more): the float64 JSON.parse reads, -0 included", () => {
    fc.assert(
      fc.property(numberText, (text) => {
        const plain = parseJsonText(`[${text}]`, "plain", 2) as number[];
        expect(Object.is(plain[0], JSON.parse(text))).toBe(true);
        const struct = structMessageFromJson(`{"n":${text}}`);
        expect(Object.is(struct.fields.n?.kind.value, JSON.parse(text))).toBe(true);
      }),
      runs,
    );
  });

  test("integers of 16 to 19 digits (ids above 2^53), ties included: the float64 JSON.parse reads", () => {
    const digits = fc.bigInt({ min: 10n ** 15n, max: 10n ** 19n - 1n });
    // Halfway between two float64s above 2^53, and one either side: where rounding is hardest.
    const halfway = fc
      .tuple(
        fc.bigInt({ min: 53n, max: 62n }),
        fc.bigInt({ min: 0n, max: 2n ** 52n - 1n }),
        fc.bigInt({ min: -1n, max: 1n }),
      )
      .map(([e, m, off]) => (1n << e) + m * (1n << (e - 52n)) + (1n << (e - 53n)) + off);
    fc.assert(
      fc.property(fc.oneof(digits, halfway), fc.boolean(), (n, negative) => {
        const text = `${negative ? "-" : ""}${n}`;
        const plain = parseJsonText(`[${text}]`, "plain", 2) as number[];
        expect(Object.is(plain[0], JSON.parse(text))).toBe(true);
      }),
      { ...runs, numRuns: 5000 },
    );
  });

  const rows: [text: string, expected: number][] = [
    ["0", 0],
    ["-0", -0],
    ["-0.0", -0],
    ["0.1", 0.1],
    ["0.000000000000001", 1e-15],
    ["999999999999999", 999999999999999],
    ["-999999999999999", -999999999999999],
    ["9999999999999999", 1e16],
    ["9007199254740993", 9007199254740992],
    ["3095.88", 3095.88],
    ["52.97577251214534", 52.97577251214534],
    ["1.7976931348623157e308", Number.MAX_VALUE],
    ["123456.789012345", 123456.789012345],
    ["9223372036854775807", 2 ** 63],
    ["-9223372036854775808", -(2 ** 63)],
    ["9999999999999999999", 1e19],
    ["1152921504607621683", Number(1152921504607621683n)],
    ["18014398509481985", 18014398509481984],
  ];
  test.each(rows)("%s reads as JSON.parse reads it", (text, expected) => {
    const v = (parseJsonText(`[${text}]`, "plain", 2) as number[])[0];
    expect(Object.is(v, expected)).toBe(true);
  });

  test("a listener still hears about whole numbers written with a fraction and about lost precision", () => {
    const heard: string[] = [];
    parseJsonText('{"a":5.0,"b":1.50,"c":0.1,"d":9007199254740993,"e":7,"f":-2.00}', "struct", 5, {
      wholeWithFraction: (tokens) => heard.push(`whole ${tokens.join("/")}`),
      precisionLost: (tokens) => heard.push(`lost ${tokens.join("/")}`),
    });
    expect(heard).toEqual(["whole a", "lost d", "whole f"]);
  });
});

describe("strings: escapes joined from slices, raw pairs as plain text", () => {
  // Pieces of a JSON string's content, each with what it decodes to.
  const piece = fc.oneof(
    fc.string({ unit: fc.constantFrom(..."abc xyz09-_.:/"), minLength: 1, maxLength: 40 }),
    fc.constantFrom('\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"),
    fc.constantFrom("ü", "東京", "São", "\u00ff", "\u0100"),
    fc.constantFrom("\ud83d\ude9a", "\ud83d\ude00"), // raw pairs
    fc.constantFrom("\\ud83d\\ude9a", "\\uD83D\\uDE00", "\\ud83d\ude00", "\ud83d\\ude00"), // escaped, half-escaped
    fc
      .integer({ min: 0, max: 0xffff })
      .filter((c) => c < 0xd800 || c > 0xdfff)
      .map((c) => `\\u${c.toString(16).padStart(4, "0")}`),
  );
  const content = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(""));

  test("any well-formed string: the string JSON.parse reads", () => {
    fc.assert(
      fc.property(content, (body) => {
        const text = `{"${body}":["${body}"]}`;
        const expected = JSON.parse(text);
        expect(parseJsonText(text, "plain", 3)).toEqual(expected);
        expect(
          plainOf({
            $typeName: "google.protobuf.Value",
            kind: { case: "structValue", value: structMessageFromJson(text) },
          }),
        ).toEqual(expected);
      }),
      runs,
    );
  });

  // Lone surrogates anywhere: kept (spans, "keep") they read as JSON.parse reads them;
  // otherwise a string reads the same or is invalid-unicode, exactly when it holds one.
  const hostilePiece = fc.oneof(
    piece,
    fc.constantFrom("\ud800", "\udc00", "\udbff", "\\ud800", "\\udfff", "\\uDBFF"),
  );
  const hostileContent = fc.array(hostilePiece, { maxLength: 20 }).map((parts) => parts.join(""));
  test("lone surrogates: kept as JSON.parse keeps them, or invalid-unicode exactly when present", () => {
    fc.assert(
      fc.property(hostileContent, (body) => {
        const text = `"${body}"`;
        const expected = JSON.parse(text) as string;
        const kept = parseJsonSpans(text, 1, { loneSurrogates: "keep" });
        expect(kept.kind === "string" ? kept.value : undefined).toBe(expected);
        let read: unknown;
        try {
          read = parseJsonText(text, "plain", 1);
        } catch (e) {
          read = (e as { code: string }).code;
        }
        expect(read).toBe(wellFormed(expected) ? expected : "invalid-unicode");
      }),
      runs,
    );
  });

  test("a string of more escapes than one chunk (4096 parts) holds every character, in order", () => {
    const body = Array.from({ length: 10_000 }, (_, k) =>
      k % 3 === 0 ? "\\n" : k % 3 === 1 ? `run${k}` : "\\u6771\ud83d\ude9a",
    ).join("");
    const text = `{"s":"${body}"}`;
    expect(structMessageFromJson(text).fields.s?.kind.value).toBe(JSON.parse(text).s);
  });

  // Expected errors as the character-by-character reader reported them (same codes, paths, positions).
  const errors: [text: string, error: ExpectedError][] = [
    ['{"a":"x\ud800y"}', { code: "invalid-unicode", path: "/a", position: 8 }],
    ['{"a":"x\ud800"}', { code: "invalid-unicode", path: "/a", position: 8 }],
    ['{"a":"abc\udc00def"}', { code: "invalid-unicode", path: "/a", position: 10 }],
    ['{"a":"\ud800\\u0041"}', { code: "invalid-unicode", path: "/a", position: 7 }],
    ['{"a":"\\ud800x"}', { code: "invalid-unicode", path: "/a", position: 12 }],
    ['{"a":"ab\\n\ud800"}', { code: "invalid-unicode", path: "/a", position: 11 }],
    [
      '{"a":"ab\\n\ud83d\ude00\\t\ud800\ud800"}',
      { code: "invalid-unicode", path: "/a", position: 15 },
    ],
    ['{"a":"\\ud800\\uZZZZ"}', { code: "invalid-unicode", path: "/a", position: 12 }],
    ['{"a":"\ud83d', { code: "invalid-unicode", path: "/a", position: 7 }],
    ['{"a":"\\u12"}', { code: "invalid-json", path: "/a", position: 6 }],
    ['{"a":"\\u12', { code: "invalid-json", path: "/a", position: 6 }],
    ['{"a":"\\', { code: "invalid-json", path: "/a", position: 6 }],
    ['{"a":"abc\\q"}', { code: "invalid-json", path: "/a", position: 9 }],
    ['{"a":"ab\u0001"}', { code: "invalid-json", path: "/a", position: 8 }],
    ['{"a":"ab\\n\u0001"}', { code: "invalid-json", path: "/a", position: 10 }],
    ['{"a":"ab\\n', { code: "invalid-json", path: "/a", position: 10 }],
    ['{"a":"\ud83d\ude00', { code: "invalid-json", path: "/a", position: 8 }],
    // After an escape: what the JSON.parse path (escapedString) must leave to the loop.
    ['{"a":"\\n\\ud800"}', { code: "invalid-unicode", path: "/a", position: 14 }],
    ['{"a":"\\n\\udc00x"}', { code: "invalid-unicode", path: "/a", position: 14 }],
    ['{"a":"\\n\\ud800\\u0041"}', { code: "invalid-unicode", path: "/a", position: 14 }],
    ['{"a":"\\n\\ud83d\\ude0"}', { code: "invalid-unicode", path: "/a", position: 14 }],
    ['{"a":"\\n\\u12G4"}', { code: "invalid-json", path: "/a", position: 8 }],
    ['{"a":"\\n\\x"}', { code: "invalid-json", path: "/a", position: 8 }],
    ['{"a":"\\n\ud800"}', { code: "invalid-unicode", path: "/a", position: 9 }],
    ['{"a":"\\t\u001f"}', { code: "invalid-json", path: "/a", position: 8 }],
    ['{"a":"\\n\\ud83d\\ude00', { code: "invalid-json", path: "/a", position: 20 }],
    ['{"a\\u0062":1,"ab":2}', { code: "duplicate-key", path: "/ab", position: 13 }],
    ['{"a":-}', { code: "invalid-json", path: "/a", position: 6 }],
    ['{"a":-01}', { code: "invalid-json", path: "", position: 7 }],
    ['{"a":1.}', { code: "invalid-json", path: "/a", position: 7 }],
    ['{"a":1.5e}', { code: "invalid-json", path: "/a", position: 9 }],
    ['{"a":1e+}', { code: "invalid-json", path: "/a", position: 8 }],
    ['{"a":01}', { code: "invalid-json", path: "", position: 6 }],
    ['{"a":1e400}', { code: "number-out-of-range", path: "/a", position: 5 }],
    ['{"a":[1,[2,-1e400]]}', { code: "number-out-of-range", path: "/a/1/1", position: 11 }],
  ];
  test.each(errors)("%j: the same error as before", (text, error) => {
    expectStructJsonError(() => structMessageFromJson(text), error);
  });

  // Past its first 32 characters a string is read by a regular expression
  // (src/struct/parse-json.ts, PLAIN_RUN), and so is each run past the 32
  // characters after an escape or a raw pair: the same strings and the same
  // errors on either side of those points, and at them. Raw characters and
  // escapes alike; a raw pair before, across and at the point.
  const x = (n: number) => "x".repeat(n);
  const longStrings: string[] = [
    x(31),
    x(32),
    x(33),
    x(200),
    `${x(31)}\\u00e9${x(40)}`,
    `${x(31)}é${x(40)}`,
    `${x(32)}\\n${x(40)}`,
    `${x(33)}\\"${x(40)}\\\\`,
    `${x(30)}\ud83d\ude00${x(40)}`,
    `${x(31)}\ud83d\ude00${x(40)}`,
    `${x(32)}\ud83d\ude00${x(40)}`,
    `${x(50)}\\ud83d\\ude00${x(40)}\\u6771`,
    `${x(50)}ü東京São\u2028${x(40)}`,
    `${x(32)}\\u0000`,
    `\\n${x(31)}\\t${x(32)}\\"${x(33)}\\\\${x(200)}`,
    `\\n${x(40)}\ud83d\ude00${x(40)}\\u00e9${x(40)}é${x(40)}`,
    `\ud83d\ude00${x(40)}\ud83d\ude00${x(31)}\ud83d\ude00${x(32)}\ud83d\ude00${x(33)}`,
    `${x(40)}\\n${x(40)}\\ud83d\\ude00${x(40)}\\ud83d\ude00${x(40)}`,
    `${"\\n".repeat(300)}${x(40)}${"\\t".repeat(300)}`,
  ];
  test.each(longStrings)("long string %#: the string JSON.parse reads", (body) => {
    const text = `{"s":"${body}","t":["${body}"]}`;
    expect(parseJsonText(text, "plain", 3)).toEqual(JSON.parse(text));
    expect(structMessageFromJson(text).fields.s?.kind.value).toBe(JSON.parse(text).s);
  });

  const longErrors: [text: string, error: ExpectedError][] = [
    [`{"a":"${x(40)}`, { code: "invalid-json", path: "/a", position: 46 }],
    [`{"a":"${x(32)}`, { code: "invalid-json", path: "/a", position: 38 }],
    [`{"a":"${x(33)}`, { code: "invalid-json", path: "/a", position: 39 }],
    [`{"a":"${x(40)}\u0001"}`, { code: "invalid-json", path: "/a", position: 46 }],
    [`{"a":"${x(40)}\t"}`, { code: "invalid-json", path: "/a", position: 46 }],
    [`{"a":"${x(40)}\\q"}`, { code: "invalid-json", path: "/a", position: 46 }],
    [`{"a":"${x(32)}\\q"}`, { code: "invalid-json", path: "/a", position: 38 }],
    [`{"a":"${x(40)}\ud800${x(40)}"}`, { code: "invalid-unicode", path: "/a", position: 47 }],
    [`{"a":"${x(40)}\udc00"}`, { code: "invalid-unicode", path: "/a", position: 47 }],
    [`{"a":"${x(40)}\\ud800x"}`, { code: "invalid-unicode", path: "/a", position: 52 }],
    [`{"a":"${x(40)}\ud83d`, { code: "invalid-unicode", path: "/a", position: 47 }],
    [`{"a":"${x(40)}\ud83d\ude00`, { code: "invalid-json", path: "/a", position: 48 }],
    // The same errors in runs read after an escape or a raw pair.
    [`{"a":"\\n${x(40)}\u0001"}`, { code: "invalid-json", path: "/a", position: 48 }],
    [`{"a":"\\n${x(40)}`, { code: "invalid-json", path: "/a", position: 48 }],
    [`{"a":"\\n${x(40)}\ud800x"}`, { code: "invalid-unicode", path: "/a", position: 49 }],
    [`{"a":"\ud83d\ude00${x(40)}\\q"}`, { code: "invalid-json", path: "/a", position: 48 }],
    [`{"a":"\\n${x(40)}\\q"}`, { code: "invalid-json", path: "/a", position: 48 }],
    [`{"a":"\ud83d\ude00${x(40)}\u0001"}`, { code: "invalid-json", path: "/a", position: 48 }],
    [`{"a":"\\n${x(32)}\\ud800x"}`, { code: "invalid-unicode", path: "/a", position: 46 }],
    [
      `{"a":"\\t${x(40)}\ud83d\ude00${x(40)}\udc00"}`,
      { code: "invalid-unicode", path: "/a", position: 91 },
    ],
  ];
  test.each(longErrors)("long string %#: the same error as before", (text, error) => {
    expectStructJsonError(() => structMessageFromJson(text), error);
  });
});

describe("keys from the key cache", () => {
  /** The cache's slot of a plain key (as Parser.key computes it). */
  function slot(key: string): number {
    let hash = 0;
    for (let i = 0; i < key.length; i++) hash = (Math.imul(hash, 31) + key.charCodeAt(i)) | 0;
    return (hash ^ key.length) & 511;
  }
  // Keys of one length sharing a slot: each hit must still compare the text.
  const colliding: string[] = [];
  for (let n = 0; colliding.length < 6; n++) {
    const key = `k${n.toString(36).padStart(4, "0")}`;
    if (slot(key) === slot("k0000")) colliding.push(key);
  }

  test("keys sharing a slot, read again and again, stay distinct, in order", () => {
    const text = `{${colliding.map((k, i) => `"${k}":{"${colliding[(i + 1) % 6]}":${i}}`).join(",")}}`;
    for (let round = 0; round < 3; round++) {
      expect(parseJsonText(text, "plain", 3)).toEqual(JSON.parse(text));
      expect(Object.keys(structMessageFromJson(text).fields)).toEqual(colliding);
    }
  });

  test("a key seen in an earlier call is still a duplicate when repeated, and __proto__ stays a member", () => {
    structMessageFromJson('{"id":1,"__proto__":2}');
    expectStructJsonError(() => structMessageFromJson('{"id":1,"id":2}'), {
      code: "duplicate-key",
      path: "/id",
      position: 8,
    });
    const plain = parseJsonText('{"__proto__":{"x":1},"id":3}', "plain", 3) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(["__proto__", "id"]);
  });

  test("keys longer than the cached length, escaped or with surrogates read as JSON.parse reads them", () => {
    const twice = '{"\\ud83d\\ude9a":4,"\ud83d\ude9a":5}';
    expectStructJsonError(() => structMessageFromJson(twice), {
      code: "duplicate-key",
      path: "/\u{1f69a}",
      position: 18,
    });
    const text =
      '{"a_key_of_thirteen":1,"a_key_of_thirteen_":2,"e\\u0301":3,"\\ud83d\\ude9a":4,"x\ud83d\ude9a":5}';
    for (let round = 0; round < 2; round++) {
      expect(parseJsonText(text, "plain", 2)).toEqual(JSON.parse(text));
    }
  });
});

describe("arrays copied out of the shared stack", () => {
  test("nested and sibling arrays keep their own items, in order, at exactly their length", () => {
    const text = '{"a":[[1,[2,3],[]],[4],[[[5,6]]],7,[]],"b":[8,[9]],"c":[]}';
    const plain = parseJsonText(text, "plain", 10) as Record<string, unknown[]>;
    expect(plain).toEqual(JSON.parse(text));
    const struct = structMessageFromJson(text, { recursionLimit: 10 });
    const a = struct.fields.a?.kind;
    expect(a?.case === "listValue" ? a.value.values.length : -1).toBe(5);
    expect(
      plainOf({ $typeName: "google.protobuf.Value", kind: { case: "structValue", value: struct } }),
    ).toEqual(JSON.parse(text));
  });

  test("any nesting of arrays and objects: the value JSON.parse reads", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        fc.integer(),
        fc.string({ maxLength: 5 }),
        fc.array(tie("value"), { maxLength: 5 }),
        fc.dictionary(fc.string({ maxLength: 4 }), tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const text = JSON.stringify({ v });
        expect(parseJsonText(text, "plain", 100)).toEqual(JSON.parse(text));
      }),
      { ...runs, numRuns: 500 },
    );
  });
});
