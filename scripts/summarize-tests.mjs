// Prints "N passed, N failed, N skipped" from a vitest JSON report; exits 1 when any test failed
// or when a test file failed to load (those count as failures, not as silence).
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of report.testResults ?? []) {
  const results = file.assertionResults ?? [];
  if (file.status === 'failed' && results.length === 0) failed += 1;
  for (const test of results) {
    if (test.status === 'passed') passed += 1;
    else if (test.status === 'failed') failed += 1;
    else skipped += 1;
  }
}
const line = `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
console.log(line);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
