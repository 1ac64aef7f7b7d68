// Errors of struct-json-bridge/mcp and /mcp/server carry codes, paths and
// positions, never input text: a canary in every field of every input kind must
// appear in no error message, no cause and no error data.

import { create } from "@bufbuild/protobuf";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { CallMCPToolSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import {
  deserializeExactMessage,
  ExactNumber,
  exactJsonArguments,
  isRawJson,
  serializeExactMessage,
  structuredContentJson,
  toolCallArguments,
} from "../src/mcp/index.js";
import {
  ARGUMENTS_JSON_META_KEY,
  exactArgumentsJson,
  exactToolHandler,
} from "../src/mcp/server/index.js";
import { RequestGate } from "../src/mcp/server/request-gate.js";
import { gatedExtra } from "./mcp/gated-extra.js";

const CANARY = "sk-live-CANARY-7f3a";
const CANARY_DIGITS = "9007199254740993731";

/** Every text an error exposes: message, stack head, cause chain, data. */
function exposed(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e !== undefined && e !== null && depth < 10; depth++) {
    if (e instanceof Error) {
      parts.push(e.name, e.message, String(e));
      const data = (e as { data?: unknown }).data;
      if (data !== undefined) parts.push(JSON.stringify(data));
      e = e.cause;
    } else {
      parts.push(typeof e === "string" ? e : JSON.stringify(e));
      break;
    }
  }
  return parts.join("\n");
}

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("expected a throw");
}

function expectClean(error: unknown): void {
  const text = exposed(error);
  expect(text).not.toContain(CANARY);
  expect(text).not.toContain("CANARY");
  expect(text).not.toContain(CANARY_DIGITS);
}

const BAD_ARGUMENT_TEXTS: [string, string, string, string?][] = [
  ["a string value, then a syntax error", `{"k":"${CANARY}","x":}`, "invalid-json"],
  ["a bare word", `{"k":${CANARY}}`, "invalid-json"],
  ["an unterminated string", `{"k":"${CANARY}`, "invalid-json"],
  ["a bad escape", `{"k":"${CANARY}\\q"}`, "invalid-json"],
  ["a number run on", `{"k":${CANARY_DIGITS}${CANARY}}`, "invalid-json"],
  ["a repeated member", `{"a":"${CANARY}","a":${CANARY_DIGITS}}`, "invalid-json", "/a"],
  ["a string at the top", `"${CANARY}"`, "not-an-object"],
  ["an array at the top", `["${CANARY}",${CANARY_DIGITS}]`, "not-an-object"],
  ["a number at the top", CANARY_DIGITS, "not-an-object"],
  ["trailing text", `{"a":1} ${CANARY}`, "invalid-json"],
];

describe("struct-json-bridge/mcp", () => {
  test.each(BAD_ARGUMENT_TEXTS)(
    "exactJsonArguments: %s → %s, no text",
    (_label, text, code, path = "") => {
      const error = thrown(() => exactJsonArguments(text));
      expect(error).toMatchObject({ code, path });
      expect((error as Error).cause).toBeUndefined();
      expectClean(error);
    },
  );

  test("exactJsonArguments: a position where JSON.parse gives one", () => {
    // V8 names a position for some errors only (an unterminated string, trailing text).
    const unterminated = thrown(() => exactJsonArguments(`{"k":"${CANARY}`)) as {
      position?: number;
    };
    expect(unterminated.position).toBe(`{"k":"${CANARY}`.length);
    const trailing = thrown(() => exactJsonArguments(`{"a":1} ${CANARY}`)) as { position?: number };
    expect(trailing.position).toBe(8);
  });

  test.each([
    ["exactJsonArguments", (text: string) => exactJsonArguments(text)],
    ["deserializeExactMessage", (text: string) => deserializeExactMessage(text)],
  ])(
    "%s: a position is the engine's, never digits of the text its message quotes",
    (_name, read) => {
      // V8 quotes a short text whole for an unexpected first token: "position 73" there is data.
      const error = thrown(() => read(`x{"k":"position 73"}`)) as { position?: number };
      expect(error).toMatchObject({ code: "invalid-json", path: "" });
      expect(error.position).toBeUndefined();
      expect(exposed(error)).not.toContain("73");
    },
  );

  test.each(BAD_ARGUMENT_TEXTS)("toolCallArguments with raw_args_json: %s", (_label, text) => {
    const call = create(CallMCPToolSchema, { name: "t", args: { k: CANARY }, rawArgsJson: text });
    let error: unknown;
    try {
      toolCallArguments(call);
    } catch (e) {
      error = e;
    }
    expectClean(error);
  });

  test.each([
    ["not JSON", `{"jsonrpc":"2.0","method":"${CANARY}"`, "invalid-json"],
    ["JSON, not a message", `{"secret":"${CANARY}","n":${CANARY_DIGITS}}`, "message-invalid"],
    [
      "a message with a bad id",
      `{"jsonrpc":"2.0","id":{"x":"${CANARY}"},"method":"m"}`,
      "message-invalid",
    ],
    ["a bare word", CANARY, "invalid-json"],
  ])("deserializeExactMessage: %s → %s, no text", (_label, line, code) => {
    const error = thrown(() => deserializeExactMessage(line));
    expect(error).toMatchObject({ code, path: "" });
    expect((error as Error).cause).toBeUndefined();
    expectClean(error);
  });

  test("ExactNumber: plain JSON.stringify refuses it with the path only", () => {
    const error = thrown(() => JSON.stringify({ n: new ExactNumber(CANARY_DIGITS, "/n") }));
    expect(error).toMatchObject({ code: "exact-json-unsupported", path: "/n" });
    expectClean(error);
  });

  test("serializeExactMessage: a circular message names no value", () => {
    const message: Record<string, unknown> = {
      secret: CANARY,
      n: new ExactNumber(CANARY_DIGITS, "/n"),
    };
    message.self = message;
    expectClean(thrown(() => serializeExactMessage(message)));
  });

  test("the readers never throw on hostile input", () => {
    expect(
      structuredContentJson({ _meta: { "struct-json-bridge/structuredContentJson": 5 } }),
    ).toBeUndefined();
    expect(structuredContentJson({ _meta: CANARY })).toBeUndefined();
    expect(isRawJson(CANARY)).toBe(false);
    expect(
      exactArgumentsJson({ _meta: { [ARGUMENTS_JSON_META_KEY]: { CANARY } as never } }),
    ).toBeUndefined();
  });
});

describe("struct-json-bridge/mcp/server", () => {
  const call = (args: string) =>
    `{"jsonrpc":"2.0","id":"${CANARY}","method":"tools/call","params":{"name":"${CANARY}","arguments":${args}}}`;

  test.each([
    ["a big integer beside a secret", `{"secret":"${CANARY}","id":${CANARY_DIGITS}}`],
    ["out of range", `{"secret":"${CANARY}","x":${CANARY_DIGITS}e400}`],
    ["deep", `{"a":[{"b":["${CANARY}",${CANARY_DIGITS}]}]}`],
  ])("a refusal (-32602) names codes and paths only: %s", (_label, args) => {
    const gate = new RequestGate(undefined);
    const text = call(args);
    const message = JSON.parse(text) as JSONRPCMessage;
    gate.annotate(message, text);
    const refused = gate.admit(message);
    expect(refused?.error.code).toBe(-32602);
    const { id: _id, ...rest } = refused!;
    expectClean(JSON.stringify(rest));
  });

  test.each([
    ["no exact transport", { secret: CANARY, id: Number(CANARY_DIGITS) }, {}],
    [
      "text that disagrees",
      { secret: CANARY, id: 5 },
      gatedExtra(`{"secret":"${CANARY}","id":${CANARY_DIGITS}}`)._meta,
    ],
    [
      "out of range",
      { secret: CANARY, id: 1 },
      gatedExtra(`{"secret":"${CANARY}","id":1e400}`)._meta,
    ],
    [
      "a text put under the key by hand",
      { secret: CANARY, id: Number(CANARY_DIGITS) },
      { [ARGUMENTS_JSON_META_KEY]: `{"secret":"${CANARY}","id":${CANARY_DIGITS}}` },
    ],
  ])("exactToolHandler refuses: %s", async (_label, args, meta) => {
    const handler = exactToolHandler(() => ({ content: [] }));
    const error = await handler(args, { _meta: meta }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: -32602 });
    expectClean(error);
  });
});
