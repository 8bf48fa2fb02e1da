#!/usr/bin/env bash
# bench/live_matches.sh — glicko2_rate_matches against the plain INSERT of
# the same match rows, with pgbench: one match per INSERT statement (a CTE
# numbering it from a sequence, then its rows), into a matches table with the
# trigger and into the same table without it, Hunt-sized (12 rows: teams of
# 3, 3, 2, 2, 1 and 1) and 12v12 (24 rows), interleaved runs, medians of
# REPS; matches per second and the backends' CPU time per match (steadier
# when other work shares the machine); the ratio live / plain is what the
# trigger costs (goal: at most 2).  Under PostgreSQL's defaults (every
# commit waits for its WAL flush; pgbench's simple protocol) and with
# synchronous_commit = off, simple and prepared.
#
# The decomposition, in the same interleaved runs: three more tables alike
# but for a PL/pgSQL statement trigger with the same transition table, each
# a floor under the live trigger's cost: one that does nothing (what any
# AFTER ... REFERENCING NEW TABLE ... FOR EACH STATEMENT trigger costs); one
# that only locks the players' ratings rows in key order (SELECT ... ORDER
# BY key FOR NO KEY UPDATE, as the live trigger's lock); one that locks
# them and then rewrites each once by TID (no checks, no mathematics).
# And the live trigger on a matches table with a party column (the first two
# players of each team of two or more a party) and party and size
# advantages (+40, +25): what premade parties and uneven teams cost; with a
# teammates store ('teammates=...', each its own store, grown by the runs:
# random seating makes every pair of teammates one, at most 4 a player);
# and with both.  Last, the floor under the store: a PL/pgSQL statement
# trigger that locks and rewrites the players' rows as the third floor does
# and, between, locks the same store's rows of its players FOR UPDATE in
# (player_a, player_b) order (as the live trigger), reads their partners'
# ratings and rewrites each locked pair once by TID: the row work any
# trigger keeping a row a pair with the live trigger's locks must do, with
# no mathematics, no new pair inserted and none deleted.  And the least any
# store can cost, whatever its layout: today's trigger without a store, and
# beside it a PL/pgSQL statement trigger that locks one row per player of the
# match (his pairs in arrays, a table of 4 partners a player) in key order
# and rewrites each once by TID: a player's covariances change whenever he
# plays, so a store kept in the match's transaction writes at least a row
# version per player; partners' rows, reads and the solves come on top.
#
# Environment: PG_CONFIG (pg_config; use a private copy, see COMMON.md),
# REPS (3), SECONDS_PER_RUN (6), PLAYERS (10000), CLIENTS ("4"),
# PORT (55442), BENCH_DIR (a new directory in /tmp), SETTINGS (all;
# "defaults": PostgreSQL's defaults only).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_CONFIG=${PG_CONFIG:-pg_config}
REPS=${REPS:-3}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-6}
PLAYERS=${PLAYERS:-10000}
CLIENTS=${CLIENTS:-4}
PORT=${PORT:-55442}

make -s clean                  # no objects left from an assertion-enabled test build
make -s PG_CONFIG="$PG_CONFIG"
make -s install PG_CONFIG="$PG_CONFIG"

BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/glicko2-live-matches-bench.XXXXXX)}
. bench/pgbench_common.sh

# Two matches tables alike but for the trigger; the players already rated.
"$bindir/psql" -X -q -v ON_ERROR_STOP=1 <<'SQL'
CREATE SEQUENCE match_ids;
CREATE TABLE plain_matches (match_id bigint, player_id int, team int, place int, played_at timestamptz,
                            PRIMARY KEY (match_id, player_id));
CREATE TABLE live_matches (LIKE plain_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON live_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings');
-- The floors (the decomposition).
CREATE FUNCTION nothing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
CREATE FUNCTION lock_players() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM FROM ratings r WHERE r.player_id = ANY (ARRAY(SELECT player_id FROM new_matches))
    ORDER BY r.player_id FOR NO KEY UPDATE;
  RETURN NULL;
END $$;
CREATE FUNCTION lock_and_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tids tid[] := ARRAY(SELECT r.ctid FROM ratings r
                      WHERE r.player_id = ANY (ARRAY(SELECT player_id FROM new_matches))
                      ORDER BY r.player_id FOR NO KEY UPDATE);
BEGIN
  UPDATE ratings r SET rating = r.rating, rated_at = r.rated_at FROM unnest(tids) v(tid) WHERE r.ctid = v.tid;
  RETURN NULL;
END $$;
CREATE TABLE noop_matches (LIKE plain_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON noop_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION nothing();
CREATE TABLE lock_matches (LIKE plain_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON lock_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION lock_players();
CREATE TABLE write_matches (LIKE plain_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON write_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION lock_and_write();
CREATE TABLE party_matches (LIKE plain_matches INCLUDING ALL, party int);
CREATE TRIGGER rate AFTER INSERT ON party_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'party_column=party',
                                                           'party_advantage=40', 'size_advantage=25');
CALL glicko2_teammates_create('teammates', 'ratings');
CREATE TABLE store_matches (LIKE plain_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON store_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'teammates=teammates');
CALL glicko2_teammates_create('teammates_party', 'ratings');
CREATE FUNCTION store_floor() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  players int[] := ARRAY(SELECT DISTINCT player_id FROM new_matches);
  tids tid[] := ARRAY(SELECT r.ctid FROM ratings r WHERE r.player_id = ANY (players)
                      ORDER BY r.player_id FOR NO KEY UPDATE);
  pairs tid[];
  partners int[];
BEGIN
  SELECT array_agg(x.tid), array_agg(x.partner) INTO pairs, partners
  FROM (SELECT s.ctid AS tid, CASE WHEN s.player_a = ANY (players) THEN s.player_b ELSE s.player_a END AS partner
        FROM teammates s WHERE s.player_a = ANY (players) OR s.player_b = ANY (players)
        ORDER BY s.player_a, s.player_b FOR UPDATE OF s) x;
  PERFORM count(r.rating) FROM ratings r WHERE r.player_id = ANY (partners) AND r.player_id <> ALL (players);
  UPDATE ratings r SET rating = r.rating, rated_at = r.rated_at FROM unnest(tids) v(tid) WHERE r.ctid = v.tid;
  UPDATE teammates s SET covariance = s.covariance FROM unnest(pairs) v(tid) WHERE s.ctid = v.tid;
  RETURN NULL;
END $$;
CREATE TABLE floor_matches (LIKE plain_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON floor_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION store_floor();
CREATE TABLE player_store (player_id int PRIMARY KEY, partners int[], covariances float8[])
  WITH (fillfactor = 50);
INSERT INTO player_store
  SELECT player_id, ARRAY[player_id + 1, player_id + 2, player_id + 3, player_id + 4], '{-0.1,-0.1,-0.1,-0.1}'
  FROM ratings;
CREATE FUNCTION least_store() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tids tid[] := ARRAY(SELECT s.ctid FROM player_store s
                      WHERE s.player_id = ANY (ARRAY(SELECT player_id FROM new_matches))
                      ORDER BY s.player_id FOR UPDATE);
BEGIN
  UPDATE player_store s SET covariances = s.covariances FROM unnest(tids) v(tid) WHERE s.ctid = v.tid;
  RETURN NULL;
END $$;
CREATE TABLE least_matches (LIKE plain_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON least_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings');
CREATE TRIGGER store AFTER INSERT ON least_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION least_store();
CREATE TABLE store_party_matches (LIKE party_matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON store_party_matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'party_column=party',
                                                           'party_advantage=40', 'size_advantage=25',
                                                           'teammates=teammates_party');
VACUUM ANALYZE;
SQL

# One match: players base + i * step (distinct: 24 * 100 < PLAYERS), in
# teams of the given sizes, team t in place t; party_matches' rows with a
# party (team t's first two players when it has two or more).
script() { # table sizes...
  local table=$1 i=0 t=0 rows=() size k party cols="v(p, t, pl)" extra=""
  shift
  case $table in *party_matches) cols="v(p, t, pl, party)" extra=", v.party" ;; esac
  for size in "$@"; do
    t=$((t + 1))
    for k in $(seq "$size"); do
      party=""
      if [ "$cols" != "v(p, t, pl)" ]; then
        party=", NULL"
        [ "$size" -ge 2 ] && [ "$k" -le 2 ] && party=", $t"
      fi
      rows+=("(1 + (:base + $i * :step) % $PLAYERS, $t, $t$party)")
      i=$((i + 1))
    done
  done
  printf '\\set base random(0, %d)\n\\set step random(1, 100)\n' "$((PLAYERS - 1))"
  printf 'WITH m AS (SELECT nextval('"'"'match_ids'"'"') AS id) INSERT INTO %s SELECT m.id, v.p, v.t, v.pl, now()%s FROM m, (VALUES %s) %s;\n' \
    "$table" "$extra" "$(IFS=,; echo "${rows[*]}")" "$cols"
}
tables="plain_matches noop_matches lock_matches write_matches live_matches party_matches store_matches store_party_matches floor_matches least_matches"
for table in $tables; do
  script "$table" 3 3 2 2 1 1 >"$BENCH_DIR/$table-12.sql"
  script "$table" 12 12 >"$BENCH_DIR/$table-24.sql"
done

echo "glicko2_rate_matches against a plain insert: pgbench, one match per INSERT, $PLAYERS players,"
echo "$SECONDS_PER_RUN s per run, median of $REPS interleaved runs; $(nproc) cores, PostgreSQL $("$bindir/postgres" --version | awk '{print $3}')"
results=()
all_settings=("defaults::-M simple"
              "synchronous_commit=off:-c synchronous_commit=off:-M simple"
              "synchronous_commit=off, prepared:-c synchronous_commit=off:-M prepared")
[ "${SETTINGS:-all}" = defaults ] && all_settings=("${all_settings[0]}")
for settings in "${all_settings[@]}"; do
  IFS=: read -r name server_options pgbench_options <<<"$settings"
  for rows in 12 24; do
    for clients in $CLIENTS; do
      for table in $tables; do : >"$BENCH_DIR/$table"; done
      for rep in $(seq "$REPS"); do
        for table in $tables; do
          run "$server_options" "$pgbench_options" "$table-$rows" "$clients" >>"$BENCH_DIR/$table"
        done
      done
      line="$name:$rows:$clients"
      for table in $tables; do
        line+=":$(cut -d' ' -f1 "$BENCH_DIR/$table" | median):$(cut -d' ' -f2 "$BENCH_DIR/$table" | median)"
      done
      results+=("$line")
    done
  done
done
printf '%-34s %4s %7s %10s %10s %6s   %9s %9s %6s\n' settings rows clients "plain m/s" "live m/s" ratio \
  "plain CPU" "live CPU" ratio
for line in "${results[@]}"; do
  IFS=: read -r name rows clients plain plain_cpu _ _ _ _ _ _ live live_cpu _ <<<"$line"
  printf '%-34s %4s %7s %10.0f %10.0f %6.2f   %7.0fus %7.0fus %6.2f\n' "$name" "$rows" "$clients" \
    "$plain" "$live" "$(awk -v p="$plain" -v l="$live" 'BEGIN {print p / l}')" "$plain_cpu" "$live_cpu" \
    "$(awk -v p="$plain_cpu" -v l="$live_cpu" 'BEGIN {print l / p}')"
done
echo "ratio: plain matches per second / live, and live / plain backend CPU time per match (the"
echo "backends' user + system time, which other load on the machine disturbs less)."
echo
echo "With parties: the live trigger with a party column and party and size advantages, same runs"
printf '%-34s %4s %7s %10s %10s %6s   %9s %9s %6s %14s\n' settings rows clients "plain m/s" "party m/s" ratio \
  "plain CPU" "party CPU" ratio "party / live"
for line in "${results[@]}"; do
  IFS=: read -r name rows clients plain plain_cpu _ _ _ _ _ _ _ live_cpu party party_cpu _ <<<"$line"
  printf '%-34s %4s %7s %10.0f %10.0f %6.2f   %7.0fus %7.0fus %6.2f %14.3f\n' "$name" "$rows" "$clients" \
    "$plain" "$party" "$(awk -v p="$plain" -v l="$party" 'BEGIN {print p / l}')" "$plain_cpu" "$party_cpu" \
    "$(awk -v p="$plain_cpu" -v l="$party_cpu" 'BEGIN {print l / p}')" \
    "$(awk -v p="$party_cpu" -v l="$live_cpu" 'BEGIN {print p / l}')"
done
echo
echo "With a teammates store ('teammates='), and with it and the parties, same runs"
printf '%-34s %4s %7s %10s %10s %6s %10s %6s   %9s %9s %13s %13s\n' settings rows clients "plain m/s" "store m/s" ratio \
  "s+p m/s" ratio "plain CPU" "store CPU" "store / live" "s+p / party"
for line in "${results[@]}"; do
  IFS=: read -r name rows clients plain plain_cpu _ _ _ _ _ _ _ live_cpu _ party_cpu store store_cpu sp sp_cpu _ <<<"$line"
  printf '%-34s %4s %7s %10.0f %10.0f %6.2f %10.0f %6.2f   %7.0fus %7.0fus %13.3f %13.3f\n' "$name" "$rows" "$clients" \
    "$plain" "$store" "$(awk -v p="$plain" -v l="$store" 'BEGIN {print p / l}')" \
    "$sp" "$(awk -v p="$plain" -v l="$sp" 'BEGIN {print p / l}')" "$plain_cpu" "$store_cpu" \
    "$(awk -v p="$store_cpu" -v l="$live_cpu" 'BEGIN {print p / l}')" \
    "$(awk -v p="$sp_cpu" -v l="$party_cpu" 'BEGIN {print p / l}')"
done
echo
echo "Decomposition, same runs: backend CPU per match (and / plain) with a PL/pgSQL statement"
echo "trigger on the same transition table that does nothing; that locks the players' rows in"
echo "key order; that locks them and rewrites each once by TID; and glicko2_rate_matches."
printf '%-34s %4s %7s %9s %15s %15s %15s %15s\n' settings rows clients plain "no-op" "lock" \
  "lock + write" "live"
for line in "${results[@]}"; do
  IFS=: read -r name rows clients _ plain_cpu _ noop_cpu _ lock_cpu _ write_cpu _ live_cpu _ <<<"$line"
  printf '%-34s %4s %7s %7.0fus' "$name" "$rows" "$clients" "$plain_cpu"
  for cpu in "$noop_cpu" "$lock_cpu" "$write_cpu" "$live_cpu"; do
    printf ' %7.0fus %5.2f' "$cpu" "$(awk -v p="$plain_cpu" -v c="$cpu" 'BEGIN {print c / p}')"
  done
  echo
done
echo "matches per second (and plain / each):"
for line in "${results[@]}"; do
  IFS=: read -r name rows clients plain _ noop _ lock _ write _ live _ _ <<<"$line"
  printf '%-34s %4s %7s %9.0f' "$name" "$rows" "$clients" "$plain"
  for tps in "$noop" "$lock" "$write" "$live"; do
    printf ' %9.0f %5.2f' "$tps" "$(awk -v p="$plain" -v t="$tps" 'BEGIN {print p / t}')"
  done
  echo
done
echo
echo "The store's floor, same runs: backend CPU per match (and / plain) of the third floor (lock and"
echo "rewrite the players' rows), of the store's floor (that, and lock the store's rows of the players,"
echo "read their partners' ratings, rewrite each locked pair once), of the trigger with the store;"
echo "and the trigger with the store / the store's floor."
printf '%-34s %4s %7s %9s %15s %15s %15s %12s\n' settings rows clients plain "lock + write" "store floor" \
  "store" "store/floor"
for line in "${results[@]}"; do
  IFS=: read -r name rows clients _ plain_cpu _ _ _ _ _ write_cpu _ _ _ _ _ store_cpu _ _ _ floor_cpu _ <<<"$line"
  printf '%-34s %4s %7s %7.0fus' "$name" "$rows" "$clients" "$plain_cpu"
  for cpu in "$write_cpu" "$floor_cpu" "$store_cpu"; do
    printf ' %7.0fus %5.2f' "$cpu" "$(awk -v p="$plain_cpu" -v c="$cpu" 'BEGIN {print c / p}')"
  done
  printf ' %12.3f\n' "$(awk -v s="$store_cpu" -v f="$floor_cpu" 'BEGIN {print s / f}')"
done
echo
echo "The least store, same runs: backend CPU per match (and / plain) of the trigger without a"
echo "store, of the least any store can cost (that trigger, and a row per player of the match"
echo "locked and rewritten: the store's writes alone, no partner, no read, no solve), and of the"
echo "trigger with the store; the goal is at most 2 x plain."
printf '%-34s %4s %7s %9s %15s %15s %15s\n' settings rows clients plain "live" "least store" "store"
for line in "${results[@]}"; do
  IFS=: read -r name rows clients _ plain_cpu _ _ _ _ _ _ _ live_cpu _ _ _ store_cpu _ _ _ _ _ least_cpu <<<"$line"
  printf '%-34s %4s %7s %7.0fus' "$name" "$rows" "$clients" "$plain_cpu"
  for cpu in "$live_cpu" "$least_cpu" "$store_cpu"; do
    printf ' %7.0fus %5.2f' "$cpu" "$(awk -v p="$plain_cpu" -v c="$cpu" 'BEGIN {print c / p}')"
  done
  echo
done
"$bindir/psql" -X -At -c "SELECT 'matches rated live: ' || count(DISTINCT match_id) || ', rows ' || count(*) FROM live_matches"
"$bindir/psql" -X -At -c "SELECT 'ratings moved: ' || count(*) FROM ratings WHERE rated_at > now() - interval '1 hour'"
"$bindir/psql" -X -At -c "SELECT 'teammates store: ' || count(*) || ' pairs, ' || count(DISTINCT p) || ' players, median |correlation| ' || round(CAST(percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(c)) AS numeric), 3) FROM (SELECT s.player_a AS p, s.covariance / ((a.rating).rd * (b.rating).rd) AS c FROM teammates s JOIN ratings a ON a.player_id = s.player_a JOIN ratings b ON b.player_id = s.player_b) x"
