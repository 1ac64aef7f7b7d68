// Reads the schema box: a tool's JSON Schema, one tool from tools/list
// ({ name, inputSchema, outputSchema }), or a whole tools/list result. Picks the
// schema that applies to the message being inspected.

import type { JsonSchema } from "../../../src/index.js";
import { InputError } from "./read-message.js";

/** One tool as tools/list lists it (only what the inspector uses). */
export interface ListedTool {
  readonly name: string;
  readonly inputSchema?: JsonSchema;
  readonly outputSchema?: JsonSchema;
}

/** What the schema box holds. */
export type SchemaInput =
  | { readonly kind: "none" }
  | { readonly kind: "schema"; readonly schema: JsonSchema }
  | { readonly kind: "tools"; readonly tools: readonly ListedTool[] };

/** The schema chosen for one message, and how (shown to the user). */
export interface PickedSchema {
  readonly schema: JsonSchema | undefined;
  readonly source: string;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function isTool(x: unknown): x is ListedTool {
  return isObject(x) && typeof x.name === "string" && ("inputSchema" in x || "outputSchema" in x);
}

/** Parses the schema box; empty means no schema (every number's reading is unknown). */
export function readSchemaInput(text: string): SchemaInput {
  if (text.trim() === "") return { kind: "none" };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new InputError(`the schema is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (isObject(v) && Array.isArray(v.tools)) v = v.tools;
  if (Array.isArray(v)) {
    if (!v.every(isTool)) {
      throw new InputError("a tools list must hold { name, inputSchema } objects only");
    }
    return { kind: "tools", tools: v };
  }
  if (isTool(v)) return { kind: "tools", tools: [v] };
  if (typeof v === "boolean" || isObject(v)) return { kind: "schema", schema: v as JsonSchema };
  throw new InputError(
    "the schema must be a JSON Schema (object or boolean), a tool, or a tools/list result",
  );
}

/**
 * The schema for a tool call (`toolName` set: the tool's inputSchema) or for a
 * tool result (`toolName` undefined: the outputSchema of the only tool given).
 */
export function pickSchema(input: SchemaInput, toolName: string | undefined): PickedSchema {
  if (input.kind === "none") return { schema: undefined, source: "no schema" };
  if (input.kind === "schema") return { schema: input.schema, source: "the schema given" };
  if (toolName === undefined) {
    // A result names no tool; only an unambiguous list can say which outputSchema applies.
    if (input.tools.length !== 1) {
      return {
        schema: undefined,
        source: "no schema (a result names no tool: paste the one tool or its outputSchema)",
      };
    }
    const only = input.tools[0]!;
    return only.outputSchema === undefined
      ? { schema: undefined, source: `no schema (tool ${only.name} has no outputSchema)` }
      : { schema: only.outputSchema, source: `outputSchema of tool ${only.name}` };
  }
  const tool = input.tools.find((t) => t.name === toolName);
  if (tool === undefined)
    return { schema: undefined, source: `no schema (no tool named ${toolName})` };
  return tool.inputSchema === undefined
    ? { schema: undefined, source: `no schema (tool ${toolName} has no inputSchema)` }
    : { schema: tool.inputSchema, source: `inputSchema of tool ${toolName}` };
}
