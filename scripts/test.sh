#!/usr/bin/env bash
# Runs every test (unit and integration, against real ZooKeeper servers: 3.9.5 unless ZKWIRE_ZK_VERSION names
# another release) and ends with a plain line "N passed, N failed[, N skipped]" read from vitest's JSON report.
# The version matrix is `npm run test:matrix` (scripts/test-matrix.sh).
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || exit 1
[ -d node_modules ] || npm install --no-fund --no-audit --loglevel=error || exit 1
# The ZooKeeper and Curator releases from Maven Central, once, into the cache outside the repository: a release
# that cannot be had fails here with its name, not as a timeout in the tests.
npx --no-install tsx --tsconfig tsconfig.base.json scripts/fetch-releases.ts || exit 1

mkdir -p .tmp
report=.tmp/vitest-report.json
rm -f "$report"
npx vitest run --project unit --project integration --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?

if [ ! -f "$report" ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
node scripts/summarize-tests.mjs "$report"
summary=$?
[ $status -ne 0 ] && exit $status
exit $summary
