// Sums vitest JSON reports and extra checks into one line "N passed, N failed".
// A missing or unreadable report counts as one failure: a run that crashed
// before writing its report must not look green.
import { readFileSync } from "node:fs";

const [extraPassed, extraFailed, ...reports] = process.argv.slice(2);
let passed = Number(extraPassed);
let failed = Number(extraFailed);
for (const file of reports) {
  try {
    const r = JSON.parse(readFileSync(file, "utf8"));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    // A suite that failed to load has no tests but must still fail CI.
    for (const s of r.testResults ?? [])
      if (s.status === "failed" && s.assertionResults.length === 0) failed++;
    if (r.numTotalTests === 0) failed++;
    console.log(
      `${file}: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests} skipped`,
    );
  } catch (e) {
    console.log(`${file}: no report (${e instanceof Error ? e.message : e})`);
    failed++;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
