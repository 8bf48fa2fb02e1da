#!/usr/bin/env bash
# check-symbols.sh MODULE OBJECT... — what the built module exports (run by test.sh):
#  1. every global symbol it defines carries the project's prefix: glicko_,
#     glicko1_ or glicko2_ (C functions, the SQL-callable functions), or is
#     PostgreSQL's Pg_magic_func or pg_finfo_<an SQL-callable function>
#     (the linker's own _init, _fini, _edata, _end, __bss_start aside);
#  2. every pg_finfo_X names a function X the module exports;
#  3. nothing file-local is global: each global of an object is used by
#     another object of the module, is SQL-callable, or is PostgreSQL-free
#     API that test/unit or fuzz/ calls.
set -uo pipefail
module=$1; shift
status=0
defined=$(nm -g --defined-only "$module" | awk '{print $3}' | sort -u)

bad=$(grep -Ev '^((glicko_|glicko1_|glicko2_)[A-Za-z0-9_]+|pg_finfo_(glicko_|glicko1_|glicko2_)[A-Za-z0-9_]+|Pg_magic_func|_init|_fini|_edata|_end|__bss_start)$' <<<"$defined")
if [ -n "$bad" ]; then
  echo "$module exports symbols without the glicko_/glicko1_/glicko2_ prefix:"; echo "$bad"; status=1
fi

for f in $(grep '^pg_finfo_' <<<"$defined"); do
  grep -qx "${f#pg_finfo_}" <<<"$defined" || { echo "$f without ${f#pg_finfo_}"; status=1; }
done

for o in "$@"; do
  for s in $(nm -g --defined-only "$o" | awk '{print $3}'); do
    case "$s" in pg_finfo_*|Pg_magic_func) continue ;; esac
    grep -qx "pg_finfo_$s" <<<"$defined" && continue
    # used by another object (an object's own references are resolved inside it)
    others=$(for p in "$@"; do [ "$p" = "$o" ] || nm -u "$p" | awk '{print $2}'; done | grep -cx "$s")
    [ "$others" -gt 0 ] && continue
    grep -qw "$s" test/unit/*.c fuzz/*.c 2>/dev/null && continue
    echo "$s is global in $o but used only there: make it static"; status=1
  done
done
[ "$status" -eq 0 ] && echo "$(wc -l <<<"$defined") exported symbols, all prefixed; nothing file-local exported"
exit $status
