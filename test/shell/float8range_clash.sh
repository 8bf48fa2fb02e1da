#!/usr/bin/env bash
# float8range_clash.sh — the extension creates float8range in its schema.
# A database that already has a float8range there cannot install it (a clear
# error); installed in a schema of its own, both types live side by side.
set -euo pipefail
db=glicko2_float8range_clash
dropdb --if-exists "$db" >/dev/null 2>&1
createdb "$db"
trap 'dropdb --if-exists "$db" >/dev/null' EXIT
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" -c "$1"; }

# The user's own float8range (closed-open, no subtype_diff) in public.
q "CREATE TYPE public.float8range AS RANGE (subtype = float8)"

# Into public: refused, nothing half-installed.
if out=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION glicko2" 2>&1); then
  echo "FAIL: CREATE EXTENSION succeeded over an existing public.float8range"; exit 1
fi
echo "$out" | grep -q 'type "float8range" already exists' || { echo "FAIL: unexpected error: $out"; exit 1; }
[ "$(q "SELECT count(*) FROM pg_extension WHERE extname = 'glicko2'")" = 0 ] || { echo "FAIL: extension half-installed"; exit 1; }

# Into its own schema: fine; its functions return glicko.float8range.
q "CREATE SCHEMA glicko"
q "CREATE EXTENSION glicko2 SCHEMA glicko"
got=$(q "SELECT pg_typeof(glicko.glicko2_interval(glicko.glicko2_rating(1850, 50)))::text || ' ' || glicko.glicko2_interval(glicko.glicko2_rating(1850, 50))::text")
[ "$got" = "glicko.float8range [1750,1950]" ] || { echo "FAIL: got '$got'"; exit 1; }
# With both schemas on the search_path the name is ambiguous in text, so
# qualify; the user's type is untouched.
got=$(q "SET search_path = public, glicko; SELECT pg_typeof(float8range(1, 2))::text || ' ' || glicko.float8range(1, 2, '[]')::text")
[ "$got" = "float8range [1,2]" ] || { echo "FAIL: got '$got'"; exit 1; }
# Mixing the two types is a type error, not a silent conversion.
if psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "SELECT glicko.glicko2_interval(glicko.glicko2_rating()) && public.float8range(1, 2)" >/dev/null 2>&1; then
  echo "FAIL: the two float8range types mixed silently"; exit 1
fi
echo "ok"
