------------------------------------------------------------------------------
-- Live ratings: one game rated as it is written (glicko2_game, glicko2_rate_games, glicko2_rating_at)
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_game(player glicko2_rating, opponent glicko2_rating, score float8,
                             tau float8 DEFAULT 0.5, elapsed_periods float8 DEFAULT 0)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_game_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_game(glicko2_rating, glicko2_rating, float8, float8, float8) IS
  'The player''s rating after one game, rated at once: the paper''s update with Step 6 over elapsed_periods periods (1: glicko2_period over that one game; 0: no growth inside the game, lichess''s live update); NULL ratings are unrated players';

-- IMMUTABLE: the result depends only on the arguments (a period is a fixed
-- number of seconds, a day 24 hours, a month 30 days); the default now()
-- is evaluated in the caller's expression, which is then STABLE.
CREATE FUNCTION glicko2_rating_at(r glicko2_rating, rated_at timestamptz,
                                  at timestamptz DEFAULT now(),
                                  period interval DEFAULT '1 day',
                                  max_rd float8 DEFAULT 350)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_rating_at_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_rating_at(glicko2_rating, timestamptz, timestamptz, interval, float8) IS
  'A rating as of time at: RD grown by Step 6 for the fractional periods since rated_at, up to max_rd (NULL: no cap), nothing written; a time before rated_at (or a NULL rated_at) gives r as it is';

-- The trigger reads its arguments: the ratings table (unqualified: in the
-- games table's schema), then 'name=value' options.
CREATE FUNCTION glicko2_rate_games()
  RETURNS trigger AS 'MODULE_PATHNAME', 'glicko2_rate_games'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_rate_games() IS
  'AFTER INSERT ... FOR EACH ROW trigger for a games table: rates both players of each game at once in the inserting transaction (RD grown for the time since rated_at, then glicko2_game at t = 0 from both pre-game ratings); arguments: the ratings table, then ''period=1 day'', ''tau=0.5'', ''max_rd=350'' (or none) and column names';

-- Team and free-for-all matches rated live (C: src/live_matches.c).  Its
-- arguments: the ratings table, then 'name=value' options.
CREATE FUNCTION glicko2_rate_matches()
  RETURNS trigger AS 'MODULE_PATHNAME', 'glicko2_rate_matches'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_rate_matches() IS
  'AFTER INSERT ... REFERENCING NEW TABLE AS ... FOR EACH STATEMENT trigger for a matches table (one row per player per match: match_id, player_id, team, place, played_at [, weight]): rates every match the statement inserted, in order of played_at then match id, in the inserting transaction (each player''s RD grown for the time since rated_at, then the team model''s update at t = 0 from the ratings before the match); arguments: the ratings table, then ''method=sum'' (sum, mean, individual, composite), ''period=1 day'', ''tau=0.5'', ''max_rd=350'' (or none) and column names';
