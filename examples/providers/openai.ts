// OpenAI → struct-json-bridge, exactly: `npx tsx examples/providers/openai.ts`.
// A local replay server stands in for api.openai.com (point `baseURL` at the
// real API and nothing else changes). The model's arguments carry an id above
// 2^53 and a 1.0; each way of calling the API gives the same exact text.

import OpenAI from "openai";
import { toolCallFromJson } from "../../src/index.js";
import { toolCallsFromChatCompletion, toolCallsFromResponse } from "../../src/providers/openai.js";
import { startReplayServer } from "./replay-server.js";

const MODEL = "replay-model";
const server = await startReplayServer({
  [MODEL]: {
    calls: [
      {
        id: "call_7Qm2",
        name: "get_user",
        argumentsJson: '{"user_id": 9007199254740993, "score_floor": 1.0}',
      },
    ],
    deltaSize: 4, // streamed arguments arrive four characters at a time
  },
});
try {
  const client = new OpenAI({ apiKey: "replay", baseURL: server.openaiBaseURL, maxRetries: 0 });
  const messages = [{ role: "user" as const, content: "Look up user 9007199254740993." }];

  // Chat Completions, streamed: deltas joined by tool-call index.
  const chatStream = await client.chat.completions.create({ model: MODEL, messages, stream: true });
  const [call] = await toolCallsFromChatCompletion(chatStream);
  console.log("Chat Completions stream   ", call!.id, call!.name, call!.argumentsJson);

  // Chat Completions, not streamed: `function.arguments` is the model's text.
  const [same] = await toolCallsFromChatCompletion(
    client.chat.completions.create({ model: MODEL, messages }),
  );
  console.log("Chat Completions result   ", same!.id, same!.name, same!.argumentsJson);

  // Responses, streamed: deltas joined by output_index; id is the call_id.
  const responseStream = await client.responses.create({
    model: MODEL,
    input: "Look up the user.",
    stream: true,
  });
  const [fromResponses] = await toolCallsFromResponse(responseStream);
  console.log(
    "Responses stream          ",
    fromResponses!.id,
    fromResponses!.name,
    fromResponses!.argumentsJson,
  );

  // Ready for toolCallFromJson: raw_args_json carries the text, byte for byte.
  const message = toolCallFromJson({ ...call!, serverId: "users" });
  console.log("CallMCPTool.raw_args_json ", message.rawArgsJson);
  console.log("what JSON.parse would give", JSON.stringify(JSON.parse(call!.argumentsJson)));
} finally {
  await server.close();
}
