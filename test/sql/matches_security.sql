-- glicko2_close_matches and glicko2_match_sides called from a session whose
-- search_path puts an attacker's schema before pg_catalog, with shadows of
-- operators and functions their bodies use: none is ever called (each would
-- raise an error naming itself), on the good path and on a bad match.  A
-- teammates store is written with the writer's privileges, through the live
-- trigger and the close alike.
CREATE SCHEMA matches_security;
SET search_path = matches_security, public;
\set SHOW_CONTEXT never
CREATE FUNCTION hostile(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'hostile % called', what;
END $$;
CREATE SCHEMA evil;
CREATE FUNCTION evil.int_op(int, int) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM matches_security.hostile('an operator on (int, int)'); RETURN true; END$$;
CREATE FUNCTION evil.bigint_op(bigint, bigint) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM matches_security.hostile('an operator on (bigint, bigint)'); RETURN true; END$$;
CREATE FUNCTION evil.text_op(text, text) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM matches_security.hostile('an operator on (text, text)'); RETURN true; END$$;
CREATE FUNCTION evil.format(text, text) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM matches_security.hostile('format(text, text)'); RETURN ''; END$$;
CREATE FUNCTION evil.format(text, regclass) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM matches_security.hostile('format(text, regclass)'); RETURN ''; END$$;
CREATE FUNCTION evil.array_to_string(anyarray, text) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM matches_security.hostile('array_to_string'); RETURN ''; END$$;
CREATE FUNCTION evil.current_setting(text) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM matches_security.hostile('current_setting'); RETURN 'read committed'; END$$;
CREATE OPERATOR evil.= (LEFTARG = int, RIGHTARG = int, FUNCTION = evil.int_op);
CREATE OPERATOR evil.< (LEFTARG = int, RIGHTARG = int, FUNCTION = evil.int_op);
CREATE OPERATOR evil.> (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = evil.bigint_op);
CREATE OPERATOR evil.<> (LEFTARG = int, RIGHTARG = int, FUNCTION = evil.int_op);
CREATE OPERATOR evil.<> (LEFTARG = bigint, RIGHTARG = bigint, FUNCTION = evil.bigint_op);
CREATE OPERATOR evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.text_op);
CREATE PROCEDURE evil.glicko2_close_matches(ratings text, matches text, period integer)
  LANGUAGE plpgsql AS $$BEGIN PERFORM matches_security.hostile('glicko2_close_matches(text, text, integer)'); END$$;

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings VALUES (1, glicko2_rating(1500, 200, 0.06)), (2, glicko2_rating(1400, 30, 0.06));
CREATE TABLE matches (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('matches');
INSERT INTO matches VALUES (1, 1, 1, 1, 1), (1, 1, 2, 2, 2), (1, 1, 3, 2, 2),
                           (2, 2, 1, 1, 1), (2, 2, 2, 1, 2);

SET search_path = evil, matches_security, public, pg_catalog;
SELECT 1 = 1;   -- the trap is live
CALL public.glicko2_close_matches('ratings', 'matches', 1, 'composite');
CALL public.glicko2_close_matches('ratings', 'matches', 2);
SELECT count(*) AS sides FROM public.glicko2_match_sides(ARRAY['a', 'b'], ARRAY['x', 'y'], ARRAY[1, 2],
                                                         ARRAY[NULL, NULL]::public.glicko2_rating[]);
RESET search_path;
SET search_path = matches_security, public;
SELECT period, players, played, new_players, games FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
SELECT player_id, round((rating).rating::numeric, 2) AS rating FROM ratings ORDER BY player_id;

-- A teammates store is written with the writer's privileges (nothing is
-- SECURITY DEFINER): a role without SELECT, UPDATE, INSERT and DELETE on
-- the store writes nothing through the live trigger (42501, the ratings
-- and the store unchanged) nor through a close (42501, nothing closed).
CREATE TABLE pr (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CALL glicko2_teammates_create('ps', 'matches_security.pr');
CREATE TABLE pm (match_id int, player_id int, team int, place int, played_at timestamptz,
                 PRIMARY KEY (match_id, player_id));
CREATE TRIGGER rate AFTER INSERT ON pm REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('pr', 'teammates=ps');
INSERT INTO pr SELECT i, NULL, NULL FROM generate_series(1, 4) i;
CREATE ROLE regress_store_writer;
GRANT USAGE ON SCHEMA matches_security TO regress_store_writer;
GRANT SELECT, INSERT ON pm TO regress_store_writer;
GRANT SELECT, INSERT, UPDATE ON pr TO regress_store_writer;
GRANT SELECT ON ps TO regress_store_writer;
CREATE FUNCTION write_as_writer(id int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  SET LOCAL ROLE regress_store_writer;
  INSERT INTO matches_security.pm VALUES (id, 1, 1, 1, '2026-04-01'), (id, 2, 1, 1, '2026-04-01'),
    (id, 3, 2, 2, '2026-04-01'), (id, 4, 2, 2, '2026-04-01');
  RESET ROLE;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
SELECT write_as_writer(1) AS store_select_only;
GRANT UPDATE ON ps TO regress_store_writer;
SELECT write_as_writer(1) AS store_without_insert_delete;
GRANT INSERT ON ps TO regress_store_writer;
SELECT write_as_writer(1) AS store_without_delete;
SELECT (SELECT count(*) FROM pm) AS rows_written, (SELECT count(*) FROM pr WHERE rating IS NOT NULL) AS rated,
       (SELECT count(*) FROM ps) AS pairs;
GRANT DELETE ON ps TO regress_store_writer;
SELECT write_as_writer(1) AS store_all_four;
SELECT (SELECT count(*) FROM pm) AS rows_written, (SELECT count(*) FROM pr WHERE rating IS NOT NULL) AS rated,
       (SELECT count(*) FROM ps) AS pairs;
-- the close: the same four privileges on its store
CREATE TABLE cr (player_id int PRIMARY KEY, rating glicko2_rating);
CALL glicko2_teammates_create('cs', 'matches_security.cr');
CREATE TABLE cm (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('cm');
INSERT INTO cm VALUES (1, 1, 1, 1, 1), (1, 1, 2, 1, 1), (1, 1, 3, 2, 2), (1, 1, 4, 2, 2),
                      (2, 1, 1, 1, 2), (2, 1, 2, 1, 2), (2, 1, 3, 2, 1), (2, 1, 4, 2, 1);
GRANT SELECT, UPDATE ON cm TO regress_store_writer;
GRANT SELECT, INSERT, UPDATE ON cr TO regress_store_writer;
GRANT SELECT, UPDATE ON cs TO regress_store_writer;
SET ROLE regress_store_writer;
CALL glicko2_close_matches('cr', 'cm', 1, teammates => 'cs');
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
SELECT (SELECT count(*) FROM cr) AS rated, (SELECT count(*) FROM cs) AS pairs,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'cr'::regclass) AS closes;
GRANT INSERT, DELETE ON cs TO regress_store_writer;
SET ROLE regress_store_writer;
CALL glicko2_close_matches('cr', 'cm', 1, teammates => 'cs');
RESET ROLE;
SELECT (SELECT count(*) FROM cr) AS rated, (SELECT count(*) FROM cs) > 0 AS has_pairs,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'cr'::regclass) AS closes;
DROP OWNED BY regress_store_writer;
DROP ROLE regress_store_writer;

DROP SCHEMA evil CASCADE;
DROP SCHEMA matches_security CASCADE;
