-- Guarantee 4 on games tables partitioned by period (range, list, a default
-- partition, sub-partitions, partitions created or attached after a close)
-- and on views over them: the guard attached to the partitioned table fires
-- on its partitions and refuses, with SQLSTATE 55000 and a message naming
-- the period and the table, every INSERT, UPDATE, DELETE and TRUNCATE that
-- would change a closed period; a close refuses to run while any partition
-- lacks the guard; and a close gives the same ratings whatever the layout.
-- (Plain tables: close_late_games.sql; concurrency: specs/close_partitioned_concurrent.spec.)
CREATE SCHEMA close_part;
SET search_path = close_part, public;
\set SHOW_CONTEXT never

-- SQLSTATE and message of a statement, or ok.
CREATE FUNCTION try(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- One league, three periods of games, in four layouts.
CREATE TABLE base (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO base SELECT i, glicko2_rating(1400 + 7 * i, 50 + 3 * i, 0.06) FROM generate_series(1, 30) i;
CREATE TABLE plain_games (period int, player_id int, opponent_id int, score float8);
INSERT INTO plain_games
SELECT p, 1 + (7 * i) % 30, 1 + (7 * i + 1 + p) % 30, (i % 3) / 2.0
FROM generate_series(1, 3) p, generate_series(1, 40) i;
-- by range of period
CREATE TABLE range_games (LIKE plain_games) PARTITION BY RANGE (period);
CREATE TABLE range_1 PARTITION OF range_games FOR VALUES FROM (1) TO (2);
CREATE TABLE range_2 PARTITION OF range_games FOR VALUES FROM (2) TO (3);
CREATE TABLE range_later PARTITION OF range_games FOR VALUES FROM (3) TO (100);
-- by list of periods, with a default partition
CREATE TABLE list_games (LIKE plain_games) PARTITION BY LIST (period);
CREATE TABLE list_1 PARTITION OF list_games FOR VALUES IN (1);
CREATE TABLE list_2 PARTITION OF list_games FOR VALUES IN (2);
CREATE TABLE list_other PARTITION OF list_games DEFAULT;
-- sub-partitioned: periods 1-2 by range, then by list
CREATE TABLE sub_games (LIKE plain_games) PARTITION BY RANGE (period);
CREATE TABLE sub_12 PARTITION OF sub_games FOR VALUES FROM (1) TO (3) PARTITION BY LIST (period);
CREATE TABLE sub_12_1 PARTITION OF sub_12 FOR VALUES IN (1);
CREATE TABLE sub_12_2 PARTITION OF sub_12 FOR VALUES IN (2);
CREATE TABLE sub_later PARTITION OF sub_games FOR VALUES FROM (3) TO (100);
INSERT INTO range_games SELECT * FROM plain_games;
INSERT INTO list_games SELECT * FROM plain_games;
INSERT INTO sub_games SELECT * FROM plain_games;
SELECT tableoid::regclass AS partition, period, count(*) FROM list_games GROUP BY 1, 2 ORDER BY 1;

-- Unguarded, a partitioned table is refused like a plain one, naming a
-- partition; glicko2_guard_games attaches the row guard to the partitioned
-- table (its partitions get it as a clone, sub-partitions too) and the
-- TRUNCATE guard to each table.
CREATE TABLE r_range (LIKE base INCLUDING ALL);
INSERT INTO r_range SELECT * FROM base;
SELECT try($$CALL glicko2_close_period('r_range', 'range_games', 1)$$);
SELECT * FROM glicko2_guard_gaps('sub_games', NULL);
CALL glicko2_guard_games('plain_games');
CALL glicko2_guard_games('range_games');
CALL glicko2_guard_games('list_games');
CALL glicko2_guard_games('sub_games');
SELECT t.tgrelid::regclass AS "table", t.tgname, t.tgparentid <> 0 AS clone
FROM pg_trigger t WHERE t.tgrelid::regclass::text LIKE 'sub%' AND (NOT t.tgisinternal OR t.tgparentid <> 0) ORDER BY 1, 2;
SELECT count(*) AS gaps FROM glicko2_guard_gaps('sub_games', NULL);

-- Closes of periods 1 and 2 give the same ratings and records in every layout.
CREATE TABLE r_plain (LIKE base INCLUDING ALL);
CREATE TABLE r_list (LIKE base INCLUDING ALL);
CREATE TABLE r_sub (LIKE base INCLUDING ALL);
INSERT INTO r_plain SELECT * FROM base;
INSERT INTO r_list SELECT * FROM base;
INSERT INTO r_sub SELECT * FROM base;
CALL glicko2_close_period('r_plain', 'plain_games', 1);
CALL glicko2_close_period('r_range', 'range_games', 1);
CALL glicko2_close_period('r_list', 'list_games', 1);
CALL glicko2_close_period('r_sub', 'sub_games', 1);
CALL glicko2_close_period('r_plain', 'plain_games', 2);
CALL glicko2_close_period('r_range', 'range_games', 2);
CALL glicko2_close_period('r_list', 'list_games', 2);
CALL glicko2_close_period('r_sub', 'sub_games', 2);
SELECT count(*) AS players,
       count(*) FILTER (WHERE p.rating IS DISTINCT FROM b.rating) AS moved,
       count(*) FILTER (WHERE r.rating IS NOT DISTINCT FROM p.rating
                          AND l.rating IS NOT DISTINCT FROM p.rating
                          AND s.rating IS NOT DISTINCT FROM p.rating) AS same_bits
FROM r_plain p JOIN r_range r USING (player_id) JOIN r_list l USING (player_id)
JOIN r_sub s USING (player_id) JOIN base b USING (player_id);
SELECT ratings, period, players, played, new_players, games, unguarded
FROM glicko2_closes
WHERE ratings IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'close_part'::regnamespace)
ORDER BY close_number, ratings::text;

-- Refused, each naming the period and the table the row is written to.
SELECT s AS statement, try(s) AS result FROM (VALUES
  -- through the partitioned table, and straight into a partition
  ('INSERT INTO range_games VALUES (1, 1, 2, 1)'),
  ('INSERT INTO range_1 VALUES (1, 1, 2, 1)'),
  ('INSERT INTO sub_games VALUES (2, 1, 2, 1)'),
  ('INSERT INTO sub_12_2 VALUES (2, 1, 2, 1)'),
  -- into the default partition: period 0 is before the closed ones
  ('INSERT INTO list_games VALUES (0, 1, 2, 1)'),
  ('INSERT INTO list_other VALUES (0, 1, 2, 1)'),
  -- UPDATE moving a game between periods, and so between partitions
  ('UPDATE range_games SET period = 2 WHERE period = 3 AND player_id = 1'),
  ('UPDATE list_games SET period = 3 WHERE period = 1 AND player_id = 1'),
  ('UPDATE sub_games SET period = 1 WHERE period = 2 AND player_id = 1'),
  ('UPDATE list_games SET score = 0 WHERE period = 2 AND player_id = 1'),
  ('DELETE FROM list_games WHERE period = 2'),
  ('DELETE FROM sub_12_1'),
  -- TRUNCATE of the partitioned table, of a partition, of a sub-partition
  ('TRUNCATE range_games'),
  ('TRUNCATE range_2'),
  ('TRUNCATE sub_12'),
  ('TRUNCATE sub_12_1')) v(s);
-- Open periods stay free: a partition holding only open periods may be emptied.
SELECT s AS statement, try(s) AS result FROM (VALUES
  ('INSERT INTO range_games VALUES (3, 1, 2, 1)'),
  ('UPDATE list_games SET score = 1 - score WHERE period = 3'),
  ('TRUNCATE sub_later'),
  ('INSERT INTO sub_games SELECT * FROM plain_games WHERE period = 3')) v(s);
SELECT count(*) AS games_left FROM sub_games;

-- Partitions added after the close: one created as PARTITION OF, one
-- attached (a default partition); their row guard is cloned from the
-- partitioned table, so they refuse closed periods at once, and the event
-- trigger glicko2_guard_new_partitions gives them the TRUNCATE guard.
CREATE TABLE list_0 PARTITION OF list_games FOR VALUES IN (0);
CREATE TABLE range_old (LIKE plain_games);
ALTER TABLE range_games ATTACH PARTITION range_old DEFAULT;
SELECT t.tgrelid::regclass AS "table", t.tgname, t.tgparentid <> 0 AS clone
FROM pg_trigger t WHERE t.tgrelid IN ('list_0'::regclass, 'range_old'::regclass) ORDER BY 1, 2;
SELECT s AS statement, try(s) AS result FROM (VALUES
  ('INSERT INTO list_games VALUES (0, 1, 2, 1)'),
  ('INSERT INTO list_0 VALUES (0, 1, 2, 1)'),
  ('INSERT INTO range_games VALUES (0, 1, 2, 1)'),
  ('INSERT INTO range_old VALUES (-5, 1, 2, 1)')) v(s);
CALL glicko2_close_period('r_range', 'range_games', 3);
CALL glicko2_close_period('r_list', 'list_games', 3);
SELECT try('TRUNCATE range_old');
-- A table holding games of a closed period cannot be attached: they would
-- never be rated.  Holding only open periods, it can.
CREATE TABLE list_old (LIKE plain_games);
INSERT INTO list_old VALUES (-1, 1, 2, 1), (-2, 1, 2, 0);
SELECT try($$ALTER TABLE list_games ATTACH PARTITION list_old FOR VALUES IN (-1, -2)$$);
CREATE TABLE list_next (LIKE plain_games);
INSERT INTO list_next VALUES (4, 1, 2, 1);
SELECT try($$ALTER TABLE list_games ATTACH PARTITION list_next FOR VALUES IN (4)$$);
SELECT count(*) AS gaps FROM glicko2_guard_gaps('list_games', 'r_list');
-- A sub-partitioned table attached: refused if any of its partitions holds a
-- closed period; otherwise every level gets the TRUNCATE guard.
CREATE TABLE list_sub (LIKE plain_games) PARTITION BY LIST (period);
CREATE TABLE list_sub_5 PARTITION OF list_sub FOR VALUES IN (5);
CREATE TABLE list_sub_old PARTITION OF list_sub FOR VALUES IN (-3);
INSERT INTO list_sub VALUES (-3, 1, 2, 1), (5, 1, 2, 1);
SELECT try($$ALTER TABLE list_games ATTACH PARTITION list_sub FOR VALUES IN (5, -3)$$);
DELETE FROM list_sub WHERE period = -3;
SELECT try($$ALTER TABLE list_games ATTACH PARTITION list_sub FOR VALUES IN (5, -3)$$);
SELECT t.tgrelid::regclass AS "table", t.tgname FROM pg_trigger t
WHERE t.tgrelid::regclass::text LIKE 'list_sub%' ORDER BY 1, 2;
SELECT try('INSERT INTO list_sub_old VALUES (-3, 1, 2, 1)');
-- A partition created without the guard's help (its TRUNCATE guard dropped)
-- is a gap the next close names.
DROP TRIGGER refuse_closed_truncate ON list_next;
SELECT * FROM glicko2_guard_gaps('list_games', 'r_list');
CALL glicko2_guard_games('list_games');
-- A partition whose own guard is disabled is a gap too.
ALTER TABLE list_1 DISABLE TRIGGER refuse_closed_games;
SELECT * FROM glicko2_guard_gaps('list_games', 'r_list');
ALTER TABLE list_1 ENABLE TRIGGER refuse_closed_games;

-- The correction flow of glicko2_recompute on a partitioned table: the
-- guard lifted in the correcting transaction (DISABLE TRIGGER on the
-- partitioned table reaches its partitions), a closed game annulled, and the
-- recompute refused until the guard is back.  The result is a replay of the
-- corrected games.
CREATE TABLE r_fix (LIKE base INCLUDING ALL);
INSERT INTO r_fix SELECT * FROM base;
CREATE TABLE hist_fix (player_id int, period int, rating glicko2_rating);
CALL glicko2_close_period('r_fix', 'range_games', 1, history => 'hist_fix');
CALL glicko2_close_period('r_fix', 'range_games', 2, history => 'hist_fix');
BEGIN;
ALTER TABLE range_games DISABLE TRIGGER refuse_closed_games;
SELECT t.tgrelid::regclass AS "table", t.tgenabled FROM pg_trigger t
WHERE t.tgname = 'refuse_closed_games' AND t.tgrelid::regclass::text LIKE 'range%' ORDER BY 1;
DELETE FROM range_games WHERE period = 1 AND 7 IN (player_id, opponent_id);
SELECT try($$CALL glicko2_recompute('r_fix', 'range_games', 1, 'hist_fix')$$);
ALTER TABLE range_games ENABLE TRIGGER refuse_closed_games;
CALL glicko2_recompute('r_fix', 'range_games', 1, 'hist_fix');
COMMIT;
CREATE TABLE r_check (LIKE base INCLUDING ALL);
CALL glicko2_replay('r_check', 'range_games', through => '2');
SELECT count(*) AS players, count(*) FILTER (WHERE f.rating IS NOT DISTINCT FROM c.rating) AS same_bits_as_replay,
       count(*) FILTER (WHERE f.rating IS DISTINCT FROM p.rating) AS changed_by_correction
FROM r_fix f JOIN r_check c USING (player_id) JOIN r_plain p USING (player_id);
SELECT period, close_number, unguarded FROM glicko2_closes WHERE ratings = 'r_fix'::regclass ORDER BY close_number;

-- A view over a partitioned table (and over a plain one): the guards on the
-- partitions, without arguments, cover closes read through the view.
CREATE TABLE view_games (LIKE plain_games) PARTITION BY RANGE (period);
CREATE TABLE view_1 PARTITION OF view_games FOR VALUES FROM (1) TO (2);
CREATE TABLE view_rest PARTITION OF view_games DEFAULT;
CREATE TABLE extra_games (LIKE plain_games);
INSERT INTO view_games SELECT * FROM plain_games WHERE player_id % 2 = 0;
INSERT INTO extra_games SELECT * FROM plain_games WHERE player_id % 2 = 1;
CREATE VIEW all_games AS SELECT * FROM view_games UNION ALL SELECT * FROM extra_games;
CREATE TABLE r_view (LIKE base INCLUDING ALL);
INSERT INTO r_view SELECT * FROM base;
CALL glicko2_guard_games('view_games');
-- extra_games, also read by the view, is not guarded yet: refused.
SELECT try($$CALL glicko2_close_period('r_view', 'all_games', 1)$$);
CALL glicko2_guard_games('all_games');
CALL glicko2_close_period('r_view', 'all_games', 1);
CALL glicko2_close_period('r_view', 'all_games', 2);
SELECT count(*) FILTER (WHERE v.rating IS NOT DISTINCT FROM p.rating) AS same_bits_as_plain
FROM r_view v JOIN r_plain p USING (player_id);
SELECT s AS statement, try(s) AS result FROM (VALUES
  ('INSERT INTO view_games VALUES (2, 1, 2, 1)'),
  ('INSERT INTO view_1 VALUES (1, 1, 2, 1)'),
  ('INSERT INTO extra_games VALUES (1, 1, 2, 1)'),
  ('UPDATE view_games SET period = 2 WHERE period = 3'),
  ('TRUNCATE view_games'),
  ('TRUNCATE extra_games')) v(s);

-- A matches table (glicko2_close_matches, one row per player per match)
-- partitioned by its period column, here named round: guarded the same way,
-- with the same ratings as from a plain matches table.
CREATE TABLE plain_matches (match_id int, round text, player_id int, team int, place int);
INSERT INTO plain_matches
SELECT m, r, p, 1 + (p + m) % 2, 1 + ((p + m) % 2 + m) % 2
FROM (VALUES ('2024-01'), ('2024-02')) rr(r), generate_series(1, 10) m,
     LATERAL (SELECT 1 + (m * 3 + k) % 30 AS p FROM generate_series(0, 3) k) x;
CREATE TABLE part_matches (LIKE plain_matches) PARTITION BY LIST (round);
CREATE TABLE part_matches_01 PARTITION OF part_matches FOR VALUES IN ('2024-01');
CREATE TABLE part_matches_rest PARTITION OF part_matches DEFAULT;
INSERT INTO part_matches SELECT * FROM plain_matches;
CALL glicko2_guard_games('plain_matches', period_column => 'round');
CALL glicko2_guard_games('part_matches', period_column => 'round');
CREATE TABLE rm_plain (LIKE base INCLUDING ALL);
CREATE TABLE rm_part (LIKE base INCLUDING ALL);
INSERT INTO rm_plain SELECT * FROM base;
INSERT INTO rm_part SELECT * FROM base;
CALL glicko2_close_matches('rm_plain', 'plain_matches', '2024-01'::text, period_column => 'round');
CALL glicko2_close_matches('rm_part', 'part_matches', '2024-01'::text, period_column => 'round');
SELECT count(*) FILTER (WHERE a.rating IS NOT DISTINCT FROM b.rating) AS same_bits,
       count(*) FILTER (WHERE a.rating IS DISTINCT FROM s.rating) AS moved
FROM rm_plain a JOIN rm_part b USING (player_id) JOIN base s USING (player_id);
SELECT s AS statement, try(s) AS result FROM (VALUES
  ($$INSERT INTO part_matches VALUES (99, '2024-01', 1, 1, 1)$$),
  ($$INSERT INTO part_matches VALUES (99, '2023-12', 1, 1, 1)$$),
  ($$UPDATE part_matches SET round = '2024-01' WHERE round = '2024-02' AND match_id = 1$$),
  ($$DELETE FROM part_matches_01 WHERE match_id = 1$$),
  ($$TRUNCATE part_matches_01$$),
  ($$INSERT INTO part_matches VALUES (99, '2024-03', 1, 1, 1)$$)) v(s);
SELECT try($$CALL glicko2_close_matches('rm_part', 'part_matches', '2024-01'::text, period_column => 'round')$$);

-- What a close records when the caller opts out: a partitioned table
-- without guards closes with unguarded => true, and says so.
CREATE TABLE bare_games (LIKE plain_games) PARTITION BY LIST (period);
CREATE TABLE bare_1 PARTITION OF bare_games FOR VALUES IN (1);
CREATE TABLE r_bare (LIKE base INCLUDING ALL);
INSERT INTO bare_games SELECT * FROM plain_games WHERE period = 1;
CALL glicko2_close_period('r_bare', 'bare_games', 1, unguarded => true);
SELECT period, unguarded FROM glicko2_closes WHERE ratings = 'r_bare'::regclass;

DELETE FROM glicko2_closes
WHERE ratings IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'close_part'::regnamespace);
SET client_min_messages = warning;
DROP SCHEMA close_part CASCADE;
RESET search_path;
