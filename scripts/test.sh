#!/usr/bin/env bash
# Runs every test (unit and integration, against real ZooKeeper servers) and ends with a plain line
# "N passed, N failed[, N skipped]" read from vitest's JSON report.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || exit 1
[ -d node_modules ] || npm install --no-fund --no-audit --loglevel=error || exit 1

mkdir -p .tmp
report=.tmp/vitest-report.json
rm -f "$report"
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?

if [ ! -f "$report" ]; then
  echo "0 passed, 1 failed"
  exit 1
fi
node scripts/summarize-tests.mjs "$report"
summary=$?
[ $status -ne 0 ] && exit $status
exit $summary
