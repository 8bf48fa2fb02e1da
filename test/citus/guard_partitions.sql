-- The guard on a distributed games table partitioned by period (issue 34):
-- Citus places the partitioned table's triggers on its shards, and PostgreSQL
-- clones the row guard onto each partition's shard when Citus attaches it to
-- its parent's shard (Citus itself copies only a table's own triggers,
-- GetExplicitTriggerIdList, tgparentid = 0).  Checked: every placement of
-- every partition's shards guarded, for the partitions made before the
-- guard, a partition made after a close, and after a shard move; late
-- writes through the parent and into a partition refused from every node;
-- a table attached after a close refused unread (Citus shows no rows to a
-- query during ALTER TABLE), so a game smuggled in by DETACH / ATTACH is
-- refused; the closes count exactly their periods' rows.
SET citus.shard_count = 8;
SET citus.next_shard_id = 199000;
-- (for every session of a guarded league: ALTER DATABASE ... SET)
SET citus.enable_unsafe_triggers = on;
SET client_min_messages = warning;
\set SHOW_CONTEXT never
\getenv port CITUS_PORT
CREATE SCHEMA guard_parts;
SET search_path = guard_parts, public;
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE games (game_id int, player_id int, opponent_id int, score float8, period int)
  PARTITION BY LIST (period);
CREATE TABLE games_1 PARTITION OF games FOR VALUES IN (1);
CREATE TABLE games_2 PARTITION OF games FOR VALUES IN (2);
SELECT create_distributed_table('ratings', 'player_id');
SELECT create_distributed_table('games', 'player_id', colocate_with => 'ratings');
INSERT INTO ratings SELECT p, NULL FROM generate_series(1, 80) p;
INSERT INTO games SELECT row_number() OVER (), p, p % 80 + 1, (p + k) % 2, period
FROM generate_series(1, 80) p, generate_series(1, 2) k, generate_series(1, 2) period;
CALL glicko2_guard_games('games');
-- A table's shards without an enabled row guard, on every node (the guard:
-- glicko2_refuse_closed_games, BEFORE INSERT OR UPDATE OR DELETE per row).
CREATE FUNCTION unguarded_partition_shards(part text) RETURNS TABLE (node int, shards bigint, unguarded bigint)
LANGUAGE sql AS $$
  SELECT nodeport - current_setting('port')::int, (r.result::jsonb ->> 0)::bigint, (r.result::jsonb ->> 1)::bigint
  FROM run_command_on_workers(format($q$
    SELECT jsonb_build_array(count(*), count(*) FILTER (WHERE NOT EXISTS (
             SELECT FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgenabled = 'O' AND (t.tgtype & 29) = 29
               AND t.tgfoid = 'glicko2_refuse_closed_games()'::regprocedure)))
    FROM pg_class c JOIN pg_dist_shard s ON c.relname = %L || '_' || s.shardid
    WHERE c.relnamespace = 'guard_parts'::regnamespace AND s.logicalrelid = %L::regclass$q$,
    part, 'guard_parts.' || part)) r
  ORDER BY 1
$$;
SELECT 'games_1' AS part, * FROM unguarded_partition_shards('games_1')
UNION ALL SELECT 'games_2', * FROM unguarded_partition_shards('games_2');
CALL glicko2_close_period('ratings', 'games', 1);

-- A player on each shard; late writes into period 1 (an insert through the
-- parent and into the partition, a move of a game into period 1 and one
-- out of it, an update within it, a delete) from the coordinator and from
-- each worker, and the same (but the moves) in open period 2.
CREATE FUNCTION attempt(sql text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE sql;
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'accepted';
EXCEPTION WHEN OTHERS THEN
  RETURN CASE WHEN SQLSTATE = 'P0001' THEN SQLERRM ELSE SQLSTATE END;
END $$;
-- The writes from this node, each undone: (origin, player, period, write,
-- outcome) as JSON.
CREATE FUNCTION try_all(closed int, open int) RETURNS jsonb LANGUAGE sql
SET search_path = guard_parts, public AS $$
  SELECT jsonb_agg(jsonb_build_object('origin', current_setting('port'), 'player', pl, 'period', p,
                                      'write', write, 'outcome', attempt(sql)) ORDER BY pl, p, write)
  FROM (SELECT min(x) AS pl FROM generate_series(1, 80) x
        GROUP BY get_shard_id_for_distribution_column('guard_parts.games', x)) players,
       unnest(ARRAY[closed, open]) p,
       LATERAL (VALUES
         ('insert', format('INSERT INTO games VALUES (0, %s, 1, 1, %s)', pl, p)),
         ('insert into partition', format('INSERT INTO games_%s VALUES (0, %s, 1, 1, %s)', p, pl, p)),
         ('update into', format('UPDATE games SET period = %s WHERE player_id = %s AND period = %s', closed, pl, open)),
         ('update out', format('UPDATE games SET period = %s WHERE player_id = %s AND period = %s', open, pl, closed)),
         ('update in', format('UPDATE games SET score = 1 - score WHERE player_id = %s AND period = %s', pl, p)),
         ('delete', format('DELETE FROM games WHERE player_id = %s AND period = %s', pl, p))) v(write, sql)
  -- (moving a game between the two periods is a write into the closed one)
  WHERE p = closed OR write NOT LIKE 'update %t%'
$$;
-- The writes from the coordinator and from each worker (on its own
-- connection, run_command_on_workers), and what became of them.
CREATE FUNCTION writes_from_every_node(closed int, open int)
RETURNS TABLE (period int, outcome text, attempts bigint, origins bigint, shards bigint, writes bigint)
LANGUAGE sql SET search_path = guard_parts, public AS $$
  SELECT a.period, a.outcome, count(*), count(DISTINCT a.origin),
         count(DISTINCT get_shard_id_for_distribution_column('guard_parts.games', a.player)), count(DISTINCT a.write)
  FROM (SELECT try_all(closed, open) AS r
        UNION ALL
        SELECT CASE WHEN success THEN result::jsonb END
        FROM run_command_on_workers(format('SELECT guard_parts.try_all(%s, %s)', closed, open))) n,
       jsonb_to_recordset(n.r) a(origin text, player int, period int, write text, outcome text)
  GROUP BY 1, 2 ORDER BY 1, 2
$$;
SELECT * FROM writes_from_every_node(1, 2);

-- A partition made after the close: its shards guarded (PostgreSQL clones
-- the row guard when Citus attaches each shard to its parent's), and
-- glicko2's event trigger gives it the TRUNCATE guard.
CREATE TABLE games_3 PARTITION OF games FOR VALUES IN (3);
SELECT * FROM unguarded_partition_shards('games_3');
SELECT tgname, tgparentid <> 0 AS cloned FROM pg_trigger
WHERE tgrelid = 'games_3'::regclass AND NOT tgisinternal ORDER BY 1;
INSERT INTO games SELECT 1000 + p, p, p % 80 + 1, p % 2, 3 FROM generate_series(1, 80) p;
CALL glicko2_close_period('ratings', 'games', 2);
SELECT * FROM writes_from_every_node(2, 3);

-- DETACH / ATTACH: the detached table loses its cloned row guards (on the
-- coordinator and on its shards), so a game of closed period 1 can be
-- written into it; attaching it back is refused, unread: during ALTER
-- TABLE Citus answers every query on a distributed table with no rows.
ALTER TABLE games DETACH PARTITION games_1;
SELECT * FROM unguarded_partition_shards('games_1');
INSERT INTO games_1 VALUES (9999, 1, 2, 1, 1);
\set VERBOSITY default
ALTER TABLE games ATTACH PARTITION games_1 FOR VALUES IN (1);
\set VERBOSITY terse
SELECT count(*) AS rows_in_detached_games_1, count(*) FILTER (WHERE game_id = 9999) AS smuggled FROM games_1;
-- The same for a table holding only games of an open period.
CREATE TABLE games_4 (LIKE games);
SELECT create_distributed_table('games_4', 'player_id', colocate_with => 'ratings');
INSERT INTO games_4 VALUES (4000, 1, 2, 1, 4);
ALTER TABLE games ATTACH PARTITION games_4 FOR VALUES IN (4);
-- (made with CREATE TABLE ... PARTITION OF, it is accepted: it starts empty)
DROP TABLE games_4;
CREATE TABLE games_4 PARTITION OF games FOR VALUES IN (4);
INSERT INTO games VALUES (4000, 1, 2, 1, 4);
SELECT * FROM unguarded_partition_shards('games_4');

-- A shard group moved to the other worker: its partitions' shards there
-- are guarded, and refuse late writes for its players.
SELECT shardid AS moved, nodeport - :port AS from_worker
FROM pg_dist_shard JOIN pg_dist_shard_placement USING (shardid)
WHERE logicalrelid = 'games'::regclass ORDER BY shardid LIMIT 1 \gset
SELECT citus_move_shard_placement(:moved, '127.0.0.1', :port + :from_worker, '127.0.0.1', :port + 3 - :from_worker,
                                  shard_transfer_mode => 'block_writes');
CALL citus_cleanup_orphaned_resources();
SELECT 'games_2' AS part, * FROM unguarded_partition_shards('games_2')
UNION ALL SELECT 'games_3', * FROM unguarded_partition_shards('games_3');
SELECT min(p) AS moved_player FROM generate_series(1, 80) p
WHERE get_shard_id_for_distribution_column('games', p) = :moved \gset
SELECT attempt(format('INSERT INTO games VALUES (0, %s, 1, 1, 2)', :moved_player)) AS closed_period,
       attempt(format('INSERT INTO games_3 VALUES (0, %s, 1, 1, 3)', :moved_player)) AS open_period;

-- Every close counted exactly the rows its period holds (period 1's are
-- in the detached games_1, without the smuggled game).
CALL glicko2_close_period('ratings', 'games', 3);
WITH n AS MATERIALIZED (SELECT period::text, count(*) AS rows_now FROM games GROUP BY 1
                        UNION ALL SELECT '1', count(*) FROM games_1 WHERE game_id <> 9999)
SELECT c.period, c.games AS counted, n.rows_now
FROM glicko2_closes c JOIN n USING (period) WHERE c.ratings = 'ratings'::regclass ORDER BY c.period;

DROP SCHEMA guard_parts CASCADE;
DELETE FROM glicko2_internal.glicko2_citus_guards WHERE games ~ '^guard_parts\.';
