-- fuzz/league.sql — sample league for the SQL fuzzers: rating tables with
-- ordinary and extreme (but valid) ratings, games with every score kind,
-- Glicko-1 ratings, and a view, so that generated queries find values of
-- the extension's types to feed its functions and aggregates.
CREATE EXTENSION glicko2;
SELECT setseed(0.6);

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings
SELECT i, CASE i % 10
            WHEN 0 THEN NULL
            WHEN 1 THEN glicko2_rating(1e6 * (random() - 0.5), 1e-3 + random(), 1e-6)
            WHEN 2 THEN glicko2_rating(1500, 1e4, 5)
            ELSE glicko2_rating(1500 + 400 * (random() - 0.5), 30 + 320 * random(), 0.04 + 0.04 * random())
          END
FROM generate_series(1, 200) i;

CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
INSERT INTO games
SELECT p, 1 + (random() * 199)::int, 1 + (random() * 199)::int,
       CASE (random() * 4)::int WHEN 0 THEN 0 WHEN 1 THEN 0.5 WHEN 2 THEN 1 WHEN 3 THEN random() ELSE NULL END
FROM generate_series(1, 10) p, generate_series(1, 100);
DELETE FROM games WHERE player_id = opponent_id;

CREATE TABLE g1_ratings (player_id int PRIMARY KEY, rating glicko1_rating);
INSERT INTO g1_ratings
SELECT i, glicko1_rating(1500 + 800 * (random() - 0.5), 1 + 349 * random())
FROM generate_series(1, 100) i;

CREATE VIEW game_sides AS
SELECT g.period, g.player_id, me.rating AS player, them.rating AS opponent, g.score
FROM games g
LEFT JOIN ratings me ON me.player_id = g.player_id
LEFT JOIN ratings them ON them.player_id = g.opponent_id;

ANALYZE ratings, games, g1_ratings;
