// One options rule for every function: a member left out or explicitly
// `undefined` takes its default; a bad value is option-invalid naming the
// option, never the value; repair mode is injected, not imported.

import { describe, expect, test } from "vitest";
import { collectDiagnostics } from "../src/diagnostics.js";
import {
  type JsonSchema,
  structMessageFromJson,
  structMessageToJson,
  structToJson,
  toolCallFromJson,
  toolCallToJson,
  toolResultFromJson,
  toolResultToJson,
} from "../src/index.js";
import { repairArguments } from "../src/repair/repair-arguments.js";

const schema: JsonSchema = {
  type: "object",
  properties: { n: { type: "integer" }, x: { type: "number" } },
};
const text = '{"n":5,"x":1.0,"id":9007199254740993}';
const call = toolCallFromJson({ name: "t", argumentsJson: text });
const result = toolResultFromJson({ structuredContentJson: text });

/** Each public function with options, called with the given options object. */
const calls: [string, (options: Record<string, unknown>) => unknown][] = [
  ["structToJson", (o) => structToJson({ n: 5, x: 1 }, schema, o)],
  ["structMessageToJson", (o) => structMessageToJson(structMessageFromJson(text), schema, o)],
  ["structMessageFromJson", (o) => structMessageFromJson(text, o)],
  ["toolCallFromJson", (o) => toolCallFromJson({ name: "t", argumentsJson: text }, o)],
  ["toolCallToJson", (o) => toolCallToJson(call, schema, o)],
  ["toolResultFromJson", (o) => toolResultFromJson({ structuredContentJson: text }, o)],
  ["toolResultToJson", (o) => toolResultToJson(result, schema, o)],
];

/** Every option name of every function above, each explicitly undefined. */
const allUndefined = Object.fromEntries(
  [
    "wholeFloats",
    "nonFinite",
    "unsetValue",
    "recursionLimit",
    "indent",
    "canonical",
    "onDiagnostic",
    "patterns",
    "rawJson",
    "repair",
    "rawArgsJson",
    "rawStructuredContentJson",
  ].map((name) => [name, undefined]),
);

describe("options", () => {
  test.each(calls)("%s: every option explicitly undefined is the same as none", (_, run) => {
    expect(run(allUndefined)).toEqual(run({}));
  });

  test.each(calls)("%s: an unknown option is ignored", (_, run) => {
    expect(run({ notAnOption: "x" })).toEqual(run({}));
  });

  test.each(calls)("%s: a bad recursionLimit is option-invalid at the root", (_, run) => {
    expect(() => run({ recursionLimit: 0 })).toThrow(
      expect.objectContaining({
        code: "option-invalid",
        path: "",
        message: "option-invalid at (root): option recursionLimit must be a positive integer",
      }),
    );
  });

  /** The functions whose options hold `canonical` (the raw text's too: "trust" returns it unread). */
  const writers = calls.filter(([name]) => !name.endsWith("FromJson"));
  const notBooleans: unknown[] = ["false", "true", 1, 0, null, {}];
  test.each(
    writers.flatMap(([name, run]) =>
      notBooleans.flatMap((canonical) => [
        [name, canonical, "verify", run] as const,
        [name, canonical, "trust", run] as const,
      ]),
    ),
  )(
    "%s: canonical %j (rawJson %s) is option-invalid, never read as true or false",
    (_, canonical, rawJson, run) => {
      expect(() => run({ canonical, rawJson })).toThrow(
        expect.objectContaining({
          code: "option-invalid",
          path: "",
          message: "option-invalid at (root): option canonical must be a boolean",
        }),
      );
    },
  );

  test("the tool call's decoder options are checked also when the raw text is used", () => {
    expect(() => toolCallToJson(call, schema, { wholeFloats: "x" as "decimal" })).toThrow(
      expect.objectContaining({ code: "option-invalid" }),
    );
  });
});

describe("repair by injection", () => {
  const repairSchema: JsonSchema = { type: "object", properties: { n: { type: "integer" } } };
  const quoted = toolCallFromJson({ name: "t", argumentsJson: '{"n":"3"}' });

  test("repair: repairArguments repairs and reports", () => {
    const { list, onDiagnostic } = collectDiagnostics();
    expect(toolCallToJson(quoted, repairSchema, { repair: repairArguments, onDiagnostic })).toBe(
      '{"n":3}',
    );
    expect(list).toEqual([{ code: "argument-repaired", path: "/n", detail: "string-to-number" }]);
  });

  test("without repair the text is returned as it arrived", () => {
    expect(toolCallToJson(quoted, repairSchema)).toBe('{"n":"3"}');
    expect(toolCallToJson(quoted, repairSchema, { repair: undefined })).toBe('{"n":"3"}');
  });

  test("arguments with no single reading throw arguments-rejected at the first failing path", () => {
    const bad = toolCallFromJson({ name: "t", argumentsJson: '{"n":"three"}' });
    expect(() => toolCallToJson(bad, repairSchema, { repair: repairArguments })).toThrow(
      expect.objectContaining({ code: "arguments-rejected", path: "/n" }),
    );
  });

  test("the decoder's recursionLimit reaches repair: arguments the decoder reads, repair reads too", () => {
    const deep = `${'{"a":'.repeat(150)}1${"}".repeat(150)}`;
    const call = toolCallFromJson({ name: "t", argumentsJson: deep }, { recursionLimit: 200 });
    expect(toolCallToJson(call, {}, { repair: repairArguments, recursionLimit: 200 })).toBe(deep);
    // Below it, both refuse: the decoder first.
    expect(() =>
      toolCallToJson(call, {}, { repair: repairArguments, recursionLimit: 120 }),
    ).toThrow(expect.objectContaining({ code: "recursion-limit" }));
  });

  test("canonical with repair: the repaired text is canonical too (RFC 8785), its repairs reported once", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        n: { type: "number" },
        l: { type: "array", items: { type: "number" } },
        o: { type: "object", properties: { z: { type: "string" }, a: { type: "number" } } },
      },
    };
    const call = toolCallFromJson({
      name: "t",
      argumentsJson: '{"o":"{\\"z\\":\\"x\\",\\"a\\":1.0}","n":"1.50","l":"[1e2, -0]"}',
    });
    const { list, onDiagnostic } = collectDiagnostics();
    expect(
      toolCallToJson(call, schema, { repair: repairArguments, canonical: true, onDiagnostic }),
    ).toBe('{"l":[100,0],"n":1.5,"o":{"a":1,"z":"x"}}');
    expect(list.map((d) => `${d.path} ${d.code}`).sort()).toEqual([
      "/l argument-repaired",
      "/n argument-repaired",
      "/o argument-repaired",
    ]);
    // Nothing to repair: the canonical text as without repair.
    const plain = toolCallFromJson({ name: "t", argumentsJson: '{"n":1.50,"l":[]}' });
    expect(toolCallToJson(plain, schema, { repair: repairArguments, canonical: true })).toBe(
      '{"l":[],"n":1.5}',
    );
  });

  test.each([{ repair: true }, { repair: false }, { repair: "repairArguments" }])(
    "repair: $repair is option-invalid",
    (options) => {
      expect(() =>
        toolCallToJson(quoted, repairSchema, options as unknown as { repair: undefined }),
      ).toThrow(
        expect.objectContaining({
          code: "option-invalid",
          message:
            'option-invalid at (root): option repair must be a repair function (repairArguments from "struct-json-bridge/repair")',
        }),
      );
    },
  );
});
