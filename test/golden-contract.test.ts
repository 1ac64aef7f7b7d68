// Golden wire vectors for other teams and other languages: ClientAction bytes
// (hex) as our server side writes them, with what a receiver must get back.
// Another implementation can decode `hex` with its own generated code and check
// raw_args_json, args and the decoded arguments against the same file.
// Regenerate after a deliberate change with UPDATE_GOLDEN=1 npx vitest run test/golden-contract.test.ts
import { readFileSync, writeFileSync } from "node:fs";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { expect, test } from "vitest";
import { ClientActionSchema } from "../gen/toolbridge/v1/toolbridge_pb.js";
import type { Diagnostic } from "../src/diagnostics.js";
import type { JsonSchema } from "../src/schema/json-schema.js";
import { toolCallFromJson, toolCallToJson } from "../src/tool/tool-call.js";

const file = new URL("./golden/client-actions.json", import.meta.url);

interface Golden {
  name: string;
  argumentsJson: string;
  rawArgsJson: "always" | "when-lossy" | "never";
  schema: JsonSchema;
  hex: string;
  viaRaw: string;
  viaStruct: string;
  structDiagnostics: string[];
}

const cases: Omit<Golden, "hex" | "viaRaw" | "viaStruct" | "structDiagnostics">[] = [
  {
    name: "id above 2^53, ints and a whole float",
    argumentsJson: '{"order_id": 9007199254740993, "line": 5, "threshold": 1.0}',
    rawArgsJson: "always",
    schema: {
      type: "object",
      properties: {
        order_id: { type: "integer" },
        line: { type: "integer" },
        threshold: { type: "number" },
      },
    },
  },
  {
    name: "nested Pydantic-style model, Optional[int], list[int]",
    argumentsJson:
      '{"ticket":{"assignee":{"user_id":9007199254740997,"team_id":null},"labels":[1,2,3]},"priority":2}',
    rawArgsJson: "when-lossy",
    schema: {
      $defs: {
        User: {
          type: "object",
          properties: {
            user_id: { type: "integer" },
            team_id: { anyOf: [{ type: "integer" }, { type: "null" }], default: null },
          },
        },
        Ticket: {
          type: "object",
          properties: {
            assignee: { $ref: "#/$defs/User" },
            labels: { type: "array", items: { type: "integer" } },
          },
        },
      },
      type: "object",
      properties: { ticket: { $ref: "#/$defs/Ticket" }, priority: { type: "integer" } },
    },
  },
  {
    name: "schema path alone: no raw text",
    argumentsJson: '{"rows":[[1,"Ada",1.0],[2,"Grace",0.5]],"limit":10}',
    rawArgsJson: "never",
    schema: {
      type: "object",
      properties: {
        rows: {
          type: "array",
          items: {
            type: "array",
            prefixItems: [{ type: "integer" }, { type: "string" }, { type: "number" }],
          },
        },
        limit: { type: "integer" },
      },
    },
  },
];

function build(c: (typeof cases)[number]): Golden {
  const call = toolCallFromJson(
    { name: "tool", serverId: "server", argumentsJson: c.argumentsJson },
    {
      rawArgsJson: c.rawArgsJson,
    },
  );
  const bytes = toBinary(
    ClientActionSchema,
    create(ClientActionSchema, {
      actionId: "golden",
      action: { case: "callMcpTool", value: call },
    }),
  );
  const back = fromBinary(ClientActionSchema, bytes);
  if (back.action.case !== "callMcpTool") throw new Error("lost the call");
  const d: Diagnostic[] = [];
  return {
    ...c,
    hex: Buffer.from(bytes).toString("hex"),
    viaRaw: toolCallToJson(back.action.value, c.schema),
    viaStruct: toolCallToJson(back.action.value, c.schema, {
      rawJson: "ignore",
      onDiagnostic: (x) => d.push(x),
    }),
    structDiagnostics: d.map((x) => `${x.path} ${x.code}`),
  };
}

const computed = cases.map(build);
if (process.env.UPDATE_GOLDEN === "1") {
  writeFileSync(file, `${JSON.stringify({ vectors: computed }, null, 2)}\n`);
}
const stored: Golden[] = JSON.parse(readFileSync(file, "utf8")).vectors;

test("the golden file covers every case", () => {
  expect(stored.map((g) => g.name)).toEqual(cases.map((c) => c.name));
});

for (const [i, c] of cases.entries()) {
  test(`golden: ${c.name}`, () => {
    expect(computed[i]).toEqual(stored[i]);
    // A receiver of the stored bytes gets the stored outputs.
    const back = fromBinary(ClientActionSchema, Buffer.from(stored[i]!.hex, "hex"));
    if (back.action.case !== "callMcpTool") throw new Error("lost the call");
    expect(toolCallToJson(back.action.value, c.schema)).toBe(stored[i]!.viaRaw);
  });
}
