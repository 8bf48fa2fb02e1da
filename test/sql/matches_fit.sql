-- glicko2_fit_matches: choosing the method (and tau) of a team league by its
-- own matches.  Two small seeded free-for-all leagues of teams of 3, 3, 2, 2,
-- 1 and 1 players: in the 'sum' world a team performs at the sum of its
-- members' strength plus each member's own (centred Gumbel) noise, in the
-- 'mean' world at their mean strength plus one player's noise (eval/README.md).
-- Each world's own method must predict it best.
\pset footer off
SET extra_float_digits = 0;
CREATE EXTENSION IF NOT EXISTS glicko2;
CREATE SCHEMA fit;
SET search_path = fit, public;
SELECT setseed(0.25);

-- 96 players, strengths normal with SD 250 points (on the internal scale,
-- 1 = 173.7178 points); 8 periods of 6 rounds, each round everyone shuffled
-- into 8 matches of 12 seats.
CREATE TABLE strengths AS
SELECT i AS player_id, 250 / 173.7178 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) AS s
FROM generate_series(1, 96) i;
CREATE TABLE seats AS
SELECT period, round, player_id,
       row_number() OVER (PARTITION BY period, round ORDER BY random()) - 1 AS seat
FROM generate_series(1, 8) period, generate_series(1, 6) round, strengths
ORDER BY period, round, player_id;
-- Seats 0-2, 3-5, 6-7, 8-9, 10 and 11 of a match are its six teams.
CREATE TABLE seated AS
SELECT s.period, (s.period * 100 + s.round * 10 + s.seat / 12)::int AS match_id, s.player_id,
       (CASE WHEN s.seat % 12 < 3 THEN 1 WHEN s.seat % 12 < 6 THEN 2 WHEN s.seat % 12 < 8 THEN 3
             WHEN s.seat % 12 < 10 THEN 4 WHEN s.seat % 12 = 10 THEN 5 ELSE 6 END) AS team,
       st.s, -ln(-ln(random())) - 0.5772156649015329 AS own_noise
FROM seats s JOIN strengths st USING (player_id)
ORDER BY s.period, s.round, s.seat;
CREATE TABLE team_noise AS
SELECT DISTINCT match_id, team FROM seated ORDER BY match_id, team;
ALTER TABLE team_noise ADD COLUMN noise float8;
UPDATE team_noise SET noise = -ln(-ln(random()));
CREATE TABLE perf AS
SELECT x.match_id, x.team, x.sum_perf, x.mean_perf + n.noise AS mean_perf
FROM (SELECT match_id, team, sum(s + own_noise) AS sum_perf, avg(s) AS mean_perf
      FROM seated GROUP BY match_id, team) x
JOIN team_noise n USING (match_id, team);
CREATE TABLE sum_league AS
SELECT s.match_id, s.period, s.player_id, s.team,
       (rank() OVER (PARTITION BY s.match_id ORDER BY p.sum_perf DESC))::int AS place
FROM seated s JOIN perf p USING (match_id, team);
CREATE TABLE mean_league AS
SELECT s.match_id, s.period, s.player_id, s.team,
       (rank() OVER (PARTITION BY s.match_id ORDER BY p.mean_perf DESC))::int AS place
FROM seated s JOIN perf p USING (match_id, team);
-- (rank() counts rows: the places of a match's six teams are 1, 4, 7, 9, 11
-- and 12 in some order, which only orders them, as distinct places do.)
SELECT count(*) AS rows, count(DISTINCT match_id) AS matches, count(DISTINCT period) AS periods
FROM sum_league;

-- The world's own method predicts best, far ahead of the composite.
CREATE TABLE fit_sum AS SELECT * FROM glicko2_fit_matches('sum_league', taus => '{0.5}');
-- (teammates => false: scored as the closes below, without a teammates store)
CREATE TABLE fit_mean AS SELECT * FROM glicko2_fit_matches('mean_league', taus => '{0.5}', teammates => false);
SELECT 'sum league' AS league, method AS best, predictions, log_loss < 0.6931 AS better_than_a_coin
FROM fit_sum WHERE best
UNION ALL
SELECT 'mean league', method, predictions, log_loss < 0.6931 FROM fit_mean WHERE best;
SELECT count(*) AS rows, count(*) FILTER (WHERE best) AS best FROM fit_sum;
SELECT (SELECT log_loss FROM fit_sum WHERE method = 'composite') - (SELECT log_loss FROM fit_sum WHERE method = 'sum') > 0.01
         AS sum_far_ahead_of_composite,
       (SELECT log_loss FROM fit_mean WHERE method = 'composite') - (SELECT log_loss FROM fit_mean WHERE method = 'mean') > 0.005
         AS mean_far_ahead_of_composite;
-- 15 pairs of teams a match, 48 matches a period, 8 periods.
SELECT DISTINCT predictions = 15 * 48 * 8 AS every_pair_predicted FROM fit_sum;

-- The replay is the league's closes: close it for real, then score every pair
-- of teams with glicko2_team_win_probability of the ratings before its
-- period, in plain SQL; the two log losses agree.
CREATE TABLE closed (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE closed_history (player_id int, period int, rating glicko2_rating);
CALL glicko2_guard_games('mean_league');
DO $$
BEGIN
  FOR p IN 1 .. 8 LOOP
    CALL glicko2_close_matches('fit.closed', 'fit.mean_league', p, 'mean', history => 'fit.closed_history');
  END LOOP;
END
$$;
WITH pre AS (SELECT m.match_id, m.team, min(m.place) AS place,
                    array_agg(coalesce(h.rating, glicko2_rating()) ORDER BY m.player_id) AS rs
             FROM mean_league m
             LEFT JOIN closed_history h ON h.player_id = m.player_id AND h.period = m.period - 1
             GROUP BY m.match_id, m.team),
pairs AS (SELECT -ln(glicko2_team_win_probability(w.rs, l.rs, 'mean')) AS loss
          FROM pre w JOIN pre l ON l.match_id = w.match_id AND l.place > w.place)
SELECT count(*) AS pairs,
       abs(avg(loss) - (SELECT log_loss FROM fit_mean WHERE method = 'mean')) < 1e-12 AS same_log_loss
FROM pairs;

-- Several taus: one row per method and tau, exactly one best, the lowest.
SELECT method, tau, best FROM glicko2_fit_matches('sum_league', ARRAY['sum', 'composite'], '{1.2, 0.3, 0.3}')
ORDER BY method, tau;
SELECT count(*) FILTER (WHERE best) AS n_best,
       bool_and(NOT best OR log_loss = (SELECT min(log_loss) FROM glicko2_fit_matches('sum_league', ARRAY['sum', 'mean'], '{0.3, 0.8}')))
         AS best_is_lowest
FROM glicko2_fit_matches('sum_league', ARRAY['sum', 'mean'], '{0.3, 0.8}');

-- Writes nothing: it runs in a read-only transaction, and no close is recorded.
SELECT count(*) AS closes_before FROM glicko2_closes \gset
BEGIN TRANSACTION READ ONLY;
SELECT count(*) AS rows FROM glicko2_fit_matches('sum_league', ARRAY['sum'], '{0.5}');
COMMIT;
SELECT count(*) = :closes_before AS no_close_recorded FROM glicko2_closes;

-- Play shares: a weight column of 1 everywhere is no weight column, bit for
-- bit; halves change the replay; a column named weight is found by itself.
CREATE TABLE weighted AS SELECT *, 1.0::float8 AS share FROM sum_league;
SELECT (SELECT log_loss FROM glicko2_fit_matches('weighted', ARRAY['sum'], '{0.5}', weight_column => 'share'))
       = (SELECT log_loss FROM fit_sum WHERE method = 'sum') AS ones_are_no_weights;
UPDATE weighted SET share = 0.5 WHERE player_id % 7 = 0;
SELECT (SELECT log_loss FROM glicko2_fit_matches('weighted', ARRAY['sum'], '{0.5}', weight_column => 'share'))
       <> (SELECT log_loss FROM fit_sum WHERE method = 'sum') AS halves_count;
ALTER TABLE weighted RENAME COLUMN share TO weight;
SELECT (SELECT log_loss FROM glicko2_fit_matches('weighted', ARRAY['sum'], '{0.5}'))
       = (SELECT log_loss FROM glicko2_fit_matches('weighted', ARRAY['sum'], '{0.5}', weight_column => 'weight'))
         AS weight_column_found;
-- Its predictions count each player by his share, as the close counts him:
-- close the weighted league for real and score every pair of teams with
-- the weights; the two log losses agree (and without the weights they would
-- not).
CREATE TABLE closed_w (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE closed_w_history (player_id int, period int, rating glicko2_rating);
CALL glicko2_guard_games('weighted');
DO $$
BEGIN
  FOR p IN 1 .. 8 LOOP
    CALL glicko2_close_matches('fit.closed_w', 'fit.weighted', p, 'sum', history => 'fit.closed_w_history');
  END LOOP;
END
$$;
WITH pre AS (SELECT m.match_id, m.team, min(m.place) AS place,
                    array_agg(coalesce(h.rating, glicko2_rating()) ORDER BY m.player_id) AS rs,
                    array_agg(m.weight ORDER BY m.player_id) AS ws
             FROM weighted m
             LEFT JOIN closed_w_history h ON h.player_id = m.player_id AND h.period = m.period - 1
             GROUP BY m.match_id, m.team),
pairs AS (SELECT -ln(glicko2_team_win_probability(w.rs, l.rs, 'sum', w.ws, l.ws)) AS loss,
                 -ln(glicko2_team_win_probability(w.rs, l.rs, 'sum')) AS loss_unweighted
          FROM pre w JOIN pre l ON l.match_id = w.match_id AND l.place > w.place),
fit AS (SELECT log_loss FROM glicko2_fit_matches('weighted', ARRAY['sum'], '{0.5}', teammates => false))
SELECT count(*) AS pairs, abs(avg(loss) - (SELECT log_loss FROM fit)) < 1e-12 AS same_log_loss,
       abs(avg(loss_unweighted) - (SELECT log_loss FROM fit)) > 1e-4 AS weights_count
FROM pairs;

-- A tie counts 0.5 each way: one match of two players, tied, in period 1.
CREATE TABLE tie (match_id int, period int, player_id int, team int, place int);
INSERT INTO tie VALUES (1, 1, 1, 1, 1), (1, 1, 2, 2, 1);
SELECT method, abs(log_loss - ln(2)) < 1e-15 AS ln_2, predictions FROM glicko2_fit_matches('tie', ARRAY['sum'], '{0.5}');

-- Identifiers are identifiers: quoted names, another schema, other column names.
CREATE TABLE "Odd ""League""" ("Period" bigint, "Match" text, "Player" text, "Side" text, "Rank" smallint);
INSERT INTO "Odd ""League""" SELECT period, 'm' || match_id, 'p' || player_id, 't' || team, place FROM mean_league;
SELECT (SELECT log_loss FROM glicko2_fit_matches('fit."Odd ""League"""', ARRAY['mean'], '{0.5}',
                                                   period_column => 'Period', match_column => 'Match',
                                                   match_player_column => 'Player', team_column => 'Side',
                                                   place_column => 'Rank', teammates => false))
       - (SELECT log_loss FROM fit_mean WHERE method = 'mean') BETWEEN -1e-12 AND 1e-12 AS same_with_other_keys;
-- (Text keys number the players in another order, so a period's sums may
-- round differently in the last place.)

-- Bad input, named.
\set VERBOSITY terse
SELECT * FROM glicko2_fit_matches(NULL);
SELECT * FROM glicko2_fit_matches('sum_league', ARRAY['sum', 'elo']);
SELECT * FROM glicko2_fit_matches('sum_league', '{}'::text[]);
SELECT * FROM glicko2_fit_matches('sum_league', taus => '{0.5, 0}');
SELECT * FROM glicko2_fit_matches('sum_league', taus => '{NaN}');
SELECT * FROM glicko2_fit_matches('sum_league', max_rds => '{-1}');
SELECT * FROM glicko2_fit_matches('sum_league', max_rds => '{}');
SELECT * FROM glicko2_fit_matches('sum_league', max_rds => '{Infinity}');
SELECT * FROM glicko2_fit_matches('sum_league', max_rds => NULL);
SELECT * FROM glicko2_fit_matches('sum_league', team_column => 'side');
-- (a league of two matches written out, so the rows named are the same on
-- every version's random())
CREATE TABLE bad (match_id int, period int, player_id int, team int, place int);
INSERT INTO bad VALUES (1, 1, 1, 1, 1), (1, 1, 2, 1, 1), (1, 1, 3, 2, 2), (1, 1, 4, 2, 2),
                       (2, 2, 1, 1, 2), (2, 2, 3, 1, 2), (2, 2, 2, 2, 1), (2, 2, 4, 2, 1);
SELECT method, predictions FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
UPDATE bad SET place = NULL WHERE match_id = 2 AND player_id = 3;
SELECT * FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
UPDATE bad SET place = 0 WHERE place IS NULL;
SELECT * FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
UPDATE bad SET place = 2 WHERE place = 0;
ALTER TABLE bad ADD COLUMN weight float8 DEFAULT 1;
UPDATE bad SET weight = 1.5 WHERE player_id = 4 AND period = 2;
SELECT * FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
UPDATE bad SET weight = 'NaN' WHERE player_id = 4 AND period = 2;
SELECT * FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
UPDATE bad SET weight = 1;
ALTER TABLE bad ALTER COLUMN place TYPE float8;
SELECT * FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
ALTER TABLE bad ALTER COLUMN place TYPE int;
UPDATE bad SET place = 3 WHERE match_id = 1 AND player_id = 2;
SELECT * FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
UPDATE bad SET place = 2, team = 2 WHERE match_id = 1;
SELECT * FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
UPDATE bad SET team = 1 WHERE match_id = 1 AND player_id IN (1, 2);
INSERT INTO bad VALUES (2, 2, 1, 2, 1, 1);
SELECT * FROM glicko2_fit_matches('bad', ARRAY['sum'], '{0.5}');
\set VERBOSITY default

DROP SCHEMA fit CASCADE;
