-- glicko2_season_reset: every rating pulled toward the league's mean (the
-- mean of the non-NULL ratings, or toward) by keep, RD raised to at least
-- rd, volatility kept or set; exactly the rule of glicko2_soft_reset, bit
-- for bit; exactly once per season and in order; all or nothing under an
-- error in the middle; ordered with the closes; recorded; bad input refused
-- with its SQLSTATE and nothing changed.  (Two sessions at once:
-- specs/league_season_concurrent.spec.)
CREATE SCHEMA season;
SET search_path = season, public;
\set SHOW_CONTEXT never

CREATE FUNCTION try(command text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE command;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- The rule of one rating: both ends exact (keep 1 is the rating itself,
-- keep 0 the mean itself), RD never lowered, volatility kept or set.
SELECT glicko2_soft_reset(glicko2_rating(1700.123456789, 60, 0.07), 1512.3, 1, 100) AS keep_1,
       glicko2_soft_reset(glicko2_rating(1700.123456789, 60, 0.07), 1512.3, 0, 100) AS keep_0,
       glicko2_soft_reset(glicko2_rating(1700, 160, 0.07), 1500, 0.5, 100, 0.06) AS half_rd_kept_vol_set,
       glicko2_soft_reset(NULL, 1500, 0.5, 100) IS NULL AS null_stays_null;

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings
SELECT i, glicko2_rating(1000 + (i * 7919) % 1000 + i / 1000.0, 30 + (i * 31) % 200, 0.04 + (i % 5) / 100.0)
FROM generate_series(1, 2000) i;
INSERT INTO ratings VALUES (2001, NULL), (2002, NULL);
CREATE TABLE snapshot AS SELECT * FROM ratings;
CREATE VIEW changed AS
  SELECT (SELECT count(*) FROM ratings r FULL JOIN snapshot s USING (player_id)
          WHERE r.rating IS DISTINCT FROM s.rating) AS ratings_changed,
         (SELECT string_agg(season, ', ' ORDER BY reset_number) FROM glicko2_season_resets
          WHERE ratings = 'season.ratings'::regclass) AS resets;

-- Bad input, each named with its SQLSTATE, nothing changed.
SELECT c, try(c) FROM unnest(ARRAY[
  $$CALL glicko2_season_reset('ratings', 1, 'NaN', 100)$$,
  $$CALL glicko2_season_reset('ratings', 1, 'Infinity', 100)$$,
  $$CALL glicko2_season_reset('ratings', 1, -0.1, 100)$$,
  $$CALL glicko2_season_reset('ratings', 1, 1.0000001, 100)$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, -1)$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 'NaN')$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 'Infinity')$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 100, volatility => 0)$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 100, volatility => 'NaN')$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 100, toward => 'NaN')$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 100, toward => '-Infinity')$$,
  $$CALL glicko2_season_reset('ratings', 1, NULL, 100)$$,
  $$CALL glicko2_season_reset('ratings', NULL::int, 0.5, 100)$$,
  $$CALL glicko2_season_reset('ratings', '{"season": 1}'::json, 0.5, 100)$$,
  $$CALL glicko2_season_reset('ratings', point '(1,2)', 0.5, 100)$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 100, rating_column => 'nope')$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 100, player_column => 'nope')$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 100, history => 'snapshot')$$,
  $$CALL glicko2_season_reset('changed', 1, 0.5, 100)$$,
  $$CALL glicko2_season_reset('pg_class', 1, 0.5, 100)$$,
  $$CALL glicko2_season_reset('ratings', 1, 0.5, 100, history => 'pg_class')$$]) c;
SELECT * FROM changed;
-- Not at REPEATABLE READ: a snapshot taken before the lock could miss a reset.
BEGIN ISOLATION LEVEL REPEATABLE READ;
CALL glicko2_season_reset('ratings', 1, 0.5, 100);
ROLLBACK;

-- The league's mean: a double-double sum, the same bits whatever the order
-- of the rows (ascending, descending, as stored), within 1e-12 of the exact
-- mean (numeric).
SELECT count(DISTINCT m) AS means, max(abs(m - (SELECT avg(CAST((rating).rating AS numeric)) FROM snapshot))) < 1e-12 AS exact
FROM (SELECT (SELECT glicko2_internal.glicko2_mean(x) FROM (SELECT (rating).rating AS x FROM snapshot ORDER BY 1) o) AS m
      UNION ALL
      SELECT (SELECT glicko2_internal.glicko2_mean(x) FROM (SELECT (rating).rating AS x FROM snapshot ORDER BY 1 DESC) o)
      UNION ALL
      SELECT (SELECT glicko2_internal.glicko2_mean((rating).rating) FROM snapshot)) ms;

-- Season 1: halfway to the mean, RD at least 100, volatility kept.  Every
-- row is exactly glicko2_soft_reset of its old rating toward the mean of
-- the old non-NULL ratings; NULL ratings stay NULL.
CALL glicko2_season_reset('ratings', 1, 0.5, 100);
SELECT count(*) AS rows_compared,
       count(*) FILTER (WHERE r.rating IS DISTINCT FROM
                        glicko2_soft_reset(s.rating, (SELECT glicko2_internal.glicko2_mean((rating).rating) FROM snapshot),
                                           0.5, 100))
         AS differ,
       count(*) FILTER (WHERE (r.rating).rd < (s.rating).rd) AS rd_lowered,
       count(*) FILTER (WHERE (r.rating).volatility <> (s.rating).volatility) AS volatility_changed,
       count(*) FILTER (WHERE r.rating IS NULL) AS still_null
FROM ratings r JOIN snapshot s USING (player_id);
SELECT season, reset_number, after_close, after_period, players, raised,
       mean = (SELECT glicko2_internal.glicko2_mean((rating).rating) FROM snapshot) AS mean_of_old,
       raised = (SELECT count(*) FROM snapshot WHERE (rating).rd < 100) AS raised_counted,
       keep, rd, volatility, toward, history, reset_by = current_user AS by_me
FROM glicko2_season_resets WHERE ratings = 'ratings'::regclass;

-- Exactly once, in order (seasons compared in their own type: 9 < 10).
TRUNCATE snapshot;
INSERT INTO snapshot SELECT * FROM ratings;
CALL glicko2_season_reset('ratings', 1, 0.5, 100);
CALL glicko2_season_reset('ratings', 0, 0.5, 100);
BEGIN;
CALL glicko2_season_reset('ratings', 9, 1, 0);
CALL glicko2_season_reset('ratings', 9, 1, 0);
ROLLBACK;
SELECT * FROM changed;
CALL glicko2_season_reset('ratings', 9, 1, 0);
CALL glicko2_season_reset('ratings', 10, 1, 0);
-- keep 1, rd 0: every rating as it was, bit for bit, yet recorded.
SELECT * FROM changed;

-- keep 0 toward 1500, volatility set: everybody exactly 1500 / at least 100 / 0.06.
CALL glicko2_season_reset('ratings', 11, 0, 100, volatility => 0.06, toward => 1500);
SELECT count(*) FILTER (WHERE (r.rating).rating = 1500 AND (r.rating).volatility = 0.06
                        AND (r.rating).rd = greatest(100, (s.rating).rd)) AS exact,
       count(*) FILTER (WHERE r.rating IS NULL) AS still_null
FROM ratings r JOIN snapshot s USING (player_id);

-- All or nothing: an error in the middle of the UPDATE (a trigger on the
-- 1000th row) leaves every rating, the history and the record as they were.
TRUNCATE snapshot;
INSERT INTO snapshot SELECT * FROM ratings;
CREATE TABLE history (player_id int, season int, rating glicko2_rating, PRIMARY KEY (player_id, season));
CREATE FUNCTION fail() RETURNS trigger LANGUAGE plpgsql AS
  $$BEGIN RAISE EXCEPTION 'disk full at player %', NEW.player_id USING ERRCODE = '53100'; END$$;
CREATE TRIGGER fail BEFORE UPDATE ON ratings FOR EACH ROW WHEN (NEW.player_id = 1000) EXECUTE FUNCTION fail();
SELECT try($$CALL glicko2_season_reset('ratings', 12, 0.8, 120, history => 'history')$$);
SELECT * FROM changed;
SELECT count(*) AS history_rows FROM history;
DROP TRIGGER fail ON ratings;
-- A trigger that skips a row fails the reset whole (55000), as in a close.
CREATE FUNCTION skip() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NULL; END$$;
CREATE TRIGGER skip BEFORE UPDATE ON ratings FOR EACH ROW WHEN (NEW.player_id = 7) EXECUTE FUNCTION skip();
SELECT try($$CALL glicko2_season_reset('ratings', 12, 0.8, 120, history => 'history')$$);
SELECT * FROM changed;
DROP TRIGGER skip ON ratings;

-- With a history table: each player's last rating of the season, then the reset.
CALL glicko2_season_reset('ratings', 12, 0.8, 120, history => 'history');
SELECT count(*) AS history_rows,
       count(*) FILTER (WHERE h.rating IS NOT DISTINCT FROM s.rating) AS season_final
FROM history h JOIN snapshot s USING (player_id) WHERE h.season = 12;

-- Ordered with the closes: close 1, reset, close 2.  Close 2 rates from the
-- reset ratings (the aggregate over those gives the same), and the record
-- places the reset after close 1.
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('games');
INSERT INTO games VALUES (1, 1, 2, 1), (1, 3, 4, 0.5), (2, 1, 3, 0), (2, 2, 4, 1);
CALL glicko2_close_period('ratings', 'games', 1);
CALL glicko2_season_reset('ratings', 13, 0.5, 150);
TRUNCATE snapshot;
INSERT INTO snapshot SELECT * FROM ratings;
CALL glicko2_close_period('ratings', 'games', 2);
SELECT r.player_id,
       r.rating = (SELECT glicko2_period(p.rating, o.rating, g.score)
                   FROM (SELECT period, player_id, opponent_id, score FROM games
                         UNION ALL SELECT period, opponent_id, player_id, 1 - score FROM games) g
                   JOIN snapshot p ON p.player_id = g.player_id
                   JOIN snapshot o ON o.player_id = g.opponent_id
                   WHERE g.period = 2 AND g.player_id = r.player_id) AS from_reset_ratings
FROM ratings r WHERE r.player_id <= 4 ORDER BY 1;
SELECT season, reset_number, after_close, after_period FROM glicko2_season_resets
WHERE ratings = 'ratings'::regclass ORDER BY reset_number DESC LIMIT 2;

-- Another role without UPDATE on the ratings is refused (42501), nothing changed.
TRUNCATE snapshot;
INSERT INTO snapshot SELECT * FROM ratings;
CREATE ROLE regress_season_other;
GRANT USAGE ON SCHEMA season TO regress_season_other;
GRANT SELECT ON ratings TO regress_season_other;
SET ROLE regress_season_other;
SELECT try($$CALL glicko2_season_reset('season.ratings', 14, 0.5, 100)$$);
RESET ROLE;
SELECT * FROM changed;

-- Text seasons and a partitioned ratings table.
CREATE TABLE parts (player_id bigint PRIMARY KEY, rating glicko2_rating) PARTITION BY RANGE (player_id);
CREATE TABLE parts_1 PARTITION OF parts FOR VALUES FROM (0) TO (100);
CREATE TABLE parts_2 PARTITION OF parts FOR VALUES FROM (100) TO (200);
INSERT INTO parts SELECT i, glicko2_rating(1400 + i, 50, 0.06) FROM generate_series(1, 199) i;
CALL glicko2_season_reset('parts', '2025-S1'::text, 0.75, 80);
CALL glicko2_season_reset('parts', '2025-S2'::text, 0.75, 80);
CALL glicko2_season_reset('parts', '2024-S4'::text, 0.75, 80);
SELECT season, players, raised, mean FROM glicko2_season_resets WHERE ratings = 'parts'::regclass ORDER BY reset_number;
SELECT min((rating).rating), max((rating).rating), min((rating).rd) FROM parts;

-- Replay and recompute apply each recorded reset again at its place: a
-- league of closes 1, reset, close 2, reset, close 3 rebuilt by either
-- comes out bit for bit as it was, and so does a correction of period 1
-- (recompute) against the rebuild of the corrected games (replay).
CREATE TABLE league (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE league_games (period int, player_id int, opponent_id int, score float8);
CREATE TABLE league_history (player_id int, period int, rating glicko2_rating, PRIMARY KEY (player_id, period));
CREATE TABLE league_seasons (player_id int, season int, rating glicko2_rating, PRIMARY KEY (player_id, season));
INSERT INTO league_games
SELECT p, 1 + (p * 7 + g * 3) % 30, 1 + (p * 7 + g * 3 + 1 + g % 29) % 30, (g % 3) / 2.0
FROM generate_series(1, 3) p, generate_series(1, 40) g;
CALL glicko2_close_period('league', 'league_games', 1, history => 'league_history', unguarded => true);
CALL glicko2_season_reset('league', 1, 0.5, 150, history => 'league_seasons');
CALL glicko2_close_period('league', 'league_games', 2, history => 'league_history', unguarded => true);
CALL glicko2_season_reset('league', 2, 0.75, 120, volatility => 0.06);
CALL glicko2_close_period('league', 'league_games', 3, history => 'league_history', unguarded => true);
CREATE TABLE league_before AS SELECT * FROM league;
CREATE TABLE resets_before AS
  SELECT season, reset_number, after_close, after_period, players, raised, mean FROM glicko2_season_resets
  WHERE ratings = 'league'::regclass;
CREATE VIEW league_same AS
  SELECT (SELECT count(*) FROM league l FULL JOIN league_before b USING (player_id)
          WHERE l.rating IS DISTINCT FROM b.rating) AS ratings_differ,
         (SELECT count(*) FROM (SELECT season, reset_number, after_close, after_period, players, raised, mean
                                FROM glicko2_season_resets WHERE ratings = 'league'::regclass
                                EXCEPT SELECT * FROM resets_before) x) AS records_differ,
         (SELECT count(*) FROM league_seasons) AS season_rows;
SELECT * FROM resets_before ORDER BY reset_number;
CALL glicko2_replay('league', 'league_games', history => 'league_history', unguarded => true);
SELECT * FROM league_same;
CALL glicko2_recompute('league', 'league_games', 2, 'league_history');
SELECT * FROM league_same;
CALL glicko2_recompute('league', 'league_games', 1, 'league_history');
SELECT * FROM league_same;
-- A correction of period 1: recompute equals the rebuild, and both differ
-- from before (the reset's mean moved with the games).
UPDATE league_games SET score = 1 - score WHERE period = 1 AND player_id = 11;
CALL glicko2_recompute('league', 'league_games', 1, 'league_history');
TRUNCATE league_before;
INSERT INTO league_before SELECT * FROM league;
SELECT * FROM league_same;
CALL glicko2_replay('league', 'league_games', history => 'league_history', unguarded => true);
SELECT ratings_differ FROM league_same;
-- A replay through period 1 keeps the first reset and forgets the second.
CALL glicko2_replay('league', 'league_games', history => 'league_history', through => '1', unguarded => true);
SELECT season, reset_number, after_close, after_period FROM glicko2_season_resets
WHERE ratings = 'league'::regclass ORDER BY reset_number;

-- A dropped ratings table's resets go with it.
DROP TABLE parts;
SELECT count(*) AS resets_of_dropped FROM glicko2_season_resets WHERE ratings::text = 'parts';

DROP SCHEMA season CASCADE;
DROP ROLE regress_season_other;
