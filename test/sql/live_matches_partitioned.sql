-- Live triggers and partitions or inheritance children.  A statement fires
-- only the statement triggers of the table it names, so rows written
-- straight to a partition never fired a glicko2_rate_matches trigger of the
-- partitioned table: the matches were silently never rated (and games
-- written to an inheritance child never fired glicko2_rate_games of the
-- parent).  Now each new partition or child gets a trigger like its
-- parent's (event trigger glicko2_live_new_children); a match written to
-- it is rated exactly as through the parent, bit for bit, never twice; and
-- a live trigger refuses to rate while a table below its own lacks one.
SET TimeZone = 'UTC';
CREATE SCHEMA live_mpart;
CREATE SCHEMA live_mpart_other;
SET search_path = live_mpart, public;
\set SHOW_CONTEXT never

CREATE FUNCTION try(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
CREATE FUNCTION hint(statement text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE h text;
BEGIN
  EXECUTE statement;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS h = PG_EXCEPTION_HINT;
  RETURN h;
END
$$;
-- The live triggers of each table.
CREATE VIEW live_triggers AS
SELECT t.tgrelid::regclass AS relation, t.tgname, t.tgparentid <> 0 AS clone,
       glicko2_internal.glicko2_trigger_args(t.oid) AS args
FROM pg_trigger t
WHERE t.tgfoid IN ('glicko2_rate_matches()'::regprocedure, 'glicko2_rate_games()'::regprocedure)
  AND t.tgrelid::regclass::text LIKE ANY (ARRAY['live_mpart%', 'm\_%', 'g\_%'])
ORDER BY t.tgrelid::regclass::text COLLATE "C", t.tgname COLLATE "C";

-- A plain matches table (the reference) and a partitioned one (by team, so
-- a match id can span partitions), each rating its own ratings table.
CREATE TABLE r_plain (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE r_part (LIKE r_plain INCLUDING ALL);
INSERT INTO r_plain VALUES (1, glicko2_rating(1600, 80), '2026-01-01'), (2, glicko2_rating(1400, 120), '2026-01-01'),
                           (3, glicko2_rating(1550, 200, 0.05), '2025-12-01'), (4, NULL, NULL);
INSERT INTO r_part SELECT * FROM r_plain;
CREATE TABLE m_plain (match_id int, player_id int, team int, place int, played_at timestamptz,
                      PRIMARY KEY (match_id, player_id, team));
CREATE TRIGGER rate AFTER INSERT ON m_plain REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_plain', 'method=mean', 'period=12 hours');
CREATE TABLE m_part (LIKE m_plain INCLUDING ALL) PARTITION BY LIST (team);
CREATE TRIGGER rate AFTER INSERT ON m_part REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_part', 'method=mean', 'period=12 hours');
-- Partitions made after the trigger: created in, attached, sub-partitioned,
-- in another schema.  Each gets a trigger like the parent's.
CREATE TABLE m_part_12 PARTITION OF m_part FOR VALUES IN (1, 2);
CREATE TABLE m_part_34 (LIKE m_plain INCLUDING ALL);
ALTER TABLE m_part ATTACH PARTITION m_part_34 FOR VALUES IN (3, 4);
CREATE TABLE m_part_56 PARTITION OF m_part FOR VALUES IN (5, 6, 7) PARTITION BY LIST (team);
CREATE TABLE m_part_5 PARTITION OF m_part_56 FOR VALUES IN (5);
CREATE TABLE live_mpart_other.m_part_67 PARTITION OF m_part_56 FOR VALUES IN (6, 7);
SELECT * FROM live_triggers;

-- Each layout's ratings against the plain table's, bit for bit.
CREATE VIEW differences AS
SELECT count(*) AS players,
       count(*) FILTER (WHERE (p.rating).rating = (x.rating).rating AND (p.rating).rd = (x.rating).rd
                          AND (p.rating).volatility = (x.rating).volatility AND p.rated_at = x.rated_at
                          OR p.rating IS NULL AND x.rating IS NULL AND p.rated_at IS NOT DISTINCT FROM x.rated_at)
         AS bit_for_bit
FROM r_plain p FULL JOIN r_part x USING (player_id);

-- A match written straight to a partition is rated as through a plain table.
INSERT INTO m_plain VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 1, 1, '2026-01-02'), (1, 3, 2, 2, '2026-01-02'), (1, 4, 2, 2, '2026-01-02');
INSERT INTO m_part_12 VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 1, 1, '2026-01-02'), (1, 3, 2, 2, '2026-01-02'), (1, 4, 2, 2, '2026-01-02');
SELECT * FROM differences;
SELECT count(*) AS rated_now FROM r_part WHERE rated_at = '2026-01-02';
-- Through the parent, spanning partitions: rated once (no partition's
-- statement trigger fires for rows routed to it).
INSERT INTO m_plain VALUES (2, 1, 1, 2, '2026-01-03'), (2, 2, 3, 1, '2026-01-03'), (2, 3, 5, 3, '2026-01-03'), (2, 5, 6, 1, '2026-01-03');
INSERT INTO m_part VALUES (2, 1, 1, 2, '2026-01-03'), (2, 2, 3, 1, '2026-01-03'), (2, 3, 5, 3, '2026-01-03'), (2, 5, 6, 1, '2026-01-03');
SELECT * FROM differences;
-- COPY straight to an attached partition, to a sub-partitioned one, and to
-- a leaf in another schema.
INSERT INTO m_plain VALUES (3, 3, 3, 1, '2026-01-04'), (3, 4, 4, 2, '2026-01-04');
COPY m_part_34 FROM stdin;
3	3	3	1	2026-01-04 00:00:00+00
3	4	4	2	2026-01-04 00:00:00+00
\.
INSERT INTO m_plain VALUES (4, 1, 5, 2, '2026-01-05'), (4, 6, 6, 1, '2026-01-05');
INSERT INTO m_part_56 VALUES (4, 1, 5, 2, '2026-01-05'), (4, 6, 6, 1, '2026-01-05');
INSERT INTO m_plain VALUES (5, 2, 6, 1, '2026-01-06'), (5, 7, 7, 2, '2026-01-06');
INSERT INTO live_mpart_other.m_part_67 VALUES (5, 2, 6, 1, '2026-01-06'), (5, 7, 7, 2, '2026-01-06');
SELECT * FROM differences;

-- A match id is one match across the partitions: rows of match 1 written
-- to another partition by another statement are refused, as a plain
-- table refuses them.
SELECT try($$INSERT INTO m_plain VALUES (1, 5, 3, 1, '2026-01-02'), (1, 6, 4, 2, '2026-01-02')$$);
SELECT try($$INSERT INTO m_part_34 VALUES (1, 5, 3, 1, '2026-01-02'), (1, 6, 4, 2, '2026-01-02')$$);
SELECT try($$INSERT INTO m_part VALUES (2, 8, 3, 1, '2026-01-03'), (2, 9, 4, 2, '2026-01-03')$$);
SELECT * FROM differences;

-- A partition without a trigger like the parent's: the parent refuses to
-- rate (its rows would never be), naming it and the fix; nothing changes.
DROP TRIGGER rate ON m_part_34;
CREATE TABLE before_refusal AS SELECT * FROM r_part;
SELECT try($$INSERT INTO m_part VALUES (6, 1, 1, 1, '2026-01-07'), (6, 2, 2, 2, '2026-01-07')$$);
SELECT hint($$INSERT INTO m_part VALUES (6, 1, 1, 1, '2026-01-07'), (6, 2, 2, 2, '2026-01-07')$$);
SELECT count(*) AS match_rows FROM m_part WHERE match_id = 6;
SELECT count(*) AS changed FROM r_part x FULL JOIN before_refusal b USING (player_id)
WHERE x::text IS DISTINCT FROM b::text;
-- (a trigger below, whose own partitions have one, still rates)
BEGIN;
SELECT try($$INSERT INTO m_part_56 VALUES (6, 1, 5, 1, '2026-01-07'), (6, 2, 6, 2, '2026-01-07')$$);
ROLLBACK;
-- a trigger unlike the parent's (another option) is none
CREATE TRIGGER rate AFTER INSERT ON m_part_34 REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_part', 'method=sum', 'period=12 hours');
SELECT try($$INSERT INTO m_part VALUES (6, 1, 1, 1, '2026-01-07'), (6, 2, 2, 2, '2026-01-07')$$);
DROP TRIGGER rate ON m_part_34;
-- the hint's statement mends it
DO $$
DECLARE h text;
BEGIN
  h := hint($q$INSERT INTO m_part VALUES (6, 1, 1, 1, '2026-01-07'), (6, 2, 2, 2, '2026-01-07')$q$);
  EXECUTE h;
END $$;
INSERT INTO m_plain VALUES (6, 1, 1, 1, '2026-01-07'), (6, 2, 2, 2, '2026-01-07');
INSERT INTO m_part VALUES (6, 1, 1, 1, '2026-01-07'), (6, 2, 2, 2, '2026-01-07');
SELECT * FROM differences;
-- A disabled copy is none either (the event trigger leaves it disabled).
ALTER TABLE m_part_12 DISABLE TRIGGER rate;
SELECT try($$INSERT INTO m_part VALUES (7, 1, 3, 1, '2026-01-08'), (7, 2, 4, 2, '2026-01-08')$$);
ALTER TABLE m_part_12 ENABLE TRIGGER rate;
-- The parent's trigger disabled (a bulk load): nothing fires, and its
-- partitions' triggers stay.
ALTER TABLE m_part DISABLE TRIGGER rate;
SELECT count(*) AS live_triggers FROM live_triggers WHERE relation::text LIKE '%m\_part%';
ALTER TABLE m_part ENABLE TRIGGER rate;
SELECT * FROM differences;

-- A trigger made after its partitions refuses until each has one.
CREATE TABLE r_late (LIKE r_plain INCLUDING ALL);
CREATE TABLE m_late (LIKE m_plain INCLUDING ALL) PARTITION BY LIST (team);
CREATE TABLE m_late_1 PARTITION OF m_late FOR VALUES IN (1, 2);
CREATE TRIGGER rate AFTER INSERT ON m_late REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_late');
SELECT try($$INSERT INTO m_late VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 2, 2, '2026-01-02')$$);
SELECT count(*) AS rated FROM r_late;

-- Inheritance: a child gets a trigger like its parent's; a match written to
-- the child is rated as through the parent; the parent refuses while a
-- child has none.
CREATE TABLE r_inh (LIKE r_plain INCLUDING ALL);
CREATE TABLE r_inh_ref (LIKE r_plain INCLUDING ALL);
CREATE TABLE m_inh (LIKE m_plain INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON m_inh REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_inh');
CREATE TABLE m_inh_child (PRIMARY KEY (match_id, player_id, team)) INHERITS (m_inh);
CREATE TABLE m_inh_ref (LIKE m_plain INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON m_inh_ref REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_inh_ref');
SELECT * FROM live_triggers WHERE relation::text LIKE 'm\_inh%';
INSERT INTO m_inh_ref VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 2, 2, '2026-01-02'), (2, 1, 1, 2, '2026-01-03'), (2, 3, 2, 1, '2026-01-03');
INSERT INTO m_inh VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 2, 2, '2026-01-02');
INSERT INTO m_inh_child VALUES (2, 1, 1, 2, '2026-01-03'), (2, 3, 2, 1, '2026-01-03');
SELECT count(*) AS players,
       count(*) FILTER (WHERE (a.rating).rating = (b.rating).rating AND (a.rating).rd = (b.rating).rd
                          AND (a.rating).volatility = (b.rating).volatility AND a.rated_at = b.rated_at) AS bit_for_bit
FROM r_inh a FULL JOIN r_inh_ref b USING (player_id);
-- match 1's id again in the child: one match across parent and child
SELECT try($$INSERT INTO m_inh_child VALUES (1, 5, 1, 1, '2026-01-02'), (1, 6, 2, 2, '2026-01-02')$$);
ALTER TABLE m_inh_child NO INHERIT m_inh;
DROP TRIGGER rate ON m_inh_child;
ALTER TABLE m_inh_child INHERIT m_inh;
SELECT * FROM live_triggers WHERE relation::text LIKE 'm\_inh%';
-- a child given no trigger (the event trigger off, as in a session that
-- disables event triggers) makes the parent refuse
ALTER EVENT TRIGGER glicko2_live_new_children DISABLE;
CREATE TABLE m_inh_child2 () INHERITS (m_inh);
ALTER EVENT TRIGGER glicko2_live_new_children ENABLE;
SELECT try($$INSERT INTO m_inh VALUES (3, 1, 1, 1, '2026-01-04'), (3, 2, 2, 2, '2026-01-04')$$);
DROP TABLE m_inh_child2;
SELECT try($$INSERT INTO m_inh VALUES (3, 1, 1, 1, '2026-01-04'), (3, 2, 2, 2, '2026-01-04')$$);

-- glicko2_rate_games: a partition has PostgreSQL's clone of the row
-- trigger (no copy is added); an inheritance child gets a copy, and a game
-- written to it is rated as one written to the parent.
CREATE TABLE rg_part (LIKE r_plain INCLUDING ALL);
CREATE TABLE g_part (id int, player_id int, opponent_id int, score float8, played_at timestamptz) PARTITION BY RANGE (id);
CREATE TRIGGER rate AFTER INSERT ON g_part FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('rg_part');
CREATE TABLE g_part_1 PARTITION OF g_part FOR VALUES FROM (1) TO (100);
CREATE TABLE rg_inh (LIKE r_plain INCLUDING ALL);
CREATE TABLE g_inh (id int, player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TRIGGER rate AFTER INSERT ON g_inh FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('rg_inh');
CREATE TABLE g_inh_child () INHERITS (g_inh);
SELECT * FROM live_triggers WHERE relation::text LIKE 'g\_%';
INSERT INTO g_part_1 VALUES (1, 1, 2, 1, '2026-01-02'), (2, 2, 3, 0.5, '2026-01-03');
INSERT INTO g_inh VALUES (1, 1, 2, 1, '2026-01-02');
INSERT INTO g_inh_child VALUES (2, 2, 3, 0.5, '2026-01-03');
SELECT count(*) AS players,
       count(*) FILTER (WHERE (a.rating).rating = (b.rating).rating AND (a.rating).rd = (b.rating).rd
                          AND (a.rating).volatility = (b.rating).volatility AND a.rated_at = b.rated_at) AS bit_for_bit
FROM rg_part a FULL JOIN rg_inh b USING (player_id);
DROP TRIGGER rate ON g_inh_child;
SELECT try($$INSERT INTO g_inh VALUES (3, 1, 3, 0, '2026-01-04')$$);
SELECT try($$INSERT INTO g_inh_child VALUES (3, 1, 3, 0, '2026-01-04')$$);
SELECT count(*) AS games_rated_since FROM rg_inh WHERE rated_at >= '2026-01-04';

-- A table attached with a trigger of that name of another function is
-- refused; with one unlike the parent's (another ratings table), attached
-- as it is, and the parent refuses to rate.
CREATE FUNCTION nothing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
CREATE TABLE m_clash (LIKE m_plain INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON m_clash FOR EACH STATEMENT EXECUTE FUNCTION nothing();
SELECT try($$ALTER TABLE m_part ATTACH PARTITION m_clash FOR VALUES IN (8)$$);
DROP TRIGGER rate ON m_clash;
CREATE TRIGGER rate AFTER INSERT ON m_clash REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_plain');
ALTER TABLE m_part ATTACH PARTITION m_clash FOR VALUES IN (8);
SELECT try($$INSERT INTO m_part VALUES (9, 1, 1, 1, '2026-01-09'), (9, 2, 2, 2, '2026-01-09')$$);

-- A teammates store named without a schema: a partition in another schema
-- gets a copy naming the parent's store (resolved as the parent resolves
-- it), and a match written to it keeps the same store, bit for bit, as
-- one written through the parent of a twin league.
CREATE TABLE r_mates (LIKE r_plain INCLUDING ALL);
CREATE TABLE r_mates_ref (LIKE r_plain INCLUDING ALL);
CALL glicko2_teammates_create('s_mates', 'r_mates');
CALL glicko2_teammates_create('s_mates_ref', 'r_mates_ref');
CREATE TABLE m_mates (LIKE m_plain INCLUDING ALL) PARTITION BY LIST (team);
CREATE TRIGGER rate AFTER INSERT ON m_mates REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_mates', 'teammates=s_mates');
CREATE TABLE live_mpart_other.m_mates_all PARTITION OF m_mates DEFAULT;
CREATE TABLE m_mates_ref (LIKE m_plain INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON m_mates_ref REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_mates_ref', 'teammates=s_mates_ref');
SELECT * FROM live_triggers WHERE relation::text LIKE '%m\_mates%';
INSERT INTO live_mpart_other.m_mates_all VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 1, 1, '2026-01-02'),
                                                (1, 3, 2, 2, '2026-01-02'), (1, 4, 2, 2, '2026-01-02');
INSERT INTO m_mates_ref VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 1, 1, '2026-01-02'),
                               (1, 3, 2, 2, '2026-01-02'), (1, 4, 2, 2, '2026-01-02');
SELECT (SELECT count(*) FROM s_mates) AS pairs,
       (SELECT count(*) FROM ((TABLE s_mates EXCEPT TABLE s_mates_ref) UNION ALL (TABLE s_mates_ref EXCEPT TABLE s_mates)) x) AS pairs_differ,
       (SELECT count(*) FROM ((TABLE r_mates EXCEPT TABLE r_mates_ref) UNION ALL (TABLE r_mates_ref EXCEPT TABLE r_mates)) x) AS ratings_differ;
-- a partition's trigger naming another store is unlike the parent's: the
-- parent refuses to rate
CALL glicko2_teammates_create('live_mpart_other.s_mates', 'r_mates');
DROP TABLE live_mpart_other.m_mates_all;
CREATE TABLE live_mpart_other.m_mates_all (LIKE m_plain INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON live_mpart_other.m_mates_all REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('live_mpart.r_mates', 'teammates=s_mates');
ALTER TABLE m_mates ATTACH PARTITION live_mpart_other.m_mates_all DEFAULT;
SELECT try($$INSERT INTO m_mates VALUES (2, 1, 1, 1, '2026-01-03'), (2, 2, 2, 2, '2026-01-03')$$);

DROP SCHEMA live_mpart CASCADE;
DROP SCHEMA live_mpart_other CASCADE;
