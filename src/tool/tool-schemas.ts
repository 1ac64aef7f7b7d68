// The tools/list results of each MCP server, for looking up a tool's schemas
// by the (server id, tool name) a CallMCPTool carries.

import type { JsonSchema, JsonSchemaObject } from "../schema/json-schema.js";
import { ownKeyword } from "../schema/keywords.js";

/** A tool as `tools/list` describes it (other members are kept but not read). */
export interface ToolDescription {
  /** The tool's name. */
  readonly name: string;
  /** The JSON Schema of its arguments. */
  readonly inputSchema?: JsonSchema | undefined;
  /** The JSON Schema of its structuredContent. */
  readonly outputSchema?: JsonSchema | undefined;
}

/**
 * A registry of `tools/list` results per server id. Tool names are data from
 * the model, so lookups go through `Map`s: `constructor`, `__proto__` or
 * `toString` are ordinary names, and unknown ones give `undefined`.
 */
export class ToolSchemas {
  private readonly servers = new Map<string, Map<string, ToolDescription>>();

  /** Records (or replaces) a server's tools/list result. */
  set(serverId: string, tools: readonly ToolDescription[]): this {
    const byName = new Map<string, ToolDescription>();
    if (Array.isArray(tools)) {
      for (const t of tools) {
        // The first of two same-named tools wins, as a client dispatching by name would do.
        const name = member(t, "name");
        if (typeof name === "string" && !byName.has(name)) byName.set(name, t);
      }
    }
    this.servers.set(String(serverId), byName);
    return this;
  }

  /** Forgets a server's tools. */
  delete(serverId: string): boolean {
    return this.servers.delete(String(serverId));
  }

  /**
   * The tool, by server id and name; with no server id (undefined or ""), the
   * first server, in the order they were set, that has a tool of that name.
   */
  tool(serverId: string | undefined, toolName: string): ToolDescription | undefined {
    // Ids as `set` stores them (a JavaScript caller may pass a number).
    if (serverId !== undefined && serverId !== "")
      return this.servers.get(String(serverId))?.get(toolName);
    for (const tools of this.servers.values()) {
      const t = tools.get(toolName);
      if (t !== undefined) return t;
    }
    return undefined;
  }

  /** The tool's input schema (for `toolCallToJson`); undefined when the tool is unknown or has none. */
  inputSchema(serverId: string | undefined, toolName: string): JsonSchema | undefined {
    return member(this.tool(serverId, toolName), "inputSchema") as JsonSchema | undefined;
  }

  /** The tool's output schema (for `toolResultToJson`); undefined when the tool is unknown or has none. */
  outputSchema(serverId: string | undefined, toolName: string): JsonSchema | undefined {
    return member(this.tool(serverId, toolName), "outputSchema") as JsonSchema | undefined;
  }

  /** The ids of the servers set so far, in order. */
  serverIds(): string[] {
    return [...this.servers.keys()];
  }
}

/** A tool's own member, as JSON reads it: a polluted Object.prototype cannot lend a tool a schema or a name. */
function member(t: unknown, key: string): unknown {
  return t && ownKeyword(t as JsonSchemaObject, key);
}
