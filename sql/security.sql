-- Script and search_path security, in the spirit of contrib seg's
-- security.sql: hostile objects planted where a search_path could find them
-- are never executed, by CREATE EXTENSION or by calls; every SQL and
-- PL/pgSQL function pins its search_path; the scripts never use CREATE OR
-- REPLACE, IF NOT EXISTS or SECURITY DEFINER.

-- The installed scripts (every glicko2--*.sql of this installation).
SELECT f AS script,
       s ~* 'create\s+or\s+replace' AS create_or_replace,
       s ~* 'if\s+not\s+exists' AS if_not_exists,
       s ~* 'security\s+definer' AS security_definer,
       s ~ '^\\echo Use "CREATE EXTENSION glicko2' AS has_guard
FROM (SELECT setting || '/extension/' AS dir FROM pg_config WHERE name = 'SHAREDIR') d,
     pg_ls_dir(d.dir) AS f,
     pg_read_file(d.dir || f) AS s
WHERE f LIKE 'glicko2--%.sql'
ORDER BY f;

-- A fresh database where an attacker has planted objects in public, the
-- schema CREATE EXTENSION will install into, before it runs.  Each hostile
-- object raises an error naming itself, so any call shows in this output.
CREATE DATABASE glicko2_security;
\set regression_db :DBNAME
\c glicko2_security
SET client_min_messages = warning;

CREATE FUNCTION public.hostile(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'hostile % called', what;
END $$;

-- Better matches than pg_catalog's for arguments an unqualified body might
-- pass (integer literals, regclass, text): these win even with pg_catalog
-- first in the search_path.
CREATE FUNCTION public.sqrt(integer) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('sqrt(integer)'); RETURN 0; END$$;
CREATE FUNCTION public.exp(integer) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('exp(integer)'); RETURN 0; END$$;
CREATE FUNCTION public.ln(integer) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('ln(integer)'); RETURN 0; END$$;
CREATE FUNCTION public.format(text, text) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('format(text, text)'); RETURN ''; END$$;
CREATE FUNCTION public.format(text, regclass) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('format(text, regclass)'); RETURN ''; END$$;
CREATE FUNCTION public.hostile_op(float8, integer) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('an operator on (float8, integer)'); RETURN true; END$$;
CREATE FUNCTION public.hostile_arith(float8, integer) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('arithmetic on (float8, integer)'); RETURN 0; END$$;
CREATE FUNCTION public.hostile_regclass_eq(regclass, regclass) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('=(regclass, regclass)'); RETURN true; END$$;
CREATE OPERATOR public.= (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_op);
CREATE OPERATOR public.< (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_op);
CREATE OPERATOR public.<= (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_op);
CREATE OPERATOR public.> (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_op);
CREATE OPERATOR public.>= (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_op);
CREATE OPERATOR public.+ (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_arith);
CREATE OPERATOR public.- (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_arith);
CREATE OPERATOR public.* (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_arith);
CREATE OPERATOR public./ (LEFTARG = float8, RIGHTARG = integer, FUNCTION = public.hostile_arith);
CREATE OPERATOR public.= (LEFTARG = regclass, RIGHTARG = regclass, FUNCTION = public.hostile_regclass_eq);

-- The trap is live: an unqualified call with an integer picks it.
SELECT sqrt(4);

CREATE EXTENSION glicko2;

-- Every SQL and PL/pgSQL routine of the extension pins search_path; none is
-- SECURITY DEFINER (whatever the language).
SELECT p.oid::regprocedure AS routine, l.lanname, p.proconfig
FROM pg_depend d
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'glicko2'
JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
JOIN pg_language l ON l.oid = p.prolang
WHERE d.deptype = 'e'
  AND ((l.lanname IN ('sql', 'plpgsql')
        AND NOT coalesce('search_path=pg_catalog, pg_temp' = ANY (p.proconfig), false))
       OR p.prosecdef);

-- Calls from a session whose search_path puts the attacker's schema before
-- pg_catalog, with exact-signature shadows of what a body might call.  The
-- results are collected first and printed after RESET, so that printing
-- uses no shadowed object.
CREATE SCHEMA evil;
CREATE FUNCTION evil.sqrt(float8) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('sqrt(float8)'); RETURN 0; END$$;
CREATE FUNCTION evil.exp(float8) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('exp(float8)'); RETURN 0; END$$;
CREATE FUNCTION evil.ln(float8) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('ln(float8)'); RETURN 0; END$$;
CREATE FUNCTION evil.abs(float8) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('abs(float8)'); RETURN 0; END$$;
CREATE FUNCTION evil.lower(text) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('lower(text)'); RETURN ''; END$$;
CREATE FUNCTION evil.now() RETURNS timestamptz LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('now()'); RETURN NULL; END$$;
CREATE FUNCTION evil.float8_op(float8, float8) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('an operator on (float8, float8)'); RETURN true; END$$;
CREATE FUNCTION evil.float8_arith(float8, float8) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('arithmetic on (float8, float8)'); RETURN 0; END$$;
CREATE FUNCTION evil.text_eq(text, text) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('=(text, text)'); RETURN true; END$$;
CREATE FUNCTION evil.oid_eq(oid, oid) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('=(oid, oid)'); RETURN true; END$$;
CREATE FUNCTION evil.rating_eq(glicko2_rating, glicko2_rating) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM public.hostile('=(glicko2_rating, glicko2_rating)'); RETURN true; END$$;
CREATE OPERATOR evil.= (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_op);
CREATE OPERATOR evil.< (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_op);
CREATE OPERATOR evil.<= (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_op);
CREATE OPERATOR evil.> (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_op);
CREATE OPERATOR evil.>= (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_op);
CREATE OPERATOR evil.+ (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_arith);
CREATE OPERATOR evil.- (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_arith);
CREATE OPERATOR evil.* (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_arith);
CREATE OPERATOR evil./ (LEFTARG = float8, RIGHTARG = float8, FUNCTION = evil.float8_arith);
CREATE OPERATOR evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.text_eq);
CREATE OPERATOR evil.= (LEFTARG = oid, RIGHTARG = oid, FUNCTION = evil.oid_eq);
CREATE OPERATOR evil.= (LEFTARG = glicko2_rating, RIGHTARG = glicko2_rating, FUNCTION = evil.rating_eq);
-- Shadows of the extension's own functions with better-matching signatures.
CREATE FUNCTION evil.glicko2_idle(r glicko2_rating, periods integer, max_rd integer) RETURNS glicko2_rating
  LANGUAGE plpgsql AS $$BEGIN PERFORM public.hostile('glicko2_idle(glicko2_rating, integer, integer)'); RETURN NULL; END$$;
CREATE FUNCTION evil.glicko2_rating(rating integer, rd integer, volatility numeric) RETURNS glicko2_rating
  LANGUAGE plpgsql AS $$BEGIN PERFORM public.hostile('glicko2_rating(integer, integer, numeric)'); RETURN NULL; END$$;

SET search_path = evil, public, pg_catalog;
-- These traps are live too.
SELECT 1::float8 + 1::float8;
SELECT glicko2_rating(1500, 200, 0.06);
CREATE TEMP TABLE got AS
SELECT 'glicko2_period' AS call,
       (SELECT glicko2_period(public.glicko2_rating(1500, 200, 0.06), o, s)::text
        FROM (VALUES (public.glicko2_rating(1400, 30), 1::float8), (public.glicko2_rating(1550, 100), 0),
                     (public.glicko2_rating(1700, 300), 0)) g(o, s)) AS result
UNION ALL SELECT 'glicko2_period with tau',
       (SELECT glicko2_period(NULL, NULL, 1, 0.5)::text)
UNION ALL SELECT 'glicko1_period',
       (SELECT glicko1_period(glicko1_rating(1500, 200), glicko1_rating(1400, 30), 1)::text)
UNION ALL SELECT 'glicko2_idle', public.glicko2_idle(public.glicko2_rating(1500, 200, 0.06))::text
UNION ALL SELECT 'glicko1_idle', glicko1_idle(glicko1_rating(1500, 50))::text
UNION ALL SELECT 'glicko2_expected', glicko2_expected(public.glicko2_rating(1500, 200, 0.06), public.glicko2_rating(1400, 30, 0.06))::text
UNION ALL SELECT 'glicko2_win_probability', glicko2_win_probability(public.glicko2_rating(1500, 200, 0.06), public.glicko2_rating(1400, 30, 0.06))::text
UNION ALL SELECT 'glicko2_g', glicko2_g(30)::text;
RESET search_path;
SELECT call, result FROM got ORDER BY call;

\c :regression_db
DROP DATABASE glicko2_security;
