// The main job on bundled data, until the full demo lands: encode a model's
// tool call, send it through protobuf binary, and decode it both ways.
import { create, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { ClientActionSchema, toolCallArgumentsJson, toolCallFromJson } from "../dist/src/index.js";

const argumentsJson = '{"order_id": 9007199254740993, "line": 5, "threshold": 1.0}';
const schema = {
  type: "object",
  properties: {
    order_id: { type: "integer" },
    line: { type: "integer" },
    threshold: { type: "number" },
  },
};
const action = create(ClientActionSchema, {
  actionId: "1",
  action: { case: "callMcpTool", value: toolCallFromJson({ name: "find_order", argumentsJson }) },
});
const received = fromBinary(ClientActionSchema, toBinary(ClientActionSchema, action));
const call = received.action.value;
console.log("model wrote         ", argumentsJson);
console.log(
  "protobuf-es toJson  ",
  JSON.stringify(toJson(ClientActionSchema, received).callMcpTool.args),
);
console.log("bridge, raw verified", toolCallArgumentsJson(call, schema));
console.log("bridge, schema only ", toolCallArgumentsJson(call, schema, { rawJson: "ignore" }));
