-- Home / first-move advantage: a constant added to the player's rating
-- inside E (glicko2_period's 5-argument form, glicko2_win_probability's
-- 3-argument form, glicko2_evaluate's advantage and home_column,
-- glicko2_fit_advantage).

-- 1. Zero advantage is today's aggregate bit for bit: a seeded league of 60
-- players with spread ratings and RDs, every player's games of one period,
-- at two taus.  float8 = compares every bit that matters (and -0 = 0).
CREATE TABLE adv_league AS
SELECT i AS player_id,
       glicko2_rating(1500 + (hashint4(i) % 400), 40 + abs(hashint4(i * 7) % 300),
                      0.04 + abs(hashint4(i * 13) % 40) / 1000.0) AS r
FROM generate_series(1, 60) i;
CREATE TABLE adv_games AS
SELECT g AS game, 1 + abs(hashint4(g) % 60) AS player_id,
       1 + abs(hashint4(g + 100000) % 60) AS opponent_id,
       (abs(hashint4(g + 200000)) % 3) / 2.0::float8 AS score
FROM generate_series(1, 600) g;
DELETE FROM adv_games WHERE player_id = opponent_id;
SELECT count(*) AS players,
       count(*) FILTER (WHERE (a.x).rating = (b.x).rating AND (a.x).rd = (b.x).rd
                          AND (a.x).volatility = (b.x).volatility) AS same_bits
FROM (SELECT s.player_id, t.tau, glicko2_period(me.r, them.r, s.score, t.tau) AS x
      FROM adv_games s JOIN adv_league me USING (player_id)
      JOIN adv_league them ON them.player_id = s.opponent_id, (VALUES (0.5), (1.2)) t(tau)
      GROUP BY s.player_id, t.tau) a
JOIN (SELECT s.player_id, t.tau, glicko2_period(me.r, them.r, s.score, t.tau, 0) AS x
      FROM adv_games s JOIN adv_league me USING (player_id)
      JOIN adv_league them ON them.player_id = s.opponent_id, (VALUES (0.5), (1.2)) t(tau)
      GROUP BY s.player_id, t.tau) b USING (player_id, tau);

-- and glicko2_win_probability: zero is the 2-argument form bit for bit.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE glicko2_win_probability(a.r, b.r) = glicko2_win_probability(a.r, b.r, 0)) AS same_bits
FROM adv_league a, adv_league b;

-- 2. By hand: an unrated player at home (+100) loses to an unrated visitor.
--   phi_j = 350 / 173.7178 = 2.014762, g = 1 / sqrt(1 + 3 phi_j^2 / pi^2) = 0.669069
--   E = 1 / (1 + exp(-g (0 + 100/173.7178 - 0))) = 0.595114   (0.5 without the advantage)
--   v = 1 / (g^2 E (1 - E)) = 9.270960, Delta = v g (0 - E) = -3.691442
--   Steps 5-8 from there (a direct transcription of the paper, in Python):
--   1304.602943 / 291.974895 / 0.060000022.  The home player expected more
--   and loses more than the 1337.6 the same loss costs on neutral ground;
--   the visitor (-100) gains the same 195.397 points.
SELECT round((x).rating::numeric, 6) AS rating, round((x).rd::numeric, 6) AS rd,
       round((x).volatility::numeric, 9) AS volatility
FROM (SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 0, 0.5, 100) AS x) h
UNION ALL
SELECT round((x).rating::numeric, 6), round((x).rd::numeric, 6), round((x).volatility::numeric, 9)
FROM (SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 0.5, -100) AS x) v
UNION ALL
SELECT round((x).rating::numeric, 6), round((x).rd::numeric, 6), round((x).volatility::numeric, 9)
FROM (SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 0) AS x) n;

-- The paper's example played at home (+50) and away (-50): the same
-- transcription gives 1442.401197 / 152.026834 and 1485.259449 / 151.946795
-- (1464.050671 / 151.516524 at 0).
SELECT a AS advantage, round((x).rating::numeric, 6) AS rating, round((x).rd::numeric, 6) AS rd
FROM (VALUES (50), (-50), (0)) v(a),
     LATERAL (SELECT glicko2_period(glicko2_rating(1500, 200, 0.06), o, s, 0.5, a) AS x
              FROM (VALUES (glicko2_rating(1400, 30, 0.06), 1.0),
                           (glicko2_rating(1550, 100, 0.06), 0.0),
                           (glicko2_rating(1700, 300, 0.06), 0.0)) g(o, s)) p;

-- Win probability: a 1500/200 at home with +100 against 1600/100 is even;
-- +60 gives 1/(1 + exp(-g(hypot(200, 100)/173.7178) (1560 - 1600)/173.7178))
-- = 0.453193; the two sides' predictions add up to 1.
SELECT glicko2_win_probability(glicko2_rating(1500, 200), glicko2_rating(1600, 100), 100) AS even,
       round(glicko2_win_probability(glicko2_rating(1500, 200), glicko2_rating(1600, 100), 60)::numeric, 6) AS home_60,
       round((glicko2_win_probability(glicko2_rating(1500, 200), glicko2_rating(1600, 100), 60)
              + glicko2_win_probability(glicko2_rating(1600, 100), glicko2_rating(1500, 200), -60))::numeric, 15) AS sum;

-- 3. glicko2_evaluate.  Without home_column, or with advantage 0, or with
-- every game neutral (home NULL), it is today's evaluation bit for bit.
CREATE TABLE adv_history AS
SELECT 1 + game % 6 AS period, player_id, opponent_id, score,
       CASE game % 3 WHEN 0 THEN true WHEN 1 THEN false END AS home,
       NULL::boolean AS neutral
FROM adv_games;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE a.log_loss = b.log_loss AND a.brier = b.brier
                          AND a.accuracy IS NOT DISTINCT FROM b.accuracy
                          AND a.log_loss = c.log_loss AND a.brier = c.brier
                          AND a.accuracy IS NOT DISTINCT FROM c.accuracy) AS same_bits
FROM glicko2_evaluate('adv_history', tau => 0.7) a
JOIN glicko2_evaluate('adv_history', tau => 0.7, advantage => 0, home_column => 'home') b
  ON a.period IS NOT DISTINCT FROM b.period
JOIN glicko2_evaluate('adv_history', tau => 0.7, advantage => 90, home_column => 'neutral') c
  ON a.period IS NOT DISTINCT FROM c.period;

-- By hand, advantage 80: period 1 ann (home) beats bob, cat draws dan on
-- neutral ground; period 2 bob loses at ann's (bob -80), cat (home) beats ann.
-- Every q from glicko2_win_probability's formula with the advantage, every
-- update the paper's with E(mu + A, mu_j, phi_j), in a separate Python
-- transcription: q = 0.561512, 0.5, 0.222985, 0.448971;
-- log loss per period 0.635135, 0.526546, overall 0.580841; Brier 0.136407;
-- accuracy 2 of 3 decisive games.
CREATE TABLE adv_tiny (period int, player_id text, opponent_id text, score float8, home boolean);
INSERT INTO adv_tiny VALUES (1, 'ann', 'bob', 1, true), (1, 'cat', 'dan', 0.5, NULL),
                            (2, 'bob', 'ann', 0, false), (2, 'cat', 'ann', 1, true);
SELECT period, n_games, n_decisive, round(log_loss::numeric, 6) AS log_loss,
       round(brier::numeric, 6) AS brier, round(accuracy::numeric, 6) AS accuracy
FROM glicko2_evaluate('adv_tiny', advantage => 80, home_column => 'home');
-- Written from the other side (player and opponent swapped, score 1 - s,
-- home negated), the same evaluation.
CREATE TABLE adv_tiny_flipped AS
SELECT period, opponent_id AS player_id, player_id AS opponent_id, 1 - score AS score,
       NOT home AS home FROM adv_tiny;
SELECT a.log_loss = b.log_loss AS same_log_loss, abs(a.brier - b.brier) < 1e-15 AS same_brier
FROM glicko2_evaluate('adv_tiny', advantage => 80, home_column => 'home') a,
     glicko2_evaluate('adv_tiny_flipped', advantage => 80, home_column => 'home') b
WHERE a.period IS NULL AND b.period IS NULL;

-- glicko2_fit_advantage: the grid, best = lowest log loss.
SELECT advantage, n_games, round(log_loss::numeric, 6) AS log_loss, best
FROM glicko2_fit_advantage('adv_tiny', '{0, 80, 40}');
-- glicko2_fit_tau passes the advantage on.
SELECT f.log_loss = e.log_loss AS fit_tau_uses_advantage
FROM glicko2_fit_tau('adv_tiny', '{0.5}', advantage => 80, home_column => 'home') f,
     glicko2_evaluate('adv_tiny', advantage => 80, home_column => 'home') e
WHERE e.period IS NULL;

-- 4. Bad input: clear errors, nothing computed.
\set SHOW_CONTEXT never
SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 0.5, 'NaN');
SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 0.5, 'Infinity');
SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 0.5, '-Infinity');
SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 0.5, NULL);
SELECT glicko2_win_probability(glicko2_rating(), glicko2_rating(), 'NaN');
SELECT glicko2_win_probability(glicko2_rating(), glicko2_rating(), '-Infinity');
SELECT * FROM glicko2_evaluate('adv_tiny', advantage => 'NaN', home_column => 'home');
SELECT * FROM glicko2_evaluate('adv_tiny', advantage => 'Infinity', home_column => 'home');
SELECT * FROM glicko2_evaluate('adv_tiny', advantage => NULL, home_column => 'home');
SELECT * FROM glicko2_evaluate('adv_tiny', advantage => 80);
SELECT * FROM glicko2_evaluate('adv_tiny', advantage => 80, home_column => 'no_such_column');
SELECT * FROM glicko2_evaluate('adv_tiny', advantage => 80, home_column => 'player_id');
SELECT * FROM glicko2_fit_advantage('adv_tiny', '{0, NaN}');
