import { describe, expect, test } from "vitest";
import { collectDiagnostics } from "../src/diagnostics.js";
import type { RepairKind } from "../src/repair/repair-arguments.js";
import { repairArguments } from "../src/repair/repair-arguments.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { wholeNumberText } from "../src/struct/number-text.js";

describe("wholeNumberText: the integer literal a number text denotes, from its digits", () => {
  const rows: [text: string, integer: string | undefined][] = [
    ["5.0", "5"],
    ["5e0", "5"],
    ["5E+0", "5"],
    ["1.5e1", "15"],
    ["50e-1", "5"],
    ["-3.00", "-3"],
    ["-0.0", "0"],
    ["0.0e5", "0"],
    ["0e-99999999999999999999", "0"],
    ["120000.0", "120000"],
    ["9007199254740993.0", "9007199254740993"],
    ["1e21", "1000000000000000000000"],
    ["1.7976931348623157e308", `17976931348623157${"0".repeat(292)}`],
    ["5.5", undefined],
    ["9007199254740993.5", undefined],
    ["1e-400", undefined],
    ["1e401", undefined],
    ["1e99999999999999999999", undefined],
    ["0.1", undefined],
  ];
  test.each(rows)("%s → %s", (text, integer) => {
    expect(wholeNumberText(text)).toBe(integer);
  });
});

const tool: JsonSchema = {
  type: "object",
  properties: {
    count: { type: "integer" },
    ratio: { type: "number" },
    ids: { type: "array", items: { type: "integer" } },
    either: { anyOf: [{ type: "integer" }, { type: "number" }] },
    maybe: { anyOf: [{ type: "integer" }, { type: "null" }] },
    nested: {
      type: "object",
      properties: {
        line: { type: "integer" },
        rows: { type: "array", items: { $ref: "#/$defs/row" } },
      },
    },
    anything: {},
  },
  $defs: { row: { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }] } },
};

describe("repairArguments: the integer-literal rule (the one rewrite of valid arguments)", () => {
  const rows: [name: string, input: string, output: string, repairs: [string, RepairKind][]][] = [
    ["5.0 at an integer", '{"count":5.0}', '{"count":5}', [["/count", "integer-literal"]]],
    ["5e0 at an integer", '{"count":5e0}', '{"count":5}', [["/count", "integer-literal"]]],
    ["1.5e1 at an integer", '{"count":1.5e1}', '{"count":15}', [["/count", "integer-literal"]]],
    [
      "above 2^53, exact digits",
      '{"count":9007199254740993.0}',
      '{"count":9007199254740993}',
      [["/count", "integer-literal"]],
    ],
    [
      "array items, whitespace kept",
      '{ "ids": [1.0, 2, 3e0] }',
      '{ "ids": [1, 2, 3] }',
      [
        ["/ids/0", "integer-literal"],
        ["/ids/2", "integer-literal"],
      ],
    ],
    [
      "Optional[int] (anyOf with null)",
      '{"maybe":120000.0}',
      '{"maybe":120000}',
      [["/maybe", "integer-literal"]],
    ],
    [
      "nested object and $ref'd tuple",
      '{"nested":{"line":7.0,"rows":[[1.0,"a"],[2e0,"b"]]}}',
      '{"nested":{"line":7,"rows":[[1,"a"],[2,"b"]]}}',
      [
        ["/nested/line", "integer-literal"],
        ["/nested/rows/0/0", "integer-literal"],
        ["/nested/rows/1/0", "integer-literal"],
      ],
    ],
    [
      "after a string repair",
      '{"count":"5.0"}',
      '{"count":5}',
      [
        ["/count", "string-to-number"],
        ["/count", "integer-literal"],
      ],
    ],
    ["a number position keeps 1.0", '{"ratio":1.0}', '{"ratio":1.0}', []],
    [
      "an ambiguous position keeps 5.0 (choosing is not ours)",
      '{"either":5.0}',
      '{"either":5.0}',
      [],
    ],
    [
      "an unknown position keeps 5.0",
      '{"anything":5.0,"other":5.0}',
      '{"anything":5.0,"other":5.0}',
      [],
    ],
    ["an integer literal is left alone", '{"count":5}', '{"count":5}', []],
  ];
  test.each(rows)("%s", (_name, input, output, repairs) => {
    const { list, onDiagnostic } = collectDiagnostics();
    expect(repairArguments(input, tool, { onDiagnostic })).toEqual({
      ok: true,
      argumentsJson: output,
      repairs: repairs.map(([path, kind]) => ({ path, kind })),
    });
    expect(list).toEqual(
      repairs.map(([path, kind]) => ({ code: "argument-repaired", path, detail: kind })),
    );
  });

  test("5.5 at an integer is rejected, never truncated", () => {
    expect(repairArguments('{"count":5.5}', tool)).toEqual({
      ok: false,
      issues: [{ path: "/count", keyword: "type" }],
    });
  });

  // ajv reads the float64, which is whole for these texts; the text is not an
  // integer, and a strict server reads the text.
  test.each<[string, string, { path: string; keyword: string }[]]>([
    ["1e-400 at an integer", '{"count":1e-400}', [{ path: "/count", keyword: "type" }]],
    ["-1e-400 at an integer", '{"count":-1e-400}', [{ path: "/count", keyword: "type" }]],
    [
      "1.0000000000000001 at an integer",
      '{"count":1.0000000000000001}',
      [{ path: "/count", keyword: "type" }],
    ],
    [
      "9007199254740993.5 in an integer array, beside a 2.0",
      '{"ids":[2.0,9007199254740993.5]}',
      [{ path: "/ids/1", keyword: "type" }],
    ],
    [
      "two of them, in text order",
      '{"nested":{"line":1e-400},"count":1.0000000000000001}',
      [
        { path: "/nested/line", keyword: "type" },
        { path: "/count", keyword: "type" },
      ],
    ],
  ])(
    "%s: a number whose float64 is whole but whose text is not is rejected",
    (_n, input, issues) => {
      const { list, onDiagnostic } = collectDiagnostics();
      expect(repairArguments(input, tool, { onDiagnostic })).toEqual({ ok: false, issues });
      expect(list).toEqual(
        issues.map((i) => ({ code: "argument-rejected", path: i.path, detail: "type" })),
      );
    },
  );

  test.each([
    ["a number position keeps 1e-400", '{"ratio":1e-400}'],
    ["an ambiguous position keeps 1.0000000000000001", '{"either":1.0000000000000001}'],
  ])("%s", (_n, input) => {
    expect(repairArguments(input, tool)).toEqual({ ok: true, argumentsJson: input, repairs: [] });
  });

  test("the schema reader's findings are passed on with their position; such positions are left alone", () => {
    let deep: JsonSchema = { type: "integer" };
    for (let i = 0; i < 250; i++) deep = { anyOf: [deep, { type: "integer" }] };
    const schema: JsonSchema = { type: "object", properties: { x: deep, y: { type: "integer" } } };
    const { list, onDiagnostic } = collectDiagnostics();
    expect(repairArguments('{"x":5.0,"y":5.0}', schema, { onDiagnostic })).toEqual({
      ok: true,
      argumentsJson: '{"x":5.0,"y":5}',
      repairs: [{ path: "/y", kind: "integer-literal" }],
    });
    expect(list).toEqual([
      { code: "schema-too-complex", path: "/x" },
      { code: "argument-repaired", path: "/y", detail: "integer-literal" },
    ]);
  });

  test("patternProperties are read by the linear-time engine: 5.0 under a matching pattern becomes 5", () => {
    const schema: JsonSchema = {
      type: "object",
      patternProperties: { "^id_[a-z]+$": { type: "integer" }, "^ratio_": { type: "number" } },
    };
    const input = '{"ratio_a":2.0,"id_b":7.0,"10":3.0,"id_c":1e1}';
    expect(repairArguments(input, schema)).toEqual({
      ok: true,
      argumentsJson: '{"ratio_a":2.0,"id_b":7,"10":3.0,"id_c":10}',
      repairs: [
        { path: "/id_b", kind: "integer-literal" },
        { path: "/id_c", kind: "integer-literal" },
      ],
    });
  });

  test("repairs come in text order, also for keys that look like integers", () => {
    const schema: JsonSchema = { type: "object", additionalProperties: { type: "integer" } };
    expect(repairArguments('{"b":1.0,"10":2.0,"2":3.0}', schema)).toEqual({
      ok: true,
      argumentsJson: '{"b":1,"10":2,"2":3}',
      repairs: [
        { path: "/b", kind: "integer-literal" },
        { path: "/10", kind: "integer-literal" },
        { path: "/2", kind: "integer-literal" },
      ],
    });
  });
});
