// toolCallToJson / toolResultToJson on messages no encoder of this package
// builds: a result with a raw text but no structured content, a raw text that
// is not a string (a forged message object), a schema that is not one. Each
// gives one answer whatever else the message carries, and never an invented
// value.
import { create, type JsonObject } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import { isStructJsonError } from "../src/errors.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { type ToolCallToJsonOptions, toolCallToJson } from "../src/tool/tool-call.js";
import { toolResultToJson } from "../src/tool/tool-result.js";

type Options = Partial<ToolCallToJsonOptions>;

function outcome(decode: (options: Options) => string, options: Options): string {
  const diagnostics: string[] = [];
  try {
    const text = decode({
      ...options,
      onDiagnostic: (d) => diagnostics.push(`${d.code} ${d.path}`),
    });
    return `${text} [${diagnostics.join(", ")}]`;
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    return `throws ${e.code} ${e.path} [${diagnostics.join(", ")}]`;
  }
}

describe("a result with a raw text but no structured content: message-invalid wherever the Struct is needed", () => {
  const rows: [raw: string, options: Options, expected: string][] = [
    ['{"a":1}', { rawJson: "trust" }, '{"a":1} []'],
    ['{"a":1}', { rawJson: "verify" }, "throws message-invalid  []"],
    ["{}", { rawJson: "verify" }, "throws message-invalid  []"],
    ['{"a":1', { rawJson: "verify" }, "throws message-invalid  []"],
    ['{"a":1}', { rawJson: "ignore" }, "throws message-invalid  []"],
    ["{}", { rawJson: "ignore" }, "throws message-invalid  []"],
    ['{"a":1}', { rawJson: "trust", canonical: true }, "throws message-invalid  []"],
    ['{"a":1}', { rawJson: "verify", canonical: true }, "throws message-invalid  []"],
  ];
  for (const [raw, options, expected] of rows) {
    test(`${raw} ${JSON.stringify(options)}`, () => {
      const result = create(MCPToolResultSchema, { rawStructuredContentJson: raw });
      expect(outcome((o) => toolResultToJson(result, null, o), options)).toBe(expected);
    });
  }

  test("a call without args reads them as the empty Struct (an unset message field's default)", () => {
    const call = create(CallMCPToolSchema, { name: "t", rawArgsJson: "{ }" });
    expect(outcome((o) => toolCallToJson(call, null, o), {})).toBe("{ } []");
    expect(outcome((o) => toolCallToJson(call, null, o), { rawJson: "ignore" })).toBe("{} []");
  });
});

describe("a raw text that is not a string (a forged message): raw-json-invalid and the Struct, in every mode that reads it", () => {
  const args: JsonObject = { a: 1.5 };
  const schema: JsonSchema = { type: "object", properties: { a: { type: "integer" } } };
  for (const raw of [5, null, {}, ['{"a":1.5}'], true]) {
    for (const rawJson of ["verify", "trust"] as const) {
      test(`${JSON.stringify(raw)}, ${rawJson}`, () => {
        const call = {
          ...create(CallMCPToolSchema, { name: "t", args }),
          rawArgsJson: raw,
        } as unknown as CallMCPTool;
        const result = {
          ...create(MCPToolResultSchema, { structuredContent: args }),
          rawStructuredContentJson: raw,
        } as unknown as MCPToolResult;
        const expected = '{"a":1.5} [raw-json-invalid , not-an-integer /a]';
        expect(outcome((o) => toolCallToJson(call, schema, o), { rawJson })).toBe(expected);
        expect(outcome((o) => toolResultToJson(result, schema, o), { rawJson })).toBe(expected);
      });
    }
  }
});

describe("a schema that is not one: schema-invalid whatever the message carries", () => {
  const schemas: [name: string, schema: unknown][] = [
    ["a number", 5],
    ["a string", "x"],
    ["an array", []],
  ];
  const messages: [name: string, args: JsonObject, raw: string | undefined][] = [
    ["no raw text", { a: 1 }, undefined],
    ["a raw text of integers", { a: 1 }, '{"a":1}'],
    ["a raw text with a fraction", { a: 1.5 }, '{"a":1.5}'],
    ["a malformed raw text", { a: 1 }, '{"a":1'],
  ];
  for (const [schemaName, schema] of schemas) {
    for (const [messageName, args, raw] of messages) {
      for (const options of [
        { rawJson: "verify" },
        { rawJson: "trust" },
        { rawJson: "ignore" },
        { rawJson: "verify", canonical: true },
      ] as Options[]) {
        test(`${schemaName}, ${messageName}, ${JSON.stringify(options)}`, () => {
          const call = create(CallMCPToolSchema, {
            name: "t",
            args,
            ...(raw === undefined ? {} : { rawArgsJson: raw }),
          });
          const got = outcome((o) => toolCallToJson(call, schema as JsonSchema, o), options);
          expect(got).toMatch(/^throws schema-invalid {2}\[/);
          // Quiet or listened to: the same answer.
          expect(() => toolCallToJson(call, schema as JsonSchema, options)).toThrow(
            /schema-invalid/,
          );
        });
      }
    }
  }
});

describe("forged arguments that are not an object: not-an-object, as the Struct path says, raw text or not", () => {
  for (const args of [[], "x", 5]) {
    for (const options of [
      { rawJson: "verify" },
      { rawJson: "ignore" },
      { rawJson: "verify", canonical: true },
      { rawJson: "trust", canonical: true },
    ] as Options[]) {
      test(`${JSON.stringify(args)}, ${JSON.stringify(options)}`, () => {
        for (const raw of [undefined, "[]", "{}"]) {
          const call = {
            ...create(CallMCPToolSchema, { name: "t" }),
            args,
            ...(raw === undefined ? {} : { rawArgsJson: raw }),
          } as unknown as CallMCPTool;
          const result = {
            ...create(MCPToolResultSchema, {}),
            structuredContent: args,
            ...(raw === undefined ? {} : { rawStructuredContentJson: raw }),
          } as unknown as MCPToolResult;
          const expected = "throws not-an-object  []";
          expect(
            outcome((o) => toolCallToJson(call, null, o), options),
            String(raw),
          ).toBe(expected);
          expect(
            outcome((o) => toolResultToJson(result, null, o), options),
            String(raw),
          ).toBe(expected);
        }
      });
    }
  }
});

describe("not a message at all: message-invalid", () => {
  for (const message of [null, undefined, 5, "{}", true]) {
    test(String(message), () => {
      for (const decode of [
        () => toolCallToJson(message as unknown as CallMCPTool),
        () => toolResultToJson(message as unknown as MCPToolResult),
      ]) {
        expect(outcome(decode, {})).toBe("throws message-invalid  []");
      }
    });
  }
});
