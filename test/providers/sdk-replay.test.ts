// The adapters with the real `openai` and `@anthropic-ai/sdk` clients, pointed
// at a replay server on 127.0.0.1 that answers in the providers' documented
// wire formats, streamed and not. Every argument text must come out exactly
// as the server sent it, whatever the delta and byte boundaries.

import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type ReplayCall,
  type ReplayScenario,
  type ReplayServer,
  rechunkingFetch,
  splitText,
  startReplayServer,
} from "../../examples/providers/replay-server.js";
import { toolCallFromJson } from "../../src/index.js";
import { toolCallsFromMessage } from "../../src/providers/anthropic.js";
import { toolCallsFromChatCompletion, toolCallsFromResponse } from "../../src/providers/openai.js";
import type { ProviderToolCall } from "../../src/providers/provider-tool-call.js";
import { HARD_CALLS } from "./fixtures.js";

/** How the bytes and deltas are cut: each variant is a model name on the replay server. */
interface Variant {
  readonly model: string;
  readonly scenario: ReplayScenario;
  /** The client's fetch re-cuts every body into pieces of this many bytes. */
  readonly bytes?: number;
}

const VARIANTS: readonly Variant[] = [
  {
    model: "deltas-of-1-interleaved",
    scenario: { calls: HARD_CALLS, deltaSize: 1, interleave: true, leadingText: "Looking…" },
    bytes: 5,
  },
  { model: "deltas-of-3-bytes-of-1", scenario: { calls: HARD_CALLS, deltaSize: 3 }, bytes: 1 },
  {
    model: "deltas-of-7-writes-of-2",
    scenario: { calls: HARD_CALLS, deltaSize: 7, interleave: true, writeSize: 2 },
  },
  {
    model: "one-delta-per-call",
    scenario: { calls: HARD_CALLS, deltaSize: 10_000, leadingText: "ok" },
    bytes: 2,
  },
];

const NO_PARAMS: readonly ReplayCall[] = [
  { id: "toolu_now", name: "get_time", argumentsJson: "" },
  { id: "toolu_big", name: "get_user", argumentsJson: '{"user_id":9007199254740993}' },
];

let server: ReplayServer;
beforeAll(async () => {
  const scenarios: Record<string, ReplayScenario> = {
    "no-params": { calls: NO_PARAMS, deltaSize: 4 },
    "no-params-body": {
      calls: [{ ...NO_PARAMS[0]!, argumentsJson: "{}" }],
    },
  };
  for (const v of VARIANTS) scenarios[v.model] = v.scenario;
  server = await startReplayServer(scenarios);
});
afterAll(() => server.close());

function openai(bytes?: number): OpenAI {
  return new OpenAI({
    apiKey: "replay",
    baseURL: server.openaiBaseURL,
    maxRetries: 0,
    ...(bytes === undefined ? {} : { fetch: rechunkingFetch(bytes) }),
  });
}

function anthropic(bytes?: number): Anthropic {
  return new Anthropic({
    apiKey: "replay",
    baseURL: server.anthropicBaseURL,
    maxRetries: 0,
    ...(bytes === undefined ? {} : { fetch: rechunkingFetch(bytes) }),
  });
}

const MESSAGES = [{ role: "user" as const, content: "go" }];

/** An Anthropic request to one replay model. */
function ask(model: string): { model: string; max_tokens: number; messages: typeof MESSAGES };
function ask(
  model: string,
  stream: true,
): { model: string; max_tokens: number; messages: typeof MESSAGES; stream: true };
function ask(model: string, stream?: true) {
  return { model, max_tokens: 64, messages: MESSAGES, ...(stream ? { stream } : {}) };
}

/** Every way each SDK hands over a result, with the adapter that reads it. */
const PATHS: Record<string, (v: Variant) => Promise<ProviderToolCall[]>> = {
  "OpenAI Chat Completions, not streamed": (v) =>
    toolCallsFromChatCompletion(
      openai(v.bytes).chat.completions.create({ model: v.model, messages: MESSAGES }),
    ),
  "OpenAI Chat Completions, create({ stream: true })": async (v) =>
    toolCallsFromChatCompletion(
      await openai(v.bytes).chat.completions.create({
        model: v.model,
        messages: MESSAGES,
        stream: true,
      }),
    ),
  "OpenAI Chat Completions, chat.completions.stream()": (v) =>
    toolCallsFromChatCompletion(
      openai(v.bytes).chat.completions.stream({ model: v.model, messages: MESSAGES }),
    ),
  "OpenAI Responses, not streamed": (v) =>
    toolCallsFromResponse(openai(v.bytes).responses.create({ model: v.model, input: "go" })),
  "OpenAI Responses, create({ stream: true })": async (v) =>
    toolCallsFromResponse(
      await openai(v.bytes).responses.create({ model: v.model, input: "go", stream: true }),
    ),
  "OpenAI Responses, responses.stream()": (v) =>
    toolCallsFromResponse(openai(v.bytes).responses.stream({ model: v.model, input: "go" })),
  "Anthropic Messages, create().asResponse()": (v) =>
    toolCallsFromMessage(anthropic(v.bytes).messages.create(ask(v.model)).asResponse()),
  "Anthropic Messages, the raw body's text": async (v) => {
    const response = await anthropic(v.bytes).messages.create(ask(v.model)).asResponse();
    return toolCallsFromMessage(await response.text());
  },
  "Anthropic Messages, create({ stream: true })": async (v) =>
    toolCallsFromMessage(await anthropic(v.bytes).messages.create(ask(v.model, true))),
  "Anthropic Messages, messages.stream()": (v) =>
    toolCallsFromMessage(anthropic(v.bytes).messages.stream(ask(v.model))),
};

describe("each SDK path gives every call's exact argument text and the provider's call id", () => {
  for (const [path, run] of Object.entries(PATHS)) {
    for (const v of VARIANTS) {
      test(`${path}: ${v.model}`, async () => {
        const calls = await run(v);
        expect(calls).toEqual(
          v.scenario.calls.map((c) => ({ id: c.id, name: c.name, argumentsJson: c.argumentsJson })),
        );
      });
    }
  }
});

// The replay server's Chat stream sends no chunk for a call whose text is empty
// (examples/providers/replay-server.ts), so Chat streams are covered in shapes.test.ts.
describe('OpenAI: a tool without parameters sent as arguments "" gives {}', () => {
  for (const path of [
    "OpenAI Chat Completions, not streamed",
    "OpenAI Responses, not streamed",
    "OpenAI Responses, create({ stream: true })",
    "OpenAI Responses, responses.stream()",
  ]) {
    const run = PATHS[path]!;
    test(path, async () => {
      expect(await run({ model: "no-params", scenario: { calls: NO_PARAMS } })).toEqual([
        { ...NO_PARAMS[0]!, argumentsJson: "{}" },
        NO_PARAMS[1]!,
      ]);
    });
  }
});

test("the variants do cut inside numbers, between surrogate halves and inside UTF-8 sequences", () => {
  const pieces = splitText(HARD_CALLS[0]!.argumentsJson, 3);
  expect(pieces.some((p) => /^\d+$/.test(p))).toBe(true); // a piece wholly inside the id
  const text = HARD_CALLS[2]!.argumentsJson;
  const astral = text.indexOf("😀");
  expect(splitText(text, 1)[astral]).toBe("\ud83d"); // a lone high surrogate travels alone
  expect(new TextEncoder().encode("😀").length).toBe(4); // a 1-byte fetch cuts it three times
});

test("what the adapter gives is what toolCallFromJson needs: raw_args_json is the model's text", async () => {
  const calls = await toolCallsFromMessage(
    anthropic().messages.create(ask("deltas-of-3-bytes-of-1", true)),
  );
  for (const [i, call] of calls.entries()) {
    const built = toolCallFromJson(call);
    expect(built.rawArgsJson).toBe(HARD_CALLS[i]!.argumentsJson);
    expect(built.name).toBe(HARD_CALLS[i]!.name);
  }
});

describe("Anthropic: where only the parsed object exists, the adapter says so", () => {
  test("JSON.stringify of the SDK's parsed input has already lost the id (why the adapter refuses it)", async () => {
    const message = await anthropic().messages.create(ask("one-delta-per-call"));
    const block = message.content.find((b) => b.type === "tool_use")!;
    expect(JSON.stringify(block.input)).toBe('{"user_id":9007199254740992}');
  });

  test("a parsed Message (or the APIPromise awaited) throws provider-text-unavailable at the input, naming the remedies", async () => {
    const request = () => anthropic().messages.create(ask("one-delta-per-call"));
    for (const source of [await request(), request()]) {
      const error = await toolCallsFromMessage(source).catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: "StructJsonError",
        code: "provider-text-unavailable",
        path: "/content/1/input",
      });
      const message = (error as Error).message;
      expect(message).toContain("asResponse()");
      expect(message).toContain("stream: true");
      expect(message).not.toContain("9007199254740");
    }
  });

  test("withResponse() has read the body: provider-text-unavailable, pointing to asResponse()", async () => {
    const { response } = await anthropic()
      .messages.create(ask("one-delta-per-call"))
      .withResponse();
    await expect(toolCallsFromMessage(response)).rejects.toMatchObject({
      code: "provider-text-unavailable",
      path: "",
    });
  });

  test("a streamed raw Response is refused (the SDK's stream is the way to read it)", async () => {
    const response = await anthropic()
      .messages.create(ask("one-delta-per-call", true))
      .asResponse();
    await expect(toolCallsFromMessage(response)).rejects.toMatchObject({
      code: "provider-response-invalid",
      path: "",
    });
  });

  test("a tool without parameters: {} from a stream with no delta, and from a parsed Message (nothing to lose)", async () => {
    const streamed = await toolCallsFromMessage(
      anthropic().messages.create(ask("no-params", true)),
    );
    expect(streamed).toEqual([
      { id: "toolu_now", name: "get_time", argumentsJson: "{}" },
      { id: "toolu_big", name: "get_user", argumentsJson: '{"user_id":9007199254740993}' },
    ]);
    const parsed = await anthropic().messages.create(ask("no-params-body"));
    expect(await toolCallsFromMessage(parsed)).toEqual([
      { id: "toolu_now", name: "get_time", argumentsJson: "{}" },
    ]);
  });
});

describe("a helper stream already read (in part or whole) before the adapter gets it", () => {
  const expected = () =>
    HARD_CALLS.map((c) => ({ id: c.id, name: c.name, argumentsJson: c.argumentsJson }));
  /** Waits for the helper's first `event`, so that the adapter starts after it. */
  const firstEvent = (stream: { once(event: string, listener: () => void): unknown }) =>
    new Promise<void>((resolve) => {
      stream.once("chunk", resolve);
      stream.once("event", resolve);
    });

  test("chat.completions.stream(), read to its end: every call, from its final completion", async () => {
    const stream = openai().chat.completions.stream({
      model: "deltas-of-3-bytes-of-1",
      messages: MESSAGES,
    });
    await stream.finalChatCompletion();
    expect(await toolCallsFromChatCompletion(stream)).toEqual(expected());
  });

  test("chat.completions.stream() after its first tool-call chunks: every call, none missed", async () => {
    const stream = openai(1).chat.completions.stream({
      model: "deltas-of-3-bytes-of-1",
      messages: MESSAGES,
    });
    // Past the chunks that name the first call: an iterator made now never sees them.
    await new Promise<void>((resolve) => {
      stream.on("chunk", (chunk) => {
        if (chunk.choices[0]?.delta.tool_calls?.some((call) => call.index === 1)) resolve();
      });
    });
    expect(await toolCallsFromChatCompletion(stream)).toEqual(expected());
  });

  test("responses.stream(), read to its end: every call, from its final response", async () => {
    const stream = openai().responses.stream({ model: "deltas-of-3-bytes-of-1", input: "go" });
    await stream.finalResponse();
    expect(await toolCallsFromResponse(stream)).toEqual(expected());
  });

  test("responses.stream() after its first event: every call (response.completed names them all)", async () => {
    const stream = openai(1).responses.stream({ model: "deltas-of-3-bytes-of-1", input: "go" });
    await firstEvent(stream);
    expect(await toolCallsFromResponse(stream)).toEqual(expected());
  });

  test.each([
    [
      "read to its end",
      (stream: ReturnType<Anthropic["messages"]["stream"]>) => stream.finalMessage(),
    ],
    [
      "after its first event",
      (stream: ReturnType<Anthropic["messages"]["stream"]>) =>
        new Promise<void>((resolve) => stream.once("streamEvent", () => resolve())),
    ],
  ])(
    "messages.stream() %s: provider-text-unavailable, not a wait for events long gone",
    async (_label, read) => {
      const stream = anthropic(1).messages.stream(ask("deltas-of-3-bytes-of-1"));
      await read(stream);
      const outcome = await Promise.race([
        toolCallsFromMessage(stream).catch((e: unknown) => e),
        new Promise((resolve) => setTimeout(() => resolve("still waiting"), 5_000)),
      ]);
      expect(outcome).toMatchObject({
        name: "StructJsonError",
        code: "provider-text-unavailable",
        path: "",
      });
      await stream.done().catch(() => undefined);
    },
  );
});

test("the requests reached the replay server as the SDKs send them", () => {
  const paths = new Set(server.requests.map((r) => r.path));
  expect([...paths].sort()).toEqual(["/v1/chat/completions", "/v1/messages", "/v1/responses"]);
});
