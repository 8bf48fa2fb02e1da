#!/usr/bin/env bash
# bench/advantage.sh — what the home / first-move advantage costs, as ratios
# measured in one session, REPS runs of each statement interleaved:
#   the aggregate over 2M game sides (100 000 players): glicko2_period with 4
#   arguments, with 5 and advantage 0, with 5 and a per-row advantage, and
#   avg(score) by player as PostgreSQL's own reference aggregate;
#   the close's one pass (glicko2_close_ratings) over 1M games without and
#   with the advantage column.
# PostgreSQL's default settings (no tuning), in a throwaway cluster: the
# server PG_CONFIG names (tools/with-cluster.sh), else Debian's 15
# (pg_virtualenv).  Environment: REPS (7), PLAYERS (100000), GAMES (1000000).
set -euo pipefail
cd "$(dirname "$0")/.."
export REPS=${REPS:-7} PLAYERS=${PLAYERS:-100000} GAMES=${GAMES:-1000000}
if [ -z "${PG_CONFIG:-}" ]; then
  bash tools/ensure-deps.sh
  run=(pg_virtualenv)
else
  run=(bash tools/with-cluster.sh)
fi
make -s clean && make -s >/dev/null && make -s install >/dev/null
"${run[@]}" bash -c 'psql -X -q -v ON_ERROR_STOP=1 -v reps="$REPS" -v players="$PLAYERS" -v games="$GAMES"' <<'SQL'
SET client_min_messages = warning;
CREATE EXTENSION glicko2;
CREATE TABLE r AS
SELECT i AS player_id, glicko2_rating(1500 + (hashint4(i) % 300), 50 + abs(hashint4(i * 3) % 200)) AS rating
FROM generate_series(1, :players) i;
CREATE TABLE g AS
SELECT 1 + abs(hashint4(x) % :players) AS player_id,
       1 + abs(hashint4(x + 7777777) % :players) AS opponent_id,
       (abs(hashint4(x + 99)) % 3) / 2.0::float8 AS score,
       CASE x % 3 WHEN 0 THEN true WHEN 1 THEN false END AS home
FROM generate_series(1, :games) x;
DELETE FROM g WHERE player_id = opponent_id;
-- Both sides of every game with both pre-period ratings, so that the
-- aggregate statements differ only in the aggregate.
CREATE TABLE sides AS
SELECT g.player_id, me.rating AS me, them.rating AS them, g.score,
       CASE WHEN g.home THEN 80 WHEN NOT g.home THEN -80 ELSE 0 END::float8 AS adv
FROM g JOIN r me ON me.player_id = g.player_id JOIN r them ON them.player_id = g.opponent_id
UNION ALL
SELECT g.opponent_id, them.rating, me.rating, 1 - g.score,
       CASE WHEN g.home THEN -80 WHEN NOT g.home THEN 80 ELSE 0 END::float8
FROM g JOIN r me ON me.player_id = g.player_id JOIN r them ON them.player_id = g.opponent_id;
VACUUM ANALYZE r; VACUUM ANALYZE g; VACUUM ANALYZE sides;

CREATE TABLE q (ord serial, label text, sql text, reference text);
INSERT INTO q (label, sql, reference) VALUES
  ('avg(score) by player', 'SELECT count(*) FROM (SELECT player_id, avg(score) FROM sides GROUP BY 1) x', NULL),
  ('glicko2_period, 4 arguments', 'SELECT count(*) FROM (SELECT player_id, glicko2_period(me, them, score, 0.5) FROM sides GROUP BY 1) x', 'avg(score) by player'),
  ('glicko2_period, advantage 0', 'SELECT count(*) FROM (SELECT player_id, glicko2_period(me, them, score, 0.5, 0) FROM sides GROUP BY 1) x', 'glicko2_period, 4 arguments'),
  ('glicko2_period, advantage per row', 'SELECT count(*) FROM (SELECT player_id, glicko2_period(me, them, score, 0.5, adv) FROM sides GROUP BY 1) x', 'glicko2_period, 4 arguments'),
  ('close pass, no advantage', $$SELECT count(*) FROM glicko2_close_ratings('SELECT player_id, rating FROM r', 'SELECT player_id, opponent_id, score FROM g', 0.5, 350, 'bench') AS c(player int, rating glicko2_rating, games bigint, is_new boolean)$$, NULL),
  ('close pass, advantage column', $$SELECT count(*) FROM glicko2_close_ratings('SELECT player_id, rating FROM r', 'SELECT player_id, opponent_id, score, CASE WHEN home THEN 80::float8 WHEN NOT home THEN -80::float8 ELSE 0::float8 END FROM g', 0.5, 350, 'bench') AS c(player int, rating glicko2_rating, games bigint, is_new boolean)$$, 'close pass, no advantage');
CREATE TABLE t (label text, rep int, ms float8);
SET bench.reps = :'reps';
DO $$
DECLARE
  t0 timestamptz;
  x record;
BEGIN
  FOR rep IN 1 .. current_setting('bench.reps')::int LOOP
    -- forwards, then backwards: no statement always runs after the same one
    FOR x IN SELECT * FROM q ORDER BY CASE WHEN rep % 2 = 0 THEN -ord ELSE ord END LOOP
      t0 := clock_timestamp();
      EXECUTE x.sql;
      INSERT INTO t VALUES (x.label, rep, extract(epoch FROM clock_timestamp() - t0) * 1000);
    END LOOP;
  END LOOP;
END
$$;
\echo :players players, :games games, :reps runs each (median), PostgreSQL defaults
WITH m AS (SELECT label, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM t GROUP BY label)
SELECT q.label, round(m.ms::numeric, 1) AS median_ms, q.reference AS against,
       round((m.ms / ref.ms)::numeric, 3) AS ratio
FROM q JOIN m USING (label) LEFT JOIN m ref ON ref.label = q.reference
ORDER BY q.ord;
SQL
