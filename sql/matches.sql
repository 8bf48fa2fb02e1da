------------------------------------------------------------------------------
-- Team and free-for-all matches (glicko2_close_matches and the reduction to one-on-one games)
------------------------------------------------------------------------------

-- A match as the one-on-one game sides it is rated from (C: src/matches.c,
-- src/match_math.c).  Element i of the four arrays is the match's player i.
CREATE FUNCTION glicko2_match_sides(
  players anyarray, teams anycompatiblearray, places bigint[], ratings glicko2_rating[],
  method text DEFAULT 'individual')
  RETURNS TABLE (player anyelement, team anycompatible, rating glicko2_rating,
                 opponent anyelement, opponent_team anycompatible,
                 opponent_rating glicko2_rating, score float8)
  AS 'MODULE_PATHNAME', 'glicko2_match_sides_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 36;
COMMENT ON FUNCTION glicko2_match_sides(anyarray, anycompatiblearray, bigint[], glicko2_rating[], text) IS
  'The one-on-one game sides one team or free-for-all match becomes (element i of each array is player i; place 1 = first, equal places tie; a NULL rating is unrated): ''individual'', one game against every player of every other team, or ''composite'', one game against each other team as a composite player of its players'' mean rating, RD and volatility (Williams 2013); score 1, 0 or 0.5 by the teams'' places';
