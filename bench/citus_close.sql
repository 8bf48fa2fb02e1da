-- bench/citus_close.sql — glicko2_close_period on Citus's workers against
-- the same close on one node, same data, same run (tools/citus.sh runs it):
--   CITUS_SRC=... PG_CONFIG=... CITUS_BENCH_PLAYERS=200000 CITUS_BENCH_GAMES=2000000 \
--     bash tools/citus.sh bench/citus_close.sql
-- Two leagues, int keys and text keys ('p' || i), each in two copies: plain
-- tables on the coordinator (the single-node close) and ratings, games and
-- history distributed by the player (co-located, 32 shards over the two
-- workers).  5 % of the players are new, every 97th NULL-rated; the games
-- fall in periods 1 and 2, closed with max_rd 250 and NULL.  Each close is
-- one top-level CALL (its commit included), the single node's first; for
-- each: wall time, the CPU time of every node (bench/citus_cpu.sh: user +
-- system of all processes of its postmaster, exited ones included) and
-- the bytes the coordinator's backend received on its TCP sockets
-- (bench/tcp_received.py: the kernel's tcp_info of each, as `ss -ti` shows
-- it; from the workers, and the few of psql's statements).
-- Then the ratings and history of both copies, compared bit for bit.
\getenv players CITUS_BENCH_PLAYERS
\getenv games CITUS_BENCH_GAMES
\if :{?players} \else \set players 200000 \endif
\if :{?games} \else \set games 2000000 \endif
\pset footer off
SET client_min_messages = warning;
CREATE SCHEMA bench_citus_close;
SET search_path = bench_citus_close, public;
SET citus.shard_count = 32;
SELECT :players AS players, :games AS games,
       current_setting('server_version') AS server,
       (SELECT extversion FROM pg_extension WHERE extname = 'citus') AS citus;

\ir citus_close_base.sql
CREATE TABLE games_base (period int, player_id int, opponent_id int, score float8);
INSERT INTO games_base
SELECT 1 + g % 2, a, CASE WHEN b >= a THEN b + 1 ELSE b END, floor(u(g, 6) * 3) / 2
FROM (SELECT g, 1 + floor(u(g, 4) * :players)::int AS a, 1 + floor(u(g, 5) * (:players - 1))::int AS b
      FROM generate_series(1, :games) g) x;

CREATE PROCEDURE league(name text, key_type text) LANGUAGE plpgsql AS $$
DECLARE
  k text := CASE WHEN key_type = 'text' THEN '''p'' || %s' ELSE '%s' END;
  s text;
BEGIN
  FOREACH s IN ARRAY ARRAY['_local', ''] LOOP
    EXECUTE format('CREATE TABLE %I (player_id %s PRIMARY KEY, rating glicko2_rating)', name || s, key_type);
    EXECUTE format('CREATE TABLE %I (period int, player_id %2$s, opponent_id %2$s, score float8)',
                   name || '_games' || s, key_type);
    EXECUTE format('CREATE TABLE %I (player_id %s, period int, rating glicko2_rating)', name || '_history' || s, key_type);
    IF s = '' THEN
      PERFORM create_distributed_table(name, 'player_id');
      PERFORM create_distributed_table(name || '_games', 'player_id', colocate_with => name);
      PERFORM create_distributed_table(name || '_history', 'player_id', colocate_with => name);
    END IF;
    EXECUTE format('INSERT INTO %I SELECT %s, rating FROM base', name || s, format(k, 'player_id'));
    EXECUTE format('INSERT INTO %I SELECT period, %s, %s, score FROM games_base',
                   name || '_games' || s, format(k, 'player_id'), format(k, 'opponent_id'));
    EXECUTE format('ANALYZE %I, %I', name || s, name || '_games' || s);
  END LOOP;
  EXECUTE format('CALL glicko2_guard_games(%L)', name || '_games_local');
END $$;
CALL league('int_keys', 'int');
CALL league('text_keys', 'text');
CHECKPOINT;

\ir citus_close_runs.sql
DELETE FROM glicko2_closes WHERE ratings::text LIKE '%keys%';
DROP SCHEMA bench_citus_close CASCADE;
