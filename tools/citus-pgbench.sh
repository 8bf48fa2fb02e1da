# citus-pgbench.sh — sourced by test/citus/live_stress.sh and
# live_match_stress.sh: their writers on Citus and the checks of the run.
#   citus_pgbench DIR SCRIPT [PGBENCH_ARG...]
# runs 8 pgbench clients at once (4 on the coordinator, 2 on each worker;
# origin = the node, given to the scripts as :origin) on DIR/SCRIPT (19 in
# 20 transactions) and DIR/rollback.sql (1 in 20), each origin's report in
# DIR/pgbenchN.out (with CITUS_PGBENCH_LATENCY=1 its latency log in
# DIR/latN.*); prints each origin's counts; exits the script on a failed
# client or transaction, or a deadlock in any node's log during the run
# (CITUS_DIR's node logs); sets citus_committed to the transactions of SCRIPT
# committed, from pgbench's per-script report.
citus_pgbench() {
  local dir=$1 script=$2; shift 2
  local logs=() pids=() origin clients failed=0 entry latency=()
  # Each node's log from here on is this run's (other tests wrote before).
  if [ -n "${CITUS_DIR:-}" ]; then
    for entry in "$CITUS_DIR"/node[0-9].log; do logs+=("$entry:$(stat -c %s "$entry")"); done
  fi
  for origin in 0 1 2; do
    clients=$([ "$origin" -eq 0 ] && echo 4 || echo 2)
    [ -z "${CITUS_PGBENCH_LATENCY:-}" ] || latency=(-l --log-prefix="$dir/lat$origin")
    pgbench -n -p $((CITUS_PORT + origin)) -c "$clients" -j 1 "$@" -D origin=$origin \
      -f "$dir/$script@19" -f "$dir/rollback.sql@1" "${latency[@]}" \
      >"$dir/pgbench$origin.out" 2>&1 &
    pids+=($!)
  done
  for origin in 0 1 2; do wait "${pids[$origin]}" || failed=1; done
  for origin in 0 1 2; do
    echo "origin $origin: $(grep -E '^(number of transactions actually processed|number of failed|tps)' "$dir/pgbench$origin.out" | tr '\n' ' ')"
  done
  [ "$failed" -eq 0 ] || { cat "$dir"/pgbench*.out; echo "pgbench failed (deadlock?)"; exit 1; }
  ! grep -h '^number of failed transactions: [1-9]' "$dir"/pgbench*.out || { echo "transactions failed"; exit 1; }
  # PostgreSQL's "deadlock detected", Citus's "... in a distributed deadlock".
  for entry in "${logs[@]}"; do
    if tail -c +"$((${entry##*:} + 1))" "${entry%:*}" | grep -E 'deadlock detected|distributed deadlock'; then
      echo "a node logged a deadlock (${entry%:*})"; exit 1
    fi
  done
  [ ${#logs[@]} -eq 0 ] || echo "deadlocks logged by the ${#logs[@]} nodes during the run: 0"
  citus_committed=0
  for origin in 0 1 2; do
    citus_committed=$((citus_committed + $(awk -v s="$script" '$0 ~ "SQL script [0-9]+: .*" s {f = 1} f && / transactions / {print $2; exit}' "$dir/pgbench$origin.out")))
  done
}
