#!/usr/bin/env bash
# bench/fit_matches_rev.sh REV — glicko2_fit_matches with a teammates store
# (the default) against the same function as commit REV defined it, on
# friend leagues of eval/lib/friends_sim.js (Hunt-like, friends together in
# 70 % of their rounds, with edges and leavers; small: 120 players x 8
# periods x 6 rounds, large: 600 x 10 x 12), the party column and the
# advantages +40 / +25 given.  REPS (3) runs, interleaved, each with its wall
# time and log loss; SKIP_REV_LARGE=1 skips REV's on the large league.
# PG_CONFIG names a private server copy (tools/pg-copy.sh); the cluster is a
# throwaway one (tools/with-cluster.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${FIT_BENCH_DIR:-}" ]; then
  rev=${1:?usage: bench/fit_matches_rev.sh REV}
  : "${PG_CONFIG:?set PG_CONFIG to the pg_config of a private server copy}"
  make -s >/dev/null && make -s install >/dev/null
  FIT_BENCH_DIR=$(mktemp -d)
  export FIT_BENCH_DIR
  trap 'rm -rf "$FIT_BENCH_DIR"' EXIT
  chmod 755 "$FIT_BENCH_DIR"
  # REV's glicko2_fit_matches, as rev_fit_matches in public
  git show "$rev:sql/evaluate.sql" | python3 -c '
import sys
s = sys.stdin.read()
a = s.index("CREATE FUNCTION glicko2_fit_matches(")
b = s.index("$fn$;", a) + 5
print(s[a:b].replace("CREATE FUNCTION glicko2_fit_matches(", "CREATE FUNCTION rev_fit_matches(").replace("@extschema@", "public"))' \
    >"$FIT_BENCH_DIR/rev.sql"
  for size in "small 120 8 6" "large 600 10 12"; do
    set -- $size
    node --input-type=module -e "
import { simulateFriends } from './eval/lib/friends_sim.js';
const l = simulateFriends('hunt', { players: $2, periods: $3, rounds: $4, seed: 33, together: 0.7, edges: true, leavers: true });
const out = [];
for (const m of l.worlds.sum)
  m.teams.forEach((t, ti) => t.players.forEach((id, j) => out.push([m.id, m.period, id, ti + 1, t.place, t.weight[j], t.party[j] ?? ''].join(','))));
console.log(out.join('\n'));" >"$FIT_BENCH_DIR/$1.csv"
  done
  chmod 644 "$FIT_BENCH_DIR"/*
  exec bash tools/with-cluster.sh bash "$0" "$rev"
fi
# (inside the throwaway cluster)
psql -q -v ON_ERROR_STOP=1 <<SQL
SET client_min_messages = warning;
CREATE EXTENSION glicko2;
\i $FIT_BENCH_DIR/rev.sql
CREATE TABLE small (match_id int, period int, player_id int, team int, place int, weight float8, party int);
\copy small FROM '$FIT_BENCH_DIR/small.csv' CSV
CREATE TABLE large (LIKE small);
\copy large FROM '$FIT_BENCH_DIR/large.csv' CSV
SQL
for rep in $(seq 1 "${REPS:-3}"); do
  for t in small large; do
    for f in glicko2_fit_matches rev_fit_matches; do
      [ "$t" = large ] && [ "$f" = rev_fit_matches ] && [ "${SKIP_REV_LARGE:-0}" = 1 ] && continue
      s=$(date +%s.%N)
      r=$(psql -Atc "SELECT log_loss FROM $f('$t', '{sum}', '{0.5}', '{350}', party_advantages => '{40}',
                                             size_advantages => '{25}', party_column => 'party')")
      e=$(date +%s.%N)
      printf '%s %s %s %.3f s, log loss %s\n' "$rep" "$t" "$f" "$(echo "$e - $s" | bc)" "$r"
    done
  done
done
