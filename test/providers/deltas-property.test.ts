// Property tests of the provider adapters on hand-built streams: an argument
// text cut into deltas anywhere (inside a number, inside an escape such as
// \u00e9, between the two halves of a surrogate pair: a JavaScript string's
// code units, which is what an SDK's decoder hands over) comes out exactly as
// the uncut text, for every adapter, alone or interleaved with another call;
// an Anthropic raw body gives the input's exact span; and results and events
// with fields missing, null or of the wrong type give a StructJsonError with a
// provider code, never another exception. Fixed seeds and run counts.

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { isStructJsonError } from "../../src/errors.js";
import { toolCallsFromMessage } from "../../src/providers/anthropic.js";
import { toolCallsFromChatCompletion, toolCallsFromResponse } from "../../src/providers/openai.js";
import type { ProviderToolCall } from "../../src/providers/provider-tool-call.js";
import { argumentsText, runs } from "../property-arbitraries.js";
import { HARD_CALLS } from "./fixtures.js";

async function* streamOf(items: readonly unknown[]): AsyncGenerator<never> {
  for (const item of items) yield item as never;
}

/** Texts that break when cut carelessly: escapes, surrogate pairs (escaped and raw), big ids, 1.0. */
const HARD_TEXTS: readonly string[] = [
  ...HARD_CALLS.map((c) => c.argumentsJson),
  '{"e":"\\u00e9\\uD83D\\uDE00😀\\"\\\\","n":-12345678901234567890.50e-3,"z":-0.0}',
  // Not in normal form: a decomposed é, the Ångström sign, a BOM (no Unicode normalization on the way).
  '{"nfd":"e\u0301","a":"\u212b","b":"\ufeff"}',
  "{}",
];

/** A call's deltas: `text` cut at the given offsets (sorted, repeats give empty deltas). */
function cut(text: string, at: readonly number[]): string[] {
  const points = [...at].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of points) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

/** Two calls' deltas in one arrival order: `order[k]` says which call sends its next delta. */
function interleave(a: readonly string[], b: readonly string[], order: readonly boolean[]) {
  const out: [0 | 1, string][] = [];
  let i = 0;
  let j = 0;
  for (const takeA of order) {
    if (takeA && i < a.length) out.push([0, a[i++]!]);
    else if (j < b.length) out.push([1, b[j++]!]);
  }
  while (i < a.length) out.push([0, a[i++]!]);
  while (j < b.length) out.push([1, b[j++]!]);
  return out;
}

const CALLS = [
  { id: "call_a", name: "fa" },
  { id: "call_b", name: "fb" },
] as const;

/** A provider's stream for the deltas `pieces` of calls whose whole texts are `texts` (for "done" events). */
type Build = (pieces: readonly [0 | 1, string][], texts: readonly string[]) => unknown[];

const BUILDERS: Record<string, Build> = {
  "OpenAI Chat Completions": (pieces, texts) => {
    const chunks: unknown[] = [];
    texts.forEach((_, i) => {
      chunks.push({
        choices: [
          {
            index: 0,
            delta: {
              role: "assistant",
              tool_calls: [
                {
                  index: i,
                  id: CALLS[i]!.id,
                  type: "function",
                  function: { name: CALLS[i]!.name, arguments: "" },
                },
              ],
            },
          },
        ],
      });
    });
    for (const [i, d] of pieces) {
      chunks.push({
        choices: [{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: d } }] } }],
      });
    }
    chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
    chunks.push({ choices: [], usage: { total_tokens: 1 } });
    return chunks;
  },
  "OpenAI Responses": (pieces, texts) => {
    const item = (i: number, args: string) => ({
      type: "function_call",
      id: `fc_${i}`,
      call_id: CALLS[i]!.id,
      name: CALLS[i]!.name,
      arguments: args,
      status: "completed",
    });
    // A reasoning item first: the calls sit at output_index 1 and 2.
    const events: unknown[] = [
      { type: "response.created", response: { output: [] } },
      { type: "response.output_item.added", output_index: 0, item: { type: "reasoning" } },
    ];
    texts.forEach((_, i) => {
      events.push({ type: "response.output_item.added", output_index: i + 1, item: item(i, "") });
    });
    for (const [i, d] of pieces) {
      events.push({
        type: "response.function_call_arguments.delta",
        output_index: i + 1,
        delta: d,
      });
    }
    texts.forEach((t, i) => {
      events.push({
        type: "response.function_call_arguments.done",
        output_index: i + 1,
        arguments: t,
      });
      events.push({ type: "response.output_item.done", output_index: i + 1, item: item(i, t) });
    });
    events.push({
      type: "response.completed",
      response: { output: [{ type: "reasoning" }, ...texts.map((t, i) => item(i, t))] },
    });
    return events;
  },
  "Anthropic Messages": (pieces, texts) => {
    // A text block first: the calls sit at content index 1 and 2.
    const events: unknown[] = [
      { type: "message_start", message: { content: [] } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "{" } },
      { type: "content_block_stop", index: 0 },
    ];
    texts.forEach((_, i) => {
      events.push({
        type: "content_block_start",
        index: i + 1,
        content_block: { type: "tool_use", id: CALLS[i]!.id, name: CALLS[i]!.name, input: {} },
      });
    });
    for (const [i, d] of pieces) {
      events.push({
        type: "content_block_delta",
        index: i + 1,
        delta: { type: "input_json_delta", partial_json: d },
      });
    }
    texts.forEach((_, i) => {
      events.push({ type: "content_block_stop", index: i + 1 });
    });
    events.push({ type: "message_delta", delta: { stop_reason: "tool_use" } });
    events.push({ type: "message_stop" });
    return events;
  },
};

/** Feeds `events` to the adapter of the provider `name`. */
function replay(name: string, events: readonly unknown[]): Promise<ProviderToolCall[]> {
  if (name.startsWith("OpenAI Chat")) return toolCallsFromChatCompletion(streamOf(events) as never);
  if (name.startsWith("OpenAI Responses")) return toolCallsFromResponse(streamOf(events) as never);
  return toolCallsFromMessage(streamOf(events) as never);
}

type Adapter = (pieces: readonly [0 | 1, string][], texts: readonly string[]) => Promise<unknown>;
const ADAPTERS: Record<string, Adapter> = Object.fromEntries(
  Object.entries(BUILDERS).map(([name, build]) => [
    name,
    (pieces: readonly [0 | 1, string][], texts: readonly string[]) =>
      replay(name, build(pieces, texts)),
  ]),
);

const expected = (texts: readonly string[]): ProviderToolCall[] =>
  texts.map((t, i) => ({ id: CALLS[i]!.id, name: CALLS[i]!.name, argumentsJson: t }));

describe.each(Object.entries(ADAPTERS))("%s: deltas cut anywhere", (_name, adapter) => {
  test("one cut at every code-unit offset of the hard texts gives the uncut text", async () => {
    for (const text of HARD_TEXTS) {
      for (let p = 0; p <= text.length; p++) {
        const pieces = cut(text, [p]).map((d): [0, string] => [0, d]);
        expect(await adapter(pieces, [text])).toEqual(expected([text]));
      }
    }
  });

  test("every code unit its own delta, two calls interleaved", async () => {
    for (const text of HARD_TEXTS) {
      const other = HARD_TEXTS[0]!;
      const a = cut(
        text,
        Array.from({ length: text.length }, (_, i) => i + 1),
      );
      const b = cut(
        other,
        Array.from({ length: other.length }, (_, i) => i + 1),
      );
      const order = a.map((_, i) => i % 3 !== 0);
      expect(await adapter(interleave(a, b, order), [text, other])).toEqual(
        expected([text, other]),
      );
    }
  });

  test("generated texts cut at random offsets, interleaved with a second call, come out exact", async () => {
    const texts = fc
      .tuple(argumentsText, argumentsText)
      .chain(([x, y]) =>
        fc.tuple(
          fc.constant([x.text, y.text] as const),
          fc.array(fc.nat({ max: x.text.length }), { maxLength: 12 }),
          fc.array(fc.nat({ max: y.text.length }), { maxLength: 12 }),
          fc.array(fc.boolean(), { maxLength: 30 }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(texts, async ([[x, y], atX, atY, order]) => {
        const pieces = interleave(cut(x, atX), cut(y, atY), order);
        expect(await adapter(pieces, [x, y])).toEqual(expected([x, y]));
      }),
      runs(150, 20261210),
    );
  });
});

describe("Anthropic raw body: the input's exact span", () => {
  const jsonWhitespace = /^[ \t\n\r]+|[ \t\n\r]+$/g;
  test("any argument text, between other blocks, with whitespace around it", async () => {
    await fc.assert(
      fc.asyncProperty(argumentsText, fc.constantFrom("", " ", "\n\t"), async (a, w) => {
        const body =
          `{"id":"msg_1","type":"message","role":"assistant","content":[` +
          `{"type":"text","text":"\\"input\\": {"},${w}` +
          `{"type":"tool_use","id":"toolu_1","name":"f","input":${w}${a.text}${w}},` +
          `{"type":"tool_use","input":${a.text},"name":"g","id":"toolu_2"}` +
          `],"stop_reason":"tool_use"}`;
        const exact = a.text.replace(jsonWhitespace, "");
        expect(await toolCallsFromMessage(body)).toEqual([
          { id: "toolu_1", name: "f", argumentsJson: exact },
          { id: "toolu_2", name: "g", argumentsJson: exact },
        ]);
      }),
      runs(200, 20261211),
    );
  });
});

// --- hostile shapes: one field of a valid result or event replaced ---

/** Every path (as keys) to a field of `v`, objects and arrays alike. */
function fieldPaths(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []) {
  if (typeof v === "object" && v !== null) {
    for (const k of Object.keys(v)) {
      const key = Array.isArray(v) ? Number(k) : k;
      out.push([...at, key]);
      fieldPaths((v as Record<string, unknown>)[k], [...at, key], out);
    }
  }
  return out;
}

function getPath(v: unknown, path: readonly (string | number)[]): unknown {
  for (const k of path) v = (v as Record<string | number, unknown>)[k];
  return v;
}

/** `v` with the field at `path` replaced by `x` (deleted when `x` is the DELETE marker). */
const DELETE = Symbol("delete");
function replaced(v: unknown, path: readonly (string | number)[], x: unknown): unknown {
  const copy = structuredClone(v) as Record<string | number, unknown>;
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (x === DELETE) delete parent[last];
  else parent[last] = x;
  return copy;
}

const REPLACEMENTS: readonly unknown[] = [
  DELETE,
  null,
  undefined,
  0,
  -1,
  1.5,
  "",
  "x",
  true,
  [],
  {},
  [null],
  { length: 1 },
];

const PROVIDER_CODES = ["provider-response-invalid", "provider-text-unavailable"];

/** Runs `adapter` and returns the calls, or the StructJsonError's code; any other exception fails. */
async function outcome(
  run: () => Promise<ProviderToolCall[]>,
): Promise<string | ProviderToolCall[]> {
  try {
    return await run();
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    return e.code;
  }
}

/** A provider code, or calls whose three members are strings (a text as given, never a value made up). */
function checkOutcome(got: string | ProviderToolCall[]): void {
  if (typeof got === "string") {
    expect(PROVIDER_CODES).toContain(got);
    return;
  }
  for (const c of got) {
    expect(Object.keys(c)).toEqual(["id", "name", "argumentsJson"]);
    for (const v of Object.values(c)) expect(typeof v).toBe("string");
  }
}

describe("hostile shapes: any one field missing, null or of another type", () => {
  const text = HARD_CALLS[0]!.argumentsJson;
  const chatResult = {
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          tool_calls: [
            { id: "call_a", type: "function", function: { name: "fa", arguments: text } },
          ],
        },
      },
    ],
  };
  const responseResult = {
    output: [
      { type: "reasoning" },
      { type: "function_call", call_id: "call_a", name: "fa", arguments: text },
    ],
  };
  const sources: [string, unknown, (v: unknown) => Promise<ProviderToolCall[]>][] = [
    ["Chat Completions result", chatResult, (v) => toolCallsFromChatCompletion(v as never)],
    ["Responses result", responseResult, (v) => toolCallsFromResponse(v as never)],
  ];

  test.each(sources)("%s", async (_name, valid, run) => {
    expect(await run(valid)).toEqual(expected([text]));
    for (const path of fieldPaths(valid)) {
      for (const x of REPLACEMENTS) {
        const got = await outcome(() => run(replaced(valid, path, x)));
        checkOutcome(got);
      }
    }
  });

  // Streams: each event in turn gets one field replaced, or is replaced whole.
  const TEXT_KEYS: Record<string, readonly string[]> = {
    "OpenAI Chat Completions": ["arguments"],
    "OpenAI Responses": ["arguments", "delta"],
    "Anthropic Messages": ["partial_json"],
  };
  test.each(Object.keys(ADAPTERS))("%s stream", async (name) => {
    const events = BUILDERS[name]!(
      cut(text, [3, 9, 20]).map((d): [0, string] => [0, d]),
      [text],
    );
    expect(await replay(name, events)).toEqual(expected([text]));
    for (let e = 0; e < events.length; e++) {
      for (const path of fieldPaths(events[e])) {
        for (const x of REPLACEMENTS) {
          const mutated = [...events];
          mutated[e] = replaced(events[e], path, x);
          const got = await outcome(() => replay(name, mutated));
          checkOutcome(got);
          // A field that is neither text nor a container of it nor a `type` (an
          // unknown type is skipped: forward compatibility) changes no text: a
          // piece still in the stream is never dropped.
          const key = String(path.at(-1));
          const leaf = getPath(events[e], path);
          if (
            typeof got !== "string" &&
            (typeof leaf !== "object" || leaf === null) &&
            key !== "type" &&
            !TEXT_KEYS[name]!.includes(key)
          ) {
            for (const c of got) expect(c.argumentsJson).toBe(text);
          }
        }
      }
      // The whole event null, a number, a string, a list: not an event, never skipped
      // (a skipped chunk could have held a piece of the text).
      for (const x of [null, undefined, 7, "event", []]) {
        const mutated = [...events];
        mutated[e] = x;
        expect(await outcome(() => replay(name, mutated))).toBe("provider-response-invalid");
      }
    }
  });
});

describe("refused, not read as no tool call (found by the properties above)", () => {
  const READERS: [string, (v: unknown) => Promise<ProviderToolCall[]>][] = [
    ["toolCallsFromChatCompletion", (v) => toolCallsFromChatCompletion(v as never)],
    ["toolCallsFromResponse", (v) => toolCallsFromResponse(v as never)],
    ["toolCallsFromMessage", (v) => toolCallsFromMessage(v as never)],
  ];
  test.each(READERS)("%s: a source that is not a result, stream or body", async (_name, read) => {
    for (const source of [null, undefined, 0, true, [], Promise.resolve(null)]) {
      const error = await read(source).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        name: "StructJsonError",
        code: "provider-response-invalid",
        path: "",
      });
    }
  });

  // A tool call at an index another kind of item already holds: refused in
  // either order (it was dropped silently when the other item came first).
  const toolUse = (index: number) => ({
    type: "content_block_start",
    index,
    content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} },
  });
  const textBlock = (index: number) => ({
    type: "content_block_start",
    index,
    content_block: { type: "text", text: "" },
  });
  const fcItem = (index: number) => ({
    type: "response.output_item.added",
    output_index: index,
    item: { type: "function_call", call_id: "call_1", name: "f", arguments: "" },
  });
  const messageItem = (index: number) => ({
    type: "response.output_item.added",
    output_index: index,
    item: { type: "message", content: [] },
  });
  const chatCall = (type: "function" | "custom") => ({
    choices: [
      {
        index: 0,
        delta: {
          tool_calls: [
            type === "function"
              ? { index: 0, id: "call_1", type, function: { name: "f", arguments: "{}" } }
              : { index: 0, id: "call_2", type, custom: { name: "c", input: "" } },
          ],
        },
      },
    ],
  });
  const rows: [string, () => Promise<unknown>, string][] = [
    [
      "Anthropic: a text block, then a tool_use at its index",
      () => toolCallsFromMessage(streamOf([textBlock(0), toolUse(0)])),
      "/content/0",
    ],
    [
      "Anthropic: a tool_use, then a text block at its index",
      () => toolCallsFromMessage(streamOf([toolUse(0), textBlock(0)])),
      "/content/0",
    ],
    [
      "Responses: a message item, then a function call at its output_index",
      () => toolCallsFromResponse(streamOf([messageItem(1), fcItem(1)])),
      "/output/1",
    ],
    [
      "Responses: a function call, then a message item at its output_index",
      () => toolCallsFromResponse(streamOf([fcItem(1), messageItem(1)])),
      "/output/1",
    ],
    [
      "Chat: a custom tool call, then a function call at its index",
      () => toolCallsFromChatCompletion(streamOf([chatCall("custom"), chatCall("function")])),
      "/choices/0/message/tool_calls/0",
    ],
    [
      "Chat: a function call, then a custom tool call at its index",
      () => toolCallsFromChatCompletion(streamOf([chatCall("function"), chatCall("custom")])),
      "/choices/0/message/tool_calls/0",
    ],
  ];
  rows.push(
    [
      "Chat: a chunk's choice index that is not an index (its piece was dropped as another choice's)",
      () =>
        toolCallsFromChatCompletion(
          streamOf([
            chatCall("function"),
            {
              choices: [
                {
                  index: "0",
                  delta: { tool_calls: [{ index: 0, function: { arguments: '"x":1' } }] },
                },
              ],
            },
          ]),
        ),
      "/choices/0/index",
    ],
    [
      "Chat: a custom tool call, then a function call's text (no id or name) at its index",
      () =>
        toolCallsFromChatCompletion(
          streamOf([
            chatCall("custom"),
            {
              choices: [
                {
                  index: 0,
                  delta: {
                    tool_calls: [
                      { index: 0, type: "function", function: { arguments: '{"id":1}' } },
                    ],
                  },
                },
              ],
            },
            { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
          ]),
        ),
      "/choices/0/message/tool_calls/0",
    ],
    [
      "Anthropic: an input_json_delta at a text block's index (its piece was dropped)",
      () =>
        toolCallsFromMessage(
          streamOf([
            textBlock(0),
            toolUse(1),
            {
              type: "content_block_delta",
              index: 1,
              delta: { type: "input_json_delta", partial_json: '{"a":1' },
            },
            {
              type: "content_block_delta",
              index: 0,
              delta: { type: "input_json_delta", partial_json: ',"b":2' },
            },
            {
              type: "content_block_delta",
              index: 1,
              delta: { type: "input_json_delta", partial_json: "}" },
            },
          ]),
        ),
      "/content/0",
    ],
  );
  test.each(rows)("%s", async (_name, run, path) => {
    const error = await run().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: "StructJsonError",
      code: "provider-response-invalid",
      path,
    });
  });
});
