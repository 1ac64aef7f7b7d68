// toolResultFromJson / toolResultToJson and the ToolSchemas registry.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import { MCPToolResultSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import type { Diagnostic } from "../src/diagnostics.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { toolResultFromJson, toolResultToJson } from "../src/tool/tool-result.js";
import { ToolSchemas } from "../src/tool/tool-schemas.js";

const rowsSchema: JsonSchema = {
  type: "object",
  properties: {
    rows: {
      type: "array",
      items: { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }] },
    },
  },
};
const rowsText = '{"rows":[[9007199254740993,"Ada"],[9007199254740995,"Grace"]]}';

function wire(text: string, options = {}) {
  const r = toolResultFromJson(
    { actionId: "a1", structuredContentJson: text, isError: false },
    options,
  );
  return fromBinary(MCPToolResultSchema, toBinary(MCPToolResultSchema, r));
}

describe("tool results", () => {
  test("a row set comes back byte-exact", () => {
    const r = wire(rowsText);
    expect(r.actionId).toBe("a1");
    expect(r.rawStructuredContentJson).toBe(rowsText);
    expect(toolResultToJson(r, rowsSchema)).toBe(rowsText);
  });
  test("without the raw text, the schema restores ints and flags ids above 2^53", () => {
    const d: Diagnostic[] = [];
    const r = wire(rowsText, { rawStructuredContentJson: "never" });
    expect(toolResultToJson(r, rowsSchema, { onDiagnostic: (x) => d.push(x) })).toBe(
      '{"rows":[[9007199254740992,"Ada"],[9007199254740996,"Grace"]]}',
    );
    expect(d).toEqual([
      { code: "integer-precision-lost", path: "/rows/0/0" },
      { code: "integer-precision-lost", path: "/rows/1/0" },
    ]);
  });
  test("canonical gives the Struct's canonical text, with the raw text present or not", () => {
    const canonical = '{"rows":[[9007199254740992,"Ada"],[9007199254740996,"Grace"]]}';
    for (const rawJson of ["verify", "trust", "ignore"] as const) {
      expect(toolResultToJson(wire(rowsText), rowsSchema, { canonical: true, rawJson })).toBe(
        canonical,
      );
    }
  });
  test("when-lossy keeps the text only when needed", () => {
    expect(
      wire('{"a":1.5}', { rawStructuredContentJson: "when-lossy" }).rawStructuredContentJson,
    ).toBe(undefined);
    expect(
      wire(rowsText, { rawStructuredContentJson: "when-lossy" }).rawStructuredContentJson,
    ).toBe(rowsText);
  });
  test("is_error travels", () => {
    const r = toolResultFromJson({ structuredContentJson: "{}", isError: true });
    expect(fromBinary(MCPToolResultSchema, toBinary(MCPToolResultSchema, r)).isError).toBe(true);
  });
  test("a mismatching raw text is refused", () => {
    const r = create(MCPToolResultSchema, {
      structuredContent: { rows: [[1, "Ada"]] },
      rawStructuredContentJson: '{"rows":[[2,"Ada"]]}',
    });
    expect(() => toolResultToJson(r, rowsSchema)).toThrow(
      expect.objectContaining({ code: "raw-struct-mismatch", path: "/rows/0/0" }),
    );
  });
  test("no structured content is message-invalid", () => {
    expect(() => toolResultToJson(create(MCPToolResultSchema, {}))).toThrow(
      expect.objectContaining({ code: "message-invalid", path: "" }),
    );
  });
});

describe("ToolSchemas", () => {
  const a = { type: "object", title: "a" } as const;
  const b = { type: "object", title: "b" } as const;
  const out = { type: "object", title: "out" } as const;
  const registry = new ToolSchemas()
    .set("first", [
      { name: "search", inputSchema: a },
      { name: "only_first", inputSchema: a },
    ])
    .set("second", [{ name: "search", inputSchema: b, outputSchema: out }]);
  const rows: { server: string | undefined; name: string; expected: unknown }[] = [
    { server: "first", name: "search", expected: a },
    { server: "second", name: "search", expected: b },
    { server: undefined, name: "search", expected: a },
    { server: "", name: "search", expected: a },
    { server: undefined, name: "only_first", expected: a },
    { server: "second", name: "only_first", expected: undefined },
    { server: "third", name: "search", expected: undefined },
    { server: undefined, name: "constructor", expected: undefined },
    { server: undefined, name: "toString", expected: undefined },
    { server: undefined, name: "__proto__", expected: undefined },
    { server: undefined, name: "hasOwnProperty", expected: undefined },
    { server: "constructor", name: "search", expected: undefined },
  ];
  for (const r of rows) {
    test(`get(${r.server}, ${r.name})`, () => {
      expect(registry.inputSchema(r.server, r.name)).toBe(r.expected);
    });
  }
  test("output schemas and replacing a server's list", () => {
    expect(registry.outputSchema("second", "search")).toBe(out);
    expect(registry.outputSchema("first", "search")).toBe(undefined);
    const r = new ToolSchemas().set("s", [{ name: "x", inputSchema: a }]).set("s", [{ name: "y" }]);
    expect(r.inputSchema("s", "x")).toBe(undefined);
    expect(r.tool("s", "y")).toEqual({ name: "y" });
  });
  test("tools named like Object.prototype members are ordinary", () => {
    const r = new ToolSchemas().set(
      "s",
      JSON.parse('[{"name":"__proto__","inputSchema":{"title":"p"}}]'),
    );
    expect(r.inputSchema(undefined, "__proto__")).toEqual({ title: "p" });
    expect(r.inputSchema(undefined, "constructor")).toBe(undefined);
  });
});
