------------------------------------------------------------------------------
-- Matchmaking: team win probability, balanced lobbies, pairing a queue
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_team_win_probability(team_a glicko2_rating[], team_b glicko2_rating[])
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_team_win_probability_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_team_win_probability(glicko2_rating[], glicko2_rating[]) IS
  'Probability that team a beats team b: glicko2_win_probability between the teams'' composites (Williams 2013: the means of their players'' rating, RD and volatility); p(a,b) + p(b,a) = 1; teams of one are glicko2_win_probability';

CREATE FUNCTION glicko2_balance(ratings glicko2_rating[], teams int DEFAULT 2, parties int[] DEFAULT NULL)
  RETURNS int[] AS 'MODULE_PATHNAME', 'glicko2_balance_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_balance(glicko2_rating[], int, int[]) IS
  'The fairest split of a lobby into teams whose sizes differ by at most one: the team (1, 2, ... by first player) of each position; fairest = smallest |p - 0.5| (more teams: smallest largest |p - 0.5| over pairs of teams, p = glicko2_team_win_probability); players with the same party number stay together; exact for 16 players or fewer (and up to 2 million splits), greedy plus improving swaps beyond; deterministic';

CREATE FUNCTION glicko2_queue_plan(ids text[], ratings glicko2_rating[], queued timestamptz[],
                                   team_size int, teams int, max_gap float8, widen float8)
  RETURNS int[] AS 'MODULE_PATHNAME', 'glicko2_queue_plan_sql'
  LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_queue_plan(text[], glicko2_rating[], timestamptz[], int, int, float8, float8) IS
  'Helper of glicko2_pair and glicko2_lobbies: for each queued player its game and team (0, 0 when left waiting), as an n x 2 array; games are runs of teams * team_size players in rating order, the most games then the least sum of squared spreads, each spread within every member''s max_gap + widen * seconds waited (max_gap NULL: no limit), each game split by glicko2_balance';

-- The rows of a queue that no other matchmaker holds, locked (FOR UPDATE
-- SKIP LOCKED), their plan, and the planned rows deleted: the caller's
-- transaction then owns them, and a rollback puts every one back.
CREATE FUNCTION glicko2_take_queue(queue regclass, team_size int, teams int, max_gap float8, widen float8,
                                   player_column name, rating_column name, queued_column name)
  RETURNS TABLE (game int, team int, player_id text, rating glicko2_rating, waited interval)
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  tids tid[];
  ids text[];
  ratings @extschema@.glicko2_rating[];
  queued timestamptz[];
  plan int[];
  taken tid[];
  deleted bigint;
BEGIN
  IF queue IS NULL THEN
    RAISE EXCEPTION 'queue must not be NULL' USING ERRCODE = '22004';
  END IF;
  PERFORM @extschema@.glicko2_column_type(queue, player_column, 'player_column');
  IF @extschema@.glicko2_column_type(queue, rating_column, 'rating_column')
     <> '@extschema@.glicko2_rating'::regtype THEN
    RAISE EXCEPTION 'column "%" of % is not a glicko2_rating', rating_column, queue
      USING ERRCODE = '42804';
  END IF;
  IF @extschema@.glicko2_column_type(queue, queued_column, 'queued_column')
     <> 'timestamptz'::regtype THEN
    RAISE EXCEPTION 'column "%" of % is not a timestamptz', queued_column, queue
      USING ERRCODE = '42804';
  END IF;

  EXECUTE format($q$
    SELECT array_agg(ctid), array_agg(%1$I::text), array_agg(%2$I), array_agg(%3$I)
    FROM (SELECT ctid, %1$I, %2$I, %3$I FROM %4$s FOR UPDATE SKIP LOCKED) q
    $q$, player_column, rating_column, queued_column, queue)
    INTO tids, ids, ratings, queued;
  IF tids IS NULL THEN
    tids := '{}'; ids := '{}'; ratings := '{}'; queued := '{}';
  END IF;

  plan := @extschema@.glicko2_queue_plan(ids, ratings, queued, team_size, teams, max_gap, widen);

  SELECT coalesce(array_agg(u.tid), '{}') INTO taken
  FROM unnest(tids) WITH ORDINALITY AS u(tid, i)
  WHERE plan[u.i::int][1] > 0;
  EXECUTE format('DELETE FROM %s WHERE ctid = ANY ($1)', queue) USING taken;
  GET DIAGNOSTICS deleted = ROW_COUNT;
  IF deleted <> cardinality(taken) THEN
    RAISE EXCEPTION 'deleted % of the % players taken from %', deleted, cardinality(taken), queue
      USING ERRCODE = '55000',
            DETAIL = 'A rule or trigger on the queue changed the delete; nothing was taken.';
  END IF;

  RETURN QUERY
  -- unnest spreads a composite element over its fields.
  SELECT plan[u.i::int][1], plan[u.i::int][2], u.id,
         ROW(u.r, u.rd, u.volatility)::@extschema@.glicko2_rating, now() - u.q
  FROM unnest(ids, ratings, queued) WITH ORDINALITY AS u(id, r, rd, volatility, q, i)
  WHERE plan[u.i::int][1] > 0;
END
$$;
COMMENT ON FUNCTION glicko2_take_queue(regclass, int, int, float8, float8, name, name, name) IS
  'Helper of glicko2_pair and glicko2_lobbies: locks the queue rows no other matchmaker holds (SKIP LOCKED), plans games with glicko2_queue_plan, deletes the players placed in a game and returns them';

CREATE FUNCTION glicko2_pair(queue regclass, max_gap float8 DEFAULT 100, widen float8 DEFAULT 5,
                             player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
                             queued_column name DEFAULT 'queued_at')
  RETURNS TABLE (player_a text, player_b text, p_win float8, gap float8,
                 rating_a glicko2_rating, rating_b glicko2_rating,
                 waited_a interval, waited_b interval)
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RETURN QUERY
  WITH taken AS MATERIALIZED (
    SELECT * FROM @extschema@.glicko2_take_queue(queue, 1, 2, max_gap, widen,
                                                 player_column, rating_column, queued_column))
  SELECT a.player_id, b.player_id, @extschema@.glicko2_win_probability(a.rating, b.rating),
         (a.rating).rating - (b.rating).rating, a.rating, b.rating, a.waited, b.waited
  FROM taken a JOIN taken b ON b.game = a.game AND b.team = 2
  WHERE a.team = 1
  ORDER BY a.game;
END
$$;
COMMENT ON FUNCTION glicko2_pair(regclass, float8, float8, name, name, name) IS
  'Pairs the waiting players of a queue table (player_id, rating glicko2_rating, queued_at timestamptz) for one-on-one games: the most pairs, then the least sum of squared rating gaps, optimal over the whole pool; a pair''s gap at most max_gap + widen * seconds waited for both (and anyone rated between); player_a is the higher rated, p_win its glicko2_win_probability; locks with SKIP LOCKED and deletes the paired rows in the calling transaction';

CREATE FUNCTION glicko2_lobbies(queue regclass, team_size int, teams int DEFAULT 2,
                                max_gap float8 DEFAULT 200, widen float8 DEFAULT 5,
                                player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
                                queued_column name DEFAULT 'queued_at')
  RETURNS TABLE (lobby int, team int, player_id text, rating glicko2_rating, p_win float8, waited interval)
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF team_size IS NULL OR team_size < 1 THEN
    RAISE EXCEPTION 'team_size must be at least 1, not %', coalesce(team_size::text, 'NULL')
      USING ERRCODE = '22023';
  END IF;
  IF teams IS NULL OR teams < 2 THEN
    RAISE EXCEPTION 'teams must be at least 2, not %', coalesce(teams::text, 'NULL')
      USING ERRCODE = '22023';
  END IF;
  RETURN QUERY
  WITH taken AS MATERIALIZED (
    SELECT * FROM @extschema@.glicko2_take_queue(queue, team_size, teams, max_gap, widen,
                                                 player_column, rating_column, queued_column)),
  sides AS (
    SELECT t.game, t.team, array_agg(t.rating) AS side FROM taken t GROUP BY t.game, t.team),
  chances AS (
    SELECT s.game, s.team,
           @extschema@.glicko2_team_win_probability(s.side, array_agg(r.rating)) AS p
    FROM sides s JOIN taken r ON r.game = s.game AND r.team <> s.team
    GROUP BY s.game, s.team, s.side)
  SELECT t.game, t.team, t.player_id, t.rating, c.p, t.waited
  FROM taken t JOIN chances c ON c.game = t.game AND c.team = t.team
  ORDER BY t.game, t.team, (t.rating).rating DESC, t.player_id;
END
$$;
COMMENT ON FUNCTION glicko2_lobbies(regclass, int, int, float8, float8, name, name, name) IS
  'Forms lobbies of teams * team_size players from a queue table (player_id, rating glicko2_rating, queued_at timestamptz): runs of similar rating, the most lobbies then the least sum of squared spreads, each spread at most max_gap + widen * seconds waited for every member; each split by glicko2_balance; p_win is the team''s glicko2_team_win_probability against the lobby''s other players; locks with SKIP LOCKED and deletes the placed rows in the calling transaction';
