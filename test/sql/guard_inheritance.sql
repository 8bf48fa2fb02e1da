-- The guard on inheritance children: a close of a parent reads its
-- inheritance children's games too, so a late game written straight to a
-- child must be refused exactly as one written to the parent (before, the
-- child had no guard: the game was accepted and never rated).
CREATE SCHEMA guard_inh;
SET search_path = guard_inh, public;
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
-- The guard triggers of this schema's tables.
CREATE VIEW guards AS
  SELECT t.tgrelid::regclass::text AS rel, t.tgname, t.tgenabled,
         pg_get_triggerdef(t.oid) ~ 'FOR EACH ROW' AS per_row
  FROM pg_trigger t
  WHERE t.tgfoid = 'glicko2_refuse_closed_games()'::regprocedure
    AND t.tgrelid IN (SELECT c.oid FROM pg_class c WHERE c.relnamespace = 'guard_inh'::regnamespace)
  ORDER BY 1, 2;

-- A parent with an inheritance child made before the guard: glicko2_guard_games
-- guards both.
CREATE TABLE ratings (player_id bigint PRIMARY KEY, rating glicko2_rating);
CREATE TABLE games (period int, player_id bigint, opponent_id bigint, score float8);
CREATE TABLE games_c () INHERITS (games);
-- Every game and rating of this schema, to show that a refusal changes nothing.
CREATE VIEW state AS
  SELECT (SELECT count(*) FROM games) AS games, (SELECT count(*) FROM ONLY games) AS parent_games,
         (SELECT string_agg(format('%s:%s', player_id, rating), ' ' ORDER BY player_id) FROM ratings) AS ratings,
         (SELECT count(*) FROM glicko2_closes WHERE ratings = 'guard_inh.ratings'::regclass) AS closes;
SELECT * FROM glicko2_guard_gaps('games', 'ratings');
CALL glicko2_guard_games('games');
SELECT * FROM guards;
SELECT count(*) AS gaps FROM glicko2_guard_gaps('games', 'ratings');

INSERT INTO games VALUES (1, 1, 2, 1);
INSERT INTO games_c VALUES (1, 2, 3, 0.5);
CALL glicko2_close_period('ratings', 'games', 1);
SELECT row(s.*)::text AS before FROM state s \gset
-- The child's game was read by the close: player 3 is rated.
SELECT count(*) AS rated FROM ratings;

-- A late game for period 1: refused into the parent, and into the child
-- exactly alike (same SQLSTATE and message but the table's name), as UPDATE,
-- DELETE, COPY and TRUNCATE of closed games are.
SELECT try($$INSERT INTO games VALUES (1, 1, 3, 1)$$) AS late_into_parent;
SELECT try($$INSERT INTO games_c VALUES (1, 1, 3, 1)$$) AS late_into_child;
SELECT try($$UPDATE games_c SET score = 0$$) AS update_child,
       try($$DELETE FROM games_c$$) AS delete_child,
       try($$COPY games_c FROM PROGRAM 'echo 1,4,5,1' WITH (FORMAT csv)$$) AS copy_child,
       try($$TRUNCATE games_c$$) AS truncate_child,
       try($$TRUNCATE ONLY games_c$$) AS truncate_only_child;
SELECT row(s.*)::text = :'before' AS nothing_changed FROM state s;
-- An open period is let through into either.
SELECT try($$INSERT INTO games_c VALUES (2, 1, 3, 1)$$) AS open_into_child;

-- A child created after guarding (CREATE TABLE ... INHERITS, and a
-- grandchild under it) gets the guards from the event trigger.
CREATE TABLE games_d () INHERITS (games);
CREATE TABLE games_dd () INHERITS (games_d);
SELECT * FROM guards WHERE rel IN ('games_d', 'games_dd');
SELECT try($$INSERT INTO games_d VALUES (1, 1, 3, 1)$$) AS late_into_new_child,
       try($$INSERT INTO games_dd VALUES (1, 1, 3, 1)$$) AS late_into_new_grandchild,
       try($$INSERT INTO games_dd VALUES (2, 1, 3, 1)$$) AS open_into_new_grandchild;
SELECT count(*) AS gaps FROM glicko2_guard_gaps('games', 'ratings');

-- ALTER TABLE ... INHERIT: an empty table gets the guards; one holding a
-- game of a closed period is refused (it would never be rated), nothing changed.
CREATE TABLE games_e (period int, player_id bigint, opponent_id bigint, score float8);
ALTER TABLE games_e INHERIT games;
SELECT * FROM guards WHERE rel = 'games_e';
SELECT try($$INSERT INTO games_e VALUES (1, 1, 3, 1)$$) AS late_into_inherited;
CREATE TABLE games_f (period int, player_id bigint, opponent_id bigint, score float8);
INSERT INTO games_f VALUES (2, 1, 2, 1), (1, 4, 5, 0);
SELECT try($$ALTER TABLE games_f INHERIT games$$) AS inherit_closed_games;
SELECT count(*) AS f_parents FROM pg_inherits WHERE inhrelid = 'games_f'::regclass;
SELECT * FROM guards WHERE rel = 'games_f';
DELETE FROM games_f WHERE period = 1;
SELECT try($$ALTER TABLE games_f INHERIT games$$) AS inherit_open_games;
SELECT * FROM guards WHERE rel = 'games_f';

-- A child created while event triggers are off gets no guard: the next
-- close refuses, naming it, with nothing changed; glicko2_guard_games mends it.
ALTER EVENT TRIGGER glicko2_guard_new_partitions DISABLE;
CREATE TABLE games_off () INHERITS (games);
ALTER EVENT TRIGGER glicko2_guard_new_partitions ENABLE;
SELECT * FROM guards WHERE rel = 'games_off';
SELECT * FROM glicko2_guard_gaps('games', 'ratings');
SELECT row(s.*)::text AS before FROM state s \gset

CALL glicko2_close_period('ratings', 'games', 2);
SELECT row(s.*)::text = :'before' AS nothing_changed FROM state s;
CALL glicko2_guard_games('games');
SELECT * FROM guards WHERE rel = 'games_off';
CALL glicko2_close_period('ratings', 'games', 2);
SELECT try($$INSERT INTO games_off VALUES (2, 1, 3, 1)$$) AS late_into_mended_child;

-- A guard disabled on a child is a gap as well.
ALTER TABLE games_c DISABLE TRIGGER refuse_closed_games;
SELECT * FROM glicko2_guard_gaps('games', 'ratings');
SELECT try($$CALL glicko2_close_period('ratings', 'games', 3)$$) AS close_child_disabled;
ALTER TABLE games_c ENABLE TRIGGER refuse_closed_games;

-- A close read from the child itself is guarded by the child's guard.
CREATE TABLE ratings_c (player_id bigint PRIMARY KEY, rating glicko2_rating);
CALL glicko2_close_period('ratings_c', 'games_c', 2);
SELECT try($$INSERT INTO games_c VALUES (2, 1, 3, 1)$$) AS late_into_child_closed_itself;

RESET search_path;
DROP SCHEMA guard_inh CASCADE;
