-- bench/citus_close_one.sql — one close, measured (included by
-- bench/citus_close.sql and bench/citus_close_matches.sql, which set league,
-- period, max_rd, setup, backend and dir0-2, and procedure if not
-- glicko2_close_period): 'single node' closes <league>_local from
-- <league>_games_local, the other setup <league> from <league>_games.
-- The close runs in a transaction block so that the coordinator's
-- connections to the workers are still open when the bytes they brought are
-- read (bench/tcp_received.py, before COMMIT and after it).
\if :{?dir0} \else \echo 'run bench/citus_close.sql' \quit \endif
\if :{?procedure} \else \set procedure glicko2_close_period \endif
SELECT CASE WHEN :'setup' = 'single node' THEN '_local' ELSE '' END AS copy,
       CASE WHEN :'setup' = 'single node' THEN '' ELSE ', unguarded => true' END AS unguarded \gset
\set net0 `python3 bench/tcp_received.py :backend`
\set cpu0 `bash bench/citus_cpu.sh :dir0 :dir1 :dir2`
SELECT clock_timestamp() AS t0 \gset
BEGIN;
CALL :procedure(:'league' || :'copy', :'league' || '_games' || :'copy', :period,
                max_rd => :max_rd, history => :'league' || '_history' || :'copy' :unguarded);
\set net1 `python3 bench/tcp_received.py :backend`
COMMIT;
SELECT clock_timestamp() AS t1 \gset
\set cpu1 `bash bench/citus_cpu.sh :dir0 :dir1 :dir2`
\set net2 `python3 bench/tcp_received.py :backend`
\set hz `getconf CLK_TCK`
INSERT INTO runs
SELECT :'league', :period, :'setup', extract(epoch FROM :'t1'::timestamptz - :'t0'::timestamptz),
       (SELECT coalesce(sum(greatest((:'net1'::jsonb ->> k)::bigint, (:'net2'::jsonb ->> k)::bigint)
                            - coalesce((:'net0'::jsonb ->> k)::bigint, 0)), 0)
        FROM (SELECT jsonb_object_keys(:'net1'::jsonb || :'net2'::jsonb) AS k) s),
       (a[1] - b[1]) / t, (a[2] - b[2]) / t, (a[3] - b[3]) / t
FROM (SELECT ARRAY[:cpu1]::float8[] AS a, ARRAY[:cpu0]::float8[] AS b, CAST(:hz AS float8) AS t) x;
