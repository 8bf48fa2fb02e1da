#!/usr/bin/env bash
# check-contributing.sh [CONTRIBUTING [TESTDIR]] — CONTRIBUTING.md's table of
# test/ names every test there is and no test there is not (run by test.sh):
# the names in backquotes of the rows `sql/NAME.sql` (pg_regress),
# `specs/*.spec` (isolation), `shell/*.sh` and `unit/` against the files of
# test/sql, test/specs, test/shell and test/unit (its sources: *.c, *.h, *.py).
set -uo pipefail
doc=${1:-CONTRIBUTING.md}
dir=${2:-test}
status=0
# The names in backquotes of the row whose first cell starts with `KEY`,
# that cell left out: plain names only (not paths, not commands).
listed() {
  grep -m 1 -F "| \`$1\`" "$doc" | cut -d '|' -f 3- | grep -o '`[^` ]*`' | tr -d '`' | grep -v / | sort -u
}
check() { # key subdirectory glob suffix-to-strip
  local key=$1 sub=$2 glob=$3 strip=$4 names files
  names=$(listed "$key")
  files=$(cd "$dir/$sub" && for f in $glob; do [ -e "$f" ] && echo "${f%"$strip"}"; done | sort -u)
  if [ -z "$names" ]; then
    echo "$doc: no row \`$key\` naming the tests of $dir/$sub"; status=1; return
  fi
  for f in $(comm -13 <(echo "$names") <(echo "$files")); do
    echo "$doc does not name $dir/$sub/$f$strip (row \`$key\`)"; status=1
  done
  for n in $(comm -23 <(echo "$names") <(echo "$files")); do
    echo "$doc names $n (row \`$key\`), which $dir/$sub does not hold"; status=1
  done
}
check 'sql/NAME.sql' sql '*.sql' .sql
check 'specs/*.spec' specs '*.spec' .spec
check 'shell/*.sh' shell '*.sh' .sh
check 'unit/' unit '*.c *.h *.py' ''
exit $status
