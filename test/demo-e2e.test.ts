// The demo's whole flow on real parts: Connect-ES gRPC server and client over
// HTTP/2, the official MCP TypeScript SDK client over stdio, and the strict
// Python MCP server (Pydantic StrictInt) from examples/demo. Asserts, per model
// call, exactly what the Python server received. Needs the venv that
// examples/demo/setup-python.sh creates (.ci/run runs it first).

import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { toJson } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport, Http2SessionManager } from "@connectrpc/connect-node";
import { beforeAll, describe, expect, test } from "vitest";
import { loadModelCalls } from "../examples/demo/model-calls.js";
import { formatReport } from "../examples/demo/print-report.js";
import {
  type CallReport,
  type DemoReport,
  runDemo,
  venvPython,
} from "../examples/demo/run-demo.js";
import { buildActions, startToolCallServer } from "../examples/demo/tool-call-server.js";
import { ClientActionSchema, ToolCallService } from "../src/messages.js";

const ROOT = new URL("..", import.meta.url).pathname;

beforeAll(() => {
  const python = venvPython();
  if (!existsSync(python)) {
    throw new Error(
      `demo-e2e needs the demo's Python venv (${python} is missing): run \`bash examples/demo/setup-python.sh\` (.ci/run does)`,
    );
  }
  const check = spawnSync(python, ["-c", "import pydantic, mcp"], { encoding: "utf8" });
  if (check.status !== 0) {
    throw new Error(
      `demo-e2e: ${python} cannot import mcp: rm -rf .venv && bash examples/demo/setup-python.sh`,
    );
  }
});

// Per model call: what the bridge sent (the model's text, untouched), what the
// strict server says it received, where protobuf-es's plain toJson changed a
// value, and what the schema path alone sent, with its diagnostics.
const EXPECTED: Record<
  string,
  {
    received: string;
    plainChanged: string[];
    schemaOnly: string;
    diagnostics: string[];
    schemaOnlyChanged: string[];
  }
> = {
  goto_definition: {
    received: '{"file":"internal/server/handler.go","line":142,"column":17}',
    plainChanged: [],
    schemaOnly: '{"file":"internal/server/handler.go","line":142,"column":17}',
    diagnostics: [],
    schemaOnlyChanged: [],
  },
  get_user: {
    received: '{"user_id":9007199254740993,"include_deleted":false}',
    plainChanged: ["/user_id"],
    schemaOnly: '{"user_id":9007199254740992}',
    diagnostics: ["/user_id integer-precision-lost"],
    schemaOnlyChanged: ["/user_id"],
  },
  set_alert: {
    received: '{"metric":"p99_latency_ms","threshold":1.0,"window_seconds":300,"severity":null}',
    plainChanged: [],
    schemaOnly: '{"metric":"p99_latency_ms","threshold":1.0,"window_seconds":300,"severity":null}',
    diagnostics: [],
    schemaOnlyChanged: [],
  },
  tag_issues: {
    received: '{"issue_ids":[9007199254740993,9007199254740995,4821],"label":"needs-triage"}',
    plainChanged: ["/issue_ids/0", "/issue_ids/1"],
    schemaOnly: '{"issue_ids":[9007199254740992,9007199254740996,4821],"label":"needs-triage"}',
    diagnostics: ["/issue_ids/0 integer-precision-lost", "/issue_ids/1 integer-precision-lost"],
    schemaOnlyChanged: ["/issue_ids/0", "/issue_ids/1"],
  },
  create_ticket: {
    received:
      '{"ticket":{"title":"Fix off-by-one in pager","assignee":{"user_id":9007199254740997,"team_id":null},"location":{"file":"pager.py","line":88,"column":5},"estimate_hours":2.0,"watcher_ids":[18014398509481985,42],"parent_id":null}}',
    plainChanged: ["/ticket/assignee/user_id", "/ticket/watcher_ids/0"],
    schemaOnly:
      '{"ticket":{"title":"Fix off-by-one in pager","assignee":{"user_id":9007199254740996,"team_id":null},"location":{"file":"pager.py","line":88,"column":5},"estimate_hours":2.0,"watcher_ids":[18014398509481984,42]}}',
    diagnostics: [
      "/ticket/assignee/user_id integer-precision-lost",
      "/ticket/watcher_ids/0 integer-precision-lost",
    ],
    schemaOnlyChanged: ["/ticket/assignee/user_id", "/ticket/watcher_ids/0"],
  },
  query_rows: {
    received: '{"table":"users","min_id":9007199254740993,"limit":2}',
    plainChanged: ["/min_id"],
    schemaOnly: '{"table":"users","min_id":9007199254740992,"limit":2}',
    diagnostics: ["/min_id integer-precision-lost"],
    schemaOnlyChanged: ["/min_id"],
  },
};
const SECOND_ALERT = {
  received: '{"metric":"error_rate","threshold":0.05,"window_seconds":60,"severity":2}',
  plainChanged: [],
  schemaOnly: '{"metric":"error_rate","threshold":0.05,"window_seconds":60,"severity":2}',
  diagnostics: [],
  schemaOnlyChanged: [],
};

function expectedFor(r: CallReport) {
  return r.call.id === "call_Dk8Fv1hZ6m" ? SECOND_ALERT : EXPECTED[r.call.name]!;
}

describe("the demo flow: gRPC → MCP TypeScript SDK → strict Python MCP server", () => {
  let report: DemoReport;
  beforeAll(async () => {
    report = await runDemo();
  }, 120_000);

  test("every bundled call is reported, in file order", () => {
    expect(report.calls.map((c) => c.call.id)).toEqual(loadModelCalls().map((c) => c.id));
  });

  test("with raw_args_json the bridge sends the model's text untouched, and the strict server receives every value exactly", () => {
    for (const r of report.calls) {
      const want = expectedFor(r);
      expect({ tool: r.call.name, sent: r.bridge.sentJson }).toEqual({
        tool: r.call.name,
        sent: r.call.argumentsJson,
      });
      expect(r.bridge.rejected).toBe(false);
      expect(r.bridge.diagnostics).toEqual([]);
      expect({ tool: r.call.name, received: r.bridge.receivedJson }).toEqual({
        tool: r.call.name,
        received: want.received,
      });
      expect(r.bridge.changed).toEqual([]);
    }
  });

  test("protobuf-es's plain toJson reaches the server with the ids above 2^53 changed", () => {
    for (const r of report.calls) {
      expect({ tool: r.call.name, changed: r.plain.changed }).toEqual({
        tool: r.call.name,
        changed: expectedFor(r).plainChanged,
      });
    }
  });

  test('rawArgsJson "never": ints restored from the schema (the strict server accepts all), ids above 2^53 flagged where they changed', () => {
    for (const r of report.calls) {
      const want = expectedFor(r);
      expect({
        tool: r.call.name,
        sent: r.schemaOnly.sentJson,
        diagnostics: r.schemaOnly.diagnostics.map((d) => `${d.path} ${d.code}`),
        rejected: r.schemaOnly.rejected,
        changed: r.schemaOnly.changed,
      }).toEqual({
        tool: r.call.name,
        sent: want.schemaOnly,
        diagnostics: want.diagnostics,
        rejected: false,
        changed: want.schemaOnlyChanged,
      });
    }
  });

  test("results travel back through SubmitResult byte for byte, the row set included", () => {
    for (const r of report.calls) {
      expect(r.submittedJson).toBeDefined();
      expect(r.submittedJson).toBe(r.bridge.resultJson);
    }
    const rows = report.calls.find((c) => c.call.name === "query_rows")!;
    expect(rows.submittedJson).toBe(
      '{"query":{"table":"users","min_id":9007199254740993,"limit":2},"columns":["id","name","score"],"rows":[[9007199254740993,"Ada",1.0],[9007199254740995,"Grace",0.5]]}',
    );
    expect(rows.submittedPlainJson).toBe(
      '{"query":{"table":"users","min_id":9007199254740992,"limit":2},"columns":["id","name","score"],"rows":[[9007199254740992,"Ada",1],[9007199254740996,"Grace",0.5]]}',
    );
  });

  test("the verdict is OK and the table says so", () => {
    expect(report.ok).toBe(true);
    const lines = formatReport(report);
    expect(lines.at(-1)).toBe(
      "OK: all 7 calls arrived exactly as the model wrote them, and every result came back exactly.",
    );
  });
});

describe("npm start's entry point", () => {
  test("prints the table and exits 0 on this Node", async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ["--import", "tsx", "examples/demo/main.ts"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const lines = stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^7 model tool calls → gRPC server \(Connect-ES, HTTP\/2, 127\.0\.0\.1:\d+\)/,
    );
    expect(lines.at(-1)).toBe(
      "OK: all 7 calls arrived exactly as the model wrote them, and every result came back exactly.",
    );
  }, 120_000);
});

describe("an independent gRPC client: buf curl against StreamActions", () => {
  test("shows the same raw_args_json and args as the Connect-ES client receives", async () => {
    const calls = loadModelCalls();
    const server = await startToolCallServer(buildActions(calls, ["always"]));
    try {
      const connect: unknown[] = [];
      const sessionManager = new Http2SessionManager(server.url);
      const client = createClient(
        ToolCallService,
        createGrpcTransport({ baseUrl: server.url, sessionManager }),
      );
      for await (const action of client.streamActions({ clientId: "test" })) {
        connect.push(toJson(ClientActionSchema, action));
      }
      sessionManager.abort();
      const run = promisify(execFile);
      const { stdout } = await run(
        `${ROOT}node_modules/.bin/buf`,
        [
          "curl",
          "--protocol",
          "grpc",
          "--http2-prior-knowledge",
          "--schema",
          "proto",
          "--data",
          '{"clientId":"buf-curl"}',
          `${server.url}/toolbridge.v1.ToolCallService/StreamActions`,
        ],
        { cwd: ROOT, encoding: "utf8" },
      );
      const viaBuf = splitJsonValues(stdout);
      expect(viaBuf).toHaveLength(calls.length);
      expect(viaBuf).toEqual(connect);
      // raw_args_json is the model's text, byte for byte, in both.
      expect(
        viaBuf.map((a) => (a as { callMcpTool: { rawArgsJson: string } }).callMcpTool.rawArgsJson),
      ).toEqual(calls.map((c) => c.argumentsJson));
    } finally {
      await server.close();
    }
  }, 120_000);
});

/** Splits buf curl's output (JSON values one after another) into parsed values. */
function splitJsonValues(text: string): unknown[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") {
      if (depth++ === 0) start = i;
    } else if (c === "}" && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
  }
  return out;
}
