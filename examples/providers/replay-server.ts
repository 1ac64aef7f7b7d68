// A local "model" server on 127.0.0.1 that replays tool calls in the wire
// formats of OpenAI's Chat Completions and Responses APIs and Anthropic's
// Messages API, streamed (server-sent events) or not, so that the real SDKs
// can be pointed at it with `baseURL`. Argument texts go out exactly as
// given: inside JSON strings for OpenAI, and spliced in verbatim as
// `tool_use.input` in Anthropic's non-streamed body.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One tool call to replay. */
export interface ReplayCall {
  /** The provider's call id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments' JSON text, sent byte for byte. */
  readonly argumentsJson: string;
}

/** How one model answers. */
export interface ReplayScenario {
  /** The tool calls, in order. */
  readonly calls: readonly ReplayCall[];
  /** Streamed argument deltas hold this many UTF-16 code units (the last may hold fewer). Default 7. */
  readonly deltaSize?: number;
  /** Streamed calls take turns delta by delta instead of one after another. Default false. */
  readonly interleave?: boolean;
  /** Text the model writes before its calls (a text block or message item first). Default none. */
  readonly leadingText?: string;
  /** The body goes out in writes of this many bytes (default: one write). */
  readonly writeSize?: number;
}

/** A running replay server. */
export interface ReplayServer {
  /** For OpenAI's SDK: `new OpenAI({ baseURL: openaiBaseURL })`. */
  readonly openaiBaseURL: string;
  /** For Anthropic's SDK: `new Anthropic({ baseURL: anthropicBaseURL })`. */
  readonly anthropicBaseURL: string;
  /** The port on 127.0.0.1. */
  readonly port: number;
  /** Each request's path and parsed body, in arrival order. */
  readonly requests: readonly { readonly path: string; readonly body: unknown }[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * Starts the server on an ephemeral port of 127.0.0.1. The request's `model`
 * picks the scenario; `stream: true` picks the streamed format.
 */
export async function startReplayServer(
  scenarios: Readonly<Record<string, ReplayScenario>>,
): Promise<ReplayServer> {
  const requests: { path: string; body: unknown }[] = [];
  const server = createServer((request, response) => {
    void answer(request, response, scenarios, requests).catch((e: unknown) => {
      response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message: String(e), type: "replay_error" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    openaiBaseURL: `http://127.0.0.1:${port}/v1`,
    anthropicBaseURL: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  scenarios: Readonly<Record<string, ReplayScenario>>,
  requests: { path: string; body: unknown }[],
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
    model?: unknown;
    stream?: unknown;
  };
  const path = request.url ?? "";
  requests.push({ path, body });
  const scenario = typeof body.model === "string" ? scenarios[body.model] : undefined;
  if (scenario === undefined) {
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: "no such replay model", type: "not_found" } }));
    return;
  }
  const streamed = body.stream === true;
  const model = body.model as string;
  let text: string;
  if (path === "/v1/chat/completions") {
    text = streamed ? chatStream(model, scenario) : chatBody(model, scenario);
  } else if (path === "/v1/responses") {
    text = streamed
      ? responsesStream(model, scenario)
      : JSON.stringify(responseObject(model, scenario));
  } else if (path === "/v1/messages") {
    text = streamed ? messagesStream(model, scenario) : messagesBody(model, scenario);
  } else {
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: "no such path", type: "not_found" } }));
    return;
  }
  response.writeHead(200, {
    "content-type": streamed ? "text/event-stream" : "application/json",
    "request-id": "req_replay",
    "x-request-id": "req_replay",
  });
  await writeInPieces(response, Buffer.from(text, "utf8"), scenario.writeSize);
}

async function writeInPieces(
  response: ServerResponse,
  bytes: Buffer,
  size: number | undefined,
): Promise<void> {
  if (size === undefined) {
    response.end(bytes);
    return;
  }
  for (let at = 0; at < bytes.length; at += size) {
    if (!response.write(bytes.subarray(at, at + size))) {
      await new Promise((resolve) => response.once("drain", resolve));
    }
  }
  response.end();
}

/** The argument text cut into deltas of `size` code units (cuts may fall inside numbers and surrogate pairs). */
export function splitText(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/** Each call's deltas, as (call index, piece, last piece of its call) in the order they are sent. */
function deltaOrder(scenario: ReplayScenario): [number, string, boolean][] {
  const order = interleavedPieces(scenario);
  const seen = new Set<number>();
  const marked: [number, string, boolean][] = [];
  for (let k = order.length - 1; k >= 0; k--) {
    const [i, piece] = order[k]!;
    marked.push([i, piece, !seen.has(i)]);
    seen.add(i);
  }
  return marked.reverse();
}

function interleavedPieces(scenario: ReplayScenario): [number, string][] {
  const pieces = scenario.calls.map((c) => splitText(c.argumentsJson, scenario.deltaSize ?? 7));
  const order: [number, string][] = [];
  if (scenario.interleave === true) {
    const longest = Math.max(0, ...pieces.map((p) => p.length));
    for (let k = 0; k < longest; k++) {
      pieces.forEach((p, i) => {
        if (k < p.length) order.push([i, p[k]!]);
      });
    }
  } else {
    pieces.forEach((p, i) => {
      for (const piece of p) order.push([i, piece]);
    });
  }
  return order;
}

/** Server-sent events: `data:` lines, with an `event:` line when named. */
function sse(events: readonly { event?: string; data: unknown }[]): string {
  return events
    .map(
      (e) =>
        `${e.event === undefined ? "" : `event: ${e.event}\n`}data: ${typeof e.data === "string" ? e.data : JSON.stringify(e.data)}\n\n`,
    )
    .join("");
}

// OpenAI Chat Completions

const CREATED = 1_764_460_800;

function chatBody(model: string, scenario: ReplayScenario): string {
  return JSON.stringify({
    id: "chatcmpl-replay",
    object: "chat.completion",
    created: CREATED,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: scenario.leadingText ?? null,
          refusal: null,
          tool_calls: scenario.calls.map((c) => ({
            id: c.id,
            type: "function",
            function: { name: c.name, arguments: c.argumentsJson },
          })),
        },
        logprobs: null,
        finish_reason: "tool_calls",
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

function chatStream(model: string, scenario: ReplayScenario): string {
  const chunk = (delta: unknown, finishReason: string | null = null) => ({
    data: {
      id: "chatcmpl-replay",
      object: "chat.completion.chunk",
      created: CREATED,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    },
  });
  const events = [chunk({ role: "assistant", content: scenario.leadingText ?? null })];
  const started = new Set<number>();
  for (const [i, piece] of deltaOrder(scenario)) {
    const c = scenario.calls[i]!;
    if (!started.has(i)) {
      started.add(i);
      events.push(
        chunk({
          tool_calls: [
            { index: i, id: c.id, type: "function", function: { name: c.name, arguments: "" } },
          ],
        }),
      );
    }
    events.push(chunk({ tool_calls: [{ index: i, function: { arguments: piece } }] }));
  }
  events.push(chunk({}, "tool_calls"));
  return `${sse(events)}data: [DONE]\n\n`;
}

// OpenAI Responses

/** Where call `i` sits in `output` (after the message item when there is leading text). */
function outputIndex(scenario: ReplayScenario, i: number): number {
  return scenario.leadingText === undefined ? i : i + 1;
}

function messageItem(text: string) {
  return {
    type: "message",
    id: "msg_replay",
    status: "completed",
    role: "assistant",
    content: [{ type: "output_text", text, annotations: [] }],
  };
}

function functionCallItem(c: ReplayCall, i: number, argumentsJson: string, status: string) {
  return {
    type: "function_call",
    id: `fc_replay_${i}`,
    call_id: c.id,
    name: c.name,
    arguments: argumentsJson,
    status,
  };
}

function responseObject(model: string, scenario: ReplayScenario, status = "completed") {
  const output: unknown[] =
    status !== "completed"
      ? []
      : scenario.calls.map((c, i) => functionCallItem(c, i, c.argumentsJson, "completed"));
  if (scenario.leadingText !== undefined && status === "completed") {
    output.unshift(messageItem(scenario.leadingText));
  }
  return {
    id: "resp_replay",
    object: "response",
    created_at: CREATED,
    status,
    model,
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  };
}

function responsesStream(model: string, scenario: ReplayScenario): string {
  let sequence = 0;
  const events: { event: string; data: unknown }[] = [];
  const push = (type: string, fields: Record<string, unknown>) =>
    events.push({ event: type, data: { type, sequence_number: sequence++, ...fields } });
  push("response.created", { response: responseObject(model, scenario, "in_progress") });
  if (scenario.leadingText !== undefined) {
    push("response.output_item.added", { output_index: 0, item: messageItem("") });
    push("response.output_item.done", {
      output_index: 0,
      item: messageItem(scenario.leadingText),
    });
  }
  const started = new Set<number>();
  const done = (i: number) => {
    const c = scenario.calls[i]!;
    const output_index = outputIndex(scenario, i);
    push("response.function_call_arguments.done", {
      item_id: `fc_replay_${i}`,
      output_index,
      arguments: c.argumentsJson,
    });
    push("response.output_item.done", {
      output_index,
      item: functionCallItem(c, i, c.argumentsJson, "completed"),
    });
  };
  for (const [i, piece, last] of deltaOrder(scenario)) {
    const c = scenario.calls[i]!;
    if (!started.has(i)) {
      started.add(i);
      push("response.output_item.added", {
        output_index: outputIndex(scenario, i),
        item: functionCallItem(c, i, "", "in_progress"),
      });
    }
    push("response.function_call_arguments.delta", {
      item_id: `fc_replay_${i}`,
      output_index: outputIndex(scenario, i),
      delta: piece,
    });
    if (last) done(i);
  }
  push("response.completed", { response: responseObject(model, scenario) });
  return sse(events);
}

// Anthropic Messages

function messagesBody(model: string, scenario: ReplayScenario): string {
  // Built as text so that each input goes out exactly as written.
  const blocks: string[] = [];
  if (scenario.leadingText !== undefined) {
    blocks.push(JSON.stringify({ type: "text", text: scenario.leadingText }));
  }
  for (const c of scenario.calls) {
    blocks.push(
      `{"type":"tool_use","id":${JSON.stringify(c.id)},"name":${JSON.stringify(c.name)},"input":${c.argumentsJson}}`,
    );
  }
  return `{"id":"msg_replay","type":"message","role":"assistant","model":${JSON.stringify(model)},"content":[${blocks.join(",")}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`;
}

function messagesStream(model: string, scenario: ReplayScenario): string {
  const events: { event: string; data: unknown }[] = [];
  const push = (type: string, fields: Record<string, unknown>) =>
    events.push({ event: type, data: { type, ...fields } });
  push("message_start", {
    message: {
      id: "msg_replay",
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  });
  const first = scenario.leadingText === undefined ? 0 : 1;
  if (scenario.leadingText !== undefined) {
    push("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    push("content_block_delta", {
      index: 0,
      delta: { type: "text_delta", text: scenario.leadingText },
    });
    push("content_block_stop", { index: 0 });
  }
  events.push({ event: "ping", data: { type: "ping" } });
  const started = new Set<number>();
  for (const [i, piece, last] of deltaOrder(scenario)) {
    const c = scenario.calls[i]!;
    if (!started.has(i)) {
      started.add(i);
      push("content_block_start", {
        index: first + i,
        content_block: { type: "tool_use", id: c.id, name: c.name, input: {} },
      });
    }
    push("content_block_delta", {
      index: first + i,
      delta: { type: "input_json_delta", partial_json: piece },
    });
    if (last) push("content_block_stop", { index: first + i });
  }
  // A call without argument text (a tool with no parameters) streams no delta.
  scenario.calls.forEach((c, i) => {
    if (started.has(i)) return;
    push("content_block_start", {
      index: first + i,
      content_block: { type: "tool_use", id: c.id, name: c.name, input: {} },
    });
    push("content_block_stop", { index: first + i });
  });
  push("message_delta", {
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  push("message_stop", {});
  return sse(events);
}

/**
 * A `fetch` for the SDKs' `fetch` option that hands each response body over
 * in pieces of exactly `size` bytes, so that the SDK's stream decoder meets
 * piece boundaries inside multi-byte characters whatever TCP does.
 */
export function rechunkingFetch(size: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const bytes = new Uint8Array(await response.arrayBuffer());
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) controller.close();
        else {
          controller.enqueue(bytes.slice(at, at + size));
          at += size;
        }
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
