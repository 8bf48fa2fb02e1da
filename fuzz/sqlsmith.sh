#!/usr/bin/env bash
# sqlsmith.sh [QUERIES] [RUNNERS] — random SQL from sqlsmith (Debian package
# sqlsmith) against a private server with glicko2 and the sample league of
# fuzz/league.sql (every kind of object the extension creates or writes: a
# guarded games table with closed periods and history, the record of closes,
# a live-trigger table, matches, a queue), QUERIES statements in all (default
# 100000) split over RUNNERS parallel sqlsmith processes (default 2), as an
# unprivileged role; SQLSMITH_SECONDS=N instead runs each for N seconds.
# Then it reads the server log for crashes (a backend "terminated by
# signal", PANIC, failed assertions) and internal errors (SQLSTATE XX...),
# prints the errors by SQLSTATE and one summary line:
#   statements N, touching glicko2 N, crashes N, internal errors in glicko2 N (PostgreSQL's own: N)
# ("touching glicko2": statements that call a glicko2 function or aggregate).
# Exit status 0 if there was no crash and no internal error.  Uses tools/private-pg.sh, so it
# needs no lock and leaves nothing running.
set -euo pipefail
cd "$(dirname "$0")/.."
queries=${1:-100000}
runners=${2:-2}
dir=${SQLSMITH_DIR:-/tmp/glicko2-sqlsmith}

bash tools/ensure-deps.sh sqlsmith
# shellcheck source=../tools/private-pg.sh
source tools/private-pg.sh
make -s PG_CFLAGS="-DUSE_ASSERT_CHECKING" >/dev/null
private_pg_setup "$dir"
# each logged error starts with its SQLSTATE
echo "log_line_prefix = '%e '" >>"$dir/data/postgresql.conf"
trap 'private_pg_stop "$dir"' EXIT
private_pg_start "$dir"

psql -qX -v ON_ERROR_STOP=1 <<SQL >/dev/null
CREATE ROLE smith LOGIN;
CREATE DATABASE league OWNER smith;
SQL
psql -qX -v ON_ERROR_STOP=1 -d league -c "CREATE EXTENSION glicko2" >/dev/null
psql -qX -v ON_ERROR_STOP=1 -d league -U smith -f <(sed '/^CREATE EXTENSION/d' fuzz/league.sql) >/dev/null

# Each runner dumps its statements; only counts are kept (the dumps are big).
per=$(( (queries + runners - 1) / runners ))
limit=()
if [ -n "${SQLSMITH_SECONDS:-}" ]; then
  per=1000000000
  limit=(timeout --signal=INT "$SQLSMITH_SECONDS")
fi
pids=()
for i in $(seq 1 "$runners"); do
  ( "${limit[@]}" sqlsmith --target="host=$PGHOST port=$PGPORT dbname=league user=smith" \
      --seed=$((4711 + i)) --max-queries="$per" --dump-all-queries --verbose \
      2>"$dir/sqlsmith.$i.err" |
    awk '/glicko[12]?_[a-z_]+[(]/ { hit = 1 }
         /;[[:space:]]*$/ { n++; if (hit) g++; hit = 0 }
         END { print n + 0, g + 0 }' >"$dir/sqlsmith.$i.count" ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done

statements=0; touching=0
for i in $(seq 1 "$runners"); do
  read -r n g <"$dir/sqlsmith.$i.count"
  statements=$((statements + n)); touching=$((touching + g))
done
crashes=$(grep -cE 'terminated by signal|PANIC|TRAP:|server process .* was terminated' "$dir/server.log" || true)
psql -qXAt -c 'SELECT 1' >/dev/null || crashes=$((crashes + 1))
grep -hE '^(queries|error|[0-9]+\t)' "$dir"/sqlsmith.*.err | tail -40 || true
grep -E 'terminated by signal|PANIC|TRAP:' "$dir/server.log" | head -20 || true
echo "errors by SQLSTATE (server log):"
grep -oE '^[0-9A-Z]{5} ERROR' "$dir/server.log" | sort | uniq -c | sort -rn | head -40 || true
# Internal errors: glicko2's own are those whose message or context names
# glicko2 (sqlsmith also reaches PostgreSQL's own XX000s, e.g. "invalid
# INTERVAL typmod" from format_type with a random typmod).
awk '/^XX[0-9A-Z][0-9A-Z][0-9A-Z] ERROR/ { if (msg != "") print (ours ? "glicko2: " : "core:    ") msg; msg = $0; ours = ($0 ~ /glicko/); next }
     msg != "" && /^XX[0-9A-Z][0-9A-Z][0-9A-Z] CONTEXT/ && /glicko/ { ours = 1 }
     END { if (msg != "") print (ours ? "glicko2: " : "core:    ") msg }' "$dir/server.log" |
  sort | uniq -c | sort -rn >"$dir/internal" || true
cat "$dir/internal"
internal=$(awk '$2 == "glicko2:" { n += $1 } END { print n + 0 }' "$dir/internal")
core=$(awk '$2 == "core:" { n += $1 } END { print n + 0 }' "$dir/internal")
echo "statements $statements, touching glicko2 $touching, crashes $crashes, internal errors in glicko2 $internal (PostgreSQL's own: $core)"
[ "$crashes" -eq 0 ] && [ "$internal" -eq 0 ]
