#!/usr/bin/env bash
# demo.sh — a demo league in a throwaway cluster: installs PostgreSQL 15 and
# glicko2 if missing, plays a seeded synthetic league period by period, and
# prints the leaderboard with 95 % intervals.
set -euo pipefail
cd "$(dirname "$0")"
bash tools/ensure-deps.sh
make -s >/dev/null && make -s install >/dev/null
pg_virtualenv psql -X -q -v ON_ERROR_STOP=1 -f demo/league.sql
