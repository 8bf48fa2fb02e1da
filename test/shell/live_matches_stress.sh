#!/usr/bin/env bash
# live_matches_stress.sh — glicko2_rate_matches under concurrent writers
# (pgbench, 6 clients) writing Hunt-sized matches (12 players in teams of
# 1 to 3, some on part of the match) among 45 players of whom 5 are new:
# one match per INSERT, two matches per INSERT (which may share players),
# and rolled-back matches.  Then: no client failed (no deadlock), every
# committed match is there once, rolled-back ones left no trace, and the
# ratings are the committed statements replayed one by one in commit order,
# bit for bit.  Commit order: a statement trigger that fires after the
# rating trigger (triggers fire in name order), still holding every player's
# row lock, takes a number from a sequence; a statement sharing a player
# with it can only take its locks, and its number, after it committed;
# statements with no player in common commute.
# Then the same in a cluster of its own whose postmaster and backends are
# killed (kill -9) in the middle of the run: after crash recovery the
# ratings are the replay of the statements that committed.
set -euo pipefail
db=glicko2_live_matches_stress
dir=$(mktemp -d)
chmod 755 "$dir"
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null || true
  dropdb --if-exists "$db" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

setup_sql=$(cat <<'SQL'
CREATE EXTENSION glicko2;
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
INSERT INTO ratings
SELECT i, glicko2_rating(1300 + 10 * i, 40 + 7 * i, 0.06), now() - i * interval '5 hours'
FROM generate_series(1, 40) i;
CREATE TABLE initial AS SELECT * FROM ratings;
CREATE TABLE matches (match_id bigint, script int, player_id int, team int, place int,
                      played_at timestamptz, weight float8, PRIMARY KEY (match_id, player_id));
CREATE TRIGGER rate AFTER INSERT ON matches REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'period=1 hour');
CREATE SEQUENCE match_ids;
CREATE SEQUENCE statements;
CREATE TABLE log (n bigint, match_ids bigint[]);
CREATE FUNCTION log_statement() RETURNS trigger LANGUAGE plpgsql AS
  'BEGIN INSERT INTO log SELECT nextval(''statements''), array_agg(DISTINCT match_id) FROM n; RETURN NULL; END';
CREATE TRIGGER zz_log AFTER INSERT ON matches REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION log_statement();
-- A Hunt match: 12 of the 45 players in teams of 1 to 3, the teams in a
-- random order of places, one player in ten on half the match.
CREATE FUNCTION hunt(script int) RETURNS SETOF matches LANGUAGE plpgsql AS $$
DECLARE
  id bigint := nextval('match_ids');
  players int[] := ARRAY(SELECT p FROM generate_series(1, 45) p ORDER BY random() LIMIT 12);
  team_of int[] := '{}';
  teams int := 0;
  size int;
  place_of int[];
BEGIN
  WHILE cardinality(team_of) < 12 LOOP
    teams := teams + 1;
    size := least(1 + floor(random() * 3)::int, 12 - cardinality(team_of));
    team_of := team_of || array_fill(teams, ARRAY[size]);
  END LOOP;
  place_of := ARRAY(SELECT t FROM generate_series(1, teams) t ORDER BY random());
  RETURN QUERY SELECT id, script, players[k], team_of[k], place_of[team_of[k]], now(),
                      CASE WHEN random() < 0.1 THEN 0.5 ELSE 1 END::float8
               FROM generate_series(1, 12) k;
END $$;
-- The logged statements again, in log order, into a copy: how many
-- ratings differ from the live ones.
CREATE FUNCTION differences() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  s record;
  d bigint;
BEGIN
  CREATE TEMP TABLE replay_ratings (LIKE ratings INCLUDING ALL);
  CREATE TEMP TABLE replay_matches (LIKE matches INCLUDING ALL);
  EXECUTE 'CREATE TRIGGER rate AFTER INSERT ON replay_matches REFERENCING NEW TABLE AS n
           FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches(''' || pg_my_temp_schema()::regnamespace
           || '.replay_ratings'', ''period=1 hour'')';
  INSERT INTO replay_ratings SELECT * FROM initial;
  FOR s IN SELECT * FROM log ORDER BY n LOOP
    INSERT INTO replay_matches SELECT * FROM matches WHERE match_id = ANY (s.match_ids);
  END LOOP;
  SELECT count(*) INTO d FROM ratings r FULL JOIN replay_ratings e USING (player_id)
  WHERE r.rating IS DISTINCT FROM e.rating OR r.rated_at IS DISTINCT FROM e.rated_at;
  DROP TABLE replay_ratings, replay_matches;
  RETURN d;
END $$;
SQL
)

printf 'INSERT INTO matches SELECT * FROM hunt(1);\n' >"$dir/one.sql"
printf 'INSERT INTO matches SELECT * FROM hunt(2) UNION ALL SELECT * FROM hunt(2);\n' >"$dir/two.sql"
printf 'BEGIN;\nINSERT INTO matches SELECT * FROM hunt(3);\nROLLBACK;\n' >"$dir/rollback.sql"
scripts=(-f "$dir/one.sql@6" -f "$dir/two.sql@2" -f "$dir/rollback.sql@1")

# Every committed statement logged once, every match of it there, none of
# a rolled-back one, and the ratings equal to the replay.
check() { # database, label
  local out
  out=$(psql -X -At -F ' ' -d "$1" -c "
    SELECT (SELECT count(DISTINCT match_id) FROM matches),
           (SELECT count(*) FROM matches WHERE script = 3),
           (SELECT count(*) FROM (SELECT unnest(match_ids) FROM log) l),
           (SELECT count(*) FROM (SELECT match_id FROM matches GROUP BY match_id HAVING count(*) <> 12) b),
           (SELECT count(*) FROM ratings),
           differences()")
  read -r n_matches rolled_back logged partial players differences <<<"$out"
  echo "$2: $n_matches matches, $logged logged, rolled back $rolled_back, partial $partial, players $players, ratings differing from the replay in commit order: $differences"
  [ "$rolled_back" -eq 0 ] || { echo "a rolled-back match left a trace"; return 1; }
  [ "$logged" -eq "$n_matches" ] && [ "$partial" -eq 0 ] || { echo "a match lost, doubled or cut"; return 1; }
  [ "$differences" = 0 ] || { echo "live ratings differ from the committed matches replayed in order"; return 1; }
  CHECKED_MATCHES=$n_matches
}

# 1. In the test cluster: no retries, so no client may fail.
dropdb --if-exists "$db"
createdb "$db"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "$setup_sql"
pgbench_options=$(pgbench --help 2>&1)
verbose=$([[ $pgbench_options == *--verbose-errors* ]] && echo --verbose-errors || true)
# (-j 1: pgbench's threads add to its per-script counts without a lock; see live_stress.sh)
pgbench -n -d "$db" -c 6 -j 1 -t 40 $verbose "${scripts[@]}" >"$dir/pgbench.out" 2>&1 ||
  { cat "$dir/pgbench.out"; echo "pgbench failed (deadlock?)"; exit 1; }
grep -q '^number of transactions actually processed: 240/240' "$dir/pgbench.out" ||
  { cat "$dir/pgbench.out"; echo "not every transaction was processed"; exit 1; }
committed() { awk -v f="$1" '$0 ~ "SQL script [0-9]+: .*" f {s = 1} s && / transactions / {print $2; n = 1; exit} END {if (!n) print 0}' "$dir/pgbench.out"; }
want=$(( $(committed one.sql) + 2 * $(committed two.sql) ))
check "$db" "concurrent writers"
[ "$CHECKED_MATCHES" -eq "$want" ] || { echo "matches committed by pgbench: $want, in the table: $CHECKED_MATCHES"; exit 1; }
[ "$want" -gt 150 ] || { echo "too few matches to mean anything"; exit 1; }
new=$(psql -X -At -d "$db" -c "SELECT count(*) FROM ratings WHERE player_id > 40")
[ "$new" -eq 5 ] || { echo "expected the 5 new players added once, found $new"; exit 1; }
dropdb "$db"

# 2. A cluster of its own, killed in the middle of a run.
bindir=$("${PG_CONFIG:-pg_config}" --bindir)
as_server() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
as_server "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log"; exit 1; }
# (postgres started by this script, not pg_ctl, so that this shell reaps it
# when it is killed: a dead postmaster left a zombie would still look alive)
start() {
  as_server "$bindir/postgres" -D "$dir/data" -p 56499 -k "$dir" -c listen_addresses= \
    >>"$dir/server.log" 2>&1 &
  runner=$!
  for _ in $(seq 100); do
    "$bindir/pg_isready" -q -h "$dir" -p 56499 && break
    sleep 0.1
  done
  "$bindir/pg_isready" -q -h "$dir" -p 56499 || { cat "$dir/server.log"; exit 1; }
  server_pid=$(head -1 "$dir/data/postmaster.pid")
}
start
export PGHOST=$dir PGPORT=56499 PGUSER=postgres
createdb "$db"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "$setup_sql"
pgbench -n -d "$db" -c 6 -j 1 -T 30 "${scripts[@]}" >"$dir/crash.out" 2>&1 &
bench=$!
# Wait until some matches committed, then kill the postmaster and its
# processes at once (a crash of the whole server).
for _ in $(seq 100); do
  n=$(psql -X -At -d "$db" -c "SELECT count(*) FROM log" 2>/dev/null || echo 0)
  [ "$n" -ge 60 ] && break
  sleep 0.1
done
children=$(ps -o pid= --ppid "$server_pid" | tr '\n' ' ')
kill -9 "$server_pid" $children 2>/dev/null || true
wait "$bench" || true
wait "$runner" || true
server_pid=
grep -q 'terminat\|connection\|abort\|server closed' "$dir/crash.out" ||
  { cat "$dir/crash.out"; echo "pgbench did not see the crash"; exit 1; }
start
check "$db" "after kill -9 and crash recovery"
[ "$CHECKED_MATCHES" -ge 60 ] || { echo "too few matches before the crash"; exit 1; }
grep -q 'database system was interrupted\|not properly shut down' "$dir/server.log" ||
  { tail -20 "$dir/server.log"; echo "the server did not recover from a crash"; exit 1; }
kill -INT "$server_pid"    # (fast shutdown)
wait "$runner" || true
server_pid=
echo "live matches stress: ok"
