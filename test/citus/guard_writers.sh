#!/usr/bin/env bash
# guard_writers.sh — the guard on a distributed games table under load
# (run by tools/citus.sh): writers on the coordinator and on each worker
# insert, move and delete games of random periods, one statement or a
# short transaction at a time, while the coordinator closes period after
# period.  Every close's game count must equal the rows of that period at
# the end (a game accepted into a closed period would be one more row; a
# game written while the close ran and not read by it, one more row too;
# a closed game moved or deleted, one fewer): 0 unrated, 0 lost.
#   WRITERS (per node, default 2), STATEMENTS (per writer, default 300),
#   CLOSES (default 6), SEED (default 34).
set -uo pipefail
: "${CITUS_PORT:?run by tools/citus.sh}"
writers=${WRITERS:-2} statements=${STATEMENTS:-300} closes=${CLOSES:-6} seed=${SEED:-34}
export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-postgres} PGDATABASE=${PGDATABASE:-postgres}
work=$(mktemp -d /tmp/guard-writers.XXXXXX)
trap 'rm -rf "$work"' EXIT
q() { psql -X -q -At -v ON_ERROR_STOP=1 -p "$CITUS_PORT" "$@"; }

q <<'EOF' || exit 1
SET citus.shard_count = 32;
SET citus.enable_unsafe_triggers = on;
CREATE SCHEMA guard_writers;
CREATE TABLE guard_writers.ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE guard_writers.games (game_id bigint, player_id int, opponent_id int, score float8, period int);
SELECT create_distributed_table('guard_writers.ratings', 'player_id');
SELECT create_distributed_table('guard_writers.games', 'player_id', colocate_with => 'guard_writers.ratings');
INSERT INTO guard_writers.ratings SELECT g, NULL FROM generate_series(1, 200) g;
CALL glicko2_guard_games('guard_writers.games');
EOF

# Each writer's statements, drawn in advance (awk's generator, seeded per
# writer): periods 1 to CLOSES + 1, so a statement may hit a period closed
# meanwhile, the one being closed, or an open one.  A game is inserted with
# an id of the writer's own; later statements move or delete games it wrote
# (run again while the closes last, the ids repeat: each statement still
# moves or deletes whole games, which is all the counts need).
origins=("$CITUS_PORT" $((CITUS_PORT + 1)) $((CITUS_PORT + 2)))
pids=()
for o in 0 1 2; do
  for w in $(seq 1 "$writers"); do
    id=$((o * 100 + w))
    awk -v seed=$((seed * 1000 + id)) -v id="$id" -v n="$statements" -v periods=$((closes + 1)) '
      BEGIN {
        srand(seed); written = 0
        for (i = 1; i <= n; i++) {
          r = rand(); p = 1 + int(rand() * periods)
          a = 1 + int(rand() * 200); b = 1 + int(rand() * 199); if (b >= a) b++
          if (written > 0 && r < 0.15) {
            k = 1 + int(rand() * written)
            printf "UPDATE guard_writers.games SET period = %d WHERE player_id = %d AND game_id = %d;\n", p, player[k], id * 1000000 + k
          } else if (written > 0 && r < 0.25) {
            k = 1 + int(rand() * written)
            printf "DELETE FROM guard_writers.games WHERE player_id = %d AND game_id = %d;\n", player[k], id * 1000000 + k
          } else if (r < 0.35) {
            # a transaction of two games (both or neither)
            written++; player[written] = a
            c = 1 + int(rand() * 199); if (c >= b) c++; if (c == a) c = (a % 200) + 1
            written++; player[written] = b
            printf "BEGIN;\nINSERT INTO guard_writers.games VALUES (%d, %d, %d, 1, %d);\nINSERT INTO guard_writers.games VALUES (%d, %d, %d, 0.5, %d);\nCOMMIT;\n", id * 1000000 + written - 1, a, b, p, id * 1000000 + written, b, c, 1 + int(rand() * periods)
          } else {
            written++; player[written] = a
            printf "INSERT INTO guard_writers.games VALUES (%d, %d, %d, %s, %d);\n", id * 1000000 + written, a, b, (rand() < 0.5 ? "0" : "1"), p
          }
        }
      }' >"$work/w$id.sql"
    # (again until the closes are done: a close on the workers can take
    # longer than a writer's statements, and the guard must meet them)
    ( while :; do
        psql -X -p "${origins[$o]}" -v VERBOSITY=terse -f "$work/w$id.sql" >>"$work/w$id.out" 2>&1
        [ -f "$work/closed" ] && break
      done ) &
    pids+=($!)
  done
done

# The closes, one after another while the writers write.
for p in $(seq 1 "$closes"); do
  sleep 0.$((RANDOM % 5 + 3))
  q -c "CALL glicko2_close_period('guard_writers.ratings', 'guard_writers.games', $p)" >"$work/close$p.out" 2>&1 ||
    { echo "close of period $p failed:"; cat "$work/close$p.out"; }
done
touch "$work/closed"
for pid in "${pids[@]}"; do wait "$pid"; done

accepted=$(cat "$work"/w*.out | grep -cE '^(INSERT 0 1|UPDATE 1|DELETE 1|COMMIT)$')
refused=$(cat "$work"/w*.out | grep -c 'ERROR:  .* refused: guard_writers.ratings has closed period')
other=$(cat "$work"/w*.out | grep 'ERROR:' | grep -vc 'refused: guard_writers.ratings has closed period\|current transaction is aborted')
echo "writers: $((3 * writers)) (coordinator and each worker), statements: $(cat "$work"/w*.sql | wc -l) per pass, each writer again until the closes were done"
echo "writes accepted: $accepted, refused by the guard (55000): $refused, other errors: $other"
cat "$work"/w*.out | grep 'ERROR:' | grep -v 'refused: guard_writers.ratings has closed period\|current transaction is aborted' | sort | uniq -c | head -5

# Each close against the rows of its period now.
q -F ' ' <<'EOF' | tee "$work/check"
CREATE TEMP TABLE n AS SELECT period, count(*) AS rows FROM guard_writers.games GROUP BY period;
SELECT 'period ' || c.period || ': close counted ' || c.games || ' games, ' || coalesce(n.rows, 0) || ' rows now'
       || CASE WHEN c.games = coalesce(n.rows, 0) THEN '' ELSE '  MISMATCH' END
FROM glicko2_closes c LEFT JOIN n ON n.period = c.period::int
WHERE c.ratings = 'guard_writers.ratings'::regclass
ORDER BY c.close_number;
SELECT 'closes: ' || count(*) || ', unrated games: ' || coalesce(sum(coalesce(n.rows, 0) - c.games), 0)
FROM glicko2_closes c LEFT JOIN n ON n.period = c.period::int
WHERE c.ratings = 'guard_writers.ratings'::regclass;
SELECT 'games of open periods: ' || coalesce(sum(n.rows), 0) FROM n
WHERE n.period > (SELECT max(period::int) FROM glicko2_closes WHERE ratings = 'guard_writers.ratings'::regclass);
EOF
closed=$(grep -c '^period ' "$work/check")
q -c 'DROP SCHEMA guard_writers CASCADE' >/dev/null 2>&1
status=0
[ "$closed" -eq "$closes" ] || { echo "FAILED: $closed of $closes closes ran"; status=1; }
grep -q MISMATCH "$work/check" && { echo "FAILED: a close's count differs from its period's rows"; status=1; }
[ "$refused" -gt 0 ] || { echo "FAILED: no write was refused (the run did not test the guard)"; status=1; }
[ "$accepted" -gt 0 ] || { echo "FAILED: no write was accepted"; status=1; }
[ "$other" -eq 0 ] || { echo "FAILED: errors other than the guard's"; status=1; }
exit $status
