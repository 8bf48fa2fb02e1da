#!/usr/bin/env bash
# live_match_stress.sh — glicko2_rate_match on Citus under concurrent
# writers, as live_stress.sh does for glicko2_rate_game: 8 pgbench clients
# (4 on the coordinator, 2 on each worker), each 2 v 2 match its own
# transaction (its four rows, then the rating), some rolled back; ratings
# distributed by player, matches and their log by match id, 32 shards each.
# Then: every committed match is written and rated once (its log row: logged
# = transactions pgbench committed, four rows each), rolled-back matches
# leave no trace, no client failed and no node logged a deadlock, and the
# ratings are exactly the committed matches rated one statement each by the
# trigger glicko2_rate_matches on a plain table, in the order they took
# their locks (each logs clock_timestamp() after it holds its players'
# locks, which it keeps until its two-phase commit ends), every bit.
# Run by tools/citus.sh (PGHOST, PGUSER, CITUS_PORT, CITUS_DIR).
#   LIVE_MATCHES transactions per client (default 500: 4 000, of which one in
#                20 is rolled back)
#   LIVE_PLAYERS players (default 50, of whom 5 are new)
set -euo pipefail
: "${CITUS_PORT:?run by tools/citus.sh}"
matches=${LIVE_MATCHES:-500}
players=${LIVE_PLAYERS:-50}
options="'method=mean', 'period=1 hour', 'max_rd=300'"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sql() { psql -X -q -v ON_ERROR_STOP=1 -p "$CITUS_PORT" "$@"; }
. "$(dirname "$0")/../../tools/citus-pgbench.sh"

sql >/dev/null <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS lms_ratings, lms_initial, lms_matches, lms_log, lms_expected, lms_replay;
CREATE TABLE lms_ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
SELECT create_distributed_table('lms_ratings', 'player_id', shard_count => 32);
INSERT INTO lms_ratings
SELECT i, glicko2_rating(1300 + 600.0 * i / $players, 40 + 300.0 * i / $players, 0.06),
       now() - i * interval '5 minutes'
FROM generate_series(1, $players - 5) i;
CREATE TABLE lms_initial AS SELECT * FROM lms_ratings;
CREATE TABLE lms_matches (match_id bigint, player_id int, team int, place int, played_at timestamptz,
                          PRIMARY KEY (match_id, player_id));
SELECT create_distributed_table('lms_matches', 'match_id', shard_count => 32, colocate_with => 'none');
CREATE TABLE lms_log (match_id bigint, logged_at timestamptz, origin int);
SELECT create_distributed_table('lms_log', 'match_id', colocate_with => 'lms_matches');
SQL

# Four distinct players (offsets from a, each step at least 1, together
# less than the players), two teams of two: a win, a loss or a draw; the
# match's rows, its rating, then its log row with the time it was rated
# (its players' rows locked since).  Match ids are random 62-bit numbers.
step=$(((players - 1) / 3))
cat >"$dir/match.sql" <<SQL
\set m random(1, 4611686018427387903)
\set a random(0, $players - 1)
\set d1 random(1, $step)
\set d2 random(1, $step)
\set d3 random(1, $step)
\set r random(0, 2)
\set w1 case when :r = 1 then 2 else 1 end
\set w2 case when :r = 0 then 2 else 1 end
BEGIN;
INSERT INTO lms_matches VALUES
  (:m, :a + 1, 1, :w1, now()), (:m, (:a + :d1) % $players + 1, 1, :w1, now()),
  (:m, (:a + :d1 + :d2) % $players + 1, 2, :w2, now()),
  (:m, (:a + :d1 + :d2 + :d3) % $players + 1, 2, :w2, now());
SELECT glicko2_rate_match('lms_ratings', 'lms_matches', :m, $options);
INSERT INTO lms_log VALUES (:m, clock_timestamp(), :origin);
COMMIT;
SQL
sed 's/^COMMIT;/ROLLBACK;/; s/:origin/-1/' "$dir/match.sql" >"$dir/rollback.sql"

# Coordinator 4 clients, each worker 2, at once (tools/citus-pgbench.sh).
citus_pgbench "$dir" match.sql -t "$matches"
want=$citus_committed
read -r got rolled_back < <(psql -X -At -F ' ' -p "$CITUS_PORT" -c "
  SELECT count(*) FILTER (WHERE origin >= 0), count(*) FILTER (WHERE origin < 0) FROM lms_log")
rows=$(psql -X -At -p "$CITUS_PORT" -c "SELECT count(*) FROM lms_matches")
echo "matches committed $want, logged $got (rows $rows), rolled back and logged $rolled_back"
[ "$got" -eq "$want" ] || { echo "matches lost or duplicated"; exit 1; }
[ "$rows" -eq $((4 * want)) ] || { echo "match rows lost, duplicated or left by a rollback"; exit 1; }
[ "$rolled_back" -eq 0 ] || { echo "a rolled-back match left a trace"; exit 1; }
[ "$got" -ge $((8 * matches * 9 / 10)) ] || { echo "too few matches"; exit 1; }

# The committed matches, one statement each in the order they were rated,
# into a plain table whose trigger rates a plain copy of the initial
# ratings: every rating and rated_at bit for bit.
differences=$(sql -At <<SQL
SET client_min_messages = warning;
CREATE TABLE lms_expected AS SELECT * FROM lms_initial;
ALTER TABLE lms_expected ADD PRIMARY KEY (player_id);
CREATE TABLE lms_replay (LIKE lms_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON lms_replay REFERENCING NEW TABLE AS new FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('lms_expected', $options);
CREATE TEMP TABLE rated AS
SELECT m.*, l.logged_at FROM lms_matches m JOIN lms_log l USING (match_id);
DO \$\$
DECLARE
  x record;
BEGIN
  FOR x IN SELECT match_id FROM rated GROUP BY match_id ORDER BY min(logged_at) LOOP
    INSERT INTO lms_replay SELECT match_id, player_id, team, place, played_at FROM rated
    WHERE match_id = x.match_id;
  END LOOP;
END \$\$;
SELECT count(*) FROM lms_ratings r FULL JOIN lms_expected e USING (player_id)
WHERE r.rating IS DISTINCT FROM e.rating OR r.rated_at IS DISTINCT FROM e.rated_at;
SQL
)
rated=$(psql -X -At -p "$CITUS_PORT" -c "SELECT count(*) FROM lms_ratings")
echo "players $rated, ratings differing from the committed matches rated in lock order by the trigger: $differences"
[ "$rated" -eq "$players" ] || { echo "expected $players players"; exit 1; }
[ "$differences" = 0 ] || { echo "live ratings differ from the trigger's in lock order"; exit 1; }
sql -c "DROP TABLE lms_ratings, lms_initial, lms_matches, lms_log, lms_expected, lms_replay"
echo "live match stress on Citus: ok"
