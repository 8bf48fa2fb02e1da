-- Every bad input is an ERROR with a proper SQLSTATE (never XX000) and a
-- message naming the bad value.  One line per case: SQLSTATE: message.
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

SELECT q, pg_temp.try(q) FROM (VALUES
  -- NaN and infinities anywhere
  ($$SELECT glicko2_rating('NaN', 350, 0.06)$$),
  ($$SELECT glicko2_rating('Infinity', 350, 0.06)$$),
  ($$SELECT glicko2_rating(1500, 'NaN', 0.06)$$),
  ($$SELECT glicko2_rating(1500, '-Infinity', 0.06)$$),
  ($$SELECT glicko2_rating(1500, 350, 'NaN')$$),
  ($$SELECT glicko1_rating('-Infinity', 350)$$),
  ($$SELECT glicko2_period(('NaN', 200, 0.06)::glicko2_rating, glicko2_rating(), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), (1500, 'Infinity', 0.06)::glicko2_rating, 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 'NaN')$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 'NaN')$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 'Infinity')$$),
  ($$SELECT glicko1_period((1500, 'NaN')::glicko1_rating, glicko1_rating(), 1)$$),
  ($$SELECT glicko2_idle(glicko2_rating(), 'NaN')$$),
  ($$SELECT glicko2_idle(glicko2_rating(), 'Infinity')$$),
  ($$SELECT glicko2_idle(glicko2_rating(), 1, 'NaN')$$),
  ($$SELECT glicko1_idle(glicko1_rating(), 1, 'Infinity')$$),
  ($$SELECT glicko2_expected(glicko2_rating(), ('NaN', 1, 1)::glicko2_rating)$$),
  ($$SELECT glicko2_win_probability(('Infinity', 1, 1)::glicko2_rating, glicko2_rating())$$),
  ($$SELECT glicko2_g('NaN')$$),
  ($$SELECT glicko1_idle(glicko1_rating(), 'NaN')$$),
  ($$SELECT glicko1_idle(glicko1_rating(), 1, 34.6, '-Infinity')$$),
  ($$SELECT glicko2_win_probability(glicko2_rating(), (1500, 350, 'NaN')::glicko2_rating)$$),
  -- RD <= 0, volatility <= 0, tau <= 0
  ($$SELECT glicko2_rating(1500, 0, 0.06)$$),
  ($$SELECT glicko2_rating(1500, '-0', 0.06)$$),
  ($$SELECT glicko2_rating(1500, -1, 0.06)$$),
  ($$SELECT glicko2_rating(1500, 350, 0)$$),
  ($$SELECT glicko2_rating(1500, 350, -0.06)$$),
  ($$SELECT glicko1_rating(1500, 0)$$),
  ($$SELECT glicko2_period((1500, -200, 0.06)::glicko2_rating, glicko2_rating(), 1)$$),
  -- a bad player after a group's first row (checked there against the first)
  ($$SELECT glicko2_period(p, glicko2_rating(), 1) FROM (VALUES (glicko2_rating()), ((1500, -200, 0.06)::glicko2_rating)) v(p)$$),
  ($$SELECT g, glicko2_period(p, glicko2_rating(), 1) FROM (VALUES (1, glicko2_rating()), (1, ('NaN', 350, 0.06)::glicko2_rating)) v(g, p) GROUP BY g$$),
  ($$SELECT glicko2_period(glicko2_rating(), (1500, 350, 0)::glicko2_rating, 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 0)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, -0.5)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, NULL)$$),
  ($$SELECT glicko2_idle((1500, 0, 0.06)::glicko2_rating)$$),
  ($$SELECT glicko2_idle(glicko2_rating(), -1)$$),
  ($$SELECT glicko2_idle(glicko2_rating(), 1, 0)$$),
  ($$SELECT glicko1_idle(glicko1_rating(), 1, -34.6)$$),
  ($$SELECT glicko2_g(0)$$),
  -- score outside [0, 1]
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1.5)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), -0.5)$$),
  ($$SELECT glicko1_period(glicko1_rating(), glicko1_rating(), 2)$$),
  -- a rating with a NULL field is not an unrated player
  ($$SELECT glicko2_period((1500, NULL, 0.06)::glicko2_rating, glicko2_rating(), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), (NULL, 350, 0.06)::glicko2_rating, 1)$$),
  ($$SELECT glicko2_expected(glicko2_rating(), (1500, 350, NULL)::glicko2_rating)$$),
  ($$SELECT glicko1_period(glicko1_rating(), (1500, NULL)::glicko1_rating, 1)$$),
  ($$SELECT glicko2_idle((NULL, 350, 0.06)::glicko2_rating)$$),
  -- the player's rating differing within a group
  ($$SELECT glicko2_period(p, glicko2_rating(), 1) FROM (VALUES (glicko2_rating(1500)), (glicko2_rating(1501))) v(p)$$),
  ($$SELECT glicko1_period(p, glicko1_rating(), 1) FROM (VALUES (glicko1_rating(1500, 100)), (glicko1_rating(1500, 101))) v(p)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, t) FROM (VALUES (0.5), (0.6)) v(t)$$),
  -- intervals, scale and JSON conversions, explanations
  ($$SELECT glicko2_interval(glicko2_rating(), 'NaN')$$),
  ($$SELECT glicko2_interval(glicko2_rating(), -1)$$),
  ($$SELECT glicko2_lower(('NaN', 350, 0.06)::glicko2_rating)$$),
  ($$SELECT glicko2_upper(glicko2_rating(), 'Infinity')$$),
  ($$SELECT glicko2_confidence_interval(glicko2_rating(), 1)$$),
  ($$SELECT glicko2_confidence_interval(glicko2_rating(), 'NaN')$$),
  ($$SELECT glicko2_from_scaled((0, 'NaN', 0.06)::glicko2_scaled)$$),
  ($$SELECT glicko2_from_scaled((1e308, 1, 0.06)::glicko2_scaled)$$),
  ($$SELECT glicko2_from_scaled((0, -1, 0.06)::glicko2_scaled)$$),
  ($$SELECT glicko2_from_jsonb('{"rating": "NaN", "rd": 350, "volatility": 0.06}')$$),
  ($$SELECT glicko2_from_jsonb('{"rating": 1500, "rd": 0, "volatility": 0.06}')$$),
  ($$SELECT glicko2_from_jsonb('{"rating": 1500, "rd": 350}')$$),
  ($$SELECT glicko2_from_jsonb('{"rating": "x", "rd": 350, "volatility": 0.06}')$$),
  ($$SELECT glicko2_from_jsonb('[1500, 350, 0.06]')$$),
  ($$SELECT glicko2_from_jsonb('{"rating": 1e400, "rd": 350, "volatility": 0.06}')$$),
  ($$SELECT glicko2_explain(('NaN', 200, 0.06)::glicko2_rating, glicko2_rating(), 1)$$),
  ($$SELECT glicko2_explain(glicko2_rating(), glicko2_rating(), 2)$$),
  ($$SELECT glicko2_explain(glicko2_rating(), glicko2_rating(), 1, 0)$$),
  ($$SELECT glicko2_explain(p, glicko2_rating(), 1) FROM (VALUES (glicko2_rating(1500)), (glicko2_rating(1501))) v(p)$$)
) cases(q);

-- glicko2_close_period: bad games, bad tables and columns, closing twice.
-- Each case is refused before anything changes (the last query shows that
-- only the one good close, of period 1, was applied).
CREATE TABLE bad_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE bad_games (period int, player_id int, opponent_id int, score float8);
INSERT INTO bad_games VALUES
  (1, 1, 2, 1),
  (2, 5, 5, 1),                       -- self-play
  (3, 1, 2, 1.5), (4, 1, 2, -1),      -- score outside [0, 1]
  (5, 1, 2, NULL),                    -- NULL score
  (6, 1, 2, 'NaN'), (7, 1, 2, 'Infinity'),
  (8, 1, NULL, 1);                    -- NULL opponent
CREATE TABLE text_ratings (player_id int PRIMARY KEY, rating text);
CREATE TABLE text_games (period int, player_id int, opponent_id int, score text);
CREATE TABLE textkey_games (period int, player_id text, opponent_id text, score float8);
CREATE VIEW bad_ratings_view AS SELECT * FROM bad_ratings;
CALL glicko2_guard_games('bad_games');
CALL glicko2_guard_games('text_games');
CALL glicko2_guard_games('textkey_games');
CALL glicko2_close_period('bad_ratings', 'bad_games', 1);

SELECT q, pg_temp.try(q) FROM (VALUES
  -- bad games
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 2)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 3)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 4)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 5)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 6)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 7)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 8)$$),
  -- closing twice, and out of order
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 1)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 0)$$),
  -- unknown table or column
  ($$CALL glicko2_close_period('no_such_ratings', 'bad_games', 9)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'no_such_games', 9)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, player_column => 'nope')$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, rating_column => 'nope')$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, period_column => 'nope')$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, game_player_column => 'nope')$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, opponent_column => 'nope')$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, score_column => 'nope')$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, score_column => NULL)$$),
  -- wrong column or table type
  ($$CALL glicko2_close_period('text_ratings', 'bad_games', 9)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'text_games', 9)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'textkey_games', 9)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, rating_column => 'player_id')$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 'nine'::text)$$),
  ($$CALL glicko2_close_period('bad_ratings_view', 'bad_games', 9)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, history => 'bad_games')$$),
  -- bad arguments
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', NULL::int)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, tau => 'NaN')$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, tau => 0)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, max_rd => -1)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, max_rd => 'Infinity')$$)
) cases(q);

SELECT ratings, period, close_number, players, games FROM glicko2_closes ORDER BY close_number;
SELECT player_id, rating FROM bad_ratings ORDER BY player_id;

-- A system catalog or TOAST table given for a table, to the procedures and
-- to the internal helpers alike (a superuser's glicko2_empty('pg_class')
-- was XX000, the catalog saved only by the rollback): 42809 naming the
-- argument, nothing changed.
SELECT count(*) AS classes FROM pg_class \gset
SELECT q, pg_temp.try(q) FROM (VALUES
  ($$CALL glicko2_close_period('pg_class', 'bad_games', 9)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'pg_class', 9)$$),
  ($$CALL glicko2_close_period('bad_ratings', 'bad_games', 9, history => 'pg_class')$$),
  ($$CALL glicko2_close_matches('pg_class', 'bad_games', 9)$$),
  ($$CALL glicko2_replay('pg_class', 'bad_games')$$),
  ($$SELECT * FROM glicko2_pair('pg_class')$$),
  ($$SELECT glicko2_internal.glicko2_empty('pg_class', 'x')$$),
  ($$SELECT glicko2_internal.glicko2_empty('pg_toast.pg_toast_1255', 'x')$$),
  ($$SELECT glicko2_internal.glicko2_close_lock('pg_class', 'bad_games', 'int', '9')$$),
  ($$SELECT glicko2_internal.glicko2_close_lock('bad_ratings', 'pg_attribute', 'int', '9')$$),
  ($$SELECT glicko2_internal.glicko2_close_apply('pg_class', 'bad_games', '9', 1, 'x', 'x', 0, 0.5, 350, NULL, 'oid', 'relname')$$),
  ($$SELECT glicko2_internal.glicko2_close_apply('bad_ratings', 'bad_games', '9', 1, 'x', 'x', 0, 0.5, 350, 'pg_class', 'player_id', 'rating')$$)
) cases(q);
SELECT count(*) = :classes AS pg_class_unchanged FROM pg_class;
