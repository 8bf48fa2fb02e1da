-- The aggregates add each row's game to its state a few rows later (deferred
-- accumulation, src/period_agg.c).  Every plan shape must give the ratings
-- of adding at once: hashed with many interleaved groups, spilled to disk,
-- sorted grouping sets, moving window frames, and after an error.
CREATE TABLE dsides AS
SELECT i AS id, i % 97 AS player, 1 + i % 2 AS period,
       glicko2_rating(1400 + (i % 97) * 3, 40 + (i % 97), 0.05 + (i % 97) / 10000.0) AS rating,
       glicko2_rating(1200 + (i * 7919) % 600, 30 + (i * 31) % 300, 0.06) AS opponent,
       ((i * 2654435761) % 3) / 2.0 AS score
FROM generate_series(1, 20000) i;
ANALYZE dsides;
SET max_parallel_workers_per_gather = 0;

CREATE FUNCTION pg_temp.hashagg_batches(q text) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  plan json;
BEGIN
  EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, FORMAT JSON) ' || q INTO plan;
  RETURN (plan -> 0 -> 'Plan' ->> 'HashAgg Batches')::int;
END $$;
-- Equal to 1e-12 relative (where the order of the rows may differ).
CREATE FUNCTION pg_temp.near(a glicko2_rating, b glicko2_rating) RETURNS bool LANGUAGE sql
RETURN abs(a.rating / b.rating - 1) < 1e-12 AND abs(a.rd / b.rd - 1) < 1e-12
   AND abs(a.volatility / b.volatility - 1) < 1e-12;

-- Reference: one player at a time (a plain aggregate, rows in the same order).
CREATE TEMP TABLE reference AS
SELECT p AS player,
       (SELECT glicko2_period(rating, opponent, score) FROM dsides WHERE player = p) AS r,
       (SELECT glicko1_period(glicko1_rating((rating).rating, (rating).rd),
                              glicko1_rating((opponent).rating, (opponent).rd), score)
        FROM dsides WHERE player = p) AS r1
FROM generate_series(0, 96) p;

-- Hashed, 97 groups interleaved row by row: bit-for-bit the reference.
SET enable_hashagg = on;
EXPLAIN (COSTS OFF) SELECT player, glicko2_period(rating, opponent, score) FROM dsides GROUP BY player;
SELECT count(*) AS players,
       count(*) FILTER (WHERE h.r = ref.r AND h.r1 = ref.r1) AS identical
FROM reference ref
JOIN (SELECT player, glicko2_period(rating, opponent, score) AS r,
             glicko1_period(glicko1_rating((rating).rating, (rating).rd),
                            glicko1_rating((opponent).rating, (opponent).rd), score) AS r1
      FROM dsides GROUP BY player) h USING (player);

-- Hashed with too little memory: groups spill to disk and the aggregate
-- context is reset between batches.  Same ratings as in memory.
CREATE TEMP TABLE in_memory AS
SELECT player, id % 50 AS part, glicko2_period(rating, opponent, score) AS r
FROM dsides GROUP BY player, id % 50;
SET work_mem = '64kB';
SET enable_sort = off;
SELECT pg_temp.hashagg_batches('SELECT player, id % 50, glicko2_period(rating, opponent, score) FROM dsides GROUP BY player, id % 50') > 1 AS spilled;
SELECT count(*) AS groups, count(*) FILTER (WHERE s.r = m.r) AS identical
FROM in_memory m
JOIN (SELECT player, id % 50 AS part, glicko2_period(rating, opponent, score) AS r
      FROM dsides GROUP BY player, id % 50) s USING (player, part);
RESET work_mem;
RESET enable_sort;

-- Sorted grouping sets: two aggregate contexts fed by one call site.
SET enable_hashagg = off;
SELECT count(*) AS players,
       count(*) FILTER (WHERE pg_temp.near(g.r, ref.r)) AS equal
FROM reference ref
JOIN (SELECT player, period, glicko2_period(rating, opponent, score) AS r
      FROM dsides GROUP BY GROUPING SETS ((player, period), (player))) g USING (player)
WHERE g.period IS NULL;
SELECT count(*) AS player_periods,
       count(*) FILTER (WHERE pg_temp.near(g.r, p.r)) AS equal
FROM (SELECT player, period, glicko2_period(rating, opponent, score) AS r
      FROM dsides GROUP BY GROUPING SETS ((player, period), (player))) g
JOIN (SELECT player, period, glicko2_period(rating, opponent, score ORDER BY id) AS r
      FROM dsides GROUP BY player, period) p USING (player, period);
RESET enable_hashagg;

-- A moving window frame restarts the aggregate on every row.
SELECT count(*) AS rows,
       count(*) FILTER (WHERE w.r = j.r) AS identical
FROM (SELECT id, glicko2_period(rating, opponent, score)
                 OVER (PARTITION BY player ORDER BY id ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS r
      FROM dsides WHERE player < 5) w
JOIN (SELECT a.id, glicko2_period(b.rating, b.opponent, b.score ORDER BY b.id) AS r
      FROM dsides a JOIN dsides b ON b.player = a.player AND b.id <= a.id
                                 AND b.id > a.id - 4 * 97
      WHERE a.player < 5 GROUP BY a.id) j USING (id);

-- A differing player rating deep inside a hashed group is still found.
SELECT player, glicko2_period(rating, opponent, score)
FROM (SELECT * FROM dsides
      UNION ALL SELECT 20001, 5, 1, glicko2_rating(1, 2, 0.06), glicko2_rating(), 1) d
GROUP BY player;
-- An error mid-query leaves nothing behind for the next query.
SELECT player, glicko2_period(rating, opponent, score)
FROM (SELECT * FROM dsides UNION ALL SELECT 20001, 5, 1, rating, opponent, 'NaN' FROM dsides WHERE id = 5) d
GROUP BY player;
SELECT count(*) FILTER (WHERE h.r = ref.r) AS identical_after_error
FROM reference ref
JOIN (SELECT player, glicko2_period(rating, opponent, score) AS r FROM dsides GROUP BY player) h USING (player);

DROP TABLE dsides;
RESET ALL;
