-- A close never writes a rating its games cannot justify (docs/close.md):
-- a volatility raised above max(1, tau) (and by more than 1 % above its own) refuses
-- the whole close, naming the player, before anything changes.  Extreme but
-- valid input closes as before.
CREATE SCHEMA close_justified;
SET search_path = close_justified, public;
\set SHOW_CONTEXT never
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings VALUES (1, glicko2_rating(1500, 30)), (2, glicko2_rating(2500, 30)),
                           (3, glicko2_rating(1500, 200, 5)), (4, glicko2_rating(1600, 50)),
                           (5, glicko2_rating(1500, 350, 3)), (6, glicko2_rating(1500, 350));
CREATE TABLE snapshot AS SELECT * FROM ratings;
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('games');
-- Period 1: player 1 beats player 2, 1000 points better, 30 times.  The
-- paper's update would make him 54 851 with volatility 30.6.
INSERT INTO games SELECT 1, 1, 2, 1 FROM generate_series(1, 30);
SELECT glicko2_period(glicko2_rating(1500, 30), glicko2_rating(2500, 30), 1) AS what_the_aggregate_gives
FROM generate_series(1, 30);
CALL glicko2_close_period('ratings', 'games', 1);
SELECT NOT EXISTS (SELECT FROM ratings r JOIN snapshot s USING (player_id) WHERE r.rating <> s.rating)
       AND NOT EXISTS (SELECT FROM glicko2_closes WHERE ratings = 'close_justified.ratings'::regclass) AS unchanged;
-- Terms counted many times over (the pass's own form): refused the same way.
SELECT * FROM glicko2_close_ratings('SELECT 1, glicko2_rating(1500, 50)', 'SELECT 1, 100::float8, 1000::float8',
                                    0.5, 350, 'test', 'terms')
  AS c(player int, rating glicko2_rating, games bigint, is_new boolean);

-- Extreme but valid (SPEC): a 3400-point upset, a volatility of 5 with
-- tau = 10 (it falls), a volatility of 3 and a draw; and the paper's example.
DELETE FROM games;   -- (period 1 was never closed)
INSERT INTO games VALUES (1, 6, 2, 1), (1, 3, 4, 1), (1, 5, 4, 0.5);
UPDATE ratings SET rating = glicko2_rating(-900, 50) WHERE player_id = 6;
CALL glicko2_close_period('ratings', 'games', 1, tau => 10);
SELECT player_id, round((rating).rating::numeric, 3) AS rating, round((rating).rd::numeric, 3) AS rd,
       round((rating).volatility::numeric, 6) AS volatility
FROM ratings ORDER BY player_id;
CREATE TABLE paper (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO paper VALUES (1, glicko2_rating(1500, 200)), (2, glicko2_rating(1400, 30)),
                         (3, glicko2_rating(1550, 100)), (4, glicko2_rating(1700, 300));
CREATE TABLE paper_games (period int, player_id int, opponent_id int, score float8);
INSERT INTO paper_games VALUES (1, 1, 2, 1), (1, 1, 3, 0), (1, 1, 4, 0);
CALL glicko2_close_period('paper', 'paper_games', 1, unguarded => true);
SELECT round((rating).rating::numeric, 2) AS rating, round((rating).rd::numeric, 2) AS rd,
       round((rating).volatility::numeric, 5) AS volatility
FROM paper WHERE player_id = 1;

-- A league that chose tau = 5 said volatilities may move that far: the bound
-- is max(1, tau), so five losses to a player 230 points weaker, which raise
-- the volatility to 3.4 at tau = 5, close as the aggregate computes them.
CREATE TABLE r5 (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO r5 VALUES (1, glicko2_rating(1630, 90)), (2, glicko2_rating(1400, 50));
CREATE TABLE g5 (period int, player_id int, opponent_id int, score float8);
INSERT INTO g5 SELECT 1, 1, 2, 0 FROM generate_series(1, 5);
CALL glicko2_close_period('r5', 'g5', 1, tau => 5, unguarded => true);
SELECT r.rating = a.rating AS same_as_aggregate, round((r.rating).volatility::numeric, 3) AS volatility
FROM r5 r,
     (SELECT glicko2_period(glicko2_rating(1630, 90), glicko2_rating(1400, 50), 0, 5) AS rating
      FROM generate_series(1, 5)) a
WHERE r.player_id = 1;

DROP SCHEMA close_justified CASCADE;
