#!/usr/bin/env bash
# indent.sh [--check] [FILE...] — the project's C laid out as PostgreSQL lays
# out its own: pg_bsd_indent (Debian's pg-bsd-indent, the indenter pgindent
# runs) with pgindent's options (tabs of 4, braces on their own lines,
# declarations' names at column 12, comments filled to 79 columns).
# Without FILEs: every .c and .h file git tracks.  make indent runs it;
# --check (make indent-check) changes nothing, prints the difference and
# fails if a file is not laid out so.
#
# pg_bsd_indent must know which names are types.  The list is made here, each
# run: the typedefs the built objects' debug information records (those of
# PostgreSQL's headers that the code uses, and its own), the names the
# project's files declare with typedef, and the C library's few that only
# fuzz/ and test/unit/ use.  So the objects must be built first, with -g, as
# pg_config's CFLAGS have it (make indent does).
set -euo pipefail
cd "$(dirname "$0")/.."

check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
if ! command -v pg_bsd_indent >/dev/null; then
  echo "pg_bsd_indent not found: apt-get install pg-bsd-indent (tools/ensure-deps.sh installs it)" >&2
  exit 2
fi
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(git ls-files '*.c' '*.h'); fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The type names.
{
  for o in src/*.o src/core/*.o; do
    [ -f "$o" ] && objdump --dwarf=info "$o" 2>/dev/null |
      awk '/DW_TAG_typedef/ { t = 1; next } t && /DW_AT_name/ { print $NF; t = 0 }'
  done
  git ls-files '*.c' '*.h' | xargs cat -- "${files[@]}" | perl -ne '
    if (/^\s*typedef\b[^;]*\(\s*\*\s*(\w+)\s*\)/) { print "$1\n"; next }
    if (/^\s*typedef\b[^;{(]*?\b(\w+)\s*(\[[^\]]*\])?\s*;/) { print "$1\n"; next }
    if (/^\s*}\s*(\w+)\s*;/) { print "$1\n" }'
  printf '%s\n' bool size_t ssize_t ptrdiff_t intptr_t uintptr_t FILE va_list \
    int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t
} | sort -u >"$work/typedefs"
if ! grep -qx Datum "$work/typedefs"; then
  echo "no PostgreSQL typedefs in src/*.o: build first (make), with -g in CFLAGS" >&2
  exit 2
fi

# pgindent's options.
options=(-bad -bap -bbb -bc -bl -cli1 -cp33 -cdb -nce -d0 -di12 -nfc1 -i4 -l79
         -lp -lpl -nip -npro -sac -tpg -ts4 "-U$work/typedefs")

bad=0
for f in "${files[@]}"; do
  if ! pg_bsd_indent "${options[@]}" "$f" "$work/out" 2>"$work/err" || [ -s "$work/err" ]; then
    echo "$f: pg_bsd_indent: $(cat "$work/err")" >&2
    bad=1
    continue
  fi
  # A function definition's return type alone on its line ends "type *", as
  # in PostgreSQL's sources, not padded to the declarations' column.
  perl -0pe 's/^((?:static |extern |const )*[A-Za-z_]\w*)[ \t]+(\*+)\n(?=[A-Za-z_]\w*\()/$1 $2\n/mg' \
    "$work/out" >"$work/laid"
  if cmp -s "$f" "$work/laid"; then continue; fi
  if [ $check -eq 1 ]; then
    diff -u "$f" "$work/laid" | sed "2s|$work/laid|$f (as tools/indent.sh lays it out)|" || true
    bad=1
  else
    cp "$work/laid" "$f"
    echo "indented $f"
  fi
done
if [ $check -eq 1 ] && [ $bad -ne 0 ]; then
  echo "C not laid out as PostgreSQL's (make indent lays it out)" >&2
fi
exit $bad
