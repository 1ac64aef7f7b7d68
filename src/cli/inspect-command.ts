// `inspect`: one line per number, showing how the schema reads it — for
// finding out why a strict server rejected (or would reject) a call.

import type { JsonObject } from "@bufbuild/protobuf";
import { type JsonPointer, pointerAppend } from "../json-pointer.js";
import { type JsonSpanNode, parseJsonSpans } from "../struct/parse-json.js";
import { structToJsonDefaults } from "../struct/to-json.js";
import { usageError } from "./cli-error.js";
import { type CliIo, printDiagnostic } from "./cli-io.js";
import { displayPath } from "./display.js";
import { readMessage } from "./message-input.js";
import { numberReadings, warnIfSchemaDescribesNoNumber } from "./number-readings.js";
import { checkOneStdin, choice, parseOptions, singleInput, textOption } from "./parse-options.js";
import { INPUT_FILE, readBytes } from "./read-input.js";
import { type PickedSchema, pickSchema, readSchema } from "./schema-input.js";

/** `inspect --help`. */
export const INSPECT_HELP = `Usage: struct-json-bridge inspect FILE --schema FILE [options]

Reads a ClientAction, CallMCPTool or MCPToolResult (binary protobuf or
ProtoJSON) and prints one tab-separated line per number in its Struct:

  path       RFC 6901 JSON Pointer of the number
  struct     the float64 the Struct holds (JavaScript's shortest form; -0 kept)
  raw        the number as written in raw_args_json / raw_structured_content_json
             ("-" when the message carries no raw text, or raw text that
             is not one well-formed JSON object: then stderr says
             "<TAB>raw-json-invalid", as decode does)
  reading    what the schema says it is: integer, number, ambiguous or unknown
  output     the text decode writes for it from the Struct and schema
  codes      diagnostics at that number, comma-separated ("-" for none)

Options:
  --schema FILE          the tool's JSON Schema, one MCP tool object, a
                         tools/list result, the JSON-RPC response holding it,
                         or an array of tools (required; see decode --help)
  --tool NAME            which tool of a tools/list --schema file to use
                         (default: the call's name; needed for a result)
  --format binary|json   input format (default: auto-detected)
  --type action|call|result
                         message type (default: auto-detected where only one fits)
  -h, --help             this help

Exit status: 0 ok, 1 input rejected, 2 usage error, 70 internal error (a bug).
A failure is one line on stderr: "struct-json-bridge: CODE at PATH: what is
wrong" (see docs/cli.md), never quoting the input.`;

/**
 * Number texts of a raw JSON text, by JSON Pointer; undefined when it is not
 * one well-formed JSON object within the decoder's nesting limit (then decode
 * would not use it either). Read by the package's parser, with spans.
 */
function rawNumberTexts(raw: string | undefined): Map<JsonPointer, string> | undefined {
  if (raw === undefined) return undefined;
  let root: JsonSpanNode;
  try {
    root = parseJsonSpans(raw, structToJsonDefaults.recursionLimit);
  } catch {
    return undefined;
  }
  if (root.kind !== "object") return undefined;
  const out = new Map<JsonPointer, string>();
  const stack: [JsonSpanNode, JsonPointer][] = [[root, ""]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, path] = top;
    if (node.kind === "number") out.set(path, node.text);
    else if (node.kind === "array") {
      for (let i = 0; i < node.items.length; i++) {
        stack.push([node.items[i]!, pointerAppend(path, i)]);
      }
    } else if (node.kind === "object") {
      for (const m of node.members) stack.push([m.value, pointerAppend(path, m.key)]);
    }
  }
  return out;
}

/** The Struct's float64 in JavaScript's shortest form, with the sign String() drops from -0. */
function structText(value: number): string {
  return Object.is(value, -0) ? "-0" : String(value);
}

/** Runs `inspect`; returns the exit status. */
export function inspectCommand(argv: readonly string[], io: CliIo): 0 {
  const { values, positionals } = parseOptions("inspect", argv, {
    schema: { type: "string" },
    tool: { type: "string" },
    format: { type: "string" },
    type: { type: "string" },
  });
  if (values.help === true) {
    io.stdout(`${INSPECT_HELP}\n`);
    return 0;
  }
  const format = choice("format", values.format, ["binary", "json"] as const);
  const type = choice("type", values.type, ["action", "call", "result"] as const);
  if (positionals.length === 0) throw usageError("inspect: FILE is required (- for stdin)");
  const input = singleInput("inspect", positionals);
  const schemaFile = values.schema;
  if (typeof schemaFile !== "string") throw usageError("inspect: --schema FILE is required");
  const tool = textOption("inspect", "tool", values.tool);
  checkOneStdin("inspect", input, schemaFile);
  const source = readSchema(schemaFile);
  const message = readMessage(readBytes(input, INPUT_FILE), format, type);
  let struct: JsonObject;
  let raw: string | undefined;
  let picked: PickedSchema;
  if (message.type === "result") {
    struct = message.result.structuredContent ?? {};
    raw = message.result.rawStructuredContentJson;
    picked = pickSchema(source, tool, tool !== undefined, "outputSchema");
  } else {
    struct = message.call.args ?? {};
    raw = message.call.rawArgsJson;
    picked = pickSchema(source, tool ?? message.call.name, tool !== undefined, "inputSchema");
  }
  const numbers = numberReadings(struct, picked.schema ?? null);
  const rawTexts = rawNumberTexts(raw);
  const lines = ["path\tstruct\traw\treading\toutput\tcodes"];
  const lost = new Set(message.lost);
  for (const n of numbers) {
    // A ProtoJSON number its float64 does not give back, first: as decode reports it.
    const all = lost.has(n.path) ? ["precision-lost", ...n.codes] : n.codes;
    const codes = all.length === 0 ? "-" : all.join(",");
    const rawText = rawTexts?.get(n.path) ?? "-";
    lines.push(
      `${displayPath(n.path)}\t${structText(n.value)}\t${rawText}\t${n.reading}\t${n.text}\t${codes}`,
    );
  }
  io.stdout(`${lines.join("\n")}\n`);
  // As decode reports it: the raw text is there but cannot be used.
  if (raw !== undefined && rawTexts === undefined) {
    printDiagnostic(io, { code: "raw-json-invalid", path: "" });
  }
  warnIfSchemaDescribesNoNumber(io, picked, numbers);
  return 0;
}
