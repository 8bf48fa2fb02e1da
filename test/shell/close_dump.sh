#!/usr/bin/env bash
# close_dump.sh — guarantee 7: the record of closes (glicko2_closes) and the
# history survive pg_dump / restore with the database.
set -euo pipefail
src=glicko2_dump_src
dst=glicko2_dump_dst
cleanup() { dropdb --if-exists "$src"; dropdb --if-exists "$dst"; }
trap cleanup EXIT
cleanup
createdb "$src"
createdb "$dst"
psql -X -q -v ON_ERROR_STOP=1 -d "$src" <<'SQL'
CREATE EXTENSION glicko2;
CREATE SCHEMA league;
CREATE TABLE league.ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE league.games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('league.games');
CREATE TABLE league.history (player_id int, period int, rating glicko2_rating);  -- 2 + 3 rows
INSERT INTO league.games VALUES (1, 1, 2, 1), (2, 2, 3, 0.5);
CALL glicko2_close_period('league.ratings', 'league.games', 1, history => 'league.history');
CALL glicko2_close_period('league.ratings', 'league.games', 2, history => 'league.history');
SQL
pg_dump -d "$src" | psql -X -q -v ON_ERROR_STOP=1 -d "$dst" >/dev/null

query="SELECT ratings::text, period, close_number, games_table::text, closed_at, players, played, new_players, games, tau, max_rd
       FROM glicko2_closes ORDER BY ratings::text, close_number"
before=$(psql -X -At -d "$src" -c "$query")
after=$(psql -X -At -d "$dst" -c "$query")
echo "before: $before"
echo "after:  $after"
[ "$(echo "$before" | wc -l)" -eq 2 ] || { echo "expected 2 closes"; exit 1; }
[ "$before" = "$after" ] || { echo "glicko2_closes differs after restore"; exit 1; }
[ "$(psql -X -At -d "$dst" -c 'SELECT count(*) FROM league.history')" -eq 5 ] || { echo "history lost"; exit 1; }
# The restored record still makes closes exactly once, and the guard still refuses.
out=$(psql -X -q -d "$dst" -c "CALL glicko2_close_period('league.ratings', 'league.games', 2)" 2>&1 || true)
if grep -q 'already closed' <<<"$out"; then
  echo "restored: period 2 already closed"
else
  echo "restored database lets period 2 close again"; exit 1
fi
out=$(psql -X -q -d "$dst" -c "INSERT INTO league.games VALUES (2, 1, 3, 1)" 2>&1 || true)
if grep -q 'refused' <<<"$out"; then
  echo "restored: late game refused"
else
  echo "restored database accepts a game for a closed period"; exit 1
fi
