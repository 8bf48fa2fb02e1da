\echo Use "CREATE EXTENSION glicko2" to load this file. \quit

-- glicko2: Glicko-2 and Glicko-1 ratings (Glickman, "Example of the Glicko-2
-- system", 2022).  Ratings are stored on the public scale (1500 / 350).

------------------------------------------------------------------------------
-- Types and constructors
------------------------------------------------------------------------------

CREATE TYPE glicko2_rating AS (rating float8, rd float8, volatility float8);
COMMENT ON TYPE glicko2_rating IS
  'A Glicko-2 rating on the public scale: rating, rating deviation (RD) and volatility';

CREATE TYPE glicko1_rating AS (rating float8, rd float8);
COMMENT ON TYPE glicko1_rating IS
  'An original Glicko (Glicko-1) rating: rating and rating deviation (RD)';

CREATE FUNCTION glicko2_rating(rating float8 DEFAULT 1500, rd float8 DEFAULT 350,
                               volatility float8 DEFAULT 0.06)
  RETURNS glicko2_rating
  AS 'MODULE_PATHNAME', 'glicko2_rating_make'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_rating(float8, float8, float8) IS
  'A checked Glicko-2 rating; the defaults are the paper''s unrated player (1500, 350, 0.06)';

CREATE FUNCTION glicko1_rating(rating float8 DEFAULT 1500, rd float8 DEFAULT 350)
  RETURNS glicko1_rating
  AS 'MODULE_PATHNAME', 'glicko1_rating_make'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_rating(float8, float8) IS
  'A checked Glicko-1 rating; the defaults are the unrated player (1500, 350)';

------------------------------------------------------------------------------
-- Rating-period aggregates
------------------------------------------------------------------------------

-- Support functions take and return internal, so they cannot be called from SQL.
CREATE FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8) IS
  'Transition function of glicko2_period';

CREATE FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8) IS
  'Transition function of glicko2_period with tau';

CREATE FUNCTION glicko1_period_transfn(internal, glicko1_rating, glicko1_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko1_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_period_transfn(internal, glicko1_rating, glicko1_rating, float8) IS
  'Transition function of glicko1_period';

CREATE FUNCTION glicko_period_combinefn(internal, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko_period_combinefn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_combinefn(internal, internal) IS
  'Combine function of glicko2_period and glicko1_period: adds partial sums';

CREATE FUNCTION glicko_period_serialfn(internal)
  RETURNS bytea AS 'MODULE_PATHNAME', 'glicko_period_serialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_serialfn(internal) IS
  'Serialization function of glicko2_period and glicko1_period';

CREATE FUNCTION glicko_period_deserialfn(bytea, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko_period_deserialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_deserialfn(bytea, internal) IS
  'Deserialization function of glicko2_period and glicko1_period';

CREATE FUNCTION glicko2_period_finalfn(internal)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_period_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_finalfn(internal) IS
  'Final function of glicko2_period: the paper''s Steps 2-8';

CREATE FUNCTION glicko1_period_finalfn(internal)
  RETURNS glicko1_rating AS 'MODULE_PATHNAME', 'glicko1_period_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_period_finalfn(internal) IS
  'Final function of glicko1_period: Glicko-1''s update';

CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8) (
  SFUNC = glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 72,
  FINALFUNC = glicko2_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8) IS
  'One player''s Glicko-2 rating after one period''s games (tau 0.5); NULL ratings are unrated players, NULL scores are skipped';

CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8, tau float8) (
  SFUNC = glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 72,
  FINALFUNC = glicko2_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8, float8) IS
  'One player''s Glicko-2 rating after one period''s games with system constant tau';

CREATE AGGREGATE glicko1_period(player glicko1_rating, opponent glicko1_rating, score float8) (
  SFUNC = glicko1_period_transfn,
  STYPE = internal,
  SSPACE = 72,
  FINALFUNC = glicko1_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko1_period(glicko1_rating, glicko1_rating, float8) IS
  'One player''s Glicko-1 rating after one period''s games; NULL ratings are unrated players, NULL scores are skipped';

------------------------------------------------------------------------------
-- Between periods
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_idle(r glicko2_rating, periods float8 DEFAULT 1,
                             max_rd float8 DEFAULT 350)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_idle_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_idle(glicko2_rating, float8, float8) IS
  'Step 6 alone for periods without games: RD grows as sqrt(phi^2 + t sigma^2) up to max_rd (NULL: no cap)';

-- c = 34.6: Glickman, "The Glicko system", Step 1: an RD of 50 returns to
-- 350 after 100 periods, c = sqrt((350^2 - 50^2) / 100).
CREATE FUNCTION glicko1_idle(r glicko1_rating, periods float8 DEFAULT 1,
                             c float8 DEFAULT 34.6, max_rd float8 DEFAULT 350)
  RETURNS glicko1_rating AS 'MODULE_PATHNAME', 'glicko1_idle_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_idle(glicko1_rating, float8, float8, float8) IS
  'Glicko-1 RD growth for periods without games: sqrt(RD^2 + c^2 t) up to max_rd (NULL: no cap); c = 34.6 takes RD 50 to 350 in 100 periods (Glickman)';

------------------------------------------------------------------------------
-- Predictions
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_g(rd float8)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_g_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_g(float8) IS
  'The paper''s g(phi) = 1/sqrt(1 + 3 phi^2/pi^2) for an RD on the public scale: how much an opponent''s uncertainty damps a game';

CREATE FUNCTION glicko2_expected(player glicko2_rating, opponent glicko2_rating)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_expected_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_expected(glicko2_rating, glicko2_rating) IS
  'The paper''s E(mu, mu_j, phi_j): the player''s expected score against the opponent, using the opponent''s RD only';

CREATE FUNCTION glicko2_win_probability(a glicko2_rating, b glicko2_rating)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_win_probability_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_win_probability(glicko2_rating, glicko2_rating) IS
  'Predicted score of a against b counting both players'' uncertainty: E with g(sqrt(phi_a^2 + phi_b^2)); p(a,b) + p(b,a) = 1';

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
                                 score_column name DEFAULT 'score')
  RETURNS TABLE (period text, n_games bigint, n_decisive bigint,
                 log_loss float8, brier float8, accuracy float8)
  LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
  SET search_path = pg_catalog, pg_temp
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
  g_s float8[];          --   and the score of g_a
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

  games_sql := format('SELECT %I AS period, %I AS a, %I AS b, (%I)::float8 AS s FROM %s',
                      period_column, player_column, opponent_column, score_column, games);

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

  EXECUTE format($q$
    WITH g AS (%s),
    k AS (SELECT key, (row_number() OVER ())::int AS i
          FROM (SELECT a FROM g UNION SELECT b FROM g) u(key)),
    p AS (SELECT period, (row_number() OVER (ORDER BY period))::int AS i
          FROM (SELECT DISTINCT period FROM g) u),
    numbered AS (SELECT p.i AS pi, ka.i AS ia, kb.i AS ib, g.s,
                        row_number() OVER (ORDER BY p.i) AS gi
                 FROM g JOIN p ON p.period = g.period
                 JOIN k ka ON ka.key = g.a JOIN k kb ON kb.key = g.b),
    firsts AS (SELECT i, min(pi) AS f
               FROM (SELECT ia, pi FROM numbered UNION ALL SELECT ib, pi FROM numbered) u(i, pi)
               GROUP BY i)
    SELECT (SELECT array_agg(period::text ORDER BY i) FROM p),
           (SELECT array_agg(f ORDER BY i) FROM firsts),
           array_agg(pi ORDER BY gi), array_agg(ia ORDER BY gi),
           array_agg(ib ORDER BY gi), array_agg(s ORDER BY gi)
    FROM numbered$q$, games_sql)
    INTO labels, first_period, g_period, g_a, g_b, g_s;

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
                   ROW(r[g_b[j]], d[g_b[j]], v[g_b[j]])::@extschema@.glicko2_rating) AS q
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
      SELECT g_a[j] AS me, g_b[j] AS them, g_s[j] AS s FROM generate_series(lo, hi) j
      UNION ALL
      SELECT g_b[j], g_a[j], 1 - g_s[j] FROM generate_series(lo, hi) j
    ), updated AS (
      SELECT me, @extschema@.glicko2_period(
                   ROW(r[me], d[me], v[me])::@extschema@.glicko2_rating,
                   ROW(r[them], d[them], v[them])::@extschema@.glicko2_rating, s, tau) AS x
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
COMMENT ON FUNCTION glicko2_evaluate(regclass, float8, float8, float8, float8, name, name, name, name) IS
  'How well the ratings before each period predicted its games (glicko2_win_probability): log loss, Brier score, accuracy on decisive games; one row per period in order, then an overall row with period NULL; writes nothing';

-- A grid search: glicko2_evaluate for each tau, best = lowest overall log loss.
CREATE FUNCTION glicko2_fit_tau(games regclass,
                                taus float8[] DEFAULT '{0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2}',
                                rd float8 DEFAULT 350, volatility float8 DEFAULT 0.06,
                                max_rd float8 DEFAULT 350,
                                period_column name DEFAULT 'period',
                                player_column name DEFAULT 'player_id',
                                opponent_column name DEFAULT 'opponent_id',
                                score_column name DEFAULT 'score')
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
                                              opponent_column, score_column) ev
    WHERE ev.period IS NULL
  )
  SELECT tau, n_games, log_loss, brier, accuracy,
         coalesce(tau = (SELECT tau FROM e WHERE log_loss IS NOT NULL
                         ORDER BY log_loss, tau LIMIT 1), false)
  FROM e ORDER BY tau
$fn$;
COMMENT ON FUNCTION glicko2_fit_tau(regclass, float8[], float8, float8, float8, name, name, name, name) IS
  'glicko2_evaluate over a grid of tau values; best marks the lowest overall log loss (the smallest tau on a tie); writes nothing';
