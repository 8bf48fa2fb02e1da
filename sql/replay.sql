------------------------------------------------------------------------------
-- Replay and corrections: a ratings table rebuilt, closed periods closed again
------------------------------------------------------------------------------

-- Replay and corrections delete records of closes they redo; the same roles
-- that may close a ratings table (UPDATE on it) may do that.
CREATE POLICY glicko2_closes_redo ON glicko2_closes FOR DELETE
  USING (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
COMMENT ON POLICY glicko2_closes_redo ON glicko2_closes IS
  'glicko2_replay, glicko2_replay_matches and glicko2_recompute delete the records of the periods they close again: allowed to roles that may update the ratings table';

-- Deletes every row of a table the caller can see, or fails whole
-- (glicko2_require_written) if a policy, trigger or rule kept one.
CREATE FUNCTION glicko2_internal.glicko2_empty(relation regclass, what text)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  meant bigint;
  written bigint;
BEGIN
  PERFORM glicko2_internal.glicko2_not_catalog(relation, 'table');
  EXECUTE format('SELECT count(*) FROM %s', relation) INTO meant;
  EXECUTE format('DELETE FROM %s', relation);
  GET DIAGNOSTICS written = ROW_COUNT;
  PERFORM glicko2_internal.glicko2_require_written(relation, written, meant, what);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_empty(regclass, text) IS
  'Helper of glicko2_replay, glicko2_replay_matches and glicko2_recompute: deletes every row of relation the caller can read, or an ERROR (glicko2_require_written) naming what if a policy, trigger or rule kept some';

-- Closes one period again as the record c describes the close: from
-- c.games_table, with glicko2_close_period (c.method NULL: the games'
-- columns are the caller's) or glicko2_close_matches (c.method and the
-- matches' columns, advantages and store as recorded), and every option
-- recorded.  The one place replay and recompute choose a close.
CREATE FUNCTION glicko2_internal.glicko2_close_again(
  c @extschema@.glicko2_closes, history regclass, player_column name, rating_column name,
  period_column name, game_player_column name, opponent_column name, score_column name)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  period_type regtype := glicko2_internal.glicko2_column_type(c.games_table, period_column, 'period_column');
BEGIN
  IF c.method IS NULL THEN
    EXECUTE format('CALL @extschema@.glicko2_close_period($1, $2, CAST($3 AS %s), $4, $5, $6,
                      $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)', period_type)
      USING c.ratings, c.games_table, c.period, c.tau, c.max_rd, history, player_column, rating_column,
            period_column, game_player_column, opponent_column, score_column, c.unguarded,
            c.advantage, c.home_column, c.min_rating, c.max_change, c.max_volatility;
  ELSE
    EXECUTE format('CALL @extschema@.glicko2_close_matches($1, $2, CAST($3 AS %s), $4, $5, $6, $7,
                      $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23)', period_type)
      USING c.ratings, c.games_table, c.period, c.method, c.tau, c.max_rd, history, player_column, rating_column,
            period_column, c.match_column, c.match_player_column, c.team_column, c.place_column, c.unguarded,
            c.weight_column, c.party_column, c.party_advantage, c.size_advantage, c.teammates,
            c.min_rating, c.max_change, c.max_volatility;
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_again(glicko2_closes, regclass, name, name, name, name, name, name) IS
  'Helper of glicko2_replay, glicko2_replay_matches and glicko2_recompute: closes period c.period of c.ratings from c.games_table as the record c says: glicko2_close_period (c.method NULL; the games'' columns as given) or glicko2_close_matches (c.method, the matches'' columns, advantages and teammates store recorded), with the tau, max_rd, unguarded flag, advantage and floors and caps recorded';

-- A teammates store that replay or recompute empties must exist and be this
-- ratings table's alone (glicko2_teammates_owner), before it is emptied.
CREATE FUNCTION glicko2_internal.glicko2_teammates_own(teammates regclass, ratings regclass, procedure_name text)
  RETURNS void
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_class r WHERE r.oid OPERATOR(pg_catalog.=) teammates::oid) THEN
    RAISE EXCEPTION 'the teammates store (OID %) of % no longer exists', teammates::oid, ratings
      USING ERRCODE = '42P01',
            DETAIL = format('%s closes again with the store each period was closed with.', procedure_name),
            HINT = 'Rebuild the league with glicko2_replay_matches and a new store.';
  END IF;
  PERFORM glicko2_internal.glicko2_teammates_owner(teammates, ratings);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_teammates_own(regclass, regclass, text) IS
  'Helper of glicko2_replay_matches and glicko2_recompute: an ERROR unless the teammates store exists and is the ratings table''s (glicko2_teammates_owner)';

-- Deletes the kept pairs (glicko2_teammates_history) of the closes of
-- ratings numbered from_number on (NULL: all of them), before those closes
-- are closed again; every one or an ERROR.
CREATE FUNCTION glicko2_internal.glicko2_teammates_unkeep(ratings regclass, from_number bigint, what text)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  meant bigint;
  written bigint;
BEGIN
  SELECT count(*) INTO meant FROM @extschema@.glicko2_teammates_history t
  WHERE t.ratings = glicko2_teammates_unkeep.ratings
    AND (from_number IS NULL OR EXISTS (SELECT FROM @extschema@.glicko2_closes c
                                        WHERE c.ratings = t.ratings AND c.period = t.period
                                          AND c.close_number >= from_number));
  DELETE FROM @extschema@.glicko2_teammates_history t
  WHERE t.ratings = glicko2_teammates_unkeep.ratings
    AND (from_number IS NULL OR EXISTS (SELECT FROM @extschema@.glicko2_closes c
                                        WHERE c.ratings = t.ratings AND c.period = t.period
                                          AND c.close_number >= from_number));
  GET DIAGNOSTICS written = ROW_COUNT;
  PERFORM glicko2_internal.glicko2_require_written('@extschema@.glicko2_teammates_history', written, meant, what);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_teammates_unkeep(regclass, bigint, text) IS
  'Helper of glicko2_replay_all and glicko2_recompute: deletes from glicko2_teammates_history the pairs kept by the closes of ratings numbered from_number on (NULL: all), an ERROR naming what unless every one was deleted';

-- Rebuilds a ratings table from nothing: empties it, the history, the
-- teammates store and its records (and kept pairs), then closes every period of the source
-- in order (up to through) as the record template c describes the close
-- (glicko2_close_again), applying each recorded season reset again after
-- the period it followed; those the rebuild does not reach are forgotten,
-- as its closes are.  The caller has checked every argument and column.
CREATE FUNCTION glicko2_internal.glicko2_replay_all(
  c @extschema@.glicko2_closes, history regclass, through text, procedure_name text,
  player_column name, rating_column name, period_column name,
  game_player_column name, opponent_column name, score_column name)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  target regclass := c.ratings;
  period_type regtype := glicko2_internal.glicko2_column_type(c.games_table, period_column, 'period_column');
  p text;
  pending text[];
  redo text[];
BEGIN
  -- As a close does: closes of this table wait, readers do not.
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', target);
  PERFORM glicko2_internal.glicko2_empty(target, 'emptying the ratings for ' || procedure_name);
  IF history IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_empty(history, 'emptying the history for ' || procedure_name);
  END IF;
  IF c.teammates IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_empty(c.teammates, 'emptying the teammates store for ' || procedure_name);
  END IF;
  PERFORM glicko2_internal.glicko2_teammates_unkeep(target, NULL, 'delete of the kept teammates pairs for ' || procedure_name);
  DELETE FROM @extschema@.glicko2_closes r WHERE r.ratings = target;
  SELECT coalesce(array_agg(s.season), '{}') INTO pending FROM @extschema@.glicko2_season_resets s
  WHERE s.ratings = target;
  redo := ARRAY(SELECT s.season FROM @extschema@.glicko2_season_resets s
                WHERE s.ratings = target AND s.after_period IS NULL);
  PERFORM glicko2_internal.glicko2_season_redo(target, redo, 0, NULL, player_column, rating_column);
  pending := ARRAY(SELECT unnest(pending) EXCEPT SELECT unnest(redo));

  FOR p IN EXECUTE format(
      'SELECT CAST(u.p AS text) FROM (SELECT DISTINCT %1$I AS p FROM %2$s) u
       WHERE u.p IS NOT NULL AND ($1 IS NULL OR u.p <= CAST($1 AS %3$s)) ORDER BY u.p',
      period_column, c.games_table, period_type) USING through
  LOOP
    c.period := p;
    PERFORM glicko2_internal.glicko2_close_again(c, history, player_column, rating_column, period_column,
                                                 game_player_column, opponent_column, score_column);
    redo := ARRAY(SELECT s.season FROM @extschema@.glicko2_season_resets s
                  WHERE s.ratings = target AND s.after_period = p AND s.season = ANY (pending));
    IF cardinality(redo) > 0 THEN
      PERFORM glicko2_internal.glicko2_season_redo(target, redo,
                (SELECT max(r.close_number) FROM @extschema@.glicko2_closes r WHERE r.ratings = target),
                p, player_column, rating_column);
      pending := ARRAY(SELECT unnest(pending) EXCEPT SELECT unnest(redo));
    END IF;
  END LOOP;
  DELETE FROM @extschema@.glicko2_season_resets s
  WHERE s.ratings = target AND s.season = ANY (pending);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_replay_all(glicko2_closes, regclass, text, text, name, name, name, name, name, name) IS
  'Helper of glicko2_replay and glicko2_replay_matches: empties the ratings table, the history, the teammates store (c.teammates) and the table''s records, then closes every period of c.games_table in order (up to through) as c describes the close (glicko2_close_again), applying each recorded season reset again after the period it followed';

-- Rebuilds a ratings table from nothing by closing every period of the games
-- in order with glicko2_close_period (which does all the checking and
-- rating); one transaction.
CREATE PROCEDURE glicko2_replay(
  ratings regclass, games regclass,
  tau float8 DEFAULT 0.5, max_rd float8 DEFAULT 350, history regclass DEFAULT NULL,
  through text DEFAULT NULL,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', game_player_column name DEFAULT 'player_id',
  opponent_column name DEFAULT 'opponent_id', score_column name DEFAULT 'score',
  unguarded boolean DEFAULT false,
  advantage float8 DEFAULT 0, home_column name DEFAULT NULL,
  min_rating float8 DEFAULT NULL, max_change float8 DEFAULT NULL, max_volatility float8 DEFAULT NULL)
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  period_type regtype;
  key_type regtype;
  c @extschema@.glicko2_closes;
BEGIN
  IF ratings IS NULL OR games IS NULL THEN
    RAISE EXCEPTION 'ratings and games must not be NULL' USING ERRCODE = '22004';
  END IF;
  -- Every argument and column checked as each close will check them, before
  -- anything is emptied.
  PERFORM glicko2_internal.glicko2_advantage_check(games, advantage, home_column);
  period_type := glicko2_internal.glicko2_column_type(games, period_column, 'period_column');
  EXECUTE format('SELECT c.key_type FROM glicko2_internal.glicko2_close_check($1, $2, $3, $4, CAST(NULL AS %s),'
                 ' $5, $6, $7, $8, $9, $10) c', period_type)
    INTO key_type USING 'glicko2_replay', ratings, games, 'games', tau, max_rd, history,
                        player_column, rating_column, period_column;
  PERFORM glicko2_internal.glicko2_games_check(games, ratings, player_column, key_type,
                                          game_player_column, opponent_column, score_column);
  c.ratings := ratings;
  c.games_table := games;
  c.tau := tau;
  c.max_rd := max_rd;
  c.unguarded := unguarded;
  c.advantage := advantage;
  c.home_column := home_column;
  c.min_rating := min_rating;
  c.max_change := max_change;
  c.max_volatility := max_volatility;
  PERFORM glicko2_internal.glicko2_replay_all(c, history, through, 'glicko2_replay', player_column, rating_column,
                                              period_column, game_player_column, opponent_column, score_column);
END
$$;
COMMENT ON PROCEDURE glicko2_replay(regclass, regclass, float8, float8, regclass, text, name, name, name, name, name, name, boolean, float8, name, float8, float8, float8) IS
  'Rebuilds a ratings table from its games: empties it (and the history table, and its records in glicko2_closes), then closes every period of the games in order (up to through, if given) with glicko2_close_period (unguarded, advantage, home_column and the floors and caps passed on), applying each recorded season reset again after the period it followed; one transaction';

-- The same for a league of team matches: every period closed with
-- glicko2_close_matches and these arguments, the teammates store emptied
-- with the ratings and rebuilt by the closes.
CREATE PROCEDURE glicko2_replay_matches(
  ratings regclass, matches regclass, method text DEFAULT 'sum',
  tau float8 DEFAULT 0.5, max_rd float8 DEFAULT 350, history regclass DEFAULT NULL,
  through text DEFAULT NULL,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', match_column name DEFAULT 'match_id',
  match_player_column name DEFAULT 'player_id', team_column name DEFAULT 'team',
  place_column name DEFAULT 'place', unguarded boolean DEFAULT false,
  weight_column name DEFAULT NULL, party_column name DEFAULT NULL,
  party_advantage float8 DEFAULT 0, size_advantage float8 DEFAULT 0,
  teammates regclass DEFAULT NULL,
  min_rating float8 DEFAULT NULL, max_change float8 DEFAULT NULL, max_volatility float8 DEFAULT NULL)
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  period_type regtype;
  checked record;
  c @extschema@.glicko2_closes;
BEGIN
  IF ratings IS NULL OR matches IS NULL OR method IS NULL THEN
    RAISE EXCEPTION 'ratings, matches and method must not be NULL' USING ERRCODE = '22004';
  END IF;
  -- Every argument and column checked as each close will check them, before
  -- anything is emptied.
  period_type := glicko2_internal.glicko2_column_type(matches, period_column, 'period_column');
  EXECUTE format('SELECT c.weight_column_read FROM glicko2_internal.glicko2_matches_check($1, $2, $3, CAST(NULL AS %s),'
                 ' $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) c', period_type)
    INTO checked
    USING 'glicko2_replay_matches', ratings, matches, method, tau, max_rd, history, player_column, rating_column,
          period_column, match_column, match_player_column, team_column, place_column, weight_column,
          party_column, party_advantage, size_advantage, teammates;
  IF teammates IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_teammates_own(teammates, ratings, 'glicko2_replay_matches');
  END IF;
  c.ratings := ratings;
  c.games_table := matches;
  c.method := method;
  c.tau := tau;
  c.max_rd := max_rd;
  c.unguarded := unguarded;
  c.match_column := match_column;
  c.match_player_column := match_player_column;
  c.team_column := team_column;
  c.place_column := place_column;
  c.weight_column := weight_column;
  c.party_column := party_column;
  c.party_advantage := party_advantage;
  c.size_advantage := size_advantage;
  c.teammates := teammates;
  c.min_rating := min_rating;
  c.max_change := max_change;
  c.max_volatility := max_volatility;
  PERFORM glicko2_internal.glicko2_replay_all(c, history, through, 'glicko2_replay_matches', player_column,
                                              rating_column, period_column, NULL, NULL, NULL);
END
$$;
COMMENT ON PROCEDURE glicko2_replay_matches(regclass, regclass, text, float8, float8, regclass, text, name, name, name, name, name, name, name, boolean, name, name, float8, float8, regclass, float8, float8, float8) IS
  'Rebuilds a ratings table from its team or free-for-all matches: empties it (and the history table, the teammates store and its records in glicko2_closes), then closes every period of the matches in order (up to through, if given) with glicko2_close_matches and these arguments, applying each recorded season reset again after the period it followed; one transaction';

-- After games of closed periods were changed or annulled: rolls the ratings
-- back to the end of the period before, from the history table, and closes
-- again every period closed since, each with the close and options it was
-- closed with; a teammates store goes back to its pairs kept after the
-- period before (glicko2_teammates_history).  One transaction: all of it
-- or nothing.
CREATE PROCEDURE glicko2_recompute(
  ratings regclass, games regclass, period anyelement, history regclass,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', game_player_column name DEFAULT 'player_id',
  opponent_column name DEFAULT 'opponent_id', score_column name DEFAULT 'score')
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  period_type regtype;
  history_type regtype;
  period_text text;
  first_number bigint;
  first_games regclass;
  start_number bigint;
  start_period text;
  rebuild_from bigint;
  kept_period text;
  before text;
  closes @extschema@.glicko2_closes[];
  stores regclass[];
  missing @extschema@.glicko2_closes;
  kept bigint;
  meant_deleted bigint;
  meant_updated bigint;
  written bigint;
BEGIN
  IF ratings IS NULL OR games IS NULL OR period IS NULL THEN
    RAISE EXCEPTION 'ratings, games and period must not be NULL' USING ERRCODE = '22004';
  END IF;
  IF history IS NULL THEN
    RAISE EXCEPTION 'glicko2_recompute needs the history table of %', ratings
      USING ERRCODE = '22004',
            DETAIL = 'The ratings before the period are read back from the history table.',
            HINT = 'Without a history, rebuild everything with glicko2_replay (glicko2_replay_matches for a league of matches).';
  END IF;
  period_type := glicko2_internal.glicko2_column_type(games, period_column, 'period_column');
  history_type := glicko2_internal.glicko2_column_type(history, 'period', 'history');
  PERFORM glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column'),
          glicko2_internal.glicko2_column_type(ratings, rating_column, 'rating_column');
  EXECUTE format('SELECT CAST(CAST($1 AS %s) AS text)', period_type) INTO period_text USING period;
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);

  SELECT c.close_number, c.games_table INTO first_number, first_games
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.period = period_text;
  IF first_number IS NULL THEN
    RAISE EXCEPTION 'period % of % is not closed', period_text, ratings
      USING ERRCODE = '55000',
            DETAIL = 'Only closed periods are recomputed; an open period is rated when it is closed.';
  END IF;
  IF first_games <> games THEN
    RAISE EXCEPTION 'period % of % was closed from %, not %', period_text, ratings, first_games, games
      USING ERRCODE = '22023',
            DETAIL = 'Each period is closed again from the table it was closed from (glicko2_closes.games_table).';
  END IF;
  -- Each teammates store the recompute's closes name goes back to its pairs
  -- after its last close before the start, as that close kept them
  -- (glicko2_teammates_history), or to empty if it has none; a store whose
  -- last close there kept none (no history table) is rebuilt from its
  -- first close, where the recompute then starts.
  start_number := first_number;
  LOOP
    stores := ARRAY(SELECT DISTINCT c.teammates FROM @extschema@.glicko2_closes c
                    WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= start_number
                      AND c.teammates IS NOT NULL);
    SELECT min((SELECT min(c.close_number) FROM @extschema@.glicko2_closes c
                WHERE c.ratings = glicko2_recompute.ratings AND c.teammates = t.store)) INTO rebuild_from
    FROM unnest(stores) t(store)
    WHERE NOT (SELECT c.teammates_kept FROM @extschema@.glicko2_closes c
               WHERE c.ratings = glicko2_recompute.ratings AND c.teammates = t.store
                 AND c.close_number < start_number
               ORDER BY c.close_number DESC LIMIT 1);
    EXIT WHEN rebuild_from IS NULL;
    start_number := rebuild_from;
  END LOOP;
  FOR i IN 1 .. coalesce(cardinality(stores), 0) LOOP
    PERFORM glicko2_internal.glicko2_teammates_own(stores[i], ratings, 'glicko2_recompute');
  END LOOP;
  SELECT c.period INTO start_period FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number = start_number;
  IF start_number < first_number THEN
    RAISE NOTICE 'recomputing % from period %: a teammates store''s pairs after period % were not kept',
                 ratings, start_period, (SELECT c.period FROM @extschema@.glicko2_closes c
                                         WHERE c.ratings = glicko2_recompute.ratings AND c.close_number = first_number - 1)
      USING DETAIL = 'A store is kept by closes given a history table; without them it is rebuilt from its first close.';
  END IF;
  -- Every table a close will read must still be there.
  SELECT c.* INTO missing FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= start_number
    AND NOT EXISTS (SELECT FROM pg_class t WHERE t.oid OPERATOR(pg_catalog.=) c.games_table::oid)
  ORDER BY c.close_number LIMIT 1;
  IF missing.ratings IS NOT NULL THEN
    RAISE EXCEPTION 'period % of % was closed from a table that no longer exists (OID %)',
                    missing.period, ratings, missing.games_table::oid
      USING ERRCODE = '42P01',
            DETAIL = 'Each period is closed again from the table it was closed from (glicko2_closes.games_table).';
  END IF;
  SELECT c.period INTO before
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number = start_number - 1;

  -- Ratings as they were after the period before (none before the first);
  -- every statement must write every row it means to.
  IF before IS NULL THEN
    PERFORM glicko2_internal.glicko2_empty(ratings, 'emptying the ratings for glicko2_recompute');
  ELSE
    EXECUTE format('SELECT count(*) FROM %s h WHERE h.period = CAST($1 AS %s)', history, history_type)
      INTO kept USING before;
    IF kept = 0 THEN
      RAISE EXCEPTION 'history table % has no ratings for period %', history, before
        USING ERRCODE = '55000',
              DETAIL = format('The ratings of %s before period %s cannot be read back.', ratings, start_period),
              HINT = 'Rebuild everything with glicko2_replay (glicko2_replay_matches for a league of matches).';
    END IF;
    EXECUTE format('SELECT count(*) FILTER (WHERE h.player_id IS NULL), count(h.player_id) FROM %1$s r
                      LEFT JOIN %2$s h ON h.player_id = r.%3$I AND h.period = CAST($1 AS %4$s)',
                   ratings, history, player_column, history_type)
      INTO meant_deleted, meant_updated USING before;
    EXECUTE format('DELETE FROM %1$s r WHERE NOT EXISTS
                      (SELECT FROM %2$s h WHERE h.player_id = r.%3$I AND h.period = CAST($1 AS %4$s))',
                   ratings, history, player_column, history_type) USING before;
    GET DIAGNOSTICS written = ROW_COUNT;
    PERFORM glicko2_internal.glicko2_require_written(ratings, written, meant_deleted,
                                                'delete of players new since period ' || before || ' for glicko2_recompute');
    EXECUTE format('UPDATE %1$s r SET %4$I = h.rating FROM %2$s h
                    WHERE h.player_id = r.%3$I AND h.period = CAST($1 AS %5$s)',
                   ratings, history, player_column, rating_column, history_type) USING before;
    GET DIAGNOSTICS written = ROW_COUNT;
    PERFORM glicko2_internal.glicko2_require_written(ratings, written, meant_updated,
                                                'rollback of the ratings to period ' || before || ' for glicko2_recompute');
  END IF;
  EXECUTE format('SELECT count(*) FROM %s h WHERE h.period >= CAST($1 AS %s)', history, history_type)
    INTO meant_deleted USING start_period;
  EXECUTE format('DELETE FROM %s h WHERE h.period >= CAST($1 AS %s)', history, history_type)
    USING start_period;
  GET DIAGNOSTICS written = ROW_COUNT;
  PERFORM glicko2_internal.glicko2_require_written(history, written, meant_deleted,
                                              'delete of the history from period ' || start_period || ' for glicko2_recompute');
  PERFORM glicko2_internal.glicko2_teammates_unkeep(ratings, start_number,
                                                    'delete of the kept teammates pairs from period ' || start_period || ' for glicko2_recompute');
  FOR i IN 1 .. coalesce(cardinality(stores), 0) LOOP
    PERFORM glicko2_internal.glicko2_empty(stores[i], 'emptying the teammates store for glicko2_recompute');
    SELECT c.period INTO kept_period FROM @extschema@.glicko2_closes c
    WHERE c.ratings = glicko2_recompute.ratings AND c.teammates = stores[i] AND c.close_number < start_number
    ORDER BY c.close_number DESC LIMIT 1;
    IF FOUND THEN
      PERFORM glicko2_internal.glicko2_teammates_kept(ratings, kept_period, stores[i], true);
    END IF;
  END LOOP;

  -- Close again, in the order closed, each as it was closed.
  closes := ARRAY(SELECT c FROM @extschema@.glicko2_closes c
                  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= start_number
                  ORDER BY c.close_number);
  DELETE FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= start_number;
  -- Season resets after the period before and after each close again, at
  -- their places (the closes keep their numbers).
  PERFORM glicko2_internal.glicko2_season_redo(ratings, ARRAY(
            SELECT s.season FROM @extschema@.glicko2_season_resets s
            WHERE s.ratings = glicko2_recompute.ratings AND s.after_close = start_number - 1),
          start_number - 1, before, player_column, rating_column);
  FOR i IN 1 .. cardinality(closes) LOOP
    PERFORM glicko2_internal.glicko2_close_again(closes[i], history, player_column, rating_column, period_column,
                                                 game_player_column, opponent_column, score_column);
    PERFORM glicko2_internal.glicko2_season_redo(ratings, ARRAY(
              SELECT s.season FROM @extschema@.glicko2_season_resets s
              WHERE s.ratings = glicko2_recompute.ratings AND s.after_close = closes[i].close_number),
            closes[i].close_number, closes[i].period, player_column, rating_column);
  END LOOP;
END
$$;
COMMENT ON PROCEDURE glicko2_recompute(regclass, regclass, anyelement, regclass, name, name, name, name, name, name) IS
  'After games of closed periods were changed or annulled: puts the ratings back as they were before period (from the history table), then closes that period and every later closed one again, each with the close that closed it (glicko2_close_period or glicko2_close_matches), from the table it read and with the options it was closed with (tau, max_rd, unguarded flag, advantage, home_column, floors and caps; a matches close''s method, columns, advantages and teammates store), applying the recorded season resets again at their places; a teammates store is put back as glicko2_teammates_history kept it after the period before (or, where its pairs were not kept, rebuilt from its first close, where the recompute then starts); one transaction';
