#!/usr/bin/env bash
# bench/matchmaking.sh — matchmaking speed and fairness (bench/matchmaking.sql)
# in a throwaway cluster of the server PG_CONFIG names, first with
# PostgreSQL's default settings, then tuned (shared_buffers 1GB, work_mem
# 64MB); last the heuristic's gap to the exact balance (test/unit/matchmaking_test
# --gap).  Environment: PG_CONFIG (pg_config), REPS (5), PLAYERS (100000),
# LOBBY_PLAYERS (10000), PORT (55433; the socket is in a new directory).
set -euo pipefail
cd "$(dirname "$0")/.."
PG_CONFIG=${PG_CONFIG:-pg_config}
REPS=${REPS:-5}
PLAYERS=${PLAYERS:-100000}
LOBBY_PLAYERS=${LOBBY_PLAYERS:-10000}
PORT=${PORT:-55433}

make -s clean                  # no objects left from an assertion-enabled test build
make -s PG_CONFIG="$PG_CONFIG"
make -s install PG_CONFIG="$PG_CONFIG"

bindir=$("$PG_CONFIG" --bindir)
dir=$(mktemp -d /tmp/glicko2-mm-bench.XXXXXX)
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
chmod 755 "$dir"
as_pg "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync >/dev/null
stop() { as_pg "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true; }
trap 'stop; rm -rf "$dir"' EXIT

run() { # label, extra server options
  echo "== $1"
  as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $PORT -k $dir -c listen_addresses= $2" start >/dev/null
  PGOPTIONS="-c bench.reps=$REPS" "$bindir/psql" -X -q -h "$dir" -p "$PORT" -U postgres -d postgres \
    -v players="$PLAYERS" -v lobby_players="$LOBBY_PLAYERS" -f bench/matchmaking.sql
  stop
}
echo "matchmaking benchmark: $PLAYERS players to pair, $LOBBY_PLAYERS into 5v5 lobbies, $REPS repetitions, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
run "PostgreSQL's default settings" ""
run "tuned: shared_buffers 1GB, work_mem 64MB" "-c shared_buffers=1GB -c work_mem=64MB"
echo "== glicko2_balance beyond the exact search: the heuristic's gap to the exact split (C, no server)"
make -s test/unit/matchmaking_test PG_CONFIG="$PG_CONFIG"
test/unit/matchmaking_test --gap
