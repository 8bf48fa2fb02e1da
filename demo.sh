#!/usr/bin/env bash
# demo.sh — a demo league in a throwaway cluster: installs PostgreSQL 15,
# gnuplot and glicko2 if missing, plays a seeded synthetic league with hidden
# strengths period by period, prints the leaderboard with 95 % intervals, how
# close the ratings came to the hidden strengths, the tau that predicts best,
# and draws demo/out/ratings.png (ratings over time with their intervals);
# then the same games played live, one by one into a games table with the
# live rating trigger (demo/live.sql), against the period closes; then a
# free-for-all league of team matches rated both ways (demo/matches.sql).
set -euo pipefail
cd "$(dirname "$0")"
bash tools/ensure-deps.sh gnuplot-nox
# An installed Debian package is used as it is; otherwise this checkout is
# built and installed into a private copy of the server (tools/pg-copy.sh),
# so no glicko2 installed in the system's server is overwritten.
if dpkg-query -W -f='${Status}' postgresql-15-glicko2 2>/dev/null | grep -q "install ok installed"; then
  echo "using the installed package postgresql-15-glicko2"
  cluster() { pg_virtualenv "$@"; }
else
  PG_CONFIG=$(bash tools/pg-copy.sh "${TMPDIR:-/tmp}/glicko2-demo-pg")
  export PG_CONFIG
  make -s >/dev/null && make -s install >/dev/null
  cluster() { bash tools/with-cluster.sh "$@"; }
fi
mkdir -p demo/out
cluster sh -c 'psql -X -q -v ON_ERROR_STOP=1 -f demo/league.sql -f demo/live.sql &&
               psql -X -q -v ON_ERROR_STOP=1 -f demo/matches.sql'
gnuplot demo/ratings.gp
echo "picture: demo/out/ratings.png"
