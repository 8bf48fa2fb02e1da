#!/usr/bin/env bash
# fuzz_calls.sh — fuzz/calls.py at CI size: seeded bad input to every
# SQL-callable function, aggregate, procedure and trigger of glicko2 (read
# from the catalog), in every shape of table the extension reads and writes.
# Fails on a crash, an internal error (XX000), a call over 5 s, or a write
# that is partial (fuzz/README.md); then rounds of table layout changes
# (DETACH/ATTACH, NO INHERIT/INHERIT) with writes and closes by two sessions,
# failing on a late game left unrated, and of bulk live match inserts,
# failing on an unrated match or 53200.  Longer runs by hand: FUZZ_CALLS,
# FUZZ_SEED, FUZZ_SECONDS, FUZZ_HUGE, FUZZ_LAYOUT, FUZZ_BULK.
set -uo pipefail
cd "$(dirname "$0")/../.."
status=0
/usr/bin/python3 fuzz/calls.py --calls "${FUZZ_CALLS:-1500}" --seed "${FUZZ_SEED:-1}" \
  --layout "${FUZZ_LAYOUT:-20}" --bulk "${FUZZ_BULK:-3}" --dbname glicko2_fuzz_calls || status=$?
psql -X -q -c 'DROP DATABASE IF EXISTS glicko2_fuzz_calls WITH (FORCE)' -c 'DROP ROLE IF EXISTS fuzz_owner' || status=1
exit "$status"
