-- Callers other than PostgreSQL's aggregate node call the transition
-- function themselves, some through a fresh FmgrInfo for every row made in a
-- short-lived context (Citus's partial aggregation), so fn_extra is NULL on
-- every call and freed after it.  The aggregates must then add each game at
-- once: no crash, no game lost, the same bits as glicko2_period itself.
-- The caller is test/helper/glicko2_test_helper.c (test-only, built and
-- installed by test.sh): it also serializes, deserializes, combines into an
-- empty state and finalizes through fresh FmgrInfos, as Citus does.
CREATE FUNCTION pg_temp.fresh_fmgr_sfunc(internal, regprocedure, glicko2_rating, glicko2_rating, float8)
  RETURNS internal AS '$libdir/glicko2_test_helper' LANGUAGE C;
CREATE FUNCTION pg_temp.fresh_fmgr_final(internal, regprocedure, glicko2_rating, glicko2_rating, float8)
  RETURNS text AS '$libdir/glicko2_test_helper' LANGUAGE C;
CREATE AGGREGATE pg_temp.fresh_fmgr(regprocedure, glicko2_rating, glicko2_rating, float8) (
  SFUNC = pg_temp.fresh_fmgr_sfunc, STYPE = internal,
  FINALFUNC = pg_temp.fresh_fmgr_final, FINALFUNC_EXTRA);
CREATE FUNCTION pg_temp.fresh_fmgr_sfunc(internal, regprocedure, glicko1_rating, glicko1_rating, float8)
  RETURNS internal AS '$libdir/glicko2_test_helper' LANGUAGE C;
CREATE FUNCTION pg_temp.fresh_fmgr_final(internal, regprocedure, glicko1_rating, glicko1_rating, float8)
  RETURNS text AS '$libdir/glicko2_test_helper' LANGUAGE C;
CREATE AGGREGATE pg_temp.fresh_fmgr(regprocedure, glicko1_rating, glicko1_rating, float8) (
  SFUNC = pg_temp.fresh_fmgr_sfunc, STYPE = internal,
  FINALFUNC = pg_temp.fresh_fmgr_final, FINALFUNC_EXTRA);

-- 97 players, 200 games each, interleaved row by row (a hash aggregate keeps
-- 97 states open at once); NULL scores and unrated opponents among them.
CREATE TEMP TABLE fsides AS
SELECT i AS id, i % 97 AS player,
       glicko2_rating(1400 + (i % 97) * 3, 40 + (i % 97), 0.05 + (i % 97) / 10000.0) AS rating,
       CASE WHEN i % 101 <> 0 THEN glicko2_rating(1200 + (i * 7919) % 600, 30 + (i * 31) % 300, 0.06) END AS opponent,
       CASE WHEN i % 89 <> 0 THEN ((i * 2654435761) % 3) / 2.0 END AS score
FROM generate_series(1, 19400) i;
CREATE TEMP VIEW fsides1 AS
SELECT id, player, glicko1_rating((rating).rating, (rating).rd) AS rating,
       glicko1_rating((opponent).rating, (opponent).rd) AS opponent, score
FROM fsides;
SET max_parallel_workers_per_gather = 0;

-- Hashed and sorted, Glicko-2 and Glicko-1: every player bit for bit.
SET enable_hashagg = on;
EXPLAIN (COSTS OFF)
SELECT player, pg_temp.fresh_fmgr('glicko2_period(glicko2_rating, glicko2_rating, float8)', rating, opponent, score)
FROM fsides GROUP BY player;
SELECT count(*) AS players, count(*) FILTER (WHERE r::text = f) AS identical, count(f) AS results
FROM (SELECT player, glicko2_period(rating, opponent, score) AS r,
             pg_temp.fresh_fmgr('glicko2_period(glicko2_rating, glicko2_rating, float8)', rating, opponent, score) AS f
      FROM fsides GROUP BY player) x;
SELECT count(*) AS players, count(*) FILTER (WHERE r::text = f) AS identical
FROM (SELECT player, glicko1_period(rating, opponent, score) AS r,
             pg_temp.fresh_fmgr('glicko1_period(glicko1_rating, glicko1_rating, float8)', rating, opponent, score) AS f
      FROM fsides1 GROUP BY player) x;
SET enable_hashagg = off;
SELECT count(*) AS players, count(*) FILTER (WHERE r::text = f) AS identical
FROM (SELECT player, glicko2_period(rating, opponent, score) AS r,
             pg_temp.fresh_fmgr('glicko2_period(glicko2_rating, glicko2_rating, float8)', rating, opponent, score) AS f
      FROM fsides GROUP BY player) x;
RESET enable_hashagg;

-- One group of all 19400 rows: every game counted (a lost game would change
-- the rating, and the serialized state carries the count of games).
SELECT glicko2_period(rating, opponent, score)::text =
       pg_temp.fresh_fmgr('glicko2_period(glicko2_rating, glicko2_rating, float8)', rating, opponent, score) AS identical
FROM (SELECT id, glicko2_rating(1500, 200, 0.06) AS rating, opponent, score FROM fsides) x;

-- The aggregate node's own calls (queued) and a fresh-FmgrInfo caller in one
-- query, over the same groups.
SELECT count(*) AS players, count(*) FILTER (WHERE r::text = f AND r = r2) AS identical
FROM (SELECT player, glicko2_period(rating, opponent, score) AS r,
             pg_temp.fresh_fmgr('glicko2_period(glicko2_rating, glicko2_rating, float8)', rating, opponent, score) AS f,
             glicko2_period(rating, opponent, score, 0.5) AS r2
      FROM fsides GROUP BY player) x;

-- Bad input through that caller: the same clear error, and then the next
-- query is sound.
SELECT pg_temp.fresh_fmgr('glicko2_period(glicko2_rating, glicko2_rating, float8)', rating, opponent, 2)
FROM fsides GROUP BY player;
SELECT count(*) AS players FROM (
  SELECT pg_temp.fresh_fmgr('glicko2_period(glicko2_rating, glicko2_rating, float8)', rating, opponent, score)
  FROM fsides GROUP BY player) x;
RESET max_parallel_workers_per_gather;
