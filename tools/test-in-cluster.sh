#!/usr/bin/env bash
# test-in-cluster.sh — run inside a throwaway cluster by test.sh: the
# pg_regress suite and the isolation suite (make installcheck, each on its
# own so a failure in one still runs the other), then each test/shell/*.sh.
# Prints one "ok NAME" or "FAILED NAME" line per test file, and a FAILED line
# when pg_regress reported fewer results than there are test files (a suite
# that did not start, or output this script cannot read, is a failure).
set -uo pipefail
log=${1:-$(mktemp -d)}

# pg_regress's result lines, in either of its formats:
#   up to 15:  "test NAME ... ok", "     NAME ... FAILED", "NAME ... failed (ignored)"
#   16 on (TAP): "ok 1         - NAME   12 ms", "not ok 2     + NAME   30 ms"
results() {
  sed -nE \
    -e 's/^(test +| +)?([A-Za-z0-9_]+) +\.\.\. +(ok|FAILED|failed).*/\3 \2/p' \
    -e 's/^(not ok|ok) +[0-9]+ +[-+] +([A-Za-z0-9_]+) .*/\1 \2/p' "$1" |
    sed -E 's/^(FAILED|failed|not ok) /FAILED  /; s/^ok /ok      /'
}

suite() { # name expected-count make-arguments...
  local name=$1 want=$2; shift 2
  make -s installcheck "$@" >"$log/$name" 2>&1
  local status=$?
  results "$log/$name" >"$log/$name.results"
  cat "$log/$name.results"
  local got; got=$(wc -l <"$log/$name.results")
  if [ "$got" -ne "$want" ] || { [ "$status" -ne 0 ] && ! grep -q '^FAILED' "$log/$name.results"; }; then
    echo "FAILED  $name: pg_regress reported $got of $want results (make status $status)"
    tail -20 "$log/$name"
  fi
}

regress=$(ls test/sql/*.sql 2>/dev/null | wc -l)
isolation=$(ls test/specs/*.spec 2>/dev/null | wc -l)
rm -f regression.diffs output_iso/regression.diffs
suite installcheck-regress "$regress" ISOLATION=
[ "$isolation" -gt 0 ] && suite installcheck-isolation "$isolation" REGRESS=
[ -f regression.diffs ] && head -200 regression.diffs
[ -f output_iso/regression.diffs ] && head -200 output_iso/regression.diffs

for t in test/shell/*.sh; do
  [ -e "$t" ] || continue
  if bash "$t" >"$log/$(basename "$t").log" 2>&1; then
    echo "ok      $t"
  else
    echo "FAILED  $t"; tail -40 "$log/$(basename "$t").log"
  fi
done
echo "cluster tests done"
