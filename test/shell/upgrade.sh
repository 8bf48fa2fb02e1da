#!/usr/bin/env bash
# upgrade.sh — install the oldest version of glicko2 that has an install
# path, ALTER EXTENSION glicko2 UPDATE to the default version, and check:
#   - the update reaches the default version;
#   - the upgraded extension has exactly the objects, with the same
#     definitions, as a fresh install of the default version;
#   - queries give the same results as on the fresh install.
# Trivial while there is one version; it exists before the second one does.
# Run by test.sh inside the throwaway cluster (PGHOST/PGPORT set).
set -euo pipefail
old=glicko2_upgrade_old
new=glicko2_upgrade_new
work=$(mktemp -d)
trap 'rm -rf "$work"; dropdb --if-exists "$old"; dropdb --if-exists "$new"' EXIT
q() { psql -X -q -At -v ON_ERROR_STOP=1 -d "$1" "${@:2}"; }
dropdb --if-exists "$old" 2>/dev/null; dropdb --if-exists "$new" 2>/dev/null
createdb "$old"; createdb "$new"

default=$(q postgres -c "SELECT default_version FROM pg_available_extensions WHERE name = 'glicko2'")
oldest=$(q postgres -c "SELECT version FROM pg_available_extension_versions WHERE name = 'glicko2'" | sort -V | head -1)
echo "oldest $oldest, default $default"

q "$old" -c "CREATE EXTENSION glicko2 VERSION '$oldest'"
q "$old" -c "ALTER EXTENSION glicko2 UPDATE" 2>&1 | grep -v 'already installed' || true
q "$new" -c "CREATE EXTENSION glicko2"
[ "$(q "$old" -c "SELECT extversion FROM pg_extension WHERE extname = 'glicko2'")" = "$default" ] ||
  { echo "update did not reach $default"; exit 1; }

# Every member object with its definition (functions in full, aggregates by
# their support functions, types by their columns, tables by their columns).
objects() {
  q "$1" <<'SQL'
SELECT pg_describe_object(d.classid, d.objid, 0) || ' | ' ||
       coalesce(CASE d.classid
         WHEN 'pg_proc'::regclass THEN
           CASE WHEN p.prokind = 'a'
                THEN (SELECT format('%s %s %s %s %s %s', a.aggtransfn, a.aggfinalfn, a.aggcombinefn,
                                    a.aggserialfn, a.aggdeserialfn, a.aggtranstype::regtype)
                      FROM pg_aggregate a WHERE a.aggfnoid = p.oid)
                ELSE pg_get_functiondef(p.oid) END
           || ' ' || coalesce(obj_description(p.oid, 'pg_proc'), '(no comment)')
         WHEN 'pg_type'::regclass THEN
           (SELECT string_agg(format('%s %s', a.attname, a.atttypid::regtype), ', ' ORDER BY a.attnum)
            FROM pg_type t JOIN pg_attribute a ON a.attrelid = t.typrelid AND a.attnum > 0
            WHERE t.oid = d.objid)
         WHEN 'pg_class'::regclass THEN
           (SELECT string_agg(format('%s %s %s', a.attname, a.atttypid::regtype, a.attnotnull), ', ' ORDER BY a.attnum)
            FROM pg_attribute a WHERE a.attrelid = d.objid AND a.attnum > 0 AND NOT a.attisdropped)
       END, '')
FROM pg_depend d
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'glicko2'
LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
WHERE d.deptype = 'e' AND d.refclassid = 'pg_extension'::regclass
ORDER BY 1;
SQL
}
objects "$old" >"$work/old.objects"
objects "$new" >"$work/new.objects"
if ! diff -u "$work/new.objects" "$work/old.objects"; then
  echo "the upgraded extension differs from a fresh install of $default"; exit 1
fi

results() {
  q "$1" <<'SQL'
SELECT glicko2_period(glicko2_rating(1500, 200, 0.06), o, s)
FROM (VALUES (glicko2_rating(1400, 30), 1::float8), (glicko2_rating(1550, 100), 0), (glicko2_rating(1700, 300), 0)) g(o, s);
SELECT glicko2_period(glicko2_rating(1500, 200, 0.06), glicko2_rating(1400, 30), 1, 1.2);
SELECT glicko1_period(glicko1_rating(1500, 200), o, s)
FROM (VALUES (glicko1_rating(1400, 30), 1::float8), (glicko1_rating(1550, 100), 0), (glicko1_rating(1700, 300), 0)) g(o, s);
SELECT glicko2_idle(glicko2_rating(1500, 200, 0.06), 2.5), glicko1_idle(glicko1_rating(1500, 50), 3);
SELECT glicko2_expected(glicko2_rating(1500, 200), glicko2_rating(1400, 30)),
       glicko2_win_probability(glicko2_rating(1500, 200), glicko2_rating(1400, 30)), glicko2_g(300);
SQL
}
results "$old" >"$work/old.results"
results "$new" >"$work/new.results"
diff -u "$work/new.results" "$work/old.results" || { echo "results differ after the update"; exit 1; }
echo "upgrade $oldest -> $default: objects ($(wc -l <"$work/new.objects") lines of definitions) and results identical"
