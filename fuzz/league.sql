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

-- Every kind of object the extension creates or writes, so that generated
-- queries also reach the closes' record, guard triggers, history, the live
-- trigger, matches and a matchmaking queue.
CREATE TABLE league_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE league_games AS
SELECT period, player_id, opponent_id, coalesce(score, 0.5) AS score FROM games WHERE period <= 4;
CREATE TABLE league_history (player_id int, period int, rating glicko2_rating);
CALL glicko2_guard_games('league_games');
CALL glicko2_close_period('league_ratings', 'league_games', 1, history => 'league_history');
CALL glicko2_close_period('league_ratings', 'league_games', 2, history => 'league_history');

CREATE TABLE live_ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE live_games (player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TRIGGER rate_games AFTER INSERT ON live_games
  FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('live_ratings');
INSERT INTO live_games
SELECT player_id, opponent_id, coalesce(score, 0), '2026-01-01'::timestamptz + i * interval '1 hour'
FROM (SELECT g.*, row_number() OVER () AS i FROM games g WHERE period = 1 LIMIT 50) x;

CREATE TABLE matches (match_id int, period int, player_id int, team int, place int);
INSERT INTO matches
SELECT m, 1 + m % 3, 1 + (m * 7 + i) % 200, i % 2, 1 + (i + m) % 2
FROM generate_series(1, 60) m, generate_series(0, 3) i;
CREATE TABLE team_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CALL glicko2_close_matches('team_ratings', 'matches', 1, unguarded => true);

CREATE TABLE queue (player_id int PRIMARY KEY, rating glicko2_rating, queued_at timestamptz);
INSERT INTO queue
SELECT player_id, rating, now() - player_id * interval '3 seconds' FROM ratings WHERE player_id <= 100;

ANALYZE league_ratings, league_games, league_history, live_ratings, live_games, matches, team_ratings, queue;
