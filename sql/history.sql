------------------------------------------------------------------------------
-- History: evaluation of past predictions, choosing tau, replay, corrections
------------------------------------------------------------------------------

-- The ratings before each period predict that period's games.  Runs the
-- paper's update period by period in memory (three float8 arrays indexed by a
-- dense player number, so each lookup is O(1)); writes nothing.
CREATE FUNCTION glicko2_evaluate(games regclass, tau float8 DEFAULT 0.5,
                                 rd float8 DEFAULT 350, volatility float8 DEFAULT 0.06,
                                 max_rd float8 DEFAULT 350,
                                 period_column name DEFAULT 'period',
                                 player_column name DEFAULT 'player_id',
                                 opponent_column name DEFAULT 'opponent_id',
                                 score_column name DEFAULT 'score',
                                 advantage float8 DEFAULT 0,
                                 home_column name DEFAULT NULL)
  RETURNS TABLE (period text, n_games bigint, n_decisive bigint,
                 log_loss float8, brier float8, accuracy float8)
  LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $fn$
DECLARE
  games_sql text;
  bad record;
  found_bad bigint;
  labels text[];         -- period values as text, by period number
  first_period int[];    -- by player number: the period number of the first game
  g_period int[];        -- by game, sorted by period: period number,
  g_a int[];             --   the two players' numbers
  g_b int[];
  g_s float8[];          --   the score of g_a
  g_h float8[];          --   and g_a's advantage in the game
  r float8[];            -- by player number: rating, RD and volatility
  d float8[];            --   before the current period
  v float8[];
  players int;
  lo int := 1;
  hi int;
  total_games bigint := 0;
  total_decisive bigint := 0;
  sum_log_loss float8 := 0;
  sum_brier float8 := 0;
  sum_correct float8 := 0;
  p_loss float8;
  p_brier float8;
  p_correct float8;
BEGIN
  IF games IS NULL OR tau IS NULL OR rd IS NULL OR volatility IS NULL
     OR period_column IS NULL OR player_column IS NULL
     OR opponent_column IS NULL OR score_column IS NULL THEN
    RAISE EXCEPTION 'glicko2_evaluate arguments must not be NULL (only max_rd may be)'
      USING ERRCODE = '22004';
  END IF;
  IF NOT (tau > 0 AND tau < 'Infinity'::float8) THEN
    RAISE EXCEPTION 'tau must be a positive finite number, not %', tau
      USING ERRCODE = '22003';
  END IF;
  PERFORM @extschema@.glicko2_rating(1500, rd, volatility);   -- checks rd and volatility
  IF max_rd IS NOT NULL AND NOT (max_rd > 0 AND max_rd < 'Infinity'::float8) THEN
    RAISE EXCEPTION 'max_rd must be a positive finite number or NULL, not %', max_rd
      USING ERRCODE = '22003';
  END IF;
  PERFORM @extschema@.glicko2_advantage_check(games, advantage, home_column);

  -- h: +1 the player has the advantage (home, first move), -1 the opponent,
  -- 0 neither (neutral ground, or no home column).
  games_sql := format('SELECT %I AS period, %I AS a, %I AS b, (%I)::float8 AS s,
                              CASE WHEN %s THEN 1 WHEN NOT %s THEN -1 ELSE 0 END AS h FROM %s',
                      period_column, player_column, opponent_column, score_column,
                      coalesce(quote_ident(home_column), 'NULL::boolean'),
                      coalesce(quote_ident(home_column), 'NULL::boolean'),
                      games);

  EXECUTE format('SELECT period::text AS period, a::text AS a, b::text AS b, s FROM (%s) g
                  WHERE period IS NULL OR a IS NULL OR b IS NULL OR a = b
                     OR s IS NULL OR NOT (s >= 0 AND s <= 1) LIMIT 1', games_sql)
    INTO bad;
  GET DIAGNOSTICS found_bad = ROW_COUNT;
  IF found_bad > 0 THEN
    RAISE EXCEPTION 'game (%, %, %, %) of % cannot be rated',
                    bad.period, bad.a, bad.b, bad.s, games
      USING ERRCODE = '22023',
            DETAIL = format('Columns %I, %I and %I must not be NULL, a player cannot play himself, and %I must be between 0 and 1.',
                            period_column, player_column, opponent_column, score_column);
  END IF;

  -- Players and games are numbered in a total order, so the loss sums are
  -- added in the same order whatever plan (parallel or not) reads the games:
  -- the same evaluation always gives the same bits.
  EXECUTE format($q$
    WITH g AS (%s),
    k AS (SELECT key, (row_number() OVER (ORDER BY key))::int AS i
          FROM (SELECT a FROM g UNION SELECT b FROM g) u(key)),
    p AS (SELECT period, (row_number() OVER (ORDER BY period))::int AS i
          FROM (SELECT DISTINCT period FROM g) u),
    numbered AS (SELECT p.i AS pi, ka.i AS ia, kb.i AS ib, g.s, g.h,
                        row_number() OVER (ORDER BY p.i, ka.i, kb.i, g.s, g.h) AS gi
                 FROM g JOIN p ON p.period = g.period
                 JOIN k ka ON ka.key = g.a JOIN k kb ON kb.key = g.b),
    firsts AS (SELECT i, min(pi) AS f
               FROM (SELECT ia, pi FROM numbered UNION ALL SELECT ib, pi FROM numbered) u(i, pi)
               GROUP BY i)
    SELECT (SELECT array_agg(period::text ORDER BY i) FROM p),
           (SELECT array_agg(f ORDER BY i) FROM firsts),
           array_agg(pi ORDER BY gi), array_agg(ia ORDER BY gi),
           array_agg(ib ORDER BY gi), array_agg(s ORDER BY gi),
           array_agg(h * $1 ORDER BY gi)
    FROM numbered$q$, games_sql)
    INTO labels, first_period, g_period, g_a, g_b, g_s, g_h
    USING advantage;

  players := coalesce(cardinality(first_period), 0);
  r := array_fill(1500::float8, ARRAY[players]);
  d := array_fill(rd, ARRAY[players]);
  v := array_fill(volatility, ARRAY[players]);

  FOR pn IN 1 .. coalesce(cardinality(labels), 0) LOOP
    hi := lo;
    WHILE hi < cardinality(g_period) AND g_period[hi + 1] = pn LOOP
      hi := hi + 1;
    END LOOP;

    -- Predict with the pre-period ratings.  Log loss clamps q to
    -- [1e-15, 1 - 1e-15] so that a certain prediction that fails costs
    -- 34.5, not infinity.
    SELECT count(*), count(*) FILTER (WHERE s <> 0.5),
           sum(-(s * ln(greatest(q, 1e-15)) + (1 - s) * ln(greatest(1 - q, 1e-15)))),
           sum((q - s) * (q - s)),
           sum(CASE WHEN q = 0.5 THEN 0.5 WHEN (q > 0.5) = (s > 0.5) THEN 1 ELSE 0 END)
             FILTER (WHERE s <> 0.5)
      INTO n_games, n_decisive, p_loss, p_brier, p_correct
    FROM (SELECT g_s[j] AS s,
                 @extschema@.glicko2_win_probability(
                   ROW(r[g_a[j]], d[g_a[j]], v[g_a[j]])::@extschema@.glicko2_rating,
                   ROW(r[g_b[j]], d[g_b[j]], v[g_b[j]])::@extschema@.glicko2_rating,
                   g_h[j]) AS q
          FROM generate_series(lo, hi) j) x;

    period := labels[pn];
    log_loss := p_loss / n_games;
    brier := p_brier / n_games;
    accuracy := p_correct / nullif(n_decisive, 0);
    RETURN NEXT;
    total_games := total_games + n_games;
    total_decisive := total_decisive + n_decisive;
    sum_log_loss := sum_log_loss + p_loss;
    sum_brier := sum_brier + p_brier;
    sum_correct := sum_correct + coalesce(p_correct, 0);

    -- Then close the period: the paper's update for players with games,
    -- Step 6 for players already in the league without games, nothing for
    -- players whose first game is still to come (as a close adds them then).
    WITH side AS (
      SELECT g_a[j] AS me, g_b[j] AS them, g_s[j] AS s, g_h[j] AS h FROM generate_series(lo, hi) j
      UNION ALL
      SELECT g_b[j], g_a[j], 1 - g_s[j], -g_h[j] FROM generate_series(lo, hi) j
    ), updated AS (
      SELECT me, @extschema@.glicko2_period(
                   ROW(r[me], d[me], v[me])::@extschema@.glicko2_rating,
                   ROW(r[them], d[them], v[them])::@extschema@.glicko2_rating, s, tau, h) AS x
      FROM side GROUP BY me
    ), moved AS (
      SELECT i, CASE WHEN u.me IS NOT NULL THEN u.x
                     WHEN first_period[i] > pn THEN ROW(r[i], d[i], v[i])::@extschema@.glicko2_rating
                     ELSE @extschema@.glicko2_idle(ROW(r[i], d[i], v[i])::@extschema@.glicko2_rating, 1, max_rd)
                END AS x
      FROM generate_series(1, players) i LEFT JOIN updated u ON u.me = i
    )
    SELECT array_agg((x).rating ORDER BY i), array_agg((x).rd ORDER BY i),
           array_agg((x).volatility ORDER BY i)
      INTO r, d, v
    FROM moved;

    lo := hi + 1;
  END LOOP;

  period := NULL;
  n_games := total_games;
  n_decisive := total_decisive;
  log_loss := sum_log_loss / nullif(total_games, 0);
  brier := sum_brier / nullif(total_games, 0);
  accuracy := sum_correct / nullif(total_decisive, 0);
  RETURN NEXT;
END
$fn$;
COMMENT ON FUNCTION glicko2_evaluate(regclass, float8, float8, float8, float8, name, name, name, name, float8, name) IS
  'How well the ratings before each period predicted its games (glicko2_win_probability): log loss, Brier score, accuracy on decisive games; one row per period in order, then an overall row with period NULL; with home_column, the side with the advantage (true: the player, false: the opponent) counts advantage points more, in predictions and updates; writes nothing';

-- A grid search: glicko2_evaluate for each tau, best = lowest overall log loss.
CREATE FUNCTION glicko2_fit_tau(games regclass,
                                taus float8[] DEFAULT '{0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2}',
                                rd float8 DEFAULT 350, volatility float8 DEFAULT 0.06,
                                max_rd float8 DEFAULT 350,
                                period_column name DEFAULT 'period',
                                player_column name DEFAULT 'player_id',
                                opponent_column name DEFAULT 'opponent_id',
                                score_column name DEFAULT 'score',
                                advantage float8 DEFAULT 0,
                                home_column name DEFAULT NULL)
  RETURNS TABLE (tau float8, n_games bigint, log_loss float8, brier float8,
                 accuracy float8, best boolean)
  LANGUAGE sql STABLE PARALLEL RESTRICTED
  SET search_path = pg_catalog, pg_temp
AS $fn$
  WITH e AS (
    SELECT t.tau, ev.n_games, ev.log_loss, ev.brier, ev.accuracy
    FROM (SELECT DISTINCT u AS tau FROM unnest(taus) u) t,
         LATERAL @extschema@.glicko2_evaluate(games, t.tau, rd, volatility, max_rd,
                                              period_column, player_column,
                                              opponent_column, score_column,
                                              advantage, home_column) ev
    WHERE ev.period IS NULL
  )
  SELECT tau, n_games, log_loss, brier, accuracy,
         coalesce(tau = (SELECT tau FROM e WHERE log_loss IS NOT NULL
                         ORDER BY log_loss, tau LIMIT 1), false)
  FROM e ORDER BY tau
$fn$;
COMMENT ON FUNCTION glicko2_fit_tau(regclass, float8[], float8, float8, float8, name, name, name, name, float8, name) IS
  'glicko2_evaluate over a grid of tau values (with the given advantage and home_column); best marks the lowest overall log loss (the smallest tau on a tie); writes nothing';

-- The same grid search for the home / first-move advantage at one tau.
CREATE FUNCTION glicko2_fit_advantage(games regclass,
                                      advantages float8[] DEFAULT '{0,20,40,60,80,100,120,140,160}',
                                      tau float8 DEFAULT 0.5,
                                      rd float8 DEFAULT 350, volatility float8 DEFAULT 0.06,
                                      max_rd float8 DEFAULT 350,
                                      period_column name DEFAULT 'period',
                                      player_column name DEFAULT 'player_id',
                                      opponent_column name DEFAULT 'opponent_id',
                                      score_column name DEFAULT 'score',
                                      home_column name DEFAULT 'home')
  RETURNS TABLE (advantage float8, n_games bigint, log_loss float8, brier float8,
                 accuracy float8, best boolean)
  LANGUAGE sql STABLE PARALLEL RESTRICTED
  SET search_path = pg_catalog, pg_temp
AS $fn$
  WITH e AS (
    SELECT a.advantage, ev.n_games, ev.log_loss, ev.brier, ev.accuracy
    FROM (SELECT DISTINCT u AS advantage FROM unnest(advantages) u) a,
         LATERAL @extschema@.glicko2_evaluate(games, tau, rd, volatility, max_rd,
                                              period_column, player_column,
                                              opponent_column, score_column,
                                              a.advantage, home_column) ev
    WHERE ev.period IS NULL
  )
  SELECT advantage, n_games, log_loss, brier, accuracy,
         coalesce(advantage = (SELECT advantage FROM e WHERE log_loss IS NOT NULL
                               ORDER BY log_loss, abs(advantage), advantage LIMIT 1), false)
  FROM e ORDER BY advantage
$fn$;
COMMENT ON FUNCTION glicko2_fit_advantage(regclass, float8[], float8, float8, float8, float8, name, name, name, name, name) IS
  'glicko2_evaluate over a grid of home / first-move advantages at one tau; best marks the lowest overall log loss (the advantage nearest 0 on a tie); writes nothing';

-- Replay and corrections delete records of closes they redo; the same roles
-- that may close a ratings table (UPDATE on it) may do that.
CREATE POLICY glicko2_closes_redo ON glicko2_closes FOR DELETE
  USING (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
COMMENT ON POLICY glicko2_closes_redo ON glicko2_closes IS
  'glicko2_replay and glicko2_recompute delete the records of the periods they close again: allowed to roles that may update the ratings table';

-- Deletes every row of a table the caller can see, or fails whole
-- (glicko2_require_written) if a policy, trigger or rule kept one.
CREATE FUNCTION glicko2_empty(relation regclass, what text)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  meant bigint;
  written bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM %s', relation) INTO meant;
  EXECUTE format('DELETE FROM %s', relation);
  GET DIAGNOSTICS written = ROW_COUNT;
  PERFORM @extschema@.glicko2_require_written(relation, written, meant, what);
END
$$;
COMMENT ON FUNCTION glicko2_empty(regclass, text) IS
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
  advantage float8 DEFAULT 0, home_column name DEFAULT NULL)
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
BEGIN
  IF ratings IS NULL OR games IS NULL THEN
    RAISE EXCEPTION 'ratings and games must not be NULL' USING ERRCODE = '22004';
  END IF;
  -- Every argument and column checked as each close will check them, before
  -- anything is emptied.
  PERFORM @extschema@.glicko2_advantage_check(games, advantage, home_column);
  period_type := @extschema@.glicko2_column_type(games, period_column, 'period_column');
  EXECUTE format('SELECT c.key_type FROM @extschema@.glicko2_close_check($1, $2, $3, $4, CAST(NULL AS %s),'
                 ' $5, $6, $7, $8, $9, $10) c', period_type)
    INTO key_type USING 'glicko2_replay', ratings, games, 'games', tau, max_rd, history,
                        player_column, rating_column, period_column;
  PERFORM @extschema@.glicko2_games_check(games, ratings, player_column, key_type,
                                          game_player_column, opponent_column, score_column);
  -- As a close does: closes of this table wait, readers do not.
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);

  PERFORM @extschema@.glicko2_empty(ratings, 'emptying the ratings for glicko2_replay');
  IF history IS NOT NULL THEN
    PERFORM @extschema@.glicko2_empty(history, 'emptying the history for glicko2_replay');
  END IF;
  DELETE FROM @extschema@.glicko2_closes c WHERE c.ratings = glicko2_replay.ratings;

  FOR p IN EXECUTE format(
      'SELECT CAST(u.p AS text) FROM (SELECT DISTINCT %1$I AS p FROM %2$s) u
       WHERE u.p IS NOT NULL AND ($1 IS NULL OR u.p <= CAST($1 AS %3$s)) ORDER BY u.p',
      period_column, games, period_type) USING through
  LOOP
    EXECUTE format('CALL @extschema@.glicko2_close_period($1, $2, CAST($3 AS %s), $4, $5, $6,
                      $7, $8, $9, $10, $11, $12, $13, $14, $15)', period_type)
      USING ratings, games, p, tau, max_rd, history, player_column, rating_column,
            period_column, game_player_column, opponent_column, score_column, unguarded,
            advantage, home_column;
  END LOOP;
END
$$;
COMMENT ON PROCEDURE glicko2_replay(regclass, regclass, float8, float8, regclass, text, name, name, name, name, name, name, boolean, float8, name) IS
  'Rebuilds a ratings table from its games: empties it (and the history table, and its records in glicko2_closes), then closes every period of the games in order (up to through, if given) with glicko2_close_period (unguarded, advantage and home_column passed on); one transaction';

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
  period_type := @extschema@.glicko2_column_type(games, period_column, 'period_column');
  history_type := @extschema@.glicko2_column_type(history, 'period', 'history');
  PERFORM @extschema@.glicko2_column_type(ratings, player_column, 'player_column'),
          @extschema@.glicko2_column_type(ratings, rating_column, 'rating_column');
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
    PERFORM @extschema@.glicko2_empty(ratings, 'emptying the ratings for glicko2_recompute');
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
    PERFORM @extschema@.glicko2_require_written(ratings, written, meant_deleted,
                                                'delete of players new since period ' || before || ' for glicko2_recompute');
    EXECUTE format('UPDATE %1$s r SET %4$I = h.rating FROM %2$s h
                    WHERE h.player_id = r.%3$I AND h.period = CAST($1 AS %5$s)',
                   ratings, history, player_column, rating_column, history_type) USING before;
    GET DIAGNOSTICS written = ROW_COUNT;
    PERFORM @extschema@.glicko2_require_written(ratings, written, meant_updated,
                                                'rollback of the ratings to period ' || before || ' for glicko2_recompute');
  END IF;
  EXECUTE format('SELECT count(*) FROM %s h WHERE h.period >= CAST($1 AS %s)', history, history_type)
    INTO meant_deleted USING period_text;
  EXECUTE format('DELETE FROM %s h WHERE h.period >= CAST($1 AS %s)', history, history_type)
    USING period_text;
  GET DIAGNOSTICS written = ROW_COUNT;
  PERFORM @extschema@.glicko2_require_written(history, written, meant_deleted,
                                              'delete of the history from period ' || period_text || ' for glicko2_recompute');

  -- Close again, in the order closed, each with its own tau, max_rd, unguarded and advantage.
  SELECT array_agg(c.period ORDER BY c.close_number), array_agg(c.tau ORDER BY c.close_number),
         array_agg(c.max_rd ORDER BY c.close_number), array_agg(c.unguarded ORDER BY c.close_number),
         array_agg(c.advantage ORDER BY c.close_number), array_agg(c.home_column ORDER BY c.close_number)
    INTO periods, taus, max_rds, unguardeds, advantages, home_columns
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= first_number;
  DELETE FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= first_number;
  FOR i IN 1 .. cardinality(periods) LOOP
    EXECUTE format('CALL @extschema@.glicko2_close_period($1, $2, CAST($3 AS %s), $4, $5, $6,
                      $7, $8, $9, $10, $11, $12, $13, $14, $15)', period_type)
      USING ratings, games, periods[i], taus[i], max_rds[i], history, player_column,
            rating_column, period_column, game_player_column, opponent_column, score_column,
            unguardeds[i], advantages[i], home_columns[i];
  END LOOP;
END
$$;
COMMENT ON PROCEDURE glicko2_recompute(regclass, regclass, anyelement, regclass, name, name, name, name, name, name) IS
  'After games of closed periods were changed or annulled: puts the ratings back as they were before period (from the history table), then closes that period and every later closed one again with glicko2_close_period and the tau, max_rd, unguarded flag, advantage and home_column each was closed with; one transaction';
