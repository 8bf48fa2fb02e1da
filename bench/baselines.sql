-- bench/baselines.sql — what glicko2 is measured against, and the queries.
-- Every query runs on the tables of bench/data.sql; bench.queries lists them.
SET client_min_messages = warning;
DROP SCHEMA IF EXISTS bench CASCADE;
CREATE SCHEMA bench;

------------------------------------------------------------------------------
-- Baseline: the same mathematics as a PL/pgSQL aggregate (the paper's
-- Steps 3-8 as written, state {rating, rd, volatility, sum g^2 E(1-E),
-- sum g(s-E), games}).
------------------------------------------------------------------------------
CREATE FUNCTION bench.plpgsql_transfn(s float8[], player glicko2_rating,
                                      opponent glicko2_rating, score float8)
RETURNS float8[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  g float8;
  e float8;
BEGIN
  IF s IS NULL THEN
    s := ARRAY[player.rating, player.rd, player.volatility, 0, 0, 0];
  ELSIF s[1] <> player.rating OR s[2] <> player.rd OR s[3] <> player.volatility THEN
    RAISE EXCEPTION 'player rating differs within one group' USING ERRCODE = '22023';
  END IF;
  IF score IS NULL THEN
    RETURN s;
  END IF;
  g := 1 / sqrt(1 + 3 * (opponent.rd / 173.7178) ^ 2 / pi() ^ 2);
  e := 1 / (1 + exp(-g * (player.rating - opponent.rating) / 173.7178));
  s[4] := s[4] + g * g * e * (1 - e);
  s[5] := s[5] + g * (score - e);
  s[6] := s[6] + 1;
  RETURN s;
END $$;

CREATE FUNCTION bench.plpgsql_combinefn(a float8[], b float8[])
RETURNS float8[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF a IS NULL THEN RETURN b; END IF;
  IF b IS NULL THEN RETURN a; END IF;
  RETURN ARRAY[a[1], a[2], a[3], a[4] + b[4], a[5] + b[5], a[6] + b[6]];
END $$;

CREATE FUNCTION bench.plpgsql_finalfn(s float8[])
RETURNS glicko2_rating LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  mu float8 := (s[1] - 1500) / 173.7178;
  phi float8 := s[2] / 173.7178;
  sigma float8 := s[3];
  tau float8 := 0.5;
  v float8; delta float8; a float8;
  xa float8; xb float8; xc float8; fa float8; fb float8; fc float8; ex float8;
  k int := 1; n int := 0;
  phi_star float8; phi_new float8;
BEGIN
  IF s IS NULL THEN RETURN NULL; END IF;
  IF s[6] = 0 OR s[4] = 0 THEN
    RETURN ROW(s[1], 173.7178 * sqrt(phi ^ 2 + sigma ^ 2), sigma)::glicko2_rating;
  END IF;
  v := 1 / s[4];
  delta := v * s[5];
  a := ln(sigma ^ 2);
  xa := a;
  IF delta ^ 2 > phi ^ 2 + v THEN
    xb := ln(delta ^ 2 - phi ^ 2 - v);
  ELSE
    LOOP
      xb := a - k * tau;
      ex := exp(xb);
      EXIT WHEN ex * (delta ^ 2 - phi ^ 2 - v - ex) / (2 * (phi ^ 2 + v + ex) ^ 2) - (xb - a) / tau ^ 2 >= 0
             OR k > 100000;
      k := k + 1;
    END LOOP;
  END IF;
  ex := exp(xa);
  fa := ex * (delta ^ 2 - phi ^ 2 - v - ex) / (2 * (phi ^ 2 + v + ex) ^ 2) - (xa - a) / tau ^ 2;
  ex := exp(xb);
  fb := ex * (delta ^ 2 - phi ^ 2 - v - ex) / (2 * (phi ^ 2 + v + ex) ^ 2) - (xb - a) / tau ^ 2;
  WHILE abs(xb - xa) > 0.000001 AND n < 200 LOOP
    xc := xa + (xa - xb) * fa / (fb - fa);
    ex := exp(xc);
    fc := ex * (delta ^ 2 - phi ^ 2 - v - ex) / (2 * (phi ^ 2 + v + ex) ^ 2) - (xc - a) / tau ^ 2;
    IF fc * fb <= 0 THEN
      xa := xb; fa := fb;
    ELSE
      fa := fa / 2;
    END IF;
    xb := xc; fb := fc;
    n := n + 1;
  END LOOP;
  sigma := exp(xa / 2);
  phi_star := sqrt(phi ^ 2 + sigma ^ 2);
  phi_new := 1 / sqrt(1 / phi_star ^ 2 + 1 / v);
  RETURN ROW(173.7178 * (mu + phi_new ^ 2 * s[5]) + 1500, 173.7178 * phi_new, sigma)::glicko2_rating;
END $$;

CREATE AGGREGATE bench.plpgsql_period(glicko2_rating, glicko2_rating, float8) (
  SFUNC = bench.plpgsql_transfn, STYPE = float8[],
  FINALFUNC = bench.plpgsql_finalfn, COMBINEFUNC = bench.plpgsql_combinefn,
  PARALLEL = SAFE
);

------------------------------------------------------------------------------
-- Control: avg(score) over glicko2_period's own inputs.  PostgreSQL's avg()
-- transition (float8_accum, called as a built-in) is given the score and,
-- unread, the two ratings, and declares glicko2_period's state size.  So the
-- executor reads, hashes and (at a small work_mem) spills exactly what it
-- does for glicko2_period, and the one difference left is the work per row:
-- control / avg() is what glicko2_period's inputs cost the executor, and
-- glicko2_period / control what glicko2_period itself adds.
------------------------------------------------------------------------------
CREATE FUNCTION bench.avg_accum(float8[], float8, glicko2_rating, glicko2_rating)
RETURNS float8[] LANGUAGE internal STRICT IMMUTABLE PARALLEL SAFE AS 'float8_accum';

DO $$
BEGIN
  EXECUTE format($c$
    CREATE AGGREGATE bench.avg_over_inputs(score float8, player glicko2_rating, opponent glicko2_rating) (
      SFUNC = bench.avg_accum, STYPE = float8[], INITCOND = '{0,0,0}',
      FINALFUNC = float8_avg, SSPACE = %s)$c$,
    (SELECT aggtransspace FROM pg_aggregate
     WHERE aggfnoid = 'glicko2_period(glicko2_rating, glicko2_rating, float8)'::regprocedure));
END $$;

-- f(x) of Step 5.1, for the set-based SQL (inlined by the planner).
CREATE FUNCTION bench.f(x float8, delta float8, phi float8, v float8, a float8)
RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN exp(x) * (delta ^ 2 - phi ^ 2 - v - exp(x)) / (2 * (phi ^ 2 + v + exp(x)) ^ 2)
       - (x - a) / 0.25;

------------------------------------------------------------------------------
-- The measured queries.  An aggregate query returns one row per player; the
-- timed statement wraps it in count(result) so that no result travels to the
-- client and the planner cannot drop the aggregate.
------------------------------------------------------------------------------
-- plan_sql: what to EXPLAIN for the report, where sql is not one statement.
CREATE TABLE bench.queries (label text PRIMARY KEY, kind text NOT NULL, ord int NOT NULL, sql text NOT NULL,
                            plan_sql text);

INSERT INTO bench.queries VALUES
('count(*) GROUP BY player_id (floor)', 'agg', 1, $q$
SELECT player_id, count(*) AS r FROM sides GROUP BY player_id
$q$),
-- PostgreSQL's own avg(float8): the cheapest aggregate whose state lives
-- apart from the hash table (a float8[] it updates in place), as glicko2's
-- does.  What it costs above the floor, every such aggregate pays.
('avg(score) GROUP BY player_id (built-in, by-reference state)', 'agg', 2, $q$
SELECT player_id, avg(score) AS r FROM sides GROUP BY player_id
$q$),
('glicko2_period', 'agg', 3, $q$
SELECT player_id, glicko2_period(rating, opponent, score) AS r FROM sides GROUP BY player_id
$q$),
('control: avg(score) over glicko2_period''s inputs', 'agg', 6, $q$
SELECT player_id, bench.avg_over_inputs(score, rating, opponent) AS r FROM sides GROUP BY player_id
$q$),
('PL/pgSQL aggregate, same maths', 'agg', 4, $q$
SELECT player_id, bench.plpgsql_period(rating, opponent, score) AS r FROM sides GROUP BY player_id
$q$),
-- Set-based: the sums by GROUP BY, then Step 5 for all players at once, one
-- recursive step per Illinois iteration.
('best set-based SQL, same maths', 'agg', 5, $q$
WITH RECURSIVE sums AS (
  SELECT player_id, min(r) AS r, min(rd) AS rd, min(sigma) AS sigma,
         sum(g * g * e * (1 - e)) AS info, sum(g * (score - e)) AS surprise
  FROM (SELECT player_id, r, rd, sigma, score, g, 1 / (1 + exp(-g * dmu)) AS e
        FROM (SELECT player_id, (rating).rating AS r, (rating).rd AS rd,
                     (rating).volatility AS sigma, score,
                     1 / sqrt(1 + 3 * ((opponent).rd / 173.7178) ^ 2 / pi() ^ 2) AS g,
                     ((rating).rating - (opponent).rating) / 173.7178 AS dmu
              FROM sides) x) y
  GROUP BY player_id),
prob AS (
  SELECT player_id, (r - 1500) / 173.7178 AS mu, rd / 173.7178 AS phi, info, surprise,
         1 / info AS v, surprise / info AS delta, ln(sigma ^ 2) AS a
  FROM sums),
start AS (
  SELECT p.*, a AS xa,
         CASE WHEN delta ^ 2 > phi ^ 2 + v THEN ln(delta ^ 2 - phi ^ 2 - v)
              ELSE a - 0.5 * (SELECT k FROM generate_series(1, 100000) k
                              WHERE bench.f(a - k * 0.5, delta, phi, v, a) >= 0 LIMIT 1) END AS xb
  FROM prob p),
iter AS (
  SELECT player_id, mu, phi, info, surprise, v, delta, a, xa, xb,
         bench.f(xa, delta, phi, v, a) AS fa, bench.f(xb, delta, phi, v, a) AS fb, 0 AS n
  FROM start
  UNION ALL
  SELECT player_id, mu, phi, info, surprise, v, delta, a,
         CASE WHEN fc * fb <= 0 THEN xb ELSE xa END,
         xc,
         CASE WHEN fc * fb <= 0 THEN fb ELSE fa / 2 END,
         fc, n + 1
  FROM (SELECT i.*, xc, bench.f(xc, i.delta, i.phi, i.v, i.a) AS fc
        FROM iter i, LATERAL (SELECT i.xa + (i.xa - i.xb) * i.fa / (i.fb - i.fa) AS xc) c
        WHERE abs(i.xb - i.xa) > 0.000001 AND i.n < 200) s)
SELECT player_id,
       ROW(173.7178 * (mu + phi_new ^ 2 * surprise) + 1500, 173.7178 * phi_new, sigma_new)::glicko2_rating AS r
FROM (SELECT player_id, mu, surprise, exp(xa / 2) AS sigma_new,
             1 / sqrt(1 / (phi ^ 2 + exp(xa)) + info) AS phi_new
      FROM iter WHERE abs(xb - xa) <= 0.000001) z
$q$);

------------------------------------------------------------------------------
-- Timing.  Wall-clock time, and the backend's own CPU time from
-- /proc/self/schedstat (nanoseconds on CPU), which other processes on a
-- shared machine disturb far less.  Parallel workers' CPU is not included:
-- for parallel plans only the wall-clock time means anything.
------------------------------------------------------------------------------
CREATE TABLE bench.times (size text, label text, rep int, wall_ms float8, cpu_ms float8, result float8);

CREATE FUNCTION bench.cpu_ns() RETURNS bigint LANGUAGE sql VOLATILE
RETURN split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::bigint;

-- Run one statement; for an aggregate query, count its results.
CREATE FUNCTION bench.run(q text, kind text, OUT wall_ms float8, OUT cpu_ms float8, OUT result float8)
LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  c0 bigint;
BEGIN
  c0 := bench.cpu_ns();
  t0 := clock_timestamp();
  IF kind = 'agg' THEN
    EXECUTE 'SELECT count(r) FROM (' || q || ') q' INTO result;
  ELSE
    EXECUTE q;
  END IF;
  wall_ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
  cpu_ms := (bench.cpu_ns() - c0) / 1e6;
END $$;

------------------------------------------------------------------------------
-- Closing period 2 (of 3, games indexed on period) for the whole ratings
-- table, against the floor: the work no close can avoid, reading the
-- period's games once and rewriting every rating once (the SELECT and the
-- UPDATE below, in one transaction as the close is).  The export path
-- (bench/export.sh, run by bench/run.sh beside these) is what a user could
-- do instead: COPY out, rate in Node.js, COPY back, one UPDATE.  Every close
-- runs in a transaction that is rolled back, then VACUUM ratings.
------------------------------------------------------------------------------
INSERT INTO bench.queries VALUES
('floor: read the games, rewrite every rating', 'close', 11, $q$
DO $d$ DECLARE n bigint; s float8; BEGIN
SELECT count(*), sum(score) INTO n, s FROM games WHERE period = 2;
UPDATE ratings SET rating = rating;
END $d$
$q$, NULL),
('close: CALL glicko2_close_period', 'close', 13, $q$
CALL glicko2_close_period('ratings', 'games', 2)
$q$, NULL),
('close: CALL glicko2_close_period, work_mem 4MB, jit on', 'close', 14, $q$
DO $d$ BEGIN
PERFORM set_config('work_mem', '4MB', true);
PERFORM set_config('jit', 'on', true);
CALL glicko2_close_period('ratings', 'games', 2);
END $d$
$q$, NULL);

-- The plan's main nodes, for the report: "HashAggregate", "Gather ...".
CREATE FUNCTION bench.plan_shape(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  line text;
  shape text[] := '{}';
BEGIN
  IF q ~ '^\s*(CALL|DO)' THEN
    RETURN CASE WHEN q ~ 'glicko2_close_period' THEN 'procedure: checks, locks, one pass in C, then UPDATE in place'
                ELSE 'Index Scan on games (period), then Seq Scan + Update on ratings' END;
  END IF;
  FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
    line := substring(line FROM '^\s*(?:->\s*)?((?:Finalize |Partial )?(?:HashAggregate|GroupAggregate|Gather(?: Merge)?|Hash (?:Right |Left )?Join|Merge (?:Right |Left )?Join|Sort)|Workers Planned: \d+)');
    IF line IS NOT NULL THEN
      shape := shape || line;
    END IF;
  END LOOP;
  RETURN array_to_string(shape, ', ');
END $$;

CREATE TABLE bench.plans (label text PRIMARY KEY, plan text);
CREATE TABLE bench.checks (what text PRIMARY KEY, value float8);
CREATE TABLE bench.memory (label text PRIMARY KEY, peak_mb int);

-- Largest relative difference between two sets of ratings, field by field.
CREATE FUNCTION bench.max_rel_diff(a glicko2_rating, b glicko2_rating) RETURNS float8
LANGUAGE sql IMMUTABLE
RETURN greatest(abs(a.rating / b.rating - 1), abs(a.rd / b.rd - 1),
                abs(a.volatility / b.volatility - 1));
