#!/usr/bin/env bash
# bench/season_reset.sh — a season's reset of a whole ratings table
# (glicko2_season_reset: the league's mean, then one UPDATE of every rating
# through glicko2_soft_reset, then the record) against its floor, the
# rewrite of every row, UPDATE ratings SET rating = rating, on the same
# table of PLAYERS ratings, in pairs, one right after the other: each pair's
# ratio of backend CPU time.  Each statement runs in a transaction that is
# rolled back, then VACUUM, so every run starts from the same table.  In a
# throwaway cluster of the server PG_CONFIG names, at PostgreSQL's default
# settings.
#
# Environment: PG_CONFIG (pg_config), PLAYERS (1000000), PAIRS (5).
set -euo pipefail
cd "$(dirname "$0")/.."
export PG_CONFIG=${PG_CONFIG:-pg_config}
PLAYERS=${PLAYERS:-1000000}
PAIRS=${PAIRS:-5}

make -s >/dev/null
make -s install >/dev/null
PLAYERS=$PLAYERS PAIRS=$PAIRS bash tools/with-cluster.sh bash -c '
set -euo pipefail
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE EXTENSION glicko2;
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings
SELECT i, glicko2_rating(1000 + (i::bigint * 7919) % 1000 + i / 1e7, 30 + (i::bigint * 31) % 300, 0.05 + (i % 7) / 1000.0)
FROM generate_series(1, $PLAYERS) i;
VACUUM ANALYZE ratings;
SQL
cpu="SELECT '"'"'cpu:'"'"' || split_part(pg_read_file('"'"'/proc/self/schedstat'"'"'), '"'"' '"'"', 1);"
floor="UPDATE ratings SET rating = rating;"
reset="CALL glicko2_season_reset('"'"'ratings'"'"', 1, 0.5, 100);"
{
  for _ in $(seq "$PAIRS"); do
    for statement in "$floor" "$reset"; do
      echo "BEGIN; $cpu $statement $cpu ROLLBACK; VACUUM ratings;"
    done
  done
} | psql -X -q -At -v ON_ERROR_STOP=1 | grep "^cpu:" | python3 -c "
import statistics, sys
ns = [int(line.split(\":\")[1]) for line in sys.stdin]
ms = [(b - a) / 1e6 for a, b in zip(ns[0::2], ns[1::2])]
ratios = []
for floor, reset in zip(ms[0::2], ms[1::2]):
    ratios.append(reset / floor)
    print(\"floor %6.0f ms   reset %6.0f ms   reset / floor %.2f\" % (floor, reset, reset / floor))
print(\"median reset / floor over %d pairs: %.2f (min %.2f, max %.2f)\"
      % (len(ratios), statistics.median(ratios), min(ratios), max(ratios)))
"
'
