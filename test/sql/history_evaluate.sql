-- glicko2_evaluate and glicko2_fit_tau: predictive quality of past ratings.
--
-- A tiny history, players keyed by text, periods by date:
--   period 1: ann beats bob, bob draws cat
--   period 2: ann beats bob (cat idle: Step 6)
--   period 3: cat draws ann, dan (new) beats bob
SET DateStyle = 'ISO';   -- period labels are the period column as text
CREATE TABLE tiny (period date, player_id text, opponent_id text, score float8);
INSERT INTO tiny VALUES
  ('2024-01-01', 'ann', 'bob', 1), ('2024-01-01', 'bob', 'cat', 0.5),
  ('2024-01-08', 'ann', 'bob', 1),
  ('2024-01-15', 'cat', 'ann', 0.5), ('2024-01-15', 'dan', 'bob', 1);

-- Period 1 by hand: everyone is unrated, so every prediction is q = 0.5.
--   log loss: -(s ln q + (1 - s) ln (1 - q)) = ln 2 = 0.693147 for both games
--   Brier: (0.5 - 1)^2 = 0.25 and (0.5 - 0.5)^2 = 0, mean 0.125
--   accuracy: one decisive game, predicted 0.5, half credit: 0.5
-- Later periods, from a separate implementation of the paper written for
-- this test (not the extension): after period 1 ann is 1662.31 / 290.32 (an
-- unrated player beating an unrated one); period 2 log loss 0.302133 (ann
-- beats bob with q = 0.7393), Brier 0.067996; period 3 log loss 0.605109,
-- Brier 0.081133; overall 0.579729, 0.096052, accuracy 2.5 / 3 = 0.833333.
SELECT period, n_games, n_decisive, round(log_loss::numeric, 6) AS log_loss,
       round(brier::numeric, 6) AS brier, round(accuracy::numeric, 6) AS accuracy
FROM glicko2_evaluate('tiny');

-- The same numbers computed independently: ratings period by period with
-- the aggregate and glicko2_idle, predictions with the paper's E using the
-- combined deviation phi = sqrt(phi_a^2 + phi_b^2) on the Glicko-2 scale
-- (what glicko2_win_probability documents), written out here from the paper.
CREATE TABLE tiny_expected AS
WITH sides AS (
  SELECT period, player_id AS me, opponent_id AS them, score FROM tiny
  UNION ALL SELECT period, opponent_id, player_id, 1 - score FROM tiny
), r1 AS (          -- after period 1 (ann, bob, cat), from unrated
  SELECT me, glicko2_period(glicko2_rating(), glicko2_rating(), score) AS r
  FROM sides WHERE period = '2024-01-01' GROUP BY me
), r2 AS (          -- after period 2: ann and bob play, cat idles
  SELECT s.me, glicko2_period(a.r, b.r, s.score) AS r
  FROM sides s JOIN r1 a ON a.me = s.me JOIN r1 b ON b.me = s.them
  WHERE s.period = '2024-01-08' GROUP BY s.me
  UNION ALL SELECT me, glicko2_idle(r, 1, 350) FROM r1 WHERE me = 'cat'
), pre AS (         -- each game with both pre-period ratings
  SELECT t.period, t.score AS s, glicko2_rating() AS a, glicko2_rating() AS b
  FROM tiny t WHERE t.period = '2024-01-01'
  UNION ALL
  SELECT t.period, t.score, a.r, b.r FROM tiny t JOIN r1 a ON a.me = t.player_id
  JOIN r1 b ON b.me = t.opponent_id WHERE t.period = '2024-01-08'
  UNION ALL
  SELECT t.period, t.score, coalesce(a.r, glicko2_rating()), b.r FROM tiny t
  LEFT JOIN r2 a ON a.me = t.player_id JOIN r2 b ON b.me = t.opponent_id
  WHERE t.period = '2024-01-15'
), q AS (
  SELECT period, s,
         1 / (1 + exp(-(1 / sqrt(1 + 3 * phi2 / pi() ^ 2)) * ((a).rating - (b).rating) / 173.7178)) AS q
  FROM (SELECT *, ((a).rd ^ 2 + (b).rd ^ 2) / 173.7178 ^ 2 AS phi2 FROM pre) x
)
SELECT period::text AS period, count(*) AS n_games,
       avg(-(s * ln(q) + (1 - s) * ln(1 - q))) AS log_loss,
       avg((q - s) ^ 2) AS brier,
       avg(CASE WHEN q = 0.5 THEN 0.5 WHEN (q > 0.5) = (s > 0.5) THEN 1 ELSE 0 END)
         FILTER (WHERE s <> 0.5) AS accuracy
FROM q GROUP BY ROLLUP (period);
SELECT period, round(log_loss::numeric, 6) AS log_loss, round(brier::numeric, 6) AS brier,
       accuracy FROM tiny_expected ORDER BY period NULLS LAST;
SELECT e.period, abs(e.log_loss - x.log_loss) < 1e-12 AS log_loss_ok,
       abs(e.brier - x.brier) < 1e-12 AS brier_ok,
       e.n_games = x.n_games AS n_ok,
       e.accuracy = x.accuracy AS accuracy_ok
FROM glicko2_evaluate('tiny') e JOIN tiny_expected x ON x.period IS NOT DISTINCT FROM e.period
ORDER BY e.period NULLS LAST;
-- Overall log loss and Brier are the means over games, not over periods.
SELECT abs(log_loss - (ln(2) * 2 + (SELECT log_loss FROM tiny_expected WHERE period = '2024-01-08')
                       + 2 * (SELECT log_loss FROM tiny_expected WHERE period = '2024-01-15')) / 5) < 1e-12
       AS overall_is_per_game
FROM glicko2_evaluate('tiny') WHERE period IS NULL;

-- Whichever side a game is written from, the prediction is the same
-- (win probability is symmetric: p(a, b) = 1 - p(b, a)).
CREATE TABLE tiny_flipped AS
SELECT period, opponent_id AS player_id, player_id AS opponent_id, 1 - score AS score FROM tiny;
SELECT bool_and(abs(a.log_loss - b.log_loss) < 1e-12 AND abs(a.brier - b.brier) < 1e-12
                AND a.accuracy = b.accuracy) AS side_does_not_matter
FROM glicko2_evaluate('tiny') a JOIN glicko2_evaluate('tiny_flipped') b
  ON a.period IS NOT DISTINCT FROM b.period;

-- Column names can be overridden; initial RD and volatility are arguments.
CREATE TABLE renamed (week date, home text, away text, result numeric);
INSERT INTO renamed SELECT * FROM tiny;
SELECT bool_and(a.log_loss = b.log_loss AND a.brier = b.brier) AS renamed_same
FROM glicko2_evaluate('tiny') a
JOIN glicko2_evaluate('renamed', period_column => 'week', game_player_column => 'home',
                      opponent_column => 'away', score_column => 'result') b
  ON a.period IS NOT DISTINCT FROM b.period;
-- A smaller starting RD changes the predictions after period 1 (0.604106
-- from the separate implementation).
SELECT round(log_loss::numeric, 6) AS log_loss_rd_200
FROM glicko2_evaluate('tiny', rd => 200, volatility => 0.06) WHERE period IS NULL;
-- It writes nothing, so it runs in a read-only transaction.
BEGIN TRANSACTION READ ONLY;
SELECT count(*) AS rows_read_only FROM glicko2_evaluate('tiny');
COMMIT;
-- An empty history: only the overall row, no games.
CREATE TABLE no_games (LIKE tiny);
SELECT * FROM glicko2_evaluate('no_games');

-- Bad input.
\set VERBOSITY terse
SELECT * FROM glicko2_evaluate('tiny', tau => 0);
SELECT * FROM glicko2_evaluate('tiny', tau => 'NaN');
SELECT * FROM glicko2_evaluate('tiny', rd => -1);
SELECT * FROM glicko2_evaluate('tiny', max_rd => 'Infinity');
SELECT * FROM glicko2_evaluate('tiny', score_column => 'points');
SELECT * FROM glicko2_evaluate('no_such_table');
INSERT INTO no_games VALUES ('2024-01-01', 'ann', 'ann', 1);
SELECT * FROM glicko2_evaluate('no_games');
TRUNCATE no_games;
INSERT INTO no_games VALUES ('2024-01-01', 'ann', 'bob', 1.5);
SELECT * FROM glicko2_evaluate('no_games');
TRUNCATE no_games;
INSERT INTO no_games VALUES ('2024-01-01', 'ann', 'bob', NULL);
SELECT * FROM glicko2_evaluate('no_games');

\set VERBOSITY default

-- glicko2_fit_tau: a seeded league of 12 players over 10 periods in which
-- two players change strength by 400 points halfway, so tau matters.
SELECT setseed(0.7) AS seeded \gset
CREATE TABLE league AS
SELECT p AS period, a AS player_id, b AS opponent_id,
       (random() < 1 / (1 + 10 ^ ((sb - sa) / 400)))::int::float8 AS score
FROM generate_series(1, 10) p, generate_series(1, 12) a, generate_series(1, 12) b,
     LATERAL (SELECT 100 * a + CASE WHEN p > 5 AND a = 3 THEN 400 WHEN p > 5 AND a = 9 THEN -400 ELSE 0 END AS sa,
                     100 * b + CASE WHEN p > 5 AND b = 3 THEN 400 WHEN p > 5 AND b = 9 THEN -400 ELSE 0 END AS sb) s
WHERE a < b AND (a + b + p) % 3 = 0
ORDER BY p, a, b;
CREATE TABLE fit AS SELECT * FROM glicko2_fit_tau('league', '{1.2, 0.3, 5, 0.3, 2}');
-- One row per distinct tau, in order; exactly one best.
SELECT tau, n_games, best FROM fit;
-- Each row is glicko2_evaluate's overall row for that tau, and the values differ.
SELECT bool_and(f.log_loss = e.log_loss AND f.brier = e.brier AND f.accuracy = e.accuracy
                AND f.n_games = e.n_games) AS rows_are_evaluate,
       count(DISTINCT f.log_loss) = 4 AS losses_differ
FROM fit f, LATERAL glicko2_evaluate('league', f.tau) e WHERE e.period IS NULL;
-- The best is the lowest log loss among separate evaluations.
SELECT (SELECT tau FROM fit WHERE best)
     = (SELECT t FROM unnest('{0.3, 1.2, 2, 5}'::float8[]) t,
                  LATERAL glicko2_evaluate('league', t) e
        WHERE e.period IS NULL ORDER BY e.log_loss LIMIT 1) AS best_is_argmin;
-- No games: nothing to fit, no best.
TRUNCATE no_games;
SELECT * FROM glicko2_fit_tau('no_games', '{0.5}');
\set VERBOSITY terse
SELECT * FROM glicko2_fit_tau('tiny', '{0.5, NULL}');
