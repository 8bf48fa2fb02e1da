------------------------------------------------------------------------------
-- Evaluation: past predictions scored, tau, the advantage and a team league's method fitted
------------------------------------------------------------------------------

-- The ratings before each period predict that period's games.  Runs the
-- paper's update period by period in memory (three float8 arrays indexed by a
-- dense player number, so each lookup is O(1)); writes nothing.  jit off: on
-- a table without statistics (a new partitioned table) the numbering query's
-- estimate passes jit_above_cost, and compiling it cost 0.7 s per call for 36
-- games (glicko2_fit_tau: 8.6 s against 46 ms without).
CREATE FUNCTION glicko2_evaluate(games regclass, tau float8 DEFAULT 0.5,
                                 rd float8 DEFAULT 350, volatility float8 DEFAULT 0.06,
                                 max_rd float8 DEFAULT 350,
                                 period_column name DEFAULT 'period',
                                 game_player_column name DEFAULT 'player_id',
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
  SET jit = off
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
     OR period_column IS NULL OR game_player_column IS NULL
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
  PERFORM glicko2_internal.glicko2_advantage_check(games, advantage, home_column);

  -- h: +1 the player has the advantage (home, first move), -1 the opponent,
  -- 0 neither (neutral ground, or no home column).
  games_sql := format('SELECT %I AS period, %I AS a, %I AS b, (%I)::float8 AS s,
                              CASE WHEN %s THEN 1 WHEN NOT %s THEN -1 ELSE 0 END AS h FROM %s',
                      period_column, game_player_column, opponent_column, score_column,
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
                            period_column, game_player_column, opponent_column, score_column);
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
                                game_player_column name DEFAULT 'player_id',
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
                                              period_column, game_player_column,
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

-- Choosing the method of a team league (and tau, and its max_rd, the RD of
-- knowing nothing about a player): each method, tau and max_rd replays the
-- league's periods in memory as glicko2_close_matches would close them
-- (glicko2_match_sides' terms into the close's own pass, glicko2_close_ratings,
-- so the ratings are the closes' bit for bit) and scores every pair of teams
-- of each match with the ratings from before its period.  The matches are
-- read once into arrays numbered in a total order (periods, matches, teams,
-- players), so the same league always gives the same bits; nothing is written.
CREATE FUNCTION glicko2_fit_matches(
  matches regclass,
  methods text[] DEFAULT ARRAY['sum', 'mean', 'composite', 'individual'],
  taus float8[] DEFAULT '{0.3,0.5,0.8,1.2}',
  max_rds float8[] DEFAULT '{350}',
  period_column name DEFAULT 'period', match_column name DEFAULT 'match_id',
  match_player_column name DEFAULT 'player_id', team_column name DEFAULT 'team',
  place_column name DEFAULT 'place', weight_column name DEFAULT NULL,
  party_advantages float8[] DEFAULT '{0}', size_advantages float8[] DEFAULT '{0}',
  party_column name DEFAULT NULL, teammates boolean DEFAULT true)
  RETURNS TABLE (method text, tau float8, max_rd float8, party_advantage float8, size_advantage float8,
                 log_loss float8, predictions bigint, best boolean)
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $fn$
DECLARE
  period_type regtype;
  weight_sql text;
  bad record;
  found_bad bigint;
  n_periods int;
  labels text[];         -- by period number: the period as text
  players int;
  row_period int[];      -- by row, in (period, match, team, player) order:
  row_match int[];       --   numbers of period, match (in the league), team
  row_team int[];        --   (in its match) and player,
  row_player int[];
  row_place bigint[];    --   the team's place and the player's share
  row_weight float8[];
  row_party int[];       --   and his party (a number in the league; NULL alone)
  party_sql text := 'CAST(NULL AS int)';
  period_end int[];      -- by period number: its last row
  r float8[];            -- by player number: rating, RD, volatility; NULL
  d float8[];            --   while the player is unrated
  v float8[];
  lo int;
  hi int;
  m text;
  t float8;
  mr float8;
  pa float8;
  sa float8;
  unrated @extschema@.glicko2_rating;
  total_loss float8;
  total_n bigint;
  p_loss float8;
  p_n bigint;
  out_method text[] := '{}';
  out_tau float8[] := '{}';
  out_max_rd float8[] := '{}';
  out_pa float8[] := '{}';
  out_sa float8[] := '{}';
  out_loss float8[] := '{}';
  out_n bigint[] := '{}';
  -- The teammates store of 'sum' and 'mean' (teammates): pairs of player
  -- numbers from 0 and their covariances, as a close with a store keeps them.
  with_store boolean;
  st_a int[];
  st_b int[];
  st_c float8[];
  mates record;
  -- Its terms, through the same pass: players from 0 and their sums in $5-$7.
  mates_games_sql constant text :=
    'SELECT u.p + 1, u.i, u.s FROM unnest(CAST($5 AS int[]), CAST($6 AS float8[]), CAST($7 AS float8[])) u(p, i, s)';
  -- The close's pass over one period ($1 the method): ratings as arrays in
  -- $2-$4, the period's rows (match, team, player, place, weight, party) in
  -- $5-$9 and $13, max_rd in $10 (for the unrated players of
  -- glicko2_match_sides), the party and size advantages in $11, $12.
  ratings_sql constant text :=
    'SELECT CAST(u.i AS int), ROW(u.r, u.d, u.v)::@extschema@.glicko2_rating
     FROM unnest(CAST($2 AS float8[]), CAST($3 AS float8[]), CAST($4 AS float8[])) WITH ORDINALITY u(r, d, v, i)
     WHERE u.r IS NOT NULL';
  games_sql constant text :=
    'WITH rt AS (SELECT CAST(u.i AS int) AS i, u.r, u.d, u.v
                 FROM unnest(CAST($2 AS float8[]), CAST($3 AS float8[]), CAST($4 AS float8[])) WITH ORDINALITY u(r, d, v, i)),
          x AS (SELECT * FROM unnest(CAST($5 AS int[]), CAST($6 AS int[]), CAST($7 AS int[]), CAST($8 AS bigint[]),
                                     CAST($9 AS float8[]), CAST($13 AS int[])) WITH ORDINALITY x(mt, t, p, pl, w, pt, j))
     SELECT s.player, s.information, s.surprise
     FROM (SELECT array_agg(x.p ORDER BY x.j) AS ps, array_agg(x.t ORDER BY x.j) AS ts,
                  array_agg(x.pl ORDER BY x.j) AS pls,
                  array_agg(CASE WHEN rt.r IS NULL THEN NULL
                                 ELSE ROW(rt.r, rt.d, rt.v)::@extschema@.glicko2_rating END ORDER BY x.j) AS rs,
                  array_agg(x.w ORDER BY x.j) AS ws, array_agg(x.pt ORDER BY x.j) AS pts
           FROM x JOIN rt ON rt.i = x.p GROUP BY x.mt) y
     CROSS JOIN LATERAL @extschema@.glicko2_match_sides(y.ps, y.ts, y.pls, y.rs, $1, y.ws, CAST($10 AS float8),
                                                        y.pts, CAST($11 AS float8), CAST($12 AS float8)) s';
BEGIN
  IF matches IS NULL OR methods IS NULL OR taus IS NULL OR max_rds IS NULL
     OR party_advantages IS NULL OR size_advantages IS NULL THEN
    RAISE EXCEPTION 'matches, methods, taus, max_rds, party_advantages and size_advantages must not be NULL'
      USING ERRCODE = '22004';
  END IF;
  IF cardinality(party_advantages) = 0 OR cardinality(size_advantages) = 0
     OR EXISTS (SELECT FROM unnest(party_advantages || size_advantages) u
                WHERE u IS NULL OR NOT (u > '-Infinity' AND u < 'Infinity')) THEN
    RAISE EXCEPTION 'party_advantages and size_advantages must be finite numbers, not % and %',
                    party_advantages, size_advantages USING ERRCODE = '22003';
  END IF;
  IF cardinality(methods) = 0 OR EXISTS (SELECT FROM unnest(methods) u WHERE u IS NULL
                                           OR u NOT IN ('sum', 'mean', 'individual', 'composite')) THEN
    RAISE EXCEPTION 'methods must be some of ''sum'', ''mean'', ''individual'' and ''composite'', not %', methods
      USING ERRCODE = '22023';
  END IF;
  IF cardinality(taus) = 0 OR EXISTS (SELECT FROM unnest(taus) u WHERE u IS NULL OR NOT (u > 0 AND u < 'Infinity')) THEN
    RAISE EXCEPTION 'taus must be positive finite numbers, not %', taus USING ERRCODE = '22003';
  END IF;
  IF cardinality(max_rds) = 0 OR EXISTS (SELECT FROM unnest(max_rds) u WHERE NOT (u > 0 AND u < 'Infinity')) THEN
    RAISE EXCEPTION 'max_rds must be positive finite numbers or NULL (no cap), not %', max_rds USING ERRCODE = '22003';
  END IF;
  period_type := glicko2_internal.glicko2_column_type(matches, period_column, 'period_column');
  PERFORM glicko2_internal.glicko2_column_type(matches, match_column, 'match_column'),
          glicko2_internal.glicko2_column_type(matches, match_player_column, 'match_player_column'),
          glicko2_internal.glicko2_column_type(matches, team_column, 'team_column');
  -- The place and weight columns (and play shares) as glicko2_close_matches reads them.
  SELECT w.weight_column, w.weight_sql INTO weight_column, weight_sql
  FROM glicko2_internal.glicko2_match_columns(matches, place_column, weight_column) w;
  IF party_column IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_party_column(matches, party_column);
    party_sql := format('g.%I', party_column);
    -- A party on two teams of a match, named as the close names it.
    EXECUTE format($q$
      SELECT x.period::text AS period, x.mt::text AS mt, x.pt::text AS pt,
             array_to_string(array_agg(x.t::text ORDER BY x.t::text), ', ') AS ts
      FROM (SELECT DISTINCT g.%1$I AS period, g.%2$I AS mt, g.%3$I AS pt, g.%4$I AS t FROM %5$s g
            WHERE g.%3$I IS NOT NULL) x
      GROUP BY x.period, x.mt, x.pt HAVING count(*) > 1 LIMIT 1$q$,
      period_column, match_column, party_column, team_column, matches) INTO bad;
    GET DIAGNOSTICS found_bad = ROW_COUNT;
    IF found_bad > 0 THEN
      RAISE EXCEPTION 'bad match in period % of %: party % is on two teams of match % (teams %)',
                      bad.period, matches, bad.pt, bad.mt, bad.ts
        USING ERRCODE = '22023', DETAIL = 'A party is players of one team who queued together.';
    END IF;
  END IF;

  -- Rows no period close could rate (the rest, a player twice in a match, a
  -- team with two places, a match of one team, glicko2_match_sides refuses).
  EXECUTE format($q$
    SELECT g.%1$I::text AS period, g.%2$I::text AS mt, g.%3$I::text AS p, g.%4$I::text AS t,
           g.%5$I::text AS pl, (%6$s)::text AS w
    FROM %7$s g
    WHERE g.%1$I IS NULL OR g.%2$I IS NULL OR g.%3$I IS NULL OR g.%4$I IS NULL OR g.%5$I IS NULL
       OR g.%5$I < 1 OR NOT coalesce(%6$s > 0 AND %6$s <= 1, false)
    LIMIT 1$q$, period_column, match_column, match_player_column, team_column, place_column, weight_sql, matches)
    INTO bad;
  GET DIAGNOSTICS found_bad = ROW_COUNT;
  IF found_bad > 0 THEN
    RAISE EXCEPTION 'match row (period %, match %, player %, team %, place %, weight %) of % cannot be rated',
                    coalesce(bad.period, 'NULL'), coalesce(bad.mt, 'NULL'), coalesce(bad.p, 'NULL'),
                    coalesce(bad.t, 'NULL'), coalesce(bad.pl, 'NULL'), coalesce(bad.w, 'NULL'), matches
      USING ERRCODE = CASE WHEN bad.period IS NULL OR bad.mt IS NULL OR bad.p IS NULL OR bad.t IS NULL
                                OR bad.pl IS NULL OR bad.w IS NULL THEN '22004' ELSE '22003' END,
            DETAIL = format('Columns %I, %I, %I, %I and %I must not be NULL, places must be at least 1 and weights in (0, 1].',
                            period_column, match_column, match_player_column, team_column, place_column);
  END IF;

  EXECUTE format($q$
    WITH g AS (SELECT g.%1$I AS period, g.%2$I AS mt, g.%3$I AS p, g.%4$I AS t,
                      CAST(g.%5$I AS bigint) AS pl, %6$s AS w, %8$s AS pt FROM %7$s g),
    -- (parties are compared only for equality: numbered in any order)
    parties AS (SELECT u.pt, (row_number() OVER ())::int AS ptn
                FROM (SELECT DISTINCT g.pt FROM g WHERE g.pt IS NOT NULL) u),
    n AS (SELECT (dense_rank() OVER (ORDER BY g.period))::int AS pn,
                 (dense_rank() OVER (ORDER BY g.period, g.mt))::int AS mn,
                 (dense_rank() OVER (PARTITION BY g.period, g.mt ORDER BY g.t))::int AS tn,
                 (dense_rank() OVER (ORDER BY g.p))::int AS kn, g.pl, g.w, parties.ptn
          FROM g LEFT JOIN parties ON parties.pt = g.pt)
    SELECT array_agg(pn ORDER BY pn, mn, tn, kn), array_agg(mn ORDER BY pn, mn, tn, kn),
           array_agg(tn ORDER BY pn, mn, tn, kn), array_agg(kn ORDER BY pn, mn, tn, kn),
           array_agg(pl ORDER BY pn, mn, tn, kn), array_agg(w ORDER BY pn, mn, tn, kn),
           array_agg(ptn ORDER BY pn, mn, tn, kn),
           max(kn), max(pn), (SELECT array_agg(u.period::text ORDER BY u.period) FROM (SELECT DISTINCT period FROM g) u)
    FROM n$q$, period_column, match_column, match_player_column, team_column, place_column, weight_sql, matches,
               party_sql)
    INTO row_period, row_match, row_team, row_player, row_place, row_weight, row_party, players, n_periods, labels;
  n_periods := coalesce(n_periods, 0);
  SELECT array_agg(e ORDER BY pn) INTO period_end
  FROM (SELECT row_period[j] AS pn, max(j) AS e FROM generate_series(1, coalesce(cardinality(row_period), 0)) j
        GROUP BY row_period[j]) x;

  FOR m IN SELECT DISTINCT u FROM unnest(methods) u ORDER BY 1 LOOP
    FOR t IN SELECT DISTINCT u FROM unnest(taus) u ORDER BY 1 LOOP
     FOR mr IN SELECT DISTINCT u FROM unnest(max_rds) u ORDER BY 1 LOOP
     -- (the advantages are the team model's: 'individual' and 'composite' run at 0 only)
     FOR pa, sa IN SELECT DISTINCT x, y FROM unnest(party_advantages) x, unnest(size_advantages) y
                   WHERE m IN ('sum', 'mean') OR (x = 0 AND y = 0) ORDER BY 1, 2 LOOP
      unrated := glicko2_internal.glicko2_unrated(mr);
      with_store := teammates AND m IN ('sum', 'mean');
      SELECT CAST(NULL AS int[]) AS tp, CAST(NULL AS float8[]) AS ti, CAST(NULL AS float8[]) AS ts,
             CAST(NULL AS int[]) AS pa_, CAST(NULL AS int[]) AS pb_, CAST(NULL AS float8[]) AS rho INTO mates;
      st_a := '{}';
      st_b := '{}';
      st_c := '{}';
      r := array_fill(NULL::float8, ARRAY[players]);
      d := r;
      v := r;
      total_loss := 0;
      total_n := 0;
      lo := 1;
      FOR pn IN 1 .. n_periods LOOP
        hi := period_end[pn];
        -- Every pair of teams of each match, predicted from the ratings
        -- before the period (unrated: 1500 / least(350, max_rd) / 0.06, as a
        -- close starts them), each player counted by his play share as the
        -- close counts him; a tie scores 0.5 each way, as glicko2_evaluate's draws.
        WITH x AS (SELECT row_match[j] AS mn, row_team[j] AS tn, row_place[j] AS pl,
                          CASE WHEN r[row_player[j]] IS NULL THEN unrated
                               ELSE ROW(r[row_player[j]], d[row_player[j]], v[row_player[j]])::@extschema@.glicko2_rating
                          END AS rating,
                          row_player[j] AS kn, row_weight[j] AS w, row_party[j] AS pt
                   FROM generate_series(lo, hi) j),
        teams AS (SELECT mn, tn, min(pl) AS pl, array_agg(rating ORDER BY kn) AS rs, array_agg(w ORDER BY kn) AS ws,
                         array_agg(pt ORDER BY kn) AS pts
                  FROM x GROUP BY mn, tn),
        -- With the store, the stored pairs of each match summed per pair of
        -- teams (t1 <= t2) as a_k a_l cov_kl (a_k the player's weight in his
        -- team's strength, as the close's); materialized, and joined to the
        -- pairs of teams, so it is computed once a period, not once a pair.
        shares AS (SELECT x.mn, x.tn, x.kn,
                          CASE WHEN m = 'mean' THEN x.w / sum(x.w) OVER (PARTITION BY x.mn, x.tn) ELSE x.w END AS a
                   FROM x WHERE with_store),
        stored AS MATERIALIZED (
                   SELECT k.mn, least(k.tn, l.tn) AS t1, greatest(k.tn, l.tn) AS t2, sum(k.a * l.a * u.c) AS v
                   FROM unnest(st_a, st_b, st_c) u(a, b, c)
                   JOIN shares k ON k.kn = u.a + 1
                   JOIN shares l ON l.kn = u.b + 1 AND l.mn = k.mn
                   GROUP BY 1, 2, 3),
        -- Var(D) of teams a and b gains 2 cov within each team, -2 cov across.
        pairs AS (SELECT CASE WHEN a.pl < b.pl THEN 1.0 WHEN a.pl > b.pl THEN 0.0 ELSE 0.5 END AS s,
                         CASE WHEN NOT with_store
                              THEN @extschema@.glicko2_team_win_probability(a.rs, b.rs, m, a.ws, b.ws, a.pts, b.pts,
                                                                            pa, sa)
                              ELSE glicko2_internal.glicko2_team_win_probability_covaried(
                                     a.rs, b.rs, m, a.ws, b.ws, a.pts, b.pts, pa, sa,
                                     (2 * coalesce(saa.v, 0) + 2 * coalesce(sbb.v, 0) - 2 * coalesce(sab.v, 0))
                                     / (173.7178 * 173.7178)) END AS q
                  FROM teams a JOIN teams b ON b.mn = a.mn AND b.tn > a.tn
                  LEFT JOIN stored saa ON saa.mn = a.mn AND saa.t1 = a.tn AND saa.t2 = a.tn
                  LEFT JOIN stored sbb ON sbb.mn = b.mn AND sbb.t1 = b.tn AND sbb.t2 = b.tn
                  LEFT JOIN stored sab ON sab.mn = a.mn AND sab.t1 = a.tn AND sab.t2 = b.tn)
        SELECT coalesce(sum(-(s * ln(greatest(q, 1e-15)) + (1 - s) * ln(greatest(1 - q, 1e-15)))), 0), count(*)
          INTO p_loss, p_n
        FROM pairs;
        total_loss := total_loss + p_loss;
        total_n := total_n + p_n;
        -- Then the period's close, as glicko2_close_matches computes it; a
        -- match it cannot rate is named as the close names it.
        BEGIN
          IF with_store THEN
            -- As glicko2_close_matches with a store: the period's terms and
            -- the pairs kept (glicko2_teammates_terms), the terms through the
            -- pass, each pair's covariance its correlation times both new RDs.
            SELECT array_agg(o.player) FILTER (WHERE o.partner IS NULL) AS tp,
                   array_agg(o.information) FILTER (WHERE o.partner IS NULL) AS ti,
                   array_agg(o.surprise) FILTER (WHERE o.partner IS NULL) AS ts,
                   array_agg(o.player) FILTER (WHERE o.partner IS NOT NULL) AS pa_,
                   array_agg(o.partner) FILTER (WHERE o.partner IS NOT NULL) AS pb_,
                   array_agg(o.correlation) FILTER (WHERE o.partner IS NOT NULL) AS rho
              INTO mates
            FROM glicko2_internal.glicko2_teammates_terms(
                   m, mr,
                   (SELECT array_agg(CASE WHEN r[i] IS NULL THEN NULL
                                          ELSE ROW(r[i], d[i], v[i])::@extschema@.glicko2_rating END ORDER BY i)
                    FROM generate_series(1, players) i),
                   row_match[lo:hi], row_team[lo:hi],
                   (SELECT array_agg(row_player[j] - 1 ORDER BY j) FROM generate_series(lo, hi) j),
                   row_place[lo:hi], row_weight[lo:hi],
                   (SELECT array_agg(coalesce(row_party[j], -1) ORDER BY j) FROM generate_series(lo, hi) j),
                   pa, sa, st_a, st_b, st_c) o;
          END IF;
          SELECT array_agg((c.rating).rating ORDER BY i), array_agg((c.rating).rd ORDER BY i),
                 array_agg((c.rating).volatility ORDER BY i)
            INTO r, d, v
          FROM generate_series(1, players) i
          LEFT JOIN @extschema@.glicko2_close_ratings(
                      ratings_sql, CASE WHEN with_store THEN mates_games_sql ELSE games_sql END,
                      t, mr, 'glicko2_fit_matches', 'terms',
                      VARIADIC CASE WHEN with_store
                        THEN ARRAY[m, r::text, d::text, v::text, coalesce(mates.tp, '{}')::text,
                                   coalesce(mates.ti, '{}')::text, coalesce(mates.ts, '{}')::text]
                        ELSE ARRAY[m, r::text, d::text, v::text,
                                   row_match[lo:hi]::text, row_team[lo:hi]::text, row_player[lo:hi]::text,
                                   row_place[lo:hi]::text, row_weight[lo:hi]::text, mr::text,
                                   pa::text, sa::text, row_party[lo:hi]::text] END)
                    AS c(player int, rating @extschema@.glicko2_rating, games bigint, is_new boolean)
            ON c.player = i;
          IF with_store THEN
            SELECT coalesce(array_agg(u.a ORDER BY k), '{}'), coalesce(array_agg(u.b ORDER BY k), '{}'),
                   coalesce(array_agg(u.rho * d[u.a + 1] * d[u.b + 1] ORDER BY k), '{}')
              INTO st_a, st_b, st_c
            FROM unnest(mates.pa_, mates.pb_, mates.rho) WITH ORDINALITY u(a, b, rho, k);
          END IF;
        EXCEPTION WHEN null_value_not_allowed OR unique_violation OR invalid_parameter_value THEN
          bad := glicko2_internal.glicko2_bad_match(matches, labels[pn], period_type, period_column, match_column,
                                               match_player_column, team_column, place_column, weight_column,
                                               party_column);
          IF bad.why IS NULL THEN
            RAISE;
          END IF;
          RAISE EXCEPTION 'bad match in period % of %: %', labels[pn], matches, bad.why
            USING ERRCODE = bad.sqlstate,
                  DETAIL = format('Problems found among the period''s %s rows: %s (a player twice in a match or on two teams, a team with two places, a match of one team).',
                                  bad.n_rows, bad.n_bad);
        END;
        lo := hi + 1;
      END LOOP;
      out_method := out_method || m;
      out_tau := out_tau || t;
      out_max_rd := out_max_rd || mr;
      out_pa := out_pa || pa;
      out_sa := out_sa || sa;
      out_loss := out_loss || total_loss / nullif(total_n, 0);
      out_n := out_n || total_n;
     END LOOP;
     END LOOP;
    END LOOP;
  END LOOP;
  RETURN QUERY
    WITH o AS (SELECT * FROM unnest(out_method, out_tau, out_max_rd, out_pa, out_sa, out_loss, out_n)
                 u(method, tau, max_rd, party_advantage, size_advantage, log_loss, predictions))
    SELECT o.method, o.tau, o.max_rd, o.party_advantage, o.size_advantage, o.log_loss, o.predictions,
           coalesce(ROW(o.method, o.tau, o.max_rd, o.party_advantage, o.size_advantage) IS NOT DISTINCT FROM
                    (SELECT ROW(b.method, b.tau, b.max_rd, b.party_advantage, b.size_advantage)
                     FROM o b WHERE b.log_loss IS NOT NULL
                     ORDER BY b.log_loss, b.method, b.tau, b.max_rd, abs(b.party_advantage), b.party_advantage,
                              abs(b.size_advantage), b.size_advantage LIMIT 1), false)
    FROM o ORDER BY o.log_loss, o.method, o.tau, o.max_rd, abs(o.party_advantage), o.party_advantage,
                    abs(o.size_advantage), o.size_advantage;
END
$fn$;
COMMENT ON FUNCTION glicko2_fit_matches(regclass, text[], float8[], float8[], name, name, name, name, name, name, float8[], float8[], name, boolean) IS
  'Chooses the method, tau and max_rd (the RD of knowing nothing about a player: new players start at 1500 / least(350, max_rd) / 0.06, idle ones grow back to it; NULL: no cap) of a team or free-for-all league by its own matches: for each method, tau and max_rd, replays every period as glicko2_close_matches would close it and scores every pair of teams of each match with glicko2_team_win_probability of that method from the ratings before its period and the players'' weights (log loss, a tie counting 0.5 each way); one row per method, tau, max_rd, party and size advantage (the advantages, with party_column labelling who queued together, for ''sum'' and ''mean''; ''individual'' and ''composite'' at 0 only), best = the lowest log loss (among equals the smallest advantages); writes nothing; teammates (the default): ''sum'' and ''mean'' are replayed as closes with a teammates store rate them (glicko2_close_matches'' teammates), their predictions counting the stored covariances';

-- The party and size advantages fitted continuously (one call, no grid):
-- golden-section search of glicko2_fit_matches' log loss over each
-- advantage in [-bound, bound] in turn, from 0, until a round moves neither
-- by more than `tolerance` points (at most 4 rounds; one when only one is
-- fitted).  The log loss of each is taken to have one minimum in the bounds.  The size advantage is
-- fitted only where some match has teams of different sizes (sums of
-- shares), the party advantage only where two players of a team share a
-- party label: elsewhere the log loss does not depend on it and it stays 0.
CREATE FUNCTION glicko2_fit_team_advantages(
  matches regclass, method text DEFAULT 'sum', tau float8 DEFAULT 0.5, max_rd float8 DEFAULT 350,
  party_column name DEFAULT NULL, bound float8 DEFAULT 400, tolerance float8 DEFAULT 0.5,
  period_column name DEFAULT 'period', match_column name DEFAULT 'match_id',
  match_player_column name DEFAULT 'player_id', team_column name DEFAULT 'team',
  place_column name DEFAULT 'place', weight_column name DEFAULT NULL)
  RETURNS TABLE (party_advantage float8, size_advantage float8, log_loss float8, predictions bigint,
                 evaluations int, party_se float8, size_se float8)
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  golden constant float8 := (sqrt(5) - 1) / 2;
  step constant float8 := 10;  -- (points: the curvature's central difference)
  se float8[] := '{NULL,NULL}';
  lx float8;                   -- (the log loss at x)
  npred bigint;                -- (the predictions scored: the same at every x)
  lp float8[] := '{NULL,NULL}';  -- (the log loss step points above the fit, each advantage)
  lm float8[] := '{NULL,NULL}';  -- (and below)
  hess float8[] := '{{0,0},{0,0}}';
  shifted float8[];
  x float8[] := '{0,0}';       -- (party, size)
  fit boolean[];
  moved float8;
  lo float8;
  hi float8;
  a float8;
  b float8;
  la float8;
  lb float8;
  start float8;
  n int := 0;
  weight_sql text;
  uneven boolean;
  parties boolean := false;
BEGIN
  IF matches IS NULL OR method IS NULL OR bound IS NULL OR tolerance IS NULL THEN
    RAISE EXCEPTION 'matches, method, bound and tolerance must not be NULL' USING ERRCODE = '22004';
  END IF;
  IF method NOT IN ('sum', 'mean') THEN
    RAISE EXCEPTION 'method must be ''sum'' or ''mean'' (the team model''s advantages), not %', quote_literal(method)
      USING ERRCODE = '22023';
  END IF;
  IF NOT (bound > 0 AND bound < 'Infinity' AND tolerance > 0 AND tolerance < bound) THEN
    RAISE EXCEPTION 'bound and tolerance must be positive finite numbers, tolerance below bound, not % and %',
                    bound, tolerance USING ERRCODE = '22003';
  END IF;
  SELECT w.weight_sql INTO weight_sql
  FROM glicko2_internal.glicko2_match_columns(matches, place_column, weight_column) w;
  -- (teams' sizes from the shares, as the closes count them)
  EXECUTE format($q$
    SELECT EXISTS (SELECT FROM (SELECT g.%1$I AS period, g.%2$I AS mt, sum(%5$s) AS size
                                FROM %4$s g GROUP BY 1, 2, g.%3$I) t
                   GROUP BY t.period, t.mt HAVING min(t.size) <> max(t.size))$q$,
    period_column, match_column, team_column, matches, weight_sql) INTO STRICT uneven;
  -- (a premade party: a label two players of one team share; without one
  -- the log loss does not depend on the party advantage, which stays 0)
  IF party_column IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_party_column(matches, party_column);
    EXECUTE format($q$
      SELECT EXISTS (SELECT FROM %4$s g WHERE g.%5$I IS NOT NULL
                     GROUP BY g.%1$I, g.%2$I, g.%3$I, g.%5$I HAVING count(*) > 1)$q$,
      period_column, match_column, team_column, matches, party_column) INTO STRICT parties;
  END IF;
  fit := ARRAY[parties, uneven];
  FOR pass IN 1 .. 4 LOOP
    moved := 0;
    FOR d IN 1 .. 2 LOOP
      CONTINUE WHEN NOT fit[d];
      start := x[d];
      lo := -bound;
      hi := bound;
      a := hi - golden * (hi - lo);
      b := lo + golden * (hi - lo);
      x[d] := a;
      SELECT f.log_loss, f.predictions INTO la, npred
      FROM glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, x, party_column, period_column,
                                              match_column, match_player_column, team_column, place_column,
                                              weight_column) f;
      x[d] := b;
      SELECT f.log_loss, f.predictions INTO lb, npred
      FROM glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, x, party_column, period_column,
                                              match_column, match_player_column, team_column, place_column,
                                              weight_column) f;
      n := n + 2;
      WHILE hi - lo > tolerance LOOP
        IF la <= lb THEN
          hi := b; b := a; lb := la;
          a := hi - golden * (hi - lo);
          x[d] := a;
          SELECT f.log_loss, f.predictions INTO la, npred
          FROM glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, x, party_column, period_column,
                                                  match_column, match_player_column, team_column, place_column,
                                                  weight_column) f;
        ELSE
          lo := a; a := b; la := lb;
          b := lo + golden * (hi - lo);
          x[d] := b;
          SELECT f.log_loss, f.predictions INTO lb, npred
          FROM glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, x, party_column, period_column,
                                                  match_column, match_player_column, team_column, place_column,
                                                  weight_column) f;
        END IF;
        n := n + 1;
      END LOOP;
      x[d] := CASE WHEN la <= lb THEN a ELSE b END;
      lx := least(la, lb);
      moved := greatest(moved, abs(x[d] - start));
    END LOOP;
    -- (one advantage fitted: its search is the answer)
    EXIT WHEN moved <= tolerance OR NOT (fit[1] AND fit[2]);
  END LOOP;
  -- (nothing fitted: the league's log loss without advantages; else the
  -- search's last pick is x, its log loss already taken)
  IF lx IS NULL THEN
    SELECT f.log_loss, f.predictions INTO lx, npred
    FROM glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, x, party_column, period_column,
                                           match_column, match_player_column, team_column, place_column,
                                           weight_column) f;
  END IF;
  -- The standard errors: the summed log loss is the predictions' negative
  -- log-likelihood, and its Hessian at the fit (central differences of step
  -- points, the cross term too: where parties are larger teams, the two
  -- advantages trade off) times the predictions is the information the
  -- league holds about them; each error the square root of the inverse's
  -- diagonal; NULL where the Hessian is not positive definite.
  FOR d IN 1 .. 2 LOOP
    CONTINUE WHEN NOT fit[d];
    shifted := x;
    shifted[d] := x[d] + step;
    lp[d] := (glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, shifted, party_column, period_column,
                                                match_column, match_player_column, team_column, place_column,
                                                weight_column)).log_loss;
    shifted[d] := x[d] - step;
    lm[d] := (glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, shifted, party_column, period_column,
                                                match_column, match_player_column, team_column, place_column,
                                                weight_column)).log_loss;
    n := n + 2;
    hess[d][d] := (lp[d] + lm[d] - 2 * lx) / step ^ 2;
  END LOOP;
  IF fit[1] AND fit[2] THEN
    hess[1][2] := ((glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, ARRAY[x[1] + step, x[2] + step],
                                                      party_column, period_column, match_column, match_player_column,
                                                      team_column, place_column, weight_column)).log_loss
                   + (glicko2_internal.glicko2_fit_loss(matches, method, tau, max_rd, ARRAY[x[1] - step, x[2] - step],
                                                        party_column, period_column, match_column, match_player_column,
                                                        team_column, place_column, weight_column)).log_loss
                   - lp[1] - lm[1] - lp[2] - lm[2] + 2 * lx) / (2 * step ^ 2);
    n := n + 2;
    IF hess[1][1] > 0 AND hess[1][1] * hess[2][2] - hess[1][2] ^ 2 > 0 AND npred > 0 THEN
      se := ARRAY[sqrt(hess[2][2] / (hess[1][1] * hess[2][2] - hess[1][2] ^ 2) / npred),
                  sqrt(hess[1][1] / (hess[1][1] * hess[2][2] - hess[1][2] ^ 2) / npred)];
    END IF;
  ELSE
    FOR d IN 1 .. 2 LOOP
      IF fit[d] AND hess[d][d] > 0 AND npred > 0 THEN
        se[d] := 1 / sqrt(hess[d][d] * npred);
      END IF;
    END LOOP;
  END IF;
  RETURN QUERY SELECT x[1], x[2], lx, npred, n, se[1], se[2];
END
$fn$;
COMMENT ON FUNCTION glicko2_fit_team_advantages(regclass, text, float8, float8, name, float8, float8, name, name, name, name, name, name) IS
  'Fits the party and size advantages of a team league continuously (one call, no grid): golden-section search of glicko2_fit_matches'' log loss over each advantage in [-bound, bound] in turn until a round moves neither by more than tolerance points; the party advantage only where two players of a team share a party label of party_column, the size advantage only where some match has teams of different sizes; method ''sum'' or ''mean'', tau and max_rd as the league closes; returns the advantages, their log loss and predictions, how many replays it took and each fitted advantage''s standard error (from the Hessian of the predictions'' summed log loss at the fit, central differences of 10 points, the cross term included where both are fitted; NULL where an advantage is not fitted or the Hessian is not positive definite); writes nothing';

-- One replay's log loss for glicko2_fit_team_advantages: x = (party, size);
-- and the predictions it scored.
CREATE FUNCTION glicko2_internal.glicko2_fit_loss(
  matches regclass, method text, tau float8, max_rd float8, x float8[], party_column name,
  period_column name, match_column name, match_player_column name, team_column name,
  place_column name, weight_column name, OUT log_loss float8, OUT predictions bigint)
  RETURNS record
  LANGUAGE sql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
  SELECT f.log_loss, f.predictions
  FROM @extschema@.glicko2_fit_matches(matches, ARRAY[method], ARRAY[tau], ARRAY[max_rd], period_column,
                                       match_column, match_player_column, team_column, place_column,
                                       weight_column, ARRAY[x[1]], ARRAY[x[2]], party_column) f
$fn$;
COMMENT ON FUNCTION glicko2_internal.glicko2_fit_loss(regclass, text, float8, float8, float8[], name, name, name, name, name, name, name) IS
  'Helper of glicko2_fit_team_advantages: the log loss of glicko2_fit_matches at one method, tau, max_rd and (party, size) advantage, and the predictions it scored';

-- The same grid search for the home / first-move advantage at one tau.
CREATE FUNCTION glicko2_fit_advantage(games regclass,
                                      advantages float8[] DEFAULT '{0,20,40,60,80,100,120,140,160}',
                                      tau float8 DEFAULT 0.5,
                                      rd float8 DEFAULT 350, volatility float8 DEFAULT 0.06,
                                      max_rd float8 DEFAULT 350,
                                      period_column name DEFAULT 'period',
                                      game_player_column name DEFAULT 'player_id',
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
                                              period_column, game_player_column,
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
