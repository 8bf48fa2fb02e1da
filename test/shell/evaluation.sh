#!/usr/bin/env bash
# evaluation.sh — the evaluation of the team methods (eval/, docs/evaluation.md)
# at a tiny size, without the npm peers (no network): simulated 'sum' and
# 'mean' leagues rated by the extension and by the independent reference
# implementation of the team model (eval/lib/team_model.js).  Fails when
#   - the extension's 'sum' and 'mean' ratings differ from the reference's by
#     more than 1e-9 (and in 1v1 its 'composite', the paper's one-on-one
#     update), glicko2_team_win_probability from the harness's formula, or
#     glicko2_fit_matches' log loss from the harness's (eval/README.md, Checks);
#   - 'sum' is not far better calibrated than 'composite' on a small sum world:
#     Hunt-like and 4v4 leagues, % of hidden strengths inside rating +- 2 RD;
#   - in a small Hunt-like league where friends always queue together
#     (eval/friends.js), with and without edges and leavers: the closes with
#     and without a teammates store differ from the reference implementations
#     (eval/lib/teammates.js, team_model.js) by more than 1e-9, glicko2_fit_matches
#     (with and without teammates) from the harness's log loss, its choice of
#     max_rd on the burn-in (--fit-prior: log loss of every candidate, and the
#     best) from the reference's, the closes at the chosen max_rd from the
#     references, or the store's intervals (at the default max_rd) do not
#     cover the friends (>= 90 %) far better than today's.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v node >/dev/null || { echo "node is missing (Debian package nodejs)"; exit 1; }
db=glicko2_evaluation
out=$(mktemp -d)
dropdb --if-exists "$db" >/dev/null 2>&1
createdb "$db"
trap 'dropdb --if-exists "$db" >/dev/null; rm -rf "$out"' EXIT
if ! PGDATABASE=$db node eval/run.js --size ci --no-peers --check --out "$out" >"$out/log" 2>&1; then
  cat "$out/log"; exit 1
fi
cat "$out/results.md"
node - "$out/results.json" <<'JS'
const { readFileSync } = require('node:fs');
const { results, checks } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let bad = 0;
const fail = (s) => { console.log(`FAILED: ${s}`); bad++; };
for (const kind of ['extension = reference', 'glicko2_team_win_probability', 'glicko2_fit_matches'])
  if (!checks.some((c) => c.check.startsWith(kind))) fail(`no check "${kind}" ran`);
for (const c of checks) if (!c.ok) fail(`${c.check}: worst difference ${c.worst}`);
const get = (format, method) => results.find((r) => r.format === format && r.world === 'sum' && r.method === method);
for (const format of ['hunt', '4v4']) {
  const s = get(format, 'sum'), c = get(format, 'composite');
  console.log(`${format} sum world: 'sum' ${s.coverage.toFixed(1)} % inside, slope ${s.slope.toFixed(2)}; 'composite' ${c.coverage.toFixed(1)} %, slope ${c.slope.toFixed(2)}`);
  if (!(s.coverage >= 88)) fail(`${format}: 'sum' has only ${s.coverage} % inside +- 2 RD`);
  if (!(c.coverage <= s.coverage - 20)) fail(`${format}: 'composite' (${c.coverage} %) is not far below 'sum' (${s.coverage} %)`);
  if (!(c.slope >= 1.3)) fail(`${format}: 'composite' slope ${c.slope} does not show its compression`);
}
process.exit(bad ? 1 : 0);
JS
if ! PGDATABASE=$db node eval/run.js --friends --size ci --no-peers --check --fit-prior --together always --formats hunt \
     --worlds sum --out "$out" >"$out/log" 2>&1; then
  cat "$out/log"; exit 1
fi
cat "$out/friends.md"
node - "$out/friends.json" <<'JS'
const { readFileSync } = require('node:fs');
const { results, checks } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let bad = 0;
const fail = (s) => { console.log(`FAILED: ${s}`); bad++; };
if (checks.length !== 16) fail(`${checks.length} checks ran, not 16`);
if (checks.filter((c) => c.check.startsWith("glicko2_fit_matches' max_rd")).length !== 4) fail('the max_rd fit was not checked 4 times');
for (const c of checks) if (!c.ok) fail(`${c.check}: worst difference ${c.worst}`);
for (const edges of ['off', 'on']) {
  const get = (rater) => results.find((r) => r.edges === edges && r.rater === rater && r.prior === 'default');
  const m = get('teammates'), t = get('today');
  console.log(`friends always together, edges ${edges}: store ${m.friends.toFixed(1)} % of friends inside, today ${t.friends.toFixed(1)} %`);
  if (!(m.friends >= 90)) fail(`edges ${edges}: the store covers ${m.friends} % of friends`);
  if (!(t.friends <= m.friends - 15)) fail(`edges ${edges}: today's ${t.friends} % is not far below the store's ${m.friends} %`);
}
process.exit(bad ? 1 : 0);
JS
