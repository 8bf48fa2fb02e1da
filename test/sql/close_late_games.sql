-- glicko2_close_period, guarantee 4: no game silently lost.  Games written to
-- a period that is already closed are refused by glicko2_refuse_closed_games,
-- the trigger a league attaches to its games table (per row for INSERT,
-- UPDATE and DELETE, per statement for TRUNCATE); a close without it is
-- refused unless the caller opts out with unguarded => true.
-- (Partitioned games: close_partitioned.sql.)
-- (Games written while the period is being closed: specs/close_concurrent.spec.)
CREATE SCHEMA close_late;
SET search_path = close_late, public;
\set SHOW_CONTEXT never

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON games
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games();
CREATE TRIGGER refuse_closed_truncate BEFORE TRUNCATE ON games
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_refuse_closed_games();
INSERT INTO games VALUES (1, 1, 2, 1), (2, 1, 3, 0.5);
-- Before any close everything may be written.
UPDATE games SET score = 0 WHERE period = 1;
CALL glicko2_close_period('ratings', 'games', 1);

-- Written to the closed period, or before it: refused.
INSERT INTO games VALUES (1, 2, 3, 1);
INSERT INTO games VALUES (0, 2, 3, 1);
UPDATE games SET score = 1 WHERE period = 1;
UPDATE games SET period = 1 WHERE period = 2;
DELETE FROM games WHERE period = 1;
TRUNCATE games;
-- One bad row refuses the whole statement.
INSERT INTO games VALUES (3, 2, 3, 1), (1, 2, 3, 1);
-- Open periods are free.
INSERT INTO games VALUES (3, 2, 3, 1);
UPDATE games SET score = 0.5 WHERE period = 3;
DELETE FROM games WHERE period = 3;
SELECT * FROM games ORDER BY period, player_id;
-- A table holding only open periods may be emptied.
CREATE TABLE open_games (LIKE games);
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON open_games
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games('ratings');
CREATE TRIGGER refuse_closed_truncate BEFORE TRUNCATE ON open_games
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_refuse_closed_games('ratings');
INSERT INTO open_games VALUES (2, 1, 2, 1);
TRUNCATE open_games;
INSERT INTO open_games VALUES (1, 1, 2, 1), (2, 1, 2, 1);

-- Games read through a view: the trigger on the table names the ratings
-- table (unqualified: the games table's schema) and the period column.
CREATE TABLE club (member text PRIMARY KEY, rating glicko2_rating);
CREATE TABLE matches (month text, white text, black text, result float8);
CREATE VIEW club_games AS SELECT month AS period, white AS player_id, black AS opponent_id, result AS score FROM matches;
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON matches
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games('club', 'period_column=month');
CREATE TRIGGER refuse_closed_truncate BEFORE TRUNCATE ON matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_refuse_closed_games('club', 'period_column=month');
INSERT INTO matches VALUES ('2024-01', 'ann', 'bob', 1), ('2024-02', 'bob', 'ann', 1);
CALL glicko2_close_period('club', 'club_games', '2024-01'::text, player_column => 'member');
INSERT INTO matches VALUES ('2024-01', 'cy', 'bob', 0);
INSERT INTO matches VALUES ('2023-12', 'cy', 'bob', 0);
INSERT INTO matches VALUES ('2024-02', 'cy', 'bob', 0);
SELECT * FROM matches ORDER BY month, white;
TRUNCATE matches;

-- Without the triggers a close is refused, naming the table and what it
-- lacks; a trigger that is disabled, fires only for some events or only
-- WHEN something holds does not count.  With unguarded => true the close
-- runs, and glicko2_closes records that it was unguarded.
CREATE TABLE bare_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE bare_games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_close_period('bare_ratings', 'bare_games', 1);
\set VERBOSITY sqlstate
CALL glicko2_close_period('bare_ratings', 'bare_games', 1);
\set VERBOSITY default
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR DELETE ON bare_games
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games();
CREATE TRIGGER refuse_closed_truncate BEFORE TRUNCATE ON bare_games
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_refuse_closed_games();
CALL glicko2_close_period('bare_ratings', 'bare_games', 1);
DROP TRIGGER refuse_closed_games ON bare_games;
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON bare_games
  FOR EACH ROW WHEN (pg_trigger_depth() < 5) EXECUTE FUNCTION glicko2_refuse_closed_games();
CALL glicko2_close_period('bare_ratings', 'bare_games', 1);
DROP TRIGGER refuse_closed_games ON bare_games;
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON bare_games
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games();
ALTER TABLE bare_games DISABLE TRIGGER refuse_closed_truncate;
CALL glicko2_close_period('bare_ratings', 'bare_games', 1);
-- A guard naming another ratings table does not guard this one's closes.
ALTER TABLE bare_games ENABLE TRIGGER refuse_closed_truncate;
DROP TRIGGER refuse_closed_games ON bare_games;
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON bare_games
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games('ratings');
CALL glicko2_close_period('bare_ratings', 'bare_games', 1);
DROP TRIGGER refuse_closed_games ON bare_games;
DROP TRIGGER refuse_closed_truncate ON bare_games;
CALL glicko2_close_period('bare_ratings', 'bare_games', 1, unguarded => true);
SELECT period, unguarded FROM glicko2_closes WHERE ratings = 'bare_ratings'::regclass;
SELECT period, unguarded FROM glicko2_closes WHERE ratings = 'ratings'::regclass;

-- The trigger is a BEFORE ... FOR EACH ROW trigger naming real tables.
CREATE TRIGGER wrong AFTER INSERT ON bare_games FOR EACH STATEMENT EXECUTE FUNCTION glicko2_refuse_closed_games();
INSERT INTO bare_games VALUES (2, 1, 2, 1);
DROP TRIGGER wrong ON bare_games;
CREATE TRIGGER wrong BEFORE INSERT ON bare_games FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games('no_such_ratings');
INSERT INTO bare_games VALUES (2, 1, 2, 1);
DROP TRIGGER wrong ON bare_games;

DELETE FROM glicko2_closes
WHERE ratings IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'close_late'::regnamespace);
SET client_min_messages = warning;
DROP SCHEMA close_late CASCADE;
RESET search_path;
