// Prints "N passed, N failed, N skipped" from one or more vitest JSON reports (added up); exits 1 when any
// test failed, when a test file failed to load (those count as failures, not as silence), or when a report is
// missing (a run that never wrote its report failed).
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) {
    console.error(`summarize-tests: no report at ${path}`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  for (const file of report.testResults ?? []) {
    const results = file.assertionResults ?? [];
    if (file.status === 'failed' && results.length === 0) failed += 1;
    for (const test of results) {
      if (test.status === 'passed') passed += 1;
      else if (test.status === 'failed') failed += 1;
      else skipped += 1;
    }
  }
}
const line = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
console.log(line);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
