// The client side: reads size-delimited ClientAction messages from stdin (as
// server.ts writes them), looks each tool up in a tools/list result
// (examples/data/tools.json) and prints the arguments a strict MCP server
// expects, once through raw_args_json and once from the Struct alone.
// Run: npx tsx examples/tool-calls/server.ts | npx tsx examples/tool-calls/client.ts

import { readFileSync } from "node:fs";
import { sizeDelimitedDecodeStream } from "@bufbuild/protobuf/wire";
import {
  structToJson,
  type ToolDescription,
  ToolSchemas,
  toolCallToJson,
} from "struct-json-bridge";
import { ClientActionSchema } from "struct-json-bridge/messages";

const file = new URL("../data/tools.json", import.meta.url);
const tools = JSON.parse(readFileSync(file, "utf8")) as ToolDescription[];
const schemas = new ToolSchemas().set("demo", tools);

let count = 0;
for await (const action of sizeDelimitedDecodeStream(ClientActionSchema, process.stdin)) {
  if (action.action.case !== "callMcpTool") continue;
  const call = action.action.value;
  const schema = schemas.inputSchema(call.serverId, call.name);
  // raw_args_json, verified against the Struct: the model's text byte for byte.
  const exact = toolCallToJson(call, schema);
  // The Struct alone (a sender without raw_args_json): numbers typed by the schema,
  // and a diagnostic where a float64 could not carry the integer.
  const fromStruct = structToJson(call.args ?? {}, schema, {
    onDiagnostic: (d) => console.error(`${action.actionId}\t${d.path}\t${d.code}`),
  });
  console.log(`${call.name}\n  raw_args_json: ${exact}\n  Struct alone:  ${fromStruct}`);
  count++;
}
if (count === 0) {
  console.error("client: no ClientAction on stdin (run server.ts | client.ts)");
  process.exit(1);
}
