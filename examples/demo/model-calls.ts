// The bundled model output: tool calls as an LLM API returns them, with each
// call's arguments as the JSON text the model wrote (OpenAI's shape, where
// `function.arguments` is a string), so that nothing has parsed them yet.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** One tool call as the model wrote it. */
export interface ModelCall {
  /** The API's id for the call; used as the action id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments, byte for byte as the model wrote them. */
  readonly argumentsJson: string;
}

/** The bundled examples/data/model-calls.jsonl. */
export const MODEL_CALLS_FILE = fileURLToPath(
  new URL("../data/model-calls.jsonl", import.meta.url),
);

/** Reads a JSONL file of `{ id, type: "function", function: { name, arguments } }` lines. */
export function loadModelCalls(file: string = MODEL_CALLS_FILE): ModelCall[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, i) => {
      const v = JSON.parse(line) as {
        id?: unknown;
        function?: { name?: unknown; arguments?: unknown };
      };
      const name = v.function?.name;
      const args = v.function?.arguments;
      if (typeof v.id !== "string" || typeof name !== "string" || typeof args !== "string") {
        throw new Error(`${file}:${i + 1}: expected { id, function: { name, arguments: string } }`);
      }
      return { id: v.id, name, argumentsJson: args };
    });
}
