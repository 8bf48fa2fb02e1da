#!/usr/bin/env bash
# readme_examples.sh — every ```sql block of README.md and docs/*.md runs as
# written.  Each file gets a fresh database; its blocks run in order, each in
# its own psql session (a block's error fails the test, naming the file and
# line).  README.md starts from an empty database, as a new user does, and so
# creates the extension itself; a docs/ file starts with the extension.
#
# Markers, in the Markdown (invisible on GitHub):
#   <!-- no-run -->   on the line before a fence: the block is a fragment
#                     (a signature, a sketch with placeholders); it is skipped.
#   <!-- sql ... -->  a hidden block of SQL run at that point (the tables a
#                     docs example reads).
#   A ```sql block followed by a ```text block: the text is psql's output of
#   that block (psql's aligned format, -q, without the "(N rows)" footer) and
#   must match it, but for blanks at the ends of lines and blank last lines.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
dbs=()
cleanup() { for d in "${dbs[@]}"; do dropdb --if-exists "$d" >/dev/null 2>&1 || true; done; rm -rf "$work"; }
trap cleanup EXIT

# DOC_FILES: only these files (while writing one).
files=(${DOC_FILES:-README.md docs/*.md})
failed=0
ran=0
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  name=$(basename "$f" .md | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '_')
  db=glicko2_doc_$name
  dbs+=("$db")
  dropdb --if-exists "$db" >/dev/null 2>&1
  createdb "$db"
  [ "$f" = README.md ] || psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c 'CREATE EXTENSION glicko2' >/dev/null
  dir=$work/$name
  mkdir -p "$dir"
  # Split the file into numbered blocks: NNNN.sql (to run), NNNN.expected
  # (its output, if shown), NNNN.line (where it starts).
  python3 - "$f" "$dir" <<'PY'
import re, sys
path, out = sys.argv[1], sys.argv[2]
lines = open(path, encoding='utf-8').read().split('\n')
blocks = []          # (line, sql, expected or None)
i, n = 0, len(lines)
def prev_nonblank(k):
    k -= 1
    while k >= 0 and not lines[k].strip():
        k -= 1
    return lines[k].strip() if k >= 0 else ''
while i < n:
    s = lines[i]
    m = re.match(r'^(\s*)```sql\s*$', s)
    if s.strip().startswith('<!-- sql'):
        start = i
        body = [s.strip()[len('<!-- sql'):]]
        while '-->' not in lines[i]:
            i += 1
            body.append(lines[i])
        body[-1] = body[-1][:body[-1].index('-->')]
        if len(body) == 1:
            body[0] = body[0][:body[0].index('-->')]
        blocks.append((start + 1, '\n'.join(body), None))
        i += 1
        continue
    if m:
        indent = len(m.group(1))
        skip = prev_nonblank(i) == '<!-- no-run -->'
        start = i
        i += 1
        body = []
        while not re.match(r'^\s*```\s*$', lines[i]):
            body.append(lines[i][indent:] if lines[i][:indent].strip() == '' else lines[i])
            i += 1
        i += 1
        expected = None
        k = i
        while k < n and not lines[k].strip():
            k += 1
        if k < n and re.match(r'^\s*```text\s*$', lines[k]):
            k += 1
            exp = []
            while not re.match(r'^\s*```\s*$', lines[k]):
                exp.append(lines[k][indent:] if lines[k][:indent].strip() == '' else lines[k])
                k += 1
            expected = '\n'.join(exp)
            i = k + 1
        if not skip:
            blocks.append((start + 1, '\n'.join(body), expected))
        continue
    i += 1
for j, (line, sql, expected) in enumerate(blocks):
    base = '%s/%04d' % (out, j)
    open(base + '.sql', 'w').write(sql + '\n')
    open(base + '.line', 'w').write(str(line))
    if expected is not None:
        open(base + '.expected', 'w').write(expected + '\n')
PY
  for b in "$dir"/*.sql; do
    [ -e "$b" ] || continue
    base=${b%.sql}
    line=$(cat "$base.line")
    ran=$((ran + 1))
    if ! psql -X -q -P footer=off -v ON_ERROR_STOP=1 -d "$db" -f "$b" >"$base.out" 2>"$base.err"; then
      echo "FAILED: $f:$line"; cat "$b"; cat "$base.err"; failed=$((failed + 1)); continue
    fi
    if [ -s "$base.err" ] && grep -q 'ERROR' "$base.err"; then
      echo "FAILED: $f:$line reported an error"; cat "$base.err"; failed=$((failed + 1)); continue
    fi
    # DOC_FILL=DIR (while writing): the output of each block whose text block
    # is still empty goes to DIR, for the writer to paste.
    if [ -n "${DOC_FILL:-}" ] && [ -e "$base.expected" ] && [ -z "$(tr -d '[:space:]' <"$base.expected")" ]; then
      cp "$base.out" "$DOC_FILL/$(echo "$f" | tr / _):$line"; continue
    fi
    if [ -e "$base.expected" ]; then
      # psql pads the last column and ends with a blank line.
      trim() { sed 's/[[:space:]]*$//' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
      if ! diff -u <(trim "$base.expected") <(trim "$base.out") >"$base.diff"; then
        echo "FAILED: $f:$line: output differs from the text block after it"; cat "$base.diff"; failed=$((failed + 1))
      fi
    fi
  done
done

# The getting-started reaches a leaderboard with intervals: README.md's
# ratings table was filled by its close, and the guard is on its games.
if [[ " ${files[*]} " == *" README.md "* ]]; then
[ "$(psql -X -At -d glicko2_doc_readme -c "SELECT count(*) > 0 FROM ratings")" = t ] ||
  { echo "FAILED: README's close rated nobody"; failed=$((failed + 1)); }
[ "$(psql -X -At -d glicko2_doc_readme -c "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'games'::regclass AND tgfoid = 'glicko2_refuse_closed_games'::regproc")" = 2 ] ||
  { echo "FAILED: README's games table is not guarded"; failed=$((failed + 1)); }
fi

# docs/reference.md names every object of the extension: each routine,
# type, table, event trigger and schema that CREATE EXTENSION makes (not the
# array type PostgreSQL makes for each type, a member too since 17).
if [[ " ${files[*]} " == *" docs/reference.md "* ]]; then
  missing=$(psql -X -At -d glicko2_doc_reference -c "
    SELECT DISTINCT coalesce(p.proname::text, t.typname::text, c.relname::text, e.evtname::text,
                             n.nspname::text)
    FROM pg_depend d
    LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
    LEFT JOIN pg_type t ON d.classid = 'pg_type'::regclass AND t.oid = d.objid
    LEFT JOIN pg_class c ON d.classid = 'pg_class'::regclass AND c.oid = d.objid
    LEFT JOIN pg_event_trigger e ON d.classid = 'pg_event_trigger'::regclass AND e.oid = d.objid
    LEFT JOIN pg_namespace n ON d.classid = 'pg_namespace'::regclass AND n.oid = d.objid
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
      AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'glicko2')
      AND NOT EXISTS (SELECT 1 FROM pg_type e
                      WHERE d.classid = 'pg_type'::regclass AND e.typarray = d.objid)
    ORDER BY 1" | while read -r name; do
      if [ -n "$name" ] && ! grep -q "\b$name\b" docs/reference.md; then echo "$name"; fi; done)
  if [ -n "$missing" ]; then
    echo "FAILED: docs/reference.md does not name: $missing"; failed=$((failed + 1))
  fi
fi

echo "$ran blocks run, $failed failed"
[ "$failed" -eq 0 ] && [ "$ran" -gt 0 ]
