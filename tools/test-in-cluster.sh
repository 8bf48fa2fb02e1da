#!/usr/bin/env bash
# test-in-cluster.sh — run inside pg_virtualenv by test.sh: make installcheck
# (pg_regress and isolation suites), then each test/shell/*.sh.
# Prints one "ok NAME" or "FAILED NAME" line per test file.
set -uo pipefail
log=${1:-$(mktemp -d)}

make -s installcheck >"$log/installcheck" 2>&1
# pg_regress prints "test NAME ... ok" (or "NAME ... FAILED") per file.
sed -nE 's/^(test +|     +)?([A-Za-z0-9_]+) +\.\.\. (ok|FAILED|failed).*/\3 \2/p' "$log/installcheck" |
  sed -E 's/^(FAILED|failed) /FAILED /; s/^ok /ok      /; s/^FAILED /FAILED  /'
if grep -qE 'FAILED|failed' "$log/installcheck"; then
  [ -f regression.diffs ] && head -200 regression.diffs
  [ -f output_iso/regression.diffs ] && head -200 output_iso/regression.diffs
fi

for t in test/shell/*.sh; do
  [ -e "$t" ] || continue
  if bash "$t" >"$log/$(basename "$t").log" 2>&1; then
    echo "ok      $t"
  else
    echo "FAILED  $t"; tail -40 "$log/$(basename "$t").log"
  fi
done
echo "cluster tests done"
