#!/usr/bin/env bash
# run-libfuzzer.sh [SECONDS] — build fuzz/fuzz_math.c with clang-14
# (-fsanitize=fuzzer,address,undefined) and fuzz the mathematics for SECONDS
# (default 600) on every core.  Needs no PostgreSQL.  Findings (crashes,
# property violations, hangs over 10 s) land in fuzz/findings/; the corpus in
# fuzz/corpus/ (both ignored by git).  Exit status is libFuzzer's: 0 = clean.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
jobs=${JOBS:-$(nproc)}

bash ../tools/ensure-deps.sh clang-14 libclang-rt-14-dev

mkdir -p corpus findings build
clang-14 -g -O1 -std=c99 -D_DEFAULT_SOURCE -I../src \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -o build/fuzz_math fuzz_math.c ../src/core/glicko_math.c -lm

# -fork runs the jobs in child processes and survives none of them: any
# crash stops the run (-ignore_crashes=0).
exec build/fuzz_math -fork="$jobs" -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix=findings/ corpus/ regressions/
