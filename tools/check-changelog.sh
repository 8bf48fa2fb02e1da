#!/usr/bin/env bash
# check-changelog.sh [CHANGELOG [CONTROL]] — CHANGELOG.md stays one record of
# each version (run by test.sh): no line over 80 characters (the rule Citus's
# ci/disallow_long_changelog_entries.sh keeps), one "## VERSION" section per
# version, and the newest (first) section is the control file's
# default_version.
set -uo pipefail
export LC_ALL=C.UTF-8          # ${#line} counts characters, not bytes
file=${1:-CHANGELOG.md}
control=${2:-glicko2.control}
status=0
n=0
while IFS= read -r line || [ -n "$line" ]; do
  n=$((n + 1))
  if [ "${#line}" -gt 80 ]; then
    echo "$file:$n: ${#line} characters, at most 80: $line"; status=1
  fi
done <"$file"
versions=$(sed -nE 's/^## +([^ ]+).*/\1/p' "$file")
twice=$(sort <<<"$versions" | uniq -d)
if [ -n "$twice" ]; then
  echo "$file: more than one section for version $(echo $twice)"; status=1
fi
want=$(sed -nE "s/^default_version *= *'([^']*)'.*/\1/p" "$control")
if [ "$(head -n 1 <<<"$versions")" != "$want" ]; then
  echo "$file: the first section is '$(head -n 1 <<<"$versions")', not $control's default_version '$want'"; status=1
fi
exit $status
