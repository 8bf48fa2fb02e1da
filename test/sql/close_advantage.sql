-- glicko2_close_period with a home / first-move advantage (advantage and
-- home_column), recorded in glicko2_closes and kept by glicko2_recompute;
-- glicko2_replay passes it on.  In a schema of its own, removed at the end
-- with its records in glicko2_closes (later tests list that table).
CREATE SCHEMA advantage_close;
SET search_path = advantage_close, public;
CREATE TABLE ac_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE ac_games (period int, player_id int, opponent_id int, score float8, home boolean);
CALL glicko2_guard_games('ac_games');
CREATE TABLE ac_history (player_id int, period int, rating glicko2_rating);
-- A seeded league: 30 players, 4 periods of 60 games, a third of them on
-- neutral ground.
INSERT INTO ac_games
SELECT 1 + g % 4, 1 + abs(hashint4(g) % 30), 1 + abs(hashint4(g + 1000) % 30),
       (abs(hashint4(g + 2000)) % 3) / 2.0,
       CASE g % 3 WHEN 0 THEN true WHEN 1 THEN false END
FROM generate_series(1, 240) g;
DELETE FROM ac_games WHERE player_id = opponent_id;

-- 1. Advantage 0 with a home column is today's close bit for bit.
CALL glicko2_close_period('ac_ratings', 'ac_games', 1);
CREATE TABLE ac_plain AS SELECT * FROM ac_ratings;
CALL glicko2_replay('ac_ratings', 'ac_games', through => '1', advantage => 0, home_column => 'home');
SELECT count(*) AS players,
       count(*) FILTER (WHERE (a.rating).rating = (b.rating).rating AND (a.rating).rd = (b.rating).rd
                          AND (a.rating).volatility = (b.rating).volatility) AS same_bits
FROM ac_plain a JOIN ac_ratings b USING (player_id);

-- 2. With advantage 80 the close is the aggregate with each side's
-- advantage (+80 home, -80 away, 0 neutral) and glicko2_idle, bit for bit,
-- period after period; history written as usual.
CALL glicko2_replay('ac_ratings', 'ac_games', history => 'ac_history',
                    advantage => 80, home_column => 'home');
CREATE TABLE ac_expected (player_id int, period int, rating glicko2_rating);
DO $$
DECLARE
  p int;
BEGIN
  FOR p IN 1 .. 4 LOOP
    INSERT INTO ac_expected
    WITH pre AS (SELECT player_id, rating FROM ac_expected WHERE period = p - 1),
    sides AS (
      SELECT player_id AS me, opponent_id AS them, score,
             CASE WHEN home THEN 80 WHEN NOT home THEN -80 ELSE 0 END::float8 AS adv
      FROM ac_games WHERE period = p
      UNION ALL
      SELECT opponent_id, player_id, 1 - score,
             CASE WHEN home THEN -80 WHEN NOT home THEN 80 ELSE 0 END::float8
      FROM ac_games WHERE period = p
    ), played AS (
      SELECT s.me, glicko2_period(a.rating, b.rating, s.score, 0.5, s.adv) AS r
      FROM sides s LEFT JOIN pre a ON a.player_id = s.me LEFT JOIN pre b ON b.player_id = s.them
      GROUP BY s.me
    )
    SELECT me, p, r FROM played
    UNION ALL
    SELECT player_id, p, glicko2_idle(rating, 1, 350) FROM pre
    WHERE player_id NOT IN (SELECT me FROM played);
  END LOOP;
END
$$;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE (h.rating).rating = (e.rating).rating AND (h.rating).rd = (e.rating).rd
                          AND (h.rating).volatility = (e.rating).volatility) AS same_bits
FROM ac_history h JOIN ac_expected e USING (player_id, period);
SELECT period, tau, advantage, home_column FROM glicko2_closes
WHERE ratings = 'ac_ratings'::regclass ORDER BY close_number;
-- (and the advantage changes the ratings: a replay without it differs)
CALL glicko2_replay('ac_ratings', 'ac_games');
SELECT count(*) AS players, count(*) FILTER (WHERE r.rating <> e.rating) AS differ_without_advantage
FROM ac_ratings r JOIN ac_expected e USING (player_id) WHERE e.period = 4;
CALL glicko2_replay('ac_ratings', 'ac_games', history => 'ac_history',
                    advantage => 80, home_column => 'home');

-- 3. By hand (test/sql/advantage.sql): an unrated player at home (+100)
-- loses to an unrated visitor: 1304.602943 / 291.974895; the visitor
-- 1695.397057.
CREATE TABLE hand_ratings (player_id text PRIMARY KEY, rating glicko2_rating);
CREATE TABLE hand_games (period int, player_id text, opponent_id text, score float8, at_home boolean);
INSERT INTO hand_games VALUES (1, 'home team', 'visitor', 0, true);
CALL glicko2_close_period('hand_ratings', 'hand_games', 1, unguarded => true,
                          advantage => 100, home_column => 'at_home');
SELECT player_id, round((rating).rating::numeric, 6) AS rating, round((rating).rd::numeric, 6) AS rd
FROM hand_ratings ORDER BY player_id;

-- 4. glicko2_recompute closes again with the advantage each close had:
-- after a correction in period 2, the ratings are those of a replay.
DELETE FROM ac_games WHERE period = 2 AND player_id = 1;   -- refused: closed
ALTER TABLE ac_games DISABLE TRIGGER refuse_closed_games;
UPDATE ac_games SET score = 1 - score WHERE period = 2 AND player_id IN (1, 2, 3);
ALTER TABLE ac_games ENABLE TRIGGER refuse_closed_games;
CALL glicko2_recompute('ac_ratings', 'ac_games', 2, 'ac_history');
SELECT count(*) AS closes, min(advantage) AS advantage, min(home_column) AS home_column
FROM glicko2_closes WHERE ratings = 'ac_ratings'::regclass;
CREATE TABLE ac_recomputed AS SELECT * FROM ac_ratings;
CALL glicko2_replay('ac_ratings', 'ac_games', history => 'ac_history',
                    advantage => 80, home_column => 'home');
SELECT count(*) AS players,
       count(*) FILTER (WHERE a.rating = b.rating) AS same
FROM ac_recomputed a JOIN ac_ratings b USING (player_id);
-- (and the correction did change ratings)
SELECT count(*) AS changed_by_the_correction
FROM ac_recomputed a JOIN ac_expected e USING (player_id)
WHERE e.period = 4 AND a.rating <> e.rating;

-- 5. Bad input: clear errors, nothing changed, nothing recorded.
\set SHOW_CONTEXT never
CREATE TABLE bad_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CALL glicko2_close_period('bad_ratings', 'ac_games', 1, advantage => 'NaN', home_column => 'home');
CALL glicko2_close_period('bad_ratings', 'ac_games', 1, advantage => '-Infinity', home_column => 'home');
CALL glicko2_close_period('bad_ratings', 'ac_games', 1, advantage => NULL, home_column => 'home');
CALL glicko2_close_period('bad_ratings', 'ac_games', 1, advantage => 80);
CALL glicko2_close_period('bad_ratings', 'ac_games', 1, advantage => 80, home_column => 'score');
CALL glicko2_close_period('bad_ratings', 'ac_games', 1, advantage => 80, home_column => 'nothing');
SELECT (SELECT count(*) FROM bad_ratings) AS ratings,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'bad_ratings'::regclass) AS closes;
-- glicko2_close_ratings itself refuses a NULL or infinite advantage column.
SELECT * FROM glicko2_close_ratings('SELECT 1, NULL::glicko2_rating WHERE false',
    'SELECT 1, 2, 1.0::float8, ''Infinity''::float8 UNION ALL SELECT 2, 1, 0.5, NULL', 0.5, 350, 'the test')
  AS c(player int, rating glicko2_rating, games bigint, is_new boolean);
SELECT * FROM glicko2_close_ratings('SELECT 1, NULL::glicko2_rating WHERE false',
    'SELECT 1, 2, 1.0::float8, 1::int', 0.5, 350, 'the test')
  AS c(player int, rating glicko2_rating, games bigint, is_new boolean);

RESET search_path;
DELETE FROM glicko2_closes WHERE ratings::text LIKE 'advantage_close.%';
SET client_min_messages = warning;
DROP SCHEMA advantage_close CASCADE;
RESET client_min_messages;
