-- bench/citus_close_floor.sql — what the least data movement of an exact
-- close on Citus's workers costs, against glicko2_close_period on one node,
-- same data, same run (tools/citus.sh runs it):
--   CITUS_SRC=... PG_CONFIG=... CITUS_BENCH_PLAYERS=200000 CITUS_BENCH_GAMES=2000000 \
--     bash tools/citus.sh bench/citus_close_floor.sql
-- The data of bench/citus_close.sql (citus_close_base.sql,
-- citus_close_games.sql), int keys only: ratings and games distributed by the
-- player (32 shards), a plain copy on the coordinator for the single-node
-- close.  Every game side needs its opponent's pre-period rating; the floors
-- move only that, into unlogged work tables co-located with the ratings
-- (made before, emptied after each run: their DDL is not counted), and
-- compute, aggregate and write nothing else:
--   read:          the period's games joined with their players' ratings,
--                  counted on each shard (nothing moved: the scan alone);
--   games once:    one repartitioned INSERT ... SELECT of the period's games,
--                  each to its opponent's shard with its player's rating and
--                  RD as two float8 (the close on the workers moves each game
--                  twice, the second time back to its player);
--   no rows:       the same statement for no game (period -1): its cost
--                  whatever the number of rows;
--   ratings only:  games stored as both sides, co-located by the player
--                  (<n> shards: 32, 8, 4, 2); each shard receives, once, the
--                  rating and RD of every distinct opponent its players met
--                  (one repartitioned INSERT ... SELECT of (a player of the
--                  receiving shard, the opponent, rating, RD), grouped by
--                  the opponent and the receiving shard on the opponent's
--                  shard, where his sides are); no game moves;
--   every rating:  on 2 shards (one per worker), every rating row sent to the
--                  other shard, with no game read and nothing grouped (the
--                  least an exact close moves when a player's opponents are
--                  on every shard: one row per rated player and other
--                  worker);
--   reference:     every rating row copied into a reference table (through
--                  the coordinator: Citus repartitions INSERT ... SELECT only
--                  into distributed tables), where every shard could join
--                  it with its games; the coordinator receives every rating;
--   local close:   what is left of a close once every shard has every
--                  opponent's pre-period rating (as after either of the two
--                  above), on 2 shards: each shard's players' sides summed
--                  (glicko2_side_sums) with the opponents' ratings from a
--                  reference table filled beforehand (all_ratings, not
--                  counted), their new ratings computed and written with
--                  their history by the close on the workers' own end
--                  (glicko2_close_write_on_workers); nothing moves.
-- Each run is one top-level CALL in a transaction block, measured by
-- bench/citus_close_one.sql (wall, CPU of every node, bytes the coordinator
-- received); per period the single node's close of the plain copy, the
-- floors, the single node's close of a twin copy, the floors again
-- (citus_close_floor_period.sql); then the rows each floor moved (per node),
-- and each run's projected time (coordinator CPU + the busiest worker's)
-- over the mean CPU of the single node's closes of its period, against
-- issue 34's goal of 0.75.
\getenv players CITUS_BENCH_PLAYERS
\getenv games CITUS_BENCH_GAMES
\if :{?players} \else \set players 200000 \endif
\if :{?games} \else \set games 2000000 \endif
\pset footer off
SET client_min_messages = warning;
CREATE SCHEMA bench_citus_floor;
SET search_path = bench_citus_floor, public;
SET citus.shard_count = 32;
SELECT :players AS players, :games AS games,
       current_setting('server_version') AS server,
       (SELECT extversion FROM pg_extension WHERE extname = 'citus') AS citus;

\ir citus_close_base.sql
\ir citus_close_games.sql
CALL league('int_keys', 'int');
-- A twin of the plain copy, for a second single-node close of each period.
CREATE TABLE twin_local (LIKE int_keys_local INCLUDING ALL);
CREATE TABLE twin_games_local (LIKE int_keys_games_local);
CREATE TABLE twin_history_local (LIKE int_keys_history_local);
INSERT INTO twin_local SELECT * FROM int_keys_local;
INSERT INTO twin_games_local SELECT * FROM int_keys_games_local;
CALL glicko2_guard_games('twin_games_local');

-- The shard of an int key among n hash shards, by Citus's ranges (hashint4,
-- the int range cut into n equal parts, the last one taking the rest).
CREATE FUNCTION shard_of(key int, n int) RETURNS int LANGUAGE sql IMMUTABLE
RETURN least((hashint4(key)::bigint + 2147483648) / (4294967296 / n), n - 1);

-- Ratings s<n> on n shards, games as both sides s<n>_games co-located, and
-- the work table s<n>_need (dest: a player of the receiving shard).
CREATE PROCEDURE sides(n int) LANGUAGE plpgsql AS $$
DECLARE
  r text := 's' || n;
BEGIN
  EXECUTE format('CREATE TABLE %I (player_id int PRIMARY KEY, rating glicko2_rating)', r);
  EXECUTE format('CREATE TABLE %I (period int, player_id int, opponent_id int, score float8)', r || '_games');
  EXECUTE format('CREATE UNLOGGED TABLE %I (dest int, opponent int, rating float8, rd float8)', r || '_need');
  PERFORM create_distributed_table(r, 'player_id', shard_count => n);
  PERFORM create_distributed_table(r || '_games', 'player_id', colocate_with => r);
  PERFORM create_distributed_table(r || '_need', 'dest', colocate_with => r);
  EXECUTE format('INSERT INTO %I SELECT player_id, rating FROM base', r);
  EXECUTE format('INSERT INTO %I SELECT period, player_id, opponent_id, score FROM games_base'
                 ' UNION ALL SELECT period, opponent_id, player_id, 1 - score FROM games_base', r || '_games');
  EXECUTE format('ANALYZE %I, %I', r, r || '_games');
END $$;
CALL sides(32);
CALL sides(8);
CALL sides(4);
CALL sides(2);
CREATE UNLOGGED TABLE int_keys_moved (opponent int, player int, rating float8, rd float8);
SELECT create_distributed_table('int_keys_moved', 'opponent', colocate_with => 'int_keys');
CREATE TABLE int_keys_ref (player int, rating float8, rd float8);
SELECT create_reference_table('int_keys_ref');
CREATE TABLE all_ratings (player int PRIMARY KEY, rating float8, rd float8);
SELECT create_reference_table('all_ratings');
INSERT INTO all_ratings SELECT player_id, coalesce((rating).rating, 1500), coalesce((rating).rd, 350) FROM base;
CREATE TABLE s2_history (player_id int, period int, rating glicko2_rating);
SELECT create_distributed_table('s2_history', 'player_id', colocate_with => 's2');
-- Vacuumed now, not by autovacuum during the runs.
VACUUM ANALYZE int_keys, int_keys_games, int_keys_local, int_keys_games_local, twin_local, twin_games_local, all_ratings,
  s32, s32_games, s8, s8_games, s4, s4_games, s2, s2_games;

-- shard_of against Citus's own placement of keys, for each shard count.
SELECT n AS shards, count(*) AS keys_checked,
       count(*) FILTER (WHERE get_shard_id_for_distribution_column('s' || n, i)
                              <> (SELECT shardid FROM pg_dist_shard WHERE logicalrelid = ('s' || n)::regclass
                                  ORDER BY shardminvalue::int OFFSET shard_of(i, n) LIMIT 1)) AS misplaced
FROM unnest(ARRAY[32, 8, 4, 2]) n, generate_series(1, 2000) i GROUP BY n ORDER BY n DESC;
CHECKPOINT;

-- The floors, called as bench/citus_close_one.sql calls a close (max_rd and
-- history used by the local close alone, unguarded by none); each but read
-- and the local close fills its work table.
CREATE PROCEDURE floor_read(ratings text, games text, period int, max_rd float8, history text, unguarded boolean)
LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM %I g LEFT JOIN %I r ON r.player_id = g.player_id'
                 ' WHERE g.period = $1 AND coalesce((r.rating).rating, 1500) + coalesce((r.rating).rd, 350) > 0',
                 games, ratings)
    INTO n USING period;
END $$;
CREATE PROCEDURE floor_games_once(ratings text, games text, period int, max_rd float8, history text, unguarded boolean)
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO %I SELECT g.opponent_id, g.player_id, coalesce((r.rating).rating, 1500), coalesce((r.rating).rd, 350)'
                 ' FROM %I g LEFT JOIN %I r ON r.player_id = g.player_id WHERE g.period = $1',
                 ratings || '_moved', games, ratings)
    USING period;
END $$;
CREATE PROCEDURE floor_no_rows(ratings text, games text, period int, max_rd float8, history text, unguarded boolean)
LANGUAGE plpgsql AS $$
BEGIN
  CALL bench_citus_floor.floor_games_once(ratings, games, -1, max_rd, history, unguarded);
END $$;
CREATE PROCEDURE floor_ratings_only(ratings text, games text, period int, max_rd float8, history text, unguarded boolean)
LANGUAGE plpgsql AS $$
DECLARE
  n int := (SELECT shard_count FROM citus_tables WHERE table_name = ratings::regclass);
BEGIN
  EXECUTE format('INSERT INTO %I SELECT d.dest, d.player_id, coalesce((r.rating).rating, 1500), coalesce((r.rating).rd, 350)'
                 ' FROM (SELECT s.player_id, min(s.opponent_id) AS dest FROM %I s WHERE s.period = $1'
                 '       GROUP BY s.player_id, bench_citus_floor.shard_of(s.opponent_id, $2)) d'
                 ' LEFT JOIN %I r ON r.player_id = d.player_id',
                 ratings || '_need', games, ratings)
    USING period, n;
END $$;
CREATE PROCEDURE floor_every_rating(ratings text, games text, period int, max_rd float8, history text, unguarded boolean)
LANGUAGE plpgsql AS $$
DECLARE
  -- A key on each of the two shards.
  k int[] := (SELECT array_agg(min ORDER BY b) FROM (SELECT bench_citus_floor.shard_of(i, 2) b, min(i) FROM generate_series(1, 100) i GROUP BY 1) x);
BEGIN
  EXECUTE format('INSERT INTO %I SELECT CASE WHEN bench_citus_floor.shard_of(r.player_id, 2) = 0 THEN $2 ELSE $1 END,'
                 ' r.player_id, coalesce((r.rating).rating, 1500), coalesce((r.rating).rd, 350) FROM %I r',
                 ratings || '_need', ratings)
    USING k[1], k[2];
END $$;
CREATE PROCEDURE floor_reference(ratings text, games text, period int, max_rd float8, history text, unguarded boolean)
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO %I SELECT r.player_id, coalesce((r.rating).rating, 1500), coalesce((r.rating).rd, 350) FROM %I r',
                 ratings || '_ref', ratings);
END $$;
CREATE PROCEDURE floor_local_close(ratings text, games text, period int, max_rd float8, history text, unguarded boolean)
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM glicko2_internal.glicko2_close_write_on_workers(ratings::regclass, 'bench_citus_floor.' || ratings || '_n', format($sql$
      SELECT s.player_id AS player,
             glicko2_internal.glicko2_side_sums(coalesce((r.rating).rating, 1500), coalesce(o.rating, 1500),
                                                coalesce(o.rd, 350), s.score, 0) AS sums
      FROM bench_citus_floor.%1$I s LEFT JOIN bench_citus_floor.%2$I r ON r.player_id = s.player_id
      LEFT JOIN bench_citus_floor.all_ratings o ON o.player = s.opponent_id
      WHERE s.period = %3$s GROUP BY s.player_id
      $sql$, games, ratings, period),
    'the local close', period::text, 0.5, max_rd, '{NULL,NULL,NULL}', history::regclass, 'player_id', 'rating');
END $$;
-- The plans: all INSERT ... SELECT repartitioned worker to worker.
EXPLAIN (COSTS OFF) INSERT INTO int_keys_moved SELECT g.opponent_id, g.player_id, 1, 1
FROM int_keys_games g LEFT JOIN int_keys r ON r.player_id = g.player_id WHERE g.period = 1;
EXPLAIN (COSTS OFF) INSERT INTO s32_need SELECT d.dest, d.player_id, 1, 1
FROM (SELECT s.player_id, min(s.opponent_id) AS dest FROM s32_games s WHERE s.period = 1
      GROUP BY s.player_id, shard_of(s.opponent_id, 32)) d LEFT JOIN s32 r ON r.player_id = d.player_id;
EXPLAIN (COSTS OFF) INSERT INTO s2_need SELECT CASE WHEN shard_of(r.player_id, 2) = 0 THEN 2 ELSE 1 END, r.player_id, 1, 1
FROM s2 r;
EXPLAIN (COSTS OFF) INSERT INTO int_keys_ref SELECT r.player_id, 1, 1 FROM int_keys r;

CREATE TABLE runs (league text, period int, setup text, seconds float8, bytes bigint,
                   coordinator float8, worker1 float8, worker2 float8, id serial);
-- node: 0 the coordinator, 1 and 2 the workers (dir1, dir2).
CREATE TABLE moved (setup text, period int, node int, rows bigint, id serial);
-- Each period: the single node's close, the floors
-- (citus_close_floor_pass.sql), the single node's close of the twin copy,
-- the floors again.
\set period 1
\set max_rd 250
\ir citus_close_floor_period.sql
\set period 2
\set max_rd NULL
\ir citus_close_floor_period.sql

-- Every run: wall seconds, bytes the coordinator received, each node's CPU.
SELECT period, setup, round(seconds::numeric, 2) AS seconds, bytes,
       round(coordinator::numeric, 2) AS coordinator_cpu, round(worker1::numeric, 2) AS worker1_cpu,
       round(worker2::numeric, 2) AS worker2_cpu
FROM runs ORDER BY id;
-- The rows each floor moved into its work table (repartitioned), per worker.
SELECT setup, period, sum(rows) AS rows, min(rows) FILTER (WHERE node > 0) AS worker_min,
       max(rows) FILTER (WHERE node > 0) AS worker_max
FROM moved WHERE setup ~ ', a$' AND rows > 0 GROUP BY setup, period ORDER BY min(id);
-- Against the single node's close of the same period (the mean of its two):
-- the projected time (goal at most 0.75; the single node's CPU of all three
-- nodes, as citus_close_runs.sql reports it, and of its coordinator alone,
-- without the workers' autovacuum), the coordinator's share, the wall time,
-- and the busiest worker's CPU per row it received (microseconds).
SELECT c.period, c.setup,
       round(((c.coordinator + greatest(c.worker1, c.worker2)) / s.cpu)::numeric, 2) AS projected_over_single_cpu,
       round(((c.coordinator + greatest(c.worker1, c.worker2)) / s.coordinator)::numeric, 2) AS over_single_coordinator_cpu,
       round((c.coordinator / (c.coordinator + c.worker1 + c.worker2))::numeric, 3) AS coordinator_share,
       round((c.seconds / s.seconds)::numeric, 2) AS wall_over_single,
       round((1e6 * greatest(c.worker1, c.worker2) / nullif(m.worker_max, 0))::numeric, 2) AS busiest_us_per_row
FROM runs c
JOIN (SELECT period, avg(coordinator + worker1 + worker2) AS cpu, avg(coordinator) AS coordinator, avg(seconds) AS seconds
      FROM runs WHERE setup = 'single node' GROUP BY period) s USING (period)
LEFT JOIN (SELECT setup, period, max(rows) AS worker_max FROM moved WHERE node > 0 GROUP BY 1, 2) m
  ON m.setup = c.setup AND m.period = c.period
WHERE c.setup <> 'single node'
ORDER BY c.id;

DELETE FROM glicko2_closes WHERE ratings::text LIKE '%keys%' OR ratings::text LIKE '%twin%';
DROP SCHEMA bench_citus_floor CASCADE;
