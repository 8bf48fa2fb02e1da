-- bench/citus_close_runs.sql — the closes of bench/citus_close.sql and
-- bench/citus_close_matches.sql, measured and compared (included by both,
-- which make leagues int_keys and text_keys, each with a _local copy, and set
-- procedure for glicko2_close_matches): periods 1 (max_rd 250) and 2
-- (max_rd NULL) of each, the single node's close first
-- (bench/citus_close_one.sql), then every run, the ratios against the single
-- node, and the ratings and history of both copies compared bit for bit.
CREATE TABLE runs (league text, period int, setup text, seconds float8, bytes bigint,
                   coordinator float8, worker1 float8, worker2 float8);
\set league int_keys
\set period 1
\set max_rd 250
\set setup 'single node'
\ir citus_close_one.sql
\set setup 'Citus, 2 workers'
\ir citus_close_one.sql
\set league int_keys
\set period 2
\set max_rd NULL
\set setup 'single node'
\ir citus_close_one.sql
\set setup 'Citus, 2 workers'
\ir citus_close_one.sql
\set league text_keys
\set period 1
\set max_rd 250
\set setup 'single node'
\ir citus_close_one.sql
\set setup 'Citus, 2 workers'
\ir citus_close_one.sql
\set league text_keys
\set period 2
\set max_rd NULL
\set setup 'single node'
\ir citus_close_one.sql
\set setup 'Citus, 2 workers'
\ir citus_close_one.sql

-- Every close: wall seconds, the bytes the coordinator's backend received, each
-- node's CPU seconds.
SELECT league, period, setup, round(seconds::numeric, 2) AS seconds, bytes,
       round(coordinator::numeric, 2) AS coordinator_cpu, round(worker1::numeric, 2) AS worker1_cpu,
       round(worker2::numeric, 2) AS worker2_cpu
FROM runs ORDER BY league, period, setup DESC;
-- Against the single node's close of the same period: the projected time
-- (coordinator CPU + the busiest worker's), the coordinator's share of the
-- cluster's CPU, the wall time.
SELECT c.league, c.period,
       round(((c.coordinator + greatest(c.worker1, c.worker2)) /
              (s.coordinator + s.worker1 + s.worker2))::numeric, 2) AS projected_over_single_cpu,
       round((c.coordinator / (c.coordinator + c.worker1 + c.worker2))::numeric, 3) AS coordinator_share,
       round((c.seconds / s.seconds)::numeric, 2) AS wall_over_single,
       c.bytes AS coordinator_bytes
FROM runs c JOIN runs s USING (league, period)
WHERE c.setup = 'Citus, 2 workers' AND s.setup = 'single node' ORDER BY 1, 2;
-- The same bits: ratings and history of both copies.
SELECT 'int_keys' AS league, count(*) AS players, count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating) AS differences
FROM int_keys d FULL JOIN int_keys_local l USING (player_id)
UNION ALL
SELECT 'text_keys', count(*), count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating)
FROM text_keys d FULL JOIN text_keys_local l USING (player_id);
SELECT 'int_keys' AS league, count(*) AS history_rows,
       count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating OR d.player_id IS NULL OR l.player_id IS NULL) AS differences
FROM int_keys_history d FULL JOIN int_keys_history_local l USING (player_id, period)
UNION ALL
SELECT 'text_keys', count(*),
       count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating OR d.player_id IS NULL OR l.player_id IS NULL)
FROM text_keys_history d FULL JOIN text_keys_history_local l USING (player_id, period);
