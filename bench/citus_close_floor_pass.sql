-- bench/citus_close_floor_pass.sql — the floors of bench/citus_close_floor.sql
-- once each, for period (max_rd) and pass (a or b), each run by
-- citus_close_floor_one.sql (included by citus_close_floor_period.sql).
\set league int_keys
\set setup 'read, 32 shards, ' :pass
\set procedure floor_read
\set work ''
\ir citus_close_floor_one.sql
\set setup 'games once, 32 shards, ' :pass
\set procedure floor_games_once
\set work int_keys_moved
\ir citus_close_floor_one.sql
\set setup 'no rows, 32 shards, ' :pass
\set procedure floor_no_rows
\ir citus_close_floor_one.sql
\set procedure floor_ratings_only
\set league s32
\set setup 'ratings only, 32 shards, ' :pass
\set work s32_need
\ir citus_close_floor_one.sql
\set league s8
\set setup 'ratings only, 8 shards, ' :pass
\set work s8_need
\ir citus_close_floor_one.sql
\set league s4
\set setup 'ratings only, 4 shards, ' :pass
\set work s4_need
\ir citus_close_floor_one.sql
\set league s2
\set setup 'ratings only, 2 shards, ' :pass
\set work s2_need
\ir citus_close_floor_one.sql
\set setup 'every rating, 2 shards, ' :pass
\set procedure floor_every_rating
\ir citus_close_floor_one.sql
\set league int_keys
\set setup 'reference, 32 shards, ' :pass
\set procedure floor_reference
\set work int_keys_ref
\ir citus_close_floor_one.sql
\set league s2
\set setup 'local close, 2 shards, ' :pass
\set procedure floor_local_close
\set work ''
\set empty s2_history
\ir citus_close_floor_one.sql
\set empty ''
