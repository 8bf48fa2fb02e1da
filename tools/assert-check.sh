#!/usr/bin/env bash
# assert-check.sh — show that the assertions of src/period_agg.c run, not
# only compile: build with -DUSE_ASSERT_CHECKING -O0 -g, start a private
# server (tools/private-pg.sh), attach gdb to a backend with a dprintf on
# AssertValidState, rate the paper's example, and count the hits (7 or more:
# two per game, one in the final function).  Needs gdb; takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${ASSERT_CHECK_DIR:-/tmp/glicko2-assertcheck}
bash tools/ensure-deps.sh gdb
# shellcheck source=private-pg.sh
source tools/private-pg.sh
make -s clean
make -s PG_CFLAGS="-Werror -DUSE_ASSERT_CHECKING -O0 -g" >/dev/null
export PRIVATE_PG_PORT=55434
private_pg_setup "$dir"
trap 'private_pg_stop "$dir"; rm -rf "$dir"' EXIT
private_pg_start "$dir"
psql -qX -c "CREATE EXTENSION glicko2"

psql -qXAt -c "SELECT pg_sleep(3)" -c "SELECT glicko2_period(glicko2_rating(1500, 200, 0.06), o, s)
  FROM (VALUES (glicko2_rating(1400, 30), 1::float8), (glicko2_rating(1550, 100), 0),
               (glicko2_rating(1700, 300), 0)) g(o, s)" >"$dir/query.out" 2>&1 &
query=$!
sleep 1
backend=$(psql -qXAt -c "SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%'")
hits=$(timeout 60 gdb -p "$backend" -batch -ex 'set pagination off' -ex 'set breakpoint pending on' \
         -ex 'dprintf AssertValidState,"AssertValidState hit\n"' -ex 'continue' 2>&1 |
       grep -c 'AssertValidState hit' || true)
wait "$query"
cat "$dir/query.out"
echo "AssertValidState ran $hits times"
[ "$hits" -ge 7 ]
