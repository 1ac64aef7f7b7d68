// Issue 7, hostile JSON texts: what a model (or whoever speaks for it) may send
// as tool-call arguments. Each row names the exact error code, path and
// position, or the input is huge and the test bounds its time and checks the
// answer. Big inputs are built once for the file.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import { CallMCPToolSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import { collectDiagnostics } from "../src/diagnostics.js";
import { structMessageFromJson } from "../src/struct/from-json.js";
import { structMessageToJson } from "../src/struct/to-json.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import { BOUND, type ExpectedError, expectStructJsonError, timed } from "./hostile-helpers.js";

const DEPTH = 100_000;

describe("depth 100,000", () => {
  const rows: [name: string, text: string, error: ExpectedError][] = [
    [
      "arrays",
      `{"a":${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}}`,
      // Level 50 is the first too deep (recursionLimit 49): the array at /a/0…/0 (48 zeros).
      { code: "recursion-limit", path: `/a${"/0".repeat(48)}`, position: 53 },
    ],
    [
      "objects",
      `{"a":${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}}`,
      { code: "recursion-limit", path: "/a".repeat(49), position: 245 },
    ],
    [
      "arrays never closed",
      `{"a":${"[".repeat(DEPTH)}`,
      { code: "recursion-limit", path: `/a${"/0".repeat(48)}`, position: 53 },
    ],
    [
      "objects and arrays alternating",
      `{"a":${'[{"b":'.repeat(DEPTH / 2)}0${"}]".repeat(DEPTH / 2)}}`,
      { code: "recursion-limit", path: `/a${"/0/b".repeat(24)}`, position: 5 + 6 * 24 },
    ],
  ];
  for (const [name, text, error] of rows) {
    test(`${name}: structMessageFromJson and toolCallFromJson throw recursion-limit early`, () => {
      const { ms } = timed(() => {
        expectStructJsonError(() => structMessageFromJson(text), error);
        expectStructJsonError(() => toolCallFromJson({ name: "t", argumentsJson: text }), error);
      });
      expect(ms).toBeLessThan(BOUND.fast);
    });
  }

  test("with recursionLimit raised to 10^9 the parser keeps its own stack: no recursion, no RangeError", () => {
    // Deep objects are read in full.
    let node = structMessageFromJson(rows[1]![1], { recursionLimit: 1e9 }).fields.a;
    let depth = 0;
    while (node?.kind.case === "structValue") {
      node = node.kind.value.fields.a;
      depth++;
    }
    expect(depth).toBe(DEPTH);
    expect(node?.kind).toEqual({ case: "numberValue", value: 1 });
    // Arrays never closed run into the end of the text, at the deepest path.
    const text = rows[2]![1];
    expectStructJsonError(() => structMessageFromJson(text, { recursionLimit: 1e9 }), {
      code: "invalid-json",
      path: `/a${"/0".repeat(DEPTH)}`,
      position: text.length,
    });
  });
});

describe("a 50 MB string", () => {
  const MB50 = 50 * 1024 * 1024;
  const plain = `{"s":"${"x".repeat(MB50)}"}`;

  test("plain: parsed, carried through protobuf bytes and returned byte-exact, in bounded time", () => {
    const { ms } = timed(() => {
      const struct = structMessageFromJson(plain);
      const s = struct.fields.s?.kind;
      expect(s?.case === "stringValue" ? s.value.length : -1).toBe(MB50);
      const call = toolCallFromJson({ name: "t", argumentsJson: plain });
      const back = fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, call));
      expect(toolCallToJson(back) === plain).toBe(true);
      expect(toolCallToJson(back, null, { rawJson: "ignore" }) === plain).toBe(true);
    });
    expect(ms).toBeLessThan(BOUND.big * 2);
  });

  test("all escapes (25 million \\n): decoded in bounded time and memory", () => {
    // Regression: the string decoder appended one character at a time, building
    // a rope of 25 million nodes (about 9 s and 900 MB); now chunked.
    const escaped = `{"s":"${"\\n".repeat(MB50 / 2)}"}`;
    const heapBefore = process.memoryUsage().heapUsed;
    const { result, ms } = timed(() => structMessageFromJson(escaped));
    expect(ms).toBeLessThan(BOUND.big);
    const s = result.fields.s?.kind.value as string;
    expect(s.length).toBe(MB50 / 2);
    expect(s === "\n".repeat(MB50 / 2)).toBe(true);
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(400 * 1024 * 1024);
  });
});

describe("1,000,000 keys", () => {
  const N = 1_000_000;
  const parts: string[] = [];
  for (let i = 0; i < N; i++) parts.push(`"k${i}":${i}`);
  const text = `{${parts.join(",")}}`;
  parts.length = 0;

  test("structMessageFromJson and back through structMessageToJson, in bounded time", () => {
    const { ms } = timed(() => {
      const struct = structMessageFromJson(text);
      expect(Object.keys(struct.fields).length).toBe(N);
      expect(structMessageToJson(struct) === text).toBe(true);
    });
    expect(ms).toBeLessThan(BOUND.huge);
  });

  test("a tool call: the raw text verified against the Struct, in bounded time", () => {
    const { ms } = timed(() => {
      const call = toolCallFromJson({ name: "t", argumentsJson: text });
      expect(toolCallToJson(call) === text).toBe(true);
    });
    expect(ms).toBeLessThan(BOUND.huge);
  });
});

describe("numbers beyond float64", () => {
  const rows: [text: string, error: ExpectedError][] = [
    ['{"a":1e400}', { code: "number-out-of-range", path: "/a", position: 5 }],
    ['{"a":-1e400}', { code: "number-out-of-range", path: "/a", position: 5 }],
    ['{"a":[0,1E400]}', { code: "number-out-of-range", path: "/a/1", position: 8 }],
    ['{"a":1e309}', { code: "number-out-of-range", path: "/a", position: 5 }],
    [`{"a":${"9".repeat(400)}}`, { code: "number-out-of-range", path: "/a", position: 5 }],
  ];
  for (const [text, error] of rows) {
    test(`${text.slice(0, 24)}: ${error.code} at ${error.path}`, () => {
      expectStructJsonError(() => structMessageFromJson(text), error);
      expectStructJsonError(() => toolCallFromJson({ name: "t", argumentsJson: text }), error);
    });
  }

  test.each([
    ['{"a":1e-400}', "/a"],
    ['{"a":-1e-400}', "/a"],
    ['{"b":[1,1e-400]}', "/b/1"],
  ])(
    "%s underflows to 0: accepted, precision-lost at %s, the text kept for the receiver",
    (text, path) => {
      const { list, onDiagnostic } = collectDiagnostics();
      const struct = structMessageFromJson(text, { onDiagnostic });
      expect(list).toEqual([{ code: "precision-lost", path }]);
      expect(structMessageToJson(struct)).toBe(text.replace(/-?1e-400/, "0"));
      const call = toolCallFromJson(
        { name: "t", argumentsJson: text },
        { rawArgsJson: "when-lossy" },
      );
      expect(call.rawArgsJson).toBe(text);
      expect(toolCallToJson(call)).toBe(text);
    },
  );
});

describe("lone surrogates in JSON text", () => {
  const rows: [name: string, text: string, error: ExpectedError][] = [
    ["escaped high", '{"a":"\\ud800"}', { code: "invalid-unicode", path: "/a", position: 12 }],
    ["escaped low", '{"a":"\\udc00"}', { code: "invalid-unicode", path: "/a", position: 12 }],
    [
      "high then a letter",
      '{"a":"\\ud800\\u0041"}',
      { code: "invalid-unicode", path: "/a", position: 12 },
    ],
    [
      "low then high (reversed pair)",
      '{"a":"\\udc00\\ud800"}',
      { code: "invalid-unicode", path: "/a", position: 12 },
    ],
    ["two highs", '{"a":"\\ud800\\ud800"}', { code: "invalid-unicode", path: "/a", position: 12 }],
    ["literal high", '{"a":"\ud800"}', { code: "invalid-unicode", path: "/a", position: 7 }],
    ["literal low", '{"a":"x\udc00"}', { code: "invalid-unicode", path: "/a", position: 8 }],
    [
      "in a key (path: the object)",
      '{"\\ud800":1}',
      { code: "invalid-unicode", path: "", position: 8 },
    ],
    [
      "in a nested key",
      '{"b":{"\\udfff":1}}',
      { code: "invalid-unicode", path: "/b", position: 13 },
    ],
  ];
  for (const [name, text, error] of rows) {
    test(`${name}: invalid-unicode (protobuf strings are UTF-8)`, () => {
      expectStructJsonError(() => structMessageFromJson(text), error);
      expectStructJsonError(() => toolCallFromJson({ name: "t", argumentsJson: text }), error);
    });
  }

  test("a pair written half escaped, half literal is one character (one reading)", () => {
    for (const text of ['{"a":"\\ud83d\ude00"}', '{"a":"\ud83d\\ude00"}']) {
      expect(structMessageFromJson(text).fields.a?.kind.value).toBe("😀");
    }
  });

  test("such a text cannot travel as raw_args_json (protobuf writes U+FFFD for its lone half): the receiver notes raw-json-invalid and uses the Struct", () => {
    const text = '{"a":"\\ud83d\ude00"}';
    const call = toolCallFromJson({ name: "t", argumentsJson: text });
    const back = fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, call));
    expect(back.rawArgsJson).toBe('{"a":"\\ud83d\ufffd"}');
    const { list, onDiagnostic } = collectDiagnostics();
    expect(toolCallToJson(back, null, { onDiagnostic })).toBe('{"a":"😀"}');
    expect(list).toEqual([{ code: "raw-json-invalid", path: "" }]);
  });
});

describe("duplicate keys, also spelled with escapes", () => {
  const rows: [text: string, error: ExpectedError][] = [
    ['{"a":1,"a":2}', { code: "duplicate-key", path: "/a", position: 7 }],
    ['{"a":1,"\\u0061":2}', { code: "duplicate-key", path: "/a", position: 7 }],
    ['{"\\u0061":1,"a":2}', { code: "duplicate-key", path: "/a", position: 12 }],
    ['{"a":1,"\\u0061":1}', { code: "duplicate-key", path: "/a", position: 7 }],
    ['{"__proto__":1,"__proto__":2}', { code: "duplicate-key", path: "/__proto__", position: 15 }],
    [
      '{"__proto__":1,"\\u005f_proto__":2}',
      { code: "duplicate-key", path: "/__proto__", position: 15 },
    ],
    [
      '{"constructor":{},"constructor":[]}',
      { code: "duplicate-key", path: "/constructor", position: 18 },
    ],
    ['{"x":{"b":1,"b":2}}', { code: "duplicate-key", path: "/x/b", position: 12 }],
    ['{"x":[{"k":1,"k":1}]}', { code: "duplicate-key", path: "/x/0/k", position: 13 }],
    ['{"é":1,"\\u00e9":2}', { code: "duplicate-key", path: "/é", position: 7 }],
    ['{"\\ud83d\\ude00":1,"😀":2}', { code: "duplicate-key", path: "/😀", position: 18 }],
    ['{"":1,"":2}', { code: "duplicate-key", path: "/", position: 6 }],
    ['{"a/b":1,"a\\/b":2}', { code: "duplicate-key", path: "/a~1b", position: 9 }],
  ];
  for (const [text, error] of rows) {
    test(`${text}: duplicate-key at ${error.path}`, () => {
      expectStructJsonError(() => structMessageFromJson(text), error);
      expectStructJsonError(() => toolCallFromJson({ name: "t", argumentsJson: text }), error);
    });
  }

  test("keys are compared by code units, not normalized: é and e + U+0301 are two keys", () => {
    const struct = structMessageFromJson('{"é":1,"e\u0301":2}');
    expect(Object.keys(struct.fields)).toEqual(["é", "e\u0301"]);
  });
});

describe("prototype-named keys are ordinary keys", () => {
  test("__proto__, constructor and prototype land as own members; no prototype changes", () => {
    const text =
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"toString":3}';
    const struct = structMessageFromJson(text);
    expect(Object.keys(struct.fields)).toEqual(["__proto__", "constructor", "toString"]);
    expect(Object.getPrototypeOf(struct.fields)).toBe(Object.prototype);
    const call = toolCallFromJson({ name: "t", argumentsJson: text }, { rawArgsJson: "never" });
    expect(Object.hasOwn(call.args!, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(call.args)).toBe(Object.prototype);
    expect(structMessageToJson(struct)).toBe(text);
    expect(toolCallToJson(call)).toBe(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);
  });
});

describe("not one JSON object", () => {
  const rows: [name: string, text: string, error: ExpectedError][] = [
    ["a byte-order mark", '\ufeff{"a":1}', { code: "invalid-json", path: "", position: 0 }],
    ["trailing data", '{"a":1} x', { code: "invalid-json", path: "", position: 8 }],
    ["a stray brace", '{"a":1}}', { code: "invalid-json", path: "", position: 7 }],
    ["a second top-level value", '{"a":1}{"a":1}', { code: "invalid-json", path: "", position: 7 }],
    [
      "a second value after a space",
      '{"a":1} {"b":2}',
      { code: "invalid-json", path: "", position: 8 },
    ],
    [
      "JSON-RPC members appended",
      '{"a":1},"id":2,"method":"x"',
      { code: "invalid-json", path: "", position: 7 },
    ],
    ["a NUL after the object", '{"a":1}\u0000', { code: "invalid-json", path: "", position: 7 }],
    [
      "a no-break space (not JSON whitespace)",
      '\u00a0{"a":1}',
      { code: "invalid-json", path: "", position: 0 },
    ],
    ["U+2028 after the object", '{"a":1}\u2028', { code: "invalid-json", path: "", position: 7 }],
    ["NaN", '{"a":NaN}', { code: "invalid-json", path: "/a", position: 5 }],
    ["Infinity", '{"a":Infinity}', { code: "invalid-json", path: "/a", position: 5 }],
    ["-Infinity", '{"a":-Infinity}', { code: "invalid-json", path: "/a", position: 6 }],
    ["empty", "", { code: "invalid-json", path: "", position: 0 }],
    ["whitespace only", " \n", { code: "invalid-json", path: "", position: 2 }],
    ["an array", "[1]", { code: "not-an-object", path: "" }],
    ["null", "null", { code: "not-an-object", path: "" }],
    ["a string", '"{}"', { code: "not-an-object", path: "" }],
  ];
  for (const [name, text, error] of rows) {
    test(`${name}: ${error.code}`, () => {
      expectStructJsonError(() => structMessageFromJson(text), error);
      expectStructJsonError(() => toolCallFromJson({ name: "t", argumentsJson: text }), error);
    });
  }

  test.each([
    ["a number", 5],
    ["null", null],
    ["undefined", undefined],
    ["a byte array", new TextEncoder().encode("{}")],
    ["an object", {}],
  ])("a non-string argument text (%s): invalid-json", (_name, input) => {
    expectStructJsonError(() => structMessageFromJson(input as unknown as string), {
      code: "invalid-json",
      path: "",
      position: 0,
    });
  });
});
