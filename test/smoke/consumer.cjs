// The CommonJS twin of consumer.mjs: requires the BUILT package by name (the
// "require" conditions of package.json "exports") and runs the main path once.
"use strict";
const { create, fromBinary, toBinary } = require("@bufbuild/protobuf");
const bridge = require("struct-json-bridge");
const mcp = require("struct-json-bridge/mcp");
const messages = require("struct-json-bridge/messages");
const { repairArguments } = require("struct-json-bridge/repair");

const failures = [];
if (typeof messages.ClientActionSchema !== "object") failures.push("missing messages");
if (typeof repairArguments !== "function") failures.push("missing struct-json-bridge/repair");
for (const name of ["toolCallFromJson", "toolCallToJson", "structToJson", "structMessageToJson"]) {
  if (!(name in bridge)) failures.push(`missing export ${name}`);
}
if (typeof mcp.toolCallArguments !== "function") failures.push("missing struct-json-bridge/mcp");
// The .proto is reachable through the exports map.
const proto = require.resolve("struct-json-bridge/proto/toolbridge/v1/toolbridge.proto");
if (!require("node:fs").readFileSync(proto, "utf8").includes("message CallMCPTool")) {
  failures.push("the .proto export does not lead to the contract");
}

// The main path, as in consumer.mjs: the case is shared (main-path.json).
const { argumentsJson, schema, fromStruct } = require("./main-path.json");
const action = create(messages.ClientActionSchema, {
  actionId: "1",
  action: { case: "callMcpTool", value: bridge.toolCallFromJson({ name: "t", argumentsJson }) },
});
const back = fromBinary(messages.ClientActionSchema, toBinary(messages.ClientActionSchema, action));
const call = back.action.value;
if (bridge.toolCallToJson(call, schema) !== argumentsJson) failures.push("raw path differs");
if (bridge.toolCallToJson(call, schema, { rawJson: "ignore" }) !== fromStruct) {
  failures.push("Struct path differs");
}
// The error class and its guard, from CommonJS.
try {
  bridge.structMessageFromJson("[1]");
  failures.push("structMessageFromJson accepted an array");
} catch (e) {
  if (!bridge.isStructJsonError(e) || !(e instanceof bridge.StructJsonError)) {
    failures.push(`unexpected error ${e}`);
  }
}
if (failures.length > 0) {
  console.error(`smoke (CommonJS): ${failures.join("; ")}`);
  process.exit(1);
}
console.log(`smoke (CommonJS): ok (${process.version})`);
