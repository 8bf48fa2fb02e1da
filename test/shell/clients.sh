#!/usr/bin/env bash
# clients.sh — the client adapters against this server: clients/python
# (pip-installed offline into a temporary directory; psycopg 3, its pool and
# async connection, asyncpg, SQLAlchemy) and clients/node (node-postgres),
# each in two databases whose glicko2 types have different OIDs: db_a with the
# extension in public, db_b with other types made first and the extension in
# schema rate.  Each reads a leaderboard with intervals as objects, writes a
# live game and reads its ratings back, and plays a matchmaking round
# (test/clients/clients_test.py, clients_test.js).  Python is Debian's
# (python3-psycopg, python3-psycopg-pool, python3-asyncpg, python3-sqlalchemy,
# python3-psycopg2, python3-pip); pg for node is Debian's node-pg or
# clients/node/node_modules (tools/ensure-deps.sh installs one of them), or
# a global npm install of pg.
set -euo pipefail
cd "$(dirname "$0")/../.."
a=glicko2_clients_a
b=glicko2_clients_b
tmp=$(mktemp -d)
cleanup() { dropdb --if-exists "$a" >/dev/null 2>&1; dropdb --if-exists "$b" >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
cleanup; tmp=$(mktemp -d)
createdb "$a"; createdb "$b"
psql -X -q -v ON_ERROR_STOP=1 -d "$a" -c "CREATE EXTENSION glicko2"
psql -X -q -v ON_ERROR_STOP=1 -d "$b" -c "CREATE TYPE shifted AS (x int)" -c "CREATE TABLE shift (a int, b text)" \
  -c "CREATE SCHEMA rate" -c "CREATE EXTENSION glicko2 SCHEMA rate" -c "ALTER DATABASE $b SET search_path = public, rate"

# Debian's interpreter: its packages are the ones installed.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
"$py" -m pip install --quiet --no-build-isolation --no-deps --no-index --target "$tmp/site" ./clients/python
rm -rf clients/python/build clients/python/src/*.egg-info
DB_A=$a DB_B=$b PIP_TARGET=$tmp/site PYTHONPATH=$tmp/site "$py" test/clients/clients_test.py

# node-postgres: Debian's (/usr/share/nodejs) or clients/node's own.
DB_A=$a DB_B=$b NODE_PATH=/usr/share/nodejs:$PWD/clients/node/node_modules:$(npm root -g 2>/dev/null) node test/clients/clients_test.js
