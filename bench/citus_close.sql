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
\ir citus_close_games.sql
CALL league('int_keys', 'int');
CALL league('text_keys', 'text');
CHECKPOINT;

\ir citus_close_runs.sql
DELETE FROM glicko2_closes WHERE ratings::text LIKE '%keys%';
DROP SCHEMA bench_citus_close CASCADE;
