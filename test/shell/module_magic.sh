#!/usr/bin/env bash
# module_magic.sh — from PostgreSQL 18 the module's magic block names it and
# carries the version of glicko2.control (src/compat.h, the Makefile's
# GLICKO2_VERSION): pg_get_loaded_modules() shows both once it is loaded.
set -euo pipefail
want=$(sed -n "s/^default_version = '\(.*\)'/\1/p" glicko2.control)
[ -n "$want" ] || { echo "FAIL: no default_version in glicko2.control"; exit 1; }
num=$(psql -X -At -c "SHOW server_version_num")
if [ "$num" -lt 180000 ]; then
  echo "server $num: no pg_get_loaded_modules() before 18, plain PG_MODULE_MAGIC"
  exit 0
fi
got=$(psql -X -q -At -v ON_ERROR_STOP=1 -c "LOAD 'glicko2'" \
  -c "SELECT module_name || ' ' || version FROM pg_get_loaded_modules() WHERE file_name LIKE 'glicko2.%'")
[ "$got" = "glicko2 $want" ] || { echo "FAIL: pg_get_loaded_modules() shows '$got', want 'glicko2 $want'"; exit 1; }
echo "ok: glicko2 $want"
