-- bench/data.sql — synthetic league for the benchmark (psql variables
-- :players and :games).  Deterministic: setseed() fixes every random().
--   ratings(player_id, rating)                      one row per player
--   games(period, player_id, opponent_id, score)   one row per game, :games in
--                                                   each of periods 1, 2 and 3
--                                                   (in period order), indexed
--                                                   on period; period 2 is closed
--   sides(player_id, rating, opponent, score)       both sides of every game of
--                                                   period 2 with both pre-period
--                                                   ratings (when :sides is on)
SELECT setseed(0.4711) \g /dev/null

SET client_min_messages = warning;
DROP TABLE IF EXISTS ratings, games, sides;

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL);
INSERT INTO ratings
SELECT i, glicko2_rating(1500 + 350 * (random() + random() + random() - 1.5),
                         30 + 320 * random(), 0.04 + 0.04 * random())
FROM generate_series(1, :players) i;

-- Uniform random pairings; the opponent is never the player.
CREATE TABLE games (period int NOT NULL, player_id int NOT NULL,
                    opponent_id int NOT NULL, score float8 NOT NULL);
INSERT INTO games
SELECT period, p, CASE WHEN o >= p THEN o + 1 ELSE o END, floor(random() * 3) / 2
FROM generate_series(1, 3) period,
     LATERAL (SELECT 1 + floor(random() * :players)::int AS p,
                     1 + floor(random() * (:players - 1))::int AS o
              FROM generate_series(1, :games + 0 * period)) g;  -- (correlated: new games per period)
CREATE INDEX ON games (period);

-- The aggregate benchmark's input, in game order (players scattered).
CREATE TABLE sides AS
SELECT s.player_id, me.rating, them.rating AS opponent, s.score
FROM (SELECT player_id, opponent_id, score FROM games WHERE period = 2
      UNION ALL
      SELECT opponent_id, player_id, 1 - score FROM games WHERE period = 2) s
JOIN ratings me ON me.player_id = s.player_id
JOIN ratings them ON them.player_id = s.opponent_id
WHERE :'sides' = 'on';

-- Games written later to a closed period are refused (as the README advises).
CALL glicko2_guard_games('games');

VACUUM (FREEZE, ANALYZE) ratings, games, sides;
