# bench/pgbench_common.sh — sourced by the pgbench benchmarks (live.sh,
# live_matches.sh): a server of PG_CONFIG's at PostgreSQL's default settings
# in BENCH_DIR (only where it listens is chosen; stopped and removed on
# exit) with the extension and a ratings table of PLAYERS rated players, and
# one measured pgbench run.  Needs PG_CONFIG, PORT, BENCH_DIR, PLAYERS and
# SECONDS_PER_RUN set.
bindir=$("$PG_CONFIG" --bindir)
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -eq 0 ] && chown postgres "$BENCH_DIR"
chmod 755 "$BENCH_DIR"
as_pg "$bindir/initdb" -D "$BENCH_DIR/data" -A trust -U postgres >/dev/null
as_pg "$bindir/pg_ctl" -D "$BENCH_DIR/data" -l "$BENCH_DIR/server.log" -w \
  -o "-p $PORT -k $BENCH_DIR -c listen_addresses=" start >/dev/null
stop() { as_pg "$bindir/pg_ctl" -D "$BENCH_DIR/data" -m fast stop >/dev/null || true; rm -rf "$BENCH_DIR"; }
trap stop EXIT
export PGHOST=$BENCH_DIR PGPORT=$PORT PGUSER=postgres PGDATABASE=postgres
"$bindir/psql" -X -q -v ON_ERROR_STOP=1 -v players="$PLAYERS" <<'SQL'
CREATE EXTENSION glicko2;
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
INSERT INTO ratings
SELECT i, glicko2_rating(1000 + 1000 * random(), 50 + 200 * random(), 0.06), now() - random() * interval '30 days'
FROM generate_series(1, :players) i;
SQL

# Backend CPU per transaction, robust to other load on the machine: the CPU
# time of exited backends accumulates in the postmaster's cutime + cstime.
postmaster=$(head -1 "$BENCH_DIR/data/postmaster.pid")
ticks=$(getconf CLK_TCK)
children_cpu() { awk '{print $16 + $17}' "/proc/$postmaster/stat"; }
run() { # server-options pgbench-options script clients -> "tps cpu-microseconds-per-transaction"
  local before out after
  before=$(children_cpu)
  out=$(PGOPTIONS=$1 "$bindir/pgbench" -n -c "$4" -j "$(( $4 < 2 ? $4 : 2 ))" -T "$SECONDS_PER_RUN" $2 \
          -f "$BENCH_DIR/$3.sql" 2>&1)
  sleep 1                      # the backends exit and are reaped
  after=$(children_cpu)
  awk -v b="$before" -v a="$after" -v hz="$ticks" '
    /^number of transactions actually processed/ {split($NF, n, "/"); done = n[1]}
    /^tps = / {tps = $3}
    END {print tps, 1e6 * (a - b) / hz / done}' <<<"$out"
}
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
