-- glicko2_rate_game on Citus: the ratings distributed by player over 32
-- shards, games rated from the coordinator and from a worker; the same
-- ratings bit for bit as the trigger glicko2_rate_games on a plain table
-- rating the same games; all or nothing across nodes; bad games refused;
-- the live trigger for team matches refused (its hint names glicko2_rate_match).
-- (Concurrency: test/citus/live_stress.sh.)
SET citus.shard_count = 32;
SET citus.next_shard_id = 193000;
SET TimeZone = 'UTC';
CREATE SCHEMA citus_live;
SET search_path = citus_live, public;
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
-- 200 players, 180 known (some NULL ratings, some NULL rated_at), 20 new;
-- 2000 games, some back in time.
CREATE TABLE initial (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
INSERT INTO initial
SELECT i, CASE WHEN i % 17 = 0 THEN NULL
               ELSE glicko2_rating(1200 + 600 * u(i, 1), 40 + 300 * u(i, 2), 0.05 + 0.02 * u(i, 3)) END,
       CASE WHEN i % 11 = 0 THEN NULL ELSE '2026-01-01'::timestamptz + i * interval '1 hour' END
FROM generate_series(1, 180) i;
CREATE TABLE games (id int PRIMARY KEY, player_id int, opponent_id int, score float8,
                    played_at timestamptz);
INSERT INTO games
SELECT g, a, CASE WHEN b >= a THEN b + 1 ELSE b END, floor(u(g, 6) * 3) / 2,
       '2026-01-10'::timestamptz + g * interval '7 minutes' - CASE WHEN g % 13 = 0 THEN interval '1 day' ELSE interval '0' END
FROM (SELECT g, 1 + floor(u(g, 4) * 200)::int AS a, 1 + floor(u(g, 5) * 199)::int AS b
      FROM generate_series(1, 2000) g) x;
-- Every worker can read the games (a reference table).
SELECT create_reference_table('games');

-- The trigger on a plain table on the coordinator: the reference.
CREATE TABLE by_trigger (LIKE initial INCLUDING ALL);
INSERT INTO by_trigger SELECT * FROM initial;
CREATE TABLE replay (LIKE games);
CREATE TRIGGER rate AFTER INSERT ON replay FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('by_trigger', 'period=6 hours', 'max_rd=300');
INSERT INTO replay SELECT id, player_id, opponent_id, score, played_at FROM games ORDER BY id;

-- The function on a distributed table: games 1-1000 from the coordinator,
-- 1001-2000 from worker 1, one call (one transaction) each, in id order.
CREATE TABLE ratings (LIKE initial INCLUDING ALL);
INSERT INTO ratings SELECT * FROM initial;
SELECT create_distributed_table('ratings', 'player_id');
SELECT count(DISTINCT nodeport) AS workers_holding_ratings
FROM pg_dist_shard JOIN pg_dist_placement USING (shardid) JOIN pg_dist_node USING (groupid)
WHERE logicalrelid = 'ratings'::regclass;
\o /dev/null
SELECT format('SELECT glicko2_rate_game(%L, %s, %s, %s, %L, %L, %L)', 'citus_live.ratings',
              player_id, opponent_id, score, played_at, 'period=6 hours', 'max_rd=300')
FROM games WHERE id <= 1000 ORDER BY id \gexec
\o
\getenv port CITUS_PORT
SELECT :port + 1 AS worker_port \gset
\c - - - :worker_port
SET search_path = citus_live, public;
SELECT count(*) AS games_seen_on_worker FROM games;
\o /dev/null
SELECT format('SELECT glicko2_rate_game(%L, %s, %s, %s, %L, %L, %L)', 'citus_live.ratings',
              player_id, opponent_id, score, played_at, 'period=6 hours', 'max_rd=300')
FROM games WHERE id > 1000 ORDER BY id \gexec
\o
\c - - - :port
SET search_path = citus_live, public;
SET TimeZone = 'UTC';
-- Every rating and rated_at the same, bit for bit.
SELECT count(*) AS players,
       count(*) FILTER (WHERE t.rating IS DISTINCT FROM r.rating OR t.rated_at IS DISTINCT FROM r.rated_at) AS differing,
       count(*) FILTER (WHERE r.player_id > 180) AS new_players
FROM by_trigger t FULL JOIN ratings r USING (player_id);

-- Two players on different workers: a rolled-back game leaves no trace on
-- either; a committed one moves both (two-phase commit).
SELECT min(player_id) FILTER (WHERE nodeport = :port + 1) AS p1,
       min(player_id) FILTER (WHERE nodeport = :port + 2) AS p2
FROM (SELECT player_id, (SELECT nodeport FROM pg_dist_placement JOIN pg_dist_node USING (groupid)
                         WHERE shardid = get_shard_id_for_distribution_column('ratings', player_id)) AS nodeport
      FROM generate_series(1, 200) player_id) x \gset
SELECT md5(string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id)) AS before FROM ratings \gset
BEGIN;
SELECT glicko2_rate_game('ratings', :p1, :p2, 1, '2026-03-01', 'period=6 hours', 'max_rd=300');
ROLLBACK;
SELECT md5(string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id)) = :'before' AS unchanged
FROM ratings;
SELECT glicko2_rate_game('ratings', :p1, :p2, 1, '2026-03-01', 'period=6 hours', 'max_rd=300');
SELECT count(*) AS moved FROM ratings WHERE player_id IN (:p1, :p2) AND rated_at = '2026-03-01';
-- A game that fails after the first player's row is locked (the second's
-- stored rating is bad) changes nothing on any node.
SELECT least(:p1, :p2) AS lo, greatest(:p1, :p2) AS hi \gset
SELECT rating AS hi_rating FROM ratings WHERE player_id = :hi \gset
UPDATE ratings SET rating = ROW(1500, 'NaN', 0.06) WHERE player_id = :hi;
SELECT md5(string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id)) AS before FROM ratings \gset
SELECT glicko2_rate_game('ratings', :lo, :hi, 1, '2026-03-02');
SELECT md5(string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id)) = :'before' AS unchanged
FROM ratings;
UPDATE ratings SET rating = :'hi_rating' WHERE player_id = :hi;

-- Bad games: refused, nothing written.
SELECT glicko2_rate_game('ratings', 5, 5, 1, '2026-03-02');
SELECT glicko2_rate_game('ratings', 5, 6, 2, '2026-03-02');
SELECT glicko2_rate_game('ratings', 5, NULL, 1, '2026-03-02');
SELECT count(*) AS rows, count(*) FILTER (WHERE rated_at >= '2026-03-02') AS rated_since FROM ratings;

-- Text keys.
CREATE TABLE handles (handle text PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
SELECT create_distributed_table('handles', 'handle');
SELECT glicko2_rate_game('handles', 'magnus'::text, 'hikaru', 0.5, '2026-03-01', 'player_column=handle');
SELECT handle, rating = glicko2_game(NULL, NULL, 0.5) AS drawn_from_unrated, rated_at FROM handles ORDER BY handle;

-- Team matches: glicko2_rate_matches on a distributed matches table is
-- refused, naming glicko2_rate_match (test/citus/live_rate_match.sql);
-- nothing is written.
SET citus.enable_unsafe_triggers = on;
SET citus.next_shard_id = 193100;
CREATE TABLE matches (match_id int, player_id int, team int, place int, played_at timestamptz,
                      PRIMARY KEY (match_id, player_id));
SELECT create_distributed_table('matches', 'player_id', colocate_with => 'ratings');
CREATE TRIGGER rate_matches AFTER INSERT ON matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings');
\set VERBOSITY default
\set SHOW_CONTEXT never
INSERT INTO matches VALUES (1, :lo, 1, 1, '2026-03-03'), (1, :hi, 2, 2, '2026-03-03');
\set VERBOSITY terse
SELECT count(*) AS matches FROM matches;
SELECT count(*) AS rated_since FROM ratings WHERE rated_at >= '2026-03-03';
RESET citus.enable_unsafe_triggers;

SET client_min_messages = warning;
DROP SCHEMA citus_live CASCADE;
