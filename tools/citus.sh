#!/usr/bin/env bash
# citus.sh — glicko2 on a Citus cluster (not in CI, which cannot fetch Citus).
#   CITUS_SRC=<Citus source tree, or a git directory whose HEAD is taken>
#   PG_CONFIG=<pg_config of a PostgreSQL 16 or later build>
#   bash tools/citus.sh [test/citus/NAME.sql ...]
# Builds Citus against that server (unless it is installed there already:
# CITUS_REBUILD=1 forces it) and glicko2 with -Werror, starts a coordinator
# and two workers on loopback (ports CITUS_PORT, +1, +2; default 57636),
# installs glicko2 on the coordinator (Citus propagates it to the workers),
# runs each test/citus/*.sql with psql on the coordinator and compares its
# output with test/citus/expected/NAME.out, then each test/citus/*.sh (a
# script that passes by its exit status, its output shown when it fails; it
# sees PGHOST, PGUSER, CITUS_PORT, CITUS_DIR (this cluster's directory, for
# a node of its own) and the server's bindir on PATH), prints "ok NAME" or
# "FAILED NAME" per file and "citus: N/M" last, and stops and removes
# everything.  A file without expected output (bench/citus_close.sql) is run
# and its output shown.
# Set CITUS_KEEP=DIR to keep the data directories and logs in DIR;
# CITUS_FSYNC=on for durable commits (off by default: faster tests).
set -uo pipefail
cd "$(dirname "$0")/.."
: "${CITUS_SRC:?set CITUS_SRC to a Citus source tree or git directory}"
: "${PG_CONFIG:?set PG_CONFIG to the pg_config of a PostgreSQL 16+ server}"
export PG_CONFIG
bindir=$("$PG_CONFIG" --bindir)
port=${CITUS_PORT:-57636}
dir=${CITUS_KEEP:-$(mktemp -d /tmp/glicko2-citus.XXXXXX)}
mkdir -p "$dir"; chmod 755 "$dir"
rm -rf "$dir"/node* "$dir"/results
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
as_server() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# Citus: built once per server, from a copy of the source (or of HEAD).
if [ -n "${CITUS_REBUILD:-}" ] || [ ! -f "$("$PG_CONFIG" --pkglibdir)/citus.so" ]; then
  src=$dir/citus-src; rm -rf "$src"; mkdir -p "$src"
  if [ -d "$CITUS_SRC/objects" ] || [ -d "$CITUS_SRC/.git" ]; then
    git -C "$CITUS_SRC" archive HEAD | tar -x -C "$src"
  else
    cp -a "$CITUS_SRC/." "$src/"
  fi
  echo "== building Citus ($(git -C "$CITUS_SRC" rev-parse --short HEAD 2>/dev/null || cat "$CITUS_SRC/.commit" 2>/dev/null)) against $("$PG_CONFIG" --version)"
  ( cd "$src" && ./configure PG_CONFIG="$PG_CONFIG" --without-lz4 --without-zstd &&
    nice -n 10 make -s -j"${MAKE_JOBS:-2}" && make -s install ) >"$dir/citus-build.log" 2>&1 ||
    { tail -30 "$dir/citus-build.log"; echo "citus: build failed"; exit 1; }
fi
echo "== building glicko2"
make -s clean && make -s PG_CFLAGS=-Werror >"$dir/glicko2-build.log" 2>&1 && make -s install >>"$dir/glicko2-build.log" 2>&1 ||
  { cat "$dir/glicko2-build.log"; echo "citus: glicko2 build failed"; exit 1; }

nodes="0 1 2"
stop() {
  for n in $nodes; do
    [ -f "$dir/node$n/postmaster.pid" ] && as_server "$bindir/pg_ctl" -D "$dir/node$n" -m fast -w stop >/dev/null 2>&1
  done
  [ -z "${CITUS_KEEP:-}" ] && rm -rf "$dir"
}
trap stop EXIT
for n in $nodes; do
  as_server "$bindir/initdb" -D "$dir/node$n" -A trust -U postgres --no-sync >"$dir/initdb$n.log" 2>&1 ||
    { cat "$dir/initdb$n.log"; exit 1; }
  cat >>"$dir/node$n/postgresql.conf" <<EOF
port = $((port + n))
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
shared_preload_libraries = 'citus'
max_prepared_transactions = 100
wal_level = logical
fsync = ${CITUS_FSYNC:-off}
EOF
  as_server "$bindir/pg_ctl" -D "$dir/node$n" -l "$dir/node$n.log" -w start >/dev/null ||
    { tail -20 "$dir/node$n.log"; exit 1; }
done

export PGHOST=127.0.0.1 PGUSER=postgres PGDATABASE=postgres PATH="$bindir:$PATH"
q() { psql -X -q -v ON_ERROR_STOP=1 -p "$1" -c "$2"; }
for n in $nodes; do q $((port + n)) "CREATE EXTENSION citus" || exit 1; done
q "$port" "SELECT citus_set_coordinator_host('127.0.0.1', $port)" >/dev/null || exit 1
q "$port" "SELECT citus_add_node('127.0.0.1', $((port + 1))), citus_add_node('127.0.0.1', $((port + 2)))" >/dev/null || exit 1
q "$port" "CREATE EXTENSION glicko2" || exit 1
echo "== Citus $(psql -X -At -p "$port" -c "SELECT extversion FROM pg_extension WHERE extname = 'citus'") on $(psql -X -At -p "$port" -c "SHOW server_version"), coordinator + 2 workers"
psql -X -At -p "$port" -c "SELECT nodename || ':' || nodeport || ' ' || noderole FROM pg_dist_node ORDER BY nodeid"
for n in 1 2; do
  psql -X -At -p $((port + n)) -c "SELECT 'worker ' || $n || ': glicko2 ' || extversion FROM pg_extension WHERE extname = 'glicko2'"
done

mkdir -p "$dir/results"
tests=("$@"); [ ${#tests[@]} -gt 0 ] || tests=(test/citus/*.sql test/citus/*.sh)
ok=0; total=0
for t in "${tests[@]}"; do
  name=$(basename "$t"); name=${name%.*}; total=$((total + 1))
  if [[ $t == *.sh ]]; then
    if CITUS_PORT=$port CITUS_DIR=$dir bash "$t" >"$dir/results/$name.out" 2>&1; then
      echo "ok      $name"; ok=$((ok + 1))
    else
      echo "FAILED  $name"; tail -40 "$dir/results/$name.out"
    fi
    continue
  fi
  if [ ! -f "test/citus/expected/$name.out" ]; then
    # Not a test (e.g. bench/citus_close.sql): run it, print what it says.
    echo "== $t"
    if psql -X -q -p "$port" -v ON_ERROR_STOP=1 -f "$t"; then ok=$((ok + 1)); else echo "FAILED  $name"; fi
    continue
  fi
  # -a echoes the file, as pg_regress does; errors are part of the expected output.
  psql -X -a -q -p "$port" -v VERBOSITY=terse -f "$t" >"$dir/results/$name.out" 2>&1
  if diff -u "test/citus/expected/$name.out" "$dir/results/$name.out" >"$dir/results/$name.diff"; then
    echo "ok      $name"; ok=$((ok + 1))
  else
    echo "FAILED  $name"; head -80 "$dir/results/$name.diff"
  fi
done
# A worker that crashed shows in its log even when the query was retried.
for n in $nodes; do
  if grep -E "terminated by signal|server process .* was terminated" "$dir/node$n.log"; then
    echo "FAILED  node$n: a backend crashed (log above)"; ok=$((ok - 1))
  fi
done
echo "citus: $ok/$total"
[ "$ok" -eq "$total" ]
