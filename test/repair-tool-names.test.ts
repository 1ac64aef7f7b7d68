// Tool names come from the model: looking one up must never reach an
// inherited member. Repair mode finds the schema through the registry.

import { describe, expect, test } from "vitest";
import { repairArguments } from "../src/repair/repair-arguments.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { ToolSchemas } from "../src/tool/tool-schemas.js";

const countSchema: JsonSchema = {
  type: "object",
  properties: { n: { type: "integer" } },
  required: ["n"],
};

function registry(): ToolSchemas {
  const schemas = new ToolSchemas();
  schemas.set("srv", [{ name: "count", inputSchema: countSchema }]);
  return schemas;
}

describe("tool names from the model are looked up safely", () => {
  const names = [
    "constructor",
    "toString",
    "__proto__",
    "hasOwnProperty",
    "valueOf",
    "isPrototypeOf",
    "__defineGetter__",
  ];
  test.each(names)("%s → unknown tool", (name) => {
    const schemas = registry();
    expect(schemas.inputSchema("srv", name)).toBeUndefined();
    expect(schemas.inputSchema(undefined, name)).toBeUndefined();
    expect(schemas.inputSchema(name, "count")).toBeUndefined();
  });

  test("an ordinary tool named like an inherited member is found", () => {
    const schemas = new ToolSchemas();
    schemas.set("srv", [{ name: "constructor", inputSchema: countSchema }]);
    expect(schemas.inputSchema("srv", "constructor")).toBe(countSchema);
    expect(schemas.inputSchema("srv", "toString")).toBeUndefined();
  });

  test("the registry's schema drives the repair", () => {
    const schema = registry().inputSchema("srv", "count") as JsonSchema;
    expect(repairArguments('{"n":"3"}', schema)).toEqual({
      ok: true,
      argumentsJson: '{"n":3}',
      repairs: [{ path: "/n", kind: "string-to-number" }],
    });
  });
});
