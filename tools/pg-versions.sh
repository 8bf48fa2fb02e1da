#!/usr/bin/env bash
# pg-versions.sh SRC|PG_CONFIG... — the extension on every PostgreSQL version you have
# the source of (not in CI, which cannot fetch them).  For each source tree
# (e.g. `git archive` of a "Stamp N.M" commit of postgresql-cfbot/postgresql,
# or a Debian .orig tarball unpacked):
#   - builds the server with --enable-cassert into $PG_VERSIONS_PREFIX/pgNN
#     (default /work/build/pgNN; skipped when that server is already there),
#   - runs the whole suite on it: PG_CONFIG=... bash test.sh (the extension
#     built with -Werror and assertions, unit, regress, isolation and shell
#     tests in a throwaway cluster of that server),
#   - with CITUS_SRC set, on 16 and later: tools/citus.sh against that server,
# and prints one Markdown table row per server.  An argument that is a
# pg_config (an installed server, e.g. Debian's) is tested without building.  A file .commit at the top of
# a source tree names the commit it came from (printed in the table).
# Builds run under `nice` with MAKE_JOBS (default 2) jobs, one at a time.
# Logs: $PG_VERSIONS_LOG (default /tmp/glicko2-pg-versions).
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { echo "usage: $0 SRC_TREE..." >&2; exit 2; }
prefix_root=${PG_VERSIONS_PREFIX:-/work/build}
logs=${PG_VERSIONS_LOG:-/tmp/glicko2-pg-versions}
jobs=${MAKE_JOBS:-2}
mkdir -p "$logs"

build_server() { # src prefix log
  local src=$1 prefix=$2 log=$3
  [ -x "$prefix/bin/pg_config" ] && return 0
  ( cd "$src" &&
    nice -n 10 ./configure --prefix="$prefix" --enable-cassert --enable-debug \
      --without-icu --with-libxml &&
    nice -n 10 make -s -j"$jobs" && make -s install ) >"$log" 2>&1
}

# Count "ok"/"FAILED" lines of test.sh's output for one kind of test file.
# A suite that reported fewer results than it has files is marked incomplete.
tally() { # log pattern [suite]
  local ok bad note=""
  ok=$(grep -cE "^ok +($2)\$" "$1")
  bad=$(grep -cE "^FAILED +($2)\$" "$1")
  [ -n "${3:-}" ] && grep -q "^FAILED *$3:" "$1" && note=" (incomplete)"
  if [ $((ok + bad)) -eq 0 ]; then echo "not run$note"; else echo "$ok/$((ok + bad))$note"; fi
}

regress_names=$(ls test/sql/*.sql | sed 's|.*/||; s|\.sql$||' | paste -sd'|')
isolation_names=$(ls test/specs/*.spec | sed 's|.*/||; s|\.spec$||' | paste -sd'|')

echo "| server | source commit | build (-Werror) | unit | regress | isolation | shell | Citus |"
echo "|---|---|---|---|---|---|---|---|"
status=0
for src in "$@"; do
  if [ -f "$src" ] && [ -x "$src" ]; then
    # A pg_config (an installed server, e.g. Debian's): nothing to build.
    pgc=$src
    version="$("$pgc" --version | sed 's/^PostgreSQL //; s/ .*//') (installed)"
    major=${version%%.*}; major=${major%%beta*}; major=${major%%rc*}
    commit="-"
  else
    src=$(cd "$src" && pwd)
    version=$(sed -n "s/^PACKAGE_VERSION='\(.*\)'/\1/p" "$src/configure")
    major=${version%%.*}; major=${major%%beta*}; major=${major%%rc*}
    commit=$(cat "$src/.commit" 2>/dev/null | cut -c1-12); commit=${commit:--}
    prefix=$prefix_root/pg$major
    if ! build_server "$src" "$prefix" "$logs/server-$major.log"; then
      echo "| $version | $commit | server build failed ($logs/server-$major.log) | | | | | |"
      status=1; continue
    fi
    pgc=$prefix/bin/pg_config
  fi
  log=$logs/test-$major.log
  PG_CONFIG=$pgc bash test.sh >"$log" 2>&1 || status=1
  if grep -q '^ok *assertions compiled in' "$log"; then build=ok
  else build="fails ($log)"; fi
  citus="-"
  if [ -n "${CITUS_SRC:-}" ] && [ "$major" -ge 16 ]; then
    if PG_CONFIG=$pgc bash tools/citus.sh >"$logs/citus-$major.log" 2>&1; then
      citus=$(grep -E '^citus: ' "$logs/citus-$major.log" | tail -1 | sed 's/^citus: //')
    else
      citus="fails ($logs/citus-$major.log)"; status=1
    fi
  fi
  echo "| $version | $commit | $build | $(tally "$log" 'test/unit/math_test') |" \
       "$(tally "$log" "$regress_names" installcheck-regress) |" \
       "$(tally "$log" "$isolation_names" installcheck-isolation) |" \
       "$(tally "$log" 'test/shell/[^ ]+') | $citus |"
done
exit $status
