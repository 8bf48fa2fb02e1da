-- The guard on a distributed games table (citus.enable_unsafe_triggers):
-- after closing period 1, an INSERT, an UPDATE into period 1, an UPDATE out
-- of it and a DELETE of a period-1 game are refused (55000) for a player on
-- each of the 32 shards, from the coordinator and from each worker (384
-- attempts); the same writes to open periods are accepted; TRUNCATE is
-- refused from every node; nothing changed.
SET citus.shard_count = 32;
SET citus.next_shard_id = 193000;
\set SHOW_CONTEXT never
CREATE SCHEMA guard_shards;
SET search_path = guard_shards, public;
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE games (game_id bigint, player_id int, opponent_id int, score float8, period int);
SELECT create_distributed_table('ratings', 'player_id');
SELECT create_distributed_table('games', 'player_id', colocate_with => 'ratings');
-- One player on each shard (the lowest key there), and an opponent.
CREATE TABLE probe AS
SELECT DISTINCT ON (s.shardid) s.shardid, p AS player_id
FROM generate_series(1, 10000) p,
     LATERAL (SELECT get_shard_id_for_distribution_column('guard_shards.games', p) AS shardid) s
ORDER BY s.shardid, p;
SELECT count(*) AS shards_probed FROM probe;
INSERT INTO ratings SELECT player_id, NULL FROM probe;
INSERT INTO ratings VALUES (0, NULL);
-- Two games of each probed player in period 1 (to be closed), 2 and 3.
INSERT INTO games
SELECT row_number() OVER (), player_id, 0, 1, period
FROM probe, generate_series(1, 2) k, generate_series(1, 3) period;

-- Without citus.enable_unsafe_triggers the guard is refused, saying why.
\set VERBOSITY default
CALL glicko2_guard_games('games');
\set VERBOSITY terse
SET citus.enable_unsafe_triggers = on;
CALL glicko2_guard_games('games');
-- The triggers are on every shard, carrying the key of the guard state.
SELECT sum(result::int) AS shards_guarded
FROM run_command_on_all_nodes($$SELECT count(*) FROM pg_trigger t
  WHERE t.tgrelid::regclass::text ~ '^guard_shards\.games_\d+$' AND t.tgname LIKE 'refuse\_closed\_games\_%'
    AND t.tgfoid = 'glicko2_refuse_closed_games()'::regprocedure$$);
SELECT tgname, (glicko2_guard_scope(oid)).citus FROM pg_trigger
WHERE tgrelid = 'games'::regclass AND tgfoid = 'glicko2_refuse_closed_games()'::regprocedure ORDER BY tgname;
SELECT * FROM glicko2_guard_gaps('games', 'ratings');
CALL glicko2_close_period('ratings', 'games', 1);
SELECT period, games, unguarded FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
SELECT games, closed FROM glicko2_internal.glicko2_citus_guards WHERE games = 'guard_shards.games';

-- One write, its outcome: 'accepted', or the SQLSTATE and the shard named.
CREATE FUNCTION attempt(kind text, player int, period int) RETURNS text
LANGUAGE plpgsql SET search_path = guard_shards, public AS $$
DECLARE
  n bigint;
BEGIN
  CASE kind
  WHEN 'insert' THEN
    INSERT INTO games VALUES (-1, player, 0, 0.5, period);
  WHEN 'update into' THEN
    UPDATE games g SET period = attempt.period WHERE g.player_id = player AND g.period = attempt.period + 1;
  WHEN 'update out of' THEN
    UPDATE games g SET period = attempt.period + 1 WHERE g.player_id = player AND g.period = attempt.period;
  WHEN 'delete' THEN
    DELETE FROM games g WHERE g.player_id = player AND g.period = attempt.period;
  END CASE;
  GET DIAGNOSTICS n = ROW_COUNT;
  -- (an accepted write is undone, so each attempt starts from the same rows)
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'accepted ' || n;
EXCEPTION WHEN OTHERS THEN
  RETURN CASE WHEN SQLSTATE = 'P0001' THEN SQLERRM
              ELSE SQLSTATE || ' ' || coalesce(substring(SQLERRM FROM 'on (guard_shards\.games_\d+) refused'), SQLERRM) END;
END
$$;
CREATE TABLE outcome (origin text, kind text, period int, player_id int, result text);
-- From the coordinator.
INSERT INTO outcome
SELECT 'coordinator', k.kind, p.period, probe.player_id, attempt(k.kind, probe.player_id, p.period)
FROM probe, (VALUES ('insert'), ('update into'), ('update out of'), ('delete')) k(kind),
     (VALUES (1), (2)) p(period);
-- From each worker (run_command_on_workers runs the same call on both).
INSERT INTO outcome
SELECT 'worker ' || w.nodeport, k.kind, p.period, probe.player_id, w.result
FROM probe, (VALUES ('insert'), ('update into'), ('update out of'), ('delete')) k(kind),
     (VALUES (1), (2)) p(period),
     LATERAL run_command_on_workers(format('SELECT guard_shards.attempt(%L, %s, %s)', k.kind, probe.player_id, p.period)) w;
-- Period 1 (closed): every attempt refused with 55000, on every shard.
SELECT count(*) AS attempts,
       count(*) FILTER (WHERE result LIKE 'accepted%') AS accepted,
       count(*) FILTER (WHERE result LIKE '55000 guard_shards.games\_%') AS refused_55000,
       count(DISTINCT substring(result FROM '55000 (.*)')) AS shards_refusing,
       count(DISTINCT origin) AS origins
FROM outcome WHERE period = 1;
SELECT kind, count(*) AS attempts, count(*) FILTER (WHERE result LIKE '55000 %') AS refused
FROM outcome WHERE period = 1 GROUP BY kind ORDER BY kind;
-- Period 2 (open; the updates move games between periods 2 and 3): every
-- attempt accepted, each on its two rows.
SELECT kind, count(*) AS attempts, count(*) FILTER (WHERE result LIKE 'accepted%') AS accepted,
       min(result), max(result)
FROM outcome WHERE period = 2 GROUP BY kind ORDER BY kind;
-- TRUNCATE is refused from each node.
TRUNCATE games;
SELECT success, result
FROM run_command_on_workers('TRUNCATE guard_shards.games');
-- Nothing changed.
SELECT period, count(*) AS games FROM games GROUP BY period ORDER BY period;

-- Fail closed: without its row of the guard state (lost in a restore, say)
-- the guard refuses every write, to an open period too, and a close finds
-- the table unguarded; glicko2_guard_games writes the row again from the
-- record of the closes.
DELETE FROM glicko2_internal.glicko2_citus_guards WHERE games = 'guard_shards.games';
SELECT attempt('insert', player_id, 3) FROM probe ORDER BY player_id LIMIT 1;
SELECT result, count(*) FROM run_command_on_workers(
  format('SELECT guard_shards.attempt(%L, %s, %s)', 'insert', (SELECT min(player_id) FROM probe), 3))
GROUP BY result;
SELECT * FROM glicko2_guard_gaps('games', 'ratings');
CALL glicko2_guard_games('games');
SELECT games, closed FROM glicko2_internal.glicko2_citus_guards WHERE games = 'guard_shards.games';
SELECT * FROM glicko2_guard_gaps('games', 'ratings');
SELECT attempt('insert', player_id, 1) AS closed_period, attempt('insert', player_id, 3) AS open_period
FROM probe ORDER BY player_id LIMIT 1;

-- Live triggers are refused on the distributed table (on its shards),
-- naming the supported path.
CREATE TRIGGER rate AFTER INSERT ON games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('guard_shards.ratings');
SELECT min(player_id) AS player FROM probe \gset
\set VERBOSITY default
INSERT INTO games VALUES (-1, :player, 0, 1, 3);
\set VERBOSITY terse
DROP TRIGGER rate ON games;

RESET citus.enable_unsafe_triggers;
DROP SCHEMA guard_shards CASCADE;
