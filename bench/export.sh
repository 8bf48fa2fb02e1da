#!/usr/bin/env bash
# bench/export.sh DB PERIOD DIR — the export path bench/run.sh measures beside
# the close: what a user with a script could do instead.  COPY the period's
# games and the ratings out, rate them in Node.js with the npm glicko2
# package (bench/node/rate.js), COPY the new ratings back and UPDATE ratings
# in one statement (rolled back, like the closes it is compared with).
# Prints the milliseconds it took end to end; Node's peak resident memory
# (kB) goes to DIR/node.kb.  Uses psql as set up by bench/run.sh (PSQL).
set -euo pipefail
db=$1 period=$2 dir=$3
t0=$(date +%s%N)
$PSQL -d "$db" -c "\\copy (SELECT player_id, (rating).rating, (rating).rd, (rating).volatility FROM ratings) TO '$dir/ratings.csv' CSV"
$PSQL -d "$db" -c "\\copy (SELECT player_id, opponent_id, score FROM games WHERE period = $period) TO '$dir/games.csv' CSV"
/usr/bin/time -f %M -o "$dir/node.kb" node --max-old-space-size=16384 "$(dirname "$0")/node/rate.js" \
  "$dir/ratings.csv" "$dir/games.csv" 0.5 >"$dir/new.csv"
$PSQL -d "$db" >/dev/null <<SQL
BEGIN;
CREATE TEMPORARY TABLE new_ratings (player_id int, rating float8, rd float8, volatility float8);
\\copy new_ratings FROM '$dir/new.csv' CSV
UPDATE ratings r SET rating = ROW(n.rating, n.rd, n.volatility)::glicko2_rating
FROM new_ratings n WHERE r.player_id = n.player_id;
ROLLBACK;
SQL
t1=$(date +%s%N)
rm -f "$dir/ratings.csv" "$dir/games.csv" "$dir/new.csv"
echo $(((t1 - t0) / 1000000))
