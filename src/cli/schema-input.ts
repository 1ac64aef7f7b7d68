// --schema FILE: a JSON Schema, one MCP tool (`{ name, inputSchema, outputSchema }`),
// a tools/list result (`{ tools: [...] }`), the JSON-RPC response holding one
// (`{ "jsonrpc": "2.0", "id": 1, "result": { "tools": [...] } }`) or the bare
// array of tools, so that users can pass what their MCP server lists without
// cutting it apart. Anything else is an error, never "no schema".

import type { JsonValue } from "@bufbuild/protobuf";
import type { JsonPointer } from "../json-pointer.js";
import { pointerAppend } from "../json-pointer.js";
import type { JsonSchema } from "../schema/json-schema.js";
import { inputError } from "./cli-error.js";
import { isJsonObject, type JsonDocument, parseJsonInput } from "./json-input.js";
import { readText } from "./read-input.js";
import { checkJsonSchema } from "./schema-check.js";

/** How the schema file is named in error lines (paths point into it). */
export const SCHEMA_FILE = "the --schema file";

/** Nesting a schema file may have: far beyond any real schema, well within the parser's stack. */
export const SCHEMA_NESTING_LIMIT = 512;

const SCHEMA_DOCUMENT: JsonDocument = {
  name: SCHEMA_FILE,
  nestingLimit: SCHEMA_NESTING_LIMIT,
  nestingRule: `nesting deeper than ${SCHEMA_NESTING_LIMIT} levels`,
};

/** Which of a tool's schemas a command needs. */
export type SchemaRole = "inputSchema" | "outputSchema";

type JsonObjectValue = { readonly [key: string]: JsonValue };

/** One tool of a tools list, with where it is in the file. */
interface ListedTool {
  readonly tool: JsonObjectValue;
  readonly path: JsonPointer;
}

/** A schema file as read: either one schema, or tools to pick from by name. */
export type SchemaSource =
  | { readonly kind: "schema"; readonly schema: JsonSchema }
  | { readonly kind: "tools"; readonly tools: readonly ListedTool[] };

/** The schema a command uses; `schema` is undefined when the picked tool declares none for the role. */
export interface PickedSchema {
  readonly schema: JsonSchema | undefined;
  /** Why there is no schema, for the warning ("the tool has no outputSchema"). */
  readonly missing?: string;
}

function invalid(path: JsonPointer, detail: string): never {
  throw inputError("schema-invalid", detail, { path, document: SCHEMA_FILE });
}

function toolsAt(list: JsonValue, path: JsonPointer): SchemaSource {
  if (!Array.isArray(list)) invalid(path, "a tools list's tools must be an array");
  const tools = (list as JsonValue[]).map((tool, i): ListedTool => {
    const at = pointerAppend(path, i);
    if (!isJsonObject(tool) || typeof tool.name !== "string") {
      invalid(at, "a tool must be an object with a string name");
    }
    return { tool: tool as JsonObjectValue, path: at };
  });
  return { kind: "tools", tools };
}

/** What a parsed --schema file holds (see the file comment); `schema-invalid` otherwise. */
export function schemaSource(value: JsonValue): SchemaSource {
  if (Array.isArray(value)) return toolsAt(value, "");
  if (typeof value === "boolean") return { kind: "schema", schema: value };
  if (!isJsonObject(value)) invalid("", "neither a JSON Schema (an object or a boolean) nor tools");
  const o = value as JsonObjectValue;
  if (Object.hasOwn(o, "tools")) return toolsAt(o.tools!, "/tools");
  if (Object.hasOwn(o, "jsonrpc") || Object.hasOwn(o, "result")) {
    const result = o.result;
    if (isJsonObject(result) && Object.hasOwn(result, "tools")) {
      return toolsAt(result.tools!, "/result/tools");
    }
    if (Object.hasOwn(o, "error")) invalid("/error", "a JSON-RPC error response, not a tools list");
    invalid("", "a JSON-RPC message that holds no tools list (result.tools)");
  }
  if (
    typeof o.name === "string" &&
    (Object.hasOwn(o, "inputSchema") || Object.hasOwn(o, "outputSchema"))
  ) {
    return { kind: "tools", tools: [{ tool: o, path: "" }] };
  }
  checkJsonSchema(o, "", SCHEMA_FILE);
  return { kind: "schema", schema: o as JsonSchema };
}

/** Reads and parses a schema file; any failure is one input error. */
export function readSchema(file: string): SchemaSource {
  const text = readText(file, SCHEMA_FILE);
  return schemaSource(parseJsonInput(text, SCHEMA_DOCUMENT));
}

/**
 * The schema for a tool's input or output. `toolName` is --tool, else the
 * call's name (undefined for a result: then the list must hold one tool);
 * `byOption` says which, for the error line (the name itself is never shown).
 */
export function pickSchema(
  source: SchemaSource,
  toolName: string | undefined,
  byOption: boolean,
  role: SchemaRole,
): PickedSchema {
  if (source.kind === "schema") return { schema: source.schema };
  let listed: ListedTool | undefined;
  if (toolName === undefined) {
    if (source.tools.length !== 1) {
      throw inputError(
        "tool-not-found",
        `${SCHEMA_FILE} lists ${source.tools.length === 0 ? "no" : "several"} tools: pass --tool NAME`,
      );
    }
    listed = source.tools[0];
  } else {
    const matches = source.tools.filter((t) => t.tool.name === toolName);
    if (matches.length === 0) {
      throw inputError(
        "tool-not-found",
        `${SCHEMA_FILE} lists no tool ${byOption ? "by the name given to --tool" : "by the call's name (pass --tool NAME)"}`,
      );
    }
    if (matches.length > 1) invalid(matches[1]!.path, "two tools have the same name");
    listed = matches[0];
  }
  const { tool, path } = listed!;
  // Servers that write absent fields as null mean "no schema" by it.
  if (!Object.hasOwn(tool, role) || tool[role] === null) {
    return { schema: undefined, missing: `the tool has no ${role}` };
  }
  const schema = tool[role]!;
  checkJsonSchema(schema, pointerAppend(path, role), SCHEMA_FILE);
  return { schema: schema as JsonSchema };
}
