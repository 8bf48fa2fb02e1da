-- glicko2_rate_games nested in itself (issue 29, 5a): a trigger on one
-- league's ratings table that invalidates the table's cached plans (a GRANT
-- on it) and writes a game of another league runs that league's live
-- trigger inside the first one's.  Before, the inner trigger freed the
-- outer one's kept statements ("lock of players failed:
-- SPI_ERROR_ARGUMENT", XX000); now the outer keeps them while it runs and
-- both games are rated.
SET TimeZone = 'UTC';
CREATE SCHEMA live_nested;
SET search_path = live_nested, public;
\set SHOW_CONTEXT never

CREATE TABLE r1 (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE g1 (player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TABLE r2 (LIKE r1 INCLUDING ALL);
CREATE TABLE g2 (LIKE g1);
CREATE TRIGGER rate AFTER INSERT ON g1 FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('r1');
CREATE TRIGGER rate AFTER INSERT ON g2 FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('r2');

-- A new player of league 1 writes a game of league 2, after invalidating r1.
CREATE FUNCTION crosspost() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'GRANT SELECT ON live_nested.r1 TO PUBLIC';
  INSERT INTO live_nested.g2 VALUES (NEW.player_id + 100, NEW.player_id + 200, 1, '2026-01-01');
  RETURN NULL;
END
$$;
CREATE TRIGGER crosspost AFTER INSERT ON r1 FOR EACH ROW EXECUTE FUNCTION crosspost();

INSERT INTO g1 VALUES (1, 2, 1, '2026-01-01');
-- Each game rated as glicko2_game rates it from two unrated players.
SELECT 'r1' AS league, player_id, rating = glicko2_game(NULL, NULL, CASE WHEN player_id = 1 THEN 1 ELSE 0 END) AS rated_right
FROM r1
UNION ALL
SELECT 'r2', player_id, rating = glicko2_game(NULL, NULL, CASE WHEN player_id < 200 THEN 1 ELSE 0 END)
FROM r2 ORDER BY 1, 2;

-- Again with the same league nested in itself: a new player of league 1
-- writes another league 1 game (between players already rated).
CREATE OR REPLACE FUNCTION crosspost() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'GRANT SELECT ON live_nested.r1 TO PUBLIC';
  IF NEW.player_id = 3 THEN
    INSERT INTO live_nested.g1 VALUES (1, 2, 0.5, '2026-01-02');
  END IF;
  RETURN NULL;
END
$$;
SELECT rating AS r1_before FROM r1 WHERE player_id = 1 \gset
SELECT rating AS r2_before FROM r1 WHERE player_id = 2 \gset
INSERT INTO g1 VALUES (3, 4, 1, '2026-01-02');
SELECT player_id, rated_at FROM r1 ORDER BY player_id;
SELECT (SELECT rating FROM r1 WHERE player_id = 1)
         = glicko2_game(glicko2_rating_at(:'r1_before', '2026-01-01', '2026-01-02'),
                        glicko2_rating_at(:'r2_before', '2026-01-01', '2026-01-02'), 0.5) AS nested_game_rated_right,
       (SELECT rating FROM r1 WHERE player_id = 3) = glicko2_game(NULL, NULL, 1) AS outer_game_rated_right;

SET client_min_messages = warning;
DROP SCHEMA live_nested CASCADE;
RESET search_path;
