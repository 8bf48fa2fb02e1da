-- A free-for-all league with hidden strengths: 60 players, 20 periods of 4
-- rounds; each round the players are shuffled into 5 matches of 4 teams of
-- 3.  Every period is closed with glicko2_close_matches, 'individual' and
-- 'composite' side by side, and the ratings are compared with the hidden
-- strengths, under two models of how a team's strength comes from its
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

-- A team performs at its strength plus Gumbel noise (scale 400 / ln 10) and
-- teams are placed by performance, so two teams finish in the order of the
-- logistic model Glicko assumes, 1 / (1 + 10^(-d/400)) for a difference d of
-- team strengths (the whole order is Plackett-Luce's).  The team's strength
-- is its players' mean ('mean': the composite's own model; a player moves
-- it by a third of his own difference) or 1500 plus the sum of their
-- differences from 1500 ('sum': each player counts in full).  Both models
-- play the same seats with the same noise.
CREATE TABLE seats AS
WITH s AS (
  SELECT p.period, r.round, s.player_id,
         row_number() OVER (PARTITION BY p.period, r.round ORDER BY random()) - 1 AS seat
  FROM generate_series(1, 20) p(period) CROSS JOIN generate_series(1, 4) r(round)
  CROSS JOIN strengths s
  ORDER BY p.period, r.round, s.player_id)
SELECT period, round, ((period * 4 + round) * 5 + seat / 12)::int AS match_id,
       ((seat % 12) / 3)::int AS team, player_id
FROM s;
CREATE TABLE teams AS
SELECT match_id, team, avg(s.strength) AS mean_strength, 1500 + sum(s.strength - 1500) AS sum_strength,
       -400 / ln(10) * ln(-ln(random())) AS noise
FROM (SELECT * FROM seats ORDER BY match_id, team, player_id) x JOIN strengths s USING (player_id)
GROUP BY match_id, team ORDER BY match_id, team;
CREATE TABLE matches (model text, match_id int, period int, player_id int, team int, place int);
INSERT INTO matches
SELECT m.model, s.match_id, s.period, s.player_id, s.team,
       rank() OVER (PARTITION BY m.model, s.match_id
                    ORDER BY CASE m.model WHEN 'mean' THEN t.mean_strength ELSE t.sum_strength END + t.noise DESC)
FROM seats s JOIN teams t USING (match_id, team) CROSS JOIN (VALUES ('mean'), ('sum')) m(model);
CREATE VIEW matches_mean AS SELECT match_id, period, player_id, team, place FROM matches WHERE model = 'mean';
CREATE VIEW matches_sum AS SELECT match_id, period, player_id, team, place FROM matches WHERE model = 'sum';
CALL glicko2_guard_games('matches');

-- Four ratings tables (model x method), each closed period by period.
CREATE TABLE history (model text, method text, player_id int, period int, rating glicko2_rating);
SELECT format('CREATE TABLE %I (player_id int PRIMARY KEY, rating glicko2_rating);'
              'CREATE TABLE %I (player_id int, period int, rating glicko2_rating)',
              model || '_' || method, 'history_' || model || '_' || method)
FROM unnest(ARRAY['mean', 'sum']) model, unnest(ARRAY['individual', 'composite']) method \gexec
SELECT format('CALL glicko2_close_matches(%L, %L, %s, %L, history => %L)',
              model || '_' || method, 'matches_' || model, p, method, 'history_' || model || '_' || method)
FROM generate_series(1, 20) p, unnest(ARRAY['mean', 'sum']) model, unnest(ARRAY['individual', 'composite']) method
ORDER BY p, model, method \gexec
SELECT format('INSERT INTO history SELECT %L, %L, * FROM %I', model, method, 'history_' || model || '_' || method)
FROM unnest(ARRAY['mean', 'sum']) model, unnest(ARRAY['individual', 'composite']) method \gexec

\echo
\echo 'Free-for-all league: 60 players, 4 teams of 3 a match, 4 matches a period, 20 periods.'
\echo 'Ratings against hidden strengths after period 20 (slope: of rating on strength; the last'
\echo 'column counts strengths inside the interval once rescaled by that regression line):'
WITH h AS (SELECT h.*, (h.rating).rating AS r, (h.rating).rd AS rd, s.strength
           FROM history h JOIN strengths s USING (player_id) WHERE period = 20),
line AS (SELECT model, method, regr_slope(r, strength) AS b, regr_intercept(r, strength) AS a
         FROM h GROUP BY model, method)
SELECT model AS "team strength", method, round(corr(r, strength)::numeric, 3) AS correlation,
       round(min(b)::numeric, 2) AS slope, round(sqrt(avg((r - strength) ^ 2))) AS "RMS error",
       round(avg(rd)) AS "mean RD", round(100 * avg((abs(r - strength) <= 2 * rd)::int), 1) AS "% inside 95 %",
       round(100 * avg((abs(r - (a + b * strength)) <= 2 * rd)::int), 1) AS "% inside, rescaled"
FROM h JOIN line USING (model, method)
GROUP BY model, method ORDER BY model, method DESC;

\echo 'How fast: correlation and mean RD by period (team strength = sum):'
SELECT period,
       round(corr((h.rating).rating, s.strength) FILTER (WHERE method = 'individual')::numeric, 3) AS individual,
       round(corr((h.rating).rating, s.strength) FILTER (WHERE method = 'composite')::numeric, 3) AS composite,
       round(avg((h.rating).rd) FILTER (WHERE method = 'individual')) AS "RD ind.",
       round(avg((h.rating).rd) FILTER (WHERE method = 'composite')) AS "RD comp."
FROM history h JOIN strengths s USING (player_id)
WHERE model = 'sum' AND period IN (1, 2, 3, 5, 10, 20) GROUP BY period ORDER BY period;
