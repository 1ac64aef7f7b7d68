// The adapters on hand-built results and streams: what they read, what they
// skip, and the exact code and path for every shape they refuse. No error
// message may carry an argument value (the values here hold "SECRET").

import { describe, expect, test } from "vitest";
import { toolCallsFromMessage } from "../../src/providers/anthropic.js";
import { toolCallsFromChatCompletion, toolCallsFromResponse } from "../../src/providers/openai.js";

async function* streamOf(...items: object[]): AsyncGenerator<{ type: string; choices: object[] }> {
  for (const item of items) yield item as { type: string; choices: object[] };
}

const chunk = (toolCalls: unknown[], index = 0) => ({
  choices: [{ index, delta: { tool_calls: toolCalls } }],
});

const SECRET_ARGS = '{"token":"SECRET","id":9007199254740993}';

describe("OpenAI Chat Completions", () => {
  test("reads the chosen choice only (n > 1)", async () => {
    const completion = {
      choices: [
        { index: 0, message: { tool_calls: [fn("call_a", "a", "{}")] } },
        { index: 1, message: { tool_calls: [fn("call_b", "b", SECRET_ARGS)] } },
      ],
    };
    expect(await toolCallsFromChatCompletion(completion, { choice: 1 })).toEqual([
      { id: "call_b", name: "b", argumentsJson: SECRET_ARGS },
    ]);
    expect(await toolCallsFromChatCompletion(completion)).toEqual([
      { id: "call_a", name: "a", argumentsJson: "{}" },
    ]);
  });

  test("skips custom (free-text) tool calls; no tool calls gives []", async () => {
    const completion = {
      choices: [
        {
          index: 0,
          message: {
            tool_calls: [
              { id: "call_c", type: "custom", custom: { name: "c", input: "SECRET" } },
              fn("call_f", "f", SECRET_ARGS),
            ],
          },
        },
      ],
    };
    expect(await toolCallsFromChatCompletion(completion)).toEqual([
      { id: "call_f", name: "f", argumentsJson: SECRET_ARGS },
    ]);
    expect(
      await toolCallsFromChatCompletion({ choices: [{ index: 0, message: { tool_calls: null } }] }),
    ).toEqual([]);
    expect(await toolCallsFromChatCompletion({ choices: [] })).toEqual([]);
  });

  test("a stream: deltas joined by index; repeated or empty ids and names agree; other choices and usage chunks skipped", async () => {
    const stream = streamOf(
      chunk([
        { index: 1, id: "call_2", type: "function", function: { name: "two", arguments: "" } },
      ]),
      chunk([{ index: 0, id: "call_1", type: "function", function: { name: "one" } }]),
      chunk([{ index: 1, function: { arguments: '{"id":90071992' } }]),
      chunk([{ index: 0, id: "call_1", function: { name: "", arguments: "{}" } }]),
      chunk([{ index: 0, id: "call_x", function: { name: "x", arguments: "SECRET" } }], 1),
      { choices: [], usage: { total_tokens: 3 } },
      chunk([{ index: 1, id: "", function: { name: "two", arguments: "54740993}" } }]),
    );
    expect(await toolCallsFromChatCompletion(stream)).toEqual([
      { id: "call_1", name: "one", argumentsJson: "{}" },
      { id: "call_2", name: "two", argumentsJson: '{"id":9007199254740993}' },
    ]);
  });

  test('empty arguments "" (a tool without parameters) are {} once the choice finished whole, "" if cut', async () => {
    const result = (finish_reason: string | undefined, ...args: string[]) => ({
      choices: [
        {
          index: 0,
          message: { tool_calls: args.map((a, i) => fn(`call_${i}`, "f", a)) },
          ...(finish_reason === undefined ? {} : { finish_reason }),
        },
      ],
    });
    const out = (...args: string[]) =>
      args.map((a, i) => ({ id: `call_${i}`, name: "f", argumentsJson: a }));
    expect(await toolCallsFromChatCompletion(result("tool_calls", ""))).toEqual(out("{}"));
    expect(await toolCallsFromChatCompletion(result(undefined, ""))).toEqual(out("{}"));
    expect(await toolCallsFromChatCompletion(result("stop", "", "{}"))).toEqual(out("{}", "{}"));
    // Whitespace is what the model wrote: not repaired (toolCallFromJson says invalid-json).
    expect(await toolCallsFromChatCompletion(result("tool_calls", " \n"))).toEqual(out(" \n"));
    // Cut at the token limit or by the content filter: the last call may have been cut before its first character.
    for (const r of ["length", "content_filter"]) {
      expect(await toolCallsFromChatCompletion(result(r, "", ""))).toEqual(out("{}", ""));
    }

    const opened = (i: number) =>
      chunk([
        { index: i, id: `call_${i}`, type: "function", function: { name: "f", arguments: "" } },
      ]);
    const finish = (finish_reason: string) => ({
      choices: [{ index: 0, delta: {}, finish_reason }],
    });
    const usage = { choices: [], usage: { total_tokens: 3 } };
    expect(
      await toolCallsFromChatCompletion(
        streamOf(opened(0), opened(1), finish("tool_calls"), usage),
      ),
    ).toEqual(out("{}", "{}"));
    // A stream that ended before its finish_reason (a dropped connection): nothing is made up.
    expect(await toolCallsFromChatCompletion(streamOf(opened(0), opened(1)))).toEqual(out("", ""));
    expect(
      await toolCallsFromChatCompletion(streamOf(opened(0), opened(1), finish("length"))),
    ).toEqual(out("{}", ""));
    // The finish_reason in the chunk of the last delta (some compatible servers), then a usage chunk.
    const last = {
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 1, function: { arguments: "" } }] },
          finish_reason: "tool_calls",
        },
      ],
    };
    const after = { choices: [{ index: 0, delta: {}, finish_reason: null }], usage: {} };
    expect(await toolCallsFromChatCompletion(streamOf(opened(0), opened(1), last, after))).toEqual(
      out("{}", "{}"),
    );
  });

  test("a stream re-serialized with nulls (a proxy dumping the SDK's models): type, id and name null in continuation deltas", async () => {
    const stream = streamOf(
      chunk([{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: "" } }]),
      chunk([
        { index: 0, id: null, type: null, function: { name: null, arguments: '{"id":9007' } },
      ]),
      chunk([
        { index: 0, id: null, type: null, function: { name: null, arguments: "199254740993}" } },
      ]),
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: null, function_call: null },
            finish_reason: "tool_calls",
          },
        ],
      },
    );
    expect(await toolCallsFromChatCompletion(stream)).toEqual([
      { id: "call_1", name: "f", argumentsJson: '{"id":9007199254740993}' },
    ]);
    const result = {
      choices: [
        {
          index: 0,
          message: { function_call: null, tool_calls: [fn("call_1", "f", SECRET_ARGS)] },
          finish_reason: "tool_calls",
        },
      ],
    };
    expect(await toolCallsFromChatCompletion(result)).toEqual([
      { id: "call_1", name: "f", argumentsJson: SECRET_ARGS },
    ]);
  });

  const REFUSED: Refusal[] = [
    [
      "arguments that arrive as a parsed object (some compatible servers)",
      () =>
        toolCallsFromChatCompletion({
          choices: [
            {
              index: 0,
              message: {
                tool_calls: [
                  {
                    id: "i",
                    type: "function",
                    function: { name: "n", arguments: { a: "SECRET" } },
                  },
                ],
              },
            },
          ],
        }),
      "provider-text-unavailable",
      "/choices/0/message/tool_calls/0/function/arguments",
    ],
    [
      "arguments that are a number",
      () =>
        toolCallsFromChatCompletion({
          choices: [{ index: 0, message: { tool_calls: [fn("i", "n", 12345 as never)] } }],
        }),
      "provider-response-invalid",
      "/choices/0/message/tool_calls/0/function/arguments",
    ],
    [
      "a call without an id",
      () =>
        toolCallsFromChatCompletion({
          choices: [
            {
              index: 0,
              message: {
                tool_calls: [{ type: "function", function: { name: "n", arguments: SECRET_ARGS } }],
              },
            },
          ],
        }),
      "provider-response-invalid",
      "/choices/0/message/tool_calls/0",
    ],
    [
      "choices that are not a list",
      () => toolCallsFromChatCompletion({ choices: "SECRET" } as never),
      "provider-response-invalid",
      "/choices",
    ],
    [
      "a streamed tool call with a negative index",
      () =>
        toolCallsFromChatCompletion(
          streamOf(chunk([{ index: -1, function: { arguments: "SECRET" } }])),
        ),
      "provider-response-invalid",
      "/choices/0/delta/tool_calls/index",
    ],
    [
      "a stream that changes a call's id",
      () =>
        toolCallsFromChatCompletion(
          streamOf(
            chunk([{ index: 0, id: "call_1", function: { name: "n", arguments: "" } }]),
            chunk([{ index: 0, id: "call_2", function: { arguments: SECRET_ARGS } }]),
          ),
        ),
      "provider-response-invalid",
      "/choices/0/message/tool_calls/0/id",
    ],
    [
      "argument deltas for a call that never started",
      () =>
        toolCallsFromChatCompletion(
          streamOf(chunk([{ index: 3, function: { arguments: SECRET_ARGS } }])),
        ),
      "provider-response-invalid",
      "/choices/0/message/tool_calls/3",
    ],
    [
      "a legacy function_call (the deprecated functions parameter: no call id), not read as no call",
      () =>
        toolCallsFromChatCompletion({
          choices: [
            {
              index: 0,
              message: { tool_calls: null, function_call: { name: "f", arguments: SECRET_ARGS } },
              finish_reason: "function_call",
            },
          ],
        }),
      "provider-response-invalid",
      "/choices/0/message/function_call",
    ],
    [
      "a streamed legacy function_call",
      () =>
        toolCallsFromChatCompletion(
          streamOf(
            { choices: [{ index: 0, delta: { function_call: { name: "f", arguments: "" } } }] },
            { choices: [{ index: 0, delta: { function_call: { arguments: SECRET_ARGS } } }] },
          ),
        ),
      "provider-response-invalid",
      "/choices/0/delta/function_call",
    ],
    [
      "a chunk with two choices of one index (the second's piece of the text was dropped)",
      () =>
        toolCallsFromChatCompletion(
          streamOf({
            choices: [
              { index: 0, delta: { tool_calls: [{ index: 0, ...fn("call_1", "f", '{"a":') }] } },
              {
                index: 0,
                delta: { tool_calls: [{ index: 0, function: { arguments: SECRET_ARGS } }] },
              },
            ],
          }),
        ),
      "provider-response-invalid",
      "/choices/1/index",
    ],
    [
      "a result with two choices of one index (one by position)",
      () =>
        toolCallsFromChatCompletion({
          choices: [
            { message: { tool_calls: [fn("call_1", "f", "{}")] } },
            { index: 0, message: { tool_calls: [fn("call_2", "g", SECRET_ARGS)] } },
          ],
        }),
      "provider-response-invalid",
      "/choices/1/index",
    ],
    [
      "a streamed choice that is null (it may have held a piece of the text)",
      () =>
        toolCallsFromChatCompletion(
          streamOf(chunk([{ index: 0, ...fn("call_1", "f", SECRET_ARGS) }]), { choices: [null] }),
        ),
      "provider-response-invalid",
      "/choices/0",
    ],
    [
      "tool call deltas after the choice's finish_reason (a piece of text, or a call, after the end)",
      () =>
        toolCallsFromChatCompletion(
          streamOf(
            chunk([{ index: 0, ...fn("call_1", "f", "{}") }]),
            { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
            chunk([{ index: 1, ...fn("call_2", "g", SECRET_ARGS) }]),
          ),
        ),
      "provider-response-invalid",
      "/choices/0/delta/tool_calls",
    ],
    [
      "a choice option that is not an index",
      () => toolCallsFromChatCompletion({ choices: [] }, { choice: 1.5 }),
      "option-invalid",
      "",
    ],
    [
      "an error chunk after a whole call (the stream ended early: more calls may be missing)",
      () =>
        toolCallsFromChatCompletion(
          streamOf(chunk([{ index: 0, ...fn("call_1", "f", SECRET_ARGS) }]), {
            error: { message: "SECRET", type: "server_error" },
          } as never),
        ),
      "provider-response-invalid",
      "",
    ],
  ];
  testRefusals(REFUSED);
});

describe("OpenAI Responses", () => {
  const item = (callId: string, name: string, args: string) => ({
    type: "function_call",
    id: `fc_${callId}`,
    call_id: callId,
    name,
    arguments: args,
  });

  test("a result: function_call items by output position, other items skipped, id is call_id", async () => {
    const response = {
      output: [
        { type: "reasoning", id: "rs_1", summary: [] },
        item("call_1", "f", SECRET_ARGS),
        { type: "message", id: "msg_1", content: [] },
      ],
    };
    expect(await toolCallsFromResponse(response)).toEqual([
      { id: "call_1", name: "f", argumentsJson: SECRET_ARGS },
    ]);
  });

  test('empty arguments "" (a tool without parameters) are {} once the call is done whole, "" if cut', async () => {
    const out = (a: string) => [{ id: "call_1", name: "f", argumentsJson: a }];
    const withStatus = (status: string | undefined) => ({
      ...item("call_1", "f", ""),
      ...(status === undefined ? {} : { status }),
    });
    expect(await toolCallsFromResponse({ output: [withStatus("completed")] })).toEqual(out("{}"));
    expect(await toolCallsFromResponse({ output: [withStatus(undefined)] })).toEqual(out("{}"));
    expect(await toolCallsFromResponse({ output: [withStatus("incomplete")] })).toEqual(out(""));
    const incomplete = { status: "incomplete", output: [withStatus(undefined)] };
    expect(await toolCallsFromResponse(incomplete)).toEqual(out(""));

    const added = {
      type: "response.output_item.added",
      output_index: 0,
      item: withStatus("in_progress"),
    };
    const argsDone = {
      type: "response.function_call_arguments.done",
      output_index: 0,
      arguments: "",
    };
    const itemDone = (status: string) => ({
      type: "response.output_item.done",
      output_index: 0,
      item: withStatus(status),
    });
    expect(await toolCallsFromResponse(streamOf(added, argsDone))).toEqual(out("{}"));
    expect(await toolCallsFromResponse(streamOf(added, argsDone, itemDone("completed")))).toEqual(
      out("{}"),
    );
    expect(await toolCallsFromResponse(streamOf(added, itemDone("completed")))).toEqual(out("{}"));
    // Never done, or done incomplete (max_output_tokens): nothing is made up.
    expect(
      await toolCallsFromResponse(
        streamOf(
          { ...added, item: { ...withStatus("in_progress") } },
          {
            type: "response.function_call_arguments.delta",
            output_index: 0,
            delta: "",
          },
        ),
      ),
    ).toEqual(out(""));
    expect(await toolCallsFromResponse(streamOf(added, itemDone("incomplete")))).toEqual(out(""));
    expect(
      await toolCallsFromResponse(
        streamOf(added, {
          type: "response.incomplete",
          response: { status: "incomplete", output: [withStatus("incomplete")] },
        }),
      ),
    ).toEqual(out(""));
  });

  test("a stream without deltas falls back to the done event's arguments", async () => {
    const stream = streamOf(
      { type: "response.output_item.added", output_index: 0, item: item("call_1", "f", "") },
      { type: "response.function_call_arguments.done", output_index: 0, arguments: SECRET_ARGS },
    );
    expect(await toolCallsFromResponse(stream)).toEqual([
      { id: "call_1", name: "f", argumentsJson: SECRET_ARGS },
    ]);
  });

  const REFUSED: Refusal[] = [
    [
      "deltas that disagree with the done event",
      () =>
        toolCallsFromResponse(
          streamOf(
            { type: "response.output_item.added", output_index: 0, item: item("call_1", "f", "") },
            { type: "response.function_call_arguments.delta", output_index: 0, delta: '{"id":1' },
            {
              type: "response.function_call_arguments.done",
              output_index: 0,
              arguments: SECRET_ARGS,
            },
          ),
        ),
      "provider-response-invalid",
      "/output/0",
    ],
    [
      "deltas that disagree with response.completed",
      () =>
        toolCallsFromResponse(
          streamOf(
            { type: "response.output_item.added", output_index: 0, item: item("call_1", "f", "") },
            { type: "response.function_call_arguments.delta", output_index: 0, delta: "{}" },
            {
              type: "response.completed",
              response: { output: [item("call_1", "f", SECRET_ARGS)] },
            },
          ),
        ),
      "provider-response-invalid",
      "/output/0",
    ],
    [
      "an error event",
      () => toolCallsFromResponse(streamOf({ type: "error", message: "SECRET" })),
      "provider-response-invalid",
      "",
    ],
    [
      "a function call whose arguments are not a string",
      () => toolCallsFromResponse({ output: [{ ...item("c", "f", ""), arguments: 5 }] }),
      "provider-response-invalid",
      "/output/0/arguments",
    ],
    [
      "a call with no text at all",
      () =>
        toolCallsFromResponse(
          streamOf({
            type: "response.output_item.added",
            output_index: 0,
            item: { ...item("c", "f", ""), arguments: undefined },
          }),
        ),
      "provider-text-unavailable",
      "/output/0",
    ],
    [
      "argument deltas at a message item's index, after it (a piece of some call's text, misaddressed)",
      () =>
        toolCallsFromResponse(
          streamOf(
            { type: "response.output_item.added", output_index: 0, item: { type: "message" } },
            { type: "response.output_item.added", output_index: 1, item: item("call_1", "f", "") },
            { type: "response.function_call_arguments.delta", output_index: 1, delta: '{"a":' },
            { type: "response.function_call_arguments.delta", output_index: 0, delta: SECRET_ARGS },
          ),
        ),
      "provider-response-invalid",
      "/output/0",
    ],
    [
      "a done event at a custom tool call's index",
      () =>
        toolCallsFromResponse(
          streamOf(
            {
              type: "response.output_item.added",
              output_index: 0,
              item: { type: "custom_tool_call", call_id: "c", name: "g", input: "" },
            },
            {
              type: "response.function_call_arguments.done",
              output_index: 0,
              arguments: SECRET_ARGS,
            },
          ),
        ),
      "provider-response-invalid",
      "/output/0",
    ],
    [
      "a call after response.completed (two responses concatenated)",
      () =>
        toolCallsFromResponse(
          streamOf(
            { type: "response.completed", response: { output: [item("call_1", "f", "{}")] } },
            {
              type: "response.output_item.done",
              output_index: 1,
              item: item("call_2", "g", SECRET_ARGS),
            },
          ),
        ),
      "provider-response-invalid",
      "",
    ],
    [
      "one output index holding a message and a call",
      () =>
        toolCallsFromResponse(
          streamOf(
            { type: "response.function_call_arguments.delta", output_index: 0, delta: SECRET_ARGS },
            { type: "response.output_item.done", output_index: 0, item: { type: "message" } },
          ),
        ),
      "provider-response-invalid",
      "/output/0",
    ],
  ];
  testRefusals(REFUSED);
});

describe("Anthropic Messages", () => {
  const body = (content: string) =>
    `{"id":"msg_1","type":"message","role":"assistant","content":[${content}],"stop_reason":"tool_use"}`;

  test("a raw body: each input's span, whatever precedes it (braces in strings, escapes, escaped key names, whitespace)", async () => {
    const text = body(
      ` {"type":"text","text":"} ] \\" { [ \\"input\\": 1"} ,\n` +
        `{ "type" : "tool_use" , "id" : "toolu_1" , "name" : "f" , "in\\u0070ut" :  { "id" : 9007199254740993 , "x" : [ 1.0 , { } ] }  } ,` +
        `{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"SECRET"}},` +
        `{"type":"tool_use","id":"toolu_2","name":"g","input":{}}`,
    );
    expect(await toolCallsFromMessage(text)).toEqual([
      {
        id: "toolu_1",
        name: "f",
        argumentsJson: '{ "id" : 9007199254740993 , "x" : [ 1.0 , { } ] }',
      },
      { id: "toolu_2", name: "g", argumentsJson: "{}" },
    ]);
    expect(await toolCallsFromMessage(body('{"type":"text","text":"hi"}'))).toEqual([]);
  });

  test("a stream: server tools' input deltas skipped, empty chunks add nothing", async () => {
    const stream = streamOf(
      { type: "message_start", message: { content: [] } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "server_tool_use", id: "s", name: "web_search", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: "SECRET" },
      },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_1", name: "f", input: {} },
      },
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "input_json_delta", partial_json: "" },
      },
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "input_json_delta", partial_json: '{"id":9007' },
      },
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "input_json_delta", partial_json: "199254740993}" },
      },
      { type: "content_block_stop", index: 1 },
      { type: "message_stop" },
    );
    expect(await toolCallsFromMessage(stream)).toEqual([
      { id: "toolu_1", name: "f", argumentsJson: '{"id":9007199254740993}' },
    ]);
  });

  const start = (index: number, input: unknown = {}) => ({
    type: "content_block_start",
    index,
    content_block: { type: "tool_use", id: `toolu_${index}`, name: "f", input },
  });
  const delta = (index: number, text: string) => ({
    type: "content_block_delta",
    index,
    delta: { type: "input_json_delta", partial_json: text },
  });

  test("a streamed tool_use with no partial_json chunk is {} only when its block stopped and the message was not cut", async () => {
    const events = (...tail: object[]) =>
      streamOf(
        { type: "message_start", message: { content: [] } },
        start(0),
        delta(0, ""),
        ...tail,
      );
    const stop = { type: "content_block_stop", index: 0 };
    const reason = (stop_reason: string) => ({ type: "message_delta", delta: { stop_reason } });
    const whole = [{ id: "toolu_0", name: "f", argumentsJson: "{}" }];
    // Nothing written: "" (toolCallFromJson then says invalid-json), never a made-up {}.
    const cut = [{ id: "toolu_0", name: "f", argumentsJson: "" }];
    expect(
      await toolCallsFromMessage(events(stop, reason("tool_use"), { type: "message_stop" })),
    ).toEqual(whole);
    expect(await toolCallsFromMessage(events(stop))).toEqual(whole);
    expect(await toolCallsFromMessage(events())).toEqual(cut);
    for (const r of ["max_tokens", "model_context_window_exceeded", "refusal"]) {
      expect(await toolCallsFromMessage(events(stop, reason(r), { type: "message_stop" }))).toEqual(
        cut,
      );
    }
    // A call before the last block was not cut: its {} stands.
    expect(
      await toolCallsFromMessage(
        events(
          stop,
          start(1),
          delta(1, '{"a":'),
          { type: "content_block_stop", index: 1 },
          reason("max_tokens"),
        ),
      ),
    ).toEqual([...whole, { id: "toolu_1", name: "f", argumentsJson: '{"a":' }]);
  });

  test("a message cut short after its last tool_use (a text block last) keeps its calls", async () => {
    const cut = body(
      '{"type":"tool_use","id":"t","name":"f","input":{"id":9007199254740993}},{"type":"text","text":"x"}',
    ).replace('"tool_use"}', '"max_tokens"}');
    expect(await toolCallsFromMessage(cut)).toEqual([
      { id: "t", name: "f", argumentsJson: '{"id":9007199254740993}' },
    ]);
    const parsed = {
      type: "message",
      content: [
        { type: "tool_use", id: "t", name: "f", input: {} },
        { type: "text", text: "x" },
      ],
      stop_reason: "max_tokens",
    };
    expect(await toolCallsFromMessage(parsed as never)).toEqual([
      { id: "t", name: "f", argumentsJson: "{}" },
    ]);
  });

  const REFUSED: Refusal[] = [
    [
      "a body that is not a message",
      () =>
        toolCallsFromMessage(
          '{"type":"error","error":{"type":"overloaded_error","message":"SECRET"}}',
        ),
      "provider-response-invalid",
      "/type",
    ],
    [
      "a body that is not JSON",
      () => toolCallsFromMessage(body('{"type":"tool_use","id":"t","name":"f","input":{"k":}}')),
      "invalid-json",
      "/content/0/input/k",
    ],
    [
      "a body whose input has a key twice",
      () =>
        toolCallsFromMessage(
          body('{"type":"tool_use","id":"t","name":"f","input":{"a":"SECRET","a":2}}'),
        ),
      "duplicate-key",
      "/content/0/input/a",
    ],
    [
      "a body whose input nests deeper than recursionLimit",
      () =>
        toolCallsFromMessage(
          body('{"type":"tool_use","id":"t","name":"f","input":{"a":[[["SECRET"]]]}}'),
          {
            recursionLimit: 3,
          },
        ),
      "recursion-limit",
      "/content/0/input/a/0/0",
    ],
    [
      "a tool_use without input",
      () => toolCallsFromMessage(body('{"type":"tool_use","id":"t","name":"f"}')),
      "provider-response-invalid",
      "/content/0/input",
    ],
    [
      "a streamed tool_use whose start carries a parsed input and no delta",
      () => toolCallsFromMessage(streamOf(start(0, { id: 9007199254740992, s: "SECRET" }))),
      "provider-text-unavailable",
      "/content/0",
    ],
    [
      "input deltas for a block that never started",
      () => toolCallsFromMessage(streamOf(delta(2, SECRET_ARGS))),
      "provider-response-invalid",
      "/content/2",
    ],
    [
      "a block that starts twice",
      () => toolCallsFromMessage(streamOf(start(0), delta(0, SECRET_ARGS), start(0))),
      "provider-response-invalid",
      "/content/0",
    ],
    [
      "a delta whose partial_json is not a string",
      () => toolCallsFromMessage(streamOf(start(0), delta(0, 5 as never))),
      "provider-response-invalid",
      "/content/0/input",
    ],
    [
      "an error event after a whole call (the message ended early: more calls may be missing)",
      () =>
        toolCallsFromMessage(
          streamOf(start(0), delta(0, SECRET_ARGS), {
            type: "error",
            error: { type: "overloaded_error", message: "SECRET" },
          }),
        ),
      "provider-response-invalid",
      "",
    ],
    [
      "a raw body cut at max_tokens inside its last tool_use (the server wrote a partial input)",
      () =>
        toolCallsFromMessage(
          body(
            '{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"f","input":{"a":"SECRET"}}',
          ).replace('"tool_use"}', '"max_tokens"}'),
        ),
      "provider-text-unavailable",
      "/content/1/input",
    ],
    [
      "a raw body cut by the context window inside its last tool_use",
      () =>
        toolCallsFromMessage(
          body('{"type":"tool_use","id":"t","name":"f","input":{}}').replace(
            '"tool_use"}',
            '"model_context_window_exceeded"}',
          ),
        ),
      "provider-text-unavailable",
      "/content/0/input",
    ],
    [
      "a parsed Message cut at max_tokens inside its last tool_use, even with input {}",
      () =>
        toolCallsFromMessage({
          type: "message",
          content: [{ type: "tool_use", id: "t", name: "f", input: {} }],
          stop_reason: "max_tokens",
        } as never),
      "provider-text-unavailable",
      "/content/0/input",
    ],
    [
      "a Response-like object without headers (a TypeError before)",
      () => toolCallsFromMessage({ text: async () => "SECRET" } as never),
      "provider-response-invalid",
      "",
    ],
    [
      "a Response-like object whose headers have no get",
      () =>
        toolCallsFromMessage({ bodyUsed: false, headers: {}, text: async () => "SECRET" } as never),
      "provider-response-invalid",
      "",
    ],
    [
      "a Response-like object whose text() gives no string",
      () =>
        toolCallsFromMessage({
          bodyUsed: false,
          headers: new Headers({ "content-type": "application/json" }),
          text: async () => ({ SECRET: 1 }),
        } as never),
      "provider-response-invalid",
      "",
    ],
    [
      "an input_json_delta after its block stopped (two readings: part of the input or not)",
      () =>
        toolCallsFromMessage(
          streamOf(
            start(0),
            delta(0, "{}"),
            { type: "content_block_stop", index: 0 },
            delta(0, "SECRET"),
          ),
        ),
      "provider-response-invalid",
      "/content/0",
    ],
    [
      "a block after message_stop (two messages concatenated)",
      () =>
        toolCallsFromMessage(
          streamOf(
            start(0),
            delta(0, "{}"),
            { type: "content_block_stop", index: 0 },
            { type: "message_stop" },
            start(1),
            delta(1, SECRET_ARGS),
          ),
        ),
      "provider-response-invalid",
      "",
    ],
    [
      "something that is no Messages result",
      () => toolCallsFromMessage({ SECRET: 1 } as never),
      "provider-response-invalid",
      "",
    ],
    [
      "a recursionLimit that is not a positive integer",
      () => toolCallsFromMessage(body(""), { recursionLimit: 0 }),
      "option-invalid",
      "",
    ],
  ];
  testRefusals(REFUSED);

  test("a raw body with 5,000 text blocks before the tool_use is read (each value skipped once)", async () => {
    const blocks = Array.from(
      { length: 5_000 },
      (_, i) => `{"type":"text","text":"block ${i} }]"}`,
    );
    blocks.push('{"type":"tool_use","id":"t","name":"f","input":{"id":9007199254740993}}');
    expect(await toolCallsFromMessage(body(blocks.join(",")))).toEqual([
      { id: "t", name: "f", argumentsJson: '{"id":9007199254740993}' },
    ]);
  });
});

describe("another provider's result or stream, or no result at all: refused, not read as no call", () => {
  const chatResult = {
    object: "chat.completion",
    choices: [{ index: 0, message: { tool_calls: [fn("call_1", "f", SECRET_ARGS)] } }],
  };
  const chatStream = () =>
    streamOf({
      object: "chat.completion.chunk",
      ...chunk([{ index: 0, ...fn("call_1", "f", SECRET_ARGS) }]),
    });
  const responseResult = {
    object: "response",
    output: [{ type: "function_call", call_id: "call_1", name: "f", arguments: SECRET_ARGS }],
  };
  const responseStream = () =>
    streamOf(
      { type: "response.created", response: { output: [] } },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { type: "function_call", call_id: "call_1", name: "f", arguments: SECRET_ARGS },
      },
    );
  const messageStream = () =>
    streamOf(
      { type: "message_start", message: { content: [] } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id: "t", name: "f", input: {} },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: SECRET_ARGS },
      },
    );
  const message = {
    type: "message",
    content: [{ type: "tool_use", id: "t", name: "f", input: {} }],
  };
  testRefusals([
    [
      "a Responses result to toolCallsFromChatCompletion",
      () => toolCallsFromChatCompletion(responseResult as never),
      "provider-response-invalid",
      "/choices",
    ],
    [
      "an Anthropic Message to toolCallsFromChatCompletion",
      () => toolCallsFromChatCompletion(message as never),
      "provider-response-invalid",
      "/choices",
    ],
    [
      "a Responses stream to toolCallsFromChatCompletion",
      () => toolCallsFromChatCompletion(responseStream() as never),
      "provider-response-invalid",
      "/choices",
    ],
    [
      "an Anthropic stream to toolCallsFromChatCompletion",
      () => toolCallsFromChatCompletion(messageStream() as never),
      "provider-response-invalid",
      "/choices",
    ],
    [
      "an empty object to toolCallsFromChatCompletion",
      () => toolCallsFromChatCompletion({} as never),
      "provider-response-invalid",
      "/choices",
    ],
    [
      "a Chat Completions result to toolCallsFromResponse",
      () => toolCallsFromResponse(chatResult as never),
      "provider-response-invalid",
      "/output",
    ],
    [
      "a Chat stream to toolCallsFromResponse",
      () => toolCallsFromResponse(chatStream() as never),
      "provider-response-invalid",
      "/type",
    ],
    [
      "an Anthropic stream to toolCallsFromResponse",
      () => toolCallsFromResponse(messageStream()),
      "provider-response-invalid",
      "/type",
    ],
    [
      "response.completed without its output",
      () => toolCallsFromResponse(streamOf({ type: "response.completed", response: {} })),
      "provider-response-invalid",
      "/response/output",
    ],
    [
      "a Chat stream to toolCallsFromMessage",
      () => toolCallsFromMessage(chatStream() as never),
      "provider-response-invalid",
      "/type",
    ],
  ]);
});

describe("a stream whose iterator breaks the protocol: provider-response-invalid, not a TypeError", () => {
  const ADAPTERS: [string, (s: never) => Promise<unknown>][] = [
    ["toolCallsFromChatCompletion", toolCallsFromChatCompletion],
    ["toolCallsFromResponse", toolCallsFromResponse],
    ["toolCallsFromMessage", toolCallsFromMessage],
  ];
  const iterable = (iterator: unknown) => ({ [Symbol.asyncIterator]: () => iterator }) as never;
  test.each(ADAPTERS)("%s", async (_name, adapter) => {
    for (const iterator of [5, null, {}, { next: async () => null }, { next: async () => 7 }]) {
      await expectRefusal(() => adapter(iterable(iterator)), "provider-response-invalid", "");
    }
    // Refused mid-stream: the stream is released (its iterator's return is called), as for-await does.
    let returned = 0;
    const items = [null];
    await expectRefusal(
      () =>
        adapter(
          iterable({
            next: async () => ({ done: items.length === 0, value: items.shift() }),
            return: async () => {
              returned++;
              return { done: true, value: undefined };
            },
          }),
        ),
      "provider-response-invalid",
      "",
    );
    expect(returned).toBe(1);
    // The stream's own error (the SDK's APIError, a network error) goes through unchanged.
    const failure = new TypeError("fetch failed");
    const thrown = await adapter(
      iterable({
        next: async () => {
          throw failure;
        },
        return: async () => {
          returned++;
          return { done: true, value: undefined };
        },
      }),
    ).catch((e: unknown) => e);
    expect(thrown).toBe(failure);
    expect(returned).toBe(1);
  });
});

describe("hostile sizes", () => {
  // One 64 MiB string sent 9 times: 576 Mi characters, past what a JavaScript
  // string holds (V8: 2^29 - 24), in little memory (the deltas share one string).
  const big = "x".repeat(2 ** 26);
  const pieces = Array.from({ length: 9 }, () => big);
  const tooLong = "provider-response-invalid";

  test("a Chat call whose deltas pass the longest string: a clear error, not a RangeError", async () => {
    const stream = streamOf(
      chunk([{ index: 0, ...fn("call_1", "f", "") }]),
      ...pieces.map((p) => chunk([{ index: 0, function: { arguments: p } }])),
    );
    await expectRefusal(
      () => toolCallsFromChatCompletion(stream),
      tooLong,
      "/choices/0/message/tool_calls/0",
    );
  });

  test("a Responses call and an Anthropic tool_use likewise", async () => {
    const responses = streamOf(
      {
        type: "response.output_item.added",
        output_index: 2,
        item: { type: "function_call", call_id: "c", name: "f", arguments: "" },
      },
      ...pieces.map((delta) => ({
        type: "response.function_call_arguments.delta",
        output_index: 2,
        delta,
      })),
    );
    await expectRefusal(() => toolCallsFromResponse(responses), tooLong, "/output/2");
    const anthropic = streamOf(
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "t", name: "f", input: {} },
      },
      ...pieces.map((partial_json) => ({
        type: "content_block_delta",
        index: 1,
        delta: { type: "input_json_delta", partial_json },
      })),
    );
    await expectRefusal(() => toolCallsFromMessage(anthropic), tooLong, "/content/1");
  });
});

/** What is refused, how to provoke it, the code and the path. */
type Refusal = [string, () => Promise<unknown>, string, string];

function testRefusals(rows: readonly Refusal[]) {
  for (const [what, run, code, path] of rows) {
    test(`refuses ${what}: ${code} at ${path || "(root)"}`, async () => {
      await expectRefusal(run, code, path);
    });
  }
}

function fn(id: string, name: string, args: string) {
  return { id, type: "function", function: { name, arguments: args } };
}

async function expectRefusal(run: () => Promise<unknown>, code: string, path: string) {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: "StructJsonError", code, path });
  expect((error as Error).message).not.toContain("SECRET");
  expect((error as Error).message).not.toContain("9007199254740");
}
