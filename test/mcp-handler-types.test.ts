// exactToolHandler's types, checked by `npm run typecheck` (tsc reads test/):
// every way McpServer.registerTool takes a callback accepts the wrapped
// handler without a cast, and the handler sees exact integers in its types.
// The tests also run the handlers, so each form does what its type says.

import { PassThrough } from "node:stream";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, expectTypeOf, test } from "vitest";
import { z } from "zod";
import {
  ExactStdioServerTransport,
  type ExactToolCallback,
  exactToolHandler,
  type ToolHandlerExtra,
} from "../src/mcp/server/index.js";

type SdkExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Registers each form on one server (a type error here fails typecheck) and answers one call of `name`. */
async function callOver(name: string, params: string): Promise<unknown> {
  const server = new McpServer({ name: "types", version: "1" });
  server.registerTool(
    "no_schema",
    { description: "no arguments" },
    exactToolHandler((extra: ToolHandlerExtra) => ({
      structuredContent: { id: 9007199254740993n, extra: typeof extra },
    })),
  );
  server.registerTool(
    "no_schema_sdk_extra",
    { description: "no arguments; the SDK's own extra type" },
    exactToolHandler((extra: SdkExtra) => ({
      content: [{ type: "text", text: `request ${String(extra.requestId)}` }],
    })),
  );
  server.registerTool(
    "no_schema_no_parameters",
    { description: "no arguments, no parameters" },
    exactToolHandler(() => ({ content: [] })),
  );
  server.registerTool(
    "shape",
    { inputSchema: { id: z.number(), tags: z.array(z.string()) } },
    exactToolHandler(({ id, tags }, extra) => {
      expectTypeOf(id).toEqualTypeOf<number | bigint>();
      expectTypeOf(tags).toEqualTypeOf<string[]>();
      expectTypeOf(extra).toEqualTypeOf<SdkExtra>();
      return { content: [{ type: "text", text: `${typeof id}:${String(id)}` }] };
    }),
  );
  server.registerTool(
    "shape_text",
    { inputSchema: { ids: z.array(z.number()) } },
    exactToolHandler(
      ({ ids }) => {
        expectTypeOf(ids).toEqualTypeOf<(number | string)[]>();
        return { content: [{ type: "text", text: ids.map((i) => typeof i).join(",") }] };
      },
      { integers: "text" },
    ),
  );
  server.registerTool(
    "loose",
    { inputSchema: z.looseObject({ id: z.number() }) },
    exactToolHandler((args) => {
      expectTypeOf(args.id).toEqualTypeOf<number | bigint>();
      return { content: [{ type: "text", text: typeof args.id }] };
    }),
  );
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const reply = new Promise<string>((resolve) =>
    stdout.once("data", (chunk) => resolve(String(chunk))),
  );
  await server.connect(new ExactStdioServerTransport(stdin, stdout, { exactTools: () => true }));
  stdin.write(
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}"${params}}}\n`,
  );
  const line = await reply;
  await server.close();
  return (JSON.parse(line) as { result: unknown }).result;
}

describe("exactToolHandler's types: registered without a cast", () => {
  test.each([
    [
      "a tool without inputSchema (extra: ToolHandlerExtra)",
      "no_schema",
      "",
      { structuredContent: { id: 9007199254740992, extra: "object" } },
    ],
    [
      "a tool without inputSchema (extra: the SDK's RequestHandlerExtra)",
      "no_schema_sdk_extra",
      "",
      { content: [{ type: "text", text: "request 1" }] },
    ],
    [
      "a tool without inputSchema, a handler without parameters",
      "no_schema_no_parameters",
      "",
      { content: [] },
    ],
    [
      "a zod shape: integers beyond 2^53 as bigint",
      "shape",
      ',"arguments":{"id":9007199254740993,"tags":[]}',
      { content: [{ type: "text", text: "bigint:9007199254740993" }] },
    ],
    [
      "a zod shape, integers as text",
      "shape_text",
      ',"arguments":{"ids":[1,9007199254740993]}',
      { content: [{ type: "text", text: "number,string" }] },
    ],
    [
      "a zod object schema",
      "loose",
      ',"arguments":{"id":9007199254740993}',
      { content: [{ type: "text", text: "bigint" }] },
    ],
  ])("%s", async (_label, name, params, result) => {
    expect(await callOver(name, params)).toMatchObject(result);
  });

  test("the callback takes (args, extra) or (extra) alone", () => {
    const callback = exactToolHandler((args: { n: number | bigint }) => ({
      content: [{ type: "text", text: typeof args.n }],
    }));
    expectTypeOf(callback).toMatchTypeOf<
      (args: { n: number }, extra: ToolHandlerExtra) => Promise<CallToolResult>
    >();
    expectTypeOf<ExactToolCallback<{ n: number }, SdkExtra>>().toMatchTypeOf<
      (extra: SdkExtra) => Promise<CallToolResult>
    >();
  });
});
