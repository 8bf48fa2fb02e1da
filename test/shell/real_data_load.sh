#!/usr/bin/env bash
# real_data_load.sh — examples/load_real_games.sh extracts both data sets from
# Debian's r-cran-bradleyterry2 whole: the counts its documentation and
# issue 13 give (1083 hockey games of 58 teams with 125 ties; 1900 EPL
# matches, 5 seasons of 20 teams each playing every other home and away),
# results that agree with the goals, and the views glicko2_evaluate reads.
set -euo pipefail
cd "$(dirname "$0")/../.."
db=glicko2_real_data
trap 'dropdb --if-exists "$db"' EXIT
dropdb --if-exists "$db"
createdb "$db"
PGOPTIONS="-c client_min_messages=warning" bash examples/load_real_games.sh -d "$db"

got=$(psql -X -At -F ' ' -d "$db" <<'SQL'
SELECT 'hockey', count(*), sum((result = 0.5)::int),
       sum((NOT home_ice)::int), min(date), max(date),
       count(*) FILTER (WHERE result <> CASE WHEN v_goals > o_goals THEN 1
                                             WHEN v_goals < o_goals THEN 0 ELSE 0.5 END)
FROM real_games.hockey;
SELECT 'hockey_teams', count(DISTINCT t)
FROM real_games.hockey, LATERAL (VALUES (visitor), (opponent)) u(t);
SELECT 'epl', count(*), count(DISTINCT season), sum((result = 1)::int),
       sum((result = 0)::int), sum((result = -1)::int) FROM real_games.epl;
SELECT 'epl_teams', count(DISTINCT t) FROM real_games.epl, LATERAL (VALUES (home), (away)) u(t);
-- every season: 20 teams, 380 matches, each ordered pair once
SELECT 'epl_seasons', count(*) FILTER (WHERE n = 380 AND teams = 20 AND pairs = 380)
FROM (SELECT season, count(*) n, count(DISTINCT home) teams, count(DISTINCT (home, away)) pairs
      FROM real_games.epl GROUP BY season) s;
SELECT 'hockey_games', count(*), count(DISTINCT period), sum(score), count(home), bool_or(home)
FROM real_games.hockey_games;
SELECT 'epl_games', count(*), count(DISTINCT period), sum(score), bool_and(home) FROM real_games.epl_games;
SQL
)
echo "$got"
want='hockey 1083 125 69 2009-10-08 2010-03-20 0
hockey_teams 58
epl 1900 5 882 505 513
epl_teams 29
epl_seasons 5
hockey_games 1083 23 428.5 1014 f
epl_games 1900 5 1134.5 t'
if [ "$got" != "$want" ]; then
  echo "expected:"; echo "$want"; exit 1
fi
echo "real data loaded as expected"
