-- glicko2_close_period on Citus: ratings and games distributed by the
-- player (co-located), the same close on local copies of the same rows on
-- the coordinator; the same ratings bit for bit, exactly once, all or
-- nothing across nodes, and never a silent unguarded close.
SET citus.shard_count = 4;
CREATE SCHEMA citus_close;
SET search_path = citus_close, public;
SET citus.next_shard_id = 191000;
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
CREATE TABLE ratings_local (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL);
INSERT INTO ratings_local
SELECT i, glicko2_rating(1200 + 600 * u(i, 1), 40 + 300 * u(i, 2), 0.05 + 0.02 * u(i, 3))
FROM generate_series(1, 1900) i;
-- Players 1901-2000 are new.
CREATE TABLE games_local (period int, player_id int, opponent_id int, score float8);
INSERT INTO games_local
SELECT 1 + g % 2, a, CASE WHEN b >= a THEN b + 1 ELSE b END, floor(u(g, 6) * 3) / 2
FROM (SELECT g, 1 + floor(u(g, 4) * 2000)::int AS a, 1 + floor(u(g, 5) * 1999)::int AS b
      FROM generate_series(1, 20000) g) x;
CREATE TABLE ratings (LIKE ratings_local INCLUDING ALL);
CREATE TABLE games (LIKE games_local INCLUDING ALL);
INSERT INTO ratings SELECT * FROM ratings_local;
INSERT INTO games SELECT * FROM games_local;
SELECT create_distributed_table('ratings', 'player_id');
SELECT create_distributed_table('games', 'player_id', colocate_with => 'ratings');
CALL glicko2_guard_games('games_local');

-- An unguarded distributed games table: the close refuses, naming it.
CALL glicko2_close_period('ratings', 'games', 1);
-- Without citus.enable_unsafe_triggers the guard is refused, saying why.
CALL glicko2_guard_games('games');
-- With citus.enable_unsafe_triggers it is created, on every shard
-- (test/citus/guard_*.sql test it); dropped here, where the unguarded
-- close is tested.
SET citus.enable_unsafe_triggers = on;
CALL glicko2_guard_games('games');
SELECT tgname FROM pg_trigger WHERE tgrelid = 'games'::regclass AND tgname LIKE 'refuse%' ORDER BY 1;
DROP TRIGGER refuse_closed_games ON games;
DROP TRIGGER refuse_closed_truncate ON games;
RESET citus.enable_unsafe_triggers;

-- Accepting the risk: the close runs, recorded as unguarded.
CALL glicko2_close_period('ratings', 'games', 1, unguarded => true);
CALL glicko2_close_period('ratings_local', 'games_local', 1);
SELECT count(*) AS players, count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating) AS differences
FROM ratings d FULL JOIN ratings_local l USING (player_id);
SELECT ratings, period, players, played, new_players, games, unguarded
FROM glicko2_closes ORDER BY close_number;
-- Exactly once.
CALL glicko2_close_period('ratings', 'games', 1, unguarded => true);

-- All or nothing across nodes: a constraint keeps one player's RD from
-- falling, so the close's update fails on that player's shard only; nothing
-- changes on any node, and the close is not recorded.
CREATE TABLE before AS SELECT * FROM ratings;
SELECT format('ALTER TABLE ratings ADD CONSTRAINT pinned CHECK (player_id <> %s OR (rating).rd >= %s)',
              player_id, floor((rating).rd))
FROM ratings WHERE player_id = 1234 \gexec
SELECT count(*) AS games_of_1234 FROM games WHERE period = 2 AND 1234 IN (player_id, opponent_id);
CALL glicko2_close_period('ratings', 'games', 2, unguarded => true);
SELECT count(*) FILTER (WHERE r.rating IS DISTINCT FROM b.rating) AS changed
FROM ratings r FULL JOIN before b USING (player_id);
SELECT count(*) AS closes_of_period_2 FROM glicko2_closes WHERE ratings = 'ratings'::regclass AND period = '2';
ALTER TABLE ratings DROP CONSTRAINT pinned;
CALL glicko2_close_period('ratings', 'games', 2, unguarded => true);
CALL glicko2_close_period('ratings_local', 'games_local', 2);
SELECT count(*) AS players, count(*) FILTER (WHERE d.rating IS DISTINCT FROM l.rating) AS differences
FROM ratings d FULL JOIN ratings_local l USING (player_id);
