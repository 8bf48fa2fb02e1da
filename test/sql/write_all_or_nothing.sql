-- Every write path writes every row it means to, or fails whole with a
-- clear error naming the table and both counts (issue 29, 3 and 5b, 5c):
-- 42501 where row-level security narrowed the write, 55000 where a trigger
-- or rule did; nothing changed.  Before, a close under an UPDATE policy
-- narrower than the SELECT policy moved on half the players and recorded
-- the close, a BEFORE UPDATE trigger returning NULL recorded a close of 0
-- players, a queue with a DO INSTEAD NOTHING delete rule gave XX000, and
-- glicko2_replay emptied a table before finding it had the wrong columns.
SET TimeZone = 'UTC';
CREATE SCHEMA write_all;
SET search_path = write_all, public;
\set SHOW_CONTEXT never

CREATE FUNCTION try(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
CREATE FUNCTION skip() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;

-- 40 players, period 1 closed; period 2's games written.
CREATE TABLE ratings (player_id bigint PRIMARY KEY, rating glicko2_rating);
CREATE TABLE games (period int, player_id bigint, opponent_id bigint, score float8);
CREATE TABLE hist (player_id bigint, period int, rating glicko2_rating);
CALL glicko2_guard_games('games');
INSERT INTO games SELECT p, i, i + 20, (p + i) % 2 FROM generate_series(1, 20) i, generate_series(1, 3) p;
CALL glicko2_close_period('ratings', 'games', 1, history => 'hist');
CREATE TABLE before AS SELECT * FROM ratings;
CREATE VIEW state AS
  SELECT (SELECT count(*) FROM ratings r JOIN before b USING (player_id) WHERE r.rating IS NOT DISTINCT FROM b.rating) AS unchanged,
         (SELECT count(*) FROM ratings) AS players,
         (SELECT string_agg(period, ',' ORDER BY close_number) FROM glicko2_closes
          WHERE ratings = 'write_all.ratings'::regclass) AS closed,
         (SELECT count(*) FROM hist) AS history_rows;
SELECT * FROM state;

-- The issue's repro: a role whose UPDATE policy is narrower than its SELECT policy.
CREATE ROLE regress_write_all;
GRANT USAGE ON SCHEMA write_all TO regress_write_all;
GRANT SELECT, INSERT, UPDATE, DELETE ON ratings, hist TO regress_write_all;
GRANT SELECT, UPDATE ON games TO regress_write_all;
ALTER TABLE ratings ENABLE ROW LEVEL SECURITY;
CREATE POLICY read_all ON ratings FOR SELECT USING (true);
CREATE POLICY add_any ON ratings FOR INSERT WITH CHECK (true);
CREATE POLICY update_even ON ratings FOR UPDATE USING (player_id % 2 = 0);
CREATE POLICY delete_even ON ratings FOR DELETE USING (player_id % 2 = 0);
SET ROLE regress_write_all;
SELECT try($$CALL glicko2_close_period('ratings', 'games', 2)$$) AS close_rls;
SELECT try($$CALL glicko2_close_period('ratings', 'games', 2, history => 'hist')$$) AS close_rls_history;
SELECT try($$CALL glicko2_replay('ratings', 'games', history => 'hist')$$) AS replay_rls;
SELECT try($$CALL glicko2_recompute('ratings', 'games', 1, 'hist')$$) AS recompute_rls;
RESET ROLE;
SELECT * FROM state;
-- (the same close by the owner, to whom the policies do not apply, closes)
ALTER TABLE ratings DISABLE ROW LEVEL SECURITY;

-- A BEFORE UPDATE trigger that returns NULL (the join path of the close).
CREATE TRIGGER skip BEFORE UPDATE ON ratings FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$CALL glicko2_close_period('ratings', 'games', 2)$$) AS close_update_trigger;
DROP TRIGGER skip ON ratings;
-- A BEFORE INSERT trigger on the ratings: the close's new players.
INSERT INTO games VALUES (2, 41, 42, 1);
CREATE TRIGGER skip BEFORE INSERT ON ratings FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$CALL glicko2_close_period('ratings', 'games', 2)$$) AS close_insert_trigger;
DROP TRIGGER skip ON ratings;
-- A BEFORE INSERT trigger on the history.
CREATE TRIGGER skip BEFORE INSERT ON hist FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$CALL glicko2_close_period('ratings', 'games', 2, history => 'hist')$$) AS close_history_trigger;
DROP TRIGGER skip ON hist;
-- BEFORE DELETE triggers: replay and recompute empty tables first.
CREATE TRIGGER skip BEFORE DELETE ON ratings FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$CALL glicko2_replay('ratings', 'games')$$) AS replay_delete_trigger;
DROP TRIGGER skip ON ratings;
CREATE TRIGGER skip BEFORE DELETE ON hist FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$CALL glicko2_replay('ratings', 'games', history => 'hist')$$) AS replay_history_trigger;
SELECT try($$CALL glicko2_recompute('ratings', 'games', 1, 'hist')$$) AS recompute_history_trigger;
DROP TRIGGER skip ON hist;
-- A DO INSTEAD NOTHING rule on UPDATE (PostgreSQL refuses its RETURNING).
CREATE RULE nothing AS ON UPDATE TO ratings DO INSTEAD NOTHING;
SELECT try($$CALL glicko2_close_period('ratings', 'games', 2)$$) AS close_rule;
DROP RULE nothing ON ratings;
SELECT * FROM state;

-- With nothing in the way, every path writes all: the checks count right.
CALL glicko2_close_period('ratings', 'games', 2, history => 'hist');
CALL glicko2_recompute('ratings', 'games', 2, 'hist');
CALL glicko2_replay('ratings', 'games', history => 'hist');
SELECT players, closed, history_rows FROM state;

-- glicko2_replay checks every column before it empties anything (5c).
CREATE TABLE wrong_ratings (player_id bigint PRIMARY KEY, score float8);
INSERT INTO wrong_ratings VALUES (1, 0.5);
CREATE TABLE wrong_games (period int, player_id text, opponent_id bigint, score float8);
INSERT INTO wrong_games VALUES (1, 'a', 2, 1);
SELECT try($$CALL glicko2_replay('wrong_ratings', 'games')$$) AS replay_wrong_ratings,
       (SELECT count(*) FROM wrong_ratings) AS wrong_ratings_kept;
SELECT try($$CALL glicko2_replay('ratings', 'wrong_games')$$) AS replay_wrong_games,
       try($$CALL glicko2_replay('ratings', 'games', score_column => 'nope')$$) AS replay_no_score,
       try($$CALL glicko2_replay('ratings', 'games', history => 'wrong_ratings')$$) AS replay_wrong_history;
SELECT players, closed, history_rows FROM state;

-- The live trigger: a policy or trigger that keeps a rating row unwritten.
CREATE TABLE live_ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE live_games (player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TRIGGER rate AFTER INSERT ON live_games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('live_ratings');
INSERT INTO live_games VALUES (1, 2, 1, '2026-01-01');
CREATE TABLE live_before AS SELECT * FROM live_ratings;
GRANT SELECT, INSERT, UPDATE ON live_ratings TO regress_write_all;
GRANT SELECT, INSERT ON live_games TO regress_write_all;
ALTER TABLE live_ratings ENABLE ROW LEVEL SECURITY;
CREATE POLICY read_all ON live_ratings FOR SELECT USING (true);
CREATE POLICY update_even ON live_ratings FOR UPDATE USING (player_id % 2 = 0);
SET ROLE regress_write_all;
SELECT try($$INSERT INTO live_games VALUES (1, 2, 0, '2026-01-02')$$) AS live_rls;
RESET ROLE;
ALTER TABLE live_ratings DISABLE ROW LEVEL SECURITY;
CREATE TRIGGER skip BEFORE UPDATE ON live_ratings FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$INSERT INTO live_games VALUES (1, 2, 0, '2026-01-02')$$) AS live_update_trigger;
DROP TRIGGER skip ON live_ratings;
CREATE TRIGGER skip BEFORE INSERT ON live_ratings FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$INSERT INTO live_games VALUES (1, 3, 0, '2026-01-02')$$) AS live_insert_trigger;
DROP TRIGGER skip ON live_ratings;
SELECT (SELECT count(*) FROM live_games) AS live_games,
       (SELECT count(*) FROM live_ratings l JOIN live_before b USING (player_id)
        WHERE l.rating = b.rating AND l.rated_at = b.rated_at) AS live_unchanged,
       (SELECT count(*) FROM live_ratings) AS live_players;

-- The live matches trigger, the same: a policy or trigger that keeps a
-- player's row unwritten fails the statement; a match whose other rows an
-- earlier statement wrote is refused as such, whatever kept rows; a rule on
-- the ratings table is refused (its new players' INSERT ... ON CONFLICT).
CREATE TABLE live_matches (match_id int, player_id int, team int, place int, played_at timestamptz,
                           PRIMARY KEY (match_id, player_id));
CREATE TRIGGER rate AFTER INSERT ON live_matches REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('live_ratings');
GRANT SELECT, INSERT ON live_matches TO regress_write_all;
ALTER TABLE live_ratings ENABLE ROW LEVEL SECURITY;
SET ROLE regress_write_all;
SELECT try($$INSERT INTO live_matches VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 2, 2, '2026-01-02')$$) AS matches_rls;
RESET ROLE;
ALTER TABLE live_ratings DISABLE ROW LEVEL SECURITY;
CREATE TRIGGER skip BEFORE UPDATE ON live_ratings FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$INSERT INTO live_matches VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 2, 2, '2026-01-02')$$) AS matches_update_trigger;
ALTER TABLE live_matches DISABLE TRIGGER rate;
INSERT INTO live_matches VALUES (2, 6, 3, 3, '2026-01-02');
ALTER TABLE live_matches ENABLE TRIGGER rate;
SELECT try($$INSERT INTO live_matches VALUES (2, 1, 1, 1, '2026-01-02'), (2, 2, 2, 2, '2026-01-02')$$) AS matches_split_trigger;
DROP TRIGGER skip ON live_ratings;
CREATE RULE nothing AS ON UPDATE TO live_ratings DO INSTEAD NOTHING;
SELECT try($$INSERT INTO live_matches VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 2, 2, '2026-01-02')$$) AS matches_rule;
SELECT try($$INSERT INTO live_matches VALUES (2, 1, 1, 1, '2026-01-02'), (2, 2, 2, 2, '2026-01-02')$$) AS matches_split_rule;
DROP RULE nothing ON live_ratings;
CREATE TRIGGER skip BEFORE INSERT ON live_ratings FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$INSERT INTO live_matches VALUES (1, 1, 1, 1, '2026-01-02'), (1, 3, 2, 2, '2026-01-02')$$) AS matches_insert_trigger;
DROP TRIGGER skip ON live_ratings;
SELECT (SELECT count(*) FROM live_matches) AS live_match_rows,
       (SELECT count(*) FROM live_ratings l JOIN live_before b USING (player_id)
        WHERE l.rating = b.rating AND l.rated_at = b.rated_at) AS live_unchanged,
       (SELECT count(*) FROM live_ratings) AS live_players;
-- With nothing in the way, the same match is rated: the checks count right.
INSERT INTO live_matches VALUES (1, 1, 1, 1, '2026-01-02'), (1, 2, 2, 2, '2026-01-02');
SELECT count(*) AS live_moved FROM live_ratings l JOIN live_before b USING (player_id)
WHERE l.rating <> b.rating AND l.rated_at = '2026-01-02';

-- Matchmaking: a queue whose delete a rule replaces is refused before
-- anything is taken (5b); a policy or trigger that keeps a placed row
-- fails the call, which then takes nobody.
CREATE TABLE queue (player_id bigint PRIMARY KEY, rating glicko2_rating NOT NULL, queued_at timestamptz NOT NULL);
INSERT INTO queue SELECT i, glicko2_rating(1500 + i, 60), now() FROM generate_series(1, 8) i;
CREATE RULE keep AS ON DELETE TO queue DO INSTEAD NOTHING;
SELECT try($$SELECT * FROM glicko2_pair_typed('queue', NULL::bigint)$$) AS pair_rule,
       try($$SELECT * FROM glicko2_lobbies_typed('queue', 2, NULL::bigint)$$) AS lobbies_rule;
DROP RULE keep ON queue;
CREATE TRIGGER skip BEFORE DELETE ON queue FOR EACH ROW EXECUTE FUNCTION skip();
SELECT try($$SELECT * FROM glicko2_pair_typed('queue', NULL::bigint)$$) AS pair_trigger;
DROP TRIGGER skip ON queue;
GRANT SELECT, UPDATE, DELETE ON queue TO regress_write_all;
ALTER TABLE queue ENABLE ROW LEVEL SECURITY;
CREATE POLICY read_all ON queue FOR SELECT USING (true);
CREATE POLICY lock_all ON queue FOR UPDATE USING (true);
CREATE POLICY delete_even ON queue FOR DELETE USING (player_id % 2 = 0);
SET ROLE regress_write_all;
SELECT try($$SELECT * FROM glicko2_lobbies_typed('queue', 2, NULL::bigint)$$) AS lobbies_rls;
RESET ROLE;
SELECT count(*) AS still_queued FROM queue;

SET client_min_messages = warning;
DROP SCHEMA write_all CASCADE;
DROP ROLE regress_write_all;
RESET search_path;
