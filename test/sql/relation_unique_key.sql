-- One rule for "is this column alone a unique key?" (src/relation.c), used
-- by the closes (through glicko2_internal.glicko2_unique_key), the live
-- trigger and the matchmaking queue: a valid, immediate, non-partial unique
-- index or primary key whose one key column it is.  Columns an index only
-- INCLUDEs do not change what it makes unique.
CREATE TABLE k_primary (id int PRIMARY KEY, x int);
CREATE TABLE k_unique (id int UNIQUE, x int);
CREATE TABLE k_include (id int, x int, UNIQUE (id) INCLUDE (x));
CREATE TABLE k_deferrable (id int UNIQUE DEFERRABLE, x int);
CREATE TABLE k_partial (id int, x int);
CREATE UNIQUE INDEX ON k_partial (id) WHERE x > 0;
CREATE TABLE k_two (id int, x int, UNIQUE (id, x));
CREATE TABLE k_expression (id int, x int);
CREATE UNIQUE INDEX ON k_expression ((id + 0));
CREATE TABLE k_plain (id int, x int);
CREATE INDEX ON k_plain (id);
SELECT t AS relation, glicko2_internal.glicko2_unique_key(t::regclass, 'id') AS id_is_unique,
       glicko2_internal.glicko2_unique_key(t::regclass, 'x') AS x_is_unique,
       glicko2_internal.glicko2_unique_key(t::regclass, 'nope') AS missing_column
FROM unnest(ARRAY['k_primary', 'k_unique', 'k_include', 'k_deferrable', 'k_partial',
                  'k_two', 'k_expression', 'k_plain']) t;

-- The same answer from every caller: a deferrable unique key is none.
CREATE TABLE d_ratings (player_id int NOT NULL UNIQUE DEFERRABLE, rating glicko2_rating);
CREATE TABLE d_games (period int, player_id int, opponent_id int, score float8);
CALL glicko2_close_period('d_ratings', 'd_games', 1, unguarded => true);
CREATE TABLE d_live (player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TABLE d_live_ratings (player_id int UNIQUE DEFERRABLE, rating glicko2_rating, rated_at timestamptz);
CREATE TRIGGER rate AFTER INSERT ON d_live FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('d_live_ratings');
INSERT INTO d_live VALUES (1, 2, 1, '2024-01-01');
-- The queue does not rely on it: it finds a player queued twice itself.
CREATE TABLE d_queue (player_id int UNIQUE DEFERRABLE INITIALLY DEFERRED, rating glicko2_rating,
                      queued_at timestamptz DEFAULT '2024-01-01');
BEGIN;
INSERT INTO d_queue (player_id, rating) VALUES (1, glicko2_rating()), (1, glicko2_rating()), (2, glicko2_rating());
SELECT * FROM glicko2_pair_typed('d_queue', NULL::int);
ROLLBACK;
-- A unique key with INCLUDE columns is one (here for the close).
CREATE TABLE i_ratings (player_id int NOT NULL, rating glicko2_rating, UNIQUE (player_id) INCLUDE (rating));
CALL glicko2_close_period('i_ratings', 'd_games', 1, unguarded => true);
SELECT count(*) AS closes FROM glicko2_closes WHERE ratings = 'i_ratings'::regclass;
