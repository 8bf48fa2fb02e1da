#!/usr/bin/env bash
# live_stress.sh — glicko2_rate_game on Citus under concurrent writers, as
# test/shell/live_stress.sh does for the trigger on one node: 8 pgbench
# clients (4 on the coordinator, 2 on each worker), each game its own
# transaction (the rating, then the game's row), some rolled back; ratings
# and games distributed by player over 32 shards.  Then: every committed
# game is written once (games = transactions pgbench committed), rolled-back
# games leave no trace, no client failed and no node logged a deadlock, and
# the ratings are exactly the committed games applied one by one in commit
# order (each game logs clock_timestamp() after it holds both players'
# locks, which it keeps until its two-phase commit ends), every bit.
# Run by tools/citus.sh (PGHOST, PGUSER, CITUS_PORT, CITUS_DIR).
#   LIVE_GAMES   transactions per client (default 2632: 21 056, of which one
#                in 20 is rolled back: about 20 000 games)
#   LIVE_SECONDS run this long instead (the throughput run), and report games
#                per second (the slowest 10 s and overall) and the p99 latency
#   LIVE_PLAYERS players (default 50, of whom 5 are new)
set -euo pipefail
: "${CITUS_PORT:?run by tools/citus.sh}"
games=${LIVE_GAMES:-2632}
seconds=${LIVE_SECONDS:-}
players=${LIVE_PLAYERS:-50}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sql() { psql -X -q -v ON_ERROR_STOP=1 -p "$CITUS_PORT" "$@"; }
. "$(dirname "$0")/../../tools/citus-pgbench.sh"

sql >/dev/null <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS live_stress_ratings, live_stress_initial, live_stress_games;
CREATE TABLE live_stress_ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
SELECT create_distributed_table('live_stress_ratings', 'player_id', shard_count => 32);
INSERT INTO live_stress_ratings
SELECT i, glicko2_rating(1300 + 600.0 * i / $players, 40 + 300.0 * i / $players, 0.06),
       now() - i * interval '5 minutes'
FROM generate_series(1, $players - 5) i;
CREATE TABLE live_stress_initial AS SELECT * FROM live_stress_ratings;
CREATE TABLE live_stress_games (id bigserial, player_id int, opponent_id int, score float8,
                                played_at timestamptz, logged_at timestamptz, origin int);
SELECT create_distributed_table('live_stress_games', 'player_id', colocate_with => 'live_stress_ratings');
SQL
sql -At -c "SELECT format('ratings: %s shards on %s workers, %s players', count(*), count(DISTINCT groupid), $players)
            FROM pg_dist_shard JOIN pg_dist_placement USING (shardid)
            WHERE logicalrelid = 'live_stress_ratings'::regclass"

# Two random players a != b, a score of 0, 0.5 or 1; the game rated, then
# written with the time it was rated (both rows locked since).
cat >"$dir/game.sql" <<SQL
\set a random(1, $players)
\set b random(1, $players - 1)
\set b case when :b >= :a then :b + 1 else :b end
\set s random(0, 2)
BEGIN;
SELECT glicko2_rate_game('live_stress_ratings', :a, :b, :s / 2.0, now(), 'period=1 hour');
INSERT INTO live_stress_games (player_id, opponent_id, score, played_at, logged_at, origin)
VALUES (:a, :b, :s / 2.0, now(), clock_timestamp(), :origin);
COMMIT;
SQL
sed 's/^COMMIT;/ROLLBACK;/; s/:origin/-1/' "$dir/game.sql" >"$dir/rollback.sql"

# Coordinator 4 clients, each worker 2, at once (tools/citus-pgbench.sh).
if [ -n "$seconds" ]; then run=(-T "$seconds"); else run=(-t "$games"); fi
CITUS_PGBENCH_LATENCY=1 citus_pgbench "$dir" game.sql "${run[@]}"
want=$citus_committed
read -r got rolled_back < <(psql -X -At -F ' ' -p "$CITUS_PORT" -c "
  SELECT count(*) FILTER (WHERE origin >= 0), count(*) FILTER (WHERE origin < 0) FROM live_stress_games")
echo "games committed $want, written $got, rolled back and written $rolled_back"
[ "$got" -eq "$want" ] || { echo "games lost or duplicated"; exit 1; }
[ "$rolled_back" -eq 0 ] || { echo "a rolled-back game left a trace"; exit 1; }
[ -n "$seconds" ] || [ "$got" -ge $((8 * games * 9 / 10)) ] || { echo "too few games"; exit 1; }

if [ -n "$seconds" ]; then
  # Games per second: overall, and in the slowest whole 10 s (the run's first
  # and last 10 s left out); the latency of a committed game, p50 and p99.
  sql -At <<'SQL'
CREATE TEMP TABLE at AS SELECT logged_at FROM live_stress_games;
WITH b AS (SELECT date_bin('10 s', logged_at, (SELECT min(logged_at) FROM at)) AS t, count(*) AS n
           FROM at GROUP BY 1),
     whole AS (SELECT * FROM b WHERE t > (SELECT min(t) FROM b) AND t < (SELECT max(t) FROM b))
SELECT format('games/s overall %s, in the slowest whole 10 s %s, the fastest %s (%s windows)',
              round(count(*) / extract(epoch FROM max(logged_at) - min(logged_at))::numeric, 1),
              (SELECT round(min(n) / 10.0, 1) FROM whole), (SELECT round(max(n) / 10.0, 1) FROM whole),
              (SELECT count(*) FROM whole))
FROM at;
SQL
  # pgbench's log: client, transaction, latency (us), script (0: game.sql), ...
  cat "$dir"/lat*.* | awk '$4 == 0 {print $3}' | sort -n >"$dir/latency"
  n=$(wc -l <"$dir/latency")
  echo "latency of a game (ms): p50 $(awk -v n="$n" 'NR == int(n * 0.5) + 1 {printf "%.1f", $1 / 1000}' "$dir/latency"), p99 $(awk -v n="$n" 'NR == int(n * 0.99) + 1 {printf "%.1f", $1 / 1000}' "$dir/latency"), max $(tail -1 "$dir/latency" | awk '{printf "%.1f", $1 / 1000}') ($n games)"
fi

# The committed games one by one in commit order, with glicko2_rating_at and
# glicko2_game: every rating and rated_at bit for bit.
differences=$(sql -At <<SQL
CREATE TEMP TABLE expected AS SELECT * FROM live_stress_initial;
CREATE TEMP TABLE replay_games AS SELECT *, logged_at AS at FROM live_stress_games;
\i $(dirname "$0")/../shell/live_replay.sql
SELECT count(*) FROM live_stress_ratings r FULL JOIN expected e USING (player_id)
WHERE r.rating IS DISTINCT FROM e.rating OR r.rated_at IS DISTINCT FROM e.rated_at;
SQL
)
rated=$(psql -X -At -p "$CITUS_PORT" -c "SELECT count(*) FROM live_stress_ratings")
echo "players $rated, ratings differing from the committed games replayed in commit order: $differences"
[ "$rated" -eq "$players" ] || { echo "expected $players players"; exit 1; }
[ "$differences" = 0 ] || { echo "live ratings differ from the committed games replayed in order"; exit 1; }
sql -c "DROP TABLE live_stress_ratings, live_stress_initial, live_stress_games"
echo "live stress on Citus: ok"
