#!/usr/bin/env bash
# with-cluster.sh CMD [ARGS...] — run CMD against a throwaway cluster of the
# server that $PG_CONFIG names (any build: Debian's, a copy of it, one built
# from source), the way pg_virtualenv does for Debian's own servers.
# The cluster listens only on a Unix socket in a new temporary directory,
# runs as `postgres` when started by root (PostgreSQL refuses root), and is
# stopped and removed when CMD ends.  CMD sees PGHOST, PGPORT, PGUSER,
# PGDATABASE and the server's bindir first on PATH (psql, pg_dump, createdb).
# Exits with CMD's status.
set -uo pipefail
: "${PG_CONFIG:?set PG_CONFIG to the pg_config of the server to use}"
bindir=$("$PG_CONFIG" --bindir)
dir=$(mktemp -d /tmp/glicko2-cluster.XXXXXX)
chmod 755 "$dir"
as_server() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"

# The socket is in $dir, so the port number cannot collide with another
# cluster's (PostgreSQL also steps past shared memory keys already in use).
port=56432

as_server "$bindir/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 ||
  { cat "$dir/initdb.log"; rm -rf "$dir"; exit 1; }
# max_prepared_transactions as pg_regress's own temporary instances leave it
# (0); fsync off: nothing here needs to survive a crash of the machine.
if ! as_server "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
     "-p $port -k $dir -c listen_addresses= -c fsync=off" start >/dev/null; then
  cat "$dir/server.log"; rm -rf "$dir"; exit 1
fi
stop() {
  as_server "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT

export PGHOST=$dir PGPORT=$port PGUSER=postgres PGDATABASE=postgres PATH="$bindir:$PATH"
"$@"
