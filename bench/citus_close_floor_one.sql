-- bench/citus_close_floor_one.sql — one floor of bench/citus_close_floor.sql
-- (included by citus_close_floor_pass.sql, which sets league, setup,
-- procedure and work): measured as a close by citus_close_one.sql, then the
-- rows in its work table counted per node (table moved) and the work table
-- emptied; a table it wrote that moved nothing (empty) emptied too.
\ir citus_close_one.sql
\if :{?work}
SELECT :'work' <> '' AS has_work \gset
\if :has_work
INSERT INTO moved
SELECT :'setup', :period, nodeport - current_setting('port')::int, sum(result::bigint)
FROM run_command_on_placements(:'work', 'SELECT count(*) FROM %s') GROUP BY nodeport;
TRUNCATE :work;
\endif
\endif
\if :{?empty}
SELECT :'empty' <> '' AS has_empty \gset
\if :has_empty
TRUNCATE :empty;
\endif
\endif
