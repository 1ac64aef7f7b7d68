// The demo's model: a replay server on 127.0.0.1 that streams the bundled
// calls in OpenAI's Chat Completions wire format (argument texts cut into
// small interleaved deltas, as the API sends them). The demo asks it through
// the official openai SDK and takes the calls through struct-json-bridge's
// OpenAI adapter, as a server does with the real API.

import OpenAI from "openai";
import { toolCallsFromChatCompletion } from "../../src/providers/openai.js";
import { startReplayServer } from "../providers/replay-server.js";
import type { ModelCall } from "./model-calls.js";

const MODEL = "struct-json-bridge-demo-model";

/** What came back from the model server. */
export interface ModelAnswer {
  /** The calls as the adapter assembled them from the stream. */
  readonly calls: readonly ModelCall[];
  /** The replay server's port on 127.0.0.1. */
  readonly port: number;
  /** How many stream chunks carried the answer. */
  readonly chunks: number;
}

/** Streams `written` from a local model server and collects the calls through the adapter. */
export async function modelCallsThroughOpenAI(written: readonly ModelCall[]): Promise<ModelAnswer> {
  const server = await startReplayServer({
    [MODEL]: { calls: written, deltaSize: 5, interleave: true },
  });
  try {
    const client = new OpenAI({
      apiKey: "local-replay",
      baseURL: server.openaiBaseURL,
      maxRetries: 0,
    });
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Run the demo's tool calls." }],
      stream: true,
    });
    let chunks = 0;
    const counted = (async function* () {
      for await (const chunk of stream) {
        chunks++;
        yield chunk;
      }
    })();
    const calls = await toolCallsFromChatCompletion(counted);
    return { calls, port: server.port, chunks };
  } finally {
    await server.close();
  }
}
