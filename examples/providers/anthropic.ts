// Anthropic → struct-json-bridge, exactly: `npx tsx examples/providers/anthropic.ts`.
// A local replay server stands in for api.anthropic.com (point `baseURL` at
// the real API and nothing else changes). Anthropic's SDK parses
// `tool_use.input` with JSON.parse, so the exact text is read from the stream
// or from the raw body; given only the parsed message, the adapter says so.

import Anthropic from "@anthropic-ai/sdk";
import { isStructJsonError, toolCallFromJson } from "../../src/index.js";
import { toolCallsFromMessage } from "../../src/providers/anthropic.js";
import { startReplayServer } from "./replay-server.js";

const MODEL = "replay-model";
const server = await startReplayServer({
  [MODEL]: {
    calls: [
      {
        id: "toolu_01Xk",
        name: "get_user",
        argumentsJson: '{"user_id": 9007199254740993, "score_floor": 1.0}',
      },
    ],
    deltaSize: 4, // partial_json chunks of four characters
    leadingText: "Looking the user up.",
  },
});
try {
  const client = new Anthropic({
    apiKey: "replay",
    baseURL: server.anthropicBaseURL,
    maxRetries: 0,
  });
  const request = {
    model: MODEL,
    max_tokens: 256,
    messages: [{ role: "user" as const, content: "Look up user 9007199254740993." }],
  };

  // Streamed: the input_json_delta.partial_json chunks, joined in order.
  const [call] = await toolCallsFromMessage(client.messages.stream(request));
  console.log("messages.stream()          ", call!.id, call!.name, call!.argumentsJson);

  // Not streamed: the raw body (asResponse()), the input's exact span in it.
  const [fromBody] = await toolCallsFromMessage(client.messages.create(request).asResponse());
  console.log("create().asResponse()      ", fromBody!.id, fromBody!.name, fromBody!.argumentsJson);

  // The parsed Message has lost the text: the adapter refuses it with a code.
  const parsed = await client.messages.create(request);
  const block = parsed.content.find((b) => b.type === "tool_use")!;
  console.log("JSON.stringify(block.input)", JSON.stringify(block.input), "(id and 1.0 changed)");
  try {
    await toolCallsFromMessage(parsed);
  } catch (e) {
    if (!isStructJsonError(e)) throw e;
    console.log("toolCallsFromMessage(parsed)", e.code, "at", e.path);
  }

  // Ready for toolCallFromJson: raw_args_json carries the text, byte for byte.
  console.log("CallMCPTool.raw_args_json  ", toolCallFromJson(call!).rawArgsJson);
} finally {
  await server.close();
}
