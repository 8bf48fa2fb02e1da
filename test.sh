#!/usr/bin/env bash
# test.sh — every glicko2 test, from a fresh Debian machine:
#   installs PostgreSQL 15 and its server-dev package if missing, builds with
#   -Werror and assertions, installs, then runs in a throwaway cluster
#   (pg_virtualenv) the unit tests of the mathematics, the pg_regress and
#   isolation suites (make installcheck) and the shell tests in test/shell/.
# Ends with one line "N passed, N failed" counting test files.
set -uo pipefail
cd "$(dirname "$0")"

# PG_CONFIG names another server (a build of another major, a private copy):
# then everything runs against it in a throwaway cluster of its own binaries
# (tools/with-cluster.sh); by default Debian's PostgreSQL 15 and pg_virtualenv.
# r-cran-bradleyterry2 and python3-rdata: the real results that
# test/shell/real_data_load.sh loads (examples/).
if [ -z "${PG_CONFIG:-}" ]; then
  bash tools/ensure-deps.sh r-cran-bradleyterry2 python3-rdata || exit 1
fi

log=$(mktemp -d)
passed=0
failed=0
count() { # name status
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok      $1"
  else failed=$((failed + 1)); echo "FAILED  $1"; fi
}

echo "== build"
make -s clean
make -s -C test/helper clean
# test/helper: a test-only module (test/sql/aggregate_fresh_fmgr.sql), installed into
# the server under test but not part of the extension.
# GLICKO2_INSTALLED=1: test the extension as already installed (a Debian
# package, debian/tests): build and install only the helper.
if [ -n "${GLICKO2_INSTALLED:-}" ]; then
  if ! make -s -C test/helper PG_CFLAGS=-Werror >"$log/build" 2>&1 || ! make -s -C test/helper install >>"$log/build" 2>&1; then
    cat "$log/build"; echo "0 passed, 1 failed"; exit 1
  fi
  echo "testing the installed extension: $(${PG_CONFIG:-pg_config} --pkglibdir)/glicko2.so"
else
  if ! make -s metacheck >"$log/build" 2>&1 || ! make -s PG_CFLAGS="-Werror -DUSE_ASSERT_CHECKING" >>"$log/build" 2>&1 || ! make -s install >>"$log/build" 2>&1 ||
     ! make -s -C test/helper PG_CFLAGS=-Werror >>"$log/build" 2>&1 || ! make -s -C test/helper install >>"$log/build" 2>&1; then
    cat "$log/build"; echo "0 passed, 1 failed"; exit 1
  fi

  # -DUSE_ASSERT_CHECKING must reach the compiler: Assert() then calls
  # ExceptionalCondition, so the aggregate's AssertValidState checks are in.
  # (not grep -q: nm killed by SIGPIPE would fail the pipeline under pipefail)
  nm src/period_agg.o | grep ExceptionalCondition >/dev/null; status=$?
  count "assertions compiled in (src/period_agg.o)" $status

  # The build's check that src/core is PostgreSQL-free (Makefile, core-check)
  # passes src/core and refuses a file including a PostgreSQL header.
  printf '#include "fmgr.h"\n' >"$log/core_bad.c"
  make -s core-check >"$log/core" 2>&1 && ! make -s core-check CORE_FILES="$log/core_bad.c" >>"$log/core" 2>&1; status=$?
  [ $status -eq 0 ] || cat "$log/core"
  count "src/core includes no PostgreSQL header (make core-check)" $status

  # The module exports only prefixed names, and nothing file-local
  # (tools/check-symbols.sh; the objects of the .c files the Makefile builds).
  objects=$(for c in src/*.c src/core/*.c; do echo "${c%.c}.o"; done)
  bash tools/check-symbols.sh glicko2.so $objects >"$log/symbols" 2>&1; status=$?
  # and it refuses a module exporting an unprefixed name
  printf 'int check_finite(void) { return 1; }\n' >"$log/bad_symbol.c"
  if [ $status -eq 0 ] && { ! cc -shared -fPIC -o "$log/bad_symbol.so" "$log/bad_symbol.c" ||
       bash tools/check-symbols.sh "$log/bad_symbol.so" >>"$log/symbols" 2>&1; }; then status=1; fi
  cat "$log/symbols"; count "exported symbols prefixed, file-local ones static (nm)" $status

  # The C layout check (make indent-check, tools/indent.sh) refuses a badly
  # laid out file, and passes it once make indent has laid it out.
  if command -v pg_bsd_indent >/dev/null; then
    printf 'static int\nbad_layout(int a){\n  if (a) return 1;\n  return 0;}\n' >"$log/indent_bad.c"
    ! make -s indent-check INDENT_FILES="$log/indent_bad.c" >"$log/indent" 2>&1 &&
      make -s indent INDENT_FILES="$log/indent_bad.c" >>"$log/indent" 2>&1 &&
      make -s indent-check INDENT_FILES="$log/indent_bad.c" >>"$log/indent" 2>&1; status=$?
    [ $status -eq 0 ] || cat "$log/indent"
    count "the C layout check refuses a badly laid out file (make indent-check)" $status
    # The tree itself, laid out by make indent with the machine's own
    # pg-bsd-indent (Debian 12's); other suites' versions may lay out
    # differently, so the chroot runs (PG_CONFIG set) check only the above.
    if [ -z "${PG_CONFIG:-}" ]; then
      make -s indent-check >"$log/indent_tree" 2>&1; status=$?
      [ $status -eq 0 ] || cat "$log/indent_tree"
      count "the C is laid out as PostgreSQL's (make indent-check)" $status
    fi
  else
    echo "NOT RUN: the C layout check (pg_bsd_indent is not installed: apt-get install pg-bsd-indent)"
  fi
fi

# CHANGELOG.md keeps one section per version, the newest the control file's,
# lines of at most 80 characters (tools/check-changelog.sh), and the check
# refuses a changelog with a long line or a version told twice.
bash tools/check-changelog.sh >"$log/changelog" 2>&1; status=$?
{ head -n 4 CHANGELOG.md; printf '%s\n' "- $(printf 'x%.0s' $(seq 80))"; tail -n +5 CHANGELOG.md; } >"$log/long.md"
{ cat CHANGELOG.md; sed -n '/^## /{p;q}' CHANGELOG.md; } >"$log/twice.md"
for bad in long twice; do
  if [ $status -eq 0 ] && bash tools/check-changelog.sh "$log/$bad.md" >>"$log/changelog" 2>&1; then
    echo "tools/check-changelog.sh passed $bad.md"; status=1
  fi
done
cat "$log/changelog"; count "CHANGELOG.md: one section per version, lines of 80 characters at most" $status

# CONTRIBUTING.md names every test of test/ and no other
# (tools/check-contributing.sh), and the check refuses a test it does not name.
bash tools/check-contributing.sh >"$log/contributing" 2>&1; status=$?
mkdir -p "$log/planted_tests"
cp -r test/sql test/specs test/shell test/unit "$log/planted_tests/"
printf -- '-- planted\n' >"$log/planted_tests/sql/planted_unnamed.sql"
if [ $status -eq 0 ] && bash tools/check-contributing.sh CONTRIBUTING.md "$log/planted_tests" >>"$log/contributing" 2>&1; then
  echo "tools/check-contributing.sh passed a test CONTRIBUTING.md does not name"; status=1
fi
cat "$log/contributing"; count "CONTRIBUTING.md names every test of test/" $status

echo "== unit tests of the mathematics"
make -s unittest >"$log/unit" 2>&1; status=$?
cat "$log/unit"; count "test/unit/math_test" $status

echo "== regression, isolation and shell tests (pg_virtualenv)"
if [ -n "${PG_CONFIG:-}" ]; then
  bash tools/with-cluster.sh bash tools/test-in-cluster.sh "$log" >"$log/cluster" 2>&1
else
  pg_virtualenv bash tools/test-in-cluster.sh "$log" >"$log/cluster" 2>&1
fi
cat "$log/cluster"
passed=$((passed + $(grep -cE '^ok ' "$log/cluster")))
failed=$((failed + $(grep -cE '^FAILED ' "$log/cluster")))
if ! grep -q '^cluster tests done' "$log/cluster"; then
  echo "the cluster test run did not finish"; failed=$((failed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
