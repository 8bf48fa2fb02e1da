#!/usr/bin/env bash
# valgrind.sh — the regression and isolation suites (make installcheck)
# against a private server running under valgrind memcheck, every backend
# traced.  Then it reads the valgrind logs: errors whose stack passes
# through glicko2 are failures; other errors (in the server itself, which
# is not a USE_VALGRIND build) are counted and listed by kind, not judged.
# Prints "valgrind: N errors in glicko2 code, N elsewhere, N processes" and
# exits 0 when glicko2 has none and make installcheck passed.
# VALGRIND_REGRESS="a b" runs only those regression tests; VALGRIND_RUN="cmd"
# runs cmd instead of make installcheck (e.g. the bad-input generator:
# VALGRIND_RUN="/usr/bin/python3 fuzz/calls.py --calls 400 --timeout 120000").
# Uses tools/private-pg.sh: no lock, nothing left running.  Slow (minutes).
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${VALGRIND_DIR:-/tmp/glicko2-valgrind}

bash tools/ensure-deps.sh valgrind || exit 1
# shellcheck source=private-pg.sh
source tools/private-pg.sh
make -s clean
make -s PG_CFLAGS="-Werror -DUSE_ASSERT_CHECKING -O0 -g" >/dev/null || exit 1
PRIVATE_PG_PORT=55433 private_pg_setup "$dir" || exit 1
# The test-only helper fresh_fmgr needs (test/helper), into the private copy.
make -s -C test/helper clean && make -s -C test/helper PG_CFLAGS="-Werror -O0 -g" >/dev/null || exit 1
cp test/helper/glicko2_test_helper.so "$dir/tree$(dirname "$PRIVATE_PG_SRC_BIN")/lib/" && chown postgres: "$dir"/tree*/ -R
mkdir -p "$dir/vg" && chown postgres: "$dir/vg"
trap 'private_pg_stop "$dir"' EXIT
PRIVATE_PG_PORT=55433 private_pg_start "$dir" \
  valgrind --tool=memcheck --trace-children=yes --track-origins=yes \
  --num-callers=40 --error-limit=no --read-var-info=no \
  --suppressions="$PWD/tools/valgrind.supp" --log-file="$dir/vg/%p.log" || exit 1

# Valgrind slows a backend some 20-50 times: give the tests time.
# VALGRIND_REGRESS="aggregate_fresh_fmgr aggregate_deferred": only those regression tests.
if [ -n "${VALGRIND_RUN:-}" ]; then
  PGOPTIONS="-c statement_timeout=0" bash -c "$VALGRIND_RUN" >"$dir/installcheck.log" 2>&1
else
  PGOPTIONS="-c statement_timeout=0" make -s installcheck \
    ${VALGRIND_REGRESS:+REGRESS="$VALGRIND_REGRESS" ISOLATION=} >"$dir/installcheck.log" 2>&1
fi
check=$?
[ -n "${VALGRIND_RUN:-}" ] && tail -8 "$dir/installcheck.log"
private_pg_stop "$dir"
trap - EXIT

grep -hE '^ok|^not ok|^test |\.\.\. ' "$dir/installcheck.log" | tail -40
# One valgrind error = one block from "==pid== <kind>" to the next blank line.
awk -v dir="$dir" '
  /^==[0-9]+== [A-Z][a-z]/ && !inblock && $0 !~ /HEAP SUMMARY|LEAK SUMMARY|ERROR SUMMARY|Memcheck|Copyright|Using Valgrind|Command:|Parent PID|in use at exit|total heap usage|For lists|For counts|All heap blocks|definitely lost|indirectly lost|possibly lost|still reachable|suppressed:|Rerun with|To see them/ {
    inblock = 1; kind = $0; sub(/^==[0-9]+== /, "", kind); ours = 0; next }
  inblock && /glicko2\.so|glicko2_test_helper|glicko_math\.c|rating\.c|period_agg\.c|idle\.c|predict\.c/ { ours = 1 }
  inblock && /^==[0-9]+== *$/ { inblock = 0; if (ours) { o++; print "GLICKO2: " kind } else { e++; kinds[kind]++ } }
  END { for (k in kinds) print "elsewhere: " kinds[k] " x " k; print "TOTAL", o + 0, e + 0 }
' "$dir"/vg/*.log >"$dir/summary"
grep -v '^TOTAL' "$dir/summary" | sort | uniq -c | sort -rn | head -30
read -r _ ours others < <(grep '^TOTAL' "$dir/summary")
echo "valgrind: $ours errors in glicko2 code, $others elsewhere, $(ls "$dir"/vg | wc -l) processes; installcheck exit $check"
[ "$ours" -eq 0 ] && [ "$check" -eq 0 ]
