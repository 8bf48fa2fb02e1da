-- glicko2_close_period, guarantee 3 (one session; two sessions at once are in
-- specs/close_concurrent.spec): a period closes once; a second close is an
-- ERROR that changes nothing; periods close in increasing order, compared in
-- the period's own type.
CREATE SCHEMA close_once;
SET search_path = close_once, public;
\set SHOW_CONTEXT never

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('games');
INSERT INTO games VALUES (9, 1, 2, 1), (10, 2, 3, 0.5), (11, 1, 3, 0);
CALL glicko2_close_period('ratings', 'games', 9);
CREATE TABLE snapshot AS SELECT * FROM ratings;
CREATE VIEW changed AS
  SELECT (SELECT count(*) FROM ratings r FULL JOIN snapshot s USING (player_id)
          WHERE r.rating IS DISTINCT FROM s.rating) AS ratings_changed,
         (SELECT string_agg(period, ', ' ORDER BY close_number) FROM glicko2_closes
          WHERE ratings = 'close_once.ratings'::regclass) AS closed;

-- Twice: an error, nothing changes.
CALL glicko2_close_period('ratings', 'games', 9);
SELECT * FROM changed;
-- Out of order: 10 must close before 11 can, and after 11, 10 never can
-- (as integers: 9 < 10, though '9' > '10' as text).
CALL glicko2_close_period('ratings', 'games', 11);
SELECT * FROM changed;
TRUNCATE snapshot;
INSERT INTO snapshot SELECT * FROM ratings;
CALL glicko2_close_period('ratings', 'games', 10);
CALL glicko2_close_period('ratings', 'games', 8);
CALL glicko2_close_period('ratings', 'games', 10);
SELECT * FROM changed;

-- Closing twice inside one transaction is refused too.
BEGIN;
CALL glicko2_close_period('ratings', 'games', 12);
CALL glicko2_close_period('ratings', 'games', 12);
ROLLBACK;
SELECT * FROM changed;

-- The record's unique keys hold even against a close the procedure cannot
-- see (as under REPEATABLE READ, where a snapshot can miss a close that
-- committed meanwhile): a row that appears after the procedure's checks,
-- forged here by a trigger on the ratings update, makes the close fail.
-- Same period: the primary key; another period with the same close number
-- (a close the snapshot missed): UNIQUE (ratings, close_number).
CREATE FUNCTION forge() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO public.glicko2_closes VALUES ('close_once.ratings', TG_ARGV[0], TG_ARGV[1]::bigint,
    'close_once.games', now(), current_user, 0, 0, 0, 0, 0.5, 350);
  RETURN NULL;
END $$;
CREATE TRIGGER forge AFTER UPDATE ON ratings FOR EACH STATEMENT EXECUTE FUNCTION forge('12', '9');
CALL glicko2_close_period('ratings', 'games', 12);
DROP TRIGGER forge ON ratings;
CREATE TRIGGER forge AFTER UPDATE ON ratings FOR EACH STATEMENT EXECUTE FUNCTION forge('13', '3');
CALL glicko2_close_period('ratings', 'games', 12);
DROP TRIGGER forge ON ratings;
SELECT * FROM changed;

-- REPEATABLE READ and SERIALIZABLE are refused: their snapshot can predate
-- games committed while the close waited for its locks.
BEGIN ISOLATION LEVEL REPEATABLE READ;
CALL glicko2_close_period('ratings', 'games', 12);
ROLLBACK;
BEGIN ISOLATION LEVEL SERIALIZABLE;
CALL glicko2_close_period('ratings', 'games', 12);
ROLLBACK;
SELECT * FROM changed;

-- Dates and text compare in their own type.
CREATE TABLE date_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE date_games (period date, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('date_games');
SET datestyle = 'SQL, DMY';
CALL glicko2_close_period('date_ratings', 'date_games', date '2024-02-01');
CALL glicko2_close_period('date_ratings', 'date_games', date '2024-01-15');
CALL glicko2_close_period('date_ratings', 'date_games', '01/02/2024'::date);
CALL glicko2_close_period('date_ratings', 'date_games', date '2024-10-01');
RESET datestyle;
SELECT period, close_number FROM glicko2_closes WHERE ratings = 'date_ratings'::regclass ORDER BY close_number;

DELETE FROM glicko2_closes
WHERE ratings IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'close_once'::regnamespace);
SET client_min_messages = warning;
DROP SCHEMA close_once CASCADE;
RESET search_path;
