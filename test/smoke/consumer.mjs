// Imports the BUILT package the way a consumer does (through package.json
// "exports", by name) and runs the main path once. Plain Node, no TypeScript.
import { readFileSync } from "node:fs";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import * as bridge from "struct-json-bridge";
import * as messages from "struct-json-bridge/messages";
import { repairArguments } from "struct-json-bridge/repair";

const required = [
  "StructJsonError",
  "isStructJsonError",
  "structToJson",
  "structMessageToJson",
  "compileSchema",
  "structMessageFromJson",
  "toolCallFromJson",
  "toolCallToJson",
  "toolResultFromJson",
  "toolResultToJson",
  "ToolSchemas",
];
const missing = [
  ...required.filter((name) => !(name in bridge)),
  ...["ClientActionSchema", "CallMCPToolSchema", "MCPToolResultSchema", "ToolCallService"]
    .filter((name) => !(name in messages))
    .map((name) => `messages.${name}`),
];
if (missing.length > 0) {
  console.error(`smoke: missing exports: ${missing.join(", ")}`);
  process.exit(1);
}

// The main path, as in consumer.cjs: the case is shared (main-path.json).
const { argumentsJson, schema, fromStruct } = JSON.parse(
  readFileSync(new URL("main-path.json", import.meta.url), "utf8"),
);
const call = bridge.toolCallFromJson({ name: "t", argumentsJson });
const action = create(messages.ClientActionSchema, {
  actionId: "1",
  action: { case: "callMcpTool", value: call },
});
const back = fromBinary(messages.ClientActionSchema, toBinary(messages.ClientActionSchema, action));
const viaRaw = bridge.toolCallToJson(back.action.value, schema);
const viaStruct = bridge.toolCallToJson(back.action.value, schema, { rawJson: "ignore" });
if (viaRaw !== argumentsJson || viaStruct !== fromStruct) {
  console.error(`smoke: got ${viaRaw} and ${viaStruct}`);
  process.exit(1);
}
// Repair, injected from its subpath.
const repaired = bridge.toolCallToJson(
  bridge.toolCallFromJson({ name: "t", argumentsJson: '{"n":"3"}' }),
  { type: "object", properties: { n: { type: "integer" } } },
  { repair: repairArguments },
);
if (repaired !== '{"n":3}') {
  console.error(`smoke: repair gave ${repaired}`);
  process.exit(1);
}
console.log(`smoke: ok (${process.version})`);
