#!/usr/bin/env bash
# real_games.sh — predictive accuracy of Glicko-2, Glicko-1, Elo and the
# constant prediction on real results (NCAA ice hockey 2009-10, English
# Premier League 2008-13, from Debian's r-cran-bradleyterry2), in a throwaway
# cluster: installs what is missing, builds and installs glicko2, loads the
# data (load_real_games.sh) and runs real_games.sql.  With PG_CONFIG set, runs
# against that server (tools/with-cluster.sh) instead of Debian's 15.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${PG_CONFIG:-}" ]; then
  bash tools/ensure-deps.sh r-cran-bradleyterry2 python3-rdata
  run=(pg_virtualenv)
else
  run=(bash tools/with-cluster.sh)
fi
make -s >/dev/null && make -s install >/dev/null
"${run[@]}" bash -c 'set -e
  PGOPTIONS="-c client_min_messages=warning" bash examples/load_real_games.sh
  psql -X -q -P footer=off -f examples/real_games.sql'
