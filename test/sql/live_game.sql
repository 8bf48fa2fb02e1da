-- glicko2_game: one game rated at once, Step 6 over elapsed_periods t.
-- t = 1 is glicko2_period over that one row, bit for bit; t = 0 and
-- t = 0.5 are checked against the paper's formulas written out in SQL.
\set paper 'glicko2_rating(1500, 200, 0.06)'

-- The paper's three opponents, one at a time (and unrated players): t = 1
-- gives exactly the aggregate's rating.
SELECT o AS opponent, s AS score,
       glicko2_game(:paper, o, s, elapsed_periods => 1) AS game,
       glicko2_game(:paper, o, s, elapsed_periods => 1)
         IS NOT DISTINCT FROM (SELECT glicko2_period(:paper, x.o, x.s) FROM (SELECT o, s) x) AS same_as_period
FROM (VALUES (glicko2_rating(1400, 30, 0.06), 1::float8), (glicko2_rating(1550, 100, 0.06), 0),
             (glicko2_rating(1700, 300, 0.06), 0), (NULL, 0.5)) g(o, s);
SELECT glicko2_game(NULL, :paper, 1, 0.5, 1)
         IS NOT DISTINCT FROM (SELECT glicko2_period(NULL, :paper, 1, 0.5)) AS unrated_same_as_period;

-- Random players, opponents, scores and tau: every one equal to the
-- aggregate's, field by field (float8 = on each field).  The aggregate is
-- over a one-row subquery so that it is evaluated per game.
SELECT setseed(0.11);
CREATE TEMP TABLE random_games AS
SELECT i, glicko2_rating(800 + 1400 * random(), 20 + 330 * random(), 0.02 + 0.1 * random()) AS p,
       glicko2_rating(800 + 1400 * random(), 20 + 330 * random(), 0.02 + 0.1 * random()) AS o,
       CASE WHEN i % 4 = 0 THEN random() ELSE (i % 3) / 2.0 END AS s,
       0.1 + 1.4 * random() AS tau
FROM generate_series(1, 2000) i;
SELECT count(*) AS cases,
       count(*) FILTER (WHERE glicko2_game(p, o, s, tau, 1) IS DISTINCT FROM period) AS differ,
       count(*) FILTER (WHERE glicko2_game(p, o, s, tau, 0) IS NOT DISTINCT FROM period) AS same_at_t0
FROM random_games,
     LATERAL (SELECT glicko2_period(x.p, x.o, x.s, x.tau) AS period FROM (SELECT p, o, s, tau) x) a;

-- t = 0 by hand: phi* = phi, phi' = 1/sqrt(1/phi^2 + 1/v), mu' = mu + phi'^2 g (s - E),
-- and sigma' is Step 5's (the same as at t = 1).  t = 0.5: phi*^2 = phi^2 + sigma'^2 / 2.
WITH g AS (
  SELECT o, s, glicko2_game(:paper, o, s) AS t0, glicko2_game(:paper, o, s, 0.5, 0.5) AS half,
         glicko2_game(:paper, o, s, 0.5, 1) AS t1,
         200 / 173.7178 AS phi,
         1 / sqrt(1 + 3 * ((o).rd / 173.7178) ^ 2 / pi() ^ 2) AS gj
  FROM (VALUES (glicko2_rating(1400, 30, 0.06), 1::float8), (glicko2_rating(1550, 100, 0.06), 0),
               (glicko2_rating(1700, 300, 0.06), 0)) x(o, s)
), e AS (
  SELECT *, 1 / (1 + exp(-gj * (0 - ((o).rating - 1500) / 173.7178))) AS ej FROM g
), v AS (
  SELECT *, 1 / (gj ^ 2 * ej * (1 - ej)) AS v FROM e
), want AS (
  SELECT *, 1 / sqrt(1 / phi ^ 2 + 1 / v) AS phi0,
         1 / sqrt(1 / (phi ^ 2 + 0.5 * (t1).volatility ^ 2) + 1 / v) AS phi_half FROM v
)
SELECT (o).rating AS opponent, round((t0).rating::numeric, 4) AS rating_t0,
       round((t0).rd::numeric, 4) AS rd_t0, round((half).rd::numeric, 4) AS rd_half,
       round((t1).rd::numeric, 4) AS rd_t1,
       abs((t0).rd / (173.7178 * phi0) - 1) < 1e-12 AS rd_t0_ok,
       abs((t0).rating / (1500 + 173.7178 * phi0 ^ 2 * gj * (s - ej)) - 1) < 1e-12 AS rating_t0_ok,
       abs((half).rd / (173.7178 * phi_half) - 1) < 1e-12 AS rd_half_ok,
       abs((half).rating / (1500 + 173.7178 * phi_half ^ 2 * gj * (s - ej)) - 1) < 1e-12 AS rating_half_ok,
       (t0).volatility = (t1).volatility AND (half).volatility = (t1).volatility AS same_volatility,
       (t0).rd < (half).rd AND (half).rd < (t1).rd AS rd_grows_with_t
FROM want ORDER BY 1;

-- Unrated against unrated, a draw: the rating stays 1500.
SELECT glicko2_game(NULL, NULL, 0.5) AS unrated_draw;

-- Volatility, strictness, parallel safety as declared.
SELECT p.oid::regprocedure, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p WHERE p.proname IN ('glicko2_game', 'glicko2_rating_at') ORDER BY 1;

-- Bad input: clear errors.
SELECT glicko2_game(:paper, NULL, NULL);
SELECT glicko2_game(:paper, NULL, 'NaN');
SELECT glicko2_game(:paper, NULL, 1.5);
SELECT glicko2_game(:paper, NULL, -0.1);
SELECT glicko2_game(:paper, NULL, 1, elapsed_periods => -1);
SELECT glicko2_game(:paper, NULL, 1, elapsed_periods => 'NaN');
SELECT glicko2_game(:paper, NULL, 1, elapsed_periods => 'Infinity');
SELECT glicko2_game(:paper, NULL, 1, elapsed_periods => NULL);
SELECT glicko2_game(:paper, NULL, 1, tau => 0);
SELECT glicko2_game(:paper, NULL, 1, tau => 'NaN');
SELECT glicko2_game(:paper, NULL, 1, tau => NULL);
SELECT glicko2_game(ROW('NaN', 200, 0.06)::glicko2_rating, NULL, 1);
SELECT glicko2_game(:paper, ROW(1500, -1, 0.06)::glicko2_rating, 1);
SELECT glicko2_game(:paper, ROW(1500, 200, NULL)::glicko2_rating, 1);
