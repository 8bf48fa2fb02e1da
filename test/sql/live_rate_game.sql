-- glicko2_rate_game: one game rated in the caller's transaction with
-- one-row statements in key order (the path for ratings tables Citus
-- distributes; test/citus/live_*.sql and live_stress.sh run it there).  On
-- the same games it writes what the trigger glicko2_rate_games writes, bit
-- for bit; bad games and options are refused and nothing is written.
SET TimeZone = 'UTC';
CREATE SCHEMA live_call;
SET search_path = live_call, public;

-- The same games into two ratings tables: by the trigger, and by the function.
CREATE TABLE by_trigger (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE by_call (LIKE by_trigger INCLUDING ALL);
CREATE TABLE games (id int PRIMARY KEY, player_id int, opponent_id int, score float8,
                    played_at timestamptz);
-- Known players (some with a NULL rating or a NULL rated_at), and new ones.
INSERT INTO by_trigger
SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE glicko2_rating(1200 + 37 * i, 40 + 11 * i, 0.05 + i / 1000.0) END,
       CASE WHEN i % 5 = 0 THEN NULL ELSE '2026-01-01'::timestamptz + i * interval '3 hours' END
FROM generate_series(1, 24) i;
INSERT INTO by_call SELECT * FROM by_trigger;
-- 1500 games among 30 players, each time a little later, some back in time
-- (rated with no growth), scores 0, 0.25, 0.5, 1.
SELECT setseed(0.34);
INSERT INTO games
SELECT g, a, CASE WHEN b >= a THEN b + 1 ELSE b END, (ARRAY[0, 0.25, 0.5, 1])[1 + (random() * 3)::int],
       '2026-01-02'::timestamptz + g * interval '20 minutes' - CASE WHEN g % 13 = 0 THEN interval '2 days' ELSE interval '0' END
FROM (SELECT g, 1 + (random() * 29)::int AS a, 1 + (random() * 28)::int AS b
      FROM generate_series(1, 1500) g) x;
SELECT count(*) AS games, count(DISTINCT score) AS scores, min(score), max(score),
       count(*) FILTER (WHERE player_id = opponent_id) AS self_play FROM games;

-- Each settings set: the trigger rates a copy of the games in id order, the
-- function the same games one call each, in id order.
CREATE TABLE replay (LIKE games);
CREATE FUNCTION compare(VARIADIC options text[] DEFAULT '{}') RETURNS TABLE (players bigint, differing bigint)
LANGUAGE plpgsql SET search_path = live_call, public AS $$
DECLARE
  g record;
BEGIN
  TRUNCATE by_trigger, by_call, replay;
  INSERT INTO by_trigger
  SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE glicko2_rating(1200 + 37 * i, 40 + 11 * i, 0.05 + i / 1000.0) END,
         CASE WHEN i % 5 = 0 THEN NULL ELSE '2026-01-01'::timestamptz + i * interval '3 hours' END
  FROM generate_series(1, 24) i;
  INSERT INTO by_call SELECT * FROM by_trigger;
  DROP TRIGGER IF EXISTS rate ON replay;
  EXECUTE format('CREATE TRIGGER rate AFTER INSERT ON replay FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games(%s)',
                 (SELECT string_agg(quote_literal(a), ', ') FROM unnest('{by_trigger}' || options) a));
  INSERT INTO replay SELECT * FROM games ORDER BY id;
  FOR g IN SELECT * FROM games ORDER BY id LOOP
    PERFORM glicko2_rate_game('by_call', g.player_id, g.opponent_id, g.score, g.played_at, VARIADIC options);
  END LOOP;
  RETURN QUERY
  SELECT count(*), count(*) FILTER (WHERE t.rating IS DISTINCT FROM c.rating OR t.rated_at IS DISTINCT FROM c.rated_at)
  FROM by_trigger t FULL JOIN by_call c USING (player_id);
END $$;
CREATE VIEW result AS SELECT md5(string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id)) FROM by_call;
SELECT * FROM compare();
SELECT md5 AS defaults FROM result \gset
SELECT * FROM compare('period=1 hour', 'tau=0.3', 'max_rd=250');
SELECT md5 AS hour FROM result \gset
SELECT * FROM compare('period=2 hours', 'max_rd=none');
SELECT md5 AS no_cap FROM result \gset
SELECT * FROM compare('min_rating=1000', 'max_change=40', 'max_volatility=0.0601');
SELECT md5 AS caps FROM result \gset
-- (each setting changes the ratings: not the same table four times)
SELECT count(DISTINCT m) AS distinct_results FROM unnest(ARRAY[:'defaults', :'hour', :'no_cap', :'caps']) m;

-- A new player is added as unrated, rated_at = played_at; known players are
-- locked and written by key.
TRUNCATE by_call;
SELECT glicko2_rate_game('by_call', 2, 1, 1, '2026-03-01 20:00');
SELECT player_id, rating, rated_at, rating = glicko2_game(NULL, NULL, CASE player_id WHEN 2 THEN 1 ELSE 0 END) AS as_glicko2_game
FROM by_call ORDER BY player_id;
-- max_rd: a new player starts at least(350, max_rd)
SELECT glicko2_rate_game('by_call', 3, 4, 0.5, '2026-03-01 20:00', 'max_rd=200');
SELECT player_id, round((rating).rd::numeric, 6) AS rd FROM by_call WHERE player_id IN (3, 4) ORDER BY player_id;

-- Other key types: text keys; a bigint table, rated with bigint and int keys.
CREATE TABLE handles (handle text PRIMARY KEY, r glicko2_rating, at timestamptz);
SELECT glicko2_rate_game('handles', 'magnus'::text, 'hikaru', 0.5, '2026-03-01 20:00',
                         'player_column=handle', 'rating_column=r', 'rated_at_column=at');
SELECT handle, r = glicko2_game(NULL, NULL, 0.5) AS drawn_from_unrated, at FROM handles ORDER BY handle;
CREATE TABLE big (player_id bigint PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
SELECT glicko2_rate_game('big', 5000000000, 7000000000, 1, '2026-03-01 20:00');
SELECT glicko2_rate_game('big', 1, 2, 0, '2026-03-01 21:00');
SELECT player_id, rated_at FROM big ORDER BY player_id;

-- Bad games: refused, naming the game; nothing written.
SELECT count(*) AS rows_before, string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id) AS before
FROM by_call \gset
SELECT glicko2_rate_game('by_call', 1, 1, 1, '2026-03-02');
SELECT glicko2_rate_game('by_call', 1, NULL, 1, '2026-03-02');
SELECT glicko2_rate_game('by_call', 1, 9, NULL, '2026-03-02');
SELECT glicko2_rate_game('by_call', 1, 9, 1, NULL);
SELECT glicko2_rate_game('by_call', 1, 9, 1.5, '2026-03-02');
SELECT glicko2_rate_game('by_call', 1, 9, 'NaN', '2026-03-02');
SELECT glicko2_rate_game('by_call', 1, 9, 1, 'infinity');
SELECT glicko2_rate_game(NULL, 1, 9, 1, '2026-03-02');
-- Bad options and tables: refused, naming the option or column.
SELECT glicko2_rate_game('by_call', 1, 9, 1, '2026-03-02', 'fast');
SELECT glicko2_rate_game('by_call', 1, 9, 1, '2026-03-02', 'score_column=s');
SELECT glicko2_rate_game('by_call', 1, 9, 1, '2026-03-02', NULL);
SELECT glicko2_rate_game('by_call', 1, 9, 1, '2026-03-02', 'period=0');
SELECT glicko2_rate_game('by_call', 1, 9, 1, '2026-03-02', 'tau=-1');
SELECT glicko2_rate_game('by_call', 1, 9, 1, '2026-03-02', 'rating_column=elo');
SELECT glicko2_rate_game('by_call', 'a'::text, 'b', 1, '2026-03-02');
CREATE TABLE no_key (player_id int, rating glicko2_rating, rated_at timestamptz);
SELECT glicko2_rate_game('no_key', 1, 9, 1, '2026-03-02');
SELECT glicko2_rate_game('pg_class', 1, 9, 1, '2026-03-02');
-- A stored rating that is bad names its player.
CREATE TABLE bad_rating (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
INSERT INTO bad_rating VALUES (1, ROW(1500, 'NaN', 0.06), NULL);
SELECT glicko2_rate_game('bad_rating', 1, 2, 1, '2026-03-02');
SELECT count(*) AS bad_rating_rows FROM bad_rating;
SELECT count(*) = :rows_before AS same_rows,
       string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id) = :'before' AS unchanged
FROM by_call;

-- All or nothing with the caller's transaction.
BEGIN;
SELECT glicko2_rate_game('by_call', 1, 2, 0, '2026-03-02');
ROLLBACK;
SELECT string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id) = :'before' AS unchanged_after_rollback
FROM by_call;

-- Privileges are the caller's: SELECT and UPDATE on the ratings table (and
-- INSERT to add a new player).
CREATE ROLE live_call_writer;
GRANT USAGE ON SCHEMA live_call TO live_call_writer;
GRANT SELECT, UPDATE ON by_call TO live_call_writer;
SET ROLE live_call_writer;
SELECT glicko2_rate_game('by_call', 1, 2, 0, '2026-03-03');
SELECT glicko2_rate_game('by_call', 1, 77, 0, '2026-03-03');
RESET ROLE;
SELECT player_id, rated_at FROM by_call WHERE player_id IN (1, 2, 77) ORDER BY player_id;

-- The function is pinned to pg_catalog: an operator or function of the
-- caller's search_path is never called.
SELECT proconfig FROM pg_proc WHERE oid = 'glicko2_rate_game'::regproc;

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA live_call CASCADE;
DROP ROLE live_call_writer;
