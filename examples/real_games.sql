-- real_games.sql — predictive accuracy on real results (run by real_games.sh,
-- after load_real_games.sh has filled schema real_games).
--
-- Every system rates the games period by period and predicts each period's
-- games from the ratings before it; everything is scored on the same games
-- (all of them, the first period included) with the measures of
-- glicko2_evaluate: log loss and Brier score of the expected score (a draw
-- or tie is s = 0.5), accuracy on decisive games.  Parameters (tau, K, c,
-- the home advantage) are fitted on the same games by grid search, for
-- every system alike: these are in-sample best settings, the same footing
-- glicko2_fit_tau gives.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS glicko2;

-- Hockey with other period lengths: days since Monday 2009-10-05, binned.
CREATE FUNCTION real_games.hockey_periods(days int)
  RETURNS TABLE (period date, player_id text, opponent_id text, score float8, home boolean)
  LANGUAGE sql STABLE
AS $$
  SELECT date '2009-10-05' + ((date - date '2009-10-05') / days) * days,
         player_id, opponent_id, score, home
  FROM real_games.hockey_games
$$;
CREATE VIEW real_games.hockey_day AS SELECT * FROM real_games.hockey_periods(1);
CREATE VIEW real_games.hockey_2weeks AS SELECT * FROM real_games.hockey_periods(14);
CREATE VIEW real_games.hockey_4weeks AS SELECT * FROM real_games.hockey_periods(28);

-- Elo and Glicko-1, period by period as glicko2_evaluate does for Glicko-2.
--   elo:     E = 1 / (1 + 10^(-(r_a + h A - r_b) / 400)); after the period
--            r += K sum (s - E) over the player's games of the period.
--   glicko1: Glickman, "The Glicko system": players enter at 1500 / rd0;
--            at the start of every period a
--            rated player's RD grows to min(sqrt(RD^2 + c^2), 350)
--            (glicko1_idle); predictions E = 1 / (1 + 10^(-g(sqrt(RD_a^2 +
--            RD_b^2)) (r_a - r_b) / 400)); the update is glicko1_period.
--            No home advantage: the extension's Glicko-1 has none.
-- h = +1 when the player is at home, -1 the opponent, 0 neutral.
CREATE FUNCTION real_games.evaluate(games regclass, system text, param float8,
                                    advantage float8 DEFAULT 0, rd0 float8 DEFAULT 350)
  RETURNS TABLE (n_games bigint, log_loss float8, brier float8, accuracy float8)
  LANGUAGE plpgsql
AS $fn$
DECLARE
  g_p int[]; g_a int[]; g_b int[]; g_s float8[]; g_h float8[];
  n_players int;
  r float8[];
  d float8[];
  seen boolean[];
  lo int := 1;
  hi int;
  q float8;
  gq float8;
  sum_loss float8 := 0;
  sum_brier float8 := 0;
  correct float8 := 0;
  decisive bigint := 0;
  delta float8[];
BEGIN
  EXECUTE format($q$
    WITH g AS (SELECT period, player_id, opponent_id, score,
                      CASE WHEN home THEN 1 WHEN NOT home THEN -1 ELSE 0 END AS h FROM %s),
    k AS (SELECT key, (row_number() OVER (ORDER BY key))::int AS i
          FROM (SELECT player_id FROM g UNION SELECT opponent_id FROM g) u(key)),
    n AS (SELECT dense_rank() OVER (ORDER BY period)::int AS pi, ka.i AS ia, kb.i AS ib, score, h
          FROM g JOIN k ka ON ka.key = g.player_id JOIN k kb ON kb.key = g.opponent_id)
    SELECT array_agg(pi ORDER BY pi, ia, ib, score, h), array_agg(ia ORDER BY pi, ia, ib, score, h),
           array_agg(ib ORDER BY pi, ia, ib, score, h), array_agg(score ORDER BY pi, ia, ib, score, h),
           array_agg(h ORDER BY pi, ia, ib, score, h), (SELECT count(*) FROM k)
    FROM n$q$, games)
    INTO g_p, g_a, g_b, g_s, g_h, n_players;
  r := array_fill(1500::float8, ARRAY[n_players]);
  d := array_fill(rd0, ARRAY[n_players]);
  seen := array_fill(false, ARRAY[n_players]);

  WHILE lo <= cardinality(g_p) LOOP
    hi := lo;
    WHILE hi < cardinality(g_p) AND g_p[hi + 1] = g_p[lo] LOOP
      hi := hi + 1;
    END LOOP;
    IF system = 'glicko1' THEN          -- Step 1: RD grows before the period
      FOR i IN 1 .. n_players LOOP
        IF seen[i] THEN
          d[i] := (glicko1_idle(glicko1_rating(r[i], d[i]), 1, param, 350)).rd;
        END IF;
      END LOOP;
    END IF;
    delta := array_fill(0::float8, ARRAY[n_players]);
    FOR j IN lo .. hi LOOP
      IF system = 'elo' THEN
        q := 1 / (1 + 10 ^ (-(r[g_a[j]] + g_h[j] * advantage - r[g_b[j]]) / 400));
        delta[g_a[j]] := delta[g_a[j]] + param * (g_s[j] - q);
        delta[g_b[j]] := delta[g_b[j]] - param * (g_s[j] - q);
      ELSE
        gq := 1 / sqrt(1 + 3 * (ln(10) / 400) ^ 2 * (d[g_a[j]] ^ 2 + d[g_b[j]] ^ 2) / pi() ^ 2);
        q := 1 / (1 + 10 ^ (-gq * (r[g_a[j]] - r[g_b[j]]) / 400));
      END IF;
      sum_loss := sum_loss - (g_s[j] * ln(greatest(q, 1e-15)) + (1 - g_s[j]) * ln(greatest(1 - q, 1e-15)));
      sum_brier := sum_brier + (q - g_s[j]) ^ 2;
      IF g_s[j] <> 0.5 THEN
        decisive := decisive + 1;
        correct := correct + CASE WHEN q = 0.5 THEN 0.5 WHEN (q > 0.5) = (g_s[j] > 0.5) THEN 1 ELSE 0 END;
      END IF;
    END LOOP;
    IF system = 'elo' THEN
      FOR i IN 1 .. n_players LOOP
        r[i] := r[i] + delta[i];
      END LOOP;
    ELSE
      SELECT array_agg(coalesce((u.x).rating, r[i]) ORDER BY i), array_agg(coalesce((u.x).rd, d[i]) ORDER BY i)
        INTO r, d
      FROM generate_series(1, n_players) i
      LEFT JOIN (SELECT me, glicko1_period(glicko1_rating(r[me], d[me]), glicko1_rating(r[them], d[them]), s) AS x
                 FROM (SELECT g_a[j] AS me, g_b[j] AS them, g_s[j] AS s FROM generate_series(lo, hi) j
                       UNION ALL
                       SELECT g_b[j], g_a[j], 1 - g_s[j] FROM generate_series(lo, hi) j) side
                 GROUP BY me) u ON u.me = i;
    END IF;
    FOR j IN lo .. hi LOOP
      seen[g_a[j]] := true;
      seen[g_b[j]] := true;
    END LOOP;
    lo := hi + 1;
  END LOOP;
  n_games := cardinality(g_p);
  log_loss := sum_loss / n_games;
  brier := sum_brier / n_games;
  accuracy := correct / decisive;
  RETURN NEXT;
END
$fn$;

-- The constant prediction: the home side's mean score over the games with a
-- home side (in-sample, the best any constant can do on these games), 0.5 on
-- neutral ground; accuracy: the home side always wins.  And the coin, 0.5.
CREATE FUNCTION real_games.constant(games regclass)
  RETURNS TABLE (system text, n_games bigint, log_loss float8, brier float8, accuracy float8)
  LANGUAGE plpgsql
AS $fn$
BEGIN
  RETURN QUERY EXECUTE format($q$
    WITH g AS (SELECT CASE WHEN home THEN score WHEN NOT home THEN 1 - score END AS s_home,
                      score FROM %s),
    base AS (SELECT avg(s_home) AS q FROM g),
    p AS (SELECT coalesce(s_home, score) AS s, CASE WHEN s_home IS NULL THEN 0.5 ELSE base.q END AS q
          FROM g, base)
    SELECT format('constant: home side scores %%s', round(max(q)::numeric, 4)), count(*),
           avg(-(s * ln(q) + (1 - s) * ln(1 - q))), avg((q - s) ^ 2),
           avg(CASE WHEN q = 0.5 THEN 0.5 WHEN (q > 0.5) = (s > 0.5) THEN 1 ELSE 0 END)
             FILTER (WHERE s <> 0.5)::float8
    FROM p
    UNION ALL
    SELECT 'coin: 0.5', count(*), ln(2::float8), avg((0.5 - score) ^ 2), 0.5::float8 FROM g$q$, games);
END
$fn$;

-- Every system on one games relation; the grids.  For both Glicko systems
-- the players' first RD (350 in Glickman's examples, which are chess) is
-- fitted too: it decides how far the first results move a team.
CREATE FUNCTION real_games.compare(games regclass)
  RETURNS TABLE (system text, settings text, log_loss float8, brier float8, accuracy float8)
  LANGUAGE sql
AS $$
  WITH taus(tau) AS (VALUES (0.2), (0.5), (1.2), (2.0)),
  advs(a) AS (VALUES (0.0), (40), (60), (80), (100), (120)),
  rds(rd) AS (VALUES (75.0), (100), (150), (200), (350)),
  ks(k) AS (VALUES (8.0), (16), (24), (32), (48), (64), (96)),
  cs(c) AS (VALUES (5.0), (10), (20), (34.6), (50), (80)),
  g2 AS (SELECT t.tau, a.a, r.rd, e.* FROM taus t, advs a, rds r,
           LATERAL glicko2_evaluate(games, t.tau, r.rd, advantage => a.a, home_column => 'home') e
         WHERE e.period IS NULL),
  elo AS (SELECT k.k, a.a, e.* FROM ks k, advs a, LATERAL real_games.evaluate(games, 'elo', k.k, a.a) e),
  g1 AS (SELECT c.c, r.rd, e.* FROM cs c, rds r,
         LATERAL real_games.evaluate(games, 'glicko1', c.c, 0, r.rd) e),
  best AS (
    SELECT 'Glicko-2, no advantage' AS system, format('tau %s, RD %s', tau, rd) AS settings, log_loss, brier, accuracy, 5 AS o
    FROM (SELECT * FROM g2 WHERE a = 0 ORDER BY log_loss LIMIT 1) x
    UNION ALL
    SELECT 'Glicko-2 + home advantage', format('tau %s, RD %s, advantage %s', tau, rd, a), log_loss, brier, accuracy, 6
    FROM (SELECT * FROM g2 ORDER BY log_loss LIMIT 1) x
    UNION ALL
    SELECT 'Elo, no advantage', format('K %s', k), log_loss, brier, accuracy, 2
    FROM (SELECT * FROM elo WHERE a = 0 ORDER BY log_loss LIMIT 1) x
    UNION ALL
    SELECT 'Elo + home advantage', format('K %s, advantage %s', k, a), log_loss, brier, accuracy, 3
    FROM (SELECT * FROM elo ORDER BY log_loss LIMIT 1) x
    UNION ALL
    SELECT 'Glicko-1, no advantage', format('c %s, RD %s', c, rd), log_loss, brier, accuracy, 4
    FROM (SELECT * FROM g1 ORDER BY log_loss LIMIT 1) x
    UNION ALL
    SELECT c.system, '', c.log_loss, c.brier, c.accuracy, CASE WHEN c.system LIKE 'coin%' THEN 0 ELSE 1 END
    FROM real_games.constant(games) c
    UNION ALL     -- Glicko-2 over the tau grid, each at its best RD and advantage
    SELECT format('  Glicko-2 tau %s', tau), format('RD %s, advantage %s', rd, a), log_loss, brier, accuracy, 7
    FROM (SELECT DISTINCT ON (tau) * FROM g2 ORDER BY tau, log_loss) x
    UNION ALL     -- and with Glickman's first RD, 350
    SELECT format('  Glicko-2 tau %s', tau), format('RD %s, advantage %s', rd, a), log_loss, brier, accuracy, 8
    FROM (SELECT DISTINCT ON (tau) * FROM g2 WHERE rd = 350 ORDER BY tau, log_loss) x
  )
  SELECT system, settings, round(log_loss::numeric, 5)::float8, round(brier::numeric, 4)::float8,
         round(accuracy::numeric, 4)::float8
  FROM best ORDER BY o, system, settings
$$;

\echo
\echo 'NCAA men''s ice hockey 2009-10: 1083 games, 58 teams, weekly periods (23 with games)'
SELECT * FROM real_games.compare('real_games.hockey_games');

\echo 'English Premier League 2008-9 to 2012-13: 1900 matches, 29 teams, one period a season'
SELECT * FROM real_games.compare('real_games.epl_games');

\echo 'Hockey, period length: the best of each system on each grid'
SELECT p.label AS periods,
       (SELECT count(DISTINCT period) FROM real_games.hockey_periods(p.days)) AS n_periods,
       c.system, c.settings, c.log_loss, c.brier, c.accuracy
FROM (VALUES (1, 'day'), (7, 'week'), (14, '2 weeks'), (28, '4 weeks')) p(days, label),
     LATERAL real_games.compare(CASE p.days WHEN 1 THEN 'real_games.hockey_day'
                                            WHEN 7 THEN 'real_games.hockey_games'
                                            WHEN 14 THEN 'real_games.hockey_2weeks'
                                            ELSE 'real_games.hockey_4weeks' END::regclass) c
WHERE c.system IN ('Glicko-2 + home advantage', 'Elo + home advantage', 'Glicko-1, no advantage')
ORDER BY p.days, c.system;
