#!/usr/bin/env bash
# bench/aggregate.sh — glicko2_period against avg(score), and both against the
# control (bench/baselines.sql: avg()'s own transition over glicko2_period's
# inputs), over the sides table, many rounds.  On a virtual machine whose
# speed drifts by 10-20 % from one second to the next, the five rounds of
# bench/run.sh leave the ratio uncertain by about +-0.05; forty rounds here
# narrow that to about +-0.02.
#
# Each query runs in a backend of its own (a fresh connection, first warmed
# by the same query over 10 players), so no query inherits another's caches
# or memory; the order rotates from round to round.  The measure is the
# backend's CPU time (/proc/self/schedstat).  Prints, per query, the median
# CPU time and the median and quartiles of its per-round ratio to avg(score).
#
# Runs against an existing database holding bench/data.sql's sides table and
# bench/baselines.sql, named by psql's own variables (PGHOST, PGPORT,
# PGDATABASE, PGUSER), e.g. a cluster of your own where you ran
#   psql -v players=100000 -v games=1000000 -v sides=on -f bench/data.sql
#   psql -f bench/baselines.sql
# ROUNDS (40); SETTINGS, SQL run first in every backend (default: PostgreSQL's
# own, "SET work_mem = '4MB'; SET jit = on;"; the benchmark's tuned ones are
# "SET work_mem = '256MB'; SET jit = off;").  PG_CONFIG names psql's server.
set -euo pipefail
ROUNDS=${ROUNDS:-40}
SETTINGS=${SETTINGS:-"SET work_mem = '4MB'; SET jit = on;"}
psql=$("${PG_CONFIG:-pg_config}" --bindir)/psql

labels=(avg control glicko2_period)
calls=("avg(score)" "bench.avg_over_inputs(score, rating, opponent)"
       "glicko2_period(rating, opponent, score)")
cpu="SELECT 'cpu:' || split_part(pg_read_file('/proc/self/schedstat'), ' ', 1);"

echo "settings: $SETTINGS ($ROUNDS rounds);$(uptime)"
{
  for round in $(seq "$ROUNDS"); do
    for k in 0 1 2; do
      i=$(( (round + k) % 3 ))
      query="SELECT count(r) FROM (SELECT player_id, ${calls[$i]} AS r FROM sides"
      echo "\\c"
      echo "SET max_parallel_workers_per_gather = 0; $SETTINGS"
      echo "$query WHERE player_id <= 10 GROUP BY player_id) q \\g /dev/null"
      echo "SELECT 'query:${labels[$i]}'; $cpu $query GROUP BY player_id) q \\g /dev/null"
      echo "$cpu"
    done
  done
} | "$psql" -X -q -At -v ON_ERROR_STOP=1 | python3 -c '
import collections, statistics, sys
avg, control, g2 = sys.argv[1:]
cpu = collections.defaultdict(list)
label = start = None
for line in sys.stdin:
    kind, _, value = line.strip().partition(":")
    if kind == "query":
        label, start = value, None
    elif kind == "cpu" and start is None:
        start = int(value)
    elif kind == "cpu":
        cpu[label].append((int(value) - start) / 1e6)
def ratio(a, b):  # per round: median and quartiles
    q1, q2, q3 = statistics.quantiles([x / y for x, y in zip(cpu[a], cpu[b])], n=4)
    return "median %.3f (quartiles %.3f-%.3f)" % (q2, q1, q3)
for label in (avg, control, g2):
    print("%-15s median %6.0f ms CPU   / avg(score): %s"
          % (label, statistics.median(cpu[label]), ratio(label, avg)))
print("glicko2_period / control: " + ratio(g2, control))
' "${labels[@]}"
