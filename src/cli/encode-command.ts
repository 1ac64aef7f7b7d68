// `encode`: the model's argument JSON text in, a ClientAction out, as a server
// that emits tool calls would build it.

import { create, toBinary, toJson } from "@bufbuild/protobuf";
import { toolCallFromJson } from "../index.js";
import { type ClientAction, ClientActionSchema } from "../messages.js";
import { RawText } from "../struct/exact-number-text.js";
import { writeJsonText } from "../struct/json-text-writer.js";
import { setOwnProperty } from "../struct/own-property.js";
import { usageError } from "./cli-error.js";
import { type CliIo, diagnosticsAfterSuccess } from "./cli-io.js";
import { choice, parseOptions, singleInput, textOption } from "./parse-options.js";
import { INPUT_FILE, readText } from "./read-input.js";

/** `encode --help`. */
export const ENCODE_HELP = `Usage: struct-json-bridge encode --name NAME [options] [FILE|-]

Reads a tool call's argument JSON text (one JSON object) from FILE or stdin and
writes a ClientAction carrying it: args as a google.protobuf.Struct and,
per --raw, the text itself in raw_args_json, byte for byte. Diagnostics (such
as precision-lost for an integer above 2^53) go to stderr as "path<TAB>code".

Options:
  --name NAME            the tool's name (required)
  --server-id ID         the MCP server's id (default: empty)
  --action-id ID         the ClientAction's action_id (default: empty)
  --raw always|when-lossy|never
                         when to fill raw_args_json (default always;
                         when-lossy: only when the Struct loses a number)
  --format binary|json   output: binary protobuf or ProtoJSON (default json)
  -h, --help             this help

Exit status: 0 ok, 1 input rejected, 2 usage error, 70 internal error (a bug).
A failure is one line on stderr: "struct-json-bridge: CODE at PATH: what is
wrong" (see docs/cli.md), never quoting the input.`;

/**
 * The action as ProtoJSON text. toJsonString writes the Struct's -0 as 0
 * (JSON.stringify does), a value the raw text then disagrees with: -0 is
 * written "-0", which reads back as -0. Walks with its own stack.
 */
function protoJsonText(action: ClientAction): string {
  const json = toJson(ClientActionSchema, action);
  let negativeZero = false;
  const stack: object[] = [{ json }];
  for (let v = stack.pop(); v !== undefined; v = stack.pop()) {
    for (const key of Object.keys(v)) {
      const child = (v as Record<string, unknown>)[key];
      if (Object.is(child, -0)) {
        setOwnProperty(v, key, new RawText("-0"));
        negativeZero = true;
      } else if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return negativeZero ? writeJsonText(json, "", false) : JSON.stringify(json);
}

/** Runs `encode`; returns the exit status. */
export function encodeCommand(argv: readonly string[], io: CliIo): 0 {
  const { values, positionals } = parseOptions("encode", argv, {
    name: { type: "string" },
    "server-id": { type: "string" },
    "action-id": { type: "string" },
    raw: { type: "string" },
    format: { type: "string" },
  });
  if (values.help === true) {
    io.stdout(`${ENCODE_HELP}\n`);
    return 0;
  }
  const name = textOption("encode", "name", values.name);
  if (name === undefined || name === "") throw usageError("encode: --name NAME is required");
  const raw = choice("raw", values.raw, ["always", "when-lossy", "never"] as const);
  const format = choice("format", values.format, ["binary", "json"] as const) ?? "json";
  const input = singleInput("encode", positionals);
  const serverId = textOption("encode", "server-id", values["server-id"]);
  const actionId = textOption("encode", "action-id", values["action-id"]) ?? "";
  const diagnostics = diagnosticsAfterSuccess(io);
  const call = toolCallFromJson(
    {
      name,
      argumentsJson: readText(input, INPUT_FILE),
      ...(serverId === undefined ? {} : { serverId }),
    },
    { onDiagnostic: diagnostics.onDiagnostic, ...(raw === undefined ? {} : { rawArgsJson: raw }) },
  );
  const action = create(ClientActionSchema, {
    actionId,
    action: { case: "callMcpTool", value: call },
  });
  io.stdout(
    format === "binary" ? toBinary(ClientActionSchema, action) : `${protoJsonText(action)}\n`,
  );
  diagnostics.flush();
  return 0;
}
