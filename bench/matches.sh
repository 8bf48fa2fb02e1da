#!/usr/bin/env bash
# bench/matches.sh — glicko2_close_matches (every method: 'sum', 'mean',
# 'individual', 'composite'; 'sum' with a teammates store, bench/matches.sql)
# against glicko2_close_period on the same number of one-on-one games as
# matches: PLAYERS players (100000), MATCHES matches of 4 teams of 3 (200000)
# in one period (bench/matches.sql).  Each close runs in a transaction that
# is rolled back (then VACUUM), so every run starts from the same ratings;
# the three closes are interleaved, REPS (2) runs each, under PostgreSQL's
# default settings and tuned ones (work_mem 256MB, JIT off).  Prints the
# medians and their ratios to glicko2_close_period; and 'sum' with the party
# column and party and size advantages (+40, +25), and 'sum' with a
# teammates store, against 'sum' without, paired run by run (the median of
# the runs' ratios, of the clock and of the backend's CPU seconds).
#
# PG_CONFIG names the server (use a private copy on a shared machine:
# PG_CONFIG=$(bash tools/pg-copy.sh /tmp/pg-mine) bash bench/matches.sh);
# the cluster is a throwaway one (tools/with-cluster.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${PG_CONFIG:?set PG_CONFIG to the pg_config of the server to measure}"
export PG_CONFIG PLAYERS=${PLAYERS:-100000} MATCHES=${MATCHES:-200000} REPS=${REPS:-2}

make -s clean
make -s && make -s install

if [ "${1:-}" != "--in-cluster" ]; then
  exec bash tools/with-cluster.sh bash "$0" --in-cluster
fi

sql() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
sql -v players="$PLAYERS" -v matches="$MATCHES" -f bench/matches.sql
for settings in default tuned; do
  opts=""
  [ "$settings" = tuned ] && opts="-c work_mem=256MB -c jit=off"
  for run in $(seq "$REPS"); do
    for close in "glicko2_close_period('ratings', 'games', 1)" \
                 "glicko2_close_matches('ratings', 'matches', 1, 'sum')" \
                 "glicko2_close_matches('ratings', 'matches', 1, 'sum', party_column => 'party', party_advantage => 40, size_advantage => 25)" \
                 "glicko2_close_matches('ratings', 'matches', 1, 'sum', teammates => 'teammates')" \
                 "glicko2_close_matches('ratings', 'matches', 1, 'mean')" \
                 "glicko2_close_matches('ratings', 'matches', 1, 'individual')" \
                 "glicko2_close_matches('ratings', 'matches', 1, 'composite')"; do
      PGOPTIONS="$opts" sql -v settings="$settings" -v run="$run" -v close="$close" -v ticks="$(getconf CLK_TCK)" <<'SQL'
SELECT pg_backend_pid() AS pid \gset
BEGIN;
\set cpu0 `awk '{ print $14 + $15 }' /proc/:pid/stat`
SELECT clock_timestamp() AS t0 \gset
CALL :close;
SELECT extract(epoch FROM clock_timestamp() - :'t0') AS seconds \gset
\set cpu1 `awk '{ print $14 + $15 }' /proc/:pid/stat`
ROLLBACK;
INSERT INTO timings VALUES (:'settings', :'close', :run, :seconds, (:cpu1 - :cpu0) / CAST(:ticks AS float8));
VACUUM ratings;
SQL
    done
  done
done

sql <<'SQL'
\pset footer off
\echo 'Closes of one period: median seconds and the ratio to glicko2_close_period'
WITH m AS (
  SELECT settings, split_part(close, '(', 1) || coalesce(' ' || substring(close FROM '1, ''(\w+)'''), '')
                   || CASE WHEN close LIKE '%party_column%' THEN ' + parties' ELSE '' END
                   || CASE WHEN close LIKE '%teammates%' THEN ' + teammates' ELSE '' END AS close,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS median, count(*) AS runs
  FROM timings GROUP BY 1, 2)
SELECT m.settings, m.close, m.runs, round(m.median::numeric, 2) AS seconds,
       round((m.median / g.median)::numeric, 2) AS ratio
FROM m JOIN m g ON g.settings = m.settings AND g.close = 'glicko2_close_period'
ORDER BY m.settings, m.close DESC;
\echo '''sum'' with parties and advantages, and with a teammates store, against ''sum'' without, paired by run'
\echo '(the median of the runs'' ratios: of the clock, and of the backend''s CPU seconds, which parallel workers'
\echo ' do not count but other sessions on the machine do not disturb):'
SELECT p.settings, CASE WHEN p.close LIKE '%teammates%' THEN 'teammates' ELSE 'parties' END AS "with", count(*) AS runs,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY p.seconds / s.seconds))::numeric, 3) AS median_ratio,
       round(min(p.seconds / s.seconds)::numeric, 3) AS least, round(max(p.seconds / s.seconds)::numeric, 3) AS most,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY p.cpu / nullif(s.cpu, 0)))::numeric, 3) AS cpu_ratio,
       round(min(p.cpu / nullif(s.cpu, 0))::numeric, 3) AS cpu_least, round(max(p.cpu / nullif(s.cpu, 0))::numeric, 3) AS cpu_most
FROM timings p JOIN timings s ON s.settings = p.settings AND s.run = p.run
                              AND s.close = 'glicko2_close_matches(''ratings'', ''matches'', 1, ''sum'')'
WHERE p.close LIKE '%party_column%' OR p.close LIKE '%teammates%' GROUP BY 1, 2 ORDER BY 1, 2;
\echo 'Game sides each close rates (one row per player per opponent):'
SELECT 'glicko2_close_period' AS close, 2 * count(*) AS sides FROM games WHERE period = 1
UNION ALL
SELECT 'glicko2_close_matches ' || method, count(*)
FROM (SELECT match_id, array_agg(player_id) p, array_agg(team) t, array_agg(place) pl,
             array_fill(NULL::glicko2_rating, ARRAY[count(*)::int]) r
      FROM matches GROUP BY match_id) x,
     unnest(ARRAY['sum', 'mean', 'individual', 'composite']) method,
     glicko2_match_sides(x.p, x.t, x.pl, x.r, method) s
GROUP BY method ORDER BY 1;
SQL
