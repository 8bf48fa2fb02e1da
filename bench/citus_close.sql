-- bench/citus_close.sql — glicko2_close_period on Citus against the same
-- close on one node, same data, same run (tools/citus.sh runs it):
--   CITUS_SRC=... PG_CONFIG=... CITUS_BENCH_PLAYERS=200000 CITUS_BENCH_GAMES=2000000 \
--     bash tools/citus.sh bench/citus_close.sql
-- ratings and games distributed by the player (co-located, 32 shards over
-- two workers) against plain tables on the coordinator; each close timed
-- REPS times on a fresh copy of the ratings, alternating; medians and their
-- ratio; then the two results compared bit for bit.
\getenv players CITUS_BENCH_PLAYERS
\getenv games CITUS_BENCH_GAMES
\getenv reps CITUS_BENCH_REPS
\if :{?players} \else \set players 200000 \endif
\if :{?games} \else \set games 2000000 \endif
\if :{?reps} \else \set reps 3 \endif
\pset footer off
SET client_min_messages = warning;
CREATE SCHEMA bench_citus_close;
SET search_path = bench_citus_close, public;
SELECT :players AS players, :games AS games, :reps AS reps,
       current_setting('server_version') AS server,
       (SELECT extversion FROM pg_extension WHERE extname = 'citus') AS citus;

CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
CREATE TABLE base (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL);
INSERT INTO base
SELECT i, glicko2_rating(1200 + 600 * u(i, 1), 40 + 300 * u(i, 2), 0.05 + 0.02 * u(i, 3))
FROM generate_series(1, :players) i;
CREATE TABLE games_local (period int, player_id int, opponent_id int, score float8);
INSERT INTO games_local
SELECT 1, a, CASE WHEN b >= a THEN b + 1 ELSE b END, floor(u(g, 6) * 3) / 2
FROM (SELECT g, 1 + floor(u(g, 4) * :players)::int AS a, 1 + floor(u(g, 5) * (:players - 1))::int AS b
      FROM generate_series(1, :games) g) x;
CREATE TABLE games_dist (LIKE games_local);
INSERT INTO games_dist SELECT * FROM games_local;
CALL glicko2_guard_games('games_local');
CREATE TABLE ratings_local (LIKE base INCLUDING ALL);
CREATE TABLE ratings_dist (LIKE base INCLUDING ALL);
SELECT create_distributed_table('ratings_dist', 'player_id');
SELECT create_distributed_table('games_dist', 'player_id', colocate_with => 'ratings_dist');
VACUUM ANALYZE games_local;

CREATE TABLE timings (setup text, rep int, seconds float8);
CREATE PROCEDURE timed(setup text, rep int) LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
BEGIN
  IF setup = 'single node' THEN
    TRUNCATE ratings_local; INSERT INTO ratings_local SELECT * FROM base;
    DELETE FROM glicko2_closes WHERE ratings = 'ratings_local'::regclass;
    COMMIT;
    t0 := clock_timestamp();
    CALL glicko2_close_period('ratings_local', 'games_local', 1);
  ELSE
    TRUNCATE ratings_dist; INSERT INTO ratings_dist SELECT * FROM base;
    DELETE FROM glicko2_closes WHERE ratings = 'ratings_dist'::regclass;
    COMMIT;
    t0 := clock_timestamp();
    CALL glicko2_close_period('ratings_dist', 'games_dist', 1, unguarded => true);
  END IF;
  COMMIT;
  INSERT INTO timings VALUES (setup, rep, extract(epoch FROM clock_timestamp() - t0));
  COMMIT;
END $$;
SELECT format('CALL timed(%L, %s)', s, r) FROM generate_series(1, :reps) r,
       unnest(ARRAY['single node', 'Citus, 2 workers']) s ORDER BY r, s \gexec

SELECT setup, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds)::numeric, 2) AS median_s,
       round(min(seconds)::numeric, 2) AS min_s, round(max(seconds)::numeric, 2) AS max_s
FROM timings GROUP BY setup ORDER BY setup DESC;
SELECT round((SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) FROM timings WHERE setup <> 'single node')::numeric /
             (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) FROM timings WHERE setup = 'single node')::numeric, 2)
       AS citus_over_single_node;
SELECT count(*) AS players, count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating) AS differences
FROM ratings_dist d FULL JOIN ratings_local l USING (player_id);
DELETE FROM glicko2_closes WHERE ratings IN ('ratings_local'::regclass, 'ratings_dist'::regclass);
DROP SCHEMA bench_citus_close CASCADE;
