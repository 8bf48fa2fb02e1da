-- Who a leaderboard shows: glicko2_provisional (RD at least a threshold,
-- lichess's 110 by default) and glicko2_rankable (RD grown to now as
-- glicko2_rating_at grows it at most a threshold, lichess's 75), their
-- NULLs and bad input, and the leaderboard of docs/league.md served by a
-- partial index in lower-bound order.
CREATE SCHEMA league_board;
SET search_path = league_board, public;
\set SHOW_CONTEXT never

CREATE FUNCTION try(command text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE command;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- Provisional at RD >= 110 (the threshold itself is provisional), or the league's own.
SELECT rd, glicko2_provisional(glicko2_rating(1500, rd, 0.06)) AS provisional,
       glicko2_provisional(glicko2_rating(1500, rd, 0.06), 150) AS provisional_150
FROM unnest(ARRAY[30, 109.99999999999999, 110, 149, 150, 350]::float8[]) rd;
SELECT glicko2_provisional(NULL) IS NULL AS null_in_null_out;

-- Rankable: the RD grown to at, at most 75 (75 itself is rankable).  A
-- player at RD 60 rated t days ago grows as glicko2_rating_at says.
SELECT days,
       glicko2_rankable(glicko2_rating(1500, 60, 0.06), timestamptz '2025-01-01' - days * interval '1 day',
                        timestamptz '2025-01-01') AS rankable,
       round((glicko2_rating_at(glicko2_rating(1500, 60, 0.06), timestamptz '2025-01-01' - days * interval '1 day',
                                timestamptz '2025-01-01')).rd::numeric, 3) AS rd_now
FROM unnest(ARRAY[0, 100, 200, 300, 400]) days;
-- Exactly glicko2_rating_at's RD against the threshold, over many players,
-- periods, caps and thresholds (no row where the two disagree).
SELECT count(*) AS compared,
       count(*) FILTER (WHERE glicko2_rankable(r, at0 - age, at0, t, per, cap)
                              IS DISTINCT FROM ((glicko2_rating_at(r, at0 - age, at0, per, cap)).rd <= t)) AS disagree
FROM (SELECT glicko2_rating(1500, 20 + (i % 97), 0.03 + (i % 7) / 100.0) AS r,
             timestamptz '2025-06-01 12:00' AS at0, (i % 53) * interval '7 hours' AS age,
             (ARRAY[50, 75, 110])[1 + i % 3]::float8 AS t,
             (ARRAY['1 day', '1 week', '1 hour'])[1 + i % 3]::interval AS per,
             (ARRAY[350, 80, NULL])[1 + i % 3]::float8 AS cap
      FROM generate_series(1, 3000) i) x;
-- A rating rated at or after at is read as stored; a NULL rated_at too
-- (never rated live); NULL r or at: NULL.
SELECT glicko2_rankable(glicko2_rating(1500, 75, 0.06), now() + interval '1 day') AS future_rated_at,
       glicko2_rankable(glicko2_rating(1500, 75, 0.06), NULL) AS never_live,
       glicko2_rankable(glicko2_rating(1500, 76, 0.06), NULL) AS never_live_76,
       glicko2_rankable(NULL, now()) IS NULL AS null_r,
       glicko2_rankable(glicko2_rating(1500, 60, 0.06), now(), NULL) IS NULL AS null_at;
-- The cap: with max_rd 70 nobody grows past 70, so everybody stays rankable.
SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), now() - interval '10 years', max_rd => 70) AS capped_rankable;

-- Bad input, each named with its SQLSTATE.
SELECT c, try(c) FROM unnest(ARRAY[
  $$SELECT glicko2_provisional(glicko2_rating(1500, 60, 0.06), 'NaN')$$,
  $$SELECT glicko2_provisional(glicko2_rating(1500, 60, 0.06), -1)$$,
  $$SELECT glicko2_provisional(glicko2_rating(1500, 60, 0.06), 'Infinity')$$,
  $$SELECT glicko2_provisional('(1500,-1,0.06)'::glicko2_rating)$$,
  $$SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), now(), rd => 0)$$,
  $$SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), now(), rd => NULL)$$,
  $$SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), now(), rd => '-Infinity')$$,
  $$SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), now(), period => '0 days')$$,
  $$SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), now(), period => NULL)$$,
  $$SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), now(), max_rd => 'NaN')$$,
  $$SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), 'infinity')$$,
  $$SELECT glicko2_rankable(glicko2_rating(1500, 60, 0.06), now(), '-infinity')$$,
  $$SELECT glicko2_rankable('(NaN,60,0.06)'::glicko2_rating, now())$$]) c;

-- Labels: both immutable (a partial index may use glicko2_provisional);
-- the default now() makes the caller's expression stable, so an index
-- predicate cannot hold glicko2_rankable with it.
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p WHERE p.proname IN ('glicko2_provisional', 'glicko2_rankable') ORDER BY 1;
SELECT try($$CREATE TABLE t (r glicko2_rating, at timestamptz);
             CREATE INDEX ON t (glicko2_lower(r)) WHERE glicko2_rankable(r, at)$$) AS rankable_in_index;

-- The leaderboard of docs/league.md: provisional and inactive players
-- hidden, ranked by the lower bound, read from a partial index in its
-- order (the inactive filtered on the way, as the scan finds them).
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
INSERT INTO ratings
SELECT i, glicko2_rating(1200 + (i * 7919) % 1000, 40 + (i * 31) % 120, 0.06),
       timestamptz '2025-03-01' - ((i * 13) % 400) * interval '1 day'
FROM generate_series(1, 20000) i;
CREATE INDEX ratings_board ON ratings (glicko2_lower(rating) DESC)
  WHERE NOT glicko2_provisional(rating);
ANALYZE ratings;
SET enable_seqscan = off;  -- (the plan of a league of millions, on a small table)
EXPLAIN (COSTS OFF)
SELECT player_id, round(glicko2_lower(rating)) AS shown
FROM ratings
WHERE NOT glicko2_provisional(rating) AND glicko2_rankable(rating, rated_at, timestamptz '2025-03-01')
ORDER BY glicko2_lower(rating) DESC LIMIT 10;
RESET enable_seqscan;
-- The same ten as the plain scan finds them, each rankable and not provisional.
SELECT (SELECT array_agg(player_id) FROM (
          SELECT player_id FROM ratings
          WHERE NOT glicko2_provisional(rating) AND glicko2_rankable(rating, rated_at, timestamptz '2025-03-01')
          ORDER BY glicko2_lower(rating) DESC, player_id LIMIT 10) a)
       = (SELECT array_agg(player_id) FROM (
          SELECT player_id FROM ratings
          WHERE (rating).rd < 110
            AND (glicko2_rating_at(rating, rated_at, timestamptz '2025-03-01')).rd <= 75
          ORDER BY (rating).rating - 2 * (rating).rd DESC, player_id LIMIT 10) b) AS same_ten;

DROP SCHEMA league_board CASCADE;
