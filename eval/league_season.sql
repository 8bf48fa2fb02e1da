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

SELECT setseed(0.35);
CREATE TEMP TABLE walk AS
SELECT p AS player, 250 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS s0
FROM generate_series(1, 1000) p;
CREATE TEMP TABLE steps AS
SELECT w.player, t.period,
       CASE WHEN t.period = 1 THEN 0
            ELSE 10 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) END AS step
FROM walk w, generate_series(1, 36) t(period) ORDER BY 1, 2;
CREATE TEMP TABLE strength AS
SELECT player, period, s - avg(s) OVER (PARTITION BY period) + 1500 AS s
FROM (SELECT st.player, st.period,
             w.s0 + sum(st.step) OVER (PARTITION BY st.player ORDER BY st.period) AS s
      FROM steps st JOIN walk w USING (player)) x;
CREATE INDEX ON strength (period, player);
CREATE TEMP TABLE games AS
SELECT g.period, g.player_id, g.opponent_id,
       (random() < 1 / (1 + exp(-(a.s - b.s) / 173.7178)))::int::float8 AS score
FROM (SELECT t.period, p AS player_id,
             1 + (p - 1 + 1 + floor(random() * 999)::int) % 1000 AS opponent_id
      FROM generate_series(1, 36) t(period), generate_series(1, 1000) p, generate_series(1, 5) k) g
JOIN strength a ON a.period = g.period AND a.player = g.player_id
JOIN strength b ON b.period = g.period AND b.player = g.opponent_id;
CREATE INDEX ON games (period);

CREATE TEMP TABLE scored (variant text, period int, stage text, coverage float8, mean_rd float8, log_loss float8);
CREATE TEMP TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);

-- One period's score of the ratings as they are, against the strengths of `period`.
CREATE FUNCTION pg_temp.score(v text, p int, stage text, ll float8) RETURNS void LANGUAGE sql AS $$
  INSERT INTO scored
  SELECT v, p, stage, avg((abs((r.rating).rating - s.s) <= 1.96 * (r.rating).rd)::int), avg((r.rating).rd), ll
  FROM ratings r JOIN strength s ON s.player = r.player_id AND s.period = p
$$;

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
      SELECT avg(-(g.score * ln(q) + (1 - g.score) * ln(1 - q))) INTO ll
      FROM (SELECT g.score, glicko2_win_probability(coalesce(a.rating, glicko2_rating()),
                                                    coalesce(b.rating, glicko2_rating())) AS q
            FROM games g LEFT JOIN ratings a ON a.player_id = g.player_id
            LEFT JOIN ratings b ON b.player_id = g.opponent_id WHERE g.period = p) g;
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
