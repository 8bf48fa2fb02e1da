#!/usr/bin/env bash
# citus_cpu.sh DATADIR... — the CPU time so far, in clock ticks (user +
# system, getconf CLK_TCK per second), of each PostgreSQL node whose data
# directory is named, comma-separated in the order given: the postmaster,
# every live process it started (backends, Citus's connections among them)
# and, through the postmaster's cutime and cstime, its children that have
# exited (/proc/PID/stat fields 14-17).  bench/citus_close.sql reads it
# before and after each close.
set -euo pipefail
out=()
for dir in "$@"; do
  pm=$(head -1 "$dir/postmaster.pid")
  # /proc/PID/stat after the command's closing parenthesis: state first,
  # so ppid is f[2], utime f[12], stime f[13], cutime f[14], cstime f[15].
  ticks=$({ cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v pm="$pm" '
            { s = $0; sub(/^.*\) /, "", s); split(s, f, " ")
              if ($1 == pm) t += f[12] + f[13] + f[14] + f[15]
              else if (f[2] == pm) t += f[12] + f[13] }
            END { print t + 0 }')
  out+=("$ticks")
done
(IFS=,; echo "${out[*]}")
