-- glicko2_period as a parallel (partial) aggregate gives the serial plan's ratings.
CREATE TABLE par_sides AS
SELECT i % 500 AS player,
       glicko2_rating(1500 + (i % 500), 60 + (i % 500) / 5.0, 0.06) AS rating,
       glicko2_rating(1200 + (i * 7919) % 700, 30 + (i * 31) % 300, 0.06) AS opponent,
       ((i * 2654435761) % 3) / 2.0 AS score
FROM generate_series(1, 60000) i;
ANALYZE par_sides;

SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE serial AS
SELECT player, glicko2_period(rating, opponent, score) AS r,
       glicko1_period(glicko1_rating((rating).rating, (rating).rd),
                      glicko1_rating((opponent).rating, (opponent).rd), score) AS r1
FROM par_sides GROUP BY player;

SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SET enable_hashagg = off;

EXPLAIN (COSTS OFF)
SELECT player, glicko2_period(rating, opponent, score) FROM par_sides GROUP BY player;

CREATE TEMP TABLE parallel AS
SELECT player, glicko2_period(rating, opponent, score) AS r,
       glicko1_period(glicko1_rating((rating).rating, (rating).rd),
                      glicko1_rating((opponent).rating, (opponent).rd), score) AS r1
FROM par_sides GROUP BY player;

-- Same players, same numbers to 1e-9 relative.
SELECT count(*) AS players,
       count(*) FILTER (WHERE abs((p.r).rating / (s.r).rating - 1) < 1e-9
                          AND abs((p.r).rd / (s.r).rd - 1) < 1e-9
                          AND abs((p.r).volatility / (s.r).volatility - 1) < 1e-9
                          AND abs((p.r1).rating / (s.r1).rating - 1) < 1e-9
                          AND abs((p.r1).rd / (s.r1).rd - 1) < 1e-9) AS equal
FROM serial s JOIN parallel p USING (player);

-- The same with every query pushed through a worker.
-- force_parallel_mode was renamed debug_parallel_query in PostgreSQL 16.
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END,
                  'regress', false) AS every_query_through_a_worker;
SELECT count(*) AS equal_under_force_parallel
FROM serial s
JOIN (SELECT player, glicko2_period(rating, opponent, score) AS r FROM par_sides GROUP BY player) p USING (player)
WHERE abs((p.r).rating / (s.r).rating - 1) < 1e-9;
RESET ALL;
DROP TABLE par_sides;
