#!/usr/bin/env bash
# load_real_games.sh [PSQL ARGS...] — load the NCAA ice hockey 2009-10 and
# English Premier League 2008-13 results from Debian's r-cran-bradleyterry2
# into schema real_games (dropped and made again) of the database psql
# connects to.  Needs the Debian packages r-cran-bradleyterry2 and
# python3-rdata (bash tools/ensure-deps.sh r-cran-bradleyterry2 python3-rdata).
set -euo pipefail
here=$(dirname "$0")
# Debian's python3, which has python3-rdata (not another python3 on PATH).
/usr/bin/python3 "$here/real_games.py" | psql -X -q -v ON_ERROR_STOP=1 "$@"
