-- A free-for-all league with hidden strengths: 60 players, 20 periods of 4
-- rounds; each round the players are shuffled into 5 matches of 4 teams of
-- 3.  Every period is closed with glicko2_close_matches by every method
-- ('sum', the default, and 'mean': the team model; 'individual' and
-- 'composite': Williams's), and the ratings are compared with the hidden
-- strengths, under two models of how a team's performance comes from its
-- players.  Seeded: every run prints the same numbers.
-- Run by demo.sh after league.sql, in its database (a schema of its own).
\pset footer off
CREATE SCHEMA ffa;
SET search_path = ffa, public;
SELECT setseed(0.31) \gset

-- Constant hidden strengths, normal (SD 250), centred on 1500 like the ratings.
CREATE TABLE strengths (player_id int PRIMARY KEY, strength float8);
WITH s AS (SELECT i, 250 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS z
           FROM generate_series(1, 60) i)
INSERT INTO strengths SELECT i, 1500 + z - avg(z) OVER () FROM s;

-- Performance noise is Gumbel (scale 400 / ln 10), so two players finish
-- in the order of the logistic model Glicko assumes, 1 / (1 + 10^(-d/400)),
-- and the whole order of solo players is Plackett-Luce's.  Two models of a
-- team (docs/matches.md): 'sum', each player performs at his strength plus
-- his own noise and the team at the sum of its players' differences from
-- 1500 (each player counts in full, and brings his own noise); 'mean', the
-- team performs at its players' mean strength plus one player's noise (a
-- team of equal players plays like one of them).  Both models play the same
-- seats with the same draws; teams are placed by performance.
CREATE TABLE seats AS
WITH s AS (
  SELECT p.period, r.round, s.player_id,
         row_number() OVER (PARTITION BY p.period, r.round ORDER BY random()) - 1 AS seat
  FROM generate_series(1, 20) p(period) CROSS JOIN generate_series(1, 4) r(round)
  CROSS JOIN strengths s
  ORDER BY p.period, r.round, s.player_id)
SELECT period, round, ((period * 4 + round) * 5 + seat / 12)::int AS match_id,
       ((seat % 12) / 3)::int AS team, player_id, -400 / ln(10) * ln(-ln(random())) AS noise
FROM s ORDER BY period, round, seat;
CREATE TABLE teams AS
SELECT match_id, team, avg(s.strength) AS mean_strength,
       sum(s.strength - 1500 + x.noise) AS sum_performance,
       -400 / ln(10) * ln(-ln(random())) AS noise
FROM (SELECT * FROM seats ORDER BY match_id, team, player_id) x JOIN strengths s USING (player_id)
GROUP BY match_id, team ORDER BY match_id, team;
CREATE TABLE matches (model text, match_id int, period int, player_id int, team int, place int);
INSERT INTO matches
SELECT m.model, s.match_id, s.period, s.player_id, s.team,
       rank() OVER (PARTITION BY m.model, s.match_id
                    ORDER BY CASE m.model WHEN 'mean' THEN t.mean_strength + t.noise ELSE t.sum_performance END DESC)
FROM seats s JOIN teams t USING (match_id, team) CROSS JOIN (VALUES ('mean'), ('sum')) m(model);
CREATE VIEW matches_mean AS SELECT match_id, period, player_id, team, place FROM matches WHERE model = 'mean';
CREATE VIEW matches_sum AS SELECT match_id, period, player_id, team, place FROM matches WHERE model = 'sum';
CALL glicko2_guard_games('matches');

-- Eight ratings tables (model x method), each closed period by period.
CREATE TABLE history (model text, method text, player_id int, period int, rating glicko2_rating);
SELECT format('CREATE TABLE %I (player_id int PRIMARY KEY, rating glicko2_rating);'
              'CREATE TABLE %I (player_id int, period int, rating glicko2_rating)',
              model || '_' || method, 'history_' || model || '_' || method)
FROM unnest(ARRAY['mean', 'sum']) model, unnest(ARRAY['sum', 'mean', 'individual', 'composite']) method \gexec
SELECT format('CALL glicko2_close_matches(%L, %L, %s, %L, history => %L)',
              model || '_' || method, 'matches_' || model, p, method, 'history_' || model || '_' || method)
FROM generate_series(1, 20) p, unnest(ARRAY['mean', 'sum']) model,
     unnest(ARRAY['sum', 'mean', 'individual', 'composite']) method
ORDER BY p, model, method \gexec
SELECT format('INSERT INTO history SELECT %L, %L, * FROM %I', model, method, 'history_' || model || '_' || method)
FROM unnest(ARRAY['mean', 'sum']) model, unnest(ARRAY['sum', 'mean', 'individual', 'composite']) method \gexec

\echo
\echo 'Free-for-all league: 60 players, 4 teams of 3 a match, 4 matches a period, 20 periods.'
\echo 'Ratings against hidden strengths after period 20 (slope: least squares of strength on'
\echo 'rating, 1 = calibrated; % inside: strengths inside rating +- 2 RD; the last column counts'
\echo 'them once the ratings are rescaled by the regression line of rating on strength):'
WITH h AS (SELECT h.*, (h.rating).rating AS r, (h.rating).rd AS rd, s.strength
           FROM history h JOIN strengths s USING (player_id) WHERE period = 20),
line AS (SELECT model, method, regr_slope(r, strength) AS b, regr_intercept(r, strength) AS a
         FROM h GROUP BY model, method)
SELECT model AS "team model", method, round(corr(r, strength)::numeric, 3) AS correlation,
       round(regr_slope(strength, r)::numeric, 2) AS slope, round(sqrt(avg((r - strength) ^ 2))) AS "RMS error",
       round(avg(rd)) AS "mean RD", round(100 * avg((abs(r - strength) <= 2 * rd)::int), 1) AS "% inside 95 %",
       round(100 * avg((abs(r - (a + b * strength)) <= 2 * rd)::int), 1) AS "% inside, rescaled"
FROM h JOIN line USING (model, method)
GROUP BY model, method
ORDER BY model DESC, array_position(ARRAY['sum', 'mean', 'individual', 'composite'], method);

\echo 'How fast: correlation and mean RD by period (team model = sum):'
SELECT period,
       round(corr((h.rating).rating, s.strength) FILTER (WHERE method = 'sum')::numeric, 3) AS sum,
       round(corr((h.rating).rating, s.strength) FILTER (WHERE method = 'composite')::numeric, 3) AS composite,
       round(avg((h.rating).rd) FILTER (WHERE method = 'sum')) AS "RD sum",
       round(avg((h.rating).rd) FILTER (WHERE method = 'composite')) AS "RD comp.",
       round(100 * avg((abs((h.rating).rating - s.strength) <= 2 * (h.rating).rd)::int) FILTER (WHERE method = 'sum'), 1)
         AS "% inside, sum"
FROM history h JOIN strengths s USING (player_id)
WHERE model = 'sum' AND period IN (1, 2, 3, 5, 10, 20) GROUP BY period ORDER BY period;

\echo 'Which method fits (glicko2_fit_matches, tau 0.5, every period; it writes nothing):'
SELECT 'sum' AS "team model", method, round(log_loss::numeric, 4) AS "log loss", best
FROM glicko2_fit_matches('matches_sum', taus => '{0.5}')
UNION ALL
SELECT 'mean', method, round(log_loss::numeric, 4), best
FROM glicko2_fit_matches('matches_mean', taus => '{0.5}');
