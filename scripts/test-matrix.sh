#!/usr/bin/env bash
# `npm run test:matrix`: the version matrix. Against each ZooKeeper release, one after another (never two at
# once on these small machines), runs the matrix project: the smoke test (test/matrix/) and the differential
# conformance test against the Java client of the same release. Versions: the arguments, else every one of
# MATRIX_VERSIONS (packages/testing/src/releases/matrix.ts). Prints a line per version, then
# "N passed, N failed" over all of them; each version's vitest report is in .tmp/matrix/<version>.json.
set -uo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh || exit 1
[ -d node_modules ] || npm install --no-fund --no-audit --loglevel=error || exit 1

versions=("$@")
if [ ${#versions[@]} -eq 0 ]; then
  mapfile -t versions < <(grep -oE "'[0-9]+\.[0-9]+\.[0-9]+'" packages/testing/src/releases/matrix.ts | tr -d "'")
fi
npx --no-install tsx --tsconfig tsconfig.base.json scripts/fetch-releases.ts --matrix || exit 1

mkdir -p .tmp/matrix
reports=()
for version in "${versions[@]}"; do
  echo
  echo "== ZooKeeper ${version} ($(date +%T))"
  report=".tmp/matrix/${version}.json"
  rm -f "$report"
  ZKWIRE_ZK_VERSION="$version" npx vitest run --project matrix --reporter=default --reporter=json \
    --outputFile.json="$report"
  echo -n "ZooKeeper ${version}: "
  node scripts/summarize-tests.mjs "$report"
  reports+=("$report")
done
echo
node scripts/summarize-tests.mjs "${reports[@]}"
