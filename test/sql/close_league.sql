-- glicko2_close_period, guarantee 1: every player moves on exactly one period.
-- Played: the paper's update from both sides' pre-period ratings; idle: Step 6
-- capped at max_rd; new: added as unrated, then rated.  Guarantee 7: the
-- record of closes and the history table.
CREATE SCHEMA close_league;
SET search_path = close_league, public;

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings VALUES
  (1, glicko2_rating(1500, 200, 0.06)),   -- the paper's player
  (2, glicko2_rating(1400, 30, 0.06)),    -- the paper's opponents
  (3, glicko2_rating(1550, 100, 0.06)),
  (4, glicko2_rating(1700, 300, 0.06)),
  (5, glicko2_rating(1600, 80, 0.06)),    -- idle
  (6, glicko2_rating(1500, 349.9, 0.06)), -- idle, reaches the cap
  (7, NULL);                              -- idle and unrated: stays unrated
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('games');
INSERT INTO games VALUES
  (1, 1, 2, 1),    -- 1 beats 2
  (1, 3, 1, 1),    -- 3 beats 1, written from 3's side
  (1, 1, 4, 0),    -- 1 loses to 4; 4 appears only as an opponent
  (1, 2, 8, 0.5),  -- 8 is not in the ratings table and appears only as an opponent
  (2, 5, 1, 0);    -- next period: not part of period 1
CREATE TABLE history (player_id int, period int, rating glicko2_rating, PRIMARY KEY (player_id, period));

CALL glicko2_close_period('ratings', 'games', 1, history => 'history');
SELECT * FROM ratings ORDER BY player_id;

-- Player 1 is the paper's example: 1464.0506705393013 / 151.51652412385727 /
-- 0.059995984286488495 (exact double arithmetic); the paper prints RD 151.52.
SELECT abs((rating).rating / 1464.0506705393013 - 1) < 1e-9 AS rating_exact,
       abs((rating).rd / 151.51652412385727 - 1) < 1e-9 AS rd_exact,
       abs((rating).volatility / 0.059995984286488495 - 1) < 1e-9 AS volatility_exact,
       round((rating).rd::numeric, 2) AS printed_rd
FROM ratings WHERE player_id = 1;

-- Each player with games equals the aggregate over that player's games,
-- written out by hand from the pre-period ratings (both sides of each game).
WITH expected(player_id, rating) AS (
  SELECT 2, glicko2_period(glicko2_rating(1400, 30, 0.06), o, s)
    FROM (VALUES (glicko2_rating(1500, 200, 0.06), 0.0), (NULL::glicko2_rating, 0.5)) v(o, s)
  UNION ALL
  SELECT 3, glicko2_period(glicko2_rating(1550, 100, 0.06), glicko2_rating(1500, 200, 0.06), 1)
  UNION ALL
  SELECT 4, glicko2_period(glicko2_rating(1700, 300, 0.06), glicko2_rating(1500, 200, 0.06), 1)
  UNION ALL
  SELECT 8, glicko2_period(NULL, glicko2_rating(1400, 30, 0.06), 0.5)
)
SELECT e.player_id,
       abs((r.rating).rating - (e.rating).rating) < 1e-9 * abs((e.rating).rating)
       AND abs((r.rating).rd - (e.rating).rd) < 1e-9 * (e.rating).rd
       AND abs((r.rating).volatility - (e.rating).volatility) < 1e-9 * (e.rating).volatility AS as_by_hand
FROM expected e JOIN ratings r USING (player_id) ORDER BY 1;

-- By hand: player 4 beat a weaker player, so moves up, its RD shrinks;
-- 2 drew an unrated player and lost to 1: moves down a little.
SELECT (rating).rating > 1700 AND (rating).rd < 300 AS four_up FROM ratings WHERE player_id = 4;
SELECT (rating).rating < 1400 AS two_down FROM ratings WHERE player_id = 2;

-- Idle: Step 6 alone, rating and volatility unchanged, RD = 173.7178 sqrt((80/173.7178)^2 + 0.06^2).
SELECT (rating).rating = 1600 AND (rating).volatility = 0.06 AS unchanged,
       abs((rating).rd - 173.7178 * sqrt((80 / 173.7178)^2 + 0.06^2)) < 1e-9 AS step6_by_hand
FROM ratings WHERE player_id = 5;
-- Capped at max_rd = 350; an unrated idle player stays unrated.
SELECT player_id, rating FROM ratings WHERE player_id IN (6, 7) ORDER BY 1;

-- The record of the close and the history of every player.
SELECT ratings, period, close_number, games_table, closed_by = current_user AS by_me,
       closed_at <= clock_timestamp() AS closed_at_set,
       players, played, new_players, games, tau, max_rd
FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
SELECT count(*) AS history_rows, bool_and(h.rating IS NOT DISTINCT FROM r.rating) AS history_is_ratings
FROM history h JOIN ratings r USING (player_id) WHERE h.period = 1;

-- Period 2 starts from period 1's ratings: 5 loses to 1, other options.
CREATE TEMP TABLE before AS SELECT * FROM ratings;
CALL glicko2_close_period('ratings', 'games', 2, tau => 0.3, max_rd => 100, history => 'history');
SELECT r.player_id,
       r.rating = (SELECT glicko2_period(b5.rating, b1.rating, 0, 0.3)
                   FROM before b5, before b1 WHERE b5.player_id = 5 AND b1.player_id = 1) AS five_as_by_hand
FROM ratings r WHERE r.player_id = 5;
SELECT r.player_id,
       abs((r.rating).rating - (glicko2_period(b.rating, o.rating, 1, 0.3)).rating) < 1e-9 AS one_as_by_hand
FROM ratings r, before b, before o
WHERE r.player_id = 1 AND b.player_id = 1 AND o.player_id = 5
GROUP BY r.player_id, r.rating;
-- max_rd => 100: idle RDs above 100 are kept, never lowered; those below grow up to it.
SELECT r.player_id, (r.rating).rd = (b.rating).rd AS rd_kept, (r.rating).rd <= 100 AS capped
FROM ratings r JOIN before b USING (player_id) WHERE r.player_id IN (3, 6) ORDER BY 1;
SELECT period, close_number, players, played, new_players, games, tau, max_rd
FROM glicko2_closes WHERE ratings = 'ratings'::regclass ORDER BY close_number;
SELECT period, count(*) FROM history GROUP BY period ORDER BY period;

-- Any key type, column names overridden, games from a view, text periods.
CREATE TABLE club (member text PRIMARY KEY, strength glicko2_rating NOT NULL);
INSERT INTO club VALUES ('ann', glicko2_rating(1500, 200, 0.06)), ('bob', glicko2_rating(1400, 30, 0.06)),
                        ('cy', glicko2_rating(1550, 100, 0.06)), ('di', glicko2_rating(1700, 300, 0.06));
CREATE TABLE matches (month text, white text, black text, result numeric);
INSERT INTO matches VALUES ('2024-01', 'ann', 'bob', 1), ('2024-01', 'ann', 'cy', 0), ('2024-01', 'di', 'ann', 1);
CREATE VIEW club_games AS SELECT month, white, black, result FROM matches;
CALL glicko2_guard_games('club_games', period_column => 'month');
CALL glicko2_close_period('club', 'club_games', '2024-01'::text,
                          player_column => 'member', rating_column => 'strength',
                          period_column => 'month', game_player_column => 'white',
                          opponent_column => 'black', score_column => 'result');
SELECT member, strength FROM club ORDER BY member;

CREATE TABLE uuid_ratings (id uuid PRIMARY KEY, rating glicko2_rating);
CREATE TABLE uuid_games (period date, player_id uuid, opponent_id uuid, score float4);
CALL glicko2_guard_games('uuid_games');
INSERT INTO uuid_games VALUES
  ('2024-02-01', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', 1);
CALL glicko2_close_period('uuid_ratings', 'uuid_games', date '2024-02-01', player_column => 'id');
SELECT * FROM uuid_ratings ORDER BY id;
-- Both new players were rated from the unrated 1500 / 350 / 0.06 and moved symmetrically.
SELECT abs((a.rating).rating - 1500 + (b.rating).rating - 1500) < 1e-9 AS symmetric
FROM uuid_ratings a, uuid_ratings b
WHERE a.id = 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' AND b.id = 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12';
-- A bigint key with int games and an int period passed for a bigint period column.
CREATE TABLE big_ratings (player_id bigint PRIMARY KEY, rating glicko2_rating);
CREATE TABLE big_games (period bigint, player_id int, opponent_id int, score int);
CALL glicko2_guard_games('big_games');
INSERT INTO big_games VALUES (10, 1, 2, 1);
CALL glicko2_close_period('big_ratings', 'big_games', 10);
SELECT player_id, round((rating).rating::numeric, 6) FROM big_ratings ORDER BY 1;
-- An empty period still moves every player on and is recorded.
CALL glicko2_close_period('big_ratings', 'big_games', 11);
SELECT period, players, played, games FROM glicko2_closes WHERE ratings = 'big_ratings'::regclass ORDER BY close_number;

DELETE FROM glicko2_closes
WHERE ratings IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'close_league'::regnamespace);
SET client_min_messages = warning;
DROP SCHEMA close_league CASCADE;
RESET search_path;
