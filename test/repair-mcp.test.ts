// End to end through the official MCP TypeScript SDK: a server built with it
// rejects the model's raw arguments with -32602, and accepts the repaired ones.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { Ajv } from "ajv";
import { afterEach, describe, expect, test } from "vitest";
import { z } from "zod";
import { collectDiagnostics } from "../src/diagnostics.js";
import { repairArguments } from "../src/repair/repair-arguments.js";
import type { JsonSchema } from "../src/schema/json-schema.js";

// The tool as a strict server publishes it in tools/list.
const getRowsSchema = {
  type: "object",
  properties: {
    table: { type: "string" },
    limit: { type: "integer", minimum: 1 },
    ids: { type: "array", items: { type: "integer" }, minItems: 1 },
    verbose: { type: "boolean" },
    filter: {
      type: "object",
      properties: { min: { type: "integer" } },
      additionalProperties: false,
    },
    cursor: { type: "string" },
  },
  required: ["table"],
  additionalProperties: false,
} as const;

/** A low-level SDK server that validates arguments itself, as strict servers do, and echoes them. */
function lowLevelServer(): Server {
  const server = new Server({ name: "rows", version: "1.0.0" }, { capabilities: { tools: {} } });
  const validate = new Ajv({ strict: false }).compile(getRowsSchema);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "get_rows", inputSchema: getRowsSchema }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    if (request.params.name !== "get_rows") {
      throw new McpError(ErrorCode.InvalidParams, "unknown tool");
    }
    const args = request.params.arguments ?? {};
    if (!validate(args)) {
      throw new McpError(ErrorCode.InvalidParams, "Invalid arguments for tool get_rows");
    }
    return { content: [{ type: "text", text: JSON.stringify(args) }] };
  });
  return server;
}

/** A high-level McpServer whose tool is described with zod (`.int()`, `.min(1)`, optional). */
function zodServer(): McpServer {
  const server = new McpServer({ name: "search", version: "1.0.0" });
  server.registerTool(
    "search",
    {
      description: "Search documents",
      inputSchema: {
        query: z.string(),
        limit: z.number().int().min(1),
        tags: z.array(z.string()).min(1).optional(),
        exact: z.boolean().optional(),
      },
    },
    async (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }),
  );
  return server;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connect(server: Server | McpServer): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "bridge-test", version: "1.0.0" });
  await client.connect(clientTransport);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

async function inputSchemaOf(client: Client, name: string): Promise<JsonSchema> {
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return tool.inputSchema as JsonSchema;
}

describe("repair mode through the MCP TypeScript SDK", () => {
  test("low-level Server: raw call → -32602; repaired call → accepted with the repaired values", async () => {
    const client = await connect(lowLevelServer());
    const schema = await inputSchemaOf(client, "get_rows");
    const raw =
      '{"table":"users","limit":"10","ids":[],"verbose":"true","filter":"{\\"min\\": \\"3\\"}","cursor":null}';

    const rawCall = client.callTool({ name: "get_rows", arguments: JSON.parse(raw) });
    await expect(rawCall).rejects.toMatchObject({ code: -32602 });

    const { list, onDiagnostic } = collectDiagnostics();
    const repaired = repairArguments(raw, schema, { onDiagnostic });
    expect(repaired).toEqual({
      ok: true,
      argumentsJson: '{"table":"users","limit":10,"verbose":true,"filter":{"min": 3}}',
      repairs: [
        { path: "/limit", kind: "string-to-number" },
        { path: "/ids", kind: "empty-array-omitted" },
        { path: "/verbose", kind: "string-to-boolean" },
        { path: "/filter", kind: "string-to-object" },
        { path: "/cursor", kind: "null-omitted" },
        { path: "/filter/min", kind: "string-to-number" },
      ],
    });
    expect(list.map((d) => `${d.code} ${d.path} ${d.detail}`)).toEqual([
      "argument-repaired /limit string-to-number",
      "argument-repaired /ids empty-array-omitted",
      "argument-repaired /verbose string-to-boolean",
      "argument-repaired /filter string-to-object",
      "argument-repaired /cursor null-omitted",
      "argument-repaired /filter/min string-to-number",
    ]);
    if (!repaired.ok) throw new Error("unreachable");
    const result = await client.callTool({
      name: "get_rows",
      arguments: JSON.parse(repaired.argumentsJson),
    });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([
      { type: "text", text: '{"table":"users","limit":10,"verbose":true,"filter":{"min":3}}' },
    ]);
  });

  test("low-level Server: a call with two readings is rejected before dispatch, value-free", async () => {
    const client = await connect(lowLevelServer());
    const schema = await inputSchemaOf(client, "get_rows");
    const { list, onDiagnostic } = collectDiagnostics();
    const raw = '{"table":"users","limit":"0","ids":[1.5],"secret":"hunter2"}';
    const result = repairArguments(raw, schema, { onDiagnostic });
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: "/secret", keyword: "additionalProperties" },
        { path: "/limit", keyword: "type" },
        { path: "/ids/0", keyword: "type" },
      ],
    });
    expect(list).toEqual([
      { code: "argument-rejected", path: "/secret", detail: "additionalProperties" },
      { code: "argument-rejected", path: "/limit", detail: "type" },
      { code: "argument-rejected", path: "/ids/0", detail: "type" },
    ]);
    expect(JSON.stringify(list)).not.toContain("hunter2");
    // The server agrees that the raw call is invalid.
    await expect(
      client.callTool({ name: "get_rows", arguments: JSON.parse(raw) }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  test("McpServer with a zod schema: raw call → -32602 tool error; repaired call → accepted", async () => {
    const client = await connect(zodServer());
    const schema = await inputSchemaOf(client, "search");
    const raw = '{"query":"bridges","limit":"5","tags":[],"exact":"false"}';

    // McpServer reports validation failures as a tool error carrying -32602.
    const rawResult = await client.callTool({ name: "search", arguments: JSON.parse(raw) });
    expect(rawResult.isError).toBe(true);
    expect(JSON.stringify(rawResult.content)).toContain("MCP error -32602: Input validation error");

    const repaired = repairArguments(raw, schema);
    expect(repaired).toEqual({
      ok: true,
      argumentsJson: '{"query":"bridges","limit":5,"exact":false}',
      repairs: [
        { path: "/limit", kind: "string-to-number" },
        { path: "/tags", kind: "empty-array-omitted" },
        { path: "/exact", kind: "string-to-boolean" },
      ],
    });
    if (!repaired.ok) throw new Error("unreachable");
    const result = await client.callTool({
      name: "search",
      arguments: JSON.parse(repaired.argumentsJson),
    });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([
      { type: "text", text: '{"query":"bridges","limit":5,"exact":false}' },
    ]);
  });

  test("McpServer with a zod schema: valid arguments pass through unchanged", async () => {
    const client = await connect(zodServer());
    const schema = await inputSchemaOf(client, "search");
    const raw = '{ "query": "bridges", "limit": 5 }';
    expect(repairArguments(raw, schema)).toEqual({ ok: true, argumentsJson: raw, repairs: [] });
  });
});
