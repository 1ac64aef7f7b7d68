// struct-json-bridge/openai: the tool calls' exact argument texts from the
// OpenAI SDK's Chat Completions and Responses results and streams. OpenAI
// sends arguments as a JSON string holding the model's text, so the SDK's
// JSON.parse of the body keeps that text intact; streamed, it arrives in
// deltas, joined here by the call's index in arrival order.

import type { JsonPointer } from "../json-pointer.js";
import { invalidOption, makeOptions } from "../options.js";
import {
  expectObject,
  field,
  helperStreamStarted,
  indexField,
  isAsyncIterable,
  listField,
  type ProviderToolCall,
  providerError,
  streamItems,
  ToolCallAssembler,
} from "./provider-tool-call.js";

export type { ProviderToolCall } from "./provider-tool-call.js";

/** A Chat Completions result (`ChatCompletion`), as far as the adapter reads it. */
export interface ChatCompletionLike {
  readonly choices: readonly object[];
}

/** One streamed Chat Completions chunk (`ChatCompletionChunk`). */
export interface ChatCompletionChunkLike {
  readonly choices: readonly object[];
}

/** What {@link toolCallsFromChatCompletion} reads: a result, a stream, or a promise of either. */
export type ChatCompletionSource =
  | ChatCompletionLike
  | AsyncIterable<ChatCompletionChunkLike>
  | PromiseLike<ChatCompletionLike | AsyncIterable<ChatCompletionChunkLike>>;

/** Options of {@link toolCallsFromChatCompletion}. */
export interface ChatCompletionToolCallsOptions {
  /** Which choice's tool calls to read (requests with `n` > 1 have several). Default 0. */
  choice: number;
}

const chatCompletionDefaults: Readonly<ChatCompletionToolCallsOptions> = Object.freeze({
  choice: 0,
});

/** A Responses result (`Response`), as far as the adapter reads it. */
export interface ResponseResultLike {
  readonly output: readonly object[];
}

/** One streamed Responses event (`ResponseStreamEvent`). */
export interface ResponseStreamEventLike {
  readonly type: string;
}

/** What {@link toolCallsFromResponse} reads: a result, a stream, or a promise of either. */
export type ResponseSource =
  | ResponseResultLike
  | AsyncIterable<ResponseStreamEventLike>
  | PromiseLike<ResponseResultLike | AsyncIterable<ResponseStreamEventLike>>;

/**
 * The function tool calls of a Chat Completions result or stream (from
 * `chat.completions.create`, with or without `stream: true`, or
 * `chat.completions.stream()`), as `{ id, name, argumentsJson }` in index
 * order, each `argumentsJson` exactly the model's text. Custom (free-text)
 * tool calls are not included.
 */
export async function toolCallsFromChatCompletion(
  source: ChatCompletionSource,
  options?: Partial<ChatCompletionToolCallsOptions>,
): Promise<ProviderToolCall[]> {
  const { choice } = makeOptions(chatCompletionDefaults, options, (o) => {
    if (!Number.isSafeInteger(o.choice) || o.choice < 0)
      invalidOption("choice", "must be an index ≥ 0");
  });
  let value: unknown = isAsyncIterable(source) ? source : await source;
  // chat.completions.stream() already read (in part or whole): its final
  // completion holds every call's text, which its iterator no longer gives.
  if (
    isAsyncIterable(value) &&
    helperStreamStarted(value, "finalChatCompletion", "currentChatCompletionSnapshot")
  ) {
    value = await (
      value as unknown as { finalChatCompletion(): Promise<unknown> }
    ).finalChatCompletion();
  }
  const calls = new ToolCallAssembler((index) => `/choices/${choice}/message/tool_calls/${index}`);
  // Why the choice ended: a stream cut before it says nothing (undefined), a
  // whole result without it is whole; "length" and "content_filter" cut the last call.
  let finish: unknown;
  let last = -1;
  if (isAsyncIterable(value)) {
    for await (const chunk of streamItems(value)) {
      // The wire's error object mid-stream (the SDK's own Stream throws on it): what came before may lack calls.
      if (field(expectObject(chunk, "", "a ChatCompletionChunk"), "error") !== undefined) {
        throw providerError("provider-response-invalid", "", "the stream reports an error");
      }
      const picked = pickChoice(chunk, choice);
      if (picked === undefined) continue;
      const delta = field(picked, "delta");
      refuseFunctionCall(delta, `/choices/${choice}/delta`);
      const toolCalls = listField(delta, "tool_calls", `/choices/${choice}/delta`);
      // After the choice's finish_reason (an earlier chunk's) a delta has two readings.
      if (toolCalls.length > 0 && typeof finish === "string") {
        throw providerError(
          "provider-response-invalid",
          `/choices/${choice}/delta/tool_calls`,
          "tool call deltas after the choice's finish_reason",
        );
      }
      finish = field(picked, "finish_reason") ?? finish;
      for (const toolCall of toolCalls) {
        const index = indexField(toolCall, "index", `/choices/${choice}/delta/tool_calls`);
        last = Math.max(last, index);
        addChatToolCall(calls, index, toolCall);
      }
    }
  } else {
    const picked = pickChoice(expectObject(value, "", "a ChatCompletion or its stream"), choice);
    finish = field(picked, "finish_reason") ?? "";
    const message = field(picked, "message");
    refuseFunctionCall(message, `/choices/${choice}/message`);
    listField(message, "tool_calls", `/choices/${choice}/message`).forEach((toolCall, index) => {
      last = index;
      addChatToolCall(calls, index, toolCall);
    });
  }
  return calls.calls(undefined, (index) => {
    if (typeof finish !== "string") return false;
    return index !== last || (finish !== "length" && finish !== "content_filter");
  });
}

/** The choice with this index (by its `index` field, else by position); a second one is refused. */
function pickChoice(result: unknown, choice: number): unknown {
  const choices = listField(result, "choices", "", true);
  let picked: object | undefined;
  for (let i = 0; i < choices.length; i++) {
    // A choice that is not an object (null, a list) may have been this one: refused, not skipped.
    const item = expectObject(choices[i], `/choices/${i}`, "a choice");
    // An index that is not one (null, -1, 1.5, "0") is refused: read as
    // another choice's, a chunk's piece of the argument text was dropped.
    const index =
      field(item, "index") === undefined ? i : indexField(item, "index", `/choices/${i}`);
    if (index !== choice) continue;
    // Two choices of one index: reading the first dropped the second's text.
    if (picked !== undefined) {
      throw providerError(
        "provider-response-invalid",
        `/choices/${i}/index`,
        "a second choice with this index",
      );
    }
    picked = item;
  }
  return picked;
}

/**
 * A legacy `function_call` (the deprecated `functions` parameter) has no call
 * id to answer under: refused, as reading it as "no tool call" dropped it.
 */
function refuseFunctionCall(message: unknown, path: JsonPointer): void {
  if (!isAbsent(field(message, "function_call"))) {
    throw providerError(
      "provider-response-invalid",
      `${path}/function_call`,
      "a legacy function_call (the deprecated functions parameter) has no call id: declare the function in tools",
    );
  }
}

/** Absent, as proxies that re-serialize the SDK's models write it too: null. */
function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

function addChatToolCall(calls: ToolCallAssembler, index: number, toolCall: unknown): void {
  const type = field(toolCall, "type");
  const fn = field(toolCall, "function");
  if (
    (!isAbsent(type) && type !== "function") ||
    (isAbsent(fn) && !isAbsent(field(toolCall, "custom")))
  ) {
    calls.ignore(index);
    return;
  }
  // A function's delta at an index a custom call holds: refused, as the other
  // order is; taken as the custom call's continuation, its text was dropped.
  if (!isAbsent(fn)) calls.refuseIfIgnored(index);
  calls.identify(index, field(toolCall, "id"), field(fn, "name"));
  const text = field(fn, "arguments");
  if (!isAbsent(text)) calls.append(index, text, "function/arguments");
}

/**
 * The function calls of a Responses result or stream (from
 * `responses.create`, with or without `stream: true`, or
 * `responses.stream()`), as `{ id, name, argumentsJson }` in output order:
 * `id` is the item's `call_id` (what `function_call_output` answers), each
 * `argumentsJson` exactly the model's text. Streamed, the deltas are joined
 * by `output_index` and checked against the stream's final arguments.
 */
export async function toolCallsFromResponse(source: ResponseSource): Promise<ProviderToolCall[]> {
  let value: unknown = isAsyncIterable(source) ? source : await source;
  // responses.stream() already read to its end: its final response holds every call's text.
  if (isAsyncIterable(value) && helperStreamStarted(value, "finalResponse")) {
    value = await (value as unknown as { finalResponse(): Promise<unknown> }).finalResponse();
  }
  const calls = new ToolCallAssembler((index) => `/output/${index}`);
  // Calls done whole (their empty text is {}), and calls cut (incomplete).
  const done = new Set<number>();
  const cut = new Set<number>();
  const finished = (index: number) => done.has(index) && !cut.has(index);
  let ended = false;
  if (!isAsyncIterable(value)) {
    const response = expectObject(value, "", "a Response or its stream");
    addResponseOutput(calls, response, "", true, done, cut);
    return calls.calls(undefined, finished);
  }
  for await (const event of streamItems(value)) {
    const type = field(expectObject(event, "", "a ResponseStreamEvent"), "type");
    // Every Responses event is "response.…" or "error"; one of another kind is
    // another provider's stream (Chat chunks, Anthropic events): refused, not
    // skipped as an unknown event (a new "response.…" one still is).
    if (typeof type !== "string" || (type !== "error" && !type.startsWith("response."))) {
      throw providerError("provider-response-invalid", "/type", "expected a ResponseStreamEvent");
    }
    // Nothing follows the response's end (events after it: a second response, concatenated).
    if (ended)
      throw providerError("provider-response-invalid", "", "an event after the response's end");
    switch (type) {
      case "response.output_item.added":
      case "response.output_item.done": {
        const index = indexField(event, "output_index", "");
        const item = field(event, "item");
        const isDone = type === "response.output_item.done";
        addResponseItem(calls, index, item, isDone);
        if (isDone) markDone(index, item, done, cut);
        break;
      }
      case "response.function_call_arguments.delta": {
        // Only function_call items have these events (others have their own).
        const index = indexField(event, "output_index", "");
        calls.refuseIfIgnored(index);
        calls.append(index, field(event, "delta"), "arguments");
        break;
      }
      case "response.function_call_arguments.done": {
        const index = indexField(event, "output_index", "");
        calls.refuseIfIgnored(index);
        calls.final(index, field(event, "arguments"), "arguments");
        done.add(index);
        break;
      }
      case "response.completed":
      case "response.incomplete":
        addResponseOutput(calls, field(event, "response"), "/response", false, done, cut);
        ended = true;
        break;
      case "error":
      case "response.failed":
        throw providerError("provider-response-invalid", "", `the stream reports ${type}`);
    }
  }
  return calls.calls(undefined, finished);
}

/** An item seen whole: done, and cut if its status says so. */
function markDone(index: number, item: unknown, done: Set<number>, cut: Set<number>): void {
  const status = field(item, "status");
  done.add(index);
  if (status === "incomplete" || status === "in_progress") cut.add(index);
}

function addResponseOutput(
  calls: ToolCallAssembler,
  response: unknown,
  path: JsonPointer,
  whole: boolean,
  done: Set<number>,
  cut: Set<number>,
): void {
  const output = listField(response, "output", path, true);
  output.forEach((item, index) => {
    markDone(index, item, done, cut);
    if (index === output.length - 1 && field(response, "status") === "incomplete") cut.add(index);
    if (whole) {
      if (field(item, "type") !== "function_call") return;
      calls.identify(index, field(item, "call_id"), field(item, "name"));
      calls.append(index, field(item, "arguments"), "arguments");
    } else {
      addResponseItem(calls, index, item, true);
    }
  });
}

/** An output item seen in a stream; `done` items carry the whole arguments, checked against the deltas. */
function addResponseItem(
  calls: ToolCallAssembler,
  index: number,
  item: unknown,
  done: boolean,
): void {
  if (field(item, "type") !== "function_call") {
    calls.ignore(index);
    return;
  }
  calls.identify(index, field(item, "call_id"), field(item, "name"));
  if (done) calls.final(index, field(item, "arguments"), "arguments");
}
