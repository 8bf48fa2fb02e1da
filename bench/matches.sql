-- bench/matches.sql — the data of bench/matches.sh (psql variables
-- :players and :matches): bench/data.sql's ratings and games with as many
-- games as matches, and one period of :matches matches of 4 teams of 3
-- (12 rows each) among the same players.  Deterministic (data.sql's setseed()).
CREATE EXTENSION IF NOT EXISTS glicko2;
-- ratings and games as bench/run.sh has them, with as many games as matches.
\set games :matches
\set sides off
\ir data.sql
DROP TABLE IF EXISTS matches, timings;

-- Matches: random permutations of all players cut into matches of 12
-- (distinct players in each), seats 0-2 team 0, 3-5 team 1, ...; the four
-- teams' places a random order of 1-4.
-- In every other team the first two players are a premade party (the
-- party column of the closes with parties; NULL: queued alone).
CREATE TABLE matches (match_id int NOT NULL, period int NOT NULL, player_id int NOT NULL,
                      team int NOT NULL, place int NOT NULL, party int);
WITH seats AS (
  SELECT perm, player_id, row_number() OVER (PARTITION BY perm ORDER BY random()) - 1 AS pos
  FROM generate_series(0, (:matches * 12) / (:players / 12 * 12)) perm
  CROSS JOIN generate_series(1, :players) player_id
), placed AS (
  SELECT (perm * (:players / 12) + pos / 12)::int AS match_id, player_id, (pos % 12)::int / 3 AS team,
         pos % 3 < 2 AS in_pair
  FROM seats WHERE pos < :players / 12 * 12
), places AS (
  SELECT match_id, team, rank() OVER (PARTITION BY match_id ORDER BY random()) AS place
  FROM (SELECT match_id, team FROM generate_series(0, :matches - 1) match_id,
                                   generate_series(0, 3) team ORDER BY 1, 2) t
)
INSERT INTO matches
SELECT match_id, 1, player_id, team, place,
       CASE WHEN in_pair AND (match_id + team) % 2 = 0 THEN match_id * 4 + team END
FROM placed JOIN places USING (match_id, team)
WHERE match_id < :matches;

CALL glicko2_guard_games('matches');
VACUUM (FREEZE, ANALYZE) matches;
SELECT count(DISTINCT match_id) AS matches, count(*) AS match_rows,
       count(DISTINCT player_id) AS players_in_matches,
       (SELECT count(*) FROM games) AS games
FROM matches;

-- A teammates store as a league of friends would have one: each player
-- paired with his seat neighbours in his team (at most 4 pairs a player
-- are used), correlation -0.2 (glicko2_close_matches' teammates).
DROP TABLE IF EXISTS teammates;
CALL glicko2_teammates_create('teammates', 'ratings');
INSERT INTO teammates
SELECT DISTINCT least(a.player_id, b.player_id), greatest(a.player_id, b.player_id),
       -0.2 * (ra.rating).rd * (rb.rating).rd
FROM matches a JOIN matches b ON b.match_id = a.match_id AND b.team = a.team AND b.player_id > a.player_id
JOIN ratings ra ON ra.player_id = a.player_id JOIN ratings rb ON rb.player_id = b.player_id
WHERE a.match_id % 3 = 0;
VACUUM ANALYZE teammates;
SELECT count(*) AS stored_pairs FROM teammates;

-- seconds: wall clock; cpu: the backend's own CPU seconds (user + system,
-- from /proc), steadier than the clock on a shared machine.
CREATE TABLE timings (settings text, close text, run int, seconds float8, cpu float8);
