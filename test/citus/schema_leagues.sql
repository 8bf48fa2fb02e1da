-- Many small leagues: a league per Citus distributed schema (schema-based
-- sharding, Citus 12+).  league_a is distributed by
-- citus.enable_schema_based_sharding when its schema is made, league_b by
-- citus_schema_distribute after its tables were filled; each is moved to
-- its own worker.  A plain copy of each (plain_a, plain_b) on the
-- coordinator is the single-node reference.  Every feature, in both
-- leagues: the extension (one CREATE EXTENSION), the period aggregate, the
-- guard (without citus.enable_unsafe_triggers on Citus 15) and a late game
-- refused after the close from every node, glicko2_close_period with history,
-- glicko2_close_matches, replay and recompute, glicko2_rate_game, the live
-- triggers (working on tables of the league's own schema, refused with the
-- reason when the ratings are elsewhere), all bit for bit against the
-- plain copies.
SET citus.next_shard_id = 197000;
SET TimeZone = 'UTC';
SET client_min_messages = warning;
\set SHOW_CONTEXT never
\getenv port CITUS_PORT
SELECT :port + 1 AS worker1, :port + 2 AS worker2 \gset
-- Not needed in a distributed schema since Citus 15 (it allows triggers
-- there); 14.x asks for it there too.
SELECT CASE WHEN split_part(extversion, '.', 1)::int >= 15 THEN 'off' ELSE 'on' END AS unsafe_triggers
FROM pg_extension WHERE extname = 'citus' \gset
SET citus.enable_unsafe_triggers = :unsafe_triggers;
CREATE SCHEMA schema_leagues;
SET search_path = schema_leagues, public;
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
-- A league's tables and rows, as statements run one by one at top level
-- (Citus makes a table created in a distributed schema one of its tables
-- only there, not inside a function): 60 players, 1-50 known (every 7th
-- NULL rated), 51-60 new; 400 games over periods 1-4; 120 two-against-two
-- matches over periods 1-2; the live tables empty.
CREATE FUNCTION league(s name) RETURNS SETOF text LANGUAGE sql AS $$
  SELECT format(x, s) FROM unnest(ARRAY[
    'CREATE TABLE %1$I.ratings (player_id int PRIMARY KEY, rating glicko2_rating)',
    'INSERT INTO %1$I.ratings SELECT i, CASE WHEN i %% 7 <> 0 THEN
       glicko2_rating(1300 + 400 * schema_leagues.u(i, 1), 50 + 250 * schema_leagues.u(i, 2), 0.05 + 0.02 * schema_leagues.u(i, 3)) END
     FROM generate_series(1, 50) i',
    'CREATE TABLE %1$I.games (game_id int PRIMARY KEY, period int, player_id int, opponent_id int, score float8)',
    'INSERT INTO %1$I.games SELECT g, 1 + g %% 4, a, CASE WHEN b >= a THEN b + 1 ELSE b END, floor(schema_leagues.u(g, 6) * 3) / 2
     FROM (SELECT g, 1 + floor(schema_leagues.u(g, 4) * 60)::int AS a, 1 + floor(schema_leagues.u(g, 5) * 59)::int AS b
           FROM generate_series(1, 400) g) x',
    'CREATE TABLE %1$I.history (player_id int, period int, rating glicko2_rating)',
    'CREATE TABLE %1$I.match_ratings (player_id int PRIMARY KEY, rating glicko2_rating)',
    'INSERT INTO %1$I.match_ratings SELECT * FROM %1$I.ratings',
    'CREATE TABLE %1$I.matches (match_id int, period int, player_id int, team int, place int)',
    'CREATE INDEX ON %1$I.matches (match_id)',
    'INSERT INTO %1$I.matches SELECT m, 1 + m %% 2, 1 + (m * 4 + k) %% 60, k / 2,
       CASE WHEN schema_leagues.u(m, 7) < 0.1 THEN 1 ELSE 1 + (k / 2 + (schema_leagues.u(m, 8) < 0.5)::int) %% 2 END
     FROM generate_series(1, 120) m, generate_series(0, 3) k',
    'CREATE TABLE %1$I.live_ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz)',
    'CREATE TABLE %1$I.live_games (game_id int, player_id int, opponent_id int, score float8, played_at timestamptz)',
    'CREATE TABLE %1$I.live_matches (match_id int, player_id int, team int, place int, played_at timestamptz)',
    'CREATE INDEX ON %1$I.live_matches (match_id)',
    'CREATE TABLE %1$I.live_match_ratings (LIKE %1$I.live_ratings INCLUDING ALL)']) WITH ORDINALITY t(x, n) ORDER BY n
$$;
-- One write ('accepted', or its SQLSTATE), undone either way.
CREATE FUNCTION attempt(sql text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE sql;
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'accepted';
EXCEPTION WHEN OTHERS THEN
  RETURN CASE WHEN SQLSTATE = 'P0001' THEN SQLERRM ELSE SQLSTATE END;
END $$;
-- A table's rows as one text (count and digest): equal texts, the same
-- bits (float8's text is the shortest that reads back as the same double).
CREATE FUNCTION rows_of(t text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE format('SELECT count(*) || '' rows '' || coalesce(md5(string_agg(x::text, '','' ORDER BY x::text)), '''')
                  FROM %s x', t) INTO r;
  RETURN r;
END $$;
-- Tables of a league equal to its plain copy's.
CREATE FUNCTION same(league name, plain name, VARIADIC tables name[])
RETURNS TABLE (tbl name, row_count bigint, equal boolean) LANGUAGE sql AS $$
  SELECT t, split_part(rows_of(format('%I.%I', league, t)), ' ', 1)::bigint,
         rows_of(format('%I.%I', league, t)) = rows_of(format('%I.%I', plain, t))
  FROM unnest(tables) t ORDER BY 1
$$;
-- The node that holds a table ('worker 1', 'worker 2').
CREATE FUNCTION node_of(t regclass) RETURNS text LANGUAGE sql AS $$
  SELECT 'worker ' || (nodeport - current_setting('port')::int)
  FROM pg_dist_shard JOIN pg_dist_shard_placement USING (shardid) WHERE logicalrelid = t
$$;

-- A league moved to the worker at port (unless it is there already).
CREATE FUNCTION place(league name, port int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  IF node_of(format('%I.ratings', league)::regclass) <> 'worker ' || (port - current_setting('port')::int) THEN
    PERFORM citus_schema_move(league::regnamespace, '127.0.0.1', port, shard_transfer_mode => 'block_writes');
  END IF;
  RETURN node_of(format('%I.ratings', league)::regclass);
END $$;

SET citus.enable_schema_based_sharding = off;
CREATE SCHEMA plain_a;
CREATE SCHEMA plain_b;
CREATE SCHEMA league_b;
\set ECHO none
SELECT league('plain_a') \gexec
SELECT league('plain_b') \gexec
SELECT league('league_b') \gexec
SET citus.enable_schema_based_sharding = on;
CREATE SCHEMA league_a;
SELECT league('league_a') \gexec
\set ECHO all
SET citus.enable_schema_based_sharding = off;
SELECT citus_schema_distribute('league_b');
-- Each league on its own worker.
SELECT place('league_a', :worker1), place('league_b', :worker2);
-- One co-location group per league, every table a single-shard table on
-- its league's worker; the plain copies are not Citus tables.
SELECT n.nspname AS schema, count(*) AS tables, count(DISTINCT p.colocationid) AS groups,
       bool_and(p.partmethod = 'n' AND p.repmodel = 's') AS single_shard,
       string_agg(DISTINCT node_of(c.oid), ', ') AS node
FROM pg_dist_schema d JOIN pg_namespace n ON n.oid = d.schemaid
JOIN pg_class c ON c.relnamespace = n.oid AND c.relkind = 'r'
JOIN pg_dist_partition p ON p.logicalrelid = c.oid
WHERE n.nspname IN ('league_a', 'league_b') GROUP BY 1 ORDER BY 1;
SELECT count(*) AS citus_tables_in_plain_copies FROM pg_dist_partition
WHERE logicalrelid::regclass::text ~ '^plain_';
-- The extension: installed once, on the coordinator; Citus put it on both
-- workers.
SELECT nodeport - :port AS worker, result AS glicko2 FROM run_command_on_workers(
  $$SELECT extversion FROM pg_extension WHERE extname = 'glicko2'$$) ORDER BY 1;

-- The period aggregate on a league's table (a router query on its
-- worker): the same bits as on the plain copy.
CREATE FUNCTION period_1(s name) RETURNS TABLE (player_id int, r glicko2_rating) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY EXECUTE format(
    'SELECT g.player_id, glicko2_period(p.rating, o.rating, g.score)
     FROM %1$I.games g LEFT JOIN %1$I.ratings p USING (player_id)
     LEFT JOIN %1$I.ratings o ON o.player_id = g.opponent_id
     WHERE g.period = 1 GROUP BY g.player_id', s);
END $$;
SELECT l, count(*) AS players, count(*) FILTER (WHERE x.r IS DISTINCT FROM y.r) AS differing
FROM (VALUES ('a')) v(l), period_1('league_a') x FULL JOIN period_1('plain_a') y USING (player_id) GROUP BY l
UNION ALL
SELECT 'b', count(*), count(*) FILTER (WHERE x.r IS DISTINCT FROM y.r)
FROM period_1('league_b') x FULL JOIN period_1('plain_b') y USING (player_id);

-- The guard (on Citus 15 without citus.enable_unsafe_triggers), on the
-- league's shard, reading the guard state there.
CALL glicko2_guard_games('league_a.games');
CALL glicko2_guard_games('league_b.games');
CALL glicko2_guard_games('plain_a.games');
CALL glicko2_guard_games('plain_b.games');
CALL glicko2_guard_games('league_a.matches');
CALL glicko2_guard_games('league_b.matches');
CALL glicko2_guard_games('plain_a.matches');
CALL glicko2_guard_games('plain_b.matches');
SELECT games, closed FROM glicko2_internal.glicko2_citus_guards WHERE games ~ '^league_' ORDER BY 1;
SELECT tgrelid::regclass AS guarded, string_agg(tgname, ', ' ORDER BY tgname) AS triggers
FROM pg_trigger WHERE tgfoid = 'glicko2_refuse_closed_games()'::regprocedure AND tgrelid::regclass::text ~ '^(league|plain)_'
GROUP BY 1 ORDER BY 1;

-- Periods 1 and 2 closed with history, in each league and its copy.
SELECT format('CALL glicko2_close_period(%L, %L, %s, max_rd => %s, history => %L)',
              s || '.ratings', s || '.games', p, CASE p WHEN 1 THEN '300' ELSE 'NULL' END, s || '.history')
FROM unnest('{league_a,plain_a,league_b,plain_b}'::text[]) s, generate_series(1, 2) p ORDER BY p, s \gexec
SELECT ratings, period, players, played, new_players, games, unguarded FROM glicko2_closes
WHERE ratings::text ~ '^(league|plain)_.\.ratings$' ORDER BY ratings::text, period;
SELECT games, closed FROM glicko2_internal.glicko2_citus_guards WHERE games ~ '^league_' ORDER BY 1;
SELECT 'a' AS l, * FROM same('league_a', 'plain_a', 'ratings', 'history')
UNION ALL SELECT 'b', * FROM same('league_b', 'plain_b', 'ratings', 'history');
-- A late game into period 2: refused.
\set VERBOSITY default
INSERT INTO league_a.games VALUES (1001, 2, 1, 2, 1);
\set VERBOSITY terse
-- An insert, an update into period 2, an update out of it and a delete of
-- a period-2 game, from the coordinator and from each worker, in both
-- leagues: 24 attempts, all refused; the same in open period 3 accepted.
CREATE TABLE attempts (origin text, league text, period int, write text, outcome text);
SELECT create_reference_table('attempts');
CREATE FUNCTION try_all(origin text) RETURNS void LANGUAGE plpgsql SET search_path = schema_leagues, public AS $$
DECLARE
  l text;
  p int;
  w record;
BEGIN
  FOREACH l IN ARRAY ARRAY['league_a', 'league_b'] LOOP
    FOREACH p IN ARRAY ARRAY[2, 3] LOOP
      FOR w IN SELECT * FROM (VALUES
          ('insert', format('INSERT INTO %I.games VALUES (1001, %s, 1, 2, 1)', l, p)),
          ('update into', format('UPDATE %I.games SET period = %s WHERE game_id = (SELECT min(game_id) FROM %1$I.games WHERE period = 4)', l, p)),
          ('update out', format('UPDATE %I.games SET period = 4 WHERE game_id = (SELECT min(game_id) FROM %1$I.games WHERE period = %s)', l, p)),
          ('delete', format('DELETE FROM %I.games WHERE game_id = (SELECT min(game_id) FROM %1$I.games WHERE period = %s)', l, p))) v(write, sql)
      LOOP
        INSERT INTO attempts VALUES (origin, l, p, w.write, attempt(w.sql));
      END LOOP;
    END LOOP;
  END LOOP;
END $$;
SELECT try_all('coordinator');
\c - - - :worker1
SET search_path = schema_leagues, public;
SELECT try_all('worker 1');
\c - - - :worker2
SET search_path = schema_leagues, public;
SELECT try_all('worker 2');
\c - - - :port
SET citus.enable_unsafe_triggers = :unsafe_triggers;
SET search_path = schema_leagues, public;
SET TimeZone = 'UTC';
SET client_min_messages = warning;
SELECT period, outcome, count(*) AS attempts, count(DISTINCT origin) AS origins, count(DISTINCT league) AS leagues,
       count(DISTINCT write) AS writes
FROM attempts GROUP BY 1, 2 ORDER BY 1, 2;
TRUNCATE league_a.games;
SELECT 'a' AS l, * FROM same('league_a', 'plain_a', 'games')
UNION ALL SELECT 'b', * FROM same('league_b', 'plain_b', 'games');

-- Team matches: glicko2_close_matches on the league's tables (a router
-- close on its worker), the same bits.
SELECT format('CALL glicko2_close_matches(%L, %L, %s, history => NULL)', s || '.match_ratings', s || '.matches', p)
FROM unnest('{league_a,plain_a,league_b,plain_b}'::text[]) s, generate_series(1, 2) p ORDER BY p, s \gexec
SELECT 'a' AS l, * FROM same('league_a', 'plain_a', 'match_ratings')
UNION ALL SELECT 'b', * FROM same('league_b', 'plain_b', 'match_ratings');
-- With a teammates store: refused on Citus tables, as for distributed ones.
CALL glicko2_teammates_create('league_a.teammates', 'league_a.match_ratings');
CALL glicko2_close_matches('league_a.match_ratings', 'league_a.matches', 3, teammates => 'league_a.teammates');

-- Replay (periods 1-2 again from the games) and recompute of period 2.
SELECT format('CALL glicko2_replay(%L, %L, max_rd => 300, history => %L, through => %L)',
              s || '.ratings', s || '.games', s || '.history', '2')
FROM unnest('{league_a,plain_a,league_b,plain_b}'::text[]) s \gexec
SELECT 'a' AS l, * FROM same('league_a', 'plain_a', 'ratings', 'history')
UNION ALL SELECT 'b', * FROM same('league_b', 'plain_b', 'ratings', 'history');
SELECT format('CALL glicko2_recompute(%L, %L, 2, %L)', s || '.ratings', s || '.games', s || '.history')
FROM unnest('{league_a,plain_a,league_b,plain_b}'::text[]) s \gexec
SELECT 'a' AS l, * FROM same('league_a', 'plain_a', 'ratings', 'history')
UNION ALL SELECT 'b', * FROM same('league_b', 'plain_b', 'ratings', 'history');

-- Live ratings.  The same 300 games rated four ways: in plain_a and
-- plain_b by the trigger glicko2_rate_games on one node; in league_a by
-- glicko2_rate_game, one call a game; in league_b by the trigger on the
-- league's own table (it runs on the league's worker and writes the
-- ratings there).  Half the games from the coordinator, half from the
-- worker that does not hold the league.
CREATE TABLE live (game_id int, player_id int, opponent_id int, score float8, played_at timestamptz);
INSERT INTO live
SELECT g, a, CASE WHEN b >= a THEN b + 1 ELSE b END, floor(u(g, 13) * 3) / 2,
       '2026-02-01'::timestamptz + g * interval '17 minutes'
FROM (SELECT g, 1 + floor(u(g, 11) * 30)::int AS a, 1 + floor(u(g, 12) * 29)::int AS b
      FROM generate_series(1, 300) g) x;
SELECT create_reference_table('live');
CREATE TRIGGER rate AFTER INSERT ON plain_a.live_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('plain_a.live_ratings', 'period=6 hours', 'max_rd=300');
CREATE TRIGGER rate AFTER INSERT ON plain_b.live_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('plain_b.live_ratings', 'period=6 hours', 'max_rd=300');
CREATE TRIGGER rate AFTER INSERT ON league_b.live_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('league_b.live_ratings', 'period=6 hours', 'max_rd=300');
INSERT INTO plain_a.live_games SELECT * FROM live ORDER BY game_id;
INSERT INTO plain_b.live_games SELECT * FROM live ORDER BY game_id;
\set ECHO none
\o /dev/null
SELECT format('BEGIN; SELECT glicko2_rate_game(%L, %s, %s, %s, %L, %L, %L); INSERT INTO league_a.live_games VALUES (%s, %s, %s, %s, %L); COMMIT',
              'league_a.live_ratings', player_id, opponent_id, score, played_at, 'period=6 hours', 'max_rd=300',
              game_id, player_id, opponent_id, score, played_at) FROM live WHERE game_id <= 150 ORDER BY game_id \gexec
SELECT format('INSERT INTO league_b.live_games VALUES (%s, %s, %s, %s, %L)', game_id, player_id, opponent_id, score, played_at)
FROM live WHERE game_id <= 150 ORDER BY game_id \gexec
\c - - - :worker2
SET search_path = schema_leagues, public;
SELECT format('BEGIN; SELECT glicko2_rate_game(%L, %s, %s, %s, %L, %L, %L); INSERT INTO league_a.live_games VALUES (%s, %s, %s, %s, %L); COMMIT',
              'league_a.live_ratings', player_id, opponent_id, score, played_at, 'period=6 hours', 'max_rd=300',
              game_id, player_id, opponent_id, score, played_at) FROM live WHERE game_id > 150 ORDER BY game_id \gexec
\c - - - :worker1
SET search_path = schema_leagues, public;
SELECT format('INSERT INTO league_b.live_games VALUES (%s, %s, %s, %s, %L)', game_id, player_id, opponent_id, score, played_at)
FROM live WHERE game_id > 150 ORDER BY game_id \gexec
\c - - - :port
SET citus.enable_unsafe_triggers = :unsafe_triggers;
\o
\set ECHO all
SET search_path = schema_leagues, public;
SET TimeZone = 'UTC';
SET client_min_messages = warning;
SELECT 'a' AS l, * FROM same('league_a', 'plain_a', 'live_ratings', 'live_games')
UNION ALL SELECT 'b', * FROM same('league_b', 'plain_b', 'live_ratings', 'live_games');
-- Team matches live: glicko2_rate_matches on the league's own table.
CREATE TRIGGER rate AFTER INSERT ON plain_b.live_matches REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('plain_b.live_match_ratings', 'period=6 hours');
CREATE TRIGGER rate AFTER INSERT ON league_b.live_matches REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('league_b.live_match_ratings', 'period=6 hours');
\set ECHO none
SELECT format('INSERT INTO %1$I.live_matches SELECT match_id, player_id, team, place, %2$L FROM %1$I.matches WHERE match_id = %3$s',
              s, '2026-03-01'::timestamptz + m * interval '1 hour', m)
FROM generate_series(1, 120) m, unnest('{plain_b,league_b}'::text[]) s ORDER BY m, s \gexec
\set ECHO all
SELECT 'b' AS l, * FROM same('league_b', 'plain_b', 'live_match_ratings', 'live_matches');
-- A live trigger whose ratings are outside its table's distributed schema
-- (another league's, on the other worker, or a plain table on the
-- coordinator) cannot reach them from the shard: refused, naming them.
\set VERBOSITY default
CREATE TRIGGER rate_elsewhere AFTER INSERT ON league_a.live_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('league_b.live_ratings', 'period=6 hours');
INSERT INTO league_a.live_games VALUES (0, 1, 2, 1, '2026-03-01');
DROP TRIGGER rate_elsewhere ON league_a.live_games;
\set VERBOSITY terse
CREATE TRIGGER rate_elsewhere AFTER INSERT ON league_a.live_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('plain_a.live_ratings', 'period=6 hours');
INSERT INTO league_a.live_games VALUES (0, 1, 2, 1, '2026-03-01');
DROP TRIGGER rate_elsewhere ON league_a.live_games;
SELECT 'a' AS l, * FROM same('league_a', 'plain_a', 'live_ratings', 'live_games');

-- A league moved to the other worker keeps its guard and its live trigger.
SELECT place('league_b', :worker1);
SELECT node_of('league_b.games') AS games, node_of('league_b.live_ratings') AS live_ratings;
SELECT attempt('INSERT INTO league_b.games VALUES (1001, 2, 1, 2, 1)') AS period_2,
       attempt('INSERT INTO league_b.games VALUES (1001, 3, 1, 2, 1)') AS period_3;
INSERT INTO league_b.live_games VALUES (301, 1, 2, 1, '2026-03-01');
INSERT INTO plain_b.live_games VALUES (301, 1, 2, 1, '2026-03-01');
SELECT 'b' AS l, * FROM same('league_b', 'plain_b', 'live_ratings', 'live_games');

DROP SCHEMA league_a, league_b, plain_a, plain_b, schema_leagues CASCADE;
DELETE FROM glicko2_internal.glicko2_citus_guards WHERE games ~ '^league_';
