-- glicko2_close_period computes the new ratings in one pass in C
-- (glicko2_close_ratings).  Whatever the settings (parallel workers invited),
-- the caller's privileges (no TEMPORARY), a temporary table of the name the
-- close once used, the key type (int, bigint from int games, text, uuid), the
-- score type, views, row-level security, NULL ratings and max_rd, it gives
-- the ratings of glicko2_period and glicko2_idle (the close's computation in
-- SQL before it moved to C), bit for bit.
CREATE SCHEMA close_paths;
SET search_path = close_paths, public;
SET client_min_messages = error;

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

-- sql_close: the close's computation as it was written in SQL (both sides
-- of every game, pre-period ratings, glicko2_period grouped by player;
-- glicko2_idle for the rest), keys as text; max_rd NULL: no cap.  A new or
-- NULL-rated player who plays starts at 1500 / least(350, max_rd) / 0.06.
CREATE FUNCTION sql_close(ratings regclass, games regclass, period int, max_rd float8, key_type regtype)
  RETURNS TABLE (player text, rating glicko2_rating) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY EXECUTE format($q$
    WITH sides AS (
      SELECT CAST(player_id AS %3$s) AS me, CAST(opponent_id AS %3$s) AS them, CAST(score AS float8) AS score
      FROM %2$s WHERE period = $1
      UNION ALL
      SELECT CAST(opponent_id AS %3$s), CAST(player_id AS %3$s), 1 - CAST(score AS float8)
      FROM %2$s WHERE period = $1),
    played AS (
      SELECT s.me, glicko2_period(coalesce(r.rating, u.rating), coalesce(o.rating, u.rating), s.score) AS rating
      FROM sides s LEFT JOIN %1$s r ON r.player_id = s.me LEFT JOIN %1$s o ON o.player_id = s.them
      CROSS JOIN (SELECT glicko2_rating(1500, least(350, coalesce($2, 'Infinity')), 0.06)) u(rating)
      GROUP BY s.me)
    SELECT coalesce(b.player_id, p.me)::text, coalesce(p.rating, glicko2_idle(b.rating, 1, $2))
    FROM %1$s b FULL JOIN played p ON p.me = b.player_id$q$, ratings, games, key_type)
  USING period, max_rd;
END $$;
-- close_differences: rows of ratings not equal (IS DISTINCT FROM) to the expected table's.
CREATE FUNCTION close_differences(ratings regclass, expected regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM (SELECT player_id::text AS player, rating FROM %s) r
                  FULL JOIN %s e USING (player) WHERE r.rating IS DISTINCT FROM e.rating', ratings, expected)
    INTO n;
  RETURN n;
END $$;

-- Text keys, games read through a view, unrated players (NULL rating): some
-- play (rated from 1500 / 350 / 0.06), some stay unrated; no RD cap.
CREATE TABLE r_text (player_id text PRIMARY KEY, rating glicko2_rating);
INSERT INTO r_text SELECT 'p' || player_id, CASE WHEN player_id % 10 <> 0 THEN rating END FROM base;
CREATE TABLE text_games (period int, player_id text, opponent_id text, score float8);
INSERT INTO text_games SELECT period, 'p' || player_id, 'p' || opponent_id, score FROM games;
CREATE VIEW text_games_view AS SELECT * FROM text_games WHERE score <> 0.5 OR player_id < 'p3';
CALL glicko2_guard_games('text_games_view');
CREATE TABLE e_text AS SELECT * FROM sql_close('r_text', 'text_games_view', 1, NULL, 'text');
SELECT count(*) FILTER (WHERE rating IS NULL) AS stay_unrated, count(*) AS players FROM e_text;
CALL glicko2_close_period('r_text', 'text_games_view', 1, max_rd => NULL);
SELECT close_differences('r_text', 'e_text') AS text_differences;

-- uuid keys.
CREATE TABLE r_uuid (player_id uuid PRIMARY KEY, rating glicko2_rating);
INSERT INTO r_uuid SELECT md5(player_id::text)::uuid, rating FROM base;
CREATE TABLE uuid_games (period int, player_id uuid, opponent_id uuid, score float8);
INSERT INTO uuid_games SELECT period, md5(player_id::text)::uuid, md5(opponent_id::text)::uuid, score FROM games;
CALL glicko2_guard_games('uuid_games');
CREATE TABLE e_uuid AS SELECT * FROM sql_close('r_uuid', 'uuid_games', 1, 350, 'uuid');
CALL glicko2_close_period('r_uuid', 'uuid_games', 1);
SELECT close_differences('r_uuid', 'e_uuid') AS uuid_differences;

-- bigint keys from int games, numeric scores, RD cap 200.
CREATE TABLE r_bigint (player_id bigint PRIMARY KEY, rating glicko2_rating);
INSERT INTO r_bigint SELECT player_id, rating FROM base;
CREATE TABLE numeric_games (period int, player_id int, opponent_id int, score numeric);
INSERT INTO numeric_games SELECT period, player_id, opponent_id, score FROM games;
CALL glicko2_guard_games('numeric_games');
CREATE TABLE e_bigint AS SELECT * FROM sql_close('r_bigint', 'numeric_games', 1, 200, 'bigint');
CALL glicko2_close_period('r_bigint', 'numeric_games', 1, max_rd => 200);
SELECT close_differences('r_bigint', 'e_bigint') AS bigint_differences;

-- Row-level security on the games: a role that sees only some games rates
-- only those (computed as that role too).
CREATE TABLE r_rls (LIKE base INCLUDING ALL);
INSERT INTO r_rls SELECT * FROM base;
CREATE TABLE rls_games AS SELECT * FROM games WHERE period = 1;
ALTER TABLE rls_games ENABLE ROW LEVEL SECURITY;
CALL glicko2_guard_games('rls_games');
CREATE ROLE regress_close_rls;
CREATE POLICY some_games ON rls_games FOR SELECT TO regress_close_rls USING (player_id % 3 <> 0);
GRANT USAGE ON SCHEMA close_paths TO regress_close_rls;
GRANT SELECT, UPDATE ON rls_games TO regress_close_rls;
GRANT SELECT, UPDATE, INSERT ON r_rls TO regress_close_rls;
GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA close_paths TO regress_close_rls;
SET ROLE regress_close_rls;
CREATE TEMP TABLE e_rls AS SELECT * FROM sql_close('r_rls', 'rls_games', 1, 350, 'int');
SELECT count(*) AS games_seen, (SELECT count(*) FROM games WHERE period = 1) AS games FROM rls_games;
CALL glicko2_close_period('r_rls', 'rls_games', 1);
RESET ROLE;
SELECT close_differences('r_rls', 'pg_temp.e_rls') AS rls_differences;
SELECT ratings, period, players, played, new_players, games
FROM glicko2_closes WHERE ratings IN ('r_text'::regclass, 'r_uuid'::regclass, 'r_bigint'::regclass, 'r_rls'::regclass)
ORDER BY ratings::text;
DROP TABLE pg_temp.e_rls;
REVOKE ALL ON ALL TABLES IN SCHEMA close_paths FROM regress_close_rls;
REVOKE ALL ON SCHEMA close_paths FROM regress_close_rls;
DROP POLICY some_games ON rls_games;
DROP ROLE regress_close_rls;

-- A bad game is named as the close always named it: the first message in
-- text order, values as the games' own types print them.
\set SHOW_CONTEXT never
INSERT INTO numeric_games VALUES (3, 3, 4, 1.50), (3, 2, 2, 0.50), (3, 1, 2, 1.0), (3, 5, 6, -0.250);
CALL glicko2_close_period('r_bigint', 'numeric_games', 3);
\set SHOW_CONTEXT errors

-- The entry point on its own, fed game sides against an opponent's rating
-- (as a close of team matches feeds it composites): each row rates only its
-- player, as glicko2_period over the same rows does.
CREATE TABLE e_sides AS
WITH played AS (
  SELECT g.player_id, glicko2_period(r.rating, o.rating, g.score) AS rating
  FROM games g LEFT JOIN base r USING (player_id) LEFT JOIN base o ON o.player_id = g.opponent_id
  WHERE g.period = 1 GROUP BY g.player_id)
SELECT coalesce(b.player_id, p.player_id)::text AS player, coalesce(p.rating, glicko2_idle(b.rating, 1, 350)) AS rating
FROM base b FULL JOIN played p USING (player_id);
CREATE TABLE r_sides AS
SELECT player AS player_id, rating FROM glicko2_close_ratings(
  'SELECT player_id, rating FROM close_paths.base',
  'SELECT g.player_id, o.rating, g.score FROM close_paths.games g
     LEFT JOIN close_paths.base o ON o.player_id = g.opponent_id WHERE g.period = CAST($1 AS int)',
  0.5, 350, 'period 1', NULL, '1') AS c(player int, rating glicko2_rating, games bigint, is_new boolean);
SELECT close_differences('r_sides', 'e_sides') AS sides_differences;
-- Where the ratings are written: in place, by a plain UPDATE that reads each
-- player's new rating from the kept pass (glicko2_close_result), unless an
-- update there may be skipped or changed (a BEFORE row trigger on UPDATE):
-- then the computed ratings are joined by key.  Both give the ratings above,
-- history included, and the record counts what was written.
-- track_functions counts the in-place calls (within one transaction: those
-- of earlier ones may or may not have been reported yet).
SET track_functions = 'all';
CREATE FUNCTION in_place_calls() RETURNS bigint LANGUAGE sql
RETURN (SELECT coalesce(sum(calls), 0) FROM pg_stat_xact_user_functions WHERE funcname = 'glicko2_close_result');
-- Closes period 1 of ratings; returns the calls of glicko2_close_result it made.
CREATE FUNCTION close_calls(ratings regclass, history regclass DEFAULT NULL) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  before bigint := in_place_calls();
BEGIN
  CALL glicko2_close_period(ratings, 'games', 1, history => history);
  RETURN in_place_calls() - before;
END $$;
CREATE TABLE r_in_place (LIKE base INCLUDING ALL);
CREATE TABLE h_in_place (player_id int, period int, rating glicko2_rating);
CREATE TABLE r_audited (LIKE base INCLUDING ALL);
CREATE TABLE audit (player_id int);
CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO close_paths.audit VALUES (NEW.player_id); RETURN NULL; END $$;
CREATE TRIGGER audit AFTER UPDATE ON r_audited FOR EACH ROW EXECUTE FUNCTION audit_row();
CREATE TABLE r_checked (LIKE base INCLUDING ALL);
CREATE FUNCTION keep_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER keep BEFORE UPDATE ON r_checked FOR EACH ROW EXECUTE FUNCTION keep_row();
CREATE TABLE h_checked (player_id int, period int, rating glicko2_rating);
CREATE TABLE r_skipping (LIKE base INCLUDING ALL);
CREATE FUNCTION skip_7() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NEW.player_id = 7 THEN RETURN NULL; END IF; RETURN NEW; END $$;
CREATE TRIGGER skip_7 BEFORE UPDATE ON r_skipping FOR EACH ROW EXECUTE FUNCTION skip_7();
INSERT INTO r_in_place SELECT * FROM base;
INSERT INTO r_audited SELECT * FROM base;
INSERT INTO r_checked SELECT * FROM base;
INSERT INTO r_skipping SELECT * FROM base;
SELECT close_calls('r_in_place', 'h_in_place') AS in_place_calls;
SELECT close_calls('r_audited') AS audited_calls;
SELECT count(*) AS audited_rows FROM audit;
SELECT close_calls('r_checked', 'h_checked') AS checked_calls;
-- A trigger that skips a row's update fails the whole close, naming the
-- table and the counts (issue 29, 3: it used to close with player 7's
-- update silently skipped); nothing is written or recorded.
CREATE FUNCTION close_error(ratings regclass) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  CALL glicko2_close_period(ratings, 'games', 1);
  RETURN 'closed';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT close_error('r_skipping') AS skipping_close;
RESET track_functions;
SELECT differences('r_in_place') AS in_place_differences,
       differences('r_audited') AS audited_differences,
       differences('r_checked') AS checked_differences;
SELECT (SELECT count(*) FROM h_in_place) AS history_rows,
       (SELECT count(*) FROM h_in_place h JOIN expected e USING (player_id)
        WHERE h.rating IS NOT DISTINCT FROM e.rating AND h.period = 1) AS history_as_expected,
       (SELECT count(*) FROM h_in_place FULL JOIN h_checked USING (player_id, period, rating)
        WHERE h_in_place IS NULL OR h_checked IS NULL) AS history_differences;
-- (r_skipping as it was: every rating the old one, no player added)
SELECT count(*) FILTER (WHERE r.rating IS NOT DISTINCT FROM b.rating) AS skipping_unchanged,
       count(*) FILTER (WHERE b.player_id IS NULL) AS skipping_added
FROM r_skipping r LEFT JOIN base b USING (player_id);
SELECT ratings, period, players, played, new_players, games
FROM glicko2_closes WHERE ratings IN ('r_in_place'::regclass, 'r_audited'::regclass, 'r_checked'::regclass, 'r_skipping'::regclass)
ORDER BY ratings::text;

-- A partitioned ratings table is written in place too, new players routed to
-- their partitions; a BEFORE row trigger on one partition sends the close to
-- the join.
CREATE TABLE r_parted (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL) PARTITION BY HASH (player_id);
CREATE TABLE r_parted_0 PARTITION OF r_parted FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE r_parted_1 PARTITION OF r_parted FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE r_parted_2 PARTITION OF r_parted FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE TABLE r_parted_checked (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL) PARTITION BY HASH (player_id);
CREATE TABLE r_parted_checked_0 PARTITION OF r_parted_checked FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE r_parted_checked_1 PARTITION OF r_parted_checked FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TRIGGER keep BEFORE UPDATE ON r_parted_checked_1 FOR EACH ROW EXECUTE FUNCTION keep_row();
INSERT INTO r_parted SELECT * FROM base;
INSERT INTO r_parted_checked SELECT * FROM base;
SET track_functions = 'all';
SELECT close_calls('r_parted') AS parted_calls;
SELECT close_calls('r_parted_checked') AS parted_checked_calls;
RESET track_functions;
SELECT differences('r_parted') AS parted_differences,
       differences('r_parted_checked') AS parted_checked_differences,
       (SELECT count(*) FROM r_parted_0) > 0 AND (SELECT count(*) FROM r_parted_1) > 0
       AND (SELECT count(*) FROM r_parted_2) > 0 AS every_partition_used;
SELECT ratings, players, played, new_players, games
FROM glicko2_closes WHERE ratings IN ('r_parted'::regclass, 'r_parted_checked'::regclass)
ORDER BY ratings::text;

-- The kept pass on its own: its results read one by one, the new players,
-- what was read; refused for another key type, a player it did not read, a
-- handle that is not (or no longer) kept.  The end of the transaction frees it,
-- and so does the rollback of a subtransaction that computed it.
SELECT glicko2_internal.glicko2_close_result(0, 1);
BEGIN;
SELECT k.handle AS kept, k.sides FROM glicko2_internal.glicko2_close_compute(
  'SELECT player_id, rating FROM close_paths.base',
  'SELECT player_id, opponent_id, score FROM close_paths.games WHERE period = CAST($1 AS int)',
  0.5, 350, 'period 1', NULL, NULL, '1') k \gset
SELECT :sides AS sides, (SELECT 2 * count(*) FROM games WHERE period = 1) AS expected_sides;
SAVEPOINT s;
SELECT glicko2_internal.glicko2_close_result(:kept, 3::bigint);
ROLLBACK TO s;
SELECT glicko2_internal.glicko2_close_result(:kept, 9999);
ROLLBACK TO s;
SELECT player_id, glicko2_internal.glicko2_close_result(:kept, player_id) = rating AS as_expected
FROM expected WHERE player_id IN (3, 2, 1) ORDER BY player_id DESC;
SELECT count(*) AS new_players, count(*) FILTER (WHERE n.rating = e.rating) AS as_expected
FROM glicko2_internal.glicko2_close_new_players(:kept) AS n(player int, rating glicko2_rating)
JOIN expected e ON e.player_id = n.player;
SELECT * FROM glicko2_internal.glicko2_close_new_players(:kept) AS n(player bigint, rating glicko2_rating);
ROLLBACK TO s;
SELECT written, played FROM glicko2_internal.glicko2_close_finish(:kept);
\set VERBOSITY sqlstate
SELECT written, played FROM glicko2_internal.glicko2_close_finish(:kept);
\set VERBOSITY default
ROLLBACK;
BEGIN;
SELECT k.handle AS kept FROM glicko2_internal.glicko2_close_compute(
  'SELECT player_id, rating FROM close_paths.base',
  'SELECT player_id, opponent_id, score FROM close_paths.games WHERE period = CAST($1 AS int)',
  0.5, 350, 'period 1', NULL, NULL, '1') k \gset
COMMIT;
\set VERBOSITY sqlstate
SELECT glicko2_internal.glicko2_close_result(:kept, 1);
\set VERBOSITY default

BEGIN;
SAVEPOINT released;
SELECT k.handle AS kept FROM glicko2_internal.glicko2_close_compute(
  'SELECT player_id, rating FROM close_paths.base',
  'SELECT player_id, opponent_id, score FROM close_paths.games WHERE period = CAST($1 AS int)',
  0.5, 350, 'period 1', NULL, NULL, '1') k \gset
RELEASE released;
SELECT glicko2_internal.glicko2_close_result(:kept, 1) = rating AS kept_after_release FROM expected WHERE player_id = 1;
SAVEPOINT rolled_back;
SELECT k.handle AS kept FROM glicko2_internal.glicko2_close_compute(
  'SELECT player_id, rating FROM close_paths.base',
  'SELECT player_id, opponent_id, score FROM close_paths.games WHERE period = CAST($1 AS int)',
  0.5, 350, 'period 1', NULL, NULL, '1') k \gset
ROLLBACK TO rolled_back;
\set VERBOSITY sqlstate
SELECT glicko2_internal.glicko2_close_result(:kept, 1);
\set VERBOSITY default
ROLLBACK;
RESET client_min_messages;
