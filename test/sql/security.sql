-- Script and search_path security, in the spirit of contrib seg's
-- security.sql: hostile objects planted where a search_path could find them
-- are never executed, by CREATE EXTENSION or by calls; every SQL and
-- PL/pgSQL function pins its search_path; the scripts never use CREATE OR
-- REPLACE, IF NOT EXISTS or SECURITY DEFINER.

-- The installed scripts (every glicko2--*.sql of this installation: under
-- Debian's extension_destdir when the package's build-time tests set it, as
-- pg_buildext does, else in the server's share directory); the
-- IF NOT EXISTS looked for is DDL's, not PL/pgSQL's IF NOT EXISTS (SELECT ...).
SELECT f AS script,
       s ~* 'create\s+or\s+replace' AS create_or_replace,
       s ~* '(table|index|schema|sequence|view|type|function|column|extension)\s+if\s+not\s+exists' AS if_not_exists,
       s ~* 'security\s+definer' AS security_definer,
       s ~ '^\\echo Use "CREATE EXTENSION glicko2' AS has_guard
FROM (SELECT v.dir
      FROM (SELECT setting || '/extension/' AS share FROM pg_config WHERE name = 'SHAREDIR') c,
           LATERAL (VALUES (1, coalesce(current_setting('extension_destdir', true), '') || c.share),
                           (2, c.share)) AS v(k, dir)
      WHERE 'glicko2.control' IN (SELECT pg_ls_dir(v.dir, true, false))
      ORDER BY v.k LIMIT 1) d,
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

-- The internal helpers' schema: every role may use it, none but its owner
-- may create in it (a function planted there would be called by the
-- documented functions).  Every routine of the extension is in the
-- extension's schema or in glicko2_internal.
SELECT n.nspname, a.privilege_type,
       CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE 'another role' END AS grantee
FROM pg_namespace n, aclexplode(n.nspacl) a
WHERE n.nspname = 'glicko2_internal' AND a.grantee <> n.nspowner
ORDER BY 1, 2;
SELECT p.pronamespace::regnamespace AS schema, count(*) AS routines
FROM pg_depend d
JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'glicko2') AND d.deptype = 'e'
GROUP BY 1 ORDER BY 1;

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
UNION ALL SELECT 'glicko2_g', glicko2_g(30)::text
UNION ALL SELECT 'glicko2_interval', glicko2_interval(public.glicko2_rating(1500, 200, 0.06))::text
UNION ALL SELECT 'glicko2_lower, glicko2_upper', glicko2_lower(public.glicko2_rating(1500, 200, 0.06)) || ' ' || glicko2_upper(public.glicko2_rating(1500, 200, 0.06), 3)
UNION ALL SELECT 'glicko2_confidence_interval', glicko2_confidence_interval(public.glicko2_rating(1500, 200, 0.06))::text
UNION ALL SELECT 'glicko2_to_scaled, glicko2_from_scaled', glicko2_from_scaled(glicko2_to_scaled(public.glicko2_rating(1500, 200, 0.06)))::text
UNION ALL SELECT 'glicko2_to_jsonb, glicko2_from_jsonb', glicko2_from_jsonb(glicko2_to_jsonb(public.glicko2_rating(1500, 200, 0.06)))::text
UNION ALL SELECT 'glicko2_explain',
       (SELECT glicko2_explain(public.glicko2_rating(1500, 200, 0.06), public.glicko2_rating(1400, 30), 1) -> 'result')::text;

-- The close procedure and the guard trigger, called through the same path.
RESET search_path;
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings VALUES (1, glicko2_rating(1500, 200, 0.06)), (4, glicko2_rating(1500, 100, 0.06));
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
INSERT INTO games VALUES (1, 1, 2, 1), (1, 3, 1, 0.5);
CALL glicko2_guard_games('games');
CREATE TABLE history (player_id int, period int, rating glicko2_rating);
CREATE PROCEDURE evil.glicko2_close_period(ratings text, games text, period integer)
  LANGUAGE plpgsql AS $$BEGIN PERFORM public.hostile('glicko2_close_period(text, text, integer)'); END$$;
SET search_path = evil, public, pg_catalog;
CALL glicko2_close_period('ratings', 'games', 1);
CALL public.glicko2_close_period('ratings', 'games', 1, history => 'history');
INSERT INTO games VALUES (1, 2, 3, 1);
RESET search_path;
SELECT call, result FROM got ORDER BY call;
SELECT player_id, rating FROM ratings ORDER BY player_id;
SELECT ratings, period, close_number, players, played, new_players, games FROM glicko2_closes;
SELECT count(*) AS history_rows FROM history;

-- A role that is not superuser but may create in its database installs the
-- extension (trusted) into a schema of its own, where it has planted objects
-- that would make it superuser if the script, which PostgreSQL runs as the
-- bootstrap superuser for a trusted extension, ever called them.
CREATE ROLE regress_glicko2_installer;
CREATE DATABASE glicko2_trusted;
GRANT CREATE ON DATABASE glicko2_trusted TO regress_glicko2_installer;
\c glicko2_trusted
SET client_min_messages = notice;
SET ROLE regress_glicko2_installer;
CREATE SCHEMA trap;
CREATE FUNCTION trap.escalate(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'ALTER ROLE regress_glicko2_installer SUPERUSER';
  RAISE NOTICE 'hostile % called as %', what, current_user;
END $$;
CREATE FUNCTION trap.sqrt(integer) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM trap.escalate('sqrt(integer)'); RETURN 0; END$$;
CREATE FUNCTION trap.format(text, text) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM trap.escalate('format(text, text)'); RETURN ''; END$$;
CREATE FUNCTION trap.current_setting(text) RETURNS text LANGUAGE plpgsql AS
  $$BEGIN PERFORM trap.escalate('current_setting(text)'); RETURN '0'; END$$;
CREATE FUNCTION trap.pg_extension_config_dump(regclass, text) RETURNS void LANGUAGE plpgsql AS
  $$BEGIN PERFORM trap.escalate('pg_extension_config_dump(regclass, text)'); END$$;
CREATE FUNCTION trap.has_table_privilege(oid, text) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM trap.escalate('has_table_privilege(oid, text)'); RETURN true; END$$;
CREATE FUNCTION trap.int_ge(integer, integer) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN PERFORM trap.escalate('>=(integer, integer)'); RETURN true; END$$;
CREATE OPERATOR trap.>= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = trap.int_ge);
CREATE FUNCTION trap.float8_arith(float8, float8) RETURNS float8 LANGUAGE plpgsql AS
  $$BEGIN PERFORM trap.escalate('-(float8, float8)'); RETURN 0; END$$;
CREATE OPERATOR trap.- (LEFTARG = float8, RIGHTARG = float8, FUNCTION = trap.float8_arith);
-- A schema named like the internal one, planted first, makes CREATE
-- EXTENSION fail instead of installing into it (terse: from 18 the error
-- also names the script's line).
CREATE SCHEMA glicko2_internal;
CREATE FUNCTION glicko2_internal.glicko2_column_type(rel regclass, col name, argument text)
  RETURNS regtype LANGUAGE plpgsql AS
  $$BEGIN PERFORM trap.escalate('glicko2_column_type'); RETURN NULL; END$$;
\set VERBOSITY terse
CREATE EXTENSION glicko2 SCHEMA trap;
\set VERBOSITY default
DROP SCHEMA glicko2_internal CASCADE;
CREATE EXTENSION glicko2 SCHEMA trap;
SELECT trap.glicko2_period(trap.glicko2_rating(1500, 200, 0.06), trap.glicko2_rating(1400, 30), 1);
RESET ROLE;
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_glicko2_installer';
SELECT e.extname, e.extowner::regrole, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace;
-- Another role may use the internal schema, not create in it.
CREATE ROLE regress_glicko2_other;
SELECT has_schema_privilege('regress_glicko2_other', 'glicko2_internal', 'USAGE') AS other_may_use,
       has_schema_privilege('regress_glicko2_other', 'glicko2_internal', 'CREATE') AS other_may_create;
DROP ROLE regress_glicko2_other;

\c :regression_db
DROP DATABASE glicko2_security;
DROP DATABASE glicko2_trusted;
DROP ROLE regress_glicko2_installer;
