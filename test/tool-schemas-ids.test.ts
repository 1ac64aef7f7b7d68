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

describe("a tool's members are its own, as JSON reads them", () => {
  // SECURITY.md: a polluted Object.prototype cannot inject keywords; nor can
  // it lend a tool a schema it does not declare, or a name.
  const cases: [
    member: string,
    value: unknown,
    tools: object[],
    lookup: (r: ToolSchemas) => unknown,
  ][] = [
    ["outputSchema", { type: "number" }, [{ name: "t" }], (r) => r.outputSchema("s", "t")],
    ["inputSchema", { type: "number" }, [{ name: "t" }], (r) => r.inputSchema("s", "t")],
    ["name", "t", [{ inputSchema: { type: "object" } }], (r) => r.inputSchema("s", "t")],
  ];
  test.each(cases)("Object.prototype.%s is not read", (member, value, tools, lookup) => {
    const proto = Object.prototype as Record<string, unknown>;
    proto[member] = value;
    try {
      const r = new ToolSchemas().set("s", tools as never);
      expect(lookup(r)).toBe(undefined);
    } finally {
      delete proto[member];
    }
  });

  test("own members, a null-prototype tool's too, are read", () => {
    const schema = { type: "object" };
    const bare = Object.assign(Object.create(null) as object, { name: "b", outputSchema: schema });
    const r = new ToolSchemas().set("s", [{ name: "t", inputSchema: schema }, bare as never]);
    expect(r.inputSchema("s", "t")).toBe(schema);
    expect(r.outputSchema("s", "b")).toBe(schema);
    expect(r.tool("s", "b")).toBe(bare);
  });
});
