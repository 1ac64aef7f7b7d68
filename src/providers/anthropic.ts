// struct-json-bridge/anthropic: the tool calls' exact argument texts from the
// Anthropic SDK's Messages API. The SDK hands over `tool_use.input` already
// parsed with JSON.parse (an integer above 2^53 rounded, 1.0 read as 1), so
// the text survives only in the streamed `input_json_delta.partial_json`
// chunks or in the raw HTTP body; this adapter reads either, and says so with
// `provider-text-unavailable` when it is given only the parsed message.

import { checkLimit, makeOptions } from "../options.js";
import { DEFAULT_STRUCT_DEPTH } from "../struct/from-json.js";
import { parseJsonSpans, parseJsonText, spanAt } from "../struct/parse-json.js";
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

/** One event of a Messages stream, as the SDK yields it (`RawMessageStreamEvent`). */
export interface MessageStreamEventLike {
  readonly type: string;
}

/** A fetch `Response` (what `.asResponse()` gives), read once for its body text. */
export interface ResponseLike {
  /** Whether the body was already read (then its text is gone: `withResponse()` reads it). */
  readonly bodyUsed: boolean;
  /** The response's headers, for its content type. */
  readonly headers: {
    /** A header's value, or null when absent. */
    get(name: string): string | null;
  };
  /** The body as text, read once. */
  text(): Promise<string>;
}

/** A parsed Messages result (`Message`): its tool inputs are no longer text. */
export interface MessageLike {
  readonly content: readonly object[];
}

/** What {@link toolCallsFromMessage} reads. */
export type MessageSource =
  | AsyncIterable<MessageStreamEventLike>
  | ResponseLike
  | string
  | MessageLike
  | PromiseLike<AsyncIterable<MessageStreamEventLike> | ResponseLike | string | MessageLike>;

/** Options of {@link toolCallsFromMessage}. */
export interface MessageToolCallsOptions {
  /**
   * The deepest nesting allowed inside a tool's input when reading a raw body
   * (as in `toolCallFromJson`); deeper throws `recursion-limit`. Default 49.
   */
  recursionLimit: number;
}

const messageDefaults: Readonly<MessageToolCallsOptions> = Object.freeze({
  recursionLimit: DEFAULT_STRUCT_DEPTH,
});

const HOW_TO_GET_TEXT =
  "Anthropic's SDK parsed tool_use.input with JSON.parse, so integers above 2^53 and 1.0-style floats are already changed: " +
  "pass the stream (messages.create({ stream: true }) or messages.stream()) or the raw response (messages.create(...).asResponse())";

/**
 * The `tool_use` blocks of an Anthropic Messages result as
 * `{ id, name, argumentsJson }`, in content order, each `argumentsJson` the
 * exact text: from a stream (the SDK's `Stream` or `MessageStream`), the
 * `input_json_delta.partial_json` chunks joined in order; from a raw
 * `Response` (`.asResponse()`) or its body text, the input's span in the body.
 * A parsed `Message` throws `provider-text-unavailable` at the first tool_use
 * whose input is not `{}`. Server tools (`server_tool_use`) are not included.
 */
export async function toolCallsFromMessage(
  source: MessageSource,
  options?: Partial<MessageToolCallsOptions>,
): Promise<ProviderToolCall[]> {
  const { recursionLimit } = makeOptions(messageDefaults, options, (o) =>
    checkLimit("recursionLimit", o.recursionLimit),
  );
  const value: unknown = isAsyncIterable(source) ? source : await source;
  if (isAsyncIterable(value)) {
    // messages.stream() already read: its iterator would wait forever for events long gone.
    const received = (value as { receivedMessages?: unknown }).receivedMessages;
    if (
      helperStreamStarted(value, "finalMessage", "currentMessage") ||
      (Array.isArray(received) && received.length > 0)
    ) {
      throw providerError(
        "provider-text-unavailable",
        "",
        "the MessageStream was already read, so its input_json_delta events are gone: pass messages.stream(...) to toolCallsFromMessage before reading it",
      );
    }
    return fromStream(value);
  }
  if (typeof value === "string") return fromBody(value, recursionLimit);
  if (typeof field(value, "type") === "string" && Array.isArray(field(value, "content"))) {
    return fromParsedMessage(value);
  }
  const response = value as Partial<ResponseLike> | null;
  if (typeof response?.text === "function" && typeof response.headers?.get === "function") {
    return fromBody(await readBody(value as ResponseLike), recursionLimit);
  }
  throw providerError(
    "provider-response-invalid",
    "",
    "expected an Anthropic Messages stream, a raw Response or its body text",
  );
}

/** Content blocks that never carry a JSON input (their deltas are text_delta, thinking_delta, …). */
const textBlocks = new Set(["text", "thinking", "redacted_thinking"]);

/** Stop reasons that cut the message's last block short. */
const cutReasons = new Set(["max_tokens", "model_context_window_exceeded", "refusal"]);

const CUT_INPUT =
  "the message was cut (token or context limit, or a refusal) inside this tool_use: its input holds only what the server could parse of a partial text";

async function fromStream(stream: AsyncIterable<unknown>): Promise<ProviderToolCall[]> {
  const calls = new ToolCallAssembler((index) => `/content/${index}`);
  const startInputs = new Map<number, unknown>();
  const textIndexes = new Set<number>();
  const stopped = new Set<number>();
  let lastIndex = -1;
  let stopReason: unknown;
  let ended = false;
  for await (const event of streamItems(stream)) {
    const type = field(expectObject(event, "", "a MessageStreamEvent"), "type");
    // An event without a type is no Messages event (a Chat chunk): refused, not skipped.
    if (typeof type !== "string") {
      throw providerError("provider-response-invalid", "/type", "expected a MessageStreamEvent");
    }
    // Nothing but a ping follows message_stop (events after it: a second message, concatenated).
    if (ended && type !== "ping") {
      throw providerError("provider-response-invalid", "", "an event after message_stop");
    }
    if (type === "message_stop") ended = true;
    // The SDK's own Stream throws on it; a stream handed on as events (a proxy, a replay) carries it.
    if (type === "error") {
      throw providerError("provider-response-invalid", "", "the stream reports error");
    }
    if (type === "content_block_start") {
      const index = indexField(event, "index", "");
      lastIndex = Math.max(lastIndex, index);
      const block = field(event, "content_block");
      if (field(block, "type") === "tool_use") {
        if (startInputs.has(index)) {
          throw providerError(
            "provider-response-invalid",
            `/content/${index}`,
            "the block starts twice",
          );
        }
        calls.identify(index, field(block, "id"), field(block, "name"));
        startInputs.set(index, field(block, "input"));
      } else {
        calls.ignore(index);
        const blockType = field(block, "type");
        if (typeof blockType === "string" && textBlocks.has(blockType)) textIndexes.add(index);
      }
    } else if (type === "content_block_delta") {
      const delta = field(event, "delta");
      if (field(delta, "type") !== "input_json_delta") continue;
      const index = indexField(event, "index", "");
      // Server tools' input deltas are skipped (their index is ignored), but a
      // text block has no input: a delta there is misaddressed, and skipping it
      // would drop a piece of some call's text silently.
      if (textIndexes.has(index)) {
        throw providerError(
          "provider-response-invalid",
          `/content/${index}`,
          "an input_json_delta for a block without input",
        );
      }
      // A piece after its block stopped has two readings (part of the input, or not).
      if (stopped.has(index)) {
        throw providerError(
          "provider-response-invalid",
          `/content/${index}`,
          "an input_json_delta after its block stopped",
        );
      }
      const text = field(delta, "partial_json");
      // An empty chunk adds nothing; a call made only of them has input {}.
      if (text !== "") calls.append(index, text, "input");
    } else if (type === "content_block_stop") {
      stopped.add(indexField(event, "index", ""));
    } else if (type === "message_delta") {
      stopReason = field(field(event, "delta"), "stop_reason") ?? stopReason;
    }
  }
  // No chunk: a tool without parameters ({}), if its block ended whole; a
  // block that never stopped, or the last one of a message cut short, had its
  // text cut before it began: "" (what was sent), never a made-up {}.
  return calls.calls((index) => {
    if (!isEmptyObject(startInputs.get(index))) return undefined;
    const cut = !stopped.has(index) || (index === lastIndex && cutReasons.has(String(stopReason)));
    return cut ? "" : "{}";
  });
}

/** A message cut short inside its last block, a tool_use: its input is partial. */
function refuseCutInput(message: unknown, blocks: readonly unknown[]): void {
  const last = blocks.length - 1;
  if (
    cutReasons.has(String(field(message, "stop_reason"))) &&
    field(blocks[last], "type") === "tool_use"
  ) {
    throw providerError("provider-text-unavailable", `/content/${last}/input`, CUT_INPUT);
  }
}

async function readBody(response: ResponseLike): Promise<string> {
  if (response.bodyUsed) {
    throw providerError(
      "provider-text-unavailable",
      "",
      "the response body was already read (withResponse() reads it): pass messages.create(...).asResponse()",
    );
  }
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) {
    throw providerError(
      "provider-response-invalid",
      "",
      "a streamed response: pass the SDK's stream, not its raw Response",
    );
  }
  const body: unknown = await response.text();
  if (typeof body !== "string") {
    throw providerError("provider-response-invalid", "", "the response's text() gave no string");
  }
  return body;
}

function fromBody(body: string, recursionLimit: number): ProviderToolCall[] {
  // Three levels above a tool's input: the message, its content list, the block.
  const limit = recursionLimit + 3;
  const message = parseJsonText(body, "plain", limit);
  if (field(message, "type") !== "message") {
    throw providerError(
      "provider-response-invalid",
      "/type",
      "expected a Messages result (type message)",
    );
  }
  const blocks = listField(message, "content", "");
  const calls = new ToolCallAssembler((index) => `/content/${index}`);
  if (!blocks.some((block) => field(block, "type") === "tool_use")) return [];
  refuseCutInput(message, blocks);
  const spans = parseJsonSpans(body, limit);
  blocks.forEach((block, index) => {
    if (field(block, "type") !== "tool_use") return;
    const input = spanAt(spans, ["content", index, "input"]);
    if (input === undefined) {
      throw providerError(
        "provider-response-invalid",
        `/content/${index}/input`,
        "the tool_use has no input",
      );
    }
    calls.identify(index, field(block, "id"), field(block, "name"));
    calls.append(index, body.slice(input.start, input.end), "input");
  });
  return calls.calls();
}

function fromParsedMessage(message: unknown): ProviderToolCall[] {
  const blocks = listField(message, "content", "");
  const calls = new ToolCallAssembler((index) => `/content/${index}`);
  blocks.forEach((block, index) => {
    if (field(block, "type") !== "tool_use") return;
    if (!isEmptyObject(field(block, "input"))) {
      throw providerError("provider-text-unavailable", `/content/${index}/input`, HOW_TO_GET_TEXT);
    }
    calls.identify(index, field(block, "id"), field(block, "name"));
    calls.append(index, "{}", "input");
  });
  refuseCutInput(message, blocks);
  return calls.calls();
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
}
