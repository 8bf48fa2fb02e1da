------------------------------------------------------------------------------
-- Replay and corrections: a ratings table rebuilt, closed periods closed again
------------------------------------------------------------------------------

-- Replay and corrections delete records of closes they redo; the same roles
-- that may close a ratings table (UPDATE on it) may do that.
CREATE POLICY glicko2_closes_redo ON glicko2_closes FOR DELETE
  USING (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
COMMENT ON POLICY glicko2_closes_redo ON glicko2_closes IS
  'glicko2_replay and glicko2_recompute delete the records of the periods they close again: allowed to roles that may update the ratings table';

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
  'Helper of glicko2_replay and glicko2_recompute: deletes every row of relation the caller can read, or an ERROR (glicko2_require_written) naming what if a policy, trigger or rule kept some';

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
  p text;
  key_type regtype;
  pending text[];
  redo text[];
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
  -- As a close does: closes of this table wait, readers do not.
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);

  PERFORM glicko2_internal.glicko2_empty(ratings, 'emptying the ratings for glicko2_replay');
  IF history IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_empty(history, 'emptying the history for glicko2_replay');
  END IF;
  DELETE FROM @extschema@.glicko2_closes c WHERE c.ratings = glicko2_replay.ratings;
  -- Season resets are applied again after the period they followed; those
  -- the rebuild does not reach are forgotten, as its closes are.
  SELECT coalesce(array_agg(s.season), '{}') INTO pending FROM @extschema@.glicko2_season_resets s
  WHERE s.ratings = glicko2_replay.ratings;
  redo := ARRAY(SELECT s.season FROM @extschema@.glicko2_season_resets s
                WHERE s.ratings = glicko2_replay.ratings AND s.after_period IS NULL);
  PERFORM glicko2_internal.glicko2_season_redo(ratings, redo, 0, NULL, player_column, rating_column);
  pending := ARRAY(SELECT unnest(pending) EXCEPT SELECT unnest(redo));

  FOR p IN EXECUTE format(
      'SELECT CAST(u.p AS text) FROM (SELECT DISTINCT %1$I AS p FROM %2$s) u
       WHERE u.p IS NOT NULL AND ($1 IS NULL OR u.p <= CAST($1 AS %3$s)) ORDER BY u.p',
      period_column, games, period_type) USING through
  LOOP
    EXECUTE format('CALL @extschema@.glicko2_close_period($1, $2, CAST($3 AS %s), $4, $5, $6,
                      $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)', period_type)
      USING ratings, games, p, tau, max_rd, history, player_column, rating_column,
            period_column, game_player_column, opponent_column, score_column, unguarded,
            advantage, home_column, min_rating, max_change, max_volatility;
    redo := ARRAY(SELECT s.season FROM @extschema@.glicko2_season_resets s
                  WHERE s.ratings = glicko2_replay.ratings AND s.after_period = p AND s.season = ANY (pending));
    IF cardinality(redo) > 0 THEN
      PERFORM glicko2_internal.glicko2_season_redo(ratings, redo,
                (SELECT max(c.close_number) FROM @extschema@.glicko2_closes c WHERE c.ratings = glicko2_replay.ratings),
                p, player_column, rating_column);
      pending := ARRAY(SELECT unnest(pending) EXCEPT SELECT unnest(redo));
    END IF;
  END LOOP;
  DELETE FROM @extschema@.glicko2_season_resets s
  WHERE s.ratings = glicko2_replay.ratings AND s.season = ANY (pending);
END
$$;
COMMENT ON PROCEDURE glicko2_replay(regclass, regclass, float8, float8, regclass, text, name, name, name, name, name, name, boolean, float8, name, float8, float8, float8) IS
  'Rebuilds a ratings table from its games: empties it (and the history table, and its records in glicko2_closes), then closes every period of the games in order (up to through, if given) with glicko2_close_period (unguarded, advantage, home_column and the floors and caps passed on), applying each recorded season reset again after the period it followed; one transaction';

-- After games of closed periods were changed or annulled: rolls the ratings
-- back to the end of the period before, from the history table, and closes
-- again every period closed since, with the tau and max_rd each was closed
-- with.  One transaction: all of it or nothing.
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
  before text;
  periods text[];
  taus float8[];
  max_rds float8[];
  unguardeds boolean[];
  advantages float8[];
  home_columns name[];
  min_ratings float8[];
  max_changes float8[];
  max_volatilities float8[];
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
            HINT = 'Without a history, rebuild everything with glicko2_replay.';
  END IF;
  period_type := glicko2_internal.glicko2_column_type(games, period_column, 'period_column');
  history_type := glicko2_internal.glicko2_column_type(history, 'period', 'history');
  PERFORM glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column'),
          glicko2_internal.glicko2_column_type(ratings, rating_column, 'rating_column');
  EXECUTE format('SELECT CAST(CAST($1 AS %s) AS text)', period_type) INTO period_text USING period;
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);

  SELECT c.close_number INTO first_number
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.period = period_text;
  IF first_number IS NULL THEN
    RAISE EXCEPTION 'period % of % is not closed', period_text, ratings
      USING ERRCODE = '55000',
            DETAIL = 'Only closed periods are recomputed; an open period is rated when it is closed.';
  END IF;
  SELECT c.period INTO before
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number = first_number - 1;

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
              DETAIL = format('The ratings of %s before period %s cannot be read back.', ratings, period_text),
              HINT = 'Rebuild everything with glicko2_replay.';
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
    INTO meant_deleted USING period_text;
  EXECUTE format('DELETE FROM %s h WHERE h.period >= CAST($1 AS %s)', history, history_type)
    USING period_text;
  GET DIAGNOSTICS written = ROW_COUNT;
  PERFORM glicko2_internal.glicko2_require_written(history, written, meant_deleted,
                                              'delete of the history from period ' || period_text || ' for glicko2_recompute');

  -- Close again, in the order closed, each with its own tau, max_rd, unguarded and advantage.
  SELECT array_agg(c.period ORDER BY c.close_number), array_agg(c.tau ORDER BY c.close_number),
         array_agg(c.max_rd ORDER BY c.close_number), array_agg(c.unguarded ORDER BY c.close_number),
         array_agg(c.advantage ORDER BY c.close_number), array_agg(c.home_column ORDER BY c.close_number),
         array_agg(c.min_rating ORDER BY c.close_number), array_agg(c.max_change ORDER BY c.close_number),
         array_agg(c.max_volatility ORDER BY c.close_number)
    INTO periods, taus, max_rds, unguardeds, advantages, home_columns, min_ratings, max_changes, max_volatilities
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= first_number;
  DELETE FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= first_number;
  -- Season resets after the period before and after each close again, at
  -- their places (the closes keep their numbers).
  PERFORM glicko2_internal.glicko2_season_redo(ratings, ARRAY(
            SELECT s.season FROM @extschema@.glicko2_season_resets s
            WHERE s.ratings = glicko2_recompute.ratings AND s.after_close = first_number - 1),
          first_number - 1, before, player_column, rating_column);
  FOR i IN 1 .. cardinality(periods) LOOP
    EXECUTE format('CALL @extschema@.glicko2_close_period($1, $2, CAST($3 AS %s), $4, $5, $6,
                      $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)', period_type)
      USING ratings, games, periods[i], taus[i], max_rds[i], history, player_column,
            rating_column, period_column, game_player_column, opponent_column, score_column,
            unguardeds[i], advantages[i], home_columns[i], min_ratings[i], max_changes[i], max_volatilities[i];
    PERFORM glicko2_internal.glicko2_season_redo(ratings, ARRAY(
              SELECT s.season FROM @extschema@.glicko2_season_resets s
              WHERE s.ratings = glicko2_recompute.ratings AND s.after_close = first_number + i - 1),
            first_number + i - 1, periods[i], player_column, rating_column);
  END LOOP;
END
$$;
COMMENT ON PROCEDURE glicko2_recompute(regclass, regclass, anyelement, regclass, name, name, name, name, name, name) IS
  'After games of closed periods were changed or annulled: puts the ratings back as they were before period (from the history table), then closes that period and every later closed one again with glicko2_close_period and the tau, max_rd, unguarded flag, advantage, home_column and floors and caps each was closed with, applying the recorded season resets again at their places; one transaction';
