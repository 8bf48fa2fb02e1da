-- Extreme but valid input gives finite results.
CREATE FUNCTION pg_temp.finite(r glicko2_rating) RETURNS boolean LANGUAGE sql AS $$
  SELECT (r).rating NOT IN ('NaN', 'Infinity', '-Infinity')
     AND (r).rd > 0 AND (r).rd < 'Infinity' AND (r).volatility > 0 AND (r).volatility < 'Infinity'
$$;

SELECT label, pg_temp.finite(r) AS finite FROM (
  SELECT 'rating +1e6 beats 1500', glicko2_period(glicko2_rating(1e6, 50), glicko2_rating(1500, 50), 1)
  UNION ALL SELECT 'rating +1e6 loses to 1500', glicko2_period(glicko2_rating(1e6, 50), glicko2_rating(1500, 50), 0)
  UNION ALL SELECT 'rating -1e6 beats 1500', glicko2_period(glicko2_rating(-1e6, 50), glicko2_rating(1500, 50), 1)
  UNION ALL SELECT 'RD 1e-3', glicko2_period(glicko2_rating(1500, 1e-3), glicko2_rating(1600, 1e-3), 1)
  UNION ALL SELECT 'RD 1e4', glicko2_period(glicko2_rating(1500, 1e4), glicko2_rating(1600, 1e4), 1)
  UNION ALL SELECT 'volatility 1e-6', glicko2_period(glicko2_rating(1500, 200, 1e-6), glicko2_rating(1600, 50), 1)
  UNION ALL SELECT 'volatility 5, tau 10', glicko2_period(glicko2_rating(1500, 200, 5), glicko2_rating(1600, 50), 1, 10)
  UNION ALL SELECT 'tau 0.01', glicko2_period(glicko2_rating(1500, 200), glicko2_rating(1600, 50), 1, 0.01)
  UNION ALL SELECT '3400-point upset', glicko2_period(glicko2_rating(1500, 30), glicko2_rating(4900, 30), 1)
  UNION ALL SELECT '60000-point upset near +1e6', glicko2_period(glicko2_rating(940000, 30), glicko2_rating(1e6, 30), 1)
  UNION ALL SELECT '100000-point expected loss', glicko2_period(glicko2_rating(1500, 30), glicko2_rating(101500, 30), 0)
  UNION ALL SELECT '3400-point upset, loser', glicko2_period(glicko2_rating(4900, 30), glicko2_rating(1500, 30), 0)
) t(label, r);

-- Every E saturated at 0 or 1: the games carry no information; Step 6 only.
SELECT glicko2_period(glicko2_rating(1e6, 50, 0.06), o, s) = glicko2_idle(glicko2_rating(1e6, 50, 0.06), 1, NULL) AS saturated_is_step6
FROM (VALUES (glicko2_rating(1500, 50), 1.0::float8), (glicko2_rating(1400, 50), 0)) v(o, s);

-- 10 000 games in one period, all draws against equals: rating stays, RD shrinks, all finite.
SELECT pg_temp.finite(r) AS finite, abs((r).rating - 1500) < 1e-6 AS rating_stays, (r).rd < 10 AS rd_small
FROM (SELECT glicko2_period(glicko2_rating(1500, 350), glicko2_rating(1500, 350), 0.5) AS r
      FROM generate_series(1, 10000)) x;

-- Glicko-1 at the same extremes.
SELECT (r).rating > 0 AND (r).rd > 0 AND (r).rd < 350 AS glicko1_finite
FROM (SELECT glicko1_period(glicko1_rating(1e6, 50), glicko1_rating(1500, 50), 0) AS r) x;

-- Absurd but valid input (ratings and RDs near the top of the double range,
-- subnormal RDs, tau far outside the paper's range): a finite result or a
-- clean 22003 error, never NaN.  Before the fix in glicko_math.c, g
-- underflowed to 0 and 0 * an infinite gap made E NaN.
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  r text;
BEGIN
  EXECUTE q INTO r;
  RETURN CASE WHEN r ~* 'nan|inf' THEN 'NOT FINITE: ' || r ELSE 'finite' END;
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT q, pg_temp.try(q) FROM (VALUES
  ($$SELECT glicko2_win_probability(glicko2_rating(1e308, 1e308, 1), glicko2_rating(-1e308, 1e308, 1))$$),
  ($$SELECT glicko2_win_probability(glicko2_rating(1.7e308, 1.7e308, 1), glicko2_rating(-1.7e308, 1.7e308, 1))$$),
  ($$SELECT glicko2_expected(glicko2_rating(1e308, 1, 1), glicko2_rating(-1e308, 1e308, 1))$$),
  ($$SELECT glicko2_g(1e308)$$),
  ($$SELECT glicko2_g(5e-324)$$),
  ($$SELECT glicko2_period(glicko2_rating(1e308, 350, 0.06), glicko2_rating(-1e308, 350, 0.06), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(1e308, 1e308, 1), glicko2_rating(-1e308, 1e308, 1), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(1500, 200), glicko2_rating(-1e308, 1e308, 1), 0)$$),
  ($$SELECT glicko2_period(glicko2_rating(1500, 1e308, 0.06), glicko2_rating(), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(1500, 350, 1e308), glicko2_rating(), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(1500, 5e-324, 5e-324), glicko2_rating(1500, 5e-324), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 1e-300)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 1e300)$$),
  ($$SELECT glicko1_period(glicko1_rating(1e308, 1e308), glicko1_rating(-1e308, 1e308), 1)$$),
  ($$SELECT glicko1_period(glicko1_rating(1500, 1e308), glicko1_rating(), 1)$$),
  ($$SELECT glicko1_period(glicko1_rating(1500, 5e-324), glicko1_rating(), 1)$$),
  ($$SELECT glicko2_idle(glicko2_rating(1500, 1e308, 1e308), 1e308, NULL)$$),
  ($$SELECT glicko1_idle(glicko1_rating(1500, 1e300), 1e300, 1e300, NULL)$$)
) c(q);

-- Properties over 2 000 random players across the extremes (rating +-1e6,
-- RD 1e-3..1e4, volatility 1e-6..5, tau 0.01..10), each with 1 to 8 games
-- against opponents within 3 000 points (test/unit/math_test.c checks the
-- same over 20 000 players):
--   finite:   every result finite;
--   rd_bound: RD' <= RD* = 173.7178 sqrt(phi^2 + sigma'^2), Step 6 with the
--             new volatility (glicko2_idle computes it the same way);
--   monotone: the first game's loss turned into a win never lowers the rating.
SELECT setseed(0.25);
CREATE TEMP TABLE prop_players AS
SELECT i, glicko2_rating(2e6 * (random() - 0.5), exp(ln(1e-3) + random() * ln(1e7)),
                         exp(ln(1e-6) + random() * ln(5e6))) AS me,
       exp(ln(0.01) + random() * ln(1000)) AS tau
FROM generate_series(1, 2000) i;
CREATE TEMP TABLE prop_games AS
SELECT i, j, glicko2_rating((me).rating + 3000 * (random() - 0.5), exp(ln(1e-3) + random() * ln(1e7))) AS them,
       CASE WHEN j = 1 THEN 0 ELSE floor(random() * 3) / 2 END AS score
FROM prop_players, generate_series(1, 8) j
WHERE j <= 1 + i % 8;
WITH rated AS (
  SELECT i, p.me, glicko2_period(p.me, g.them, g.score, p.tau) AS after,
         glicko2_period(p.me, g.them, CASE WHEN j = 1 THEN 1 ELSE g.score END, p.tau) AS after_win
  FROM prop_players p JOIN prop_games g USING (i)
  GROUP BY i, p.me, p.tau
)
SELECT count(*) AS players,
       count(*) FILTER (WHERE pg_temp.finite(after) AND pg_temp.finite(after_win)) AS finite,
       count(*) FILTER (WHERE (after).rd <= (glicko2_idle(glicko2_rating((me).rating, (me).rd, (after).volatility), 1, NULL)).rd) AS rd_bound,
       count(*) FILTER (WHERE (after_win).rating >= (after).rating) AS monotone
FROM rated;
