#!/usr/bin/env bash
# private-pg.sh — a private PostgreSQL 15 with this worktree's glicko2, for
# long runs (fuzzing, valgrind) that must not hold the shared install lock
# nor see other installs of glicko2 mid-run.  Source it, then:
#   private_pg_setup DIR        copy the server's bin/lib/share under DIR (a
#                               relocated install: PostgreSQL finds share/ and
#                               lib/ relative to its binary), install the
#                               glicko2 built here into that copy, initdb
#   private_pg_start DIR [WRAPPER...]   start it (WRAPPER: e.g. valgrind ...)
#                               on a Unix socket in DIR; exports PGHOST, PGPORT
#   private_pg_stop DIR         stop it (fast shutdown), waiting for the exit
# Everything runs as the postgres user; nothing outside DIR is touched.

PRIVATE_PG_SRC_BIN=$(pg_config --bindir)
PRIVATE_PG_PORT=${PRIVATE_PG_PORT:-55432}

private_pg_setup() {
  local dir=$1 lib share stage
  lib=$(dirname "$PRIVATE_PG_SRC_BIN")                 # /usr/lib/postgresql/15
  share=$(pg_config --sharedir)                        # /usr/share/postgresql/15
  rm -rf "$dir"
  mkdir -p "$dir/tree$(dirname "$lib")" "$dir/tree$(dirname "$share")" "$dir/sock"
  cp -a "$lib" "$dir/tree$lib"
  cp -a "$share" "$dir/tree$share"
  rm -f "$dir/tree$share/extension/glicko2"* "$dir/tree$lib/lib/glicko2.so"

  stage=$(mktemp -d)
  make -s -C "$(dirname "${BASH_SOURCE[0]}")/.." install DESTDIR="$stage" >/dev/null
  cp -a "$stage$share/extension/." "$dir/tree$share/extension/"
  cp -a "$stage$(pg_config --pkglibdir)/glicko2.so" "$dir/tree$lib/lib/"
  rm -rf "$stage"

  PRIVATE_PG_BIN="$dir/tree$lib/bin"
  chown -R postgres: "$dir"
  su postgres -c "'$PRIVATE_PG_BIN/initdb' -D '$dir/data' -A trust -U postgres --no-sync" >"$dir/initdb.log" 2>&1
  cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = ''
unix_socket_directories = '$dir/sock'
port = $PRIVATE_PG_PORT
fsync = off
logging_collector = off
log_min_messages = warning
EOF
}

private_pg_start() {
  local dir=$1; shift
  local bin lib
  lib=$(dirname "$PRIVATE_PG_SRC_BIN")
  bin="$dir/tree$lib/bin"
  export PGHOST="$dir/sock" PGPORT=$PRIVATE_PG_PORT PGUSER=postgres PGDATABASE=postgres
  # shellcheck disable=SC2145
  su postgres -c "cd '$dir' && exec $* '$bin/postgres' -D '$dir/data'" >>"$dir/server.log" 2>&1 &
  for _ in $(seq 1 600); do
    pg_isready -q -h "$PGHOST" -p "$PGPORT" && return 0
    sleep 1
  done
  echo "private server in $dir did not start" >&2
  return 1
}

private_pg_stop() {
  local dir=$1 pid
  [ -f "$dir/data/postmaster.pid" ] || return 0
  pid=$(head -1 "$dir/data/postmaster.pid")
  kill -INT "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 1
  done
  echo "private server $pid did not stop" >&2
  return 1
}
