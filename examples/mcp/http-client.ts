// Exact numbers to a strict Python MCP server over Streamable HTTP (SSE and
// JSON responses), and back. Run: npx tsx examples/mcp/http-client.ts
// (needs the demo's Python venv: bash examples/demo/setup-python.sh)

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ExactStreamableHTTPClientTransport,
  exactJsonArguments,
  structuredContentJson,
} from "../../src/mcp/index.js";
import { startStrictHttpServer } from "./strict-python-server.js";

for (const json of [false, true]) {
  const server = await startStrictHttpServer({ json });
  try {
    const transport = new ExactStreamableHTTPClientTransport(server.url);
    const client = new Client({ name: "exact-http-example", version: "1.0.0" });
    await client.connect(transport);
    const result = await client.callTool({
      name: "get_user",
      arguments: exactJsonArguments('{"user_id":9007199254740993}'),
    });
    console.log(`${json ? "JSON" : "SSE"} responses, session ${transport.sessionId}`);
    console.log("  exactly:", structuredContentJson(result));
    console.log("  JSON.parse's reading:", JSON.stringify(result.structuredContent));
    await transport.terminateSession();
    await client.close();
  } finally {
    await server.close();
  }
}
