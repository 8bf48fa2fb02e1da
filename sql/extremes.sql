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
