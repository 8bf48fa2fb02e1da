-- glicko2_close_period, guarantee 5: bad games, unknown columns and wrong
-- types are refused before anything changes, the error naming the game or
-- the column.
CREATE SCHEMA close_bad;
SET search_path = close_bad, public;
\set SHOW_CONTEXT never

-- try(command): the SQLSTATE and message of the error it raises, or 'ok'.
CREATE FUNCTION try(command text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE command;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings SELECT i, glicko2_rating(1400 + 10 * i, 100, 0.06) FROM generate_series(1, 40) i;
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('games');
-- Period 1: 1000 good games, then a bad one written last.
INSERT INTO games SELECT 1, 1 + i % 40, 1 + (i + 1 + i / 40) % 40, (i % 3) / 2.0
FROM generate_series(1, 1000) i WHERE 1 + i % 40 <> 1 + (i + 1 + i / 40) % 40;
INSERT INTO games VALUES (1, 17, 17, 1);
-- Periods 2 to 9: one bad game each among good ones.
INSERT INTO games SELECT p, 1, 2, 1 FROM generate_series(2, 9) p;
INSERT INTO games VALUES
  (2, 3, 4, 1.5), (3, 3, 4, -0.1), (4, 3, 4, NULL), (5, 3, 4, 'NaN'),
  (6, 3, 4, 'Infinity'), (7, NULL, 4, 1), (8, 3, NULL, 0), (9, 5, 5, 0.5);
CREATE TABLE snapshot AS SELECT * FROM ratings;
CREATE VIEW changed AS
  SELECT (SELECT count(*) FROM ratings r FULL JOIN snapshot s USING (player_id)
          WHERE r.rating IS DISTINCT FROM s.rating) AS ratings_changed,
         (SELECT count(*) FROM glicko2_closes
          WHERE ratings = 'close_bad.ratings'::regclass) AS closes;

-- The bad game is named, however late in the period it comes.
CALL glicko2_close_period('ratings', 'games', 1);
SELECT * FROM changed;

SELECT p AS period, try(format('CALL glicko2_close_period(''ratings'', ''games'', %s)', p))
FROM generate_series(2, 9) p;
SELECT * FROM changed;

-- Unknown columns and wrong types, each naming the column.
CREATE TABLE text_scores (period int, player_id int, opponent_id int, score text);
CREATE TABLE text_players (period int, player_id text, opponent_id int, score float8);
CREATE TABLE date_periods (period date, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('text_scores');
CALL glicko2_guard_games('text_players');
CALL glicko2_guard_games('date_periods');
CREATE TABLE int_ratings (player_id int PRIMARY KEY, rating float8);
CREATE TABLE keyless (player_id int, rating glicko2_rating);
CREATE TABLE nullable_key (player_id int UNIQUE, rating glicko2_rating);
CREATE VIEW ratings_view AS SELECT * FROM ratings;
CREATE SEQUENCE seq;
CREATE TABLE bad_history (player_id int, period int, rating float8);
CREATE TABLE short_history (player_id int, rating glicko2_rating);
SELECT c AS call, try('CALL glicko2_close_period(' || c || ')')
FROM (VALUES
  ('''ratings'', ''games'', 10, score_column => ''points'''),
  ('''ratings'', ''games'', 10, period_column => ''round'''),
  ('''ratings'', ''games'', 10, game_player_column => ''white'''),
  ('''ratings'', ''games'', 10, opponent_column => ''black'''),
  ('''ratings'', ''games'', 10, player_column => ''id'''),
  ('''ratings'', ''games'', 10, rating_column => ''elo'''),
  ('''ratings'', ''games'', 10, score_column => NULL'),
  ('''ratings'', ''text_scores'', 10'),
  ('''ratings'', ''text_players'', 10'),
  ('''ratings'', ''date_periods'', 10'),
  ('''ratings'', ''games'', ''x''::text'),
  ('''int_ratings'', ''games'', 10'),
  ('''keyless'', ''games'', 10'),
  ('''nullable_key'', ''games'', 10'),
  ('''ratings_view'', ''games'', 10'),
  ('''ratings'', ''seq'', 10'),
  ('''ratings'', ''no_such_table'', 10'),
  ('''ratings'', ''games'', 10, history => ''bad_history'''),
  ('''ratings'', ''games'', 10, history => ''short_history'''),
  ('''ratings'', ''games'', NULL::int'),
  ('''ratings'', ''games'', 10, tau => 0'),
  ('''ratings'', ''games'', 10, tau => -1'),
  ('''ratings'', ''games'', 10, tau => ''NaN'''),
  ('''ratings'', ''games'', 10, tau => NULL'),
  ('''ratings'', ''games'', 10, max_rd => 0'),
  ('''ratings'', ''games'', 10, max_rd => ''Infinity''')) v(c);
SELECT * FROM changed;

-- The full error for one bad game and one bad column.
CALL glicko2_close_period('ratings', 'games', 9);
CALL glicko2_close_period('ratings', 'text_scores', 10);

-- The pass itself (glicko2_close_ratings) takes a score of any number type
-- (float8, float4, numeric, int2, int4, int8: the rule the closes and the
-- live triggers share) and refuses any other.
SELECT t, (SELECT (c.rating).rating FROM glicko2_close_ratings('SELECT 1, NULL::glicko2_rating WHERE false',
             format('SELECT 1, 2, CAST(1 AS %s)', t), 0.5, 350, 'the test')
           AS c(player int, rating glicko2_rating, games bigint, is_new boolean) WHERE c.player = 1)
FROM unnest(ARRAY['float8', 'float4', 'numeric', 'int2', 'int4', 'int8']) t;
SELECT * FROM glicko2_close_ratings('SELECT 1, NULL::glicko2_rating WHERE false',
    'SELECT 1, 2, CAST(1 AS text)', 0.5, 350, 'the test')
  AS c(player int, rating glicko2_rating, games bigint, is_new boolean);

-- Fixed games close; the refusals left no trace.
DELETE FROM games WHERE player_id = opponent_id;
CALL glicko2_close_period('ratings', 'games', 1);
SELECT ratings_changed = 40 AS all_moved, closes FROM changed;

DELETE FROM glicko2_closes WHERE ratings = 'close_bad.ratings'::regclass;
SET client_min_messages = warning;
DROP SCHEMA close_bad CASCADE;
RESET search_path;
