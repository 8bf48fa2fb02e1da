-- glicko2_close_matches refuses bad rows and bad arguments before anything
-- changes, each with a clear error naming the match, player, team or column.
CREATE SCHEMA matches_bad;
SET search_path = matches_bad, public;
\set SHOW_CONTEXT never
SET client_min_messages = error;   -- (no guard trigger on these tables)

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings VALUES (1, glicko2_rating(1600, 100)), (2, glicko2_rating(1400, 50)),
                           (3, glicko2_rating(1500, 80)), (4, NULL);
CREATE TABLE snapshot AS SELECT * FROM ratings;
CREATE TABLE matches (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('matches');
-- A good match in every period, so only the bad rows below are at fault.
INSERT INTO matches SELECT 100, p, 1, 1, 1 FROM generate_series(1, 12) p;
INSERT INTO matches SELECT 100, p, 2, 2, 2 FROM generate_series(1, 12) p;
CREATE FUNCTION unchanged() RETURNS boolean LANGUAGE sql AS $$
  SELECT NOT EXISTS (SELECT FROM ratings r FULL JOIN snapshot s USING (player_id)
                     WHERE r.rating IS DISTINCT FROM s.rating)
     AND NOT EXISTS (SELECT FROM glicko2_closes WHERE ratings = 'matches_bad.ratings'::regclass)
$$;

-- A player twice in one match (on the same team).
INSERT INTO matches VALUES (7, 1, 3, 1, 1), (7, 1, 4, 2, 2), (7, 1, 3, 1, 1);
CALL glicko2_close_matches('ratings', 'matches', 1);
-- A match of one team only.
INSERT INTO matches VALUES (8, 2, 3, 1, 1), (8, 2, 4, 1, 1);
CALL glicko2_close_matches('ratings', 'matches', 2, 'composite');
-- A NULL place.
INSERT INTO matches VALUES (9, 3, 3, 1, 1), (9, 3, 4, 2, NULL);
CALL glicko2_close_matches('ratings', 'matches', 3);
-- A player on two teams.
INSERT INTO matches VALUES (10, 4, 3, 1, 1), (10, 4, 4, 2, 2), (10, 4, 3, 2, 2);
CALL glicko2_close_matches('ratings', 'matches', 4, 'composite');
-- The place of a team differing between its players.
INSERT INTO matches VALUES (11, 5, 3, 1, 1), (11, 5, 4, 1, 2), (11, 5, 5, 2, 3);
CALL glicko2_close_matches('ratings', 'matches', 5);
-- NULL match, player, team; a place below 1.
INSERT INTO matches VALUES (NULL, 6, 3, 1, 1), (NULL, 6, 4, 2, 2);
CALL glicko2_close_matches('ratings', 'matches', 6);
INSERT INTO matches VALUES (12, 7, 3, 1, 1), (12, 7, NULL, 2, 2);
CALL glicko2_close_matches('ratings', 'matches', 7);
INSERT INTO matches VALUES (13, 8, 3, 1, 1), (13, 8, 4, NULL, 2);
CALL glicko2_close_matches('ratings', 'matches', 8);
INSERT INTO matches VALUES (14, 9, 3, 1, 0), (14, 9, 4, 2, 1);
CALL glicko2_close_matches('ratings', 'matches', 9);
-- Several bad rows: the first by kind is named, all are counted.
INSERT INTO matches VALUES (15, 10, 3, 1, 1), (15, 10, 4, 1, 1), (16, 10, 3, 1, 1), (16, 10, 4, 2, 1), (16, 10, 4, 2, 1);
CALL glicko2_close_matches('ratings', 'matches', 10);
-- A rating in the ratings table that is not one (NaN RD): the reduction's
-- own error, naming the player, nothing else to blame.
INSERT INTO matches VALUES (17, 11, 3, 1, 1), (17, 11, 4, 2, 2);
UPDATE ratings SET rating = '(1500,NaN,0.06)' WHERE player_id = 3;
CALL glicko2_close_matches('ratings', 'matches', 11);
UPDATE ratings SET rating = glicko2_rating(1500, 80) WHERE player_id = 3;
SELECT unchanged();

-- Weights (a column named weight is read without being named): 0, above 1,
-- NaN, NULL, negative, each named with its player; a weight column that is
-- not there or not a number.
CREATE TABLE wmatches (match_id int, period int, player_id int, team int, place int, weight float8);
CALL glicko2_guard_games('wmatches');
INSERT INTO wmatches VALUES (1, 1, 3, 1, 1, 1), (1, 1, 4, 2, 2, 0),
                            (2, 2, 3, 1, 1, 1.5), (2, 2, 4, 2, 2, 1),
                            (3, 3, 3, 1, 1, 'NaN'), (3, 3, 4, 2, 2, 1),
                            (4, 4, 3, 1, 1, NULL), (4, 4, 4, 2, 2, 1),
                            (5, 5, 3, 1, 1, -0.5), (5, 5, 4, 2, 2, 1), (5, 5, 1, 2, 2, 0.5);
CALL glicko2_close_matches('ratings', 'wmatches', 1);
CALL glicko2_close_matches('ratings', 'wmatches', 2, 'mean');
CALL glicko2_close_matches('ratings', 'wmatches', 3, 'individual');
CALL glicko2_close_matches('ratings', 'wmatches', 4, 'composite');
CALL glicko2_close_matches('ratings', 'wmatches', 5);
CALL glicko2_close_matches('ratings', 'matches', 12, weight_column => 'weight');
ALTER TABLE wmatches ADD COLUMN share text;
CALL glicko2_close_matches('ratings', 'wmatches', 1, weight_column => 'share');
SELECT unchanged();

-- Bad arguments.
CALL glicko2_close_matches('ratings', 'matches', 12, 'team');
CALL glicko2_close_matches('ratings', 'matches', 12, NULL);
CALL glicko2_close_matches('ratings', NULL, 12);
CALL glicko2_close_matches('ratings', 'matches', 12, tau => 0);
CALL glicko2_close_matches('ratings', 'matches', 12, max_rd => 'NaN');
CALL glicko2_close_matches('ratings', 'matches', 12, match_column => 'game');
CALL glicko2_close_matches('ratings', 'matches', 12, team_column => NULL);
CALL glicko2_close_matches('ratings', 'matches', 'x'::text);
CREATE TABLE text_places (match_id int, period int, player_id int, team int, place text);
CALL glicko2_close_matches('ratings', 'text_places', 1);
CREATE TABLE text_players (match_id int, period int, player_id text, team int, place int);
CALL glicko2_close_matches('ratings', 'text_players', 1);
CALL glicko2_close_matches('matches', 'matches', 12, player_column => 'match_id', rating_column => 'team');
BEGIN ISOLATION LEVEL REPEATABLE READ;
CALL glicko2_close_matches('ratings', 'matches', 12);
ROLLBACK;
-- All or nothing: the history insert fails after the ratings are written.
CREATE TABLE history (player_id int, period int, rating glicko2_rating CHECK (player_id <> 2));
CALL glicko2_close_matches('ratings', 'matches', 12, history => 'history');
SELECT unchanged(), (SELECT count(*) FROM history) AS history_rows;

-- Identifiers are identifiers: tables and columns whose names are SQL.
CREATE TABLE "ratings""; DROP TABLE ratings; --" ("player id" int PRIMARY KEY, "r;" glicko2_rating);
CREATE TABLE "matches; DROP TABLE ratings" ("m)" int, "p(" int, player_id int, "t'" int, "p""" int);
INSERT INTO "matches; DROP TABLE ratings" VALUES (1, 1, 1, 1, 1), (1, 1, 2, 2, 2);
CALL glicko2_guard_games('"matches; DROP TABLE ratings"', period_column => 'p(');
CALL glicko2_close_matches('"ratings""; DROP TABLE ratings; --"', '"matches; DROP TABLE ratings"', 1,
                           player_column => 'player id', rating_column => 'r;', period_column => 'p(',
                           match_column => 'm)', team_column => 't''', place_column => 'p"');
SELECT count(*) AS players FROM "ratings""; DROP TABLE ratings; --";
SELECT unchanged();

DROP SCHEMA matches_bad CASCADE;
