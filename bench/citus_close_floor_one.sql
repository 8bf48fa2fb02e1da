-- bench/citus_close_floor_one.sql — one floor of bench/citus_close_floor.sql
-- (included by citus_close_floor_pass.sql, which sets league, setup,
-- procedure and work): measured as a close by citus_close_one.sql, then the
-- rows in its work table counted per worker (table moved; node 1 is the
-- worker of the lower port, as dir1) and the work table emptied.
\ir citus_close_one.sql
\if :{?work}
SELECT :'work' <> '' AS has_work \gset
\if :has_work
INSERT INTO moved
SELECT :'setup', :period, dense_rank() OVER (ORDER BY s.nodeport), sum(r.result::bigint)
FROM run_command_on_shards(:'work', 'SELECT count(*) FROM %s') r
JOIN citus_shards s USING (shardid) GROUP BY s.nodeport;
TRUNCATE :work;
\endif
\endif
