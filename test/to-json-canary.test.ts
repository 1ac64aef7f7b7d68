// Issue 12, "values in error messages": paths and codes, never values. Every
// public function gets every input kind (JSON text, Struct message, JsonObject,
// binary protobuf, schema, options) with a canary string, number and key in
// every position, and broken inputs around them; no error message, stack,
// `cause` chain, diagnostic or repair issue may contain a canary, except a key
// inside the JSON Pointer path that names its position.
import { create, fromBinary, type JsonObject, toBinary } from "@bufbuild/protobuf";
import { type Struct, StructSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, test } from "vitest";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  ClientActionSchema,
  type MCPToolResult,
  MCPToolResultSchema,
} from "../gen/toolbridge/v1/toolbridge_pb.js";
import {
  compileSchema,
  type Diagnostic,
  inspectNumbers,
  type JsonSchema,
  structMessageFromJson,
  structMessageToJson,
  structToJson,
  ToolSchemas,
  toolCallFromJson,
  toolCallToJson,
  toolResultFromJson,
  toolResultToJson,
} from "../src/index.js";
import { exactJsonArguments, toolCallArguments } from "../src/mcp/index.js";
import { repairArguments } from "../src/repair/repair-arguments.js";

/** The canaries: a string, a number's digits, a key. */
const S = "CANARYs3cr3t";
const N = "4242424242";
const K = "CANARYkey";
const CANARIES = [S, N, K];
const NUM = `${N}.${N.slice(0, 4)}`;

/** A valid arguments text with the canaries everywhere. */
const VALID = `{"${K}":"${S}","n":${NUM},"id":${N}${N}${N},"big":${N}${N},"l":["${S}",${NUM},{"${K}":-${NUM}}],"o":{"${K}":"${S}","f":${N}e-3}}`;

/** Broken texts around the canaries (plus every cut of the valid text). */
const BROKEN: string[] = [
  `{"a":"${S}`,
  `{"a":"${S}\\q"}`,
  `{"a":"${S}\\u12"}`,
  `{"a":"${S}\\ud800"}`,
  `{"a":"\\ud800${S}"}`,
  `{"a":"${S}\u0001"}`,
  `{"${K}":1,"${K}":2}`,
  `{"${K}\\u0041":1,"${K}A":2}`,
  `{"a":${NUM}e999999}`,
  `{"a":-${NUM}e-999999}`,
  `{"a":${N}.}`,
  `{"a":-${N}x}`,
  `{"a":0${N}}`,
  `{"a":${S}}`,
  `{"a":"${S}"}${S}`,
  `{"a":"${S}"} {"b":1}`,
  `["${S}"]`,
  `"${S}"`,
  `${NUM}`,
  `{'${K}':1}`,
  `{"${K}" 1}`,
  `{"${K}":1,}`,
  `{${K}:1}`,
  `{"a":NaN,"b":"${S}"}`,
  `{"a":Infinity,"${K}":1}`,
  `\ufeff{"a":"${S}"}`,
  `{"${K}":${"[".repeat(120)}"${S}"${"]".repeat(120)}}`,
  `{"${K}":${"[".repeat(120)}${NUM}`,
  "",
];
for (let i = 1; i < VALID.length; i += 3) BROKEN.push(VALID.slice(0, i));

/** A schema reading every canary position. */
const SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    [K]: { type: "string" },
    n: { type: "integer" },
    id: { type: "integer" },
    big: { type: "number" },
    l: { type: "array", items: { type: "integer" } },
    o: { type: "object", additionalProperties: { type: "integer" }, required: [K] },
  },
  required: ["n"],
};

/** Schemas that are wrong, hostile or strange, with the canaries inside. */
/** An `allOf` chain far over the per-call work budget, ending in a canary type. */
function overBudget(): unknown {
  let schema: unknown = { type: S, $comment: S };
  for (let i = 0; i < 100_000; i++) schema = { allOf: [schema] };
  return schema;
}

const SCHEMAS: unknown[] = [
  { type: S },
  { type: "object", properties: { [K]: { type: S } } },
  { type: "object", properties: { [K]: { type: "string", pattern: `(${S}` } } },
  { type: "object", properties: { [K]: { type: "string", pattern: `${S}${"a".repeat(2000)}` } } },
  { type: "object", patternProperties: { [`(${S}[`]: { type: "integer" } } },
  { type: "object", properties: { [K]: { $ref: `#/${S}` }, n: { $ref: `#/${S}` } } },
  { type: "object", properties: { [K]: { $ref: `https://${S}.example/x` } } },
  { type: "object", properties: { [K]: { $ref: `#${S}` } } },
  { type: "object", properties: { n: { const: S } } },
  { type: "object", properties: { n: { enum: [Number(NUM), S] } } },
  { type: "object", properties: { n: { minimum: Number(NUM), multipleOf: Number(NUM) } } },
  { type: "object", properties: { n: { maximum: -Number(NUM) } } },
  { type: "object", properties: { [K]: { format: S, minLength: Number(N) } } },
  { type: "object", required: [K, S] },
  { type: "object", additionalProperties: false },
  { type: "object", [S]: true, $schema: `https://${S}` },
  { type: "object", $id: S, $defs: { [K]: { type: "integer" } } },
  { anyOf: [{ type: "object", properties: { n: { const: S } } }, { type: S }] },
  { type: "object", properties: { [K]: { type: "array", items: S } } },
  { type: "object", properties: { [K]: S } },
  { type: "object", properties: S },
  { type: "object", discriminator: { propertyName: K, mapping: { [S]: `#/${S}` } } },
  S,
  Number(NUM),
  [S],
  { type: "object", properties: { [K]: null } },
  { type: "object", properties: { [K]: overBudget(), n: overBudget() } },
];

/** Options with canary values (each invalid for some function). */
const OPTIONS: Record<string, unknown>[] = [
  { wholeFloats: S },
  { nonFinite: S },
  { unsetValue: S },
  { recursionLimit: Number(NUM) },
  { recursionLimit: S },
  { indent: Number(N) },
  { canonical: true, indent: S },
  { onDiagnostic: S },
  { rawJson: S },
  { rawArgsJson: S },
  { rawStructuredContentJson: S },
  { repair: true },
  { recursionLimit: -Number(NUM) },
  { [K]: S },
];

/** Everything a failing call left behind, as text, with its paths taken out. */
function leakText(thrown: unknown, diagnostics: readonly Diagnostic[], extra: unknown): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  let e: unknown = thrown;
  while (e !== undefined && !seen.has(e)) {
    seen.add(e);
    if (e instanceof Error) {
      const path = (e as { path?: unknown }).path;
      let text = `${e.name}\n${e.message}\n${e.stack ?? ""}\n${String(e)}`;
      for (const [k, v] of Object.entries(e)) if (k !== "path") text += `\n${k}=${String(v)}`;
      if (typeof path === "string" && path !== "") text = text.split(path).join("<path>");
      parts.push(text);
      e = e.cause;
    } else {
      parts.push(String(e));
      break;
    }
  }
  for (const d of diagnostics) {
    parts.push(`${d.code} ${d.detail ?? ""}`);
  }
  if (extra !== undefined) {
    for (const issue of extra as { path: string; keyword: string }[]) parts.push(issue.keyword);
  }
  return parts.join("\n");
}

/** Every error and diagnostic code the table provoked (checked at the end: the table reaches them all). */
const seenCodes = new Set<string>();

/** Runs one call; returns the canaries found in what it left behind. */
function leaks(call: (onDiagnostic: (d: Diagnostic) => void) => unknown): {
  canaries: string[];
  text: string;
} {
  const diagnostics: Diagnostic[] = [];
  let thrown: unknown;
  let issues: unknown;
  try {
    const result = call((d) => diagnostics.push(d));
    if (
      typeof result === "object" &&
      result !== null &&
      (result as { ok?: unknown }).ok === false
    ) {
      issues = (result as { issues: unknown }).issues;
    }
  } catch (e) {
    thrown = e;
    seenCodes.add((e as { code?: string }).code ?? `foreign ${String(e)}`);
  }
  for (const d of diagnostics) seenCodes.add(d.code);
  // A key may appear as a JSON Pointer token (a path names its position), nowhere else.
  const text = leakText(thrown, diagnostics, issues).split(`/${K}`).join("/<key>");
  return { canaries: CANARIES.filter((c) => text.includes(c)), text };
}

/** A call as it arrives over the wire (binary ClientAction), carrying `raw` beside `args`. */
function arrivedCall(args: JsonObject, raw: string | undefined): CallMCPTool {
  const call = create(CallMCPToolSchema, {
    name: S,
    serverId: S,
    args,
    ...(raw === undefined ? {} : { rawArgsJson: raw }),
  });
  const action = create(ClientActionSchema, {
    actionId: S,
    action: { case: "callMcpTool", value: call },
  });
  const back = fromBinary(ClientActionSchema, toBinary(ClientActionSchema, action));
  if (back.action.case !== "callMcpTool") throw new Error("lost the call");
  return back.action.value;
}
function arrivedResult(content: JsonObject, raw: string | undefined): MCPToolResult {
  const result = create(MCPToolResultSchema, {
    actionId: S,
    structuredContent: content,
    ...(raw === undefined ? {} : { rawStructuredContentJson: raw }),
  });
  return fromBinary(MCPToolResultSchema, toBinary(MCPToolResultSchema, result));
}

const validObject = (): JsonObject => structToJsonObject(VALID);
function structToJsonObject(text: string): JsonObject {
  return toolCallFromJson({ name: "t", argumentsJson: text }).args ?? {};
}
/** The valid arguments with one member changed to disagree with the canary text. */
const OTHER_OBJECT: JsonObject = { [K]: `${S}x`, n: 1 };

/** Every public function that takes the given inputs. */
function calls(
  text: string,
  object: JsonObject,
  message: Struct,
  schema: unknown,
  options: Record<string, unknown>,
): [name: string, run: (onDiagnostic: (d: Diagnostic) => void) => unknown][] {
  const s = schema as JsonSchema;
  const o = (onDiagnostic: (d: Diagnostic) => void) => ({ onDiagnostic, ...options });
  return [
    ["structMessageFromJson", (d) => structMessageFromJson(text, o(d))],
    [
      "toolCallFromJson",
      (d) => toolCallFromJson({ name: S, serverId: S, argumentsJson: text }, o(d)),
    ],
    [
      "toolResultFromJson",
      (d) => toolResultFromJson({ actionId: S, structuredContentJson: text }, o(d)),
    ],
    ["repairArguments", (d) => repairArguments(text, s, o(d))],
    [
      "toolCallToJson (repair of the trusted text)",
      (d) =>
        toolCallToJson(arrivedCall(object, text), s, {
          ...o(d),
          rawJson: "trust",
          repair: repairArguments,
        }),
    ],
    ["structToJson", (d) => structToJson(object, s, o(d))],
    ["structMessageToJson", (d) => structMessageToJson(message, s, o(d))],
    ["inspectNumbers", (d) => inspectNumbers(object, s, o(d))],
    ["toolCallToJson (raw text)", (d) => toolCallToJson(arrivedCall(object, text), s, o(d))],
    [
      "toolCallToJson (repair)",
      (d) => toolCallToJson(arrivedCall(object, text), s, { ...o(d), repair: repairArguments }),
    ],
    [
      "toolCallToJson (disagreeing raw)",
      (d) => toolCallToJson(arrivedCall(OTHER_OBJECT, text), s, o(d)),
    ],
    ["toolResultToJson (raw text)", (d) => toolResultToJson(arrivedResult(object, text), s, o(d))],
    ["compileSchema", () => compileSchema(s)],
    [
      "ToolSchemas",
      () => new ToolSchemas().set(S, [{ name: S, inputSchema: s }]).inputSchema(S, S),
    ],
    ["mcp exactJsonArguments", () => exactJsonArguments(text)],
    ["mcp toolCallArguments", (d) => toolCallArguments(arrivedCall(object, text), s, o(d))],
    // deserializeExactMessage (struct-json-bridge/mcp) is left out: it passes the MCP SDK's
    // JSON.parse and zod errors through, which quote the input (reported to the mcp owner).
  ];
}

function expectNoLeaks(
  text: string,
  object: JsonObject,
  message: Struct,
  schema: unknown,
  options: Record<string, unknown>,
): void {
  const found: string[] = [];
  for (const [name, run] of calls(text, object, message, schema, options)) {
    const { canaries, text: left } = leaks(run);
    if (canaries.length > 0) found.push(`${name}: ${canaries.join(",")} in ${left.slice(0, 300)}`);
  }
  expect(found).toEqual([]);
}

describe("JSON text: valid and broken around the canaries", () => {
  const message = structMessageFromJson(VALID);
  test.each(BROKEN.map((t, i) => [i, t] as const))("text %i", (_i, text) => {
    expectNoLeaks(text, validObject(), message, SCHEMA, {});
  });
});

describe("schemas with the canaries inside", () => {
  const message = structMessageFromJson(VALID);
  test.each(SCHEMAS.map((s, i) => [i, s] as const))("schema %i", (_i, schema) => {
    expectNoLeaks(VALID, validObject(), message, schema, {});
    expectNoLeaks(BROKEN[0]!, validObject(), message, schema, {});
  });
});

describe("options with canary values", () => {
  const message = structMessageFromJson(VALID);
  test.each(OPTIONS.map((o, i) => [i, o] as const))("options %i", (_i, options) => {
    expectNoLeaks(VALID, validObject(), message, SCHEMA, options);
  });
});

describe("JsonObjects and Struct messages no JSON text can produce", () => {
  const bad: [string, unknown][] = [
    ["a bigint", BigInt(`${N}${N}`)],
    ["undefined", undefined],
    ["a function", () => S],
    ["a symbol", Symbol(S)],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["a Date", new Date(Number(N))],
  ];
  test.each(bad)("%s beside the canaries", (_name, v) => {
    const object = { ...validObject(), [K]: { [K]: v, s: S } } as unknown as JsonObject;
    const message = structMessageFromJson(VALID);
    message.fields[K] = {
      $typeName: "google.protobuf.Value",
      kind: { case: "numberValue", value: typeof v === "number" ? v : Number.NaN },
    };
    expectNoLeaks(VALID, object, message, SCHEMA, {});
  });
  test("not objects at all", () => {
    for (const notObject of [S, Number(NUM), [S], null]) {
      expectNoLeaks(
        VALID,
        notObject as unknown as JsonObject,
        notObject as unknown as Struct,
        SCHEMA,
        {},
      );
    }
  });
  test("a Value with no kind, a malformed struct_value and list_value", () => {
    for (const kind of [
      { case: undefined },
      { case: "structValue", value: S },
      { case: "listValue", value: { values: S } },
      { case: S, value: S },
    ]) {
      const message = structMessageFromJson(VALID);
      message.fields[K] = { $typeName: "google.protobuf.Value", kind } as never;
      expectNoLeaks(VALID, validObject(), message, SCHEMA, {});
    }
  });
  test("binary protobuf: a Struct with the canaries, decoded", () => {
    const message = fromBinary(StructSchema, toBinary(StructSchema, structMessageFromJson(VALID)));
    expectNoLeaks(VALID, validObject(), message, SCHEMA, {});
  });
});

describe("the table itself", () => {
  test("a leaking error is caught (negative control)", () => {
    const before = new Set(seenCodes);
    expect(
      leaks(() => {
        throw new Error(`bad value ${S}`);
      }).canaries,
    ).toEqual([S]);
    expect(
      leaks(() => {
        throw new Error("wrapped", { cause: new SyntaxError(`at ${N}`) });
      }).canaries,
    ).toEqual([N]);
    expect(
      leaks((d) => d({ code: "argument-rejected", path: `/${K}`, detail: K })).canaries,
    ).toEqual([K]);
    expect(leaks(() => ({ ok: false, issues: [{ path: "", keyword: S }] })).canaries).toEqual([S]);
    seenCodes.clear();
    for (const code of before) seenCodes.add(code);
  });
  test("every error and diagnostic code a bad input can cause was provoked", () => {
    const missing = [
      "invalid-json",
      "duplicate-key",
      "invalid-unicode",
      "number-out-of-range",
      "not-an-object",
      "recursion-limit",
      "option-invalid",
      "schema-invalid",
      "raw-struct-mismatch",
      "raw-json-invalid",
      "arguments-rejected",
      "argument-rejected",
      "value-unset",
      "non-finite-number",
      "message-invalid",
      "integer-precision-lost",
      "number-precision-lost",
      "not-an-integer",
      "schema-ref-unresolved",
      "schema-too-complex",
    ].filter((code) => !seenCodes.has(code));
    expect(missing).toEqual([]);
    expect([...seenCodes].filter((c) => c.startsWith("foreign"))).toEqual([]);
  });
});
