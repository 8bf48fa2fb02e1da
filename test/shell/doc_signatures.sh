#!/usr/bin/env bash
# doc_signatures.sh — every routine signature README.md and docs/ quote is
# the catalog's (tools/check-doc-signatures.py: arguments, types, defaults and
# results), and the check refuses planted wrong ones: glicko2_close_period
# without advantage and home_column (as docs/close.md once quoted it), a
# default, a type and a result changed.
set -uo pipefail
cd "$(dirname "$0")/../.."
db=glicko2_doc_signatures
tmp=$(mktemp -d)
trap 'dropdb --if-exists "$db" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
dropdb --if-exists "$db" >/dev/null 2>&1
createdb "$db" && psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION glicko2" || exit 1
export PGDATABASE=$db
status=0
python3 tools/check-doc-signatures.py || status=1

cat >"$tmp/planted.md" <<'MD'
```sql
PROCEDURE glicko2_close_period(
  ratings regclass, games regclass, period anyelement,
  tau float8 DEFAULT 0.5, max_rd float8 DEFAULT 350, history regclass DEFAULT NULL,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', game_player_column name DEFAULT 'player_id',
  opponent_column name DEFAULT 'opponent_id', score_column name DEFAULT 'score',
  unguarded boolean DEFAULT false)
```
`glicko2_idle(r glicko2_rating, periods float8 DEFAULT 2, max_rd float8 DEFAULT 350) → glicko2_rating`
`glicko2_idle(r glicko2_rating, periods int DEFAULT 1, max_rd float8 DEFAULT 350) → glicko2_rating`
`glicko2_idle(r glicko2_rating, periods float8 DEFAULT 1, max_rd float8 DEFAULT 350) → glicko1_rating`
`glicko2_idle(r glicko2_rating, periods float8 DEFAULT 1, max_rd float8 DEFAULT 350) → glicko2_rating`
MD
python3 tools/check-doc-signatures.py "$tmp/planted.md" >"$tmp/out" 2>&1
cat "$tmp/out"
for line in 2 10 11 12; do
  grep -q "^$tmp/planted.md:$line: " "$tmp/out" || { echo "FAIL: the check passed planted.md line $line"; status=1; }
done
grep -q "^5 signatures quoted in 1 files, 4 not the catalog's$" "$tmp/out" ||
  { echo "FAIL: the check did not read 5 signatures and refuse 4"; status=1; }
exit $status
