// Both builds in one process (an ES module imports the package while a
// CommonJS dependency requires it): two copies of the code, which must still
// understand each other's errors and messages.
import { createRequire } from "node:module";
import * as esm from "struct-json-bridge";

const cjs = createRequire(import.meta.url)("struct-json-bridge");
const failures = [];
if (esm.StructJsonError === cjs.StructJsonError) failures.push("expected two copies of the code");
try {
  cjs.structMessageFromJson("[1]");
  failures.push("structMessageFromJson accepted an array");
} catch (e) {
  if (!esm.isStructJsonError(e) || e.code !== "not-an-object") {
    failures.push("the ESM type guard does not recognise the CommonJS error");
  }
}
const struct = cjs.structMessageFromJson('{"a":1}');
const schema = { type: "object", properties: { a: { type: "number" } } };
if (esm.structMessageToJson(struct, schema) !== '{"a":1.0}') {
  failures.push("the ESM decoder does not read the CommonJS copy's Struct");
}
if (failures.length > 0) {
  console.error(`smoke (dual): ${failures.join("; ")}`);
  process.exit(1);
}
console.log(`smoke (dual): ok (${process.version})`);
