-- glicko2's aggregates on Citus: the same bits whatever the distribution.
-- Each query runs on a distributed table and on a local copy of the same
-- rows on the coordinator; every group is compared bit for bit (composite =
-- compares each float8 field; explain's jsonb compares digits that read back
-- as the same doubles).
SET citus.shard_count = 4;
CREATE SCHEMA citus_aggregates;
SET search_path = citus_aggregates, public;
SET citus.next_shard_id = 190000;
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
-- 2000 players, 40000 games seen from both sides (80000 rows); a few NULL
-- scores and unrated opponents.
CREATE TABLE sides_local AS
SELECT g AS game_id, s.player_id, s.opponent_id,
       glicko2_rating(1200 + 600 * u(s.player_id, 1), 40 + 300 * u(s.player_id, 2), 0.05 + 0.02 * u(s.player_id, 3)) AS player,
       CASE WHEN g % 211 <> 0 THEN
         glicko2_rating(1200 + 600 * u(s.opponent_id, 1), 40 + 300 * u(s.opponent_id, 2), 0.05 + 0.02 * u(s.opponent_id, 3)) END AS opponent,
       CASE WHEN g % 197 <> 0 THEN CASE WHEN s.me THEN sc ELSE 1 - sc END END AS score,
       CASE WHEN s.me THEN 30.0 ELSE -30.0 END::float8 AS advantage
FROM (SELECT g, 1 + floor(u(g, 4) * 2000)::int AS a, 1 + floor(u(g, 5) * 1999)::int AS b,
             floor(u(g, 6) * 3) / 2 AS sc
      FROM generate_series(1, 40000) g) x,
LATERAL (VALUES (true, a, CASE WHEN b >= a THEN b + 1 ELSE b END),
                (false, CASE WHEN b >= a THEN b + 1 ELSE b END, a)) s(me, player_id, opponent_id);
-- Distributed by the player (groups live on one shard: pushed down whole)
-- and by the game (a player's rows on every shard: partial states combined).
CREATE TABLE sides_by_player AS SELECT * FROM sides_local;
CREATE TABLE sides_by_game AS SELECT * FROM sides_local;
SELECT create_distributed_table('sides_by_player', 'player_id');
SELECT create_distributed_table('sides_by_game', 'game_id');
SELECT count(*) AS rows_local, (SELECT count(*) FROM sides_by_player) AS by_player,
       (SELECT count(*) FROM sides_by_game) AS by_game FROM sides_local;

-- The plans, without the lines that name hosts and ports.
CREATE FUNCTION plan(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  line text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF' || CASE WHEN q ~ '^VERBOSE ' THEN ', VERBOSE) ' || substr(q, 9) ELSE ') ' || q END LOOP
    IF line !~ 'Node: |Task Count|Tasks Shown' THEN RETURN NEXT line; END IF;
  END LOOP;
END $$;
SELECT plan('SELECT player_id, glicko2_period(player, opponent, score) FROM sides_by_player GROUP BY player_id');
SELECT plan('SELECT player_id, glicko2_period(player, opponent, score) FROM sides_by_game GROUP BY player_id');
-- There the workers run Citus's worker_partial_agg, which calls the
-- transition function through a fresh FmgrInfo for every row, and the
-- coordinator combines the serialized states (coord_combine_agg).
SELECT regexp_replace(line, '''[0-9]+''::oid', 'N::oid', 'g') AS partial_and_combine
FROM plan('VERBOSE SELECT player_id, glicko2_period(player, opponent, score) FROM sides_by_game GROUP BY player_id') line
WHERE line ~ 'partial_agg|combine_agg';

-- Every aggregate, every group, both distributions: count the differences.
-- (glicko2_explain lists a player's games in the order the rows came, which
-- differs between plans: its games are compared as a set, the rest as is.)
CREATE FUNCTION differences(agg text, args text, result text DEFAULT 'r') RETURNS TABLE (by_player bigint, by_game bigint)
LANGUAGE plpgsql AS $$
DECLARE
  q text := format('SELECT player_id, %s AS r FROM (SELECT player_id, %s(%s) AS r FROM %%s GROUP BY player_id) a',
                   result, agg, args);
BEGIN
  EXECUTE format('CREATE TEMP TABLE ref AS %s', format(q, 'sides_local'));
  EXECUTE format('SELECT count(*) FROM (%s) d FULL JOIN ref USING (player_id) WHERE d.r IS DISTINCT FROM ref.r',
                 format(q, 'sides_by_player')) INTO by_player;
  EXECUTE format('SELECT count(*) FROM (%s) d FULL JOIN ref USING (player_id) WHERE d.r IS DISTINCT FROM ref.r',
                 format(q, 'sides_by_game')) INTO by_game;
  DROP TABLE ref;
  RETURN NEXT;
END $$;
SELECT 'glicko2_period' AS agg, * FROM differences('glicko2_period', 'player, opponent, score');
SELECT 'glicko2_period tau' AS agg, * FROM differences('glicko2_period', 'player, opponent, score, 0.3');
SELECT 'glicko2_period advantage' AS agg, * FROM differences('glicko2_period', 'player, opponent, score, 0.5, advantage');
SELECT 'glicko1_period' AS agg, * FROM differences('glicko1_period',
  'glicko1_rating((player).rating, (player).rd), glicko1_rating((opponent).rating, (opponent).rd), score');
SELECT 'glicko2_explain' AS agg, * FROM differences('glicko2_explain', 'player, opponent, score',
  $$r - 'games' || jsonb_build_object('games', (SELECT jsonb_agg(x ORDER BY x::text) FROM jsonb_array_elements(r -> 'games') x))$$);

-- The groups compared are all there.
SELECT count(DISTINCT player_id) AS players FROM sides_by_game;

-- Bad input in one row on one worker: that worker's error reaches the
-- client (and no backend crashes: tools/citus.sh reads the servers' logs).
SELECT player_id, glicko2_period(player, opponent, CASE WHEN game_id = 777 AND advantage > 0 THEN 7 ELSE score END)
FROM sides_by_game GROUP BY player_id;
SELECT player_id, glicko2_period(player, opponent, CASE WHEN game_id = 777 AND advantage > 0 THEN 7 ELSE score END)
FROM sides_by_player GROUP BY player_id;
