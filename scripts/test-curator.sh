#!/usr/bin/env bash
# The interop tests whose Java side is Curator, run against another Curator release than the default 5.9.0:
#   bash scripts/test-curator.sh debian     Debian's Curator 5.4.0 (the older end of 5.x), on ZooKeeper 3.9.5
#   bash scripts/test-curator.sh 5.7.1      any release from Maven Central
# Runs the lock, queue and discovery interop tests (the layouts a mixed fleet shares most), and ends with
# "N passed, N failed"; the vitest report is .tmp/curator-<version>.json.
set -uo pipefail
cd "$(dirname "$0")/.."

version="${1:?usage: test-curator.sh VERSION|debian}"
files=(
  packages/recipes/test/lock-interop.test.ts
  packages/queues/test/curator-interop.test.ts
  packages/discovery/test/curator-interop.test.ts
)
mkdir -p .tmp
report=".tmp/curator-${version}.json"
rm -f "$report"
ZKWIRE_CURATOR_VERSION="$version" npx vitest run --project integration --reporter=default --reporter=json \
  --outputFile.json="$report" "${files[@]}"
echo -n "Curator ${version}: "
node scripts/summarize-tests.mjs "$report"
