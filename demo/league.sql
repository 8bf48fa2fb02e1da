-- A synthetic league: 40 players with hidden true strengths, 20 rating
-- periods of random pairings, results drawn from the true strengths.
-- Seeded, so every run prints the same leaderboard.
\pset footer off
CREATE EXTENSION glicko2;
SELECT setseed(0.47);

CREATE TABLE players (player_id int PRIMARY KEY, name text, strength float8);
INSERT INTO players
SELECT i, 'player ' || lpad(i::text, 2, '0'), 1500 + 300 * sqrt(-2 * ln(random())) * cos(2 * pi() * random())
FROM generate_series(1, 40) i;

CREATE TABLE ratings (player_id int PRIMARY KEY REFERENCES players, rating glicko2_rating NOT NULL DEFAULT glicko2_rating());
INSERT INTO ratings (player_id) SELECT player_id FROM players;

CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
-- Each period every player meets 6 random opponents; the result follows the
-- logistic model the Glicko systems assume, draws included.
INSERT INTO games
SELECT p.period, a.player_id, b.player_id,
       CASE WHEN u < pw - 0.05 THEN 1 WHEN u < pw + 0.05 THEN 0.5 ELSE 0 END
FROM generate_series(1, 20) p(period)
CROSS JOIN generate_series(1, 6) round
CROSS JOIN players a
CROSS JOIN LATERAL (SELECT * FROM players b WHERE b.player_id <> a.player_id
                    ORDER BY random() + 0 * a.player_id + 0 * round + 0 * p.period LIMIT 1) b
CROSS JOIN LATERAL (SELECT random() AS u,
                           1 / (1 + 10 ^ ((b.strength - a.strength) / 400)) AS pw) r;

-- Close the periods in order, one CALL each: players with games get the
-- paper's update from both sides' pre-period ratings, the rest get Step 6.
-- The trigger refuses games written later to a closed period; every close is
-- recorded in glicko2_closes, every player's rating per period in history.
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON games
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games();
CREATE TABLE history (player_id int, period int, rating glicko2_rating, PRIMARY KEY (player_id, period));
SELECT format('CALL glicko2_close_period(''ratings'', ''games'', %s, history => ''history'')', p)
FROM generate_series(1, 20) p \gexec

\echo
\echo 'Last closes:'
SELECT period, players, played, new_players, games FROM glicko2_closes ORDER BY close_number DESC LIMIT 3;

\echo
\echo 'Leaderboard after 20 periods, by conservative rating (rating - 2 RD):'
SELECT row_number() OVER (ORDER BY (r.rating).rating - 2 * (r.rating).rd DESC) AS "#",
       p.name,
       round((r.rating).rating) AS rating,
       round((r.rating).rd) AS rd,
       format('[%s, %s]', round((r.rating).rating - 2 * (r.rating).rd), round((r.rating).rating + 2 * (r.rating).rd)) AS "95 % interval",
       round((r.rating).volatility::numeric, 4) AS volatility,
       round(p.strength) AS "hidden strength"
FROM ratings r JOIN players p USING (player_id)
ORDER BY 1 LIMIT 15;

SELECT round(corr((r.rating).rating, p.strength)::numeric, 3) AS "correlation with hidden strength",
       round(100.0 * avg((abs((r.rating).rating - p.strength) <= 2 * (r.rating).rd)::int), 1) AS "% hidden strengths inside 95 % interval"
FROM ratings r JOIN players p USING (player_id);
