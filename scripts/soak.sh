#!/usr/bin/env bash
# `npm run soak`: the soak run with its checker (apps/soak), not part of `npm test` or CI. Five minutes by
# default on a local 3-server ensemble with Curator drivers; exit 1 on any violation.
# npm run soak -- --minutes 5 --seed 42   (the seed and the replay command are printed at the start)
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh >&2
[ -d node_modules ] || npm install --no-fund --no-audit --loglevel=error >&2
# --tsconfig maps the @zkwire/* packages to their sources, so no build is needed first.
exec npx --no-install tsx --tsconfig apps/soak/tsconfig.json apps/soak/src/main.ts "$@"
