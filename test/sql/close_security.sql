-- glicko2_close_period, guarantee 6: identifiers are identifiers, the caller's
-- privileges apply, search_path is pinned, nothing is SECURITY DEFINER.
CREATE SCHEMA close_sec;
SET search_path = close_sec, public;
\set SHOW_CONTEXT never

-- Hostile names are just names.
CREATE TABLE "r; DROP TABLE games; --" ("player id" int PRIMARY KEY, "Rating" glicko2_rating);
CREATE TABLE games ("period'" int, "who?" int, "whom""" int, "score;" float8);
CALL glicko2_guard_games('games', period_column => 'period''');
INSERT INTO games VALUES (1, 1, 2, 1);
CALL glicko2_close_period('"r; DROP TABLE games; --"', 'games', 1,
                          player_column => 'player id', rating_column => 'Rating',
                          period_column => 'period''', game_player_column => 'who?',
                          opponent_column => 'whom"', score_column => 'score;');
SELECT * FROM "r; DROP TABLE games; --" ORDER BY 1;
SELECT count(*) AS games_still_there FROM games;
SELECT ratings, period FROM glicko2_closes WHERE games_table = 'games'::regclass;

-- A hostile search_path: shadowing tables and functions are not used.
CREATE SCHEMA evil;
CREATE FUNCTION evil.glicko2_idle(r glicko2_rating, periods float8, max_rd float8)
  RETURNS glicko2_rating LANGUAGE sql AS 'SELECT glicko2_rating(0, 1, 1)';
CREATE TABLE evil.glicko2_closes (LIKE public.glicko2_closes);
CREATE TEMP TABLE pg_class (oid oid, relkind "char");
SET search_path = evil, close_sec, public;
CALL glicko2_close_period('"r; DROP TABLE games; --"', 'games', 2,
                          player_column => 'player id', rating_column => 'Rating',
                          period_column => 'period''', game_player_column => 'who?',
                          opponent_column => 'whom"', score_column => 'score;');
SELECT * FROM close_sec."r; DROP TABLE games; --" ORDER BY 1;
SELECT count(*) AS shadow_rows FROM evil.glicko2_closes;
SELECT count(*) AS real_rows FROM public.glicko2_closes WHERE games_table = 'close_sec.games'::regclass;
SET search_path = close_sec, public;
DROP TABLE pg_temp.pg_class;

-- The caller's privileges: a role that may read but not update the ratings
-- table gets a permission error and nothing changes.
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings VALUES (1, glicko2_rating(1500, 200, 0.06)), (2, glicko2_rating(1400, 30, 0.06));
CREATE TABLE league_games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('league_games');
INSERT INTO league_games VALUES (1, 1, 2, 1);
CREATE TABLE snapshot AS SELECT * FROM ratings;
CREATE ROLE regress_close_reader;
CREATE ROLE regress_close_keeper;
GRANT USAGE ON SCHEMA close_sec TO regress_close_reader, regress_close_keeper;
GRANT SELECT ON ratings, league_games TO regress_close_reader;
GRANT SELECT, INSERT, UPDATE ON ratings, league_games TO regress_close_keeper;
SET ROLE regress_close_reader;
CALL glicko2_close_period('ratings', 'league_games', 1);
-- Nor can it forge a close of a table it may not update.
INSERT INTO glicko2_closes VALUES ('close_sec.ratings', '99', 1, 'close_sec.league_games', now(), current_user, 0, 0, 0, 0, 0.5, 350);
RESET ROLE;
SELECT count(*) AS ratings_changed FROM ratings r JOIN snapshot s USING (player_id) WHERE r.rating IS DISTINCT FROM s.rating;
SELECT count(*) AS closes FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
-- A role with the privileges closes the period (run as itself).
SET ROLE regress_close_keeper;
CALL glicko2_close_period('ratings', 'league_games', 1);
RESET ROLE;
SELECT period, closed_by FROM glicko2_closes WHERE ratings = 'ratings'::regclass;

-- Every SQL and PL/pgSQL function and procedure of the close pins
-- search_path and none is SECURITY DEFINER.  The guard trigger is C (a
-- pinned search_path would cost a configuration change on every row): the
-- queries it runs name the extension's schema and no operator
-- (security.sql fires it under a hostile search_path).
SELECT p.oid::regprocedure AS routine, l.lanname, p.prosecdef AS security_definer,
       'search_path=pg_catalog, pg_temp' = ANY (p.proconfig) AS search_path_pinned
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.proname IN ('glicko2_close_period', 'glicko2_refuse_closed_games', 'glicko2_column_type',
                    'glicko2_guard_scope', 'glicko2_guard_gaps', 'glicko2_guard_games')
ORDER BY 1;

DELETE FROM glicko2_closes WHERE games_table IN ('close_sec.games'::regclass, 'close_sec.league_games'::regclass);
REVOKE ALL ON SCHEMA close_sec FROM regress_close_reader, regress_close_keeper;
SET client_min_messages = warning;
DROP SCHEMA close_sec CASCADE;
DROP SCHEMA evil CASCADE;
DROP ROLE regress_close_reader;
DROP ROLE regress_close_keeper;
RESET search_path;
