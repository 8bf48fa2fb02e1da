#!/usr/bin/env bash
# bench/live.sh — the live rating trigger against a plain insert, with
# pgbench: games per second of single-row INSERTs into a games table with
# glicko2_rate_games (each game rates both players) and into the same table
# without it, 2 and 8 clients, interleaved in one run, medians of REPS runs;
# the ratio plain / live is what the trigger costs (goal: at most 2); so is
# the ratio of the backends' CPU time per game, which is steadier when other
# work shares the machine.
# Under PostgreSQL's default settings (every commit waits for its WAL flush;
# pgbench's simple protocol: each INSERT parsed and planned) and tuned for
# throughput: synchronous_commit = off (a crash may lose the last commits,
# never corrupt them), with the simple protocol and with prepared statements
# (what a game server's driver uses; the plain insert gets cheaper, so the
# ratio is the trigger's cost at its most visible).
#
# Environment: PG_CONFIG (pg_config; use a private copy, see COMMON.md),
# REPS (3), SECONDS_PER_RUN (8), PLAYERS (10000), CLIENTS ("2 8"),
# PORT (55441), BENCH_DIR (a new directory in /tmp).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_CONFIG=${PG_CONFIG:-pg_config}
REPS=${REPS:-3}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-8}
PLAYERS=${PLAYERS:-10000}
CLIENTS=${CLIENTS:-"2 8"}
PORT=${PORT:-55441}

make -s clean                  # no objects left from an assertion-enabled test build
make -s PG_CONFIG="$PG_CONFIG"
make -s install PG_CONFIG="$PG_CONFIG"

BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/glicko2-live-bench.XXXXXX)}
. bench/pgbench_common.sh

# Two games tables alike but for the trigger; the players already rated.
"$bindir/psql" -X -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE TABLE plain_games (id bigserial PRIMARY KEY, player_id int, opponent_id int, score float8,
                          played_at timestamptz);
CREATE TABLE live_games (LIKE plain_games INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON live_games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('ratings');
VACUUM ANALYZE;
SQL

for table in plain_games live_games; do
  cat >"$BENCH_DIR/$table.sql" <<SQL
\set a random(1, $PLAYERS)
\set b random(1, $PLAYERS - 1)
\set b case when :b >= :a then :b + 1 else :b end
\set s random(0, 2)
INSERT INTO $table (player_id, opponent_id, score, played_at) VALUES (:a, :b, :s / 2.0, now());
SQL
done

echo "glicko2_rate_games against a plain insert: pgbench, single-row INSERTs, $PLAYERS players,"
echo "$SECONDS_PER_RUN s per run, median of $REPS interleaved runs; $(nproc) cores, PostgreSQL $("$bindir/postgres" --version | awk '{print $3}')"
printf '%-34s %7s %10s %10s %6s   %9s %9s %6s\n' settings clients "plain tps" "live tps" ratio \
  "plain CPU" "live CPU" ratio
for settings in "defaults::-M simple" \
                "synchronous_commit=off:-c synchronous_commit=off:-M simple" \
                "synchronous_commit=off, prepared:-c synchronous_commit=off:-M prepared"; do
  IFS=: read -r name server_options pgbench_options <<<"$settings"
  for clients in $CLIENTS; do
    : >"$BENCH_DIR/plain"
    : >"$BENCH_DIR/live"
    for rep in $(seq "$REPS"); do
      run "$server_options" "$pgbench_options" plain_games "$clients" >>"$BENCH_DIR/plain"
      run "$server_options" "$pgbench_options" live_games "$clients" >>"$BENCH_DIR/live"
    done
    plain=$(cut -d' ' -f1 "$BENCH_DIR/plain" | median)
    live=$(cut -d' ' -f1 "$BENCH_DIR/live" | median)
    plain_cpu=$(cut -d' ' -f2 "$BENCH_DIR/plain" | median)
    live_cpu=$(cut -d' ' -f2 "$BENCH_DIR/live" | median)
    printf '%-34s %7s %10.0f %10.0f %6.2f   %7.0fus %7.0fus %6.2f\n' "$name" "$clients" "$plain" "$live" \
      "$(awk -v p="$plain" -v l="$live" 'BEGIN {print p / l}')" "$plain_cpu" "$live_cpu" \
      "$(awk -v p="$plain_cpu" -v l="$live_cpu" 'BEGIN {print l / p}')"
  done
done
echo "ratio: plain tps / live tps, and live / plain backend CPU time per game (the"
echo "backends' user + system time, which other load on the machine disturbs less)."
"$bindir/psql" -X -At -c "SELECT 'games rated live: ' || count(*) FROM live_games"
