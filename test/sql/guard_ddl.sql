-- The guard trigger and the closes record under DDL around a guarded games
-- table (issue 29, 1): whatever is dropped, renamed or altered (ratings,
-- games, history tables, a column, a table dropped and created again under
-- its name), a write to the games table is refused or let through with a
-- clear answer, never a crash.  Before, a write to a guarded games table
-- whose ratings table was dropped crashed the backend (SIGSEGV), which
-- restarts the cluster and fails every test after this one.
CREATE SCHEMA guard_ddl;
SET search_path = guard_ddl, public;
\set SHOW_CONTEXT never

-- SQLSTATE and message of a statement, or ok.
CREATE FUNCTION try(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
-- The closes recorded for a ratings table of this schema, by name.
CREATE VIEW closes AS
  SELECT c.ratings::text AS ratings, c.period FROM glicko2_closes c
  WHERE c.ratings::oid IN (SELECT r.oid FROM pg_class r WHERE r.relnamespace = 'guard_ddl'::regnamespace)
  ORDER BY c.ratings::text, c.close_number;

-- A league closed for period 1, games guarded, with history.
CREATE TABLE ratings (player_id bigint PRIMARY KEY, rating glicko2_rating);
CREATE TABLE games (period int, player_id bigint, opponent_id bigint, score float8);
CREATE TABLE hist (player_id bigint, period int, rating glicko2_rating);
CALL glicko2_guard_games('games');
INSERT INTO games VALUES (1, 1, 2, 1), (1, 2, 3, 0.5);
CALL glicko2_close_period('ratings', 'games', 1, history => 'hist');
SELECT * FROM closes;

-- The issue's repro: DROP the ratings table, then write games.  Its closes
-- go with it (the event trigger glicko2_forget_dropped), and the guard no
-- longer refuses period 1: the ratings it guarded are gone.
DROP TABLE ratings;
SELECT count(*) AS closes_of_dropped FROM glicko2_closes WHERE ratings::text ~ '^[0-9]+$';
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_after_drop,
       try($$UPDATE games SET score = 0 WHERE player_id = 1 AND period = 1$$) AS update_after_drop,
       try($$DELETE FROM games WHERE score = 0$$) AS delete_after_drop,
       try($$COPY games FROM PROGRAM 'echo 2,4,5,1' WITH (FORMAT csv)$$) AS copy_after_drop;

-- The same DROP while event triggers are off (single-user mode, or a
-- superuser's ALTER EVENT TRIGGER ... DISABLE): the close of the dropped
-- table stays recorded under its bare OID, and the guard ignores it.
CREATE TABLE ratings (player_id bigint PRIMARY KEY, rating glicko2_rating);
CALL glicko2_close_period('ratings', 'games', 1);
ALTER EVENT TRIGGER glicko2_forget_dropped DISABLE;
SELECT 'ratings'::regclass::oid AS dropped_oid \gset
DROP TABLE ratings;
ALTER EVENT TRIGGER glicko2_forget_dropped ENABLE;
SELECT count(*) AS orphan_closes FROM glicko2_closes WHERE ratings::oid = :dropped_oid;
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_orphan,
       try($$UPDATE games SET score = 1 WHERE period = 1$$) AS update_orphan,
       try($$DELETE FROM games WHERE period = 2$$) AS delete_orphan,
       try($$TRUNCATE games$$) AS truncate_orphan;
-- (anyone may delete the record of a table that no longer exists)
CREATE ROLE guard_ddl_somebody;
GRANT USAGE ON SCHEMA guard_ddl TO guard_ddl_somebody;
SET ROLE guard_ddl_somebody;
DELETE FROM glicko2_closes WHERE ratings::oid = :dropped_oid;
RESET ROLE;
SELECT count(*) AS orphan_closes_left FROM glicko2_closes WHERE ratings::oid = :dropped_oid;

-- Dropped and created again under the same name: a new table, no closes of
-- its own; it closes period 1 afresh, and the guard then refuses period 1.
INSERT INTO games VALUES (1, 1, 2, 1), (1, 2, 3, 0);
CREATE TABLE ratings (player_id bigint PRIMARY KEY, rating glicko2_rating);
SELECT * FROM closes;
CALL glicko2_close_period('ratings', 'games', 1, history => 'hist');
SELECT * FROM closes;
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_recreated;

-- RENAME and ALTER of the ratings table: its closes follow it (by OID), the
-- guard names it as it is called now.
ALTER TABLE ratings RENAME TO ratings_renamed;
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_ratings_renamed;
ALTER TABLE ratings_renamed ADD COLUMN note text;
ALTER TABLE ratings_renamed DROP COLUMN note;
ALTER TABLE ratings_renamed SET SCHEMA public;
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_ratings_moved;
ALTER TABLE public.ratings_renamed SET SCHEMA guard_ddl;
ALTER TABLE ratings_renamed RENAME TO ratings;
SELECT try($$INSERT INTO games VALUES (2, 1, 2, 1)$$) AS insert_open_period;

-- RENAME and ALTER of the games table: still guarded.
ALTER TABLE games RENAME TO games_renamed;
SELECT try($$INSERT INTO games_renamed VALUES (1, 1, 2, 1)$$) AS insert_games_renamed;
ALTER TABLE games_renamed RENAME TO games;
ALTER TABLE games ADD COLUMN note text;
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_games_altered;
-- The period column's type changed: the recorded period is read in the new type.
ALTER TABLE games ALTER COLUMN period TYPE bigint;
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_period_bigint;
-- ... or refused with a clear error where it no longer reads as it.
ALTER TABLE games ALTER COLUMN period TYPE date USING DATE '2024-01-01' + period::int;
\set SHOW_CONTEXT always
\set VERBOSITY terse
DO $$ BEGIN INSERT INTO guard_ddl.games VALUES (DATE '2024-02-01', 1, 2, 1);
EXCEPTION WHEN OTHERS THEN
  DECLARE ctx text; BEGIN GET STACKED DIAGNOSTICS ctx = PG_EXCEPTION_CONTEXT;
  RAISE NOTICE '%: % (context: %)', SQLSTATE, SQLERRM, split_part(ctx, E'\n', 1); END;
END $$;
\set VERBOSITY default
\set SHOW_CONTEXT never
ALTER TABLE games ALTER COLUMN period TYPE int USING (period - DATE '2024-01-01');
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_period_int_again;
-- The period column dropped: every write is refused, naming the column.
ALTER TABLE games RENAME COLUMN period TO period_renamed;
SELECT try($$INSERT INTO games VALUES (1, 1, 2, 1)$$) AS insert_period_renamed;
ALTER TABLE games RENAME COLUMN period_renamed TO period;
CREATE TABLE games_kept AS SELECT * FROM games;
ALTER TABLE games DROP COLUMN period;
SELECT try($$INSERT INTO games VALUES (1, 2, 1)$$) AS insert_period_dropped,
       try($$DELETE FROM games$$) AS delete_period_dropped,
       try($$TRUNCATE games$$) AS truncate_period_dropped;

-- The games table dropped: its closes stay (they are the ratings table's:
-- period 1 of ratings stays closed), and a games table created again under
-- the name is guarded afresh.
DROP TABLE games;
SELECT * FROM closes;
CREATE TABLE games (LIKE games_kept);
INSERT INTO games SELECT * FROM games_kept WHERE period = 2;
CALL glicko2_guard_games('games');
SELECT try($$CALL glicko2_close_period('ratings', 'games', 1)$$) AS close_1_again;
CALL glicko2_close_period('ratings', 'games', 2, history => 'hist');
SELECT try($$INSERT INTO games VALUES (2, 1, 2, 1, NULL)$$) AS insert_new_games_closed,
       try($$INSERT INTO games VALUES (3, 1, 2, 1, NULL)$$) AS insert_new_games_open;

-- The history table renamed, altered, its column dropped, dropped.
ALTER TABLE hist RENAME TO hist2;
SELECT try($$CALL glicko2_close_period('ratings', 'games', 3, history => 'hist2')$$) AS close_history_renamed;
ALTER TABLE hist2 DROP COLUMN period;
SELECT try($$CALL glicko2_close_period('ratings', 'games', 4, history => 'hist2')$$) AS close_history_column_dropped;
DROP TABLE hist2;
SELECT try($$CALL glicko2_close_period('ratings', 'games', 4, history => 'hist2')$$) AS close_history_dropped;
SELECT try($$INSERT INTO games VALUES (3, 1, 2, 1, NULL)$$) AS insert_after_history_dropped,
       try($$INSERT INTO games VALUES (4, 1, 2, 1, NULL)$$) AS insert_open_after_history_dropped;
SELECT * FROM closes;

-- A named guard (its argument names the ratings table) whose ratings table
-- is dropped: a clear error naming it, no crash.
CREATE TABLE ratings2 (player_id bigint PRIMARY KEY, rating glicko2_rating);
CREATE TABLE games2 (period int, player_id bigint, opponent_id bigint, score float8);
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON games2
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games('ratings2');
INSERT INTO games2 VALUES (1, 1, 2, 1);
CALL glicko2_close_period('ratings2', 'games2', 1, unguarded => true);
SELECT try($$INSERT INTO games2 VALUES (1, 1, 2, 1)$$) AS insert_named_closed;
DROP TABLE ratings2;
SELECT try($$INSERT INTO games2 VALUES (1, 1, 2, 1)$$) AS insert_named_dropped;

-- A period column that is not there is refused when guarding (42703), and
-- no trigger is created.
SELECT try($$CALL glicko2_guard_games('games2', 'nope')$$) AS guard_missing_column;
SELECT count(*) AS triggers_added FROM pg_trigger
WHERE tgrelid = 'games2'::regclass AND tgname = 'refuse_closed_truncate';

DELETE FROM glicko2_closes
WHERE ratings IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'guard_ddl'::regnamespace);
SET client_min_messages = warning;
DROP SCHEMA guard_ddl CASCADE;
DROP ROLE guard_ddl_somebody;
RESET search_path;
