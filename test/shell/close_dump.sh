#!/usr/bin/env bash
# close_dump.sh — guarantee 7: the record of closes (glicko2_closes), the
# teammates stores' kept pairs (glicko2_teammates_history) and the
# history survive pg_dump / restore with the database, and a team league
# recomputes alike in both.
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
-- a team league with a teammates store: its closes' options and the store's
-- kept pairs (glicko2_teammates_history) are records too
CREATE TABLE league.matches (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('league.matches');
INSERT INTO league.matches
SELECT m, 1 + m / 3, p, CASE WHEN p <= 3 THEN 1 ELSE 2 END, CASE WHEN (p <= 3) = (m % 2 = 0) THEN 1 ELSE 2 END
FROM generate_series(0, 5) m, generate_series(1, 6) p;
CREATE TABLE league.team_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE league.team_history (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('league.team_store', 'league.team_ratings');
CALL glicko2_close_matches('league.team_ratings', 'league.matches', 1, method => 'mean',
                           history => 'league.team_history', teammates => 'league.team_store');
CALL glicko2_close_matches('league.team_ratings', 'league.matches', 2, method => 'mean',
                           history => 'league.team_history', teammates => 'league.team_store');
SQL
pg_dump -d "$src" | psql -X -q -v ON_ERROR_STOP=1 -d "$dst" >/dev/null

query="SELECT ratings::text, period, close_number, games_table::text, closed_at, players, played, new_players, games, tau, max_rd
       FROM glicko2_closes ORDER BY ratings::text, close_number"
before=$(psql -X -At -d "$src" -c "$query")
after=$(psql -X -At -d "$dst" -c "$query")
echo "before: $before"
echo "after:  $after"
[ "$(echo "$before" | wc -l)" -eq 4 ] || { echo "expected 4 closes"; exit 1; }
[ "$before" = "$after" ] || { echo "glicko2_closes differs after restore"; exit 1; }
query="SELECT c.ratings::text, c.period, c.method, c.teammates::text, c.teammates_kept, t.player_a, t.player_b, t.covariance
       FROM glicko2_closes c JOIN glicko2_teammates_history t USING (ratings, period) ORDER BY 1, 2, 6, 7"
before=$(psql -X -At -d "$src" -c "$query")
after=$(psql -X -At -d "$dst" -c "$query")
echo "kept pairs before: $(echo "$before" | wc -l), after: $(echo "$after" | wc -l)"
[ "$(echo "$before" | wc -l)" -ge 4 ] || { echo "expected the store's pairs of 2 closes"; exit 1; }
[ "$before" = "$after" ] || { echo "glicko2_teammates_history differs after restore"; exit 1; }
# The restored league recomputes as the source does: the store put back from
# its kept pairs after period 1, the same bits.
state="SELECT (SELECT string_agg(format('%s %s', player_id, rating), ',' ORDER BY player_id) FROM league.team_ratings),
              (SELECT string_agg(format('%s %s %s', player_a, player_b, covariance), ',' ORDER BY player_a, player_b)
               FROM league.team_store)"
for db in "$src" "$dst"; do
  psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CALL glicko2_recompute('league.team_ratings', 'league.matches', 2, 'league.team_history')"
done
[ "$(psql -X -At -d "$src" -c "$state")" = "$(psql -X -At -d "$dst" -c "$state")" ] ||
  { echo "the restored team league recomputes otherwise"; exit 1; }
echo "restored: the team league recomputes to the same ratings and store"
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
