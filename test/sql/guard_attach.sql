-- A table that comes back below a guarded games table: a partition detached
-- (plain or CONCURRENTLY) loses its cloned row guard, a child that left with
-- NO INHERIT keeps guards whose scope no longer reaches the parent; a game of
-- a closed period written to either meanwhile was seen by no guard, and no
-- close will read it.  Attaching or inheriting it again must be refused (before,
-- it was accepted: the league held a period-1 game its close never rated,
-- glicko2_guard_gaps reported nothing and the next close succeeded).
CREATE SCHEMA guard_att;
SET search_path = guard_att, public;
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
-- The tables below a table, with their parents.
CREATE VIEW tree AS
  SELECT i.inhrelid::regclass::text AS rel, i.inhparent::regclass::text AS parent
  FROM pg_inherits i
  WHERE i.inhrelid IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'guard_att'::regnamespace)
  ORDER BY 1;

-- The issue's reproduction: a range-partitioned games table, period 1 closed.
CREATE TABLE r (player_id bigint PRIMARY KEY, rating glicko2_rating);
CREATE TABLE g (period int, player_id bigint, opponent_id bigint, score float8) PARTITION BY RANGE (player_id);
CREATE TABLE g_a PARTITION OF g FOR VALUES FROM (0) TO (100);
CREATE TABLE g_b PARTITION OF g FOR VALUES FROM (100) TO (200);
INSERT INTO g VALUES (1, 1, 2, 1);
CALL glicko2_guard_games('g');
CALL glicko2_close_period('r', 'g', 1);
CREATE VIEW state AS
  SELECT (SELECT count(*) FROM g) AS games,
         (SELECT string_agg(format('%s:%s', player_id, rating), ' ' ORDER BY player_id) FROM r) AS ratings,
         (SELECT count(*) FROM glicko2_closes WHERE ratings = 'guard_att.r'::regclass) AS closes;
SELECT row(s.*)::text AS before FROM state s \gset

-- Detached, the partition takes a period-1 game (no close reads it now);
-- attaching it again is refused, naming it and the period, nothing changed.
ALTER TABLE g DETACH PARTITION g_b;
INSERT INTO g_b VALUES (1, 150, 1, 1);
SELECT try($$ALTER TABLE g ATTACH PARTITION g_b FOR VALUES FROM (100) TO (200)$$) AS reattach_late;
-- (as the default partition too)
SELECT try($$ALTER TABLE g ATTACH PARTITION g_b DEFAULT$$) AS reattach_default_late;
SELECT * FROM tree;
SELECT row(s.*)::text = :'before' AS nothing_changed FROM state s;
-- Detached, the table is read by no close: not a gap.
SELECT count(*) AS gaps FROM glicko2_guard_gaps('g', 'r');
-- With the late game moved to an open period it comes back, guarded again.
UPDATE g_b SET period = 2;
SELECT try($$ALTER TABLE g ATTACH PARTITION g_b FOR VALUES FROM (100) TO (200)$$) AS reattach_open;
SELECT count(*) AS gaps FROM glicko2_guard_gaps('g', 'r');
SELECT try($$INSERT INTO g VALUES (1, 160, 1, 1)$$) AS late_into_reattached;
CALL glicko2_close_period('r', 'g', 2);
SELECT player_id, (rating).rating::numeric(7, 2) FROM r ORDER BY 1;

-- DETACH ... CONCURRENTLY loses the guard all the same.
ALTER TABLE g DETACH PARTITION g_b CONCURRENTLY;
INSERT INTO g_b VALUES (2, 170, 1, 0);
SELECT try($$ALTER TABLE g ATTACH PARTITION g_b FOR VALUES FROM (100) TO (200)$$) AS reattach_after_concurrently;
DELETE FROM g_b WHERE period = 2 AND player_id = 170;
-- (its own rated period-2 game stays: g_b held it when period 2 was closed,
-- and a close that reads g does not read it now; it is refused like a late one)
SELECT try($$ALTER TABLE g ATTACH PARTITION g_b FOR VALUES FROM (100) TO (200)$$) AS reattach_rated_games;
SELECT count(*) AS rated_games_left_out FROM g_b;

-- A sub-partitioned table attached with a late game deep inside: refused,
-- naming the table attached and the one holding the game.
CREATE TABLE p (period int, player_id bigint, opponent_id bigint, score float8) PARTITION BY RANGE (player_id);
CREATE TABLE p_1 PARTITION OF p FOR VALUES FROM (200) TO (250) PARTITION BY LIST (period);
CREATE TABLE p_1_x PARTITION OF p_1 DEFAULT;
CREATE TABLE p_2 PARTITION OF p FOR VALUES FROM (250) TO (300);
INSERT INTO p VALUES (3, 260, 1, 1), (1, 210, 1, 1);
SELECT try($$ALTER TABLE g ATTACH PARTITION p FOR VALUES FROM (200) TO (300)$$) AS attach_deep_late;
DELETE FROM p WHERE period = 1;
SELECT try($$ALTER TABLE g ATTACH PARTITION p FOR VALUES FROM (200) TO (300)$$) AS attach_deep_open;
SELECT * FROM tree WHERE rel LIKE 'p%';
SELECT count(*) AS gaps FROM glicko2_guard_gaps('g', 'r');

-- Lifting the guard (the documented correction) lets a late game in, as a
-- write would be let in; the close then names nothing missing once it is back.
CREATE TABLE g_c (period int, player_id bigint, opponent_id bigint, score float8);
INSERT INTO g_c VALUES (1, 310, 1, 1);
ALTER TABLE g DISABLE TRIGGER refuse_closed_games;
SELECT try($$ALTER TABLE g ATTACH PARTITION g_c FOR VALUES FROM (300) TO (400)$$) AS attach_guard_lifted;
ALTER TABLE g ENABLE TRIGGER refuse_closed_games;
SELECT try($$ALTER TABLE g DETACH PARTITION g_c$$) AS detach;
-- Back with the guard on, the same table is refused.
SELECT try($$ALTER TABLE g ATTACH PARTITION g_c FOR VALUES FROM (300) TO (400)$$) AS reattach_guarded;

-- The same with an inheritance child: NO INHERIT, a late game, INHERIT.
CREATE TABLE r2 (player_id bigint PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h (period int, player_id bigint, opponent_id bigint, score float8);
CREATE TABLE h_c () INHERITS (h);
CALL glicko2_guard_games('h');
INSERT INTO h VALUES (1, 1, 2, 1);
INSERT INTO h_c VALUES (1, 3, 4, 1);
CALL glicko2_close_period('r2', 'h', 1);
SELECT try($$INSERT INTO h_c VALUES (1, 5, 6, 1)$$) AS late_into_child;
ALTER TABLE h_c NO INHERIT h;
-- (away from h, its guard covers only closes read from it)
INSERT INTO h_c VALUES (1, 5, 6, 1);
SELECT try($$ALTER TABLE h_c INHERIT h$$) AS reinherit_late;
SELECT * FROM tree WHERE parent = 'h';
DELETE FROM h_c WHERE player_id = 5;
-- (its rated period-1 game is refused too: a close of h no longer reads it)
SELECT try($$ALTER TABLE h_c INHERIT h$$) AS reinherit_rated;
-- A grandchild brings the late game: refused, naming where it is.
CREATE TABLE h_d (period int, player_id bigint, opponent_id bigint, score float8);
CREATE TABLE h_dd () INHERITS (h_d);
INSERT INTO h_dd VALUES (1, 7, 8, 0);
SELECT try($$ALTER TABLE h_d INHERIT h$$) AS inherit_deep_late;
DELETE FROM h_dd;
SELECT try($$ALTER TABLE h_d INHERIT h$$) AS inherit_deep_open;
SELECT try($$INSERT INTO h_dd VALUES (1, 7, 8, 0)$$) AS late_into_grandchild;
SELECT * FROM glicko2_guard_gaps('h', 'r2');

-- A guard naming its ratings table covers the child the same way.
CREATE TABLE r3 (player_id bigint PRIMARY KEY, rating glicko2_rating);
CREATE TABLE k (period int, player_id bigint, opponent_id bigint, score float8);
CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON k
  FOR EACH ROW EXECUTE FUNCTION glicko2_refuse_closed_games('r3');
CREATE TRIGGER refuse_closed_truncate BEFORE TRUNCATE ON k
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_refuse_closed_games('r3');
INSERT INTO k VALUES (1, 1, 2, 1);
CALL glicko2_close_period('r3', 'k', 1);
CREATE TABLE k_c (period int, player_id bigint, opponent_id bigint, score float8);
INSERT INTO k_c VALUES (1, 2, 3, 1);
SELECT try($$ALTER TABLE k_c INHERIT k$$) AS inherit_named_late;

RESET search_path;
DROP SCHEMA guard_att CASCADE;
