-- bench/citus_close_matches.sql — glicko2_close_matches on Citus's workers
-- against the same close on one node, same data, same run (tools/citus.sh
-- runs it):
--   CITUS_SRC=... PG_CONFIG=... CITUS_BENCH_PLAYERS=100000 CITUS_BENCH_MATCHES=100000 \
--     bash tools/citus.sh bench/citus_close_matches.sql
-- Two leagues, int keys and text keys ('p' || i), each in two copies: plain
-- tables on the coordinator (the single-node close) and ratings and history
-- distributed by the player, matches by the match (32 shards over the two
-- workers).  Five against five, 10 % ties, every 10th row a play share of
-- 0.5; 5 % of the players are new, every 97th NULL-rated; the matches fall
-- in periods 1 and 2, closed ('sum') with max_rd 250 and NULL.  Each close
-- is measured as bench/citus_close.sql measures it (bench/citus_close_one.sql:
-- wall time, each node's CPU, the bytes the coordinator received), the
-- single node's first; then ratings and history of both copies, compared.
\getenv players CITUS_BENCH_PLAYERS
\getenv matches CITUS_BENCH_MATCHES
\if :{?players} \else \set players 100000 \endif
\if :{?matches} \else \set matches 100000 \endif
\pset footer off
SET client_min_messages = warning;
CREATE SCHEMA bench_citus_close_matches;
SET search_path = bench_citus_close_matches, public;
SET citus.shard_count = 32;
SELECT :players AS players, :matches AS matches, 10 * :matches AS match_rows,
       current_setting('server_version') AS server,
       (SELECT extversion FROM pg_extension WHERE extname = 'citus') AS citus;

\ir citus_close_base.sql
-- (ten distinct players a match: 7919 * slot differ modulo the player count)
CREATE TABLE matches_base AS
SELECT m AS match_id, 1 + m % 2 AS period,
       1 + (floor(u(m, 4) * :players)::int + 7919 * slot) % :players AS player_id,
       slot % 2 AS team,
       CASE WHEN u(m, 5) < 0.1 THEN 1 ELSE 1 + ((slot % 2) + (u(m, 6) < 0.5)::int) % 2 END AS place,
       CASE WHEN u(m * 16 + slot, 7) < 0.1 THEN 0.5 ELSE 1 END::float8 AS weight
FROM generate_series(1, :matches) m, generate_series(0, 9) slot;

CREATE PROCEDURE league(name text, key_type text) LANGUAGE plpgsql AS $$
DECLARE
  k text := CASE WHEN key_type = 'text' THEN '''p'' || %s' ELSE '%s' END;
  s text;
BEGIN
  FOREACH s IN ARRAY ARRAY['_local', ''] LOOP
    EXECUTE format('CREATE TABLE %I (player_id %s PRIMARY KEY, rating glicko2_rating)', name || s, key_type);
    EXECUTE format('CREATE TABLE %I (match_id int, period int, player_id %s, team int, place int, weight float8)',
                   name || '_games' || s, key_type);
    EXECUTE format('CREATE TABLE %I (player_id %s, period int, rating glicko2_rating)', name || '_history' || s, key_type);
    IF s = '' THEN
      PERFORM create_distributed_table(name, 'player_id');
      PERFORM create_distributed_table(name || '_games', 'match_id');
      PERFORM create_distributed_table(name || '_history', 'player_id', colocate_with => name);
    END IF;
    EXECUTE format('INSERT INTO %I SELECT %s, rating FROM base', name || s, format(k, 'player_id'));
    EXECUTE format('INSERT INTO %I SELECT match_id, period, %s, team, place, weight FROM matches_base',
                   name || '_games' || s, format(k, 'player_id'));
    EXECUTE format('ANALYZE %I, %I', name || s, name || '_games' || s);
  END LOOP;
  EXECUTE format('CALL glicko2_guard_games(%L)', name || '_games_local');
END $$;
CALL league('int_keys', 'int');
CALL league('text_keys', 'text');
CHECKPOINT;

\set procedure glicko2_close_matches
\ir citus_close_runs.sql
DELETE FROM glicko2_closes WHERE ratings::text LIKE '%keys%';
DROP SCHEMA bench_citus_close_matches CASCADE;
