#!/usr/bin/env bash
# bench/run.sh — the glicko2 benchmark, from a fresh Debian machine:
#   installs what is missing (tools/ensure-deps.sh), builds and installs the
#   extension, starts a throwaway PostgreSQL cluster owned by `postgres`,
#   builds synthetic leagues (bench/data.sql: three periods of games, indexed
#   on period) and measures, in one session per size, each query REPS times
#   interleaved:
#   - the close of period 2 for the whole ratings table against the floor
#     (reading the period's games once and rewriting every rating once) and
#     against the export path (bench/export.sh: COPY out, the npm glicko2
#     package in Node.js, COPY back, one UPDATE), end to end; the close also
#     at PostgreSQL's default work_mem and jit; peak memory of each;
#   - up to AGG_UP_TO game sides: the aggregate against count(*) GROUP BY (the
#     executor's floor), avg() (PostgreSQL's own by-reference aggregate), a
#     PL/pgSQL aggregate and set-based SQL (bench/baselines.sql), at the
#     benchmark's settings and at PostgreSQL's defaults, and with 2 workers.
#   Prints medians and ratios.
#
# Environment: REPS (5), SIZES ("100000:1000000 1000000:10000000", players:games
# a period), SLOW_UP_TO (2000000: the PL/pgSQL and set-based SQL baselines run
# only up to this many game sides, as they take minutes per run beyond),
# AGG_UP_TO (2000000: the aggregate measurements likewise), PG_CONFIG
# (pg_config), BENCH_DIR (a new directory in /tmp; ~8 GB for the large size).
# The cluster listens only on a socket in BENCH_DIR (PORT names it).
set -euo pipefail
cd "$(dirname "$0")/.."

REPS=${REPS:-5}
SIZES=${SIZES:-"100000:1000000 1000000:10000000"}
PG_CONFIG=${PG_CONFIG:-pg_config}
SLOW_UP_TO=${SLOW_UP_TO:-2000000}
AGG_UP_TO=${AGG_UP_TO:-2000000}
PORT=${PORT:-55432}
EXPORT_LABEL='export: COPY out, npm glicko2 in Node.js, COPY back, UPDATE' 

bash tools/ensure-deps.sh
make -s clean                  # no objects left from an assertion-enabled test build
make -s PG_CONFIG="$PG_CONFIG"
make -s install PG_CONFIG="$PG_CONFIG"

bindir=$("$PG_CONFIG" --bindir)
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/glicko2-bench.XXXXXX)}
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$BENCH_DIR"
chmod 755 "$BENCH_DIR"

as_pg "$bindir/initdb" -D "$BENCH_DIR/data" -A trust -U postgres --no-sync >/dev/null
# A throwaway cluster: no fsync; JIT off so that every query runs the same
# interpreted executor; work_mem large enough for 1M groups in memory.
# Parallel workers as PostgreSQL's defaults allow (2 per query); the
# aggregate measurements choose theirs (bench/measure.sql).
as_pg "$bindir/pg_ctl" -D "$BENCH_DIR/data" -l "$BENCH_DIR/server.log" -w -o "\
 -p $PORT -k $BENCH_DIR -c listen_addresses= -c shared_buffers=1GB -c work_mem=256MB \
 -c max_wal_size=20GB -c checkpoint_timeout=1h -c fsync=off -c full_page_writes=off \
 -c synchronous_commit=off -c jit=off" start >/dev/null
stop() { as_pg "$bindir/pg_ctl" -D "$BENCH_DIR/data" -m fast stop >/dev/null || true; rm -rf "$BENCH_DIR"; }
trap stop EXIT

sql() { "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$BENCH_DIR" -p "$PORT" -U postgres "$@"; }

# Peak private (anonymous) memory of the backend running a close and its
# parallel workers together, in MB: /proc/<pid>/status RssAnon summed,
# sampled every 10 ms.  Shared buffers are not
# counted; a hash table that outgrows work_mem spills to disk instead.
peak_memory() { # db label
  local db=$1 label=$2 pid peak=0 kb
  sql -d "$db" -v label="$label" >/dev/null <<'SQL' &
SET application_name = 'glicko2-bench-memory';
SELECT pg_sleep(0.5);
BEGIN;
SELECT bench.run((SELECT sql FROM bench.queries WHERE label = :'label'), 'close') \g /dev/null
ROLLBACK;
SQL
  local client=$!
  sleep 0.25
  pid=$(sql -d "$db" -Atc "SELECT pid FROM pg_stat_activity WHERE application_name = 'glicko2-bench-memory'")
  while kill -0 "$client" 2>/dev/null; do
    kb=0
    for p in $pid $(pgrep -f "parallel worker for PID $pid\$" || true); do
      kb=$((kb + $(awk '/^RssAnon/ {k = $2} END {print k + 0}' "/proc/$p/status" 2>/dev/null || echo 0)))
    done
    [ "$kb" -gt "$peak" ] && peak=$kb
    sleep 0.01
  done
  wait "$client"
  sql -d "$db" -c "VACUUM ratings" >/dev/null
  echo $((peak / 1024))
}

export PSQL="$bindir/psql -X -q -v ON_ERROR_STOP=1 -h $BENCH_DIR -p $PORT -U postgres"
(cd bench/node && npm ci --no-audit --no-fund --silent)
chmod 777 "$BENCH_DIR"            # the export path's files, written by psql's \copy as root

for size in $SIZES; do
  players=${size%%:*}
  games=${size##*:}
  db=bench_$players
  sides=$([ $((2 * games)) -le "$AGG_UP_TO" ] && echo on || echo off)
  echo "== $players players, $games games a period ($((2 * games)) game sides): building data" >&2
  sql -c "CREATE DATABASE $db"
  sql -d "$db" -c "CREATE EXTENSION glicko2"
  sql -d "$db" -v players="$players" -v games="$games" -v sides="$sides" -f bench/data.sql
  sql -d "$db" -f bench/baselines.sql

  mapfile -t closes < <(sql -d "$db" -Atc "SELECT label FROM bench.queries WHERE kind = 'close' ORDER BY ord")
  echo "== measuring ($REPS runs of each, interleaved)" >&2
  {
    echo "\\set size '$players players / $games games'"
    [ "$sides" = on ] && cat bench/measure.sql
    echo "RESET parallel_setup_cost; RESET parallel_tuple_cost;"
    echo "SET max_parallel_workers_per_gather = 0;  -- the close's pass runs on one core; so does the floor"
    echo "INSERT INTO bench.plans SELECT label, bench.plan_shape(coalesce(plan_sql, sql)) FROM bench.queries WHERE kind = 'close';"
    for rep in $(seq "$REPS"); do
      for label in "${closes[@]}"; do
        cat <<SQL
BEGIN;
SELECT wall_ms, cpu_ms FROM bench.run((SELECT sql FROM bench.queries WHERE label = '$label'), 'close') \\gset
ROLLBACK;
INSERT INTO bench.times VALUES (:'size', '$label', $rep, :wall_ms, :cpu_ms, NULL);
VACUUM ratings;
SQL
      done
      cat <<SQL
\\set export_ms \`bash bench/export.sh $db 2 $BENCH_DIR\`
INSERT INTO bench.times VALUES (:'size', '$EXPORT_LABEL', $rep, :export_ms, NULL, NULL);
VACUUM ratings;
SQL
    done
  } | sql -d "$db" -v reps="$REPS" -v slow="$([ $((2 * games)) -le "$SLOW_UP_TO" ] && echo on || echo off)"

  for label in "${closes[@]}"; do
    mb=$(peak_memory "$db" "$label")
    sql -d "$db" -c "INSERT INTO bench.memory VALUES ('$label', $mb)"
  done
  sql -d "$db" -c "INSERT INTO bench.memory VALUES ('$EXPORT_LABEL (Node.js, peak resident)', $(( $(cat "$BENCH_DIR/node.kb") / 1024 )))"
  # What the close's pass holds for its players (glicko2_close_ratings, at DEBUG1).
  pass_bytes=$(sql -d "$db" -c "SET client_min_messages = debug1" -c "BEGIN" \
                   -c "CALL glicko2_close_period('ratings', 'games', 2)" -c "ROLLBACK" 2>&1 |
               sed -n 's/.*games, \([0-9]*\) bytes for the players.*/\1/p')
  sql -d "$db" -c "VACUUM ratings" -c "INSERT INTO bench.checks VALUES ('close: memory of the pass''s table of players, bytes per player', ${pass_bytes:-0}::float8 / $players)"
  sql -d "$db" -f bench/report.sql
done
