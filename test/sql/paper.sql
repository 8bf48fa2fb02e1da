-- The worked example of Glickman's "Example of the Glicko-2 system" (2022):
-- a player 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300, tau 0.5.
CREATE TABLE paper_games (opponent glicko2_rating, score float8);
INSERT INTO paper_games VALUES
  (glicko2_rating(1400, 30), 1), (glicko2_rating(1550, 100), 0), (glicko2_rating(1700, 300), 0);

-- The paper's table: g(phi_j) and E(mu, mu_j, phi_j) to the digits it prints.
SELECT (opponent).rating AS opponent,
       round(glicko2_g((opponent).rd)::numeric, 4) AS g,
       round(glicko2_expected(glicko2_rating(1500, 200, 0.06), opponent)::numeric, 3) AS e
FROM paper_games ORDER BY 1;

-- Exact double arithmetic, to 1e-9 relative (SPEC's figures).
SELECT abs(r.rating / 1464.0506705393013 - 1) < 1e-9 AS rating_exact,
       abs(r.rd / 151.51652412385727 - 1) < 1e-9 AS rd_exact,
       abs(r.volatility / 0.059995984286488495 - 1) < 1e-9 AS volatility_exact
FROM (SELECT (glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score)).*
      FROM paper_games) r;

-- The digits the paper prints, 1464.06 / 151.52 / 0.05999, agree to one unit
-- of their last digit: the paper rounds its intermediates (mu' = -0.2069 gives
-- 1464.06; the exact mu' rounds to 1464.05), so the last digit may differ.
SELECT round(r.rating::numeric, 2) AS rating, round(r.rd::numeric, 2) AS rd,
       round(r.volatility::numeric, 6) AS volatility,
       abs(r.rating - 1464.06) < 0.01 AS rating_as_printed,
       abs(r.rd - 151.52) < 0.01 AS rd_as_printed,
       abs(r.volatility - 0.05999) < 0.00001 AS volatility_as_printed
FROM (SELECT (glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score)).*
      FROM paper_games) r;

-- tau given explicitly as 0.5 is the default.
SELECT glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score, 0.5)
     = glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score) AS tau_default_is_half
FROM paper_games;
-- A larger tau lets the volatility move further from 0.06 (here: down).
SELECT abs((glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score, 1.2)).volatility - 0.06)
     > abs((glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score, 0.3)).volatility - 0.06) AS larger_tau_moves_volatility_more
FROM paper_games;

-- The order of the games does not matter (a rating period is simultaneous).
SELECT abs((glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score ORDER BY score)).rating
         - (glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score ORDER BY score DESC)).rating) < 1e-9
       AS order_free
FROM paper_games;

-- Glicko-1 on the same games: Glickman's "The Glicko system" gives 1464 / 151.4.
SELECT round(r.rating::numeric, 3) AS rating, round(r.rd::numeric, 3) AS rd
FROM (SELECT (glicko1_period(glicko1_rating(1500, 200),
                             glicko1_rating((opponent).rating, (opponent).rd), score)).*
      FROM paper_games) r;

DROP TABLE paper_games;
