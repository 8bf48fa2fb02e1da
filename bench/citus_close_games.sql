-- bench/citus_close_games.sql — the games and leagues of bench/citus_close.sql,
-- shared with bench/citus_close_floor.sql (both include it after
-- citus_close_base.sql, with players and games set): table games_base
-- (games in periods 1 and 2 between distinct players, score 0, 0.5 or 1),
-- and procedure league(name, key_type), which makes ratings <name>, games
-- <name>_games and history <name>_history distributed by the player
-- (co-located, citus.shard_count shards) and plain copies <name>_local,
-- <name>_games_local (guarded) and <name>_history_local, all from base and
-- games_base.
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
