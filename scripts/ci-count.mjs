// Adds up the test results CI wrote (vitest and Playwright JSON) and prints "N passed, N failed".
// Exits 1 when a test or a step failed, so a red step can never hide behind green counts.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const [dir, ...failedSteps] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
for (const f of readdirSync(dir).filter((x) => x.endsWith(".json"))) {
  const r = JSON.parse(readFileSync(path.join(dir, f), "utf8"));
  if ("numPassedTests" in r) {
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    console.log(`${f}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
  } else if (r.stats) {
    passed += r.stats.expected + (r.stats.flaky ?? 0);
    failed += r.stats.unexpected;
    skipped += r.stats.skipped ?? 0;
    console.log(`${f}: ${r.stats.expected} passed, ${r.stats.unexpected} failed`);
  }
}
if (failedSteps.length) console.log(`failed steps: ${failedSteps.join(", ")}`);
if (!existsSync(dir)) console.log("no results");
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 || failedSteps.length > 0 ? 1 : 0);
