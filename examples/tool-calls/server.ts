// The server side: turns the model's tool calls (OpenAI-shaped lines of
// examples/data/model-calls.jsonl, `arguments` as the text the model wrote)
// into ClientAction messages and writes them to stdout, size-delimited, as a
// stream would carry them. Run: npx tsx examples/tool-calls/server.ts > calls.binpb

import { readFileSync } from "node:fs";
import { create } from "@bufbuild/protobuf";
import { sizeDelimitedEncode } from "@bufbuild/protobuf/wire";
import { toolCallFromJson } from "struct-json-bridge";
import { ClientActionSchema } from "struct-json-bridge/messages";

interface ModelToolCall {
  id: string;
  function: { name: string; arguments: string };
}

const file = new URL("../data/model-calls.jsonl", import.meta.url);
const lines = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");
for (const line of lines) {
  const modelCall = JSON.parse(line) as ModelToolCall;
  const call = toolCallFromJson(
    {
      serverId: "demo",
      name: modelCall.function.name,
      argumentsJson: modelCall.function.arguments,
    },
    // Where the Struct cannot carry a number exactly; raw_args_json still does.
    { onDiagnostic: (d) => console.error(`${modelCall.id}\t${d.path}\t${d.code}`) },
  );
  const action = create(ClientActionSchema, {
    actionId: modelCall.id,
    action: { case: "callMcpTool", value: call },
  });
  process.stdout.write(sizeDelimitedEncode(ClientActionSchema, action));
}
