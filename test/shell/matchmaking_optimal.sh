#!/usr/bin/env bash
# matchmaking_optimal.sh — glicko2_pair is optimal over the whole pool: on
# random pools of 2 to 200 players its pairs have the same count and the
# same sum of squared rating gaps as an exact maximum-weight matching
# computed independently by networkx's blossom algorithm (maxcardinality,
# weight C - gap^2), over every pair the documented rule allows: a gap within
# max_gap + widen * seconds waited of everyone rated from one to the other.
# (Brute force over every matching of small pools: test/unit/matchmaking_test.c.)
set -euo pipefail
db=glicko2_matchmaking_optimal
dropdb --if-exists "$db" >/dev/null 2>&1
createdb "$db"
trap 'dropdb --if-exists "$db" >/dev/null' EXIT
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION glicko2" \
  -c "CREATE TABLE queue (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL, queued_at timestamptz NOT NULL)"

python3 - "$db" <<'PY'
import random, subprocess, sys
import networkx as nx

db = sys.argv[1]
rng = random.Random(20261123)
sizes = [2, 3, 5, 8, 13, 21, 34, 55, 89, 120, 150, 200, 200, 200] + [rng.randint(2, 200) for _ in range(10)]
checked = 0
for pool, n in enumerate(sizes):
    # Ratings with three decimals (some pools on a coarse grid, with ties),
    # waits in milliseconds: exact in the timestamps PostgreSQL stores.
    coarse = pool % 4 == 3
    ratings = [float(rng.randint(0, 40) * 25 + 1000) if coarse else rng.randint(1000000, 2000000) / 1000 for _ in range(n)]
    waits = [rng.randint(0, 60000) / 1000 for _ in range(n)]
    max_gap = float(rng.choice([5, 20, 50, 100, 150]))
    widen = float(rng.choice([0, 0.5, 2, 5]))
    tol = [max_gap + widen * w for w in waits]

    values = ",".join(f"({i}, glicko2_rating({ratings[i]!r}, 60), now() - make_interval(secs => {waits[i]!r}))" for i in range(n))
    sql = (f"BEGIN; INSERT INTO queue VALUES {values};"
           f" SELECT count(*) || ' ' || coalesce(sum(gap * gap), 0) FROM glicko2_pair_typed('queue', NULL::int, max_gap => {max_gap!r}, widen => {widen!r});"
           " ROLLBACK;")
    # On stdin, not -c: psql before 15 shows only the last result of a -c string.
    out = subprocess.run(["psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", "-d", db], input=sql,
                         check=True, capture_output=True, text=True).stdout.split()
    pairs, cost = int(out[0]), float(out[1])

    # Independent: every allowed pair an edge, maximum cardinality first,
    # then the largest sum of C - gap^2, i.e. the least sum of gap^2.
    g = nx.Graph()
    g.add_nodes_from(range(n))
    big = 4.0 * 1000.0 ** 2 + 1.0
    for i in range(n):
        for j in range(i + 1, n):
            lo, hi = min(ratings[i], ratings[j]), max(ratings[i], ratings[j])
            if all(hi - lo <= tol[k] for k in range(n) if lo <= ratings[k] <= hi):
                g.add_edge(i, j, weight=big - (hi - lo) ** 2)
    m = nx.max_weight_matching(g, maxcardinality=True)
    want_pairs = len(m)
    want_cost = sum((ratings[a] - ratings[b]) ** 2 for a, b in m)
    ok = pairs == want_pairs and abs(cost - want_cost) <= 1e-9 * (1 + want_cost)
    print(f"pool {pool}: {n} players, max_gap {max_gap}, widen {widen}: "
          f"glicko2_pair {pairs} pairs, sum gap^2 {cost:.6f}; blossom {want_pairs} pairs, {want_cost:.6f}"
          + ("" if ok else "  MISMATCH"))
    if not ok:
        sys.exit(1)
    checked += 1
print(f"{checked} pools: glicko2_pair equals the exact matching")
PY
echo "ok"
