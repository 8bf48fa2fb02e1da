-- glicko2_close_period, guarantee 2: all or nothing.  An error part-way
-- through the update, or a statement_timeout, leaves every rating, the
-- history and the record of closes as they were.  (A cancel from another
-- session: specs/close_concurrent.spec.)
CREATE SCHEMA close_atomic;
SET search_path = close_atomic, public;
\set SHOW_CONTEXT never

-- A generated league: 2000 players, 20000 games in period 1.
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings SELECT i, glicko2_rating(1000 + i % 1000, 50 + i % 250, 0.06) FROM generate_series(1, 2000) i;
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('games');
INSERT INTO games SELECT 1, 1 + i % 2000, 1 + (i * 7 + 1 + i / 2000) % 2000, (i % 3) / 2.0
FROM generate_series(1, 20000) i WHERE i % 2000 <> (i * 7 + 1 + i / 2000) % 2000;
CREATE TABLE history (player_id int, period int, rating glicko2_rating, UNIQUE (player_id, period));
CREATE TABLE snapshot AS SELECT * FROM ratings;
CREATE VIEW changed AS
  SELECT (SELECT count(*) FROM ratings r FULL JOIN snapshot s USING (player_id)
          WHERE r.rating IS DISTINCT FROM s.rating) AS ratings_changed,
         (SELECT count(*) FROM history) AS history_rows,
         (SELECT count(*) FROM glicko2_closes WHERE ratings = 'close_atomic.ratings'::regclass) AS closes;

-- A stored rating that is not valid (RD 0), met while rating the period.
UPDATE ratings SET rating = ROW(1500, 0, 0.06)::glicko2_rating WHERE player_id = 1999;
UPDATE snapshot SET rating = ROW(1500, 0, 0.06)::glicko2_rating WHERE player_id = 1999;
CALL glicko2_close_period('ratings', 'games', 1, history => 'history');
SELECT * FROM changed;
UPDATE ratings SET rating = glicko2_rating(1500, 200, 0.06) WHERE player_id = 1999;
UPDATE snapshot SET rating = glicko2_rating(1500, 200, 0.06) WHERE player_id = 1999;

-- A constraint of the ratings table that one new rating breaks.
ALTER TABLE ratings ADD CONSTRAINT rd_floor CHECK ((rating).rd >= 50) NOT VALID;
CALL glicko2_close_period('ratings', 'games', 1, history => 'history');
SELECT * FROM changed;
ALTER TABLE ratings DROP CONSTRAINT rd_floor;

-- The history insert fails after every rating was updated.
INSERT INTO history VALUES (1234, 1, NULL);
CALL glicko2_close_period('ratings', 'games', 1, history => 'history');
SELECT * FROM changed;
DELETE FROM history;

-- A statement_timeout: one row's update waits 2 s, the timeout is 200 ms.
CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_sleep(2);
  RETURN NEW;
END $$;
CREATE TRIGGER slow BEFORE UPDATE ON ratings FOR EACH ROW WHEN (NEW.player_id = 1000) EXECUTE FUNCTION slow();
SET statement_timeout = '200ms';
CALL glicko2_close_period('ratings', 'games', 1, history => 'history');
RESET statement_timeout;
SELECT * FROM changed;
DROP TRIGGER slow ON ratings;

-- Nothing of the failed attempts remains: the close now succeeds, once.
CALL glicko2_close_period('ratings', 'games', 1, history => 'history');
SELECT ratings_changed, history_rows, closes FROM changed;
SELECT period, players, played, new_players, games FROM glicko2_closes WHERE ratings = 'ratings'::regclass;

DELETE FROM glicko2_closes WHERE ratings = 'close_atomic.ratings'::regclass;
SET client_min_messages = warning;
DROP SCHEMA close_atomic CASCADE;
RESET search_path;
