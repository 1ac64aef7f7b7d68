// Imports the BUILT package the way a consumer does (through package.json
// "exports", by name) and runs the main path once. Plain Node, no TypeScript.
import { readFileSync } from "node:fs";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import * as bridge from "struct-json-bridge";

const required = [
  "ClientActionSchema",
  "CallMCPToolSchema",
  "MCPToolResultSchema",
  "ToolCallService",
  "StructJsonError",
  "isStructJsonError",
  "structToJson",
  "structMessageToJson",
  "compileSchema",
  "structFromJson",
  "toolCallFromJson",
  "toolCallArgumentsJson",
  "toolResultFromJson",
  "toolResultJson",
  "ToolSchemas",
];
const missing = required.filter((name) => !(name in bridge));
if (missing.length > 0) {
  console.error(`smoke: missing exports: ${missing.join(", ")}`);
  process.exit(1);
}

// The main path, as in consumer.cjs: the case is shared (main-path.json).
const { argumentsJson, schema, fromStruct } = JSON.parse(
  readFileSync(new URL("main-path.json", import.meta.url), "utf8"),
);
const call = bridge.toolCallFromJson({ name: "t", argumentsJson });
const action = create(bridge.ClientActionSchema, {
  actionId: "1",
  action: { case: "callMcpTool", value: call },
});
const back = fromBinary(bridge.ClientActionSchema, toBinary(bridge.ClientActionSchema, action));
const viaRaw = bridge.toolCallArgumentsJson(back.action.value, schema);
const viaStruct = bridge.toolCallArgumentsJson(back.action.value, schema, { rawJson: "ignore" });
if (viaRaw !== argumentsJson || viaStruct !== fromStruct) {
  console.error(`smoke: got ${viaRaw} and ${viaStruct}`);
  process.exit(1);
}
console.log(`smoke: ok (${process.version})`);
