#!/usr/bin/env bash
# guard_nodes.sh — the guard after Citus moves shards (run by tools/citus.sh):
# a shard moved to the other worker (citus_move_shard_placement, by logical
# replication and by blocking copy), then a fourth node added and the shards
# rebalanced onto it.  Each time the moved shard and the new node's shards
# refuse an INSERT, an UPDATE into and out of the closed period and a DELETE
# of a closed game from every node (55000), accept the same writes to open
# periods, and a close counts exactly the rows of its period; glicko2's
# event triggers do nothing inside Citus's shard operations (they ran).
set -uo pipefail
: "${CITUS_PORT:?run by tools/citus.sh}" "${CITUS_DIR:?run by tools/citus.sh}"
export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-postgres} PGDATABASE=${PGDATABASE:-postgres}
port4=$((CITUS_PORT + 3))
node4=$CITUS_DIR/node3
as_server() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
q() { psql -X -q -At -v ON_ERROR_STOP=1 -p "$CITUS_PORT" "$@"; }
status=0
fail() { echo "FAILED: $*"; status=1; }
cleanup() {
  q -c 'DROP SCHEMA IF EXISTS guard_nodes CASCADE' >/dev/null 2>&1
  if [ -f "$node4/postmaster.pid" ]; then
    q -c "SELECT citus_remove_node('127.0.0.1', $port4)" >/dev/null 2>&1 || echo "could not remove node $port4"
    as_server pg_ctl -D "$node4" -m fast -w stop >/dev/null 2>&1
  fi
  rm -rf "$node4"
}
trap cleanup EXIT

q <<'EOF' || exit 1
SET citus.shard_count = 32;
SET citus.enable_unsafe_triggers = on;
CREATE SCHEMA guard_nodes;
CREATE TABLE guard_nodes.ratings (player_id int PRIMARY KEY, rating glicko2_rating);
-- (a primary key: logical replication moves it)
CREATE TABLE guard_nodes.games (game_id bigint, player_id int, opponent_id int, score float8, period int,
                                PRIMARY KEY (player_id, game_id));
SELECT create_distributed_table('guard_nodes.ratings', 'player_id');
SELECT create_distributed_table('guard_nodes.games', 'player_id', colocate_with => 'guard_nodes.ratings');
INSERT INTO guard_nodes.ratings SELECT g, NULL FROM generate_series(0, 2000) g;
-- Two games of every player in each of periods 1 to 6.
INSERT INTO guard_nodes.games
SELECT row_number() OVER (), p, CASE WHEN p = 0 THEN 1 ELSE 0 END, 1, period
FROM generate_series(1, 2000) p, generate_series(1, 2) k, generate_series(1, 6) period;
CALL glicko2_guard_games('guard_nodes.games');
CALL glicko2_close_period('guard_nodes.ratings', 'guard_nodes.games', 1);
-- One write, its outcome ('accepted n', or the SQLSTATE); undone either way.
CREATE FUNCTION guard_nodes.attempt(kind text, player int, period int) RETURNS text
LANGUAGE plpgsql SET search_path = guard_nodes, public AS $$
DECLARE
  n bigint;
BEGIN
  CASE kind
  WHEN 'insert' THEN
    INSERT INTO games VALUES (-1, player, 0, 0.5, period);
  WHEN 'update into' THEN
    UPDATE games g SET period = attempt.period WHERE g.player_id = player AND g.period = attempt.period + 1;
  WHEN 'update out of' THEN
    UPDATE games g SET period = attempt.period + 1 WHERE g.player_id = player AND g.period = attempt.period;
  WHEN 'delete' THEN
    DELETE FROM games g WHERE g.player_id = player AND g.period = attempt.period;
  END CASE;
  GET DIAGNOSTICS n = ROW_COUNT;
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'accepted ' || n;
EXCEPTION WHEN OTHERS THEN
  RETURN CASE WHEN SQLSTATE = 'P0001' THEN SQLERRM ELSE SQLSTATE END;
END
$$;
EOF

# The four writes for a player, from every node in pg_dist_node: into the
# last closed period (all refused, 55000) and the next (all accepted, each
# on its 2 rows; the insert on 1).
probe() {  # probe LABEL PLAYER CLOSED
  q -F ' ' <<EOF
SELECT '$1: player $2 on shard ' || get_shard_id_for_distribution_column('guard_nodes.games', $2)
       || ' (node ' || (SELECT nodeport FROM pg_dist_placement pl JOIN pg_dist_node n USING (groupid)
                        WHERE pl.shardid = get_shard_id_for_distribution_column('guard_nodes.games', $2)) || '): '
       || count(*) FILTER (WHERE p = $3) || ' writes to closed period $3, '
       || count(*) FILTER (WHERE p = $3 AND r.result = '55000') || ' refused (55000), '
       || count(*) FILTER (WHERE p = $3 AND r.result <> '55000') || ' not; '
       || count(*) FILTER (WHERE p = $3 + 1) || ' to open period ' || $3 + 1 || ', '
       || count(*) FILTER (WHERE p = $3 + 1 AND r.result IN ('accepted 1', 'accepted 2')) || ' accepted; '
       || count(DISTINCT r.nodeid) || ' origins'
FROM (VALUES ('insert'), ('update into'), ('update out of'), ('delete')) k(kind),
     (VALUES ($3), ($3 + 1)) v(p),
     LATERAL run_command_on_all_nodes(format('SELECT guard_nodes.attempt(%L, %s, %s)', k.kind, $2, v.p)) r;
EOF
}
check() {  # check LABEL PLAYER CLOSED ORIGINS
  local line; line=$(probe "$1" "$2" "$3")
  echo "$line"
  local o4=$(( $4 * 4 ))
  [[ $line == *": $o4 writes to closed period $3, $o4 refused (55000), 0 not; $o4 to open period $(( $3 + 1 )), $o4 accepted; $4 origins" ]] ||
    fail "$1"
}
close_and_count() {  # close_and_count PERIOD
  q -c "CALL glicko2_close_period('guard_nodes.ratings', 'guard_nodes.games', $1)" || { fail "close of period $1"; return; }
  local line
  line=$(q -F ' ' -c "CREATE TEMP TABLE n AS SELECT count(*) AS rows FROM guard_nodes.games WHERE period = $1" \
             -c "SELECT 'close of period $1 counted ' || c.games || ' games; ' || n.rows || ' rows'
                 FROM glicko2_closes c, n WHERE c.ratings = 'guard_nodes.ratings'::regclass AND c.period = '$1'")
  echo "$line"
  [[ $line =~ counted\ ([0-9]+)\ games\;\ ([0-9]+)\ rows ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] ||
    fail "close of period $1: count and rows differ"
}
guarded_shards() {  # the guard's row trigger on every shard placement of games, on every node
  local n
  n=$(q -c "SELECT sum(result::int) FROM run_command_on_all_nodes(\$\$SELECT count(*)
             FROM pg_dist_shard s JOIN pg_dist_placement pl USING (shardid)
             JOIN pg_trigger t ON t.tgrelid = to_regclass(shard_name(s.logicalrelid, s.shardid))
             WHERE s.logicalrelid = 'guard_nodes.games'::regclass
               AND pl.groupid = (SELECT groupid FROM pg_dist_local_group)
               AND t.tgfoid = 'glicko2_refuse_closed_games()'::regprocedure AND t.tgenabled = 'O' AND (t.tgtype & 1) = 1\$\$)")
  echo "$1: $n of 32 shards guarded"
  [ "$n" = 32 ] || fail "$1: $n shards guarded"
}

# A player on a shard of worker 1, and the shard moved to worker 2, by
# logical replication; then another one by blocking copy.
for mode in force_logical block_writes; do
  read -r player shard <<<"$(q -F ' ' -c "SELECT p, s.shardid FROM generate_series(1, 2000) p,
      LATERAL (SELECT get_shard_id_for_distribution_column('guard_nodes.games', p) AS shardid) s
      JOIN pg_dist_placement pl USING (shardid) JOIN pg_dist_node n USING (groupid)
      WHERE n.nodeport = $((CITUS_PORT + 1)) ORDER BY p LIMIT 1")"
  q -c "SELECT citus_move_shard_placement($shard, '127.0.0.1', $((CITUS_PORT + 1)), '127.0.0.1', $((CITUS_PORT + 2)),
                                          shard_transfer_mode => '$mode')" >/dev/null || fail "move ($mode)"
  guarded_shards "after moving shard $shard ($mode)"
  check "moved ($mode)" "$player" 1 3
done
close_and_count 2
check "moved, after another close" "$player" 2 3

# A fourth node, and the shards rebalanced onto it.
rm -rf "$node4"
as_server initdb -D "$node4" -A trust -U postgres --no-sync >/dev/null 2>&1 || { fail "initdb"; exit 1; }
cat >>"$node4/postgresql.conf" <<EOF
port = $port4
listen_addresses = '127.0.0.1'
unix_socket_directories = '$CITUS_DIR'
shared_preload_libraries = 'citus'
max_prepared_transactions = 100
wal_level = logical
fsync = off
EOF
as_server pg_ctl -D "$node4" -l "$CITUS_DIR/node3.log" -w start >/dev/null || { fail "start node 4"; exit 1; }
psql -X -q -p "$port4" -c "CREATE EXTENSION citus" || fail "citus on node 4"
q -c "SELECT citus_add_node('127.0.0.1', $port4)" >/dev/null || fail "add node 4"
q -c "SELECT rebalance_table_shards(shard_transfer_mode => 'force_logical')" >/dev/null 2>&1 || fail "rebalance"
moved=$(q -c "SELECT count(*) FROM pg_dist_placement pl JOIN pg_dist_node n USING (groupid) JOIN pg_dist_shard s USING (shardid)
              WHERE n.nodeport = $port4 AND s.logicalrelid = 'guard_nodes.games'::regclass")
echo "rebalanced: $moved shards of games on the new node"
[ "$moved" -gt 0 ] || fail "no shard on the new node"
guarded_shards "after the rebalance"
echo "guard state on the new node: $(psql -X -At -p "$port4" -c "SELECT closed FROM glicko2_internal.glicko2_citus_guards WHERE games = 'guard_nodes.games'")"
player=$(q -c "SELECT p FROM generate_series(1, 2000) p
               JOIN pg_dist_placement pl ON pl.shardid = get_shard_id_for_distribution_column('guard_nodes.games', p)
               JOIN pg_dist_node n USING (groupid) WHERE n.nodeport = $port4 ORDER BY p LIMIT 1")
check "on the new node" "$player" 2 4
close_and_count 3
check "on the new node, after another close" "$player" 3 4

# Back to three nodes: the shards drained off the new node.
q -c "SELECT citus_drain_node('127.0.0.1', $port4, shard_transfer_mode => 'force_logical')" >/dev/null 2>&1 || fail "drain"
close_and_count 4
check "drained back (the node still there)" "$player" 4 4
exit $status
