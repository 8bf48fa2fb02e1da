-- glicko2_explain: the paper's update with every intermediate quantity.
CREATE TABLE explain_games (opponent glicko2_rating, score float8);
INSERT INTO explain_games VALUES
  (glicko2_rating(1400, 30), 1), (glicko2_rating(1550, 100), 0), (glicko2_rating(1700, 300), 0);
CREATE TEMP TABLE paper AS
SELECT glicko2_explain(glicko2_rating(1500, 200, 0.06), opponent, score) AS e,
       glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score) AS p
FROM explain_games;

-- The keys of an explanation.
SELECT jsonb_object_keys(e) AS key FROM paper ORDER BY 1;
SELECT jsonb_object_keys(e->'games'->0) AS game_key FROM paper ORDER BY 1;

-- The paper's table of games: mu_j, phi_j, g(phi_j), E, s_j to its printed digits.
SELECT round((g->>'mu_j')::numeric, 4) AS mu_j, round((g->>'phi_j')::numeric, 4) AS phi_j,
       round((g->>'g')::numeric, 4) AS g, round((g->>'E')::numeric, 3) AS e, g->'s' AS s,
       g->'opponent' AS opponent
FROM paper, jsonb_array_elements(e->'games') g;

-- mu, phi, v, Delta, a, k, sigma', phi*, phi', mu' in exact double arithmetic
-- (the values the unit test and SPEC give), and the result: exactly glicko2_period's.
SELECT e->'mu' AS mu, e->'phi' AS phi, e->'v' AS v, e->'delta' AS delta, e->'a' AS a,
       e->'k' AS k, e->'sigma_new' AS sigma_new, e->'phi_star' AS phi_star,
       e->'phi_new' AS phi_new, e->'mu_new' AS mu_new, e->'no_information' AS no_information
FROM paper;
SELECT e->'result' AS result, glicko2_from_jsonb(e->'result') = p AS same_as_glicko2_period,
       e->'player' AS player, e->'tau' AS tau, e->'epsilon' AS epsilon
FROM paper;

-- The paper's Step 5 table, iteration 0 = the starting values, then two
-- Illinois iterations, as the paper has it.
SELECT i - 1 AS iteration, round((it->>'A')::numeric, 5) AS a, round((it->>'B')::numeric, 5) AS b,
       round((it->>'fA')::numeric, 12) AS f_a, round((it->>'fB')::numeric, 12) AS f_b
FROM paper, jsonb_array_elements(e->'iterations') WITH ORDINALITY AS t(it, i)
ORDER BY i;

-- Against the digits the paper prints.  The paper rounds its intermediates
-- (phi = 1.1513 for 1.1512925, v = 1.7785 for 1.7789771, Delta = -0.4834 for
-- -0.4839333, E to 3 digits), and its later figures are computed from those
-- rounded numbers.  Exact double arithmetic therefore differs in the digits
-- those roundings reach, and each tolerance below is that reach, not a
-- loosening: A, B, k, sigma', phi', mu' agree to every printed digit; f(A)
-- is -0.000535503 against the printed -0.00053567 (the next query recomputes
-- the printed value from the paper's rounded phi, v and Delta); the f values
-- near the root (1.5228e-8 against 1.5238e-8) move with them; phi* is
-- 1.1528547 against 1.152862 = sqrt(1.1513^2 + 0.05999^2).  In iteration 2
-- the paper prints f_B = +0.000000015238, but A moved to B in that step,
-- which Step 5.4(b) does only when f_C f_B <= 0: f_C (the new f_B) is
-- negative, -1.5227e-8, and the printed sign is a slip.
SELECT abs((e->'iterations'->0->>'A')::float8 - -5.62682) < 5e-6 AS a0,
       abs((e->'iterations'->0->>'B')::float8 - -6.12682) < 5e-6 AS b0,
       abs((e->'iterations'->0->>'fA')::float8 - -0.00053567) < 2e-7 AS fa0_paper_rounding,
       abs((e->'iterations'->0->>'fA')::float8 - -0.000535503) < 5e-10 AS fa0_exact,
       abs((e->'iterations'->0->>'fB')::float8 - 1.999675) < 5e-7 AS fb0,
       abs((e->'iterations'->1->>'A')::float8 - -5.62682) < 5e-6 AS a1,
       abs((e->'iterations'->1->>'B')::float8 - -5.62696) < 5e-6 AS b1,
       abs((e->'iterations'->1->>'fA')::float8 - -0.00026784) < 1e-7 AS fa1_paper_rounding,
       abs((e->'iterations'->1->>'fB')::float8 - 0.000000015238) < 2e-11 AS fb1_paper_rounding,
       abs((e->'iterations'->2->>'A')::float8 - -5.62696) < 5e-6 AS a2,
       abs((e->'iterations'->2->>'B')::float8 - -5.62696) < 5e-6 AS b2,
       abs((e->'iterations'->2->>'fA')::float8 - 0.000000015238) < 2e-11 AS fa2_paper_rounding,
       abs(abs((e->'iterations'->2->>'fB')::float8) - 0.000000015238) < 2e-11
         AND (e->'iterations'->2->>'fB')::float8 < 0 AS fb2_magnitude_sign_as_step_5_4b,
       jsonb_array_length(e->'iterations') = 3 AS two_iterations,
       (e->>'k')::int = 1 AS k_is_1
FROM paper;
-- v and Delta as printed differ by the rounding of E to 3 digits; sigma' =
-- exp(-5.62696/2) = 0.0599960 is printed 0.05999, cut rather than rounded,
-- hence one unit of its last digit.
SELECT abs((e->>'v')::float8 - 1.7785) < 6e-4 AS v_paper_rounding,
       abs((e->>'delta')::float8 - -0.4834) < 6e-4 AS delta_paper_rounding,
       abs((e->>'sigma_new')::float8 - 0.05999) < 1e-5 AS sigma_new_printed,
       abs((e->>'phi_star')::float8 - 1.152862) < 1e-5 AS phi_star_paper_rounding,
       abs((e->>'phi_star')::float8 - 1.1528547) < 5e-8 AS phi_star_exact,
       round((e->>'phi_new')::numeric, 4) = 0.8722 AS phi_new_printed,
       round((e->>'mu_new')::numeric, 4) = -0.2069 AS mu_new_printed
FROM paper;
-- The paper's own f(A) and phi* from its rounded phi = 1.1513, v = 1.7785,
-- Delta = -0.4834, sigma' = 0.05999: the printed -0.00053567 and 1.152862.
SELECT round((0.0036 * (0.4834^2 - 1.1513^2 - 1.7785 - 0.0036)
              / (2 * (1.1513^2 + 1.7785 + 0.0036)^2))::numeric, 8) AS f_a_from_rounded,
       round(sqrt(1.1513^2 + 0.05999^2)::numeric, 6) AS phi_star_from_rounded;

-- The explanation is self-consistent: v and Delta from its games, sigma' =
-- exp(A/2) of the last iteration, phi* and phi' from Steps 6 and 7, the
-- result from Step 8 (to 1e-12 relative: the sums are taken in another order).
SELECT abs((e->>'v')::float8 * sum((g->>'g')::float8 ^ 2 * (g->>'E')::float8 * (1 - (g->>'E')::float8)) - 1) < 1e-12 AS v_ok,
       abs((e->>'delta')::float8 / ((e->>'v')::float8 * sum((g->>'g')::float8 * ((g->>'s')::float8 - (g->>'E')::float8))) - 1) < 1e-12 AS delta_ok,
       abs((e->>'sigma_new')::float8 / exp((e->'iterations'->-1->>'A')::float8 / 2) - 1) < 1e-15 AS sigma_ok,
       abs((e->>'phi_star')::float8 / sqrt((e->>'phi')::float8 ^ 2 + (e->>'sigma_new')::float8 ^ 2) - 1) < 1e-15 AS phi_star_ok,
       abs((e->>'phi_new')::float8 / (1 / sqrt(1 / (e->>'phi_star')::float8 ^ 2 + 1 / (e->>'v')::float8)) - 1) < 1e-12 AS phi_new_ok,
       abs((e->'result'->>'rating')::float8 / (173.7178 * (e->>'mu_new')::float8 + 1500) - 1) < 1e-15 AS rating_ok,
       abs((e->'result'->>'rd')::float8 / (173.7178 * (e->>'phi_new')::float8) - 1) < 1e-15 AS rd_ok
FROM paper, jsonb_array_elements(e->'games') g
GROUP BY e;

-- tau given explicitly; a larger tau moves sigma' further.
SELECT glicko2_explain(glicko2_rating(1500, 200, 0.06), opponent, score, 0.5)
     = glicko2_explain(glicko2_rating(1500, 200, 0.06), opponent, score) AS tau_default_is_half,
       (glicko2_explain(glicko2_rating(1500, 200, 0.06), opponent, score, 1.2)->>'tau')::float8 AS tau,
       glicko2_from_jsonb(glicko2_explain(glicko2_rating(1500, 200, 0.06), opponent, score, 1.2)->'result')
     = glicko2_period(glicko2_rating(1500, 200, 0.06), opponent, score, 1.2) AS same_with_tau
FROM explain_games;

-- Step 5.2's other branch: Delta^2 > phi^2 + v gives B = ln(Delta^2 - phi^2 - v)
-- and k = 0 (a steady 1500/30 player who loses ten games to 1300/30 players).
SELECT e->'k' AS k, (e->>'delta')::float8 ^ 2 > (e->>'phi')::float8 ^ 2 + (e->>'v')::float8 AS big_surprise,
       abs((e->'iterations'->0->>'B')::float8
           - ln((e->>'delta')::float8 ^ 2 - (e->>'phi')::float8 ^ 2 - (e->>'v')::float8)) < 1e-12 AS b_is_log,
       glicko2_from_jsonb(e->'result') = p AS same_as_glicko2_period
FROM (SELECT glicko2_explain(glicko2_rating(1500, 30, 0.06), glicko2_rating(1300, 30), 0) AS e,
             glicko2_period(glicko2_rating(1500, 30, 0.06), glicko2_rating(1300, 30), 0) AS p
      FROM generate_series(1, 10)) t;

-- NULL ratings are unrated players, NULL scores are skipped; a group with no
-- scored game, or whose every E saturates, is Step 6 alone: v, Delta and k
-- are null and there are no iterations.
SELECT jsonb_array_length(e->'games') AS games, e->'player' AS player,
       e->'games'->0->'opponent' AS unrated_opponent,
       glicko2_from_jsonb(e->'result') = p AS same_as_glicko2_period
FROM (SELECT glicko2_explain(NULL, o, s) AS e, glicko2_period(NULL, o, s) AS p
      FROM (VALUES (NULL::glicko2_rating, 1), (glicko2_rating(1500, 200), NULL)) v(o, s)) t;
SELECT e->'games' AS games, e->'no_information' AS no_information, e->'v' AS v,
       e->'delta' AS delta, e->'k' AS k, e->'iterations' AS iterations, e->'result' AS result,
       glicko2_from_jsonb(e->'result') = p AS same_as_glicko2_period
FROM (SELECT glicko2_explain(glicko2_rating(1500, 200, 0.06), o, s) AS e,
             glicko2_period(glicko2_rating(1500, 200, 0.06), o, s) AS p
      FROM (VALUES (glicko2_rating(1400, 30), NULL::float8)) v(o, s)) t;
SELECT e->'no_information' AS no_information, jsonb_array_length(e->'games') AS games,
       e->'games'->0->'E' AS e_saturated, e->'iterations' AS iterations,
       glicko2_from_jsonb(e->'result') = p AS same_as_glicko2_period
FROM (SELECT glicko2_explain(glicko2_rating(1e6, 50), glicko2_rating(1500, 50), 0) AS e,
             glicko2_period(glicko2_rating(1e6, 50), glicko2_rating(1500, 50), 0) AS p) t;
-- No rows: NULL, as glicko2_period.
SELECT glicko2_explain(glicko2_rating(), opponent, score) IS NULL AS no_rows
FROM explain_games WHERE false;

-- Many players, in GROUP BY: every result is exactly glicko2_period's, serial
-- and as a parallel (partial) aggregate with combine/serial/deserial.
CREATE TABLE explain_sides AS
SELECT i % 400 AS player,
       glicko2_rating(1300 + (i % 400), 40 + (i % 400) / 2.0, 0.06) AS rating,
       glicko2_rating(1100 + (i * 7919) % 800, 30 + (i * 31) % 300, 0.06) AS opponent,
       ((i * 2654435761) % 3) / 2.0 AS score
FROM generate_series(1, 40000) i;
ANALYZE explain_sides;
SET max_parallel_workers_per_gather = 0;
SELECT count(*) AS players,
       count(*) FILTER (WHERE glicko2_from_jsonb(e->'result') = p) AS identical,
       count(*) FILTER (WHERE jsonb_array_length(e->'games') = n) AS all_games_listed
FROM (SELECT player, glicko2_explain(rating, opponent, score) AS e,
             glicko2_period(rating, opponent, score) AS p, count(*) AS n
      FROM explain_sides GROUP BY player) t;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SET enable_hashagg = off;
EXPLAIN (COSTS OFF)
SELECT player, glicko2_explain(rating, opponent, score) FROM explain_sides GROUP BY player;
SELECT count(*) AS players,
       count(*) FILTER (WHERE glicko2_from_jsonb(e->'result') = p) AS identical,
       count(*) FILTER (WHERE jsonb_array_length(e->'games') = n) AS all_games_listed
FROM (SELECT player, glicko2_explain(rating, opponent, score) AS e,
             glicko2_period(rating, opponent, score) AS p, count(*) AS n
      FROM explain_sides GROUP BY player) t;
-- One group of 8000 games through workers: its games are split between
-- partial states and combined.
EXPLAIN (COSTS OFF)
SELECT glicko2_explain(glicko2_rating(1500, 100), opponent, score)
FROM explain_sides WHERE player < 80;
SELECT jsonb_array_length(e->'games') AS games, glicko2_from_jsonb(e->'result') = p AS identical
FROM (SELECT glicko2_explain(glicko2_rating(1500, 100), opponent, score) AS e,
             glicko2_period(glicko2_rating(1500, 100), opponent, score) AS p
      FROM explain_sides WHERE player < 80) t;
-- force_parallel_mode was renamed debug_parallel_query in PostgreSQL 16.
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END,
                  'regress', false) AS every_query_through_a_worker;
SELECT count(*) FILTER (WHERE glicko2_from_jsonb(e->'result') = p) AS identical_under_force_parallel
FROM (SELECT player, glicko2_explain(rating, opponent, score) AS e,
             glicko2_period(rating, opponent, score) AS p
      FROM explain_sides GROUP BY player) t;
RESET ALL;

-- The list of games is bounded: 10000 games explain, 10001 are an error.
SELECT jsonb_array_length(glicko2_explain(glicko2_rating(), glicko2_rating(1500 + i % 100, 50), (i % 2)::float8)->'games') AS games
FROM generate_series(1, 10000) i;
SELECT glicko2_explain(glicko2_rating(), glicko2_rating(1500 + i % 100, 50), (i % 2)::float8)
FROM generate_series(1, 10001) i;

-- Bad input: the same errors as glicko2_period.
SELECT glicko2_explain(p, glicko2_rating(), 1)
FROM (VALUES (glicko2_rating(1500, 200)), (glicko2_rating(1500, 201))) v(p);
SELECT glicko2_explain(glicko2_rating(), glicko2_rating(), 1.5);
SELECT glicko2_explain(glicko2_rating(), glicko2_rating(), 1, NULL);
SELECT glicko2_explain(glicko2_rating(), glicko2_rating(), 1, 0);
SELECT glicko2_explain(glicko2_rating(), '(1500,NaN,0.06)'::glicko2_rating, 1);

DROP TABLE explain_games, explain_sides;
