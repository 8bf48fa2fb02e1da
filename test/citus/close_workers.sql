-- glicko2_close_period on the workers: ratings, games and history
-- distributed by the player (co-located).  Each close runs on a distributed
-- copy of a league and on a plain copy on the coordinator (the single-node
-- close); ratings, history and the records are compared bit for bit, for
-- int and text keys, new players, NULL ratings, max_rd 350, 250 and NULL,
-- an advantage, floors and caps.  A bad game is refused as on one node,
-- and the close's work tables are distributed ones, dropped before commit.
SET citus.shard_count = 4;
CREATE SCHEMA citus_close_workers;
SET search_path = citus_close_workers, public;
SET citus.next_shard_id = 192000;
SET client_min_messages = warning;
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
-- 1900 players (every 97th NULL-rated), 1901-2000 new; 20000 games over
-- periods 1 and 2, home true, false or NULL.
CREATE TABLE base (player_id int, rating glicko2_rating);
INSERT INTO base
SELECT i, CASE WHEN i % 97 <> 0 THEN
         glicko2_rating(1200 + 600 * u(i, 1), 40 + 300 * u(i, 2), 0.05 + 0.02 * u(i, 3)) END
FROM generate_series(1, 1900) i;
CREATE TABLE games_base (period int, player_id int, opponent_id int, score float8, home boolean);
INSERT INTO games_base
SELECT 1 + g % 2, a, CASE WHEN b >= a THEN b + 1 ELSE b END, floor(u(g, 6) * 3) / 2,
       CASE WHEN g % 3 = 0 THEN NULL ELSE g % 3 = 1 END
FROM (SELECT g, 1 + floor(u(g, 4) * 2000)::int AS a, 1 + floor(u(g, 5) * 1999)::int AS b
      FROM generate_series(1, 20000) g) x;

-- The work tables a close creates (an event trigger notes them).
CREATE TABLE created (name text);
CREATE FUNCTION note_created() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO citus_close_workers.created
  SELECT regexp_replace(object_identity, '_[0-9]+_', '_N_') FROM pg_event_trigger_ddl_commands()
  WHERE command_tag = 'CREATE TABLE' AND object_identity ~ 'glicko2_close_[0-9]';
END $$;
CREATE EVENT TRIGGER note_created ON ddl_command_end EXECUTE FUNCTION note_created();

-- A league in two copies, keys of type key_type ('p' || i for text):
-- <name>_local and <name>_games_local, plain; <name> and <name>_games,
-- distributed, with history tables.
CREATE PROCEDURE league(name text, key_type text) LANGUAGE plpgsql AS $$
DECLARE
  k text := CASE WHEN key_type = 'text' THEN '''p'' || %s' ELSE '%s' END;
  s text;
BEGIN
  FOREACH s IN ARRAY ARRAY['_local', ''] LOOP
    EXECUTE format('CREATE TABLE %I (player_id %s PRIMARY KEY, rating glicko2_rating)', name || s, key_type);
    EXECUTE format('INSERT INTO %I SELECT %s, rating FROM base', name || s, format(k, 'player_id'));
    EXECUTE format('CREATE TABLE %I (period int, player_id %2$s, opponent_id %2$s, score float8, home boolean)',
                   name || '_games' || s, key_type);
    EXECUTE format('INSERT INTO %I SELECT period, %s, %s, score, home FROM games_base',
                   name || '_games' || s, format(k, 'player_id'), format(k, 'opponent_id'));
    EXECUTE format('CREATE TABLE %I (player_id %s, period int, rating glicko2_rating)', name || '_history' || s, key_type);
  END LOOP;
  PERFORM create_distributed_table(name, 'player_id');
  PERFORM create_distributed_table(name || '_games', 'player_id', colocate_with => name);
  PERFORM create_distributed_table(name || '_history', 'player_id', colocate_with => name);
  EXECUTE format('CALL glicko2_guard_games(%L)', name || '_games_local');
END $$;

-- Both copies closed for periods 1 and 2 with the same arguments; what
-- differs, counted (0 everywhere: the same bits).
CREATE FUNCTION compare(name text, args text)
RETURNS TABLE (league text, players bigint, ratings_differ bigint, history_rows bigint,
               history_differ bigint, records_differ bigint) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  p int;
BEGIN
  FOR p IN 1..2 LOOP
    EXECUTE format('CALL glicko2_close_period(%L, %L, %s, unguarded => true, history => %L%s)',
                   name, name || '_games', p, name || '_history', args);
    EXECUTE format('CALL glicko2_close_period(%L, %L, %s, history => %L%s)',
                   name || '_local', name || '_games_local', p, name || '_history_local', args);
  END LOOP;
  league := name || CASE WHEN args = '' THEN '' ELSE ' (' || substr(args, 3) || ')' END;
  EXECUTE format('SELECT count(*), count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating)
                  FROM %I d FULL JOIN %I l USING (player_id)', name, name || '_local')
    INTO players, ratings_differ;
  EXECUTE format('SELECT count(*), count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating OR d.player_id IS NULL OR l.player_id IS NULL)
                  FROM %I d FULL JOIN %I l USING (player_id, period)', name || '_history', name || '_history_local')
    INTO history_rows, history_differ;
  SELECT count(*) INTO records_differ
  FROM (SELECT period, players, played, new_players, games, tau, max_rd, advantage, home_column,
               min_rating, max_change, max_volatility, capped
        FROM glicko2_closes WHERE ratings = name::regclass
        EXCEPT
        SELECT period, players, played, new_players, games, tau, max_rd, advantage, home_column,
               min_rating, max_change, max_volatility, capped
        FROM glicko2_closes WHERE ratings = (name || '_local')::regclass) x;
  RETURN NEXT;
END $$;

CALL league('int_keys', 'int');
CALL league('int_250', 'int');
CALL league('int_uncapped', 'int');
CALL league('text_keys', 'text');
CALL league('text_250', 'text');
SELECT * FROM compare('int_keys', '');
SELECT * FROM compare('int_250', ', max_rd => 250, tau => 0.3, advantage => 30, home_column => ''home''');
SELECT * FROM compare('int_uncapped', ', max_rd => NULL, min_rating => 1000, max_change => 60, max_volatility => 0.0601');
SELECT * FROM compare('text_keys', '');
SELECT * FROM compare('text_250', ', max_rd => 250, advantage => -20.5, home_column => ''home''');
-- The records: every player, the games of each period, floors and caps at work.
-- (this file's leagues only: it runs alone or after other tests)
SELECT ratings, period, players, played, new_players, games, max_rd, capped > 0 AS capped
FROM glicko2_closes c JOIN pg_class r ON r.oid = c.ratings
WHERE r.relnamespace = 'citus_close_workers'::regnamespace AND r.relname NOT LIKE '%local'
ORDER BY close_number, ratings::text;
-- Each close made its three work tables (A, B, N) and dropped them.
SELECT name, count(*) AS closes FROM created GROUP BY name ORDER BY name;
SELECT count(*) AS left_over FROM pg_class WHERE relname ~ '^glicko2_close_[0-9]';

-- Exactly once.
CALL glicko2_close_period('int_keys', 'int_keys_games', 2, unguarded => true);
-- A bad game: the error of the single-node close, nothing changed.
INSERT INTO int_keys_games VALUES (3, 5, 5, 1), (3, 7, 8, 1.5), (3, 9, 10, 1);
INSERT INTO int_keys_games_local VALUES (3, 5, 5, 1), (3, 7, 8, 1.5), (3, 9, 10, 1);
CALL glicko2_close_period('int_keys', 'int_keys_games', 3, unguarded => true);
CALL glicko2_close_period('int_keys_local', 'int_keys_games_local', 3);
DELETE FROM int_keys_games WHERE period = 3 AND score > 1;
DELETE FROM int_keys_games_local WHERE period = 3 AND score > 1;
CALL glicko2_close_period('int_keys', 'int_keys_games', 3, unguarded => true);
CALL glicko2_close_period('int_keys_local', 'int_keys_games_local', 3);
DELETE FROM int_keys_games WHERE period = 3 AND player_id = 5;
-- All or nothing: a constraint on one shard fails the close's update there.
SELECT format('ALTER TABLE int_keys ADD CONSTRAINT pinned CHECK (player_id <> 9 OR (rating).rd >= %s)', floor((rating).rd))
FROM int_keys WHERE player_id = 9 \gexec
CREATE TABLE before AS SELECT * FROM int_keys;
CALL glicko2_close_period('int_keys', 'int_keys_games', 3, unguarded => true, history => 'int_keys_history');
SELECT count(*) FILTER (WHERE r.rating IS DISTINCT FROM b.rating) AS changed,
       (SELECT count(*) FROM int_keys_history WHERE period = 3) AS history_of_3,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'int_keys'::regclass AND period = '3') AS closes_of_3
FROM int_keys r FULL JOIN before b USING (player_id);
ALTER TABLE int_keys DROP CONSTRAINT pinned;
CALL glicko2_close_period('int_keys', 'int_keys_games', 3, unguarded => true, history => 'int_keys_history');
SELECT players, played, new_players, games FROM glicko2_closes WHERE ratings = 'int_keys'::regclass AND period = '3';

-- In the caller's transaction: a close rolled back with it leaves nothing;
-- a history table on the coordinator only (not distributed) is written too.
CREATE TABLE history_here (player_id int, period int, rating glicko2_rating);
CREATE TABLE before_4 AS SELECT * FROM int_keys;
INSERT INTO int_keys_games SELECT 4, player_id, opponent_id, score FROM int_keys_games WHERE period = 1 AND player_id < 500;
BEGIN;
UPDATE int_keys SET rating = rating WHERE player_id < 10;
CALL glicko2_close_period('int_keys', 'int_keys_games', 4, unguarded => true, history => 'history_here');
SELECT count(*) AS history_rows FROM history_here;
ROLLBACK;
SELECT count(*) FILTER (WHERE r.rating IS DISTINCT FROM b.rating) AS changed,
       (SELECT count(*) FROM history_here) AS history_rows,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'int_keys'::regclass AND period = '4') AS closes_of_4
FROM int_keys r FULL JOIN before_4 b USING (player_id);
CALL glicko2_close_period('int_keys', 'int_keys_games', 4, unguarded => true, history => 'history_here');
SELECT count(*) AS history_rows, count(*) FILTER (WHERE h.rating IS DISTINCT FROM r.rating) AS differ_from_ratings
FROM history_here h JOIN int_keys r USING (player_id);
SELECT count(*) AS left_over FROM pg_class WHERE relname ~ '^glicko2_close_[0-9]';
DROP EVENT TRIGGER note_created;
