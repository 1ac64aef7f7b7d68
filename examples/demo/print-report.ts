// Renders the demo's report as a compact table: one row per call, texts cut
// to a window around the first place they matter.

import { parsePointer } from "../../src/json-pointer.js";
import { firstNumberTextDifference } from "./compare-json.js";
import { type CallReport, callOk, type DemoReport, type Dispatch } from "./run-demo.js";

const TEXT_WIDTH = 34;

/** A window of `text` at most `width` characters wide, starting near the member named `key`. */
export function excerpt(text: string, key: string | undefined, width = TEXT_WIDTH): string {
  if (text.length <= width) return text;
  const at = key === undefined ? -1 : text.indexOf(JSON.stringify(key));
  let start = at <= 1 ? 0 : at - 1;
  start = Math.min(start, text.length - (width - 1));
  const head = start > 0 ? "…" : "";
  const room = width - head.length;
  const body = text.slice(start, start + room);
  return start + room >= text.length ? head + body : `${head}${body.slice(0, -1)}…`;
}

/** The last member name on a pointer: where to look in a text for it. */
function focusKey(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const tokens = parsePointer(path) ?? [];
  for (let i = tokens.length - 1; i >= 0; i--) if (!/^\d+$/.test(tokens[i]!)) return tokens[i];
  return undefined;
}

/** What the strict server made of one dispatch, in a few words. */
function verdict(d: Dispatch): string {
  if (d.rejected) return "REJECTED";
  if (d.receivedJson === undefined) return "no echo";
  if (d.changed.length === 0) return "exact ✓";
  const what =
    d.changed.length === 1 ? `${d.changed[0]} changed` : `${d.changed.length} values changed`;
  if (d.diagnostics.length === 0) return what;
  const flagged = new Set(d.diagnostics.map((x) => x.path));
  return d.changed.every((p) => flagged.has(p)) ? `${what}, flagged` : `${what}, NOT flagged`;
}

function pad(text: string, width: number): string {
  const len = [...text].length;
  return len >= width ? text : text + " ".repeat(width - len);
}

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((c, i) => (i === cells.length - 1 ? c : pad(c, widths[i]!)))
    .join("  ")
    .trimEnd();
}

function diagnosticsText(d: Dispatch): string {
  if (d.diagnostics.length === 0) return "–";
  if (d.diagnostics.length === 1) return `${d.diagnostics[0]!.path} ${d.diagnostics[0]!.code}`;
  const counts = new Map<string, number>();
  for (const x of d.diagnostics) counts.set(x.code, (counts.get(x.code) ?? 0) + 1);
  return [...counts].map(([code, n]) => `${n}× ${code}`).join(", ");
}

/** The report as lines of text. */
export function formatReport(report: DemoReport): string[] {
  const calls = report.calls;
  const toolWidth = Math.max(4, ...calls.map((c) => c.call.name.length));
  const out: string[] = [];
  out.push(
    `${calls.length} model tool calls → gRPC server (Connect-ES, HTTP/2, 127.0.0.1:${report.port}) → gRPC client → MCP TypeScript SDK → stdio → strict Python MCP server (Pydantic StrictInt)`,
    `The calls came from a model server (127.0.0.1:${report.model.port}) as an OpenAI Chat Completions stream of ${report.model.chunks} chunks, read with the openai SDK and struct-json-bridge/openai: ${report.model.exact ? "every argument text exact" : "ARGUMENT TEXTS CHANGED"}.`,
    "",
    "With raw_args_json (the default): what reached the strict server",
  );
  const w1 = [toolWidth, TEXT_WIDTH, TEXT_WIDTH, 19, 0];
  out.push(
    row(
      [
        "tool",
        "protobuf-es toJson would send",
        "the bridge sent",
        "server got (bridge)",
        "server got (toJson)",
      ],
      w1,
    ),
  );
  for (const c of calls) {
    const key = focusKey(
      c.plain.changed[0] ?? firstNumberTextDifference(c.call.argumentsJson, c.plain.sentJson),
    );
    out.push(
      row(
        [
          c.call.name,
          excerpt(c.plain.sentJson, key),
          excerpt(c.bridge.sentJson, key),
          verdict(c.bridge),
          verdict(c.plain),
        ],
        w1,
      ),
    );
  }
  out.push(
    "",
    'Schema path alone (rawArgsJson: "never"): Struct + the tool\'s inputSchema, no raw text',
  );
  const w2 = [toolWidth, TEXT_WIDTH, 32, 0];
  out.push(row(["tool", "the bridge sent", "diagnostics", "server got"], w2));
  for (const c of calls) {
    const key = focusKey(c.schemaOnly.changed[0]);
    out.push(
      row(
        [
          c.call.name,
          excerpt(c.schemaOnly.sentJson, key),
          diagnosticsText(c.schemaOnly),
          verdict(c.schemaOnly),
        ],
        w2,
      ),
    );
  }
  const rows = calls.find((c) => c.call.name === "query_rows");
  if (rows !== undefined) out.push("", ...formatRowSet(rows));
  const good = calls.filter(callOk).length;
  out.push(
    "",
    report.ok
      ? `OK: all ${calls.length} calls arrived exactly as the model wrote them, and every result came back exactly.`
      : report.model.exact
        ? `FAILED: ${calls.length - good} of ${calls.length} calls did not arrive (or come back) exactly.`
        : "FAILED: the model's argument texts changed on the way through the OpenAI adapter.",
  );
  return out;
}

function formatRowSet(c: CallReport): string[] {
  const sent =
    c.bridge.resultJson === undefined ? undefined : memberText(c.bridge.resultJson, "rows");
  const got = c.submittedJson === undefined ? undefined : memberText(c.submittedJson, "rows");
  const plain =
    c.submittedPlainJson === undefined ? undefined : memberText(c.submittedPlainJson, "rows");
  const same = c.submittedJson !== undefined && c.submittedJson === c.bridge.resultJson;
  return [
    "query_rows's row set (structuredContent under its outputSchema), back through SubmitResult:",
    `  the tool returned        ${sent ?? "(nothing)"}`,
    `  the gRPC server decoded  ${got ?? "(nothing)"}${same ? "  byte for byte ✓" : "  DIFFERENT"}`,
    `  protobuf-es toJson       ${plain ?? "(nothing)"}`,
  ];
}

/** The text of `"key": value` in JSON text, from the key to the end of its value (for display only). */
function memberText(json: string, key: string): string | undefined {
  const at = json.indexOf(JSON.stringify(key));
  if (at === -1) return undefined;
  let depth = 0;
  let i = json.indexOf(":", at) + 1;
  while (json[i] === " ") i++;
  const start = i;
  for (; i < json.length; i++) {
    const ch = json[i];
    if (ch === "[" || ch === "{") depth++;
    else if (ch === "]" || ch === "}") {
      if (depth === 0) break;
      depth--;
      if (depth === 0) {
        i++;
        break;
      }
    } else if (ch === "," && depth === 0) break;
  }
  return json.slice(start, i);
}
