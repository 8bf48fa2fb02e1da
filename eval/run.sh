#!/usr/bin/env bash
# eval/run.sh [run.js options] — the whole evaluation in one command: builds and
# installs the extension into the server $PG_CONFIG names (a private copy:
# tools/pg-copy.sh; never the system's), installs TrueSkill and OpenSkill from
# package-lock.json if missing, and runs eval/run.js in a throwaway cluster.
# Results: eval/out/results.md and results.json (--out DIR to change).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${PG_CONFIG:?set PG_CONFIG to the pg_config of a private server copy (tools/pg-copy.sh)}"
make -s >/dev/null && make -s install >/dev/null
if [ ! -d eval/node_modules ] && [[ " $* " != *" --no-peers "* ]]; then
  (cd eval && npm ci --silent --no-audit --no-fund)
fi
exec bash tools/with-cluster.sh node eval/run.js "$@"
