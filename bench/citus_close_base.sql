-- bench/citus_close_base.sql — what bench/citus_close.sql and
-- bench/citus_close_matches.sql share before their leagues (included by
-- both, which set players): the nodes' data directories and this backend
-- for bench/citus_close_one.sql, u(i, k) (a uniform number in [0, 1) from
-- i and k), and table base: 95 % of the players (the rest are new), every
-- 97th NULL-rated.

-- The nodes' data directories, for bench/citus_cpu.sh.
SELECT current_setting('data_directory') AS dir0 \gset
SELECT result AS dir1 FROM run_command_on_workers('SHOW data_directory') ORDER BY nodeport LIMIT 1 \gset
SELECT result AS dir2 FROM run_command_on_workers('SHOW data_directory') ORDER BY nodeport DESC LIMIT 1 \gset
SELECT pg_backend_pid() AS backend \gset

CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
CREATE TABLE base (player_id int, rating glicko2_rating);
INSERT INTO base
SELECT i, CASE WHEN i % 97 <> 0 THEN
         glicko2_rating(1200 + 600 * u(i, 1), 40 + 300 * u(i, 2), 0.05 + 0.02 * u(i, 3)) END
FROM generate_series(1, (:players * 0.95)::int) i;
