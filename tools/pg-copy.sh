#!/usr/bin/env bash
# pg-copy.sh DIR — a private copy of the installed PostgreSQL (server, share,
# headers, PGXS) under DIR, and print the path of its pg_config.  PostgreSQL
# finds share/ and lib/ relative to its binaries, so the copy is a server of
# its own: `make install PG_CONFIG=$(bash tools/pg-copy.sh DIR)` installs
# glicko2 there and nowhere else.  For several checkouts on one machine
# (their tests and benchmarks must not see each other's installs):
#   PG_CONFIG=$(bash tools/pg-copy.sh /tmp/pg-mine) bash test.sh
set -euo pipefail
dir=$1
src_config=${SRC_PG_CONFIG:-pg_config}
lib=$(dirname "$("$src_config" --bindir)")      # /usr/lib/postgresql/15
share=$("$src_config" --sharedir)                 # /usr/share/postgresql/15
include=$("$src_config" --includedir)             # /usr/include/postgresql
if [ ! -x "$dir$lib/bin/pg_config" ]; then
  mkdir -p "$dir$(dirname "$lib")" "$dir$(dirname "$share")" "$dir$(dirname "$include")"
  cp -a "$lib" "$dir$lib"
  cp -a "$share" "$dir$share"
  cp -a "$include" "$dir$include"
fi
echo "$dir$lib/bin/pg_config"
