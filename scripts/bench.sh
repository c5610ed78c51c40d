#!/usr/bin/env bash
# The README's first command (`npm run bench`): wire-level benchmarks of our client against the raw limit and
# every peer, on an embedded ZooKeeper (or --connect host:port). Works on a fresh machine: scripts/setup.sh
# installs what the server and the Java contenders need when missing (as root), then the npm packages, then the
# bench app runs from source (apps/bench/README.md). Arguments pass through: npm run bench -- --quick |
# --scenario getData | --contenders ours,raw | --rounds 5 | --zk-version debian | --write-results ...
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh >&2
[ -d node_modules ] || npm install --no-fund --no-audit --loglevel=error >&2 # not npm ci: see .ci/run
# --tsconfig maps the @zkwire/* packages to their sources, so no build is needed first.
exec npx --no-install tsx --tsconfig apps/bench/tsconfig.json apps/bench/src/main.ts "$@"
