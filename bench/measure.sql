-- bench/measure.sql — the aggregate measurements of one size, in this one
-- session (psql variables :size and :reps).  bench/run.sh appends the
-- closes, each in a transaction that is rolled back and vacuumed away.
SELECT set_config('bench.size', :'size', false), set_config('bench.reps', :'reps', false),
       set_config('bench.slow', :'slow', false) \g /dev/null
SET max_parallel_workers_per_gather = 0;

INSERT INTO bench.plans SELECT label, bench.plan_shape(sql) FROM bench.queries WHERE kind = 'agg';

-- Serial plans, every query once per round, rounds interleaved (the slow
-- baselines, 4 and 5, only where bench.slow is on).
DO $$
DECLARE
  q record;
  r record;
BEGIN
  FOR i IN 1 .. current_setting('bench.reps')::int LOOP
    FOR q IN SELECT * FROM bench.queries
             WHERE kind = 'agg' AND (ord IN (1, 2, 3, 6) OR current_setting('bench.slow') = 'on')
             ORDER BY ord LOOP
      r := bench.run(q.sql, 'agg');
      INSERT INTO bench.times VALUES (current_setting('bench.size'), q.label, i, r.wall_ms, r.cpu_ms, r.result);
    END LOOP;
  END LOOP;
END $$;

-- The same four at PostgreSQL's default settings (work_mem 4MB, so the hash
-- tables of 100 000 groups spill to disk; JIT on), interleaved likewise.
DO $$
DECLARE
  q record;
  r record;
BEGIN
  FOR i IN 1 .. current_setting('bench.reps')::int LOOP
    FOR q IN SELECT * FROM bench.queries WHERE kind = 'agg' AND ord IN (1, 2, 3, 6) ORDER BY ord LOOP
      PERFORM set_config('work_mem', '4MB', false), set_config('jit', 'on', false);
      r := bench.run(q.sql, 'agg');
      PERFORM set_config('work_mem', '256MB', false), set_config('jit', 'off', false);
      INSERT INTO bench.times VALUES (current_setting('bench.size'), q.label || ', defaults (work_mem 4MB, jit on)', i, r.wall_ms, r.cpu_ms, r.result);
    END LOOP;
  END LOOP;
END $$;

-- Two parallel workers against the serial plan, interleaved.
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0.01;
SET max_parallel_workers_per_gather = 2;
INSERT INTO bench.plans
SELECT label || ', 2 workers', bench.plan_shape(sql)
FROM bench.queries WHERE ord IN (1, 3);
SET max_parallel_workers_per_gather = 0;
DO $$
DECLARE
  q record;
  r record;
BEGIN
  FOR i IN 1 .. current_setting('bench.reps')::int LOOP
    FOR q IN SELECT * FROM bench.queries WHERE ord IN (1, 3) ORDER BY ord LOOP
      PERFORM set_config('max_parallel_workers_per_gather', '2', true);
      r := bench.run(q.sql, 'agg');
      INSERT INTO bench.times VALUES (current_setting('bench.size'), q.label || ', 2 workers', i, r.wall_ms, r.cpu_ms, r.result);
      PERFORM set_config('max_parallel_workers_per_gather', '0', true);
      r := bench.run(q.sql, 'agg');
      INSERT INTO bench.times VALUES (current_setting('bench.size'), q.label || ', serial (beside 2 workers)', i, r.wall_ms, r.cpu_ms, r.result);
    END LOOP;
  END LOOP;
END $$;

-- Same numbers: parallel against serial over every player, and the
-- baselines against glicko2_period over a sample of players.
SET max_parallel_workers_per_gather = 2;
CREATE TEMP TABLE parallel_result AS
SELECT player_id, glicko2_period(rating, opponent, score) AS r FROM sides GROUP BY player_id;
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE serial_result AS
SELECT player_id, glicko2_period(rating, opponent, score) AS r FROM sides GROUP BY player_id;
INSERT INTO bench.checks
SELECT 'glicko2_period, 2 workers against serial: players', count(*) FROM parallel_result
UNION ALL
SELECT 'glicko2_period, 2 workers against serial: max relative difference', max(bench.max_rel_diff(p.r, s.r))
FROM parallel_result p JOIN serial_result s USING (player_id);

DO $$
DECLARE
  q record;
  d float8;
BEGIN
  FOR q IN SELECT * FROM bench.queries
           WHERE ord IN (4, 5) AND current_setting('bench.slow') = 'on' LOOP
    EXECUTE format('SELECT max(bench.max_rel_diff(b.r, s.r)) FROM (%s) b JOIN serial_result s USING (player_id)',
                   replace(q.sql, 'FROM sides', 'FROM sides WHERE player_id <= 2000'))
      INTO d;
    INSERT INTO bench.checks VALUES (q.label || ' against glicko2_period (2000 players): max relative difference', d);
  END LOOP;
END $$;

-- The close rates every player with games as the serial aggregate does
-- (checked inside the transaction, which is then rolled back).
BEGIN;
SELECT bench.run((SELECT sql FROM bench.queries WHERE ord = 13), 'close') \g /dev/null
SELECT max(bench.max_rel_diff(r.rating, s.r)) AS close_diff
FROM ratings r JOIN serial_result s USING (player_id) \gset
ROLLBACK;
INSERT INTO bench.checks VALUES ('glicko2_close_period against glicko2_period: max relative difference', :close_diff);
VACUUM ratings;
