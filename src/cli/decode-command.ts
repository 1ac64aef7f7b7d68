// `decode`: a ClientAction, CallMCPTool or MCPToolResult in, the arguments (or
// structured content) JSON text out, as a client would hand it to an MCP server.

import type { JsonObject } from "@bufbuild/protobuf";
import { toolCallToJson, toolResultToJson } from "../index.js";
import { usageError } from "./cli-error.js";
import { type CliIo, diagnosticsAfterSuccess } from "./cli-io.js";
import { readMessage } from "./message-input.js";
import { numberReadings, warnIfSchemaDescribesNoNumber } from "./number-readings.js";
import { checkOneStdin, choice, parseOptions, singleInput, textOption } from "./parse-options.js";
import { INPUT_FILE, readBytes } from "./read-input.js";
import { type PickedSchema, pickSchema, readSchema } from "./schema-input.js";

/** `decode --help`. */
export const DECODE_HELP = `Usage: struct-json-bridge decode [FILE|-] [options]

Reads a ClientAction, CallMCPTool or MCPToolResult (binary protobuf or
ProtoJSON) from FILE or stdin and prints its arguments (or structured content)
as the JSON text a strict MCP server expects. Diagnostics go to stderr, one per
line as "path<TAB>code" (path is an RFC 6901 JSON Pointer, "" for the root).

Options:
  --schema FILE          the tool's JSON Schema (inputSchema for a call,
                         outputSchema for a result), one MCP tool object, a
                         tools/list result, the JSON-RPC response holding it,
                         or an array of tools (the tool is picked by name);
                         anything else is an error, and a schema that
                         describes none of the numbers is a warning
  --tool NAME            which tool of a tools/list --schema file to use
                         (default: the call's name; needed for a result)
  --format binary|json   input format (default: auto-detected)
  --type action|call|result
                         message type (default: auto-detected where only one fits)
  --raw verify|trust|ignore
                         raw_args_json handling (default verify: used only when
                         it agrees with the Struct; trust: used unchecked;
                         ignore: Struct and schema only)
  --whole-floats decimal|integer
                         how whole values at "number" positions are written
                         (default decimal: 1.0)
  -h, --help             this help

Exit status: 0 ok, 1 input rejected, 2 usage error, 70 internal error (a bug).
A failure is one line on stderr: "struct-json-bridge: CODE at PATH: what is
wrong" (see docs/cli.md), never quoting the input.`;

/** Runs `decode`; returns the exit status. */
export function decodeCommand(argv: readonly string[], io: CliIo): 0 {
  const { values, positionals } = parseOptions("decode", argv, {
    schema: { type: "string" },
    tool: { type: "string" },
    format: { type: "string" },
    type: { type: "string" },
    raw: { type: "string" },
    "whole-floats": { type: "string" },
  });
  if (values.help === true) {
    io.stdout(`${DECODE_HELP}\n`);
    return 0;
  }
  const format = choice("format", values.format, ["binary", "json"] as const);
  const type = choice("type", values.type, ["action", "call", "result"] as const);
  const raw = choice("raw", values.raw, ["verify", "trust", "ignore"] as const);
  const wholeFloats = choice("whole-floats", values["whole-floats"], [
    "decimal",
    "integer",
  ] as const);
  const input = singleInput("decode", positionals);
  const schemaFile = typeof values.schema === "string" ? values.schema : undefined;
  const tool = textOption("decode", "tool", values.tool);
  checkOneStdin("decode", input, schemaFile);
  if (tool !== undefined && schemaFile === undefined) {
    throw usageError("decode: --tool picks a tool of the --schema file: give --schema FILE");
  }
  // Read the schema first: an unreadable schema is reported even for bad input.
  const source = schemaFile === undefined ? undefined : readSchema(schemaFile);
  const message = readMessage(readBytes(input, INPUT_FILE), format, type);
  const diagnostics = diagnosticsAfterSuccess(io);
  for (const path of message.lost ?? []) diagnostics.onDiagnostic({ code: "precision-lost", path });
  const options = {
    onDiagnostic: diagnostics.onDiagnostic,
    ...(raw === undefined ? {} : { rawJson: raw }),
    ...(wholeFloats === undefined ? {} : { wholeFloats }),
  };
  let json: string;
  let picked: PickedSchema | undefined;
  let struct: JsonObject;
  if (message.type === "result") {
    picked =
      source === undefined
        ? undefined
        : pickSchema(source, tool, tool !== undefined, "outputSchema");
    json = toolResultToJson(message.result, picked?.schema ?? null, options);
    struct = message.result.structuredContent ?? {};
  } else {
    picked =
      source === undefined
        ? undefined
        : pickSchema(source, tool ?? message.call.name, tool !== undefined, "inputSchema");
    json = toolCallToJson(message.call, picked?.schema ?? null, options);
    struct = message.call.args ?? {};
  }
  // Read before anything is written: a failure stays the one line printed.
  const numbers = picked === undefined ? [] : numberReadings(struct, picked.schema ?? null);
  // Always one newline more, even after raw text that ends with one: the
  // reader strips exactly one and has the text byte for byte.
  io.stdout(`${json}\n`);
  diagnostics.flush();
  warnIfSchemaDescribesNoNumber(io, picked, numbers);
  return 0;
}
