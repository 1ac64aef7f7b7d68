// The whole path the package exists for, on real parts:
//   model server (OpenAI Chat Completions stream, replayed on 127.0.0.1) →
//   openai SDK → struct-json-bridge/openai → model's JSON text → toolCallFromJson → gRPC (Connect-ES, HTTP/2) → client →
//   toolCallToJson with the tool's inputSchema from tools/list → official
//   MCP TypeScript SDK client → stdio → strict Python MCP server (Pydantic
//   StrictInt) → echo → toolResultFromJson → SubmitResult → toolResultToJson.
// Each call runs twice: with raw_args_json (the bridge's default) and with
// rawArgsJson "never" (the schema path alone); the first run also sends what
// protobuf-es's plain toJson makes of the Struct, to show what goes wrong.

import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type JsonObject, toJson } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { collectDiagnostics } from "../../src/diagnostics.js";
import {
  type Diagnostic,
  type JsonSchema,
  ToolSchemas,
  toolCallToJson,
  toolResultFromJson,
} from "../../src/index.js";
import {
  ExactStdioClientTransport,
  structuredContentJson,
  toolCallArguments,
} from "../../src/mcp/index.js";
import {
  type CallMCPTool,
  CallMCPToolSchema,
  MCPToolResultSchema,
  ToolCallService,
} from "../../src/messages.js";
import { differences, memberJson } from "./compare-json.js";
import { loadModelCalls, MODEL_CALLS_FILE, type ModelCall } from "./model-calls.js";
import { modelCallsThroughOpenAI } from "./model-server.js";
import {
  actionId,
  buildActions,
  type RawArgsMode,
  startToolCallServer,
} from "./tool-call-server.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SERVER_SCRIPT = fileURLToPath(new URL("./strict-mcp-server.py", import.meta.url));
/** The MCP server id the demo's calls carry. */
export const SERVER_ID = "strict-demo";

/** A problem with the demo's setup (not with the bridge): one line saying what to install. */
export class DemoSetupError extends Error {
  override name = "DemoSetupError";
}

/** The Python of the venv that examples/demo/setup-python.sh creates. */
export function venvPython(): string {
  const fromEnv = process.env.STRUCT_JSON_BRIDGE_PYTHON;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const posix = `${ROOT}.venv/bin/python`;
  return existsSync(posix) || process.platform !== "win32"
    ? posix
    : `${ROOT}.venv/Scripts/python.exe`;
}

/** What one strict-server call returned. */
export interface Dispatch {
  /** The arguments text sent, as JSON text. */
  readonly sentJson: string;
  /** Diagnostics from decoding the call. */
  readonly diagnostics: readonly Diagnostic[];
  /** True when the tool rejected the arguments (strict validation failed). */
  readonly rejected: boolean;
  /** The server's structuredContent text, exactly as sent (undefined when rejected). */
  readonly resultJson: string | undefined;
  /** What the tool says it received, as JSON text with exact digits. */
  readonly receivedJson: string | undefined;
  /** JSON Pointers where what the tool received differs from what the model wrote. */
  readonly changed: readonly string[];
  /** The tool's error text, when rejected. */
  readonly errorText: string | undefined;
}

/** Everything the demo learned about one model call. */
export interface CallReport {
  /** The model's call. */
  readonly call: ModelCall;
  /** With raw_args_json (the default): what the bridge sent and what arrived. */
  readonly bridge: Dispatch;
  /** What protobuf-es's plain toJson of the Struct gives, sent to the same server. */
  readonly plain: Dispatch;
  /** rawArgsJson "never": the schema path alone. */
  readonly schemaOnly: Dispatch;
  /** The result as the gRPC server decoded it from SubmitResult (bridge run). */
  readonly submittedJson: string | undefined;
  /** protobuf-es's plain toJson of the submitted structured content. */
  readonly submittedPlainJson: string | undefined;
}

/** Where the model calls came from. */
export interface ModelSource {
  /** The replay model server's port on 127.0.0.1. */
  readonly port: number;
  /** Stream chunks the openai SDK yielded. */
  readonly chunks: number;
  /** True when the adapter's calls equal the file's, id, name and text byte for byte. */
  readonly exact: boolean;
}

/** The demo's outcome. */
export interface DemoReport {
  /** Per model call, in file order. */
  readonly calls: readonly CallReport[];
  /** The gRPC server's port (for the record). */
  readonly port: number;
  /** The model server the calls were streamed from. */
  readonly model: ModelSource;
  /**
   * True when the model calls came through the adapter exactly, every call
   * arrived exactly as written and every result came back exactly.
   */
  readonly ok: boolean;
}

/** The demo's checks for one call: the bridge run is exact, and the schema-only run changed nothing unflagged. */
export function callOk(r: CallReport): boolean {
  const flagged = new Set(
    r.schemaOnly.diagnostics.filter((d) => d.code === "integer-precision-lost").map((d) => d.path),
  );
  return (
    !r.bridge.rejected &&
    r.bridge.changed.length === 0 &&
    r.bridge.receivedJson !== undefined &&
    r.submittedJson !== undefined &&
    r.submittedJson === r.bridge.resultJson &&
    !r.schemaOnly.rejected &&
    r.schemaOnly.changed.every((p) => flagged.has(p))
  );
}

/** Options of {@link runDemo}. */
export interface DemoOptions {
  /** The JSONL file of model calls. Default: the bundled examples/data/model-calls.jsonl. */
  modelCallsFile: string;
  /** The Python that runs the strict MCP server. Default: the repository's .venv. */
  python: string;
}

function textOf(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content
    .map((c: { type?: unknown; text?: unknown }) => (c.type === "text" ? String(c.text) : ""))
    .join("\n");
}

/** Runs the whole flow once and reports on every call. */
export async function runDemo(options: Partial<DemoOptions> = {}): Promise<DemoReport> {
  const python = options.python ?? venvPython();
  if (!existsSync(python)) {
    throw new DemoSetupError(
      "the demo needs Python 3.10+ with the mcp SDK: run `bash examples/demo/setup-python.sh` (creates .venv and pip-installs mcp)",
    );
  }
  const written = loadModelCalls(options.modelCallsFile ?? MODEL_CALLS_FILE);
  // The model's calls arrive as an OpenAI stream, through the provider adapter.
  const answer = await modelCallsThroughOpenAI(written);
  const calls = answer.calls;
  const model: ModelSource = {
    port: answer.port,
    chunks: answer.chunks,
    exact: JSON.stringify(calls) === JSON.stringify(written),
  };
  const modes: RawArgsMode[] = ["always", "never"];
  const server = await startToolCallServer(buildActions(calls, modes));
  const mcpTransport = new ExactStdioClientTransport({
    command: python,
    args: [SERVER_SCRIPT],
    stderr: "pipe",
  });
  const serverLog: string[] = [];
  mcpTransport.stderr?.on("data", (chunk: Buffer) => serverLog.push(chunk.toString("utf8")));
  const mcp = new Client({ name: "struct-json-bridge-demo", version: "1.0.0" });
  // Our own session manager, so that the HTTP/2 connection closes when we are done.
  const sessionManager = new Http2SessionManager(server.url);
  try {
    try {
      await mcp.connect(mcpTransport);
    } catch (e) {
      throw new DemoSetupError(
        `the strict MCP server did not start (${e instanceof Error ? e.message : String(e)}): rm -rf .venv && bash examples/demo/setup-python.sh\n${serverLog.join("")}`,
      );
    }
    const schemas = new ToolSchemas();
    schemas.set(SERVER_ID, (await mcp.listTools()).tools);

    const dispatch = async (
      model: ModelCall,
      sentJson: string,
      args: Record<string, unknown>,
      diagnostics: readonly Diagnostic[],
    ): Promise<Dispatch> => {
      const result = await mcp.callTool({ name: model.name, arguments: args });
      const rejected = result.isError === true;
      const resultJson = rejected ? undefined : structuredContentJson(result);
      const receivedJson =
        resultJson === undefined
          ? undefined
          : (memberJson(resultJson, "received") ?? memberJson(resultJson, "query"));
      return {
        sentJson,
        diagnostics,
        rejected,
        resultJson,
        receivedJson,
        changed: receivedJson === undefined ? [] : differences(model.argumentsJson, receivedJson),
        errorText: rejected ? textOf(result) : undefined,
      };
    };

    const grpc = createClient(
      ToolCallService,
      createGrpcTransport({ baseUrl: server.url, sessionManager }),
    );
    const partial = new Map<string, Partial<Record<"bridge" | "plain" | "schemaOnly", Dispatch>>>();
    const byActionId = new Map<string, { model: ModelCall; mode: RawArgsMode }>();
    for (const mode of modes)
      for (const c of calls) byActionId.set(actionId(mode, c), { model: c, mode });

    for await (const action of grpc.streamActions({ clientId: "struct-json-bridge-demo" })) {
      if (action.action.case !== "callMcpTool") continue;
      const call: CallMCPTool = action.action.value;
      const { model, mode } = byActionId.get(action.actionId)!;
      const schema = schemas.inputSchema(call.serverId, call.name) as JsonSchema | undefined;
      const { list, onDiagnostic } = collectDiagnostics();
      const bridgeJson = toolCallToJson(call, schema, { onDiagnostic });
      const bridge = await dispatch(model, bridgeJson, toolCallArguments(call, schema), list);
      const entry = partial.get(model.id) ?? {};
      partial.set(model.id, entry);
      // Results go back to the server exactly as the tool wrote them.
      await grpc.submitResult(
        toolResultFromJson({
          actionId: action.actionId,
          structuredContentJson: bridge.resultJson ?? "{}",
          isError: bridge.rejected,
        }),
      );
      if (mode === "always") {
        entry.bridge = bridge;
        // protobuf-es's plain path: toJson of the Struct, JSON.stringify'd by the SDK.
        const plainArgs = (toJson(CallMCPToolSchema, call) as JsonObject).args as JsonObject;
        entry.plain = await dispatch(model, JSON.stringify(plainArgs), plainArgs, []);
      } else {
        entry.schemaOnly = bridge;
      }
    }

    const reports: CallReport[] = calls.map((model) => {
      const entry = partial.get(model.id);
      if (
        entry?.bridge === undefined ||
        entry.plain === undefined ||
        entry.schemaOnly === undefined
      ) {
        throw new Error(`the server did not stream every action for ${model.id}`);
      }
      const submitted = server.submitted.get(actionId("always", model));
      const plainResult =
        submitted === undefined ? undefined : toJson(MCPToolResultSchema, submitted.result);
      return {
        call: model,
        bridge: entry.bridge,
        plain: entry.plain,
        schemaOnly: entry.schemaOnly,
        submittedJson: submitted?.json,
        submittedPlainJson:
          plainResult === null || typeof plainResult !== "object" || Array.isArray(plainResult)
            ? undefined
            : JSON.stringify(plainResult.structuredContent),
      };
    });
    return {
      calls: reports,
      port: server.port,
      model,
      ok: model.exact && reports.every(callOk),
    };
  } finally {
    sessionManager.abort();
    await mcp.close().catch(() => {});
    await server.close();
  }
}
