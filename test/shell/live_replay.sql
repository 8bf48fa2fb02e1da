-- live_replay.sql — the committed games one by one in commit order, with
-- glicko2_rating_at and glicko2_game (periods of 1 hour): what a live
-- rating must have written, every bit.  Read by test/shell/live_stress.sh
-- and test/citus/live_stress.sh, which first create the temporary tables
-- expected (the ratings before the games: player_id, rating, rated_at) and
-- replay_games (player_id, opponent_id, score, played_at, and the commit
-- order: at, id); expected then holds the ratings after them.
CREATE UNIQUE INDEX ON expected (player_id);
DO $$
DECLARE
  g record;
  p record;
  o record;
BEGIN
  FOR g IN SELECT * FROM replay_games ORDER BY at, id LOOP
    SELECT glicko2_rating_at(e.rating, e.rated_at, g.played_at, '1 hour') AS r, e.rated_at AS at
      INTO p FROM expected e WHERE e.player_id = g.player_id;
    SELECT glicko2_rating_at(e.rating, e.rated_at, g.played_at, '1 hour') AS r, e.rated_at AS at
      INTO o FROM expected e WHERE e.player_id = g.opponent_id;
    DELETE FROM expected e WHERE e.player_id IN (g.player_id, g.opponent_id);
    INSERT INTO expected VALUES
      (g.player_id, glicko2_game(p.r, o.r, g.score), greatest(p.at, g.played_at)),
      (g.opponent_id, glicko2_game(o.r, p.r, 1 - g.score), greatest(o.at, g.played_at));
  END LOOP;
END $$;
