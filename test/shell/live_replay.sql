-- live_replay.sql — the committed games one by one in commit order, with
-- glicko2_rating_at and glicko2_game (periods of 1 hour): what a live
-- rating must have written, every bit.  Read by test/shell/live_stress.sh
-- and test/citus/live_stress.sh, which first create the temporary tables
-- expected (the ratings before the games: player_id int, rating, rated_at)
-- and replay_games (player_id, opponent_id, score, played_at, and the
-- commit order: at, id); expected then holds the ratings after them.
-- The replay keeps the ratings in arrays indexed by player_id: rows updated
-- game after game in one transaction would leave every version behind, and
-- each read would walk them all (minutes for 100 000 games).
DO $$
DECLARE
  g record;
  e record;
  known bool[] := '{}';       -- a row for the player (a missing one reads as NULLs)
  r glicko2_rating[] := '{}';
  rated timestamptz[] := '{}';
  pr glicko2_rating;
  opr glicko2_rating;
BEGIN
  FOR e IN SELECT * FROM expected LOOP
    known[e.player_id] := true;
    r[e.player_id] := e.rating;
    rated[e.player_id] := e.rated_at;
  END LOOP;
  FOR g IN SELECT * FROM replay_games ORDER BY at, id LOOP
    pr := CASE WHEN known[g.player_id] THEN glicko2_rating_at(r[g.player_id], rated[g.player_id], g.played_at, '1 hour') END;
    opr := CASE WHEN known[g.opponent_id] THEN glicko2_rating_at(r[g.opponent_id], rated[g.opponent_id], g.played_at, '1 hour') END;
    r[g.player_id] := glicko2_game(pr, opr, g.score);
    r[g.opponent_id] := glicko2_game(opr, pr, 1 - g.score);
    rated[g.player_id] := greatest(rated[g.player_id], g.played_at);
    rated[g.opponent_id] := greatest(rated[g.opponent_id], g.played_at);
    known[g.player_id] := true;
    known[g.opponent_id] := true;
  END LOOP;
  DELETE FROM expected;
  INSERT INTO expected (player_id, rating, rated_at)
  SELECT p, r[p], rated[p] FROM generate_subscripts(known, 1) p WHERE known[p];
END $$;
