// The examples selectable in the page. Each message is built here with the
// package's own encoder, exactly as a server would send it, so the examples
// can never drift from what the code writes.

import { create, type JsonObject, toBinary, toJsonString } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { toolCallFromJson, toolResultFromJson } from "../../../src/index.js";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  ClientActionSchema,
  MCPToolResultSchema,
} from "../../../src/messages.js";
import demoTools from "./demo-tools.json" with { type: "json" };

/** One example: what goes into the message box and the schema box. */
export interface InspectorExample {
  /** Stable id (the select's value, and `?example=` in the URL). */
  readonly id: string;
  /** What the example shows, in a few words. */
  readonly title: string;
  /** The message box's text. */
  readonly message: () => string;
  /** The schema box's text. */
  readonly schema: string;
}

/** tools/list of the demo's strict MCP server (examples/demo/strict-mcp-server.py), as it answers. */
const TOOLS = JSON.stringify(demoTools, null, 2);

function toolJson(name: string): string {
  const tool = demoTools.tools.find((t) => t.name === name);
  return JSON.stringify(tool, null, 2);
}

function actionBase64(actionId: string, call: CallMCPTool): string {
  const action = create(ClientActionSchema, {
    actionId,
    action: { case: "callMcpTool", value: call },
  });
  return base64Encode(toBinary(ClientActionSchema, action));
}

function callFromModel(
  name: string,
  argumentsJson: string,
  rawArgsJson: "always" | "never",
): CallMCPTool {
  return toolCallFromJson({ name, serverId: "strict-demo", argumentsJson }, { rawArgsJson });
}

const TICKET =
  '{"ticket":{"title":"Fix off-by-one in pager","assignee":{"user_id":9007199254740997,"team_id":null},"location":{"file":"pager.py","line":88,"column":5},"estimate_hours":2.0,"watcher_ids":[18014398509481985,42]}}';

/** The bundled examples, in the order the page lists them. */
export const EXAMPLES: readonly InspectorExample[] = [
  {
    id: "ticket-raw",
    title: "create_ticket: ids above 2^53, whole float in a float field (binary, raw_args_json)",
    message: () =>
      actionBase64("call_Xe1Jw6uN3r", callFromModel("create_ticket", TICKET, "always")),
    schema: TOOLS,
  },
  {
    id: "ticket-struct",
    title: "create_ticket without raw_args_json: the schema path alone",
    message: () => actionBase64("call_Xe1Jw6uN3r", callFromModel("create_ticket", TICKET, "never")),
    schema: TOOLS,
  },
  {
    id: "user-protojson",
    title: "get_user: id 9007199254740993 (ProtoJSON, raw_args_json)",
    message: () =>
      toJsonString(
        ClientActionSchema,
        create(ClientActionSchema, {
          actionId: "call_R7cN0pWq4e",
          action: {
            case: "callMcpTool",
            value: callFromModel("get_user", '{"user_id": 9007199254740993}', "always"),
          },
        }),
        { prettySpaces: 2 },
      ),
    schema: TOOLS,
  },
  {
    id: "alert-written-as-float",
    title: "set_alert: the model wrote an integer as 300.0 (integer-written-as-float)",
    message: () =>
      actionBase64(
        "call_b3Hs9LdT0y",
        callFromModel(
          "set_alert",
          '{"metric":"p99_latency_ms","threshold":1.0,"window_seconds":300.0,"severity":null}',
          "always",
        ),
      ),
    schema: TOOLS,
  },
  {
    id: "raw-malformed",
    title: "raw_args_json truncated: rejected, the Struct is used (raw-json-invalid)",
    message: () =>
      actionBase64(
        "a-1",
        create(CallMCPToolSchema, {
          name: "goto_definition",
          args: { file: "internal/server/handler.go", line: 142, column: 17 } as JsonObject,
          rawArgsJson: '{"file": "internal/server/handler.go", "line": 142, "column": 1',
        }),
      ),
    schema: TOOLS,
  },
  {
    id: "raw-mismatch",
    title: "raw_args_json disagrees with args: refused (raw-struct-mismatch)",
    message: () =>
      actionBase64(
        "a-2",
        create(CallMCPToolSchema, {
          name: "goto_definition",
          args: { file: "internal/server/handler.go", line: 142, column: 17 } as JsonObject,
          rawArgsJson: '{"file": "internal/server/handler.go", "line": 142, "column": 71}',
        }),
      ),
    schema: TOOLS,
  },
  {
    id: "rows-result",
    title: "query_rows result: a row set with ids above 2^53 (MCPToolResult, no raw text)",
    message: () =>
      base64Encode(
        toBinary(
          MCPToolResultSchema,
          toolResultFromJson(
            {
              actionId: "call_Lp4Yc7sG2k",
              structuredContentJson:
                '{"query":{"table":"users","min_id":9007199254740993,"limit":2},"columns":["id","name","score"],"rows":[[9007199254740993,"Ada",1.0],[9007199254740995,"Grace",0.5]]}',
            },
            { rawStructuredContentJson: "never" },
          ),
        ),
      ),
    schema: toolJson("query_rows"),
  },
  {
    id: "no-schema",
    title: "tag_issues with no schema: every reading unknown",
    message: () =>
      actionBase64(
        "call_Qm5zK2aP8v",
        callFromModel(
          "tag_issues",
          '{"issue_ids": [9007199254740993, 9007199254740995, 4821], "label": "needs-triage"}',
          "never",
        ),
      ),
    schema: "",
  },
];
