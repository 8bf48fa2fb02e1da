-- A synthetic league with hidden true strengths: 40 players, 20 rating
-- periods of random pairings, results drawn from the true strengths, every
-- period closed with glicko2_close_period.  Seeded, so every run prints the
-- same numbers.  Run by demo.sh, which draws demo/out/ratings.png from the
-- data this script writes to demo/out/.
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
-- period, and one close per period.
CREATE TABLE ratings (player_id int PRIMARY KEY REFERENCES players,
                      rating glicko2_rating NOT NULL DEFAULT glicko2_rating());
CREATE TABLE history (player_id int, period int, rating glicko2_rating,
                      PRIMARY KEY (player_id, period));
SELECT format('CALL glicko2_close_period(%L, %L, %s, history => %L)', 'ratings', 'games', p, 'history')
FROM generate_series(1, 20) p \gexec

\echo
\echo 'Leaderboard after 20 periods, by conservative rating (rating - 2 RD):'
SELECT row_number() OVER (ORDER BY (r.rating).rating - 2 * (r.rating).rd DESC) AS "#",
       p.name,
       round((r.rating).rating) AS rating,
       round((r.rating).rd) AS rd,
       format('[%s, %s]', round((r.rating).rating - 2 * (r.rating).rd), round((r.rating).rating + 2 * (r.rating).rd)) AS "95 % interval",
       round((r.rating).volatility::numeric, 4) AS volatility,
       round(s.strength) AS "hidden strength"
FROM ratings r JOIN players p USING (player_id)
JOIN strengths s ON s.player_id = r.player_id AND s.period = 20
ORDER BY 1 LIMIT 15;

\echo 'How close the ratings are to the hidden strengths (both centred on 1500):'
SELECT 'after period 20, all 40 players' AS "when",
       round(corr((r.rating).rating, s.strength)::numeric, 3) AS correlation,
       round(100.0 * avg((abs((r.rating).rating - s.strength) <= 2 * (r.rating).rd)::int), 1) AS "% inside 95 % interval",
       round(avg((r.rating).rating)) AS "mean rating"
FROM ratings r JOIN strengths s ON s.player_id = r.player_id AND s.period = 20
UNION ALL
SELECT format('periods 5-20, %s players', CASE WHEN player_id % 10 = 0 THEN 'the 4 changed' ELSE 'the 36 steady' END),
       round(corr((h.rating).rating, s.strength)::numeric, 3),
       round(100.0 * avg((abs((h.rating).rating - s.strength) <= 2 * (h.rating).rd)::int), 1),
       round(avg((h.rating).rating))
FROM history h JOIN strengths s USING (player_id, period)
WHERE h.period >= 5
GROUP BY player_id % 10 = 0;

\echo 'Choosing tau: how well the ratings before each period predicted its games (writes nothing):'
SELECT tau, round(log_loss::numeric, 5) AS log_loss, round(brier::numeric, 5) AS brier,
       round(accuracy::numeric, 4) AS accuracy, CASE WHEN best THEN '<- best' ELSE '' END AS " "
FROM glicko2_fit_tau('games', '{0.2, 0.3, 0.5, 0.8, 1.2, 1.6}');

-- The picture: a few players' ratings with their 95 % bands and hidden
-- strengths, one data block per player (gnuplot's "index").
\o demo/out/ratings.dat
SELECT CASE WHEN h.period = 1 THEN format(E'\n\n"%s"\n', p.name) ELSE '' END
       || format('%s %s %s %s %s', h.period, round((h.rating).rating::numeric, 1),
                 round(((h.rating).rating - 2 * (h.rating).rd)::numeric, 1),
                 round(((h.rating).rating + 2 * (h.rating).rd)::numeric, 1),
                 round(s.strength::numeric, 1))
FROM history h JOIN players p USING (player_id) JOIN strengths s USING (player_id, period)
WHERE h.player_id IN (7, 10, 20, 33)
ORDER BY h.player_id, h.period \g (format=unaligned tuples_only=on)
\o
