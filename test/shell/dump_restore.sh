#!/usr/bin/env bash
# dump_restore.sh — pg_dump / pg_restore of a league database (ratings
# tables of both rating types, games, results of the aggregates, the record
# of closes and a history table when glicko2_close_period exists) restores
# identically: same extension version, same rows in every table (the
# extension's own record table included, which pg_dump keeps through
# pg_extension_config_dump), and the restored data rates the same.
# Run by test.sh inside the throwaway cluster (PGHOST/PGPORT set).
set -euo pipefail
src=glicko2_restore_src
dst=glicko2_restore_dst
work=$(mktemp -d)
trap 'rm -rf "$work"; dropdb --if-exists "$src"; dropdb --if-exists "$dst"' EXIT
dropdb --if-exists "$src" 2>/dev/null; dropdb --if-exists "$dst" 2>/dev/null
createdb "$src"
q() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" "${@:2}"; }

q "$src" <<'SQL'
CREATE EXTENSION glicko2;
SELECT setseed(0.3);
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL DEFAULT glicko2_rating());
INSERT INTO ratings (player_id) SELECT generate_series(1, 30);
CREATE TABLE g1_ratings (player_id int PRIMARY KEY, rating glicko1_rating);
INSERT INTO g1_ratings SELECT i, glicko1_rating(1400 + 10 * i, 50 + i) FROM generate_series(1, 30) i;
CREATE TABLE games (period int NOT NULL, player_id int NOT NULL, opponent_id int NOT NULL,
                    score float8 NOT NULL CHECK (score BETWEEN 0 AND 1));
INSERT INTO games
SELECT p, a, 1 + (a + p * 7) % 30, floor(random() * 3) / 2
FROM generate_series(1, 4) p, generate_series(1, 30) a
WHERE a <> 1 + (a + p * 7) % 30;
-- Results of the aggregate kept in a table, with ratings as array and
-- composite values nested in other types.
CREATE TABLE period1 AS
SELECT s.player_id, glicko2_period(me.rating, them.rating, s.score) AS rating,
       ARRAY[me.rating, glicko2_idle(me.rating)] AS before_and_idle
FROM games s JOIN ratings me USING (player_id) JOIN ratings them ON them.player_id = s.opponent_id
WHERE s.period = 1 GROUP BY s.player_id, me.rating;
CREATE TABLE g1_period1 AS
SELECT s.player_id, glicko1_period(me.rating, them.rating, s.score) AS rating
FROM games s JOIN g1_ratings me USING (player_id) JOIN g1_ratings them ON them.player_id = s.opponent_id
WHERE s.period = 1 GROUP BY s.player_id;
CREATE VIEW leaderboard AS
SELECT player_id, (rating).rating - 2 * (rating).rd AS conservative FROM period1;
SQL

# With the close procedure: close periods 1-3 (history where supported).
if q "$src" -Atc "SELECT count(*) FROM pg_proc WHERE proname = 'glicko2_close_period'" | grep -qv '^0$'; then
  if q "$src" -Atc "SELECT count(*) FROM pg_proc p, unnest(p.proargnames) a WHERE p.proname = 'glicko2_close_period' AND a = 'history'" | grep -qv '^0$'; then
    q "$src" -c "CREATE TABLE rating_history (player_id int, period int, rating glicko2_rating)" >/dev/null 2>&1 || true
    hist=", history => 'rating_history'"
  else
    hist=""
  fi
  # Guard the games where the extension can (glicko2_guard_games); older
  # versions closed unguarded tables with a warning only.
  if q "$src" -Atc "SELECT count(*) FROM pg_proc WHERE proname = 'glicko2_guard_games'" | grep -qv '^0$'; then
    q "$src" -c "CALL glicko2_guard_games('games')" >/dev/null
  fi
  for p in 1 2 3; do
    q "$src" -c "CALL glicko2_close_period('ratings', 'games', $p$hist)" >/dev/null
  done
  closes=$(q "$src" -Atc "SELECT count(*) FROM glicko2_closes")
  [ "$closes" -eq 3 ] || { echo "expected 3 closes before the dump, got $closes"; exit 1; }
fi

# Every table's rows (the extension's record table included), as text in a
# fixed order; pg_dump's own view of the schema, minus comments on the dump.
snapshot() {
  q "$1" -At <<'SQL'
SELECT e.extname || ' ' || e.extversion FROM pg_extension e WHERE e.extname = 'glicko2';
SELECT format('%s: %s rows, md5 %s', c.oid::regclass, (xpath('//row/n/text()', x))[1], (xpath('//row/m/text()', x))[1])
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
CROSS JOIN LATERAL query_to_xml(format(
  'SELECT count(*) AS n, md5(coalesce(string_agg(t::text, E''\n'' ORDER BY t::text), '''')) AS m FROM %s t',
  c.oid::regclass), false, false, '') x
WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
ORDER BY 1;
SELECT 'rerated: ' || md5(string_agg(r::text, ',' ORDER BY player_id))
FROM (SELECT s.player_id, glicko2_period(me.rating, them.rating, s.score) AS r
      FROM games s JOIN ratings me USING (player_id) JOIN ratings them ON them.player_id = s.opponent_id
      WHERE s.period = 4 GROUP BY s.player_id) x;
SQL
}

snapshot "$src" >"$work/before"
pg_dump -Fc -f "$work/league.dump" "$src"
createdb "$dst"
pg_restore --exit-on-error -d "$dst" "$work/league.dump"
snapshot "$dst" >"$work/after"

cat "$work/before"
if ! diff -u "$work/before" "$work/after"; then
  echo "restored database differs"; exit 1
fi
# The views and table definitions survive too.
[ "$(q "$dst" -Atc 'SELECT count(*) FROM leaderboard')" = "$(q "$src" -Atc 'SELECT count(*) FROM leaderboard')" ]
echo "dump and restore identical: $(wc -l <"$work/before") lines compared"
