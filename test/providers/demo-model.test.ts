// npm start's model calls: streamed by the demo's model server in OpenAI's
// wire format and read back through the OpenAI adapter, exactly as written.

import { expect, test } from "vitest";
import { loadModelCalls } from "../../examples/demo/model-calls.js";
import { modelCallsThroughOpenAI } from "../../examples/demo/model-server.js";

test("the demo's model server hands the bundled calls to the adapter byte for byte", async () => {
  const written = loadModelCalls();
  const answer = await modelCallsThroughOpenAI(written);
  expect(answer.calls).toEqual(written);
  // A role chunk, one start and deltas per call, and the finish chunk.
  expect(answer.chunks).toBeGreaterThan(written.length * 2);
});
