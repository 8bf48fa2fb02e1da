-- bench/matchmaking.sql — run by bench/matchmaking.sh in a throwaway cluster.
-- Each measurement is a ratio against a reference on the same rows in the
-- same run (medians of :reps interleaved repetitions); fairness beside it.
--   1. glicko2_pair on :players queued players, against
--      SELECT ... FROM queue ORDER BY (rating).rating (and ORDER BY rating,
--      the composite, which compares records field by field); and the floor
--      under it, every row locked then deleted in plain SQL.
--   2. glicko2_lobbies(queue, 5) on :lobby_players players (5v5), against the
--      same ORDER BY on those rows.
--   3. glicko2_balance of 10-player lobbies, 10 000 of them, against
--      cardinality() of the same arrays: microseconds per lobby.
-- glicko2_pair and glicko2_lobbies delete what they place: each run is
-- undone by a subtransaction rolled back (its time is not counted); the
-- timed runs count the rows returned (PERFORM count(*)), as the references do.
\set ON_ERROR_STOP on
\pset footer off
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS glicko2 CASCADE;
CREATE EXTENSION glicko2;
SELECT setseed(0.42) \gset
DROP TABLE IF EXISTS queue, lobby_queue, lobbies10, times, fairness;
CREATE TABLE queue (player_id bigint PRIMARY KEY, rating glicko2_rating NOT NULL,
                    queued_at timestamptz NOT NULL);
INSERT INTO queue
SELECT i, glicko2_rating(1500 + 300 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()), 50 + 100 * random()),
       now() - 30 * random() * interval '1 s'
FROM generate_series(1, :players) i;
CREATE TABLE lobby_queue (LIKE queue INCLUDING ALL);
INSERT INTO lobby_queue SELECT * FROM queue WHERE player_id <= :lobby_players;
CREATE TABLE lobbies10 AS
SELECT l, array_agg(glicko2_rating(1500 + 300 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()),
                                   50 + 100 * random())) AS a
FROM generate_series(1, 10000) l, generate_series(1, 10) i GROUP BY l;
VACUUM ANALYZE queue, lobby_queue, lobbies10;
CREATE TABLE times (what text, rep int, ms float8);
CREATE TABLE fairness (what text, games bigint, left_waiting bigint, mean_unfair float8, worst_unfair float8, largest_gap float8);

DO $$
DECLARE
  t timestamptz;
  ms float8;
  f record;
  reps int := current_setting('bench.reps')::int;
  rec record;
BEGIN
  -- Fairness, once (not timed; rolled back like the timed runs).
  BEGIN
    CREATE TEMP TABLE pairs AS SELECT * FROM glicko2_pair_typed('queue', NULL::bigint);
    SELECT 'glicko2_pair(queue) (max_gap 100, widen 5)' AS what, count(*) AS games,
           (SELECT count(*) FROM queue) AS left_waiting, avg(abs(p_win - 0.5)) AS mean_unfair,
           max(abs(p_win - 0.5)) AS worst_unfair, max(gap) AS largest_gap INTO f FROM pairs;
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'undo';
  EXCEPTION WHEN raise_exception THEN NULL;
  END;
  INSERT INTO fairness VALUES (f.what, f.games, f.left_waiting, f.mean_unfair, f.worst_unfair, f.largest_gap);
  BEGIN
    CREATE TEMP TABLE lobbies AS SELECT * FROM glicko2_lobbies_typed('lobby_queue', 5, NULL::bigint);
    SELECT 'glicko2_lobbies(lobby_queue, 5) (max_gap 200, widen 5)' AS what, count(DISTINCT lobby) AS games,
           (SELECT count(*) FROM lobby_queue) AS left_waiting, avg(abs(p_win - 0.5)) AS mean_unfair,
           max(abs(p_win - 0.5)) AS worst_unfair,
           (SELECT max(s) FROM (SELECT max((rating).rating) - min((rating).rating) AS s
                                FROM lobbies GROUP BY lobby) g) AS largest_gap
    INTO f FROM lobbies WHERE team = 1;
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'undo';
  EXCEPTION WHEN raise_exception THEN NULL;
  END;
  INSERT INTO fairness VALUES (f.what, f.games, f.left_waiting, f.mean_unfair, f.worst_unfair, f.largest_gap);

  FOR r IN 1 .. reps LOOP
    t := clock_timestamp();
    PERFORM count(*) FROM (SELECT player_id, rating, queued_at FROM queue ORDER BY (rating).rating) s;
    INSERT INTO times VALUES ('ORDER BY (rating).rating, queue', r, 1000 * extract(epoch FROM clock_timestamp() - t));

    -- (the subtransaction rolled back undoes the delete; the figures are
    -- kept in variables, which a rollback does not touch)
    BEGIN
      t := clock_timestamp();
      PERFORM count(*) FROM glicko2_pair_typed('queue', NULL::bigint);
      ms := 1000 * extract(epoch FROM clock_timestamp() - t);
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'undo';
    EXCEPTION WHEN raise_exception THEN NULL;
    END;
    INSERT INTO times VALUES ('glicko2_pair(queue)', r, ms);

    -- The floor under glicko2_pair: every row locked (FOR UPDATE SKIP
    -- LOCKED), then every row deleted, as it does when all are paired; no
    -- plan, no result.
    BEGIN
      t := clock_timestamp();
      PERFORM count(*) FROM (SELECT 1 FROM ONLY queue FOR UPDATE SKIP LOCKED) s;
      DELETE FROM ONLY queue;
      ms := 1000 * extract(epoch FROM clock_timestamp() - t);
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'undo';
    EXCEPTION WHEN raise_exception THEN NULL;
    END;
    INSERT INTO times VALUES ('floor: lock, then delete, every row', r, ms);

    t := clock_timestamp();
    PERFORM count(*) FROM (SELECT player_id, rating, queued_at FROM queue ORDER BY rating) s;
    INSERT INTO times VALUES ('ORDER BY rating (composite), queue', r, 1000 * extract(epoch FROM clock_timestamp() - t));

    t := clock_timestamp();
    PERFORM count(*) FROM (SELECT player_id, rating, queued_at FROM lobby_queue ORDER BY (rating).rating) s;
    INSERT INTO times VALUES ('ORDER BY (rating).rating, lobby_queue', r, 1000 * extract(epoch FROM clock_timestamp() - t));

    BEGIN
      t := clock_timestamp();
      PERFORM count(*) FROM glicko2_lobbies_typed('lobby_queue', 5, NULL::bigint);
      ms := 1000 * extract(epoch FROM clock_timestamp() - t);
      RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'undo';
    EXCEPTION WHEN raise_exception THEN NULL;
    END;
    INSERT INTO times VALUES ('glicko2_lobbies(lobby_queue, 5)', r, ms);

    t := clock_timestamp();
    PERFORM sum(cardinality(a)) FROM lobbies10;
    INSERT INTO times VALUES ('cardinality(lobby) x 10000', r, 1000 * extract(epoch FROM clock_timestamp() - t));
    t := clock_timestamp();
    PERFORM sum(cardinality(glicko2_balance(a))) FROM lobbies10;
    INSERT INTO times VALUES ('glicko2_balance(lobby) x 10000', r, 1000 * extract(epoch FROM clock_timestamp() - t));
  END LOOP;

  -- Fairness of the balanced 10-player lobbies, and of splitting them by position (1-5 against 6-10).
  INSERT INTO fairness
  SELECT 'glicko2_balance, 10 players', count(*), NULL,
         avg(abs(p - 0.5)), max(abs(p - 0.5)), NULL
  FROM (SELECT glicko2_team_win_probability(
                 ARRAY(SELECT a[i] FROM generate_subscripts(a, 1) i WHERE (glicko2_balance(a))[i] = 1),
                 ARRAY(SELECT a[i] FROM generate_subscripts(a, 1) i WHERE (glicko2_balance(a))[i] = 2)) AS p
        FROM lobbies10 WHERE l <= 1000) s;
  INSERT INTO fairness
  SELECT 'split by position, 10 players', count(*), NULL, avg(abs(p - 0.5)), max(abs(p - 0.5)), NULL
  FROM (SELECT glicko2_team_win_probability(a[1:5], a[6:10]) AS p FROM lobbies10 WHERE l <= 1000) s;
END $$;

\echo
\echo 'Times (median of the repetitions, ms):'
SELECT what, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)::numeric, 1) AS median_ms,
       round(min(ms)::numeric, 1) AS min_ms, round(max(ms)::numeric, 1) AS max_ms
FROM times GROUP BY what ORDER BY what;
WITH m AS (SELECT what, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM times GROUP BY what)
SELECT ratio, value FROM (
SELECT r.k, r.ratio, round((n.ms / d.ms)::numeric, 2) AS value
FROM (VALUES (1, 'glicko2_pair / ORDER BY (rating).rating', 'glicko2_pair(queue)', 'ORDER BY (rating).rating, queue'),
             (2, 'floor (lock + delete every row) / ORDER BY (rating).rating',
                 'floor: lock, then delete, every row', 'ORDER BY (rating).rating, queue'),
             (3, 'glicko2_pair / floor', 'glicko2_pair(queue)', 'floor: lock, then delete, every row'),
             (4, 'glicko2_pair / ORDER BY rating (composite)', 'glicko2_pair(queue)', 'ORDER BY rating (composite), queue'),
             (5, 'glicko2_lobbies 5v5 / ORDER BY (rating).rating', 'glicko2_lobbies(lobby_queue, 5)',
                 'ORDER BY (rating).rating, lobby_queue')) r (k, ratio, numerator, denominator)
JOIN m n ON n.what = r.numerator
JOIN m d ON d.what = r.denominator
UNION ALL
SELECT 6, 'glicko2_balance, 10 players: microseconds per lobby',
       round((1000 * ((SELECT ms FROM m WHERE what = 'glicko2_balance(lobby) x 10000')
                      - (SELECT ms FROM m WHERE what = 'cardinality(lobby) x 10000')) / 10000)::numeric, 1)
) ratios ORDER BY k;
\echo 'Fairness (|p - 0.5| of each game; for lobbies, of team 1):'
SELECT what, games, left_waiting, round(mean_unfair::numeric, 5) AS "mean |p - 0.5|",
       round(worst_unfair::numeric, 5) AS "worst |p - 0.5|", round(largest_gap::numeric, 1) AS "largest gap or spread"
FROM fairness;
