-- glicko2_close_matches and glicko2_match_sides called from a session whose
-- search_path puts an attacker's schema before pg_catalog, with shadows of
-- operators and functions their bodies use: none is ever called (each would
-- raise an error naming itself), on the good path and on a bad match.
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

DROP SCHEMA evil CASCADE;
DROP SCHEMA matches_security CASCADE;
