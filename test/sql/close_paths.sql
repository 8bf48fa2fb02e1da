-- glicko2_close_period computes the new ratings with a SELECT into a
-- temporary table, which PostgreSQL may run with parallel workers; a caller
-- who may not create temporary tables (or already has one of that name) gets
-- the same computation inside the close's one statement.  Every path gives
-- the same ratings, bit for bit, as glicko2_period and glicko2_idle do.
CREATE SCHEMA close_paths;
SET search_path = close_paths, public;
SET client_min_messages = error;  -- no trigger guards these games: no warning

-- The data is pseudo-random but the same on every PostgreSQL version (the
-- generator behind random() changed in 15): u(i, k) is a uniform number in
-- [0, 1) from PostgreSQL's integer hash with seed k, which cannot change
-- between versions (hash partitions and pg_upgrade depend on it).
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
CREATE TABLE base (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL);
INSERT INTO base
SELECT i, glicko2_rating(1200 + 600 * u(i, 1), 40 + 300 * u(i, 2), 0.05 + 0.02 * u(i, 3))
FROM generate_series(1, 400) i;
-- Players 401-420 are new; some of 1-400 stay idle.
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_guard_games('games');
INSERT INTO games
SELECT 1, p, CASE WHEN o >= p THEN o + 1 ELSE o END, floor(u(i, 6) * 3) / 2
FROM (SELECT i, 1 + floor(u(i, 4) * 420)::int AS p, 1 + floor(u(i, 5) * 419)::int AS o
      FROM generate_series(1, 600) i) x;

-- What every path must give.
CREATE TABLE expected AS
WITH sides AS (
  SELECT player_id AS me, opponent_id AS them, score FROM games
  UNION ALL
  SELECT opponent_id, player_id, 1 - score FROM games),
played AS (
  SELECT s.me, glicko2_period(r.rating, o.rating, s.score) AS rating
  FROM sides s LEFT JOIN base r ON r.player_id = s.me LEFT JOIN base o ON o.player_id = s.them
  GROUP BY s.me)
SELECT coalesce(b.player_id, p.me) AS player_id, coalesce(p.rating, glicko2_idle(b.rating, 1, 350)) AS rating
FROM base b FULL JOIN played p ON p.me = b.player_id;
SELECT count(*) AS players, count(*) FILTER (WHERE player_id > 400) AS new_players,
       count(*) FILTER (WHERE player_id NOT IN (SELECT player_id FROM games UNION SELECT opponent_id FROM games)) AS idle
FROM expected;

CREATE FUNCTION differences(ratings regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM %s r FULL JOIN expected e USING (player_id)
                  WHERE r.rating IS DISTINCT FROM e.rating', ratings) INTO n;
  RETURN n;
END $$;

CREATE TABLE r_serial (LIKE base INCLUDING ALL);
CREATE TABLE r_parallel (LIKE base INCLUDING ALL);
CREATE TABLE r_in_statement (LIKE base INCLUDING ALL);
CREATE TABLE r_name_taken (LIKE base INCLUDING ALL);
INSERT INTO r_serial SELECT * FROM base;
INSERT INTO r_parallel SELECT * FROM base;
INSERT INTO r_in_statement SELECT * FROM base;
INSERT INTO r_name_taken SELECT * FROM base;

-- Serial.
SET max_parallel_workers_per_gather = 0;
CALL glicko2_close_period('r_serial', 'games', 1);
SELECT differences('r_serial') AS serial_differences;

-- Parallel workers invited: partial states are combined across workers.
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
CALL glicko2_close_period('r_parallel', 'games', 1);
SELECT differences('r_parallel') AS parallel_differences;
-- The temporary table is gone when the close returns.
SELECT to_regclass('pg_temp.glicko2_close_played') AS temp_table_left;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;

-- A role that may not create temporary tables.
CREATE ROLE regress_close_no_temp;
GRANT USAGE ON SCHEMA close_paths TO regress_close_no_temp;
GRANT SELECT, UPDATE, INSERT, DELETE, TRUNCATE ON r_in_statement, games TO regress_close_no_temp;
SELECT format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database()) \gexec
SET ROLE regress_close_no_temp;
SELECT has_database_privilege(current_database(), 'TEMPORARY') AS may_create_temp;
CALL glicko2_close_period('r_in_statement', 'games', 1);
RESET ROLE;
SELECT format('GRANT TEMPORARY ON DATABASE %I TO PUBLIC', current_database()) \gexec
SELECT differences('r_in_statement') AS in_statement_differences;

-- The caller's own temporary table of that name is left alone.
CREATE TEMP TABLE glicko2_close_played (note text);
INSERT INTO glicko2_close_played VALUES ('mine');
CALL glicko2_close_period('r_name_taken', 'games', 1);
SELECT differences('r_name_taken') AS name_taken_differences;
SELECT * FROM glicko2_close_played;
DROP TABLE glicko2_close_played;

-- Two closes in one transaction (as glicko2_replay runs them).
INSERT INTO games SELECT 2, player_id, opponent_id, 1 - score FROM games WHERE period = 1;
BEGIN;
CALL glicko2_close_period('r_serial', 'games', 2);
CALL glicko2_close_period('r_parallel', 'games', 2);
COMMIT;
SELECT count(*) AS differences_after_period_2
FROM r_serial s JOIN r_parallel p USING (player_id)
WHERE s.rating IS DISTINCT FROM p.rating;
SELECT ratings, period, players, played, new_players, games
FROM glicko2_closes WHERE games_table = 'games'::regclass ORDER BY close_number, ratings::text;

REVOKE ALL ON SCHEMA close_paths FROM regress_close_no_temp;
REVOKE ALL ON r_in_statement, games FROM regress_close_no_temp;
DROP ROLE regress_close_no_temp;
RESET client_min_messages;
