-- glicko2_rate_games on partitioned and inheritance ratings tables (issue
-- 29, 2): the trigger writes the rows it locked by table and TID.  Before,
-- it wrote by TID alone, which names a row only within one table: with
-- partitions (1..99) and (100..199) a game of players 1 and 100 wrote
-- player 1's new rating into player 100's row, silently, and an
-- inheritance parent failed with XX000.  The same games rated into a plain
-- table, a hash-partitioned one, a range-partitioned one and an inheritance
-- parent must give the same ratings, bit for bit.
SET TimeZone = 'UTC';
CREATE SCHEMA live_part;
SET search_path = live_part, public;
\set SHOW_CONTEXT never

CREATE FUNCTION try(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

-- Four layouts of one ratings table.
CREATE TABLE r_plain (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE r_hash (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz)
  PARTITION BY HASH (player_id);
CREATE TABLE r_hash_0 PARTITION OF r_hash FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE r_hash_1 PARTITION OF r_hash FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE r_hash_2 PARTITION OF r_hash FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE TABLE r_range (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz)
  PARTITION BY RANGE (player_id);
CREATE TABLE r_range_low PARTITION OF r_range FOR VALUES FROM (1) TO (100);
CREATE TABLE r_range_high PARTITION OF r_range FOR VALUES FROM (100) TO (200);
-- (an inheritance parent: players 100 and up kept in the child)
CREATE TABLE r_inherit (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE r_inherit_high (PRIMARY KEY (player_id)) INHERITS (r_inherit);

-- The issue's repro first, on empty tables: players 1 and 100 start in
-- rows at the same TID of two partitions (and of parent and child).
INSERT INTO r_plain VALUES (1, glicko2_rating(1600, 80), '2026-01-01'), (100, glicko2_rating(1400, 120), '2026-01-01');
INSERT INTO r_range SELECT * FROM r_plain;
INSERT INTO r_hash SELECT * FROM r_plain;
INSERT INTO r_inherit SELECT * FROM r_plain WHERE player_id < 100;
INSERT INTO r_inherit_high SELECT * FROM r_plain WHERE player_id >= 100;
SELECT (SELECT ctid FROM r_range_low WHERE player_id = 1) = (SELECT ctid FROM r_range_high WHERE player_id = 100)
         AS range_same_tid,
       (SELECT ctid FROM ONLY r_inherit WHERE player_id = 1) = (SELECT ctid FROM r_inherit_high WHERE player_id = 100)
         AS inherit_same_tid;

-- One games table per layout, each rating its own ratings table.
CREATE TABLE g_plain (id int PRIMARY KEY, player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TABLE g_hash (LIKE g_plain INCLUDING ALL);
CREATE TABLE g_range (LIKE g_plain INCLUDING ALL);
CREATE TABLE g_inherit (LIKE g_plain INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON g_plain FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('r_plain');
CREATE TRIGGER rate AFTER INSERT ON g_hash FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('r_hash');
CREATE TRIGGER rate AFTER INSERT ON g_range FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('r_range');
CREATE TRIGGER rate AFTER INSERT ON g_inherit FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('r_inherit');

CREATE FUNCTION play(games text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['g_plain', 'g_hash', 'g_range', 'g_inherit'] LOOP
    EXECUTE format('INSERT INTO %I SELECT * FROM (%s) g', t, games);
  END LOOP;
END
$$;
-- Each layout's ratings against the plain table's, bit for bit.
CREATE VIEW differences AS
SELECT l.layout, count(*) FILTER (WHERE x.rating IS DISTINCT FROM p.rating OR x.rated_at IS DISTINCT FROM p.rated_at) AS differ,
       count(x.player_id) AS players
FROM (VALUES ('r_hash'), ('r_range'), ('r_inherit')) l(layout)
LEFT JOIN LATERAL (SELECT 'r_hash' AS layout, * FROM r_hash UNION ALL
                   SELECT 'r_range', * FROM r_range UNION ALL
                   SELECT 'r_inherit', * FROM r_inherit) x ON x.layout = l.layout
FULL JOIN r_plain p ON p.player_id = x.player_id
GROUP BY l.layout ORDER BY l.layout;

SELECT play($$VALUES (1, 1, 100, 1.0, timestamptz '2026-01-02')$$);
SELECT player_id, rating, rated_at FROM r_plain ORDER BY player_id;
SELECT tableoid::regclass AS partition, player_id, rating = (SELECT rating FROM r_plain p WHERE p.player_id = r.player_id) AS as_plain
FROM r_range r ORDER BY player_id;
SELECT tableoid::regclass AS child, player_id, rating = (SELECT rating FROM r_plain p WHERE p.player_id = r.player_id) AS as_plain
FROM r_inherit r ORDER BY player_id;
SELECT * FROM differences;

-- Many games among players 1..150 (new ones added by the trigger), seeded
-- by a hash: in one multi-row INSERT and one at a time.
SELECT play($$SELECT i, 1 + (hashint4(i) & 2147483647) % 150, 1 + (hashint4(i + 7919) & 2147483647) % 150,
                     ((hashint4(i + 104729) & 2147483647) % 3) / 2.0, timestamptz '2026-01-03' + i * interval '37 minutes'
              FROM generate_series(2, 400) i
              WHERE (hashint4(i) & 2147483647) % 150 <> (hashint4(i + 7919) & 2147483647) % 150$$);
SELECT play(format('VALUES (%s, %s, %s, 0.5, timestamptz %L)', 400 + i, i, 151 - i, '2026-02-01'::timestamptz + i * interval '1 hour'))
FROM generate_series(1, 20) i;
SELECT * FROM differences;
SELECT count(*) AS games_rated, (SELECT count(*) FROM r_plain) AS players FROM g_plain;
-- (rows stayed in their partitions and tables)
SELECT (SELECT count(*) FROM ONLY r_inherit WHERE player_id >= 100) AS new_high_in_parent,
       (SELECT min(player_id) FROM r_inherit_high) AS child_lowest;

-- An inheritance hierarchy with a player in both parent and child: the
-- unique key does not span them, so the trigger refuses the game, naming
-- the player, rather than write one of the rows.
INSERT INTO r_inherit VALUES (100, glicko2_rating(), '2026-01-01');
SELECT try($$INSERT INTO g_inherit VALUES (1000, 1, 100, 1, '2026-03-01')$$) AS duplicate_player;

SET client_min_messages = warning;
DROP SCHEMA live_part CASCADE;
RESET search_path;
