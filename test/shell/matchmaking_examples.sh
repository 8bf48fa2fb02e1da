#!/usr/bin/env bash
# matchmaking_examples.sh — every matchmaking example of README.md and
# docs/*.md runs as written against queues keyed by int, bigint and uuid:
# the sql blocks of each document that create the queue or call
# glicko2_pair / glicko2_lobbies (or their _typed forms) run in order, in a
# database of their own per document and key type, with the examples'
# bigint (the key type they are written with) read as that type; a fixture of 20 players goes into the
# queue after the block that creates it, and games_to_start (the table the
# examples insert into) is keyed the same way.  The games inserted must be
# pairs of the fixture's own ids, in that type.
set -euo pipefail
cd "$(dirname "$0")/../.."
db=glicko2_matchmaking_examples
blocks=$(mktemp -d)
trap 'dropdb --if-exists "$db" >/dev/null 2>&1; rm -rf "$blocks"' EXIT
# One directory per document, one file per block in document order.
python3 - "$blocks" README.md docs/*.md <<'PY'
import os, re, sys
out, files = sys.argv[1], [f for f in sys.argv[2:] if os.path.exists(f)]
n = 0
for f in files:
    text = open(f, encoding="utf-8").read()
    found = [b for b in re.findall(r"^```sql\n(.*?)^```", text, re.S | re.M)
             if re.search(r"glicko2_(pair|lobbies)(_typed)?\(|CREATE TABLE queue\b", b)]
    if not found:
        continue
    d = os.path.join(out, os.path.basename(f))
    os.mkdir(d)
    for i, block in enumerate(found):
        open(os.path.join(d, f"{i:03d}.sql"), "w", encoding="utf-8").write(block)
    n += len(found)
print(f"{n} matchmaking examples in {len(os.listdir(out))} documents", file=sys.stderr)
PY
ls "$blocks"/*/*.sql >/dev/null 2>&1 || { echo "FAIL: no matchmaking example found in README.md or docs/"; exit 1; }

for doc in "$blocks"/*/; do
  name=$(basename "$doc")
  grep -l 'CREATE TABLE queue\b' "$doc"*.sql >/dev/null || { echo "FAIL: $name: no example creates the queue"; exit 1; }
  for type in int bigint uuid; do
    case $type in
      uuid) id='md5(i::text)::uuid' ;;
      *) id='i' ;;
    esac
    dropdb --if-exists "$db" >/dev/null 2>&1
    createdb "$db"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION glicko2" \
      -c "CREATE TABLE fixture AS SELECT $id AS player_id, glicko2_rating(1500 + 3 * i, 60) AS rating FROM generate_series(1, 20) i"
    grep -qh 'CREATE TABLE games_to_start' "$doc"*.sql ||
      psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE TABLE games_to_start (player_a $type, player_b $type)"
    for b in "$doc"*.sql; do
      sed -E "s/\\bbigint\\b/$type/g" "$b" >"$b.$type"
      if ! psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$b.$type" >"$b.$type.out" 2>&1; then
        echo "FAIL: $name, example $(basename "$b" .sql), with $type keys:"; cat "$b.$type"; cat "$b.$type.out"; exit 1
      fi
      if grep -q 'CREATE TABLE queue\b' "$b"; then
        psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "INSERT INTO queue (player_id, rating, queued_at) SELECT player_id, rating, now() FROM fixture"
      fi
    done
    # The examples' games: pairs of fixture players, each placed once, in the
    # key's own type (the columns are that type, and the values are its ids).
    got=$(psql -X -At -v ON_ERROR_STOP=1 -d "$db" -c "
      SELECT count(*) || ' ' || bool_and(a.player_id IS NOT NULL AND b.player_id IS NOT NULL)
             || ' ' || (count(DISTINCT g.player_a) + count(DISTINCT g.player_b) = 2 * count(*))
             || ' ' || pg_typeof((array_agg(g.player_a))[1])
      FROM games_to_start g LEFT JOIN fixture a ON a.player_id = g.player_a
                            LEFT JOIN fixture b ON b.player_id = g.player_b")
    want_type=$(psql -X -At -d "$db" -c "SELECT '$type'::regtype")
    case $got in
      "0 "*) echo "FAIL: $name, $type keys: the examples started no game"; exit 1 ;;
      *" true true $want_type") echo "$name, $type keys: $(echo "$got" | cut -d' ' -f1) games of fixture players, ids of type $want_type" ;;
      *) echo "FAIL: $name, $type keys: games_to_start check gave '$got' (want N true true $want_type)"; exit 1 ;;
    esac
  done
done
