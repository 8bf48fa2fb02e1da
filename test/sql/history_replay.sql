-- glicko2_replay and glicko2_recompute on top of glicko2_close_period.
\set VERBOSITY terse
--
-- A seeded league: 10 players, 6 periods, some players idle in some periods,
-- players 9 and 10 join in period 3; the games table is guarded.
SELECT setseed(0.25) AS seeded \gset
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
INSERT INTO games
SELECT p, a, b, round(2 * random()) / 2
FROM generate_series(1, 6) p, generate_series(1, 10) a, generate_series(1, 10) b
WHERE a < b AND (a + 2 * b + p) % 4 = 0 AND (p >= 3 OR b <= 8)
ORDER BY p, a, b;
SELECT period, count(*) AS games,
       (SELECT count(DISTINCT x) FROM games g2, LATERAL (VALUES (g2.player_id), (g2.opponent_id)) v(x)
        WHERE g2.period = g.period) AS players
FROM games g GROUP BY period ORDER BY period;
CALL glicko2_guard_games('games');

-- The league as it ran: one close per period, period 4 with another tau and
-- period 5 with no RD cap.
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL);
CREATE TABLE history (player_id int, period int, rating glicko2_rating, PRIMARY KEY (player_id, period));
CALL glicko2_close_period('ratings', 'games', 1, history => 'history');
CALL glicko2_close_period('ratings', 'games', 2, history => 'history');
CALL glicko2_close_period('ratings', 'games', 3, history => 'history');
CALL glicko2_close_period('ratings', 'games', 4, tau => 1.1, history => 'history');
CALL glicko2_close_period('ratings', 'games', 5, max_rd => NULL, history => 'history');
CALL glicko2_close_period('ratings', 'games', 6, history => 'history');
SELECT count(*) AS players, count(*) FILTER (WHERE player_id IN (9, 10)) AS late FROM ratings;
CREATE TABLE by_close AS SELECT * FROM ratings;
CREATE TABLE history_by_close AS SELECT * FROM history;
CREATE TABLE closes_by_close AS SELECT * FROM glicko2_closes;

-- Replay equals closing period by period (same tau for every period, so the
-- league is closed again that way in a second table to compare).
CREATE TABLE ratings2 (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL);
CREATE TABLE history2 (LIKE history);
CALL glicko2_close_period('ratings2', 'games', 1, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 2, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 3, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 4, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 5, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 6, history => 'history2');
CREATE TABLE ratings3 (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL);
CREATE TABLE history3 (LIKE history);
INSERT INTO ratings3 VALUES (99, glicko2_rating(2000, 50));   -- replay starts from nothing
INSERT INTO history3 VALUES (99, 0, glicko2_rating(2000, 50));
CALL glicko2_replay('ratings3', 'games', history => 'history3');
SELECT (SELECT count(*) FROM ratings2) AS players,
       (SELECT count(*) FROM ratings2 a FULL JOIN ratings3 b USING (player_id)
        WHERE a.rating IS NOT DISTINCT FROM b.rating) AS ratings_equal,
       (SELECT count(*) FROM history2) AS history_rows,
       (SELECT count(*) FROM history2 a FULL JOIN history3 b USING (player_id, period)
        WHERE a.rating IS NOT DISTINCT FROM b.rating) AS history_equal;
SELECT a.period, a.close_number, a.players, a.played, a.new_players, a.games, a.tau, a.max_rd,
       (a.players, a.played, a.new_players, a.games, a.tau, a.max_rd, a.close_number)
       = (b.players, b.played, b.new_players, b.games, b.tau, b.max_rd, b.close_number) AS same_record
FROM glicko2_closes a JOIN glicko2_closes b USING (period)
WHERE a.ratings = 'ratings2'::regclass AND b.ratings = 'ratings3'::regclass
ORDER BY a.close_number;
-- "Rating as of period P" is one query on the history table.
SELECT (rating).rating = (SELECT (rating).rating FROM history2 WHERE player_id = 9 AND period = 4) AS as_of
FROM history3 WHERE player_id = 9 AND period = 4;

-- through: replay only up to a period, with another tau.
CALL glicko2_replay('ratings3', 'games', tau => 0.3, history => 'history3', through => '4');
SELECT max(period) AS last_closed, count(*) AS closes, bool_and(tau = 0.3) AS tau_03
FROM glicko2_closes WHERE ratings = 'ratings3'::regclass;
SELECT max(period) AS last_history FROM history3;

-- The evaluation writes nothing and sees what the closes saw: its log loss
-- and Brier score equal those of the history's pre-period ratings.
WITH pred AS (
  SELECT g.period, g.score AS s,
         glicko2_win_probability(coalesce(ha.rating, glicko2_rating()), coalesce(hb.rating, glicko2_rating())) AS q
  FROM games g
  LEFT JOIN history3 ha ON ha.player_id = g.player_id AND ha.period = g.period - 1
  LEFT JOIN history3 hb ON hb.player_id = g.opponent_id AND hb.period = g.period - 1
  WHERE g.period <= 4
), m AS (
  SELECT period::text AS period, avg(-(s * ln(q) + (1 - s) * ln(1 - q))) AS log_loss, avg((q - s) ^ 2) AS brier
  FROM pred GROUP BY period
)
SELECT count(*) AS periods,
       bool_and(abs(m.log_loss - e.log_loss) < 1e-12 AND abs(m.brier - e.brier) < 1e-12) AS evaluate_equals_history
FROM m JOIN glicko2_evaluate('games', tau => 0.3) e USING (period);

-- A correction: player 3's games of period 4 are annulled (a cheat found
-- late) and one game of period 5 had its result the wrong way round.  The
-- guard refuses to change a closed period...
DELETE FROM games WHERE period = 4 AND 3 IN (player_id, opponent_id);
-- ... so in one transaction: lift the guard, correct, recompute.
BEGIN;
ALTER TABLE games DISABLE TRIGGER refuse_closed_games;
SELECT count(*) AS annulled FROM games WHERE period = 4 AND 3 IN (player_id, opponent_id);
DELETE FROM games WHERE period = 4 AND 3 IN (player_id, opponent_id);
UPDATE games SET score = 1 - score
WHERE (period, player_id, opponent_id) = (SELECT period, player_id, opponent_id FROM games
                                          WHERE period = 5 AND score <> 0.5 ORDER BY player_id, opponent_id LIMIT 1);
ALTER TABLE games ENABLE TRIGGER refuse_closed_games;
CALL glicko2_recompute('ratings', 'games', 4, 'history');
COMMIT;

-- Periods before 4 did not change: their history and records are as they were.
SELECT count(*) AS history_rows_1_to_3,
       count(*) FILTER (WHERE h.rating = b.rating) AS unchanged
FROM history h JOIN history_by_close b USING (player_id, period) WHERE h.period < 4;
SELECT c.period, c.closed_at = b.closed_at AS same_close, c.tau, c.max_rd, c.games, b.games AS games_before
FROM glicko2_closes c JOIN closes_by_close b USING (ratings, period)
WHERE c.ratings = 'ratings'::regclass ORDER BY c.close_number;
-- Periods from 4 on did change.
SELECT count(*) FILTER (WHERE r.rating <> b.rating) > 0 AS ratings_changed FROM ratings r JOIN by_close b USING (player_id);
-- The correction equals closing the corrected games from the start with the
-- same tau and max_rd per period.
TRUNCATE ratings2, history2;
DELETE FROM glicko2_closes WHERE ratings = 'ratings2'::regclass;
CALL glicko2_close_period('ratings2', 'games', 1, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 2, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 3, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 4, tau => 1.1, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 5, max_rd => NULL, history => 'history2');
CALL glicko2_close_period('ratings2', 'games', 6, history => 'history2');
SELECT (SELECT count(*) FROM ratings a FULL JOIN ratings2 b USING (player_id)
        WHERE a.rating IS NOT DISTINCT FROM b.rating) AS ratings_equal,
       (SELECT count(*) FROM ratings) AS of_players,
       (SELECT count(*) FROM history a FULL JOIN history2 b USING (player_id, period)
        WHERE a.rating IS NOT DISTINCT FROM b.rating) AS history_equal,
       (SELECT count(*) FROM history) AS of_rows;

-- Recomputing from the first period starts from nothing, as a replay does.
CALL glicko2_recompute('ratings', 'games', 1, 'history');
SELECT count(*) FILTER (WHERE a.rating = b.rating) AS equal, count(*) AS of_players
FROM ratings a FULL JOIN ratings2 b USING (player_id);

-- Errors change nothing.
CREATE TABLE snapshot AS SELECT * FROM ratings;
CALL glicko2_recompute('ratings', 'games', 7, 'history');
CALL glicko2_recompute('ratings', 'games', 4, NULL);
CALL glicko2_recompute('ratings', 'games', 4, 'history', period_column => 'week');
DELETE FROM history WHERE period = 3;
CALL glicko2_recompute('ratings', 'games', 4, 'history');
-- A bad game in a later period: the recompute fails at that period and
-- nothing is left half done.
BEGIN;
ALTER TABLE games DISABLE TRIGGER refuse_closed_games;
INSERT INTO games VALUES (6, 5, 5, 1);
ALTER TABLE games ENABLE TRIGGER refuse_closed_games;
CALL glicko2_recompute('ratings', 'games', 2, 'history');
ROLLBACK;
SELECT count(*) FILTER (WHERE a.rating = b.rating) AS unchanged, count(*) AS of_players
FROM ratings a FULL JOIN snapshot b USING (player_id);
SELECT count(*) AS closes FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
CALL glicko2_replay(NULL, 'games');
-- A role that may not update the ratings table can neither replay nor
-- recompute it.
CREATE ROLE regress_glicko2_reader;
GRANT SELECT ON games, ratings, history TO regress_glicko2_reader;
SET ROLE regress_glicko2_reader;
CALL glicko2_replay('ratings', 'games', history => 'history');
CALL glicko2_recompute('ratings', 'games', 4, 'history');
DELETE FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
SELECT count(*) AS evaluated FROM glicko2_evaluate('games');
RESET ROLE;
SELECT count(*) AS closes_kept FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
DROP OWNED BY regress_glicko2_reader;
DROP ROLE regress_glicko2_reader;
