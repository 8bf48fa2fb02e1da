-- glicko2_close_matches: a period closed from team and free-for-all matches
-- gives every player the rating glicko2_period gives on the one-on-one games
-- written out here by hand, bit for bit, with every guarantee of
-- glicko2_close_period (shared record, exactly once, idle and new players,
-- history, guard trigger).
CREATE SCHEMA matches_close;
SET search_path = matches_close, public;
\set SHOW_CONTEXT never

CREATE TABLE base (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO base VALUES
  (1, glicko2_rating(1600, 100)), (2, glicko2_rating(1400, 50)), (3, glicko2_rating(1550, 200, 0.05)),
  (5, glicko2_rating(1700, 80)), (6, glicko2_rating(1500, 120)), (7, glicko2_rating(1450, 60, 0.07)),
  (10, glicko2_rating(1500, 300)), (11, glicko2_rating(1400, 80)), (12, glicko2_rating(1500, 100)),
  (13, glicko2_rating(1600, 120)),
  (14, glicko2_rating(1500, 349.9)), -- idle: Step 6 takes RD past 350, capped
  (15, NULL);                        -- idle and unrated: stays NULL
CREATE TABLE matches (match_id int, period int, player_id int, team text, place int);
CALL glicko2_guard_games('matches');
-- Period 1: a 2v2 (red wins; player 4 is new), a 3-team free-for-all with
-- a tie (A first, B and C tied second; 8 and 9 are new), a 1v3 won by the
-- lone player.
INSERT INTO matches VALUES
  (1, 1, 1, 'red', 1), (1, 1, 2, 'red', 1), (1, 1, 3, 'blue', 2), (1, 1, 4, 'blue', 2),
  (2, 1, 5, 'A', 1), (2, 1, 6, 'A', 1), (2, 1, 7, 'B', 2), (2, 1, 8, 'C', 2), (2, 1, 9, 'C', 2),
  (3, 1, 10, 'solo', 1), (3, 1, 11, 'trio', 2), (3, 1, 12, 'trio', 2), (3, 1, 13, 'trio', 2);

-- 'individual' by hand: every pair of players of different teams, one row
-- per game side (score = player_id's result), each weighted 1/k against a
-- team of k players and, in the match of 3 teams, by
-- lambda_3 = 4 (3 - H_3) / (3 * 2) = 7/9.  Each side's terms written out in
-- SQL (g^2 E (1 - E) and g (s - E), times the weight) and updated by the
-- close's pass: the same ratings to 1e-9.
CREATE TABLE hand_games (player_id int, opponent_id int, score float8, w float8);
INSERT INTO hand_games VALUES
  (1, 3, 1, 0.5), (1, 4, 1, 0.5), (2, 3, 1, 0.5), (2, 4, 1, 0.5),
  (3, 1, 0, 0.5), (3, 2, 0, 0.5), (4, 1, 0, 0.5), (4, 2, 0, 0.5),
  (5, 7, 1, 7/9.0), (5, 8, 1, 7/18.0), (5, 9, 1, 7/18.0), (6, 7, 1, 7/9.0), (6, 8, 1, 7/18.0), (6, 9, 1, 7/18.0),
  (7, 5, 0, 7/18.0), (7, 6, 0, 7/18.0), (7, 8, 0.5, 7/18.0), (7, 9, 0.5, 7/18.0),
  (8, 5, 0, 7/18.0), (8, 6, 0, 7/18.0), (8, 7, 0.5, 7/9.0), (9, 5, 0, 7/18.0), (9, 6, 0, 7/18.0), (9, 7, 0.5, 7/9.0),
  (10, 11, 1, 1/3.0), (10, 12, 1, 1/3.0), (10, 13, 1, 1/3.0),
  (11, 10, 0, 1), (12, 10, 0, 1), (13, 10, 0, 1);
CREATE TABLE hand_terms AS
SELECT h.player_id, h.w * g * g * e * (1 - e) AS information, h.w * g * (h.score - e) AS surprise
FROM hand_games h LEFT JOIN base r USING (player_id) LEFT JOIN base o ON o.player_id = h.opponent_id,
     LATERAL (SELECT 1 / sqrt(1 + 3 * (coalesce((o.rating).rd, 350) / 173.7178) ^ 2 / pi() ^ 2) AS g) gx,
     LATERAL (SELECT 1 / (1 + exp(-g * (coalesce((r.rating).rating, 1500) - coalesce((o.rating).rating, 1500))
                                  / 173.7178)) AS e) ex;
CREATE TABLE r_by_hand AS
SELECT player AS player_id, rating FROM glicko2_close_ratings(
  'SELECT player_id, rating FROM matches_close.base',
  'SELECT player_id, information, surprise FROM matches_close.hand_terms', 0.5, 350, 'by hand', 'terms')
  AS c(player int, rating glicko2_rating, games bigint, is_new boolean);
CREATE TABLE r_individual (LIKE base INCLUDING ALL);
INSERT INTO r_individual SELECT * FROM base;
CREATE TABLE history (player_id int, period int, rating glicko2_rating);
CALL glicko2_close_matches('r_individual', 'matches', 1, 'individual', history => 'history');
SELECT count(*) AS players,
       count(*) FILTER (WHERE (i.rating IS NULL AND h.rating IS NULL) OR
                              (abs((i.rating).rating - (h.rating).rating) < 1e-9 AND abs((i.rating).rd - (h.rating).rd) < 1e-9
                               AND abs((i.rating).volatility - (h.rating).volatility) < 1e-12)) AS as_by_hand
FROM r_individual i FULL JOIN r_by_hand h USING (player_id);

-- 'composite' by hand: each player against each other team's mean rating,
-- RD and volatility (new players 1500 / 350 / 0.06):
--   red  = (1600 + 1400) / 2, (100 + 50) / 2          = 1500 / 75 / 0.06
--   blue = (1550 + 1500) / 2, (200 + 350) / 2, ...    = 1525 / 275 / 0.055
--   A = 1600 / 100 / 0.06, B = player 7, C = 1500 / 350 / 0.06
--   solo = player 10, trio = (1400 + 1500 + 1600) / 3, (80 + 100 + 120) / 3 = 1500 / 100 / 0.06
CREATE TABLE hand_sides (player_id int, opponent glicko2_rating, score float8);
INSERT INTO hand_sides VALUES
  (1, '(1525,275,0.055)', 1), (2, '(1525,275,0.055)', 1),
  (3, '(1500,75,0.06)', 0), (4, '(1500,75,0.06)', 0),
  (5, '(1450,60,0.07)', 1), (5, '(1500,350,0.06)', 1), (6, '(1450,60,0.07)', 1), (6, '(1500,350,0.06)', 1),
  (7, '(1600,100,0.06)', 0), (7, '(1500,350,0.06)', 0.5),
  (8, '(1600,100,0.06)', 0), (8, '(1450,60,0.07)', 0.5), (9, '(1600,100,0.06)', 0), (9, '(1450,60,0.07)', 0.5),
  (10, '(1500,100,0.06)', 1),
  (11, '(1500,300,0.06)', 0), (12, '(1500,300,0.06)', 0), (13, '(1500,300,0.06)', 0);
CREATE TABLE r_composite (LIKE base INCLUDING ALL);
INSERT INTO r_composite SELECT * FROM base;
CALL glicko2_close_matches('r_composite', 'matches', 1, 'composite');
CREATE TABLE hand_composite AS
SELECT coalesce(b.player_id, p.player_id) AS player_id,
       coalesce(p.rating, glicko2_idle(b.rating)) AS rating
FROM base b FULL JOIN (SELECT h.player_id, glicko2_period(r.rating, h.opponent, h.score) AS rating
                       FROM hand_sides h LEFT JOIN base r USING (player_id)
                       GROUP BY h.player_id) p USING (player_id);
SELECT count(*) AS players,
       count(*) FILTER (WHERE c.rating IS NOT DISTINCT FROM h.rating) AS same_bits
FROM r_composite c FULL JOIN hand_composite h USING (player_id);

-- Both methods side by side; idle 14 capped at RD 350, idle 15 still NULL,
-- new players 4, 8 and 9 added.
SELECT player_id, round((i.rating).rating::numeric, 2) AS individual, round((i.rating).rd::numeric, 2) AS rd,
       round((c.rating).rating::numeric, 2) AS composite, round((c.rating).rd::numeric, 2) AS rd
FROM r_individual i JOIN r_composite c USING (player_id) ORDER BY player_id;

-- The record is glicko2_close_period's: rows of the matches table as games.
SELECT ratings, period, close_number, games_table, players, played, new_players, games, tau, max_rd
FROM glicko2_closes WHERE ratings IN ('r_individual'::regclass, 'r_composite'::regclass) ORDER BY ratings;
SELECT count(*) AS history_rows, count(*) FILTER (WHERE h.rating IS NOT DISTINCT FROM r.rating) AS equal_to_ratings
FROM history h JOIN r_individual r USING (player_id) WHERE h.period = 1;

-- Exactly once, in order, whichever procedure closes: period 1 of
-- r_individual is closed, by glicko2_close_period too; period 2 closed by
-- glicko2_close_period is closed for glicko2_close_matches.
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('games');
INSERT INTO games VALUES (2, 1, 2, 1);
CALL glicko2_close_period('r_individual', 'games', 1);
CALL glicko2_close_matches('r_individual', 'matches', 1);
CALL glicko2_close_period('r_individual', 'games', 2);
CALL glicko2_close_matches('r_individual', 'matches', 2);
CALL glicko2_close_matches('r_individual', 'matches', 0);
INSERT INTO matches VALUES (4, 3, 1, 'x', 1), (4, 3, 2, 'y', 2);
CALL glicko2_close_matches('r_individual', 'matches', 3);
SELECT period, close_number, games_table FROM glicko2_closes
WHERE ratings = 'r_individual'::regclass ORDER BY close_number;

-- The guard trigger refuses rows written to a closed period of a matches table.
INSERT INTO matches VALUES (5, 1, 1, 'x', 1);
UPDATE matches SET place = 2 WHERE match_id = 1 AND player_id = 1;
DELETE FROM matches WHERE match_id = 4;
TRUNCATE matches;
INSERT INTO matches VALUES (5, 4, 1, 'x', 1);

-- A 1v1 match is glicko2_close_period's game, bit for bit, with every
-- method: a win, and a draw.
CREATE TABLE m1v1 (match_id int, period int, player_id int, team int, place int);
INSERT INTO m1v1 VALUES (1, 1, 1, 1, 2), (1, 1, 2, 2, 1), (2, 2, 1, 1, 1), (2, 2, 2, 2, 1);
CREATE TABLE g1v1 (period int, player_id int, opponent_id int, score float8);
INSERT INTO g1v1 VALUES (1, 1, 2, 0), (2, 2, 1, 0.5);
CALL glicko2_guard_games('m1v1');
CALL glicko2_guard_games('g1v1');
CREATE TABLE r1_individual (LIKE base INCLUDING ALL);
CREATE TABLE r1_composite (LIKE base INCLUDING ALL);
CREATE TABLE r1_sum (LIKE base INCLUDING ALL);
CREATE TABLE r1_mean (LIKE base INCLUDING ALL);
CREATE TABLE r1_games (LIKE base INCLUDING ALL);
INSERT INTO r1_individual SELECT * FROM base;
INSERT INTO r1_composite SELECT * FROM base;
INSERT INTO r1_sum SELECT * FROM base;
INSERT INTO r1_mean SELECT * FROM base;
INSERT INTO r1_games SELECT * FROM base;
CALL glicko2_close_matches('r1_individual', 'm1v1', 1, 'individual');
CALL glicko2_close_matches('r1_composite', 'm1v1', 1, 'composite');
CALL glicko2_close_matches('r1_sum', 'm1v1', 1);
CALL glicko2_close_matches('r1_mean', 'm1v1', 1, 'mean');
CALL glicko2_close_period('r1_games', 'g1v1', 1);
CALL glicko2_close_matches('r1_individual', 'm1v1', 2, 'individual');
CALL glicko2_close_matches('r1_composite', 'm1v1', 2, 'composite');
CALL glicko2_close_matches('r1_sum', 'm1v1', 2, 'sum');
CALL glicko2_close_matches('r1_mean', 'm1v1', 2, 'mean');
CALL glicko2_close_period('r1_games', 'g1v1', 2);
SELECT count(*) AS players,
       count(*) FILTER (WHERE i.rating IS NOT DISTINCT FROM g.rating) AS individual_same_bits,
       count(*) FILTER (WHERE c.rating IS NOT DISTINCT FROM g.rating) AS composite_same_bits,
       count(*) FILTER (WHERE s.rating IS NOT DISTINCT FROM g.rating) AS sum_same_bits,
       count(*) FILTER (WHERE m.rating IS NOT DISTINCT FROM g.rating) AS mean_same_bits,
       count(*) FILTER (WHERE g.rating IS DISTINCT FROM b.rating) AS moved
FROM r1_games g JOIN r1_individual i USING (player_id) JOIN r1_composite c USING (player_id)
JOIN r1_sum s USING (player_id) JOIN r1_mean m USING (player_id)
JOIN base b USING (player_id);

-- The computation inside the one writing statement (a temporary table of the
-- close's name is taken) gives the same bits.
CREATE TABLE r_in_statement (LIKE base INCLUDING ALL);
INSERT INTO r_in_statement SELECT * FROM base;
BEGIN;
CREATE TEMPORARY TABLE glicko2_close_played (x int);
CALL glicko2_close_matches('r_in_statement', 'matches', 1, 'composite');
COMMIT;
SELECT count(*) FILTER (WHERE s.rating IS NOT DISTINCT FROM c.rating) AS same_bits
FROM r_in_statement s FULL JOIN r_composite c USING (player_id);

-- Column names of both tables overridable; text keys; a history table.
CREATE TABLE club (who text PRIMARY KEY, elo glicko2_rating);
INSERT INTO club VALUES ('ann', glicko2_rating(1500, 200)), ('bob', glicko2_rating(1600, 50));
CREATE TABLE results (game bigint, round text, name text, side char, rank smallint);
INSERT INTO results VALUES (1, '2024-01', 'ann', 'N', 1), (1, '2024-01', 'bob', 'S', 2),
                           (1, '2024-01', 'cid', 'S', 2);
CREATE TABLE club_history (player_id text, period text, rating glicko2_rating);
CALL glicko2_guard_games('results', period_column => 'round');
CALL glicko2_close_matches('club', 'results', '2024-01'::text, 'composite', tau => 0.3, max_rd => NULL,
                           history => 'club_history', player_column => 'who', rating_column => 'elo',
                           period_column => 'round', match_column => 'game', match_player_column => 'name',
                           team_column => 'side', place_column => 'rank');
-- (guarded by its own period column)
INSERT INTO results VALUES (2, '2024-01', 'ann', 'N', 1);
SELECT who, elo = (SELECT glicko2_period(glicko2_rating(1500, 200), glicko2_rating(1550, 200), 1, 0.3)) AS ann_by_hand
FROM club WHERE who = 'ann';
SELECT who, round((elo).rating::numeric, 2) AS rating FROM club ORDER BY who;
SELECT player_id, period FROM club_history ORDER BY player_id;

DROP SCHEMA matches_close CASCADE;
