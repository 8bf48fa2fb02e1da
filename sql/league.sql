------------------------------------------------------------------------------
-- Running a league: who a leaderboard shows (glicko2_provisional,
-- glicko2_rankable) and seasons (glicko2_soft_reset, glicko2_season_reset;
-- their record glicko2_season_resets is in sql/record.sql).  docs/league.md.
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_provisional(r glicko2_rating, rd float8 DEFAULT 110)
  RETURNS boolean AS 'MODULE_PATHNAME', 'glicko2_provisional_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_provisional(glicko2_rating, float8) IS
  'Whether a rating is still being established: RD at least rd (lichess shows "?" at RD >= 110); immutable, so a partial index may use it';

-- IMMUTABLE as glicko2_rating_at: the default now() is evaluated in the
-- caller's expression, which is then STABLE (not for an index; docs/league.md).
CREATE FUNCTION glicko2_rankable(r glicko2_rating, rated_at timestamptz,
                                 at timestamptz DEFAULT now(), rd float8 DEFAULT 75,
                                 period interval DEFAULT '1 day', max_rd float8 DEFAULT 350)
  RETURNS boolean AS 'MODULE_PATHNAME', 'glicko2_rankable_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_rankable(glicko2_rating, timestamptz, timestamptz, float8, interval, float8) IS
  'Whether a player is fit for a leaderboard at time at: RD grown from rated_at to at as glicko2_rating_at grows it (period, max_rd) at most rd (lichess: 75), so a player who stopped playing drops off by himself; NULL rated_at: the RD as stored';

CREATE FUNCTION glicko2_soft_reset(r glicko2_rating, mean float8, keep float8, rd float8,
                                   volatility float8 DEFAULT NULL)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_soft_reset_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_soft_reset(glicko2_rating, float8, float8, float8, float8) IS
  'One rating''s soft reset between seasons, as glicko2_season_reset applies it: rating keep * rating + (1 - keep) * mean (keep in [0, 1]: 1 unchanged, 0 at mean), RD raised to at least rd (never lowered), volatility set to volatility (NULL: kept); NULL r gives NULL';

-- The league's mean for a reset, the same whatever order the rows come in
-- (a double-double sum; src/season.c).
CREATE FUNCTION glicko2_internal.glicko2_mean_accum(float8[], float8)
  RETURNS float8[] AS 'MODULE_PATHNAME', 'glicko2_mean_accum'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_mean_accum(float8[], float8) IS
  'Transition function of glicko2_mean: adds a finite value to the double-double sum and count';
CREATE FUNCTION glicko2_internal.glicko2_mean_combine(float8[], float8[])
  RETURNS float8[] AS 'MODULE_PATHNAME', 'glicko2_mean_combine'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_mean_combine(float8[], float8[]) IS
  'Combine function of glicko2_mean: adds two partial states';
CREATE FUNCTION glicko2_internal.glicko2_mean_final(float8[])
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_mean_final'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_mean_final(float8[]) IS
  'Final function of glicko2_mean: the sum over the count, NULL without values';
CREATE AGGREGATE glicko2_internal.glicko2_mean(float8) (
  SFUNC = glicko2_internal.glicko2_mean_accum, STYPE = float8[], INITCOND = '{0,0,0}',
  FINALFUNC = glicko2_internal.glicko2_mean_final,
  COMBINEFUNC = glicko2_internal.glicko2_mean_combine, PARALLEL = SAFE);
COMMENT ON AGGREGATE glicko2_internal.glicko2_mean(float8) IS
  'Helper of glicko2_season_reset: the mean of the non-NULL values, from a double-double sum, so it does not depend on the order of the rows';

-- Every rating of a ratings table reset (glicko2_soft_reset) in one UPDATE;
-- with history, each player's rating before it written there first.
-- Returns the mean pulled toward (toward, or the mean of the non-NULL
-- ratings), how many ratings were reset and how many RDs raised.  The
-- caller holds the lock that keeps the table as it is.
CREATE FUNCTION glicko2_internal.glicko2_season_apply(
  ratings regclass, keep float8, rd float8, volatility float8, toward float8,
  history regclass, season_text text, player_column name, rating_column name,
  OUT mean float8, OUT players bigint, OUT raised bigint)
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  written bigint;
  what text := format('season %s reset of %s', season_text, ratings);
BEGIN
  EXECUTE format('SELECT glicko2_internal.glicko2_mean((t.%1$I).rating), count(t.%1$I), count(t.%1$I) FILTER (WHERE (t.%1$I).rd < $1)'
                 ' FROM %2$s t', rating_column, ratings)
    INTO mean, players, raised USING rd;
  mean := coalesce(toward, mean);
  IF history IS NOT NULL THEN
    EXECUTE format('INSERT INTO %1$s (player_id, season, rating)'
                   ' SELECT t.%2$I, CAST($1 AS %4$s), t.%3$I FROM %5$s t WHERE t.%3$I IS NOT NULL',
                   history, player_column, rating_column,
                   glicko2_internal.glicko2_column_type(history, 'season', 'history'), ratings)
      USING season_text;
    GET DIAGNOSTICS written = ROW_COUNT;
    PERFORM glicko2_internal.glicko2_require_written(history, written, players, 'history of ' || what);
  END IF;
  IF players > 0 THEN
    EXECUTE format('UPDATE %1$s t SET %2$I = @extschema@.glicko2_soft_reset(t.%2$I, $1, $2, $3, $4)'
                   ' WHERE t.%2$I IS NOT NULL', ratings, rating_column)
      USING mean, keep, rd, volatility;
    GET DIAGNOSTICS written = ROW_COUNT;
    PERFORM glicko2_internal.glicko2_require_written(ratings, written, players, what);
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_season_apply(regclass, float8, float8, float8, float8, regclass, text, name, name) IS
  'Helper of glicko2_season_reset: resets every non-NULL rating of the table with glicko2_soft_reset in one UPDATE toward toward or the mean of the ratings (with history: each player''s rating before it written there first, as (player_id, season, rating)); returns the mean used and the counts';

-- glicko2_replay and glicko2_recompute rewrite the ratings from the closes
-- on; each reset recorded among the closes they redo is applied again at its
-- place with its recorded arguments (toward the league's mean as it is
-- then), its record updated: seasons, in reset_number order, placed after
-- close after_close of period after_period.  Roles that may update the
-- ratings table may update and delete its resets' records.
CREATE POLICY glicko2_season_resets_redo ON glicko2_season_resets FOR UPDATE
  USING (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
COMMENT ON POLICY glicko2_season_resets_redo ON glicko2_season_resets IS
  'glicko2_replay and glicko2_recompute update the records of the resets they apply again: allowed to roles that may update the ratings table';
CREATE POLICY glicko2_season_resets_drop ON glicko2_season_resets FOR DELETE
  USING (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
COMMENT ON POLICY glicko2_season_resets_drop ON glicko2_season_resets IS
  'glicko2_replay deletes the records of the resets its rebuild does not reach: allowed to roles that may update the ratings table';
GRANT UPDATE ON glicko2_season_resets TO PUBLIC;

CREATE FUNCTION glicko2_internal.glicko2_season_redo(
  ratings regclass, seasons text[], after_close bigint, after_period text,
  player_column name, rating_column name)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  s record;
  done record;
  written bigint;
BEGIN
  FOR s IN SELECT * FROM @extschema@.glicko2_season_resets r
           WHERE r.ratings = glicko2_season_redo.ratings AND r.season = ANY (seasons)
           ORDER BY r.reset_number LOOP
    IF s.history IS NOT NULL THEN
      EXECUTE format('DELETE FROM %s h WHERE h.season = CAST($1 AS %s)', s.history,
                     glicko2_internal.glicko2_column_type(s.history, 'season', 'history'))
        USING s.season;
    END IF;
    done := glicko2_internal.glicko2_season_apply(ratings, s.keep, s.rd, s.volatility, s.toward, s.history,
                                                  s.season, player_column, rating_column);
    UPDATE @extschema@.glicko2_season_resets r
    SET players = done.players, raised = done.raised, mean = done.mean,
        after_close = glicko2_season_redo.after_close, after_period = glicko2_season_redo.after_period,
        reset_at = clock_timestamp(), reset_by = current_user
    WHERE r.ratings = glicko2_season_redo.ratings AND r.season = s.season;
    GET DIAGNOSTICS written = ROW_COUNT;
    PERFORM glicko2_internal.glicko2_require_written('@extschema@.glicko2_season_resets', written, 1,
                                                     format('record of season %s of %s', s.season, ratings));
  END LOOP;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_season_redo(regclass, text[], bigint, text, name, name) IS
  'Helper of glicko2_replay and glicko2_recompute: applies again, in order, the recorded resets of these seasons (glicko2_season_apply with their recorded keep, rd, volatility, toward and history) and records them after close after_close of period after_period';

CREATE PROCEDURE glicko2_season_reset(
  ratings regclass, season anyelement, keep float8, rd float8,
  volatility float8 DEFAULT NULL, toward float8 DEFAULT NULL, history regclass DEFAULT NULL,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating')
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  season_type regtype := pg_typeof(season);
  season_text text;
  last_season text;
  last_reset bigint;
  last_close bigint;
  last_period text;
  is_later boolean;
  done record;
BEGIN
  IF ratings IS NULL OR season IS NULL OR keep IS NULL OR rd IS NULL THEN
    RAISE EXCEPTION 'ratings, season, keep and rd must not be NULL' USING ERRCODE = '22004';
  END IF;
  IF NOT (toward > '-Infinity' AND toward < 'Infinity') THEN
    RAISE EXCEPTION 'toward must be a finite rating or NULL (the league''s mean), not %', toward
      USING ERRCODE = '22003';
  END IF;
  -- (keep, rd and volatility checked as glicko2_soft_reset checks them, before anything)
  PERFORM @extschema@.glicko2_soft_reset(NULL, 0, keep, rd, volatility);
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'glicko2_season_reset must run at READ COMMITTED, not %',
                    upper(current_setting('transaction_isolation'))
      USING ERRCODE = '25000',
            DETAIL = 'A snapshot taken before the reset locks the ratings table can miss a close or reset committed meanwhile.';
  END IF;
  PERFORM glicko2_internal.glicko2_not_catalog(ratings, 'ratings'),
          glicko2_internal.glicko2_not_catalog(history, 'history');
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = ratings) NOT IN ('r', 'p') THEN
    RAISE EXCEPTION 'ratings % is not a table', ratings USING ERRCODE = '42809';
  END IF;
  IF glicko2_internal.glicko2_column_type(ratings, rating_column, 'rating_column')
     <> '@extschema@.glicko2_rating'::regtype THEN
    RAISE EXCEPTION 'column "%" of % is not a glicko2_rating', rating_column, ratings
      USING ERRCODE = '42804';
  END IF;
  IF NOT glicko2_internal.glicko2_unique_key(ratings, player_column) THEN
    PERFORM glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column');
    RAISE EXCEPTION 'column "%" of % is not a unique key', player_column, ratings
      USING ERRCODE = '42P10',
            DETAIL = 'Each player must have exactly one row in the ratings table.';
  END IF;
  IF history IS NOT NULL THEN
    IF glicko2_internal.glicko2_column_type(history, 'rating', 'history') <> '@extschema@.glicko2_rating'::regtype THEN
      RAISE EXCEPTION 'column "rating" of history table % is not a glicko2_rating', history
        USING ERRCODE = '42804';
    END IF;
    PERFORM glicko2_internal.glicko2_column_type(history, 'player_id', 'history'),
            glicko2_internal.glicko2_column_type(history, 'season', 'history');
  END IF;
  -- Seasons end in order, compared in their own type (9 < 10).
  BEGIN
    EXECUTE format('SELECT CAST($1 AS %1$s) < CAST($1 AS %1$s)', season_type) INTO is_later USING season;
  EXCEPTION WHEN undefined_function THEN
    RAISE EXCEPTION 'season % of type % cannot be ordered', season, season_type
      USING ERRCODE = '42883',
            DETAIL = 'Seasons end in order: the season''s type needs a < operator (a default btree operator class).',
            HINT = 'Number seasons with an integer, a date or text.';
  END;
  season_text := CAST(season AS text);

  -- A second reset or a close of this table waits here until this one
  -- commits, and live games until then (their row updates need ROW EXCLUSIVE).
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);

  -- (the unique keys of glicko2_season_resets back this up against any snapshot)
  SELECT s.season, s.reset_number INTO last_season, last_reset
  FROM @extschema@.glicko2_season_resets s
  WHERE s.ratings = glicko2_season_reset.ratings
  ORDER BY s.reset_number DESC LIMIT 1;
  IF last_season IS NOT NULL THEN
    EXECUTE format('SELECT CAST($1 AS %1$s) > CAST($2 AS %1$s)', season_type)
      INTO is_later USING season_text, last_season;
    IF NOT is_later THEN
      RAISE EXCEPTION '%', CASE WHEN EXISTS (SELECT FROM @extschema@.glicko2_season_resets s
                                             WHERE s.ratings = glicko2_season_reset.ratings
                                               AND s.season = season_text)
                                THEN format('season %s of %s is already reset', season_text, ratings)
                                ELSE format('season %s of %s is before the last reset season %s',
                                            season_text, ratings, last_season) END
        USING ERRCODE = '55000',
              DETAIL = format('Seasons are reset once each, in increasing order; the last reset of %s ended season %s.',
                              ratings, last_season);
    END IF;
  END IF;
  SELECT c.close_number, c.period INTO last_close, last_period
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_season_reset.ratings
  ORDER BY c.close_number DESC LIMIT 1;

  done := glicko2_internal.glicko2_season_apply(ratings, keep, rd, volatility, toward, history, season_text,
                                                player_column, rating_column);
  BEGIN
    INSERT INTO @extschema@.glicko2_season_resets
      (ratings, season, reset_number, after_close, after_period, reset_at, reset_by,
       players, raised, mean, keep, rd, volatility, toward, history)
    VALUES (glicko2_season_reset.ratings, season_text, coalesce(last_reset, 0) + 1, coalesce(last_close, 0),
            last_period, clock_timestamp(), current_user, done.players, done.raised, done.mean,
            glicko2_season_reset.keep, glicko2_season_reset.rd, glicko2_season_reset.volatility,
            glicko2_season_reset.toward, glicko2_season_reset.history);
  EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'season % of % not reset: another reset of % committed meanwhile', season_text, ratings, ratings
      USING ERRCODE = '40001',
            DETAIL = 'A reset of this ratings table committed after this one began; nothing was changed.',
            HINT = 'Retry: the reset then sees the committed one.';
  END;
END
$$;
COMMENT ON PROCEDURE glicko2_season_reset(regclass, anyelement, float8, float8, float8, float8, regclass, name, name) IS
  'Soft reset of a whole ratings table at the end of a season, atomically and exactly once per season, seasons in increasing order: every non-NULL rating pulled toward toward (NULL: the mean of the non-NULL ratings) by keep (1: unchanged, 0: all at the mean), RD raised to at least rd, volatility set to volatility (NULL: kept); ordered with the closes by the same lock; recorded in glicko2_season_resets and, with history, each player''s final rating of the season written there as (player_id, season, rating)';
