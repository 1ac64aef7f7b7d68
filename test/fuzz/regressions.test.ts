// Issue 12: what the fuzzer found, kept as exact cases. Each row is a text the
// package must reject with exactly this code, path and position, and that the
// fuzz oracle must accept as rightly rejected (or accepted). The oracle's own
// view of a text (json-scan.ts) is tested below it.
import { create, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import { CallMCPToolSchema, ClientActionSchema } from "../../gen/toolbridge/v1/toolbridge_pb.js";
import { structMessageFromJson } from "../../src/struct/from-json.js";
import { toolCallToJson } from "../../src/tool/tool-call.js";
import { type ExpectedError, expectStructJsonError } from "../hostile-helpers.js";
import { scanJsonText } from "./json-scan.js";
import { jsonCase, protobufCase } from "./targets.js";

const REJECTED: readonly (readonly [why: string, text: string, expected: ExpectedError])[] = [
  [
    // Seed 1, iteration 38441 of the old 60 s CI run: JSON.parse keeps the second
    // "f" (1.5e300) and never sees the first, beyond float64; a left-to-right
    // reader meets the huge number before the duplicate key. Either code is right.
    "a huge number in a member that a later duplicate key replaces",
    '{"big":18446744073709551615,"neg":-9223372036854775809,"f":1.5e336854775809,"f":1.5e300,"tiny":5e-324}',
    { code: "number-out-of-range", path: "/f", position: 59 },
  ],
  [
    "a lone surrogate in a member that a later duplicate key replaces",
    '{"a":"\\ud800","a":1}',
    { code: "invalid-unicode", path: "/a", position: 12 },
  ],
];

describe("fuzz regressions: the package's code and the oracle's verdict", () => {
  test.each(REJECTED)("%s", (_why, text, expected) => {
    expectStructJsonError(() => structMessageFromJson(text), expected);
    expect(jsonCase(text)).toBeUndefined();
  });
});

const SCANS: readonly (readonly [
  text: string,
  syntaxError: number | undefined,
  reasons: readonly string[],
])[] = [
  ['{"a":1}', undefined, []],
  [' {"a" : [1, {"b":null}] } ', undefined, []],
  ["[1]", undefined, ["not-an-object "]],
  ['"x"', undefined, ["not-an-object "]],
  // every member counts, not only the one JSON.parse keeps
  ['{"f":1e999,"f":1}', undefined, ["number-out-of-range /f", "duplicate-key /f"]],
  ['{"a":"\\ud800","a":1}', undefined, ["invalid-unicode /a", "duplicate-key /a"]],
  ['{"o":{"\\ud800":1}}', undefined, ["invalid-unicode /o"]],
  ['{"a":"\\ud83d\\ude00","\\u0061":2}', undefined, ["duplicate-key /a"]],
  ['{"a/b~":[0,-1e400],"b":1e-400}', undefined, ["number-out-of-range /a~1b~0/1"]],
  [
    // the top object is level 1: level 50 is the first too deep
    `{"a":[1,${"[".repeat(48)}${"]".repeat(48)}],"b":${"[".repeat(48)}${"]".repeat(48)}}`,
    undefined,
    [`recursion-limit /a/1${"/0".repeat(47)}`],
  ],
  [
    `{"a":${"[".repeat(48)}"\\ud800"${"]".repeat(48)}}`,
    undefined,
    [`invalid-unicode /a${"/0".repeat(48)}`],
  ],
  // inside a container past the limit only the depth counts
  [
    `{"a":${"[".repeat(49)}"\\ud800"${"]".repeat(49)}}`,
    undefined,
    [`recursion-limit /a${"/0".repeat(48)}`],
  ],
  // rules broken before the first syntax error count; after it, not
  ['{"a":1e999,}', 11, ["number-out-of-range /a"]],
  ['{"a":1e999x}', 10, ["number-out-of-range /a"]],
  ['{"a":1,} {"b":1e999}', 7, []],
  // a string cut short by the error counts with what it held: a high surrogate last is lone
  ['{"a":"\\ud800\u0001"}', 12, ["invalid-unicode /a"]],
  ['{"a":"\\ud83d\\ude0x"}', 12, ["invalid-unicode /a"]],
  ['{"a":"\\ud800', 12, ["invalid-unicode /a"]],
  ['{"a":"\\ud83d\\ude00', 18, []],
  // plain syntax errors, at the first character that cannot continue a JSON text
  ["", 0, []],
  ["{", 1, []],
  ['{"a":01}', 6, []],
  ['{"a":1.}', 6, []],
  ['{"a":-}', 5, []],
  ['{"a":tru}', 5, []],
  ['{"a":"\\x"}', 6, []],
  ['{"a" 1}', 5, []],
  ['{"a":1}}', 7, []],
  ["{\u00a0}", 1, []],
];

// The long runs' finding (seed 1, protobuf, iterations 88, 418, 1275 before the
// fix): raw_args_json whose zero has the other sign than the Struct's was passed
// through as verified. Fixed in src/tool/raw-json.ts (Object.is); the oracle now tells
// -0 from 0 wherever raw text and Struct must agree.
const SIGNED_ZEROS: readonly (readonly [args: JsonObject, raw: string, path: string])[] = [
  [{ z: 0 }, '{"z":-0.0}', "/z"],
  [{ z: -0 }, '{"z":0}', "/z"],
  [{ a: [1, -0] }, '{"a":[1,0]}', "/a/1"],
  [{ a: { b: 0 } }, '{"a":{"b":-0e0}}', "/a/b"],
];

describe("fuzz regressions: raw text and Struct disagree on a zero's sign", () => {
  test.each(SIGNED_ZEROS)("%j beside %s: raw-struct-mismatch at %s", (args, raw, path) => {
    const call = create(CallMCPToolSchema, { name: "t", args, rawArgsJson: raw });
    expectStructJsonError(() => toolCallToJson(call, undefined), {
      code: "raw-struct-mismatch",
      path,
    });
    const bytes = toBinary(
      ClientActionSchema,
      create(ClientActionSchema, { action: { case: "callMcpTool", value: call } }),
    );
    expect(protobufCase(bytes, undefined)).toBeUndefined();
  });
});

/** Where the scan places each break: the index the package's error names. */
const POSITIONS: readonly (readonly [text: string, positions: readonly string[]])[] = [
  ['{"a":1,"b":-1e999}', ["number-out-of-range @11"]],
  ['{"a":1, "a":2}', ["duplicate-key @8"]],
  [`{"a":${"[".repeat(60)}${"]".repeat(60)}}`, ["recursion-limit @53"]],
  // just after the first lone surrogate, escaped or literal, in a key or a value
  ['{"a":"\\ud800"}', ["invalid-unicode @12"]],
  ['{"a":"\\udc00\\ud800"}', ["invalid-unicode @12"]],
  ['{"a":"\\ud800\\u0041"}', ["invalid-unicode @12"]],
  ['{"a":"x\\ud83d\\ude00\\n\\ud83d"}', ["invalid-unicode @27"]],
  ['{"a":"\ud800"}', ["invalid-unicode @7"]],
  ['{"a":"x\udc00"}', ["invalid-unicode @8"]],
  ['{"\\ud800":1}', ["invalid-unicode @8"]],
  ['{"a":"\ud83d\ude00"}', []],
];

describe("the oracle's scan of a JSON text", () => {
  test.each(REJECTED)("places the break where the package does: %s", (_why, text, expected) => {
    expect(scanJsonText(text, 49).positions).toContain(`${expected.code} @${expected.position}`);
  });

  test.each(SCANS)("%j: syntax error at %s, breaks %j", (text, syntaxError, reasons) => {
    const scan = scanJsonText(text, 49);
    expect({
      syntaxError: scan.syntaxError,
      broken: [...scan.broken].sort(),
      reasons: [...scan.reasons].sort(),
    }).toEqual({
      syntaxError,
      broken: [...new Set(reasons.map((r) => r.split(" ")[0]))].sort(),
      reasons: [...reasons].sort(),
    });
    let parsed = true;
    try {
      JSON.parse(text);
    } catch {
      parsed = false;
    }
    expect(parsed).toBe(syntaxError === undefined);
  });

  test.each(POSITIONS)("%j breaks %j", (text, positions) => {
    expect([...scanJsonText(text, 49).positions].sort()).toEqual([...positions].sort());
  });

  test("200,000 levels of nesting: no recursion", () => {
    const text = `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    const scan = scanJsonText(text, 49);
    expect(scan).toEqual({
      syntaxError: undefined,
      broken: new Set(["recursion-limit"]),
      reasons: new Set([`recursion-limit /a${"/0".repeat(48)}`]),
      positions: new Set([`recursion-limit @${'{"a":'.length + 48}`]),
      depth: 200_001,
    });
  });
});
