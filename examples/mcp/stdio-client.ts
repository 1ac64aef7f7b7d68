// Exact numbers from a model's tool call to a strict Python MCP server over
// stdio, and back. Run: npx tsx examples/mcp/stdio-client.ts
// (needs the demo's Python venv: bash examples/demo/setup-python.sh)

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { toolCallFromJson } from "../../src/index.js";
import {
  ExactStdioClientTransport,
  structuredContentJson,
  toolCallArguments,
} from "../../src/mcp/index.js";
import { strictStdioServer } from "./strict-python-server.js";

// What the model wrote: an id above 2^53 and a float written 1.0.
const call = toolCallFromJson({
  name: "query_rows",
  argumentsJson: '{"table":"users","min_id":9007199254740993,"limit":3}',
});

const client = new Client({ name: "exact-stdio-example", version: "1.0.0" });
await client.connect(new ExactStdioClientTransport(strictStdioServer));
const { tools } = await client.listTools();
const tool = tools.find((t) => t.name === call.name);
const result = await client.callTool({
  name: call.name,
  arguments: toolCallArguments(call, tool?.inputSchema),
});
console.log("server's structuredContent, exactly:", structuredContentJson(result));
console.log("the SDK's parsed object (JSON.parse):", JSON.stringify(result.structuredContent));
await client.close();
