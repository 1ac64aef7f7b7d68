// Issue 12, "no recursion over input depth": every public function, given
// input nested 10,000+ levels (a JsonObject built in a loop, JSON text, a
// Struct message), stops at its recursionLimit with the exact code and path;
// the decoder's and the verifier's walks keep their own stacks, so a raised
// limit goes all the way down instead of ending in a stack overflow.
import { create, fromBinary, type JsonValue, toBinary } from "@bufbuild/protobuf";
import type { Struct, Value } from "@bufbuild/protobuf/wkt";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import { collectDiagnostics } from "../src/diagnostics.js";
import { repairArguments } from "../src/repair/repair-arguments.js";
import { structMessageFromJson } from "../src/struct/from-json.js";
import { inspectNumbers, structMessageToJson, structToJson } from "../src/struct/to-json.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";
import { toolResultFromJson, toolResultToJson } from "../src/tool/tool-result.js";
import { expectStructJsonError } from "./hostile-helpers.js";

const DEPTH = 12_000;

/** {"a": [[…[[1]]…]]} with DEPTH arrays, built in a loop. */
let deepList: JsonValue = 1;
for (let i = 0; i < DEPTH; i++) deepList = [deepList];
const DEEP_OBJECT = { a: deepList };
const DEEP_TEXT = `{"a":${"[".repeat(DEPTH)}1${"]".repeat(DEPTH)}}`;

/** The same as a Struct message, built in a loop. */
function deepStruct(): Struct {
  let v: Value = { $typeName: "google.protobuf.Value", kind: { case: "numberValue", value: 1 } };
  for (let i = 0; i < DEPTH; i++) {
    v = {
      $typeName: "google.protobuf.Value",
      kind: { case: "listValue", value: { $typeName: "google.protobuf.ListValue", values: [v] } },
    };
  }
  return { $typeName: "google.protobuf.Struct", fields: { a: v } };
}

/** The path of the first container past `limit` levels: the top object is level 1, /a level 2. */
function pathPast(limit: number): string {
  return `/a${"/0".repeat(limit - 1)}`;
}

/** A call or result carrying the deep JsonObject (and optionally the deep text), as it arrives. */
function deepCall(raw: boolean): CallMCPTool {
  // Built in JS: protobuf-es's binary reader stops at 100 levels, long before DEPTH.
  return create(CallMCPToolSchema, {
    name: "t",
    args: DEEP_OBJECT,
    ...(raw ? { rawArgsJson: DEEP_TEXT } : {}),
  });
}
function deepResult(raw: boolean): MCPToolResult {
  return create(MCPToolResultSchema, {
    structuredContent: DEEP_OBJECT,
    ...(raw ? { rawStructuredContentJson: DEEP_TEXT } : {}),
  });
}

describe(`input nested ${DEPTH} levels, default limits: the exact code and path`, () => {
  test("structToJson (JsonObject): recursion-limit at level 101", () => {
    expectStructJsonError(() => structToJson(DEEP_OBJECT), {
      code: "recursion-limit",
      path: pathPast(100),
    });
  });
  test("structMessageToJson (Struct message): recursion-limit at level 101", () => {
    expectStructJsonError(() => structMessageToJson(deepStruct()), {
      code: "recursion-limit",
      path: pathPast(100),
    });
  });
  test("inspectNumbers (JsonObject): recursion-limit at level 101", () => {
    expectStructJsonError(() => inspectNumbers(DEEP_OBJECT), {
      code: "recursion-limit",
      path: pathPast(100),
    });
  });
  test("structMessageFromJson (JSON text): recursion-limit at level 50", () => {
    expectStructJsonError(() => structMessageFromJson(DEEP_TEXT), {
      code: "recursion-limit",
      path: pathPast(49),
      position: 5 + 48,
    });
  });
  test("toolCallFromJson and toolResultFromJson (JSON text): recursion-limit at level 50", () => {
    expectStructJsonError(() => toolCallFromJson({ name: "t", argumentsJson: DEEP_TEXT }), {
      code: "recursion-limit",
      path: pathPast(49),
    });
    expectStructJsonError(() => toolResultFromJson({ structuredContentJson: DEEP_TEXT }), {
      code: "recursion-limit",
      path: pathPast(49),
    });
  });
  const decoders: [string, (raw: boolean, options: object) => string][] = [
    ["toolCallToJson", (raw, options) => toolCallToJson(deepCall(raw), null, options)],
    ["toolResultToJson", (raw, options) => toolResultToJson(deepResult(raw), null, options)],
  ];
  test.each(decoders)(
    "%s: deep raw text is raw-json-invalid, then the Struct stops at level 101",
    (_name, decode) => {
      for (const raw of [true, false]) {
        const { list, onDiagnostic } = collectDiagnostics();
        expectStructJsonError(() => decode(raw, { onDiagnostic }), {
          code: "recursion-limit",
          path: pathPast(100),
        });
        expect(list).toEqual(raw ? [{ code: "raw-json-invalid", path: "" }] : []);
      }
    },
  );
  test("repairArguments, alone and injected (JSON text): rejected with recursion-limit", () => {
    // The path is repair's to choose (today the root, ""): see the lib report.
    const result = repairArguments(DEEP_TEXT, { type: "object" });
    expect(result.ok ? [] : result.issues.map((i) => i.keyword)).toEqual(["recursion-limit"]);
    const call = create(CallMCPToolSchema, { name: "t", rawArgsJson: DEEP_TEXT });
    const options = { rawJson: "trust", repair: repairArguments } as const;
    expect(() => toolCallToJson(call, { type: "object" }, options)).toThrow(
      expect.objectContaining({ code: "recursion-limit" }),
    );
  });
});

describe("raised limits: the walks have no recursion to overflow", () => {
  const limit = { recursionLimit: DEPTH + 1 };
  test("structToJson, structMessageToJson and inspectNumbers write or list everything", () => {
    expect(structToJson(DEEP_OBJECT, null, limit)).toBe(DEEP_TEXT);
    expect(structToJson(DEEP_OBJECT, null, { ...limit, canonical: true })).toBe(DEEP_TEXT);
    expect(structMessageToJson(deepStruct(), null, limit)).toBe(DEEP_TEXT);
    expect(inspectNumbers(DEEP_OBJECT, { type: "object" }, limit)).toEqual([
      { path: pathPast(DEPTH + 1), value: 1, reading: "unknown", text: "1", codes: [] },
    ]);
  });
  test("with a schema at every level: the reading reaches the bottom", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/l" } },
      $defs: {
        l: { anyOf: [{ type: "integer" }, { type: "array", items: { $ref: "#/$defs/l" } }] },
      },
    };
    expect(structToJson({ a: deepList }, schema, limit)).toBe(DEEP_TEXT);
  });
  test("toolCallToJson and toolResultToJson: one limit for verification and decoding", () => {
    // Raw text too deep for the text parser's own limit falls back to the Struct.
    const { list, onDiagnostic } = collectDiagnostics();
    expect(toolCallToJson(deepCall(false), null, { ...limit, onDiagnostic })).toBe(DEEP_TEXT);
    expect(toolResultToJson(deepResult(false), null, { ...limit, onDiagnostic })).toBe(DEEP_TEXT);
    expect(list).toEqual([]);
  });
  test("a deep Struct message from binary needs protobuf-es's own readMaxDepth too", () => {
    // protobuf-es stops fromBinary at 100 message levels; documented, not ours.
    const call = create(CallMCPToolSchema, { name: "t", args: { a: [[[[1]]]] } });
    expect(toolCallToJson(fromBinary(CallMCPToolSchema, toBinary(CallMCPToolSchema, call)))).toBe(
      '{"a":[[[[1]]]]}',
    );
  });
});
