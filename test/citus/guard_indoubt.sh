#!/usr/bin/env bash
# guard_indoubt.sh — a close in doubt keeps writers waiting (run by
# tools/citus.sh).  A close of a distributed league is one distributed
# transaction: Citus prepares it on each worker (PREPARE TRANSACTION),
# commits on the coordinator, then sends COMMIT PREPARED.  Between the two
# the workers' part is in doubt, and so is the guard state's copy on each
# worker, which the close updated.  Made deterministic here:
#  committed in doubt: the coordinator has synchronous_standby_names
#     naming no standby, so the close's local COMMIT writes its commit
#     record and waits (SyncRep) before Citus sends COMMIT PREPARED; the
#     coordinator is then stopped (immediate) and started again, its close
#     committed, the workers' parts still prepared.  Writers from every node
#     into the period being closed and into an open one wait (lock_timeout:
#     55P03), none is accepted; a writer left waiting is blocked by the
#     prepared transaction (pg_blocking_pids: 0).  recover_prepared_transactions
#     commits the workers' parts: the waiting writer is refused (55000), the
#     writes into the closed period are refused from every node, those into
#     the open one accepted, and the close counted exactly its period's rows.
#  rolled back in doubt: a session holding the lock NOTIFY takes at commit
#     (its commit waiting for that standby) makes the next close, which
#     NOTIFYs too, wait at its COMMIT after Citus prepared the workers'
#     parts and before its commit record; the coordinator is stopped there.
#     Writers into the closing and an open period wait, none is accepted;
#     nothing is recorded; recover_prepared_transactions rolls the parts
#     back: the period is not closed, the waiting writers and every write
#     into it are accepted, the ratings are as before, and the period
#     closed again is rated as a plain close of the same games, bit for bit.
# Automatic recovery (citus.recover_2pc_interval) is off during the test.
set -uo pipefail
: "${CITUS_PORT:?run by tools/citus.sh}" "${CITUS_DIR:?run by tools/citus.sh}"
export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-postgres} PGDATABASE=${PGDATABASE:-postgres}
# (no session but the close's waits for the standby that is not there)
export PGOPTIONS='-c synchronous_commit=local'
ports=("$CITUS_PORT" $((CITUS_PORT + 1)) $((CITUS_PORT + 2)))
as_server() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
q() { local p=$1; shift; psql -X -q -At -v ON_ERROR_STOP=1 -p "$p" "$@"; }
status=0
fail() { echo "FAILED: $*"; status=1; }
bg=()
settings_reset() {
  for p in "${ports[@]}"; do
    q "$p" -c 'ALTER SYSTEM RESET synchronous_standby_names' -c 'ALTER SYSTEM RESET citus.recover_2pc_interval' \
      -c 'SELECT pg_reload_conf()' >/dev/null 2>&1
  done
}
cleanup() {
  for pid in "${bg[@]}"; do kill "$pid" 2>/dev/null; done
  settings_reset
  q "$CITUS_PORT" -c 'SELECT recover_prepared_transactions()' >/dev/null 2>&1
  q "$CITUS_PORT" -c 'DROP SCHEMA IF EXISTS guard_indoubt CASCADE' >/dev/null 2>&1
  rm -rf "$work"
}
work=$(mktemp -d /tmp/guard-indoubt.XXXXXX); chmod 777 "$work"
trap cleanup EXIT

q "$CITUS_PORT" <<'EOF' || exit 1
SET citus.shard_count = 32;
SET citus.enable_unsafe_triggers = on;
CREATE SCHEMA guard_indoubt;
CREATE TABLE guard_indoubt.ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE guard_indoubt.games (game_id bigint, player_id int, opponent_id int, score float8, period int);
SELECT create_distributed_table('guard_indoubt.ratings', 'player_id');
SELECT create_distributed_table('guard_indoubt.games', 'player_id', colocate_with => 'guard_indoubt.ratings');
INSERT INTO guard_indoubt.ratings SELECT g, NULL FROM generate_series(1, 200) g;
-- Two games of every player in each of periods 1 to 4.
INSERT INTO guard_indoubt.games
SELECT row_number() OVER (), p, p % 200 + 1, (p + k) % 2, period
FROM generate_series(1, 200) p, generate_series(1, 2) k, generate_series(1, 4) period;
CALL glicko2_guard_games('guard_indoubt.games');
CALL glicko2_close_period('guard_indoubt.ratings', 'guard_indoubt.games', 1);
-- One insert, its outcome ('accepted', or the SQLSTATE); undone either way.
CREATE FUNCTION guard_indoubt.attempt(player int, period int) RETURNS text
LANGUAGE plpgsql SET search_path = guard_indoubt, public AS $$
BEGIN
  INSERT INTO games VALUES (-1, player, 0, 0.5, period);
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'accepted';
EXCEPTION WHEN OTHERS THEN
  RETURN CASE WHEN SQLSTATE = 'P0001' THEN SQLERRM ELSE SQLSTATE END;
END
$$;
EOF

# A player whose shard is on each worker.
player_on() {
  q "$CITUS_PORT" -c "SELECT min(p) FROM generate_series(1, 200) p
    WHERE (SELECT nodeport FROM pg_dist_shard_placement
           WHERE shardid = get_shard_id_for_distribution_column('guard_indoubt.games', p)) = $1"
}
players=("$(player_on "${ports[1]}")" "$(player_on "${ports[2]}")")
echo "players: ${players[0]} (shard on ${ports[1]}), ${players[1]} (shard on ${ports[2]})"

# attempts LABEL TIMEOUT [P Q]: an insert for each player into periods P and Q (2 and 3)
# from each node, with lock_timeout (set on the node and sent with the
# statement to the worker holding the shard); prints "origin player period
# outcome" lines into $work/LABEL.
attempts() {
  : >"$work/$1"
  for p in "${ports[@]}"; do
    for player in "${players[@]}"; do
      for period in "${3:-2}" "${4:-3}"; do
        r=$(q "$p" -c 'SET citus.propagate_set_commands = local' -c "BEGIN" -c "SET LOCAL lock_timeout = '$2'" \
              -c "SELECT guard_indoubt.attempt($player, $period)" -c 'COMMIT' 2>&1 | tail -1)
        echo "$p $player $period $r" >>"$work/$1"
      done
    done
  done
}
# expect LABEL PERIOD OUTCOME: every attempt into PERIOD had OUTCOME.
expect() {
  local n bad
  n=$(awk -v p="$2" '$3 == p' "$work/$1" | wc -l)
  bad=$(awk -v p="$2" -v o="$3" '$3 == p && $4 != o' "$work/$1")
  echo "$1: period $2: $n attempts from 3 nodes, $(awk -v p="$2" -v o="$3" '$3 == p && $4 == o' "$work/$1" | wc -l) $3"
  [ "$n" -eq 6 ] && [ -z "$bad" ] || fail "$1: period $2: expected $3 for all 6, got: $bad"
}
# wait_for PORT QUERY: polls until QUERY returns t (60 s at most).
wait_for() {
  for _ in $(seq 1 600); do
    [ "$(q "$1" -c "$2" 2>/dev/null)" = t ] && return 0
    sleep 0.1
  done
  return 1
}
prepared() {  # prepared transactions of Citus's coordinator (group 0) on each worker
  for p in "${ports[@]:1}"; do
    q "$p" -c "SELECT count(*) FROM pg_prepared_xacts WHERE gid LIKE 'citus\_0\_%' AND database = current_database()"
  done | paste -sd' '
}
restart_coordinator() {
  as_server pg_ctl -D "$CITUS_DIR/node0" -m immediate -w stop >/dev/null 2>&1 || fail "coordinator did not stop"
  as_server pg_ctl -D "$CITUS_DIR/node0" -l "$CITUS_DIR/node0.log" -w start >/dev/null || fail "coordinator did not start"
  wait_for "$CITUS_PORT" 'SELECT true' || fail "coordinator not back"
}
# sync_rep_on PORT: the node's commits (and PREPAREs) wait for a standby
# that is not there; the checkpointer applies the setting after the reload
# (SyncRepUpdateSyncStandbysDefined), before the CHECKPOINT it then runs.
sync_rep_on() {
  q "$1" -c "ALTER SYSTEM SET synchronous_standby_names = 'glicko2_indoubt_no_standby'" -c 'SELECT pg_reload_conf()' >/dev/null
  sleep 1
  q "$1" -c CHECKPOINT
}
# The writers waiting on each worker: blocked by a prepared transaction only.
blocked_by_prepared() {
  for i in 1 2; do
    b=$(q "${ports[$i]}" -c "SELECT pg_blocking_pids(pid)::text FROM pg_stat_activity
                             WHERE query LIKE 'INSERT INTO guard_indoubt.games VALUES (-2,%' AND wait_event_type = 'Lock'")
    echo "the writer waiting on ${ports[$i]} is blocked by: $b (0: a prepared transaction)"
    [ "$b" = "{0}" ] || fail "writer on ${ports[$i]}: blocked by '$b', expected only a prepared transaction"
  done
}
rows_of() { q "$CITUS_PORT" -c "SELECT count(*) FROM guard_indoubt.games WHERE period = $1"; }
counted() { q "$CITUS_PORT" -c "SELECT coalesce(max(games), -1) FROM glicko2_closes WHERE ratings = 'guard_indoubt.ratings'::regclass AND period = '$1'"; }

for p in "${ports[@]}"; do
  q "$p" -c 'ALTER SYSTEM SET citus.recover_2pc_interval = -1' -c 'SELECT pg_reload_conf()' >/dev/null || exit 1
done

echo "== 1. a close of period 2 committed on the coordinator, prepared on the workers"
sync_rep_on "$CITUS_PORT"
PGOPTIONS='-c synchronous_commit=on' psql -X -q -p "$CITUS_PORT" \
  -c "CALL glicko2_close_period('guard_indoubt.ratings', 'guard_indoubt.games', 2)" >"$work/close2.out" 2>&1 &
bg+=($!)
wait_for "$CITUS_PORT" "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query LIKE 'CALL glicko2_close_period%')" ||
  { fail "the close did not reach its commit"; cat "$work/close2.out"; exit 1; }
echo "the close waits in its commit; Citus's prepared transactions on the workers: $(prepared)"
[[ "$(prepared)" =~ ^[1-9][0-9]*\ [1-9][0-9]*$ ]] || fail "expected prepared transactions on both workers"
attempts indoubt_committing 300ms
expect indoubt_committing 2 55P03
expect indoubt_committing 3 55P03

# A writer that waits through the coordinator's restart and the recovery.
as_waiter() {  # as_waiter PORT PLAYER PERIOD FILE
  psql -X -q -At -p "$1" -c 'SET citus.propagate_set_commands = local' -c BEGIN -c "SET LOCAL lock_timeout = '60s'" \
    -c "INSERT INTO guard_indoubt.games VALUES (-2, $2, 0, 1, $3)" -c COMMIT >"$work/$4" 2>&1
}
# Once a writer waits on each worker: the coordinator restarted, no standby named.
waiters_wait_restart() {
  for i in 1 2; do
    wait_for "${ports[$i]}" "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event_type = 'Lock'
                              AND query LIKE 'INSERT INTO guard_indoubt.games VALUES (-2,%')" ||
      fail "the writer on ${ports[$i]} does not wait"
  done
  q "$CITUS_PORT" -c 'ALTER SYSTEM RESET synchronous_standby_names' >/dev/null
  restart_coordinator
}
as_waiter "${ports[1]}" "${players[0]}" 2 waiter_closed & bg+=($!)
as_waiter "${ports[2]}" "${players[1]}" 3 waiter_open & bg+=($!)
waiters_wait_restart
echo "coordinator stopped (immediate) and started; close recorded: $(counted 2) games; prepared on the workers: $(prepared)"
[ "$(counted 2)" = "$(rows_of 2)" ] || fail "the coordinator's record of the close: $(counted 2), period 2 holds $(rows_of 2)"
[[ "$(prepared)" =~ ^[1-9][0-9]*\ [1-9][0-9]*$ ]] || fail "expected the workers' parts still prepared"
blocked_by_prepared
attempts indoubt_committed 300ms
expect indoubt_committed 2 55P03
expect indoubt_committed 3 55P03

r=$(q "$CITUS_PORT" -c 'SELECT recover_prepared_transactions()')
echo "recover_prepared_transactions(): $r; prepared on the workers now: $(prepared)"
[ "$(prepared)" = "0 0" ] || fail "prepared transactions left after recovery"
wait "${bg[@]:1}"
echo "the waiting writer into period 2: $(grep -o 'ERROR: .*' "$work/waiter_closed" | head -1)"
grep -q 'refused: guard_indoubt.ratings has closed period 2' "$work/waiter_closed" ||
  fail "the writer that waited into period 2 was not refused: $(cat "$work/waiter_closed")"
grep -q ERROR "$work/waiter_open" && fail "the writer that waited into period 3 failed: $(cat "$work/waiter_open")"
echo "the waiting writer into period 3: accepted"
attempts recovered 5s
expect recovered 2 55000
expect recovered 3 accepted
echo "close of period 2 counted $(counted 2) games; period 2 holds $(rows_of 2)"
[ "$(counted 2)" = "$(rows_of 2)" ] || fail "close of period 2: counted $(counted 2), holds $(rows_of 2)"
h=$(q "$CITUS_PORT" -c "SELECT count(*) FROM guard_indoubt.ratings WHERE (rating).rd IS NOT NULL AND rating IS NOT NULL")
echo "players rated on the workers: $h of 200"
[ "$h" = 200 ] || fail "ratings not written by the recovered close: $h"

echo "== 2. a close of period 3 prepared on the workers, its commit record never written"
# Session B holds the lock NOTIFY takes at commit (PreCommit_Notify, held to
# the end of its commit) while its commit waits for the standby that is not
# there (a commit that wrote WAL: a temporary table); the close, with a NOTIFY of its own, then waits for that lock at
# its COMMIT, after Citus prepared the workers' parts (XACT_EVENT_PRE_COMMIT
# comes before PreCommit_Notify) and before its own commit record.  The
# coordinator is stopped there: recovery finds the workers' parts without a
# commit and rolls them back.
q "$CITUS_PORT" -c "CREATE TABLE guard_indoubt.before_3 AS SELECT * FROM guard_indoubt.ratings" \
  -c "ALTER TABLE guard_indoubt.before_3 ADD PRIMARY KEY (player_id)" >/dev/null
ratings_md5() { q "$CITUS_PORT" -c "SELECT md5(string_agg(player_id || ':' || rating::text, ',' ORDER BY player_id)) FROM $1"; }
before=$(ratings_md5 guard_indoubt.ratings)
sync_rep_on "$CITUS_PORT"
PGOPTIONS='-c synchronous_commit=on' psql -X -q -p "$CITUS_PORT" -c BEGIN -c 'CREATE TEMP TABLE holder ()' \
  -c 'NOTIFY glicko2_indoubt' -c COMMIT >"$work/holder.out" 2>&1 &
bg+=($!)
wait_for "$CITUS_PORT" "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND query = 'COMMIT')" ||
  fail "the session holding NOTIFY's lock did not reach its commit"
psql -X -q -p "$CITUS_PORT" -c BEGIN -c "CALL glicko2_close_period('guard_indoubt.ratings', 'guard_indoubt.games', 3)" \
  -c 'NOTIFY glicko2_indoubt' -c COMMIT >"$work/close3.out" 2>&1 &
bg+=($!)
wait_for "$CITUS_PORT" "SELECT EXISTS (SELECT FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query = 'COMMIT')" ||
  { fail "the close did not wait in its commit"; cat "$work/close3.out"; }
echo "the close waits in its COMMIT for NOTIFY's lock; Citus's prepared transactions on the workers: $(prepared)"
[[ "$(prepared)" =~ ^[1-9][0-9]*\ [1-9][0-9]*$ ]] || fail "expected prepared transactions on both workers"
attempts rollback_preparing 300ms 3 4
expect rollback_preparing 3 55P03
expect rollback_preparing 4 55P03
as_waiter "${ports[1]}" "${players[0]}" 3 waiter_rolled_back & bg+=($!)
as_waiter "${ports[2]}" "${players[1]}" 4 waiter_open_4 & bg+=($!)
waiters_wait_restart
echo "coordinator stopped (immediate) and started; close of period 3 recorded: $(counted 3); prepared on the workers: $(prepared)"
[ "$(counted 3)" = -1 ] || fail "the coordinator recorded the close of period 3 that never committed"
[[ "$(prepared)" =~ ^[1-9][0-9]*\ [1-9][0-9]*$ ]] || fail "expected the workers' parts still prepared"
blocked_by_prepared
attempts rollback_indoubt 300ms 3 4
expect rollback_indoubt 3 55P03
expect rollback_indoubt 4 55P03
r=$(q "$CITUS_PORT" -c 'SELECT recover_prepared_transactions()')
echo "recover_prepared_transactions(): $r; prepared on the workers now: $(prepared)"
[ "$(prepared)" = "0 0" ] || fail "prepared transactions left after recovery"
wait "${bg[@]:3}"
grep -q ERROR "$work/waiter_rolled_back" && fail "the writer that waited into period 3 failed: $(cat "$work/waiter_rolled_back")"
grep -q ERROR "$work/waiter_open_4" && fail "the writer that waited into period 4 failed: $(cat "$work/waiter_open_4")"
echo "the waiting writers into periods 3 and 4: accepted"
attempts rolled_back 5s 3 4
expect rolled_back 3 accepted
expect rolled_back 4 accepted
after=$(ratings_md5 guard_indoubt.ratings)
echo "ratings after the rollback: $([ "$before" = "$after" ] && echo "as before the close" || echo CHANGED)"
[ "$before" = "$after" ] || fail "the close rolled back in doubt changed ratings"
# Closed again: every game of period 3 (the waiter's too) rated once, the
# same bits as the same close of the same rows on plain copies.
q "$CITUS_PORT" -c "CALL glicko2_close_period('guard_indoubt.ratings', 'guard_indoubt.games', 3)" || fail "close of period 3 again"
q "$CITUS_PORT" -c "CREATE TABLE guard_indoubt.games_3 AS SELECT * FROM guard_indoubt.games WHERE period = 3" \
  -c "CALL glicko2_close_period('guard_indoubt.before_3', 'guard_indoubt.games_3', 3, unguarded => true)" >/dev/null ||
  fail "plain close of period 3"
echo "close of period 3 counted $(counted 3) games; period 3 holds $(rows_of 3)"
[ "$(counted 3)" = "$(rows_of 3)" ] || fail "close of period 3: counted $(counted 3), holds $(rows_of 3)"
[ "$(ratings_md5 guard_indoubt.ratings)" = "$(ratings_md5 guard_indoubt.before_3)" ] ||
  fail "ratings after the close of period 3 differ from the plain close of the same games"
echo "ratings after closing period 3 again: the same bits as a plain close of its $(rows_of 3) games"

[ $status -eq 0 ] && echo "guard_indoubt: ok"
exit $status
