-- eval/league_world.sql — the simulated one-on-one league of
-- eval/league_season.sql and eval/league_caps.sql (\ir'd by both): 1000
-- players, strengths normal with SD 250 points in period 1, then a random
-- walk of SD 10 points a period, centred on 1500 every period; 36 periods,
-- in each every player starts 5 games against random others; a game is won
-- with the paper's logistic of the strength gap.  Seeded with setseed, so
-- one PostgreSQL major gives the same world.  Leaves the tables strength,
-- games, scored, ratings, pg_temp.log_loss(period) (of the period's games
-- predicted from the ratings as they are) and pg_temp.score(variant,
-- period, stage, log loss) (the share of strengths inside rating +- 1.96 RD
-- and the mean RD).
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

CREATE FUNCTION pg_temp.log_loss(p int) RETURNS float8 LANGUAGE sql AS $$
  SELECT avg(-(g.score * ln(q) + (1 - g.score) * ln(1 - q)))
  FROM (SELECT g.score, glicko2_win_probability(coalesce(a.rating, glicko2_rating()),
                                                coalesce(b.rating, glicko2_rating())) AS q
        FROM games g LEFT JOIN ratings a ON a.player_id = g.player_id
        LEFT JOIN ratings b ON b.player_id = g.opponent_id WHERE g.period = p) g
$$;
