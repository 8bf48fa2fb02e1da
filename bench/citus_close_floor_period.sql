-- bench/citus_close_floor_period.sql — one period of
-- bench/citus_close_floor.sql (included by it, which sets period and max_rd):
-- the single node's close of int_keys_local, the floors (pass 'a'), the
-- single node's close of twin_local, the floors again (pass 'b').
\set league int_keys
\set setup 'single node'
\set procedure glicko2_close_period
\ir citus_close_one.sql
\set pass a
\ir citus_close_floor_pass.sql
\set league twin
\set setup 'single node'
\set procedure glicko2_close_period
\ir citus_close_one.sql
\set pass b
\ir citus_close_floor_pass.sql
