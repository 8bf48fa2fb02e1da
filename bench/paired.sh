#!/usr/bin/env bash
# bench/paired.sh — the close against its floor in pairs, one right after the
# other on the same data, each pair's ratio of backend CPU time printed: on a
# shared or virtual machine whose speed drifts by 10-15 % from minute to
# minute, a pair's ratio is steadier than a ratio of medians (bench/run.sh).
#
# Runs against an existing database holding bench/data.sql's tables, named by
# psql's own variables (PGHOST, PGPORT, PGDATABASE, PGUSER), e.g. a cluster
# of your own where you ran
#   psql -v players=1000000 -v games=10000000 -v sides=off -f bench/data.sql
# PAIRS (5) pairs; SETTINGS, SQL run once first (default: the benchmark's
# tuned settings; "SET work_mem = '4MB'; SET jit = on;" for PostgreSQL's).
# Each statement runs in a transaction that is rolled back, then VACUUM
# ratings, so every run starts from the same table.  PG_CONFIG names psql's
# server (default pg_config).
set -euo pipefail
PAIRS=${PAIRS:-5}
SETTINGS=${SETTINGS:-"SET work_mem = '256MB'; SET jit = off;"}
psql=$("${PG_CONFIG:-pg_config}" --bindir)/psql

cpu="SELECT 'cpu:' || split_part(pg_read_file('/proc/self/schedstat'), ' ', 1);"
floor="DO \$d\$ DECLARE n bigint; s float8; BEGIN
  SELECT count(*), sum(score) INTO n, s FROM games WHERE period = 2;
  UPDATE ratings SET rating = rating; END \$d\$;"
close="CALL glicko2_close_period('ratings', 'games', 2);"

{
  echo "SET max_parallel_workers_per_gather = 0; $SETTINGS"
  for _ in $(seq "$PAIRS"); do
    for statement in "$floor" "$close"; do
      echo "BEGIN; $cpu $statement $cpu ROLLBACK; VACUUM ratings;"
    done
  done
} | "$psql" -X -q -At -v ON_ERROR_STOP=1 | grep '^cpu:' | python3 -c '
import statistics, sys
ns = [int(line.split(":")[1]) for line in sys.stdin]
ms = [(b - a) / 1e6 for a, b in zip(ns[0::2], ns[1::2])]
ratios = []
for floor, close in zip(ms[0::2], ms[1::2]):
    ratios.append(close / floor)
    print("floor %6.0f ms   close %6.0f ms   close / floor %.2f" % (floor, close, close / floor))
print("median close / floor over %d pairs: %.2f (min %.2f, max %.2f)"
      % (len(ratios), statistics.median(ratios), min(ratios), max(ratios)))
'
