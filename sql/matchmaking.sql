------------------------------------------------------------------------------
-- Matchmaking: team win probability, balanced lobbies, pairing a queue
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_team_win_probability(team_a glicko2_rating[], team_b glicko2_rating[],
                                             method text DEFAULT 'sum',
                                             weights_a float8[] DEFAULT NULL, weights_b float8[] DEFAULT NULL,
                                             parties_a "any" DEFAULT NULL, parties_b "any" DEFAULT NULL,
                                             party_advantage float8 DEFAULT 0, size_advantage float8 DEFAULT 0)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_team_win_probability_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_team_win_probability(glicko2_rating[], glicko2_rating[], text, float8[], float8[], "any", "any", float8, float8) IS
  'Probability that team a beats team b by the team model of the method: ''sum'' (the default) and ''mean'', 1 / (1 + exp(-(M_a - M_b) / sqrt(s^2 + 3 (V_a + V_b) / pi^2))) with M a team''s sum (or mean) of its players'' mu, V of their a^2 phi^2, s^2 the teams'' performance noise (docs/matches.md); ''individual'' and ''composite'', glicko2_win_probability between the teams'' composites (Williams 2013: the means of their players'' rating, RD and volatility); each player counted by his weight (play share, in (0, 1]; NULL weights: all 1, the same bits) as glicko2_close_matches counts him; p(a,b) + p(b,a) = 1; teams of one are glicko2_win_probability; NULL teams or method: NULL; parties_a, parties_b: each player''s party label in his team (arrays of any type with equality, NULL: queued alone; a label in both teams is refused), party_advantage the points each member of a party of two or more adds to his team''s strength (times his weight in it), size_advantage the points per team member beyond one (''sum'' and ''mean'' only; 0: the same bits as without, docs/matches.md)';

-- The same with the covariances of a teammates store (glicko2_fit_matches).
CREATE FUNCTION glicko2_internal.glicko2_team_win_probability_covaried(
  team_a glicko2_rating[], team_b glicko2_rating[], method text, weights_a float8[], weights_b float8[],
  parties_a "any", parties_b "any", party_advantage float8, size_advantage float8, covariance float8)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_team_win_probability_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_team_win_probability_covaried(glicko2_rating[], glicko2_rating[], text, float8[], float8[], "any", "any", float8, float8, float8) IS
  'Helper of glicko2_fit_matches with a teammates store: glicko2_team_win_probability with covariance (the sum over pairs k != l of both teams'' players of c_k c_l times their stored covariance on the Glicko-2 scale, c = +a on team a, -a on team b) added to the teams'' variance (docs/matches.md, recurring teammates)';

CREATE FUNCTION glicko2_balance(ratings glicko2_rating[], teams int DEFAULT 2, parties int[] DEFAULT NULL,
                                method text DEFAULT 'sum', party_advantage float8 DEFAULT 0,
                                size_advantage float8 DEFAULT 0)
  RETURNS int[] AS 'MODULE_PATHNAME', 'glicko2_balance_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_balance(glicko2_rating[], int, int[], text, float8, float8) IS
  'The fairest split of a lobby into teams whose sizes differ by at most one: the team (1, 2, ... by first player) of each position; fairest = smallest |p - 0.5| (more teams: smallest largest |p - 0.5| over pairs of teams), p = glicko2_team_win_probability of the method (''sum'', the default, ''mean'', ''individual'', ''composite''); players with the same party number stay together, and with party_advantage and size_advantage (''sum'', ''mean'') each member of a party of two or more counts party_advantage points more in his team''s strength and each member beyond one size_advantage; exact for 16 players or fewer (and up to 2 million splits), greedy plus improving swaps beyond; deterministic';

CREATE FUNCTION glicko2_internal.glicko2_row_taken(row_id tid, taken bytea)
  RETURNS boolean AS 'MODULE_PATHNAME', 'glicko2_row_taken_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_row_taken(tid, bytea) IS
  'Internal to glicko2_pair and glicko2_lobbies: whether the row at row_id is in taken, the bitmap of row ids they build (bit block * MaxHeapTuplesPerPage + line pointer - 1, least significant first); the filter of their delete, a sequential scan rather than a TID scan of each row';

-- Player ids come back as text (the key's text form, whatever its type) from
-- glicko2_pair and glicko2_lobbies, and in the type of a NULL given after the
-- required arguments (NULL::bigint: the queue key's own type) from the _typed
-- forms, as jsonb_populate_record's first argument names a row type.  Two
-- names, not overloads, so glicko2_pair('queue', NULL::bigint) has one
-- reading.  The type argument has no name: PostgreSQL types a polymorphic
-- result's columns from the arguments in the order written, and a named one
-- could be written out of its place (test matchmaking_calls).
CREATE FUNCTION glicko2_pair(queue regclass, max_gap float8 DEFAULT 100, widen float8 DEFAULT 5,
                             player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
                             queued_column name DEFAULT 'queued_at')
  RETURNS TABLE (player_a text, player_b text, p_win float8, gap float8,
                 rating_a glicko2_rating, rating_b glicko2_rating,
                 waited_a interval, waited_b interval)
  AS 'MODULE_PATHNAME', 'glicko2_pair_sql'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_pair(regclass, float8, float8, name, name, name) IS
  'Pairs the waiting players of a queue table (player_id, rating glicko2_rating, queued_at timestamptz) for one-on-one games: the most pairs, then the least sum of squared rating gaps, optimal over the whole pool; a pair''s gap at most max_gap + widen * seconds waited for both (and anyone rated between); player_a is the higher rated, p_win its glicko2_win_probability; player ids as text (glicko2_pair_typed: in the key''s own type); locks with SKIP LOCKED and deletes the paired rows in the calling transaction';

CREATE FUNCTION glicko2_pair_typed(queue regclass, anyelement,
                                   max_gap float8 DEFAULT 100, widen float8 DEFAULT 5,
                                   player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
                                   queued_column name DEFAULT 'queued_at')
  RETURNS TABLE (player_a anyelement, player_b anyelement, p_win float8, gap float8,
                 rating_a glicko2_rating, rating_b glicko2_rating,
                 waited_a interval, waited_b interval)
  AS 'MODULE_PATHNAME', 'glicko2_pair_typed_sql'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_pair_typed(regclass, anyelement, float8, float8, name, name, name) IS
  'glicko2_pair(queue, ...) with the player ids in the type of the second argument, a NULL written positionally (glicko2_pair_typed(queue, NULL::bigint, max_gap => ...)): the queue key''s own type, or text';

CREATE FUNCTION glicko2_lobbies(queue regclass, team_size int, teams int DEFAULT 2,
                                max_gap float8 DEFAULT 200, widen float8 DEFAULT 5,
                                player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
                                queued_column name DEFAULT 'queued_at', method text DEFAULT 'sum')
  RETURNS TABLE (lobby int, team int, player_id text, rating glicko2_rating, p_win float8, waited interval)
  AS 'MODULE_PATHNAME', 'glicko2_lobbies_sql'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_lobbies(regclass, int, int, float8, float8, name, name, name, text) IS
  'Forms lobbies of teams * team_size players from a queue table (player_id, rating glicko2_rating, queued_at timestamptz): runs of similar rating, the most lobbies then the least sum of squared spreads, each spread at most max_gap + widen * seconds waited for every member; each split by glicko2_balance with the method; p_win is the team''s glicko2_team_win_probability of the method against the other team (''sum'', ''mean'' with more teams: the mean over the other teams; ''composite'', ''individual'': against all the lobby''s other players); player ids as text (glicko2_lobbies_typed: in the key''s own type); locks with SKIP LOCKED and deletes the placed rows in the calling transaction';

CREATE FUNCTION glicko2_lobbies_typed(queue regclass, team_size int, anyelement, teams int DEFAULT 2,
                                      max_gap float8 DEFAULT 200, widen float8 DEFAULT 5,
                                      player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
                                      queued_column name DEFAULT 'queued_at', method text DEFAULT 'sum')
  RETURNS TABLE (lobby int, team int, player_id anyelement, rating glicko2_rating, p_win float8, waited interval)
  AS 'MODULE_PATHNAME', 'glicko2_lobbies_typed_sql'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_lobbies_typed(regclass, int, anyelement, int, float8, float8, name, name, name, text) IS
  'glicko2_lobbies(queue, team_size, ...) with the player ids in the type of the third argument, a NULL written positionally (glicko2_lobbies_typed(queue, 5, NULL::bigint, teams => ...)): the queue key''s own type, or text';
