// ToolSchemas: a server id is looked up as `set` stored it (as a string), so
// a JavaScript caller passing a number finds, replaces and forgets the same
// server; tool names stay exact strings.
import { describe, expect, test } from "vitest";
import { ToolSchemas } from "../src/tool/tool-schemas.js";

describe("server ids are strings wherever they are passed", () => {
  const schema = { type: "object", title: "s" } as const;
  test("set with a number, looked up with the number or its string", () => {
    const r = new ToolSchemas().set(7 as unknown as string, [{ name: "t", inputSchema: schema }]);
    expect(r.inputSchema(7 as unknown as string, "t")).toBe(schema);
    expect(r.inputSchema("7", "t")).toBe(schema);
    expect(r.serverIds()).toEqual(["7"]);
    expect(r.delete(7 as unknown as string)).toBe(true);
    expect(r.inputSchema("7", "t")).toBe(undefined);
  });
  test("a tool name is not converted", () => {
    const r = new ToolSchemas().set("s", [{ name: "1", inputSchema: schema }]);
    expect(r.inputSchema("s", 1 as unknown as string)).toBe(undefined);
    expect(r.inputSchema("s", "1")).toBe(schema);
  });
});
