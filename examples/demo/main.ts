// `npm start`: runs the demo and exits 0 only if every call arrived exactly as
// the model wrote it. `--verbose` also prints every text in full.

import { formatReport } from "./print-report.js";
import { DemoSetupError, runDemo } from "./run-demo.js";

const verbose = process.argv.includes("--verbose");
try {
  const report = await runDemo();
  console.log(formatReport(report).join("\n"));
  if (verbose) {
    for (const c of report.calls) {
      console.log(`\n${c.call.id} ${c.call.name}`);
      console.log(`  model wrote         ${c.call.argumentsJson}`);
      console.log(`  protobuf-es toJson  ${c.plain.sentJson}`);
      console.log(`  bridge sent         ${c.bridge.sentJson}`);
      console.log(`  server received     ${c.bridge.receivedJson ?? c.bridge.errorText ?? ""}`);
      console.log(`  schema path alone   ${c.schemaOnly.sentJson}`);
    }
  }
  process.exitCode = report.ok ? 0 : 1;
} catch (e) {
  if (e instanceof DemoSetupError) {
    console.error(`struct-json-bridge demo: ${e.message}`);
    process.exitCode = 3;
  } else {
    throw e;
  }
}
