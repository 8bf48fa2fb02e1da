-- bench/report.sql — medians and ratios of one size's measurements.
-- Ratios are medians of per-round ratios (each round runs every query once,
-- back to back), which noise from other processes disturbs least.
\pset footer off
\echo
SELECT DISTINCT size AS "league" FROM bench.times;

WITH t AS (
  SELECT t.label, t.rep, t.wall_ms, t.cpu_ms, q.ord, q.kind
  FROM bench.times t LEFT JOIN bench.queries q USING (label)),
base AS (  -- what each measurement is compared with, in the same round
  SELECT label,
         CASE WHEN kind = 'agg' THEN 'count(*) GROUP BY player_id (floor)'
              WHEN label LIKE '%, defaults (work_mem 4MB, jit on)'
                THEN 'count(*) GROUP BY player_id (floor), defaults (work_mem 4MB, jit on)'
              WHEN kind = 'close' OR label LIKE 'export:%' THEN 'floor: read the games, rewrite every rating'
              WHEN label LIKE '%, 2 workers' THEN regexp_replace(label, ', 2 workers$', ', serial (beside 2 workers)')
         END AS base
  FROM (SELECT DISTINCT label, kind FROM t) x),
paired AS (
  SELECT t.label, t.ord, t.wall_ms, t.cpu_ms,
         t.wall_ms / b.wall_ms AS wall_ratio, t.cpu_ms / b.cpu_ms AS cpu_ratio, base.base
  FROM t JOIN base USING (label)
  LEFT JOIN t b ON b.label = base.base AND b.rep = t.rep)
SELECT p.label AS "measurement",
       pl.plan AS "plan",
       count(*) AS "runs",
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p.wall_ms)::numeric) AS "wall ms",
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p.cpu_ms)::numeric) AS "backend CPU ms",
       CASE WHEN p.label LIKE '%, 2 workers' THEN 'speed-up ' || round((1 / percentile_cont(0.5) WITHIN GROUP (ORDER BY p.wall_ratio))::numeric, 2)
            ELSE round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p.wall_ratio)::numeric, 2)::text END AS "ratio (wall)",
       CASE WHEN p.label LIKE '%, 2 workers' THEN ''
            ELSE coalesce(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p.cpu_ratio)::numeric, 2)::text, '') END AS "ratio (CPU)",
       p.base AS "compared with"
FROM paired p LEFT JOIN bench.plans pl ON pl.label = regexp_replace(p.label, ', serial \(beside 2 workers\)$', '')
GROUP BY p.label, p.ord, pl.plan, p.base
ORDER BY coalesce(p.ord, CASE WHEN p.label LIKE 'export:%' THEN 15 ELSE 10 END), p.label;

SELECT what AS "check", value FROM bench.checks ORDER BY what;
SELECT label AS "close", peak_mb AS "peak memory (MB; backend RssAnon, or as named)" FROM bench.memory ORDER BY label;

-- glicko2_period against PostgreSQL's own by-reference aggregate, per round,
-- at the benchmark's settings and at PostgreSQL's defaults; and both against
-- the control (avg()'s transition over glicko2_period's inputs), which splits
-- the ratio into what the inputs cost the executor and what glicko2 adds.
WITH r AS (
  SELECT s.settings, g.cpu_ms / a.cpu_ms AS g_a, c.cpu_ms / a.cpu_ms AS c_a,
         g.cpu_ms / c.cpu_ms AS g_c, g.wall_ms / a.wall_ms AS g_a_wall
  FROM (VALUES ('work_mem 256MB, jit off', ''), ('defaults: work_mem 4MB, jit on', ', defaults (work_mem 4MB, jit on)')) s(settings, suffix)
  JOIN bench.times g ON g.label = 'glicko2_period' || s.suffix
  JOIN bench.times a ON a.rep = g.rep AND a.label = (SELECT label FROM bench.queries WHERE ord = 2) || s.suffix
  JOIN bench.times c ON c.rep = g.rep AND c.label = (SELECT label FROM bench.queries WHERE ord = 6) || s.suffix)
SELECT settings,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY g_a)::numeric, 2) AS "glicko2_period / avg(score), CPU",
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY g_a_wall)::numeric, 2) AS "glicko2_period / avg(score), wall",
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY c_a)::numeric, 2) AS "control / avg(score), CPU",
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY g_c)::numeric, 2) AS "glicko2_period / control, CPU"
FROM r GROUP BY settings ORDER BY settings DESC;
