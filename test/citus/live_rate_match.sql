-- glicko2_rate_match on Citus: matches distributed by match_id and ratings
-- by player over 32 shards; each match written and rated in one
-- transaction, from the coordinator and from a worker; the same ratings bit
-- for bit as the trigger glicko2_rate_matches on a plain table rating the
-- same matches one statement each; a rolled-back match and a refused one
-- change nothing on any node; the trigger on the distributed table refused,
-- its hint naming this function.
SET citus.shard_count = 32;
SET citus.next_shard_id = 196000;
SET TimeZone = 'UTC';
CREATE SCHEMA citus_live_match;
SET search_path = citus_live_match, public;
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
-- 200 players, 180 known (some NULL ratings, some NULL rated_at), 20 new.
CREATE TABLE initial (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
INSERT INTO initial
SELECT i, CASE WHEN i % 17 = 0 THEN NULL
               ELSE glicko2_rating(1200 + 600 * u(i, 1), 40 + 300 * u(i, 2), 0.05 + 0.02 * u(i, 3)) END,
       CASE WHEN i % 11 = 0 THEN NULL ELSE '2026-01-01'::timestamptz + i * interval '1 hour' END
FROM generate_series(1, 180) i;
-- 400 matches: 2 v 2 and 3 v 2 (wins, losses, draws; parties of two;
-- shares of play 0.5 and 1), free-for-alls of 4 with tied places; some back
-- in time.  Every node can read them (a reference table).
CREATE TABLE source (match_id int, player_id int, team int, place int, played_at timestamptz,
                     weight float8, party text, PRIMARY KEY (match_id, player_id));
INSERT INTO source
SELECT m, p,
       CASE WHEN m % 3 = 2 THEN k WHEN k <= 2 + (m % 3) THEN 1 ELSE 2 END,
       CASE WHEN m % 3 = 2 THEN 1 + (m + k * k) % 3
            WHEN m % 5 = 4 THEN 1
            WHEN (m % 5 < 2) = (k <= 2 + (m % 3)) THEN 1 ELSE 2 END,
       '2026-01-10'::timestamptz + m * interval '17 minutes'
         - CASE WHEN m % 13 = 0 THEN interval '1 day' ELSE interval '0' END,
       CASE WHEN (m + k) % 4 = 0 THEN 0.5 ELSE 1 END,
       CASE WHEN m % 3 <> 2 AND m % 2 = 0 AND k <= 2 THEN 'p' || m END
FROM generate_series(1, 400) m,
     LATERAL (SELECT p, row_number() OVER (ORDER BY u(m * 1000 + p, 7)) AS k
              FROM generate_series(1, 200) p
              ORDER BY u(m * 1000 + p, 7) LIMIT 4 + (m % 3 = 1)::int) x;
SELECT count(DISTINCT match_id) AS matches, count(*) AS rows, count(DISTINCT player_id) AS players,
       count(DISTINCT party) AS parties FROM source;
SELECT create_reference_table('source');

-- The trigger on a plain table on the coordinator: the reference, one
-- statement per match in id order.
CREATE TABLE by_trigger (LIKE initial INCLUDING ALL);
INSERT INTO by_trigger SELECT * FROM initial;
CREATE TABLE replay (LIKE source INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON replay REFERENCING NEW TABLE AS new FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('by_trigger', 'method=mean', 'party_column=party',
                                        'party_advantage=30', 'size_advantage=10',
                                        'period=6 hours', 'max_rd=300');
\o /dev/null
SELECT format('INSERT INTO replay SELECT * FROM source WHERE match_id = %s', match_id)
FROM source GROUP BY match_id ORDER BY match_id \gexec
\o

-- The function on distributed tables: matches 1-200 written and rated from
-- the coordinator, 201-400 from worker 1, each in its own transaction (the
-- INSERT, then the call), in id order.
CREATE TABLE ratings (LIKE initial INCLUDING ALL);
INSERT INTO ratings SELECT * FROM initial;
SELECT create_distributed_table('ratings', 'player_id');
CREATE TABLE matches (LIKE source INCLUDING ALL);
SELECT create_distributed_table('matches', 'match_id', colocate_with => 'none');
SELECT count(DISTINCT nodeport) AS workers_holding_matches
FROM pg_dist_shard JOIN pg_dist_placement USING (shardid) JOIN pg_dist_node USING (groupid)
WHERE logicalrelid = 'matches'::regclass;
-- (each match's transaction, as four statements for \gexec; a reference
-- table, so that the worker reads them too)
CREATE TABLE calls AS
SELECT match_id, 'BEGIN' AS b,
       format('INSERT INTO citus_live_match.matches SELECT * FROM citus_live_match.source WHERE match_id = %s', match_id) AS i,
       format('SELECT glicko2_rate_match(%L, %L, %s, %L, %L, %L, %L, %L, %L)',
              'citus_live_match.ratings', 'citus_live_match.matches', match_id, 'method=mean',
              'party_column=party', 'party_advantage=30', 'size_advantage=10', 'period=6 hours', 'max_rd=300') AS r,
       'COMMIT' AS c
FROM source GROUP BY match_id;
SELECT create_reference_table('calls');
\o /dev/null
SELECT b, i, r, c FROM calls WHERE match_id <= 200 ORDER BY match_id \gexec
\o
\getenv port CITUS_PORT
SELECT :port + 1 AS worker_port \gset
\c - - - :worker_port
SET search_path = citus_live_match, public;
SELECT count(*) AS matches_seen_on_worker FROM matches;
\o /dev/null
SELECT b, i, r, c FROM calls WHERE match_id > 200 ORDER BY match_id \gexec
\o
\c - - - :port
SET search_path = citus_live_match, public;
SET TimeZone = 'UTC';
-- Every rating and rated_at the same, bit for bit.
SELECT count(*) AS players,
       count(*) FILTER (WHERE t.rating IS DISTINCT FROM r.rating OR t.rated_at IS DISTINCT FROM r.rated_at) AS differing,
       count(*) FILTER (WHERE r.player_id > 180) AS new_players,
       count(*) FILTER (WHERE r.rated_at >= '2026-01-10') AS rated
FROM by_trigger t FULL JOIN ratings r USING (player_id);
SELECT count(*) AS match_rows FROM matches;

-- A match of players on both workers: rolled back, it leaves no trace on
-- either (nor its rows); refused (a bad row), nothing; refused after
-- a new player (key 0) is added and the next player's row locked (the
-- last player's stored rating is bad), nothing on any node.
SELECT min(player_id) FILTER (WHERE nodeport = :port + 1) AS p1,
       min(player_id) FILTER (WHERE nodeport = :port + 2) AS p2,
       max(player_id) FILTER (WHERE nodeport = :port + 2) AS p3
FROM (SELECT player_id, (SELECT nodeport FROM pg_dist_placement JOIN pg_dist_node USING (groupid)
                         WHERE shardid = get_shard_id_for_distribution_column('ratings', player_id)) AS nodeport
      FROM generate_series(1, 200) player_id) x \gset
CREATE VIEW state AS
SELECT (SELECT md5(string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id)) FROM ratings) AS ratings,
       (SELECT count(*) FROM matches) AS match_rows;
SELECT * FROM state \gset before_
BEGIN;
INSERT INTO matches VALUES (500, :p1, 1, 1, '2026-03-01', 1, NULL), (500, :p2, 2, 2, '2026-03-01', 1, NULL),
                           (500, 300, 2, 2, '2026-03-01', 1, NULL);
SELECT glicko2_rate_match('ratings', 'matches', 500, 'method=mean');
SELECT count(*) AS rated_in_transaction FROM ratings WHERE rated_at = '2026-03-01';
ROLLBACK;
SELECT ratings = :'before_ratings' AS ratings_unchanged, match_rows = :before_match_rows AS rows_unchanged,
       (SELECT count(*) FROM ratings WHERE player_id = 300) AS new_player_rows
FROM state;
BEGIN;
INSERT INTO matches VALUES (501, :p1, 1, 1, '2026-03-01', 1, NULL), (501, :p2, 2, 0, '2026-03-01', 1, NULL);
SELECT glicko2_rate_match('ratings', 'matches', 501);
COMMIT;
SELECT ratings = :'before_ratings' AS ratings_unchanged, match_rows = :before_match_rows AS rows_unchanged FROM state;
SELECT rating AS p3_rating FROM ratings WHERE player_id = :p3 \gset
UPDATE ratings SET rating = ROW(1500, 'NaN', 0.06) WHERE player_id = :p3;
SELECT * FROM state \gset before_
BEGIN;
INSERT INTO matches VALUES (502, :p1, 1, 1, '2026-03-02', 1, NULL), (502, 0, 1, 1, '2026-03-02', 1, NULL),
                           (502, :p3, 2, 2, '2026-03-02', 1, NULL);
SELECT glicko2_rate_match('ratings', 'matches', 502);
COMMIT;
SELECT ratings = :'before_ratings' AS ratings_unchanged, match_rows = :before_match_rows AS rows_unchanged,
       (SELECT count(*) FROM ratings WHERE player_id = 0) AS new_player_rows
FROM state;
UPDATE ratings SET rating = :'p3_rating' WHERE player_id = :p3;
SELECT * FROM state \gset before_
-- No rows for the match id (not written, or written by another transaction
-- not yet committed): refused.
SELECT glicko2_rate_match('ratings', 'matches', 600);

-- The live trigger on the distributed matches table is refused, its hint
-- naming glicko2_rate_match; nothing is written.
SET citus.enable_unsafe_triggers = on;
CREATE TRIGGER rate_matches AFTER INSERT ON matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings');
\set VERBOSITY default
\set SHOW_CONTEXT never
INSERT INTO matches VALUES (503, :p1, 1, 1, '2026-03-03', 1, NULL), (503, :p2, 2, 2, '2026-03-03', 1, NULL);
\set VERBOSITY terse
SELECT ratings = :'before_ratings' AS ratings_unchanged, match_rows = :before_match_rows AS rows_unchanged FROM state;
RESET citus.enable_unsafe_triggers;

SET client_min_messages = warning;
DROP SCHEMA citus_live_match CASCADE;
