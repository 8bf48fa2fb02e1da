-- eval/league_season.sql — what a season's reset does to the honesty of the
-- intervals, on a simulated one-on-one league with hidden strengths.
--
--   PG_CONFIG=... bash tools/with-cluster.sh sh -c \
--     'psql -X -q -c "CREATE EXTENSION glicko2" && psql -X -q -f eval/league_season.sql'
--
-- The world (seeded with setseed, so one PostgreSQL major gives the same
-- numbers): 1000 players, strengths normal with SD 250 points in period 1,
-- then a random walk of SD 10 points a period, centred on 1500 every period
-- (ratings are anchored only by everyone starting at 1500); 36 periods, in
-- each every player starts 5 games against random others (10 a period on
-- average); a game is won with the paper's logistic of the strength gap,
-- 1 / (1 + exp(-(a - b) / 173.7178)).  Every variant rates the same games
-- with glicko2_close_period (tau 0.5, max_rd 350) and resets after period 20
-- (season 1), or not (the control).  Scored each period: the share of
-- players whose strength lies inside rating +- 1.96 RD (95 % intervals;
-- honest intervals hold about 95 %), the mean RD, the log loss of the
-- period's games predicted from the ratings before it
-- (glicko2_win_probability), and right after the reset the same share for
-- the reset ratings.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE TEMP TABLE variant (name text PRIMARY KEY, keep float8, rd float8, volatility float8, ord float8);
INSERT INTO variant VALUES
  ('none',                1,   NULL, NULL, 1),
  ('keep 0.5, rd 100',    0.5, 100,  NULL, 2),
  ('keep 0.5, rd 130',    0.5, 130,  NULL, 3),
  ('keep 0.5, rd 150',    0.5, 150,  NULL, 3.5),
  ('keep 0.75, rd 100',   0.75, 100, NULL, 4),
  ('keep 0.9, rd 75',     0.9, 75,   NULL, 5),
  ('keep 0, rd 350',      0,   350,  0.06, 6);

\ir league_world.sql

DO $$
DECLARE
  v record;
  ll float8;
BEGIN
  FOR v IN SELECT * FROM variant ORDER BY ord LOOP
    TRUNCATE ratings;
    DELETE FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
    DELETE FROM glicko2_season_resets WHERE ratings = 'ratings'::regclass;
    FOR p IN 1 .. 36 LOOP
      ll := pg_temp.log_loss(p);
      CALL glicko2_close_period('ratings', 'games', p, unguarded => true);
      PERFORM pg_temp.score(v.name, p, 'closed', ll);
      IF p = 20 AND v.rd IS NOT NULL THEN
        CALL glicko2_season_reset('ratings', 1, v.keep, v.rd, volatility => v.volatility);
        PERFORM pg_temp.score(v.name, p, 'reset', NULL);
      END IF;
    END LOOP;
  END LOOP;
END
$$;

\echo 'Share of strengths inside the 95 % intervals (rating +- 1.96 RD), by period; reset after period 20'
SELECT v.name AS reset,
       round(100 * avg(s.coverage) FILTER (WHERE s.period BETWEEN 15 AND 20 AND s.stage = 'closed'))::text || ' %' AS "15-20",
       round(100 * max(s.coverage) FILTER (WHERE s.period = 20 AND s.stage = 'reset'))::text || ' %' AS "after reset",
       round(100 * max(s.coverage) FILTER (WHERE s.period = 21))::text || ' %' AS "21",
       round(100 * max(s.coverage) FILTER (WHERE s.period = 22))::text || ' %' AS "22",
       round(100 * max(s.coverage) FILTER (WHERE s.period = 23))::text || ' %' AS "23",
       round(100 * max(s.coverage) FILTER (WHERE s.period = 25))::text || ' %' AS "25",
       round(100 * avg(s.coverage) FILTER (WHERE s.period BETWEEN 30 AND 36))::text || ' %' AS "30-36",
       (SELECT min(r.period) - 20 FROM scored r
        WHERE r.variant = v.name AND r.period > 20 AND r.stage = 'closed'
          AND r.coverage >= 0.935
          AND NOT EXISTS (SELECT FROM scored q WHERE q.variant = v.name AND q.period > r.period
                          AND q.stage = 'closed' AND q.coverage < 0.935)) AS back_to_94_from
FROM variant v JOIN scored s ON s.variant = v.name
GROUP BY v.name, v.ord ORDER BY v.ord;

\echo 'Mean RD, and log loss of each period''s games predicted from the ratings before it'
SELECT v.name AS reset,
       round(avg(s.mean_rd) FILTER (WHERE s.period = 20 AND s.stage = 'closed')) AS rd_20,
       round(max(s.mean_rd) FILTER (WHERE s.period = 20 AND s.stage = 'reset')) AS rd_reset,
       round(avg(s.mean_rd) FILTER (WHERE s.period = 21)) AS rd_21,
       round(avg(s.log_loss) FILTER (WHERE s.period BETWEEN 15 AND 20)::numeric, 4) AS ll_15_20,
       round(avg(s.log_loss) FILTER (WHERE s.period = 21)::numeric, 4) AS ll_21,
       round(avg(s.log_loss) FILTER (WHERE s.period BETWEEN 22 AND 25)::numeric, 4) AS ll_22_25,
       round(avg(s.log_loss) FILTER (WHERE s.period BETWEEN 26 AND 36)::numeric, 4) AS ll_26_36
FROM variant v JOIN scored s ON s.variant = v.name
GROUP BY v.name, v.ord ORDER BY v.ord;
