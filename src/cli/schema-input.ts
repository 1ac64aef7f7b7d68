// --schema FILE: a JSON Schema, one MCP tool (`{ name, inputSchema, outputSchema }`)
// or a whole tools/list result (`{ tools: [...] }`), so that users can pass
// what their MCP server lists without cutting it apart.

import { parse } from "lossless-json";
import type { JsonSchema } from "../json-schema.js";
import { inputError } from "./cli-error.js";
import { readText } from "./read-input.js";

/** Which of a tool's schemas a command needs. */
export type SchemaRole = "inputSchema" | "outputSchema";

/** A schema file as read: either one schema, or tools to pick from by name. */
export type SchemaSource =
  | { readonly kind: "schema"; readonly schema: JsonSchema }
  | { readonly kind: "tools"; readonly tools: readonly Record<string, unknown>[] };

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** Reads and parses a schema file; any failure is one input error naming the file. */
export function readSchema(file: string): SchemaSource {
  const text = readText(file);
  let value: unknown;
  try {
    // Schema numbers (enum, const) are read as float64s, as any JSON Schema consumer does;
    // lossless-json is used for its duplicate-key check and positioned errors.
    value = parse(text, null, (n) => Number(n));
  } catch (e) {
    const why =
      e instanceof RangeError ? "it nests too deeply" : e instanceof Error ? e.message : String(e);
    throw inputError(`schema ${file} is not valid JSON: ${why}`, e);
  }
  if (typeof value === "boolean") return { kind: "schema", schema: value };
  if (!isObject(value))
    throw inputError(`schema ${file} must be a JSON Schema (an object or boolean)`);
  const tools = value.tools;
  if (Array.isArray(tools) && tools.every((t) => isObject(t) && typeof t.name === "string")) {
    return { kind: "tools", tools: tools as Record<string, unknown>[] };
  }
  if (typeof value.name === "string" && ("inputSchema" in value || "outputSchema" in value)) {
    return { kind: "tools", tools: [value] };
  }
  return { kind: "schema", schema: value };
}

/** The schema to use for `toolName`'s input or output; undefined when a tools file lacks it. */
export function pickSchema(
  source: SchemaSource,
  toolName: string,
  role: SchemaRole,
  file: string,
): JsonSchema | undefined {
  if (source.kind === "schema") return source.schema;
  const tool =
    source.tools.length === 1 && toolName === ""
      ? source.tools[0]
      : source.tools.find((t) => t.name === toolName);
  if (tool === undefined) {
    throw inputError(
      toolName === ""
        ? `schema ${file} lists several tools: pass --tool NAME`
        : `schema ${file} lists no tool named ${JSON.stringify(toolName)}`,
    );
  }
  const schema = tool[role];
  if (schema === undefined) return undefined;
  if (typeof schema !== "boolean" && !isObject(schema)) {
    throw inputError(
      `schema ${file}: ${role} of tool ${JSON.stringify(tool.name)} is not a JSON Schema`,
    );
  }
  return schema as JsonSchema;
}
