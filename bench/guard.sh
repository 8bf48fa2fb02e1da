#!/usr/bin/env bash
# bench/guard.sh — what the guard trigger (glicko2_refuse_closed_games)
# costs a writer of games, as ratios against the same writes without it, in
# the same rounds: a bulk INSERT ... SELECT of ROWS games (the guard reads
# the closes once per statement, then compares each row's period), SINGLE
# one-row INSERT statements (each statement reads the closes again), into a
# plain table and into a table partitioned by period (10 partitions), and
# the guard as it was before it moved to C (PL/pgSQL: one query and one
# dynamic statement per row) for reference.  Every guarded table has a
# closed period, so the guard compares every row; the writes go to open
# periods and are rolled back.  Runs once with PostgreSQL's default
# settings and once tuned (shared_buffers, no fsync, no synchronous
# commit), each in a throwaway cluster of the server PG_CONFIG names.
#
# Environment: PG_CONFIG (pg_config), ROWS (200000), SINGLE (5000), REPS (5),
# PORT (55433).  Prints the medians (ms) and the median of per-round ratios.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_CONFIG=${PG_CONFIG:-pg_config}
ROWS=${ROWS:-200000}
SINGLE=${SINGLE:-5000}
REPS=${REPS:-5}
PORT=${PORT:-55433}

make -s PG_CONFIG="$PG_CONFIG" >/dev/null
make -s install PG_CONFIG="$PG_CONFIG" >/dev/null
bindir=$("$PG_CONFIG" --bindir)
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

run() { # label, extra server options
  local label=$1 opts=$2 dir
  dir=$(mktemp -d /tmp/glicko2-guard-bench.XXXXXX)
  chmod 755 "$dir"
  [ "$(id -u)" -eq 0 ] && chown postgres "$dir"
  as_pg "$bindir/initdb" -D "$dir/data" -A trust -U postgres >/dev/null
  as_pg "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
    -o "-p $PORT -k $dir -c listen_addresses= $opts" start >/dev/null
  # shellcheck disable=SC2064
  trap "as_pg '$bindir/pg_ctl' -D '$dir/data' -m fast stop >/dev/null || true; rm -rf '$dir'" EXIT
  echo "== $label settings${opts:+ ($opts)}"
  "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$PORT" -U postgres -d postgres \
    -v rows="$ROWS" -v single="$SINGLE" -v reps="$REPS" <<'SQL'
CREATE EXTENSION glicko2;
SET client_min_messages = warning;
CREATE SCHEMA bench;
SET search_path = bench, public;
CREATE TABLE r (player_id int PRIMARY KEY, rating glicko2_rating);

-- The guard before it moved to C, for reference (PL/pgSQL, one query on
-- glicko2_closes and one dynamic statement per row).
CREATE FUNCTION plpgsql_guard() RETURNS trigger LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  last record;
  game record;
  is_closed boolean;
BEGIN
  FOR last IN
    SELECT DISTINCT ON (c.ratings) c.ratings, c.period FROM public.glicko2_closes c
    WHERE c.games_table = TG_RELID ORDER BY c.ratings, c.close_number DESC
  LOOP
    FOREACH game IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW]
                                     WHEN 'DELETE' THEN ARRAY[OLD] ELSE ARRAY[OLD, NEW] END LOOP
      EXECUTE 'SELECT ($1).period <= CAST($2 AS integer)' INTO is_closed USING game, last.period;
      IF is_closed THEN
        RAISE EXCEPTION 'refused' USING ERRCODE = '55000';
      END IF;
    END LOOP;
  END LOOP;
  RETURN NEW;
END
$$;

-- Tables: plain and partitioned by period, each without and with the guard;
-- each guarded table has period 1 closed.
CREATE FUNCTION make(name text, partitioned boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE %I (period int, player_id int, opponent_id int, score float8)%s',
                 name, CASE WHEN partitioned THEN ' PARTITION BY RANGE (period)' ELSE '' END);
  IF partitioned THEN
    FOR p IN 1 .. 10 LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%s) TO (%s)',
                     name || '_' || p, name, p, p + 1);
    END LOOP;
  END IF;
END
$$;
SELECT make('plain', false), make('guarded', false), make('plpgsql', false),
       make('part', true), make('part_guarded', true) \g /dev/null
CALL glicko2_guard_games('guarded');
CALL glicko2_guard_games('part_guarded');
CREATE TRIGGER old_guard BEFORE INSERT OR UPDATE OR DELETE ON plpgsql
  FOR EACH ROW EXECUTE FUNCTION plpgsql_guard();
INSERT INTO guarded VALUES (1, 1, 2, 1);
INSERT INTO part_guarded VALUES (1, 1, 2, 1);
INSERT INTO plpgsql VALUES (1, 1, 2, 1);
CREATE TABLE r2 (LIKE r INCLUDING ALL);
CREATE TABLE r3 (LIKE r INCLUDING ALL);
CALL glicko2_close_period('r', 'guarded', 1);
CALL glicko2_close_period('r2', 'part_guarded', 1);
CALL glicko2_close_period('r3', 'plpgsql', 1, unguarded => true);

-- Milliseconds of one write, rolled back (a subtransaction).
CREATE FUNCTION timed(target text, kind text, n int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
  t0 timestamptz;
  ms float8;
BEGIN
  BEGIN
    t0 := clock_timestamp();
    IF kind = 'bulk' THEN
      EXECUTE format('INSERT INTO %I SELECT 2 + i %% 9, i %% 1000, (i + 1) %% 1000, 0.5 FROM generate_series(1, $1) i', target)
        USING n;
    ELSE
      FOR i IN 1 .. n LOOP
        EXECUTE format('INSERT INTO %I VALUES ($1, $2, $3, 0.5)', target) USING 2 + i % 9, i % 1000, (i + 1) % 1000;
      END LOOP;
    END IF;
    ms := 1000 * extract(epoch FROM clock_timestamp() - t0);
    RAISE EXCEPTION 'roll back' USING ERRCODE = 'P0001';
  EXCEPTION WHEN raise_exception THEN
    RETURN ms;
  END;
END
$$;

-- (warm-up)
SELECT timed('plain', 'bulk', 1000), timed('guarded', 'bulk', 1000) \g /dev/null
SQL
  "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$PORT" -U postgres -d postgres \
    -v rows="$ROWS" -v single="$SINGLE" -v reps="$REPS" <<'SQL'
SET search_path = bench, public;
-- Interleaved rounds: every write once per round, in the same order.
SELECT r AS round, k.kind, t.target,
       timed(t.target, k.kind, CASE k.kind WHEN 'bulk' THEN :rows ELSE :single END) AS ms
INTO TEMP results
FROM generate_series(1, :reps) r,
     (VALUES (1, 'bulk'), (2, 'single')) k(o, kind),
     (VALUES (1, 'plain', 'plain'), (2, 'guarded', 'plain'), (3, 'part', 'part'),
             (4, 'part_guarded', 'part'), (5, 'plpgsql', 'plain')) t(o, target, reference)
WHERE NOT (k.kind = 'bulk' AND t.target = 'plpgsql' AND r > 1)   -- (slow: one round)
ORDER BY r, k.o, t.o;
\echo 'median ms of each write, and the median over rounds of its ratio to the same write without a guard'
SELECT k.kind AS write, k.target AS "table",
       CASE k.kind WHEN 'bulk' THEN :rows ELSE :single END AS rows,
       count(*) AS rounds,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY k.ms)::numeric, 1) AS median_ms,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY k.ms / b.ms)::numeric, 2) AS ratio
FROM results k
JOIN results b ON b.round = k.round AND b.kind = k.kind
              AND b.target = CASE WHEN k.target LIKE 'part%' THEN 'part' ELSE 'plain' END
GROUP BY k.kind, k.target
ORDER BY k.kind, min(CASE k.target WHEN 'plain' THEN 1 WHEN 'guarded' THEN 2 WHEN 'part' THEN 3
                                   WHEN 'part_guarded' THEN 4 ELSE 5 END);
SQL
  as_pg "$bindir/pg_ctl" -D "$dir/data" -m fast stop >/dev/null
  rm -rf "$dir"
  trap - EXIT
}

echo "glicko2 guard trigger: ROWS=$ROWS SINGLE=$SINGLE REPS=$REPS, $("$bindir/postgres" --version), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
run default ""
run tuned "-c shared_buffers=1GB -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_wal_size=10GB -c jit=off"
