-- A synthetic league with hidden true strengths: 40 players, 20 rating
-- periods of random pairings, results drawn from the true strengths, every
-- period closed with glicko2_close_period.  Then: how close the ratings came
-- to the truth, which tau predicts best (glicko2_fit_tau), the league
-- replayed with that tau (glicko2_replay), and a correction of a closed
-- period (glicko2_recompute).  Seeded: every run prints the same numbers.
-- Run by demo.sh, which draws demo/out/ratings.png from demo/out/*.dat.
\pset footer off
CREATE EXTENSION glicko2;
SELECT setseed(0.47) \gset

CREATE TABLE players (player_id int PRIMARY KEY, name text NOT NULL);
INSERT INTO players SELECT i, 'player ' || lpad(i::text, 2, '0') FROM generate_series(1, 40) i;

-- Hidden strengths on the Glicko scale: a normal spread (SD 250) at the
-- start, then the random walk Glicko-2 assumes (SD 10 a period: a volatility
-- of 0.06 is 0.06 x 173.7 = 10.4 rating points a period).  Four players
-- change abruptly after period 10: players 10 and 30 gain 300 points, players
-- 20 and 40 lose 300, the kind of change the volatility is there to catch.
-- Only differences of strength decide games, and ratings are anchored at
-- 1500 only by everyone starting there, so the strengths are centred on 1500
-- in every period: ratings and hidden strengths share their centre and can be
-- compared as they are.
CREATE TABLE strengths (player_id int REFERENCES players, period int, strength float8,
                        PRIMARY KEY (player_id, period));
WITH steps AS (
  SELECT player_id, period,
         CASE WHEN period = 1 THEN 250 ELSE 10 END
           * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())
         + CASE WHEN period = 11 AND player_id % 20 = 10 THEN 300
                WHEN period = 11 AND player_id % 20 = 0 THEN -300 ELSE 0 END AS step
  FROM players CROSS JOIN generate_series(1, 20) period
  ORDER BY player_id, period
), walked AS (
  SELECT player_id, period, sum(step) OVER (PARTITION BY player_id ORDER BY period) AS s
  FROM steps
)
INSERT INTO strengths
SELECT player_id, period, 1500 + s - avg(s) OVER (PARTITION BY period) FROM walked;

CREATE TABLE games (period int, player_id int REFERENCES players,
                    opponent_id int REFERENCES players, score float8);
-- Each period every player challenges 6 random opponents (so plays about 12
-- games, the paper's 10-15); the result follows the logistic model the Glicko
-- systems assume, with 10 % draws around the expected score.
INSERT INTO games
SELECT p.period, a.player_id, b.player_id,
       CASE WHEN u < pw - 0.05 THEN 1 WHEN u < pw + 0.05 THEN 0.5 ELSE 0 END
FROM generate_series(1, 20) p(period)
CROSS JOIN generate_series(1, 6) round
CROSS JOIN players a
CROSS JOIN LATERAL (SELECT b.player_id FROM players b WHERE b.player_id <> a.player_id
                    ORDER BY random() + 0 * a.player_id + 0 * round + 0 * p.period LIMIT 1) b
JOIN strengths sa ON sa.player_id = a.player_id AND sa.period = p.period
JOIN strengths sb ON sb.player_id = b.player_id AND sb.period = p.period
CROSS JOIN LATERAL (SELECT random() AS u,
                           1 / (1 + 10 ^ ((sb.strength - sa.strength) / 400)) AS pw) r
ORDER BY p.period, round, a.player_id;

-- The league: a ratings table, a history of every player's rating after each
-- period, a guard that refuses games written into closed periods, and one
-- close per period.
CALL glicko2_guard_games('games');
CREATE TABLE ratings (player_id int PRIMARY KEY REFERENCES players, rating glicko2_rating NOT NULL);
CREATE TABLE history (player_id int, period int, rating glicko2_rating,
                      PRIMARY KEY (player_id, period));
SELECT format('CALL glicko2_close_period(%L, %L, %s, history => %L)', 'ratings', 'games', p, 'history')
FROM generate_series(1, 20) p \gexec

\echo
\echo 'Leaderboard after 20 periods (tau 0.5), by conservative rating (rating - 2 RD):'
SELECT rank() OVER (ORDER BY glicko2_lower(r.rating) DESC) AS "#", p.name,
       round((r.rating).rating) AS rating, round((r.rating).rd) AS rd,
       format('[%s, %s]', round(glicko2_lower(r.rating)), round(glicko2_upper(r.rating))) AS "95 % interval",
       round((r.rating).volatility::numeric, 4) AS volatility,
       round(s.strength) AS "hidden strength"
FROM ratings r JOIN players p USING (player_id)
JOIN strengths s ON s.player_id = r.player_id AND s.period = 20
ORDER BY 1, 2 LIMIT 12;

-- How close the ratings came to the hidden strengths: after period 20, and
-- over periods 5-20 (each player's interval after the period against his
-- strength during it; the first periods' intervals are wide by design).
CREATE VIEW truth AS
SELECT 'after period 20, all 40 players' AS "when", 0 AS o,
       corr((h.rating).rating, s.strength) AS correlation,
       avg((abs((h.rating).rating - s.strength) <= 2 * (h.rating).rd)::int) AS inside,
       avg((h.rating).rating) AS mean
FROM history h JOIN strengths s USING (player_id, period) WHERE h.period = 20
UNION ALL
SELECT format('periods 5-20, the %s', CASE WHEN player_id % 10 = 0 THEN '4 who changed' ELSE '36 steady' END),
       CASE WHEN player_id % 10 = 0 THEN 2 ELSE 1 END,
       corr((h.rating).rating, s.strength),
       avg((abs((h.rating).rating - s.strength) <= 2 * (h.rating).rd)::int),
       NULL
FROM history h JOIN strengths s USING (player_id, period)
WHERE h.period >= 5 GROUP BY player_id % 10 = 0;
\echo 'Ratings against hidden strengths (both centred on 1500):'
SELECT "when", round(correlation::numeric, 3) AS correlation,
       round(100 * inside::numeric, 1) AS "% inside 95 % interval", round(mean) AS "mean rating (the centre)"
FROM truth ORDER BY o;

\echo 'Choosing tau: log loss of the ratings before each period on its games (glicko2_fit_tau, writes nothing):'
CREATE TABLE fit AS SELECT * FROM glicko2_fit_tau('games', '{0.3, 0.5, 1.2, 2, 3, 5, 8, 12}');
SELECT tau, round(log_loss::numeric, 5) AS log_loss, round(brier::numeric, 5) AS brier,
       round(accuracy::numeric, 4) AS accuracy, CASE WHEN best THEN '<- best' ELSE '' END AS " "
FROM fit ORDER BY tau;
SELECT tau AS best_tau FROM fit WHERE best \gset

-- Keep the tau 0.5 history for the picture, then rebuild the league from
-- its games with the fitted tau.
CREATE TABLE history_default AS SELECT * FROM history;
CALL glicko2_replay('ratings', 'games', tau => :best_tau, history => 'history');
\echo 'The same league replayed with tau' :best_tau '(glicko2_replay):'
SELECT "when", round(correlation::numeric, 3) AS correlation,
       round(100 * inside::numeric, 1) AS "% inside 95 % interval", round(mean) AS "mean rating (the centre)"
FROM truth ORDER BY o;

-- The picture: four players (two who changed after period 10), each
-- period's rating with its 95 % band and the hidden strength, with tau 0.5
-- and with the fitted tau; one data block per player (gnuplot's "index").
\set dat 'tau_default'
\set hist 'history_default'
\ir picture_data.sql
\set dat 'tau_fitted'
\set hist 'history'
\ir picture_data.sql
\o demo/out/tau.txt
\qecho :best_tau
\o

-- A correction: player 25's games of period 12 turn out to have been played
-- by someone else.  The guard refuses changes to a closed period, so in one
-- transaction: lift it, annul the games, recompute periods 12-20.
\echo 'Correction: player 25''s games of period 12 annulled, periods 12-20 recomputed (glicko2_recompute):'
CREATE TABLE before_correction AS SELECT * FROM ratings;
SELECT clock_timestamp() AS before_correction \gset
BEGIN;
ALTER TABLE games DISABLE TRIGGER refuse_closed_games;
DELETE FROM games WHERE period = 12 AND 25 IN (player_id, opponent_id);
ALTER TABLE games ENABLE TRIGGER refuse_closed_games;
CALL glicko2_recompute('ratings', 'games', 12, 'history');
COMMIT;
SELECT (SELECT count(*) FROM glicko2_closes
        WHERE ratings = 'ratings'::regclass AND closed_at > :'before_correction') AS "periods closed again",
       count(*) FILTER (WHERE a.rating <> b.rating) AS "ratings changed",
       round(max(abs((a.rating).rating - (b.rating).rating))::numeric, 1) AS "largest change",
       round(max((b.rating).rating) FILTER (WHERE player_id = 25)) AS "player 25 before",
       round(max((a.rating).rating) FILTER (WHERE player_id = 25)) AS "after"
FROM ratings a JOIN before_correction b USING (player_id);

\ir matchmaking.sql
