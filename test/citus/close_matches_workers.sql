-- glicko2_close_matches on the workers: ratings and history distributed by
-- the player, matches by the match.  Each close runs on a distributed copy
-- of a league and on a plain copy on the coordinator (the single-node
-- close); ratings, history and the records are compared bit for bit, for
-- int and text keys, the methods 'sum', 'mean' and 'individual', weights, a
-- party column with party and size advantages, new players, NULL ratings,
-- max_rd 350, 250 and NULL, floors and caps.  A bad match is refused as on
-- one node; exactly once, all or nothing, in the caller's transaction; the
-- close's work tables are distributed ones, dropped before commit.
SET citus.shard_count = 4;
CREATE SCHEMA citus_close_matches;
SET search_path = citus_close_matches, public;
SET citus.next_shard_id = 195000;
SET client_min_messages = warning;
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
-- 1900 players (every 97th NULL-rated), 1901-2000 new; 3000 matches over
-- periods 1 and 2: two teams of 1 to 5 (every 7th match four players, each
-- alone), places won, lost or tied, every 10th row a play share of 0.5,
-- every 3rd team of two or more a party of its first two players.
CREATE TABLE base (player_id int, rating glicko2_rating);
INSERT INTO base
SELECT i, CASE WHEN i % 97 <> 0 THEN
         glicko2_rating(1200 + 600 * u(i, 1), 40 + 300 * u(i, 2), 0.05 + 0.02 * u(i, 3)) END
FROM generate_series(1, 1900) i;
CREATE TABLE matches_base AS
SELECT m AS match_id, 1 + m % 2 AS period,
       1 + (floor(u(m, 4) * 2000)::int + 37 * slot) % 2000 AS player_id,
       slot % teams AS team,
       CASE WHEN teams > 2 THEN 1 + (slot + m) % teams
            WHEN u(m, 5) < 0.1 THEN 1
            ELSE 1 + ((slot % 2) + (u(m, 6) < 0.5)::int) % 2 END AS place,
       CASE WHEN u(m * 16 + slot, 7) < 0.1 THEN 0.5 ELSE 1 END::float8 AS weight,
       CASE WHEN teams = 2 AND size >= 2 AND slot < 4 AND (m + slot % 2) % 3 = 0 THEN m * 10 + slot % 2 END AS party
FROM (SELECT m, CASE WHEN m % 7 = 0 THEN 4 ELSE 2 END AS teams, 1 + m % 5 AS size FROM generate_series(1, 3000) m) x,
     LATERAL generate_series(0, CASE WHEN teams = 4 THEN 3 ELSE 2 * size - 1 END) slot;

-- The work tables a close creates (an event trigger notes them).
CREATE TABLE created (name text);
CREATE FUNCTION note_created() RETURNS event_trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO citus_close_matches.created
  SELECT regexp_replace(object_identity, '_[0-9]+_', '_N_') FROM pg_event_trigger_ddl_commands()
  WHERE command_tag = 'CREATE TABLE' AND object_identity ~ 'glicko2_close_[0-9]';
END $$;
CREATE EVENT TRIGGER note_created ON ddl_command_end EXECUTE FUNCTION note_created();

-- A league in two copies, keys of type key_type ('p' || i for text):
-- <name>_local, <name>_matches_local, <name>_history_local, plain; <name>,
-- <name>_matches, <name>_history, distributed (matches by the match).
CREATE PROCEDURE league(name text, key_type text) LANGUAGE plpgsql AS $$
DECLARE
  k text := CASE WHEN key_type = 'text' THEN '''p'' || %s' ELSE '%s' END;
  s text;
BEGIN
  FOREACH s IN ARRAY ARRAY['_local', ''] LOOP
    EXECUTE format('CREATE TABLE %I (player_id %s PRIMARY KEY, rating glicko2_rating)', name || s, key_type);
    EXECUTE format('INSERT INTO %I SELECT %s, rating FROM base', name || s, format(k, 'player_id'));
    EXECUTE format('CREATE TABLE %I (match_id bigint, period int, player_id %s, team int, place int, weight float8, party bigint)',
                   name || '_matches' || s, key_type);
    EXECUTE format('INSERT INTO %I SELECT match_id, period, %s, team, place, weight, party FROM matches_base',
                   name || '_matches' || s, format(k, 'player_id'));
    EXECUTE format('CREATE TABLE %I (player_id %s, period int, rating glicko2_rating)', name || '_history' || s, key_type);
  END LOOP;
  PERFORM create_distributed_table(name, 'player_id');
  PERFORM create_distributed_table(name || '_matches', 'match_id');
  PERFORM create_distributed_table(name || '_history', 'player_id', colocate_with => name);
  EXECUTE format('CALL glicko2_guard_games(%L)', name || '_matches_local');
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
    EXECUTE format('CALL glicko2_close_matches(%L, %L, %s, unguarded => true, history => %L%s)',
                   name, name || '_matches', p, name || '_history', args);
    EXECUTE format('CALL glicko2_close_matches(%L, %L, %s, history => %L%s)',
                   name || '_local', name || '_matches_local', p, name || '_history_local', args);
  END LOOP;
  league := name || CASE WHEN args = '' THEN '' ELSE ' (' || substr(args, 3) || ')' END;
  EXECUTE format('SELECT count(*), count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating)
                  FROM %I d FULL JOIN %I l USING (player_id)', name, name || '_local')
    INTO players, ratings_differ;
  EXECUTE format('SELECT count(*), count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating OR d.player_id IS NULL OR l.player_id IS NULL)
                  FROM %I d FULL JOIN %I l USING (player_id, period)', name || '_history', name || '_history_local')
    INTO history_rows, history_differ;
  SELECT count(*) INTO records_differ
  FROM (SELECT period, players, played, new_players, games, tau, max_rd, min_rating, max_change, max_volatility, capped,
               method, match_column, match_player_column, team_column, place_column, weight_column, party_column,
               party_advantage, size_advantage, teammates
        FROM glicko2_closes WHERE ratings = name::regclass
        EXCEPT
        SELECT period, players, played, new_players, games, tau, max_rd, min_rating, max_change, max_volatility, capped,
               method, match_column, match_player_column, team_column, place_column, weight_column, party_column,
               party_advantage, size_advantage, teammates
        FROM glicko2_closes WHERE ratings = (name || '_local')::regclass) x;
  RETURN NEXT;
END $$;

CALL league('int_sum', 'int');
CALL league('int_mean', 'int');
CALL league('int_individual', 'int');
CALL league('text_sum', 'text');
CALL league('text_mean', 'text');
SELECT * FROM compare('int_sum', '');
SELECT * FROM compare('int_mean', ', method => ''mean'', max_rd => 250, tau => 0.3, party_column => ''party'', party_advantage => 12.5, size_advantage => -3');
SELECT * FROM compare('int_individual', ', method => ''individual'', max_rd => NULL, min_rating => 1000, max_change => 60, max_volatility => 0.0601');
SELECT * FROM compare('text_sum', ', max_rd => NULL, party_column => ''party'', party_advantage => 20, min_rating => 1100');
SELECT * FROM compare('text_mean', ', method => ''mean'', max_rd => 250, weight_column => ''weight''');
-- The records: every player, the rows of each period, the options.
SELECT ratings, period, players, played, new_players, games, max_rd, method, weight_column, party_column,
       party_advantage, size_advantage, capped > 0 AS capped
FROM glicko2_closes c JOIN pg_class r ON r.oid = c.ratings
WHERE r.relnamespace = 'citus_close_matches'::regnamespace AND r.relname NOT LIKE '%local'
ORDER BY close_number, ratings::text;
-- Each close made its four work tables (P, M, T, N) and dropped them.
SELECT name, count(*) AS closes FROM created GROUP BY name ORDER BY name;
SELECT count(*) AS left_over FROM pg_class WHERE relname ~ '^glicko2_close_[0-9]';

-- Exactly once.
CALL glicko2_close_matches('int_sum', 'int_sum_matches', 2, unguarded => true);
-- A bad match: the error of the single-node close, nothing changed.
INSERT INTO int_sum_matches VALUES (9001, 3, 5, 0, 1, 1, NULL), (9001, 3, 6, 1, 2, 1, NULL),
                                   (9002, 3, 7, 0, 1, 1, NULL), (9002, 3, 7, 1, 2, 1, NULL);
INSERT INTO int_sum_matches_local VALUES (9001, 3, 5, 0, 1, 1, NULL), (9001, 3, 6, 1, 2, 1, NULL),
                                         (9002, 3, 7, 0, 1, 1, NULL), (9002, 3, 7, 1, 2, 1, NULL);
CALL glicko2_close_matches('int_sum', 'int_sum_matches', 3, unguarded => true);
CALL glicko2_close_matches('int_sum_local', 'int_sum_matches_local', 3);
INSERT INTO int_sum_matches VALUES (9003, 3, 8, 0, NULL, 1, NULL), (9003, 3, 9, 1, 1, 1, NULL);
INSERT INTO int_sum_matches_local VALUES (9003, 3, 8, 0, NULL, 1, NULL), (9003, 3, 9, 1, 1, 1, NULL);
CALL glicko2_close_matches('int_sum', 'int_sum_matches', 3, unguarded => true);
CALL glicko2_close_matches('int_sum_local', 'int_sum_matches_local', 3);
DELETE FROM int_sum_matches WHERE match_id IN (9002, 9003);
DELETE FROM int_sum_matches_local WHERE match_id IN (9002, 9003);
SELECT count(*) AS left_over FROM pg_class WHERE relname ~ '^glicko2_close_[0-9]';
-- All or nothing: a constraint on one shard fails the close's update there.
SELECT format('ALTER TABLE int_sum ADD CONSTRAINT pinned CHECK (player_id <> 5 OR (rating).rd >= %s)', floor((rating).rd))
FROM int_sum WHERE player_id = 5 \gexec
CREATE TABLE before AS SELECT * FROM int_sum;
CALL glicko2_close_matches('int_sum', 'int_sum_matches', 3, unguarded => true, history => 'int_sum_history');
SELECT count(*) FILTER (WHERE r.rating IS DISTINCT FROM b.rating) AS changed,
       (SELECT count(*) FROM int_sum_history WHERE period = 3) AS history_of_3,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'int_sum'::regclass AND period = '3') AS closes_of_3
FROM int_sum r FULL JOIN before b USING (player_id);
ALTER TABLE int_sum DROP CONSTRAINT pinned;
CALL glicko2_close_matches('int_sum', 'int_sum_matches', 3, unguarded => true, history => 'int_sum_history');
CALL glicko2_close_matches('int_sum_local', 'int_sum_matches_local', 3, history => 'int_sum_history_local');
SELECT count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating) AS ratings_differ
FROM int_sum d FULL JOIN int_sum_local l USING (player_id);
SELECT players, played, new_players, games FROM glicko2_closes WHERE ratings = 'int_sum'::regclass AND period = '3';

-- In the caller's transaction: a close rolled back with it leaves nothing;
-- a history table on the coordinator only (not distributed) is written too.
CREATE TABLE history_here (player_id int, period int, rating glicko2_rating);
CREATE TABLE before_4 AS SELECT * FROM int_sum;
INSERT INTO int_sum_matches SELECT match_id + 10000, 4, player_id, team, place, weight, party
FROM int_sum_matches WHERE period = 1 AND match_id < 500;
BEGIN;
UPDATE int_sum SET rating = rating WHERE player_id < 10;
CALL glicko2_close_matches('int_sum', 'int_sum_matches', 4, unguarded => true, history => 'history_here');
SELECT count(*) AS history_rows FROM history_here;
ROLLBACK;
SELECT count(*) FILTER (WHERE r.rating IS DISTINCT FROM b.rating) AS changed,
       (SELECT count(*) FROM history_here) AS history_rows,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'int_sum'::regclass AND period = '4') AS closes_of_4
FROM int_sum r FULL JOIN before_4 b USING (player_id);
CALL glicko2_close_matches('int_sum', 'int_sum_matches', 4, unguarded => true, history => 'history_here');
SELECT count(*) AS history_rows, count(*) FILTER (WHERE h.rating IS DISTINCT FROM r.rating) AS differ_from_ratings
FROM history_here h JOIN int_sum r USING (player_id);

-- Matches distributed by the player (not by the match): the close runs
-- through the coordinator (no work tables), the same bits.
CREATE TABLE by_player_local (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO by_player_local SELECT * FROM base;
CREATE TABLE by_player (LIKE by_player_local INCLUDING ALL);
INSERT INTO by_player SELECT * FROM base;
CREATE TABLE by_player_matches AS SELECT * FROM matches_base;
CREATE TABLE by_player_matches_local AS SELECT * FROM matches_base;
SELECT create_distributed_table('by_player', 'player_id');
SELECT create_distributed_table('by_player_matches', 'player_id', colocate_with => 'by_player');
TRUNCATE created;
CALL glicko2_close_matches('by_player', 'by_player_matches', 1, unguarded => true);
CALL glicko2_close_matches('by_player_local', 'by_player_matches_local', 1, unguarded => true);
SELECT count(*) AS players, count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating) AS ratings_differ,
       (SELECT count(*) FROM created) AS work_tables
FROM by_player d FULL JOIN by_player_local l USING (player_id);
-- A teammates store with distributed tables: refused, saying why, nothing
-- changed.
CALL glicko2_teammates_create('store', 'by_player');
\set VERBOSITY default
\set SHOW_CONTEXT never
CALL glicko2_close_matches('by_player', 'by_player_matches', 2, unguarded => true, teammates => 'store');
CALL glicko2_teammates_create('store_int_sum', 'int_sum');
CALL glicko2_close_matches('int_sum', 'int_sum_matches', 5, unguarded => true, teammates => 'store_int_sum');
\set VERBOSITY terse
\set SHOW_CONTEXT errors
SELECT count(*) AS closes_of_2 FROM glicko2_closes WHERE ratings = 'by_player'::regclass AND period = '2';
DROP EVENT TRIGGER note_created;
