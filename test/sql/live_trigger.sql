-- glicko2_rate_games: the live rating trigger.  Each inserted game moves
-- both players: RD grown for the time since rated_at, then glicko2_game at
-- t = 0 from both pre-game ratings; new players added; errors rate nothing.
SET TimeZone = 'UTC';
-- A schema of its own: other tests leave tables named ratings and games.
CREATE SCHEMA live;
SET search_path = live, public;
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE games (id serial PRIMARY KEY, player_id int, opponent_id int, score float8,
                    played_at timestamptz);
CREATE TRIGGER rate_games AFTER INSERT ON games
  FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('ratings');

-- The games applied one by one, in id order, with the SQL functions: what
-- the trigger must have written (expected starts from the initial ratings).
CREATE TABLE expected (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE FUNCTION replay(period interval DEFAULT '1 day', tau float8 DEFAULT 0.5,
                       max_rd float8 DEFAULT 350) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  g record;
  p record;
  o record;
BEGIN
  FOR g IN SELECT * FROM games ORDER BY id LOOP
    SELECT glicko2_rating_at(e.rating, e.rated_at, g.played_at, period, max_rd) AS r, e.rated_at AS at
      INTO p FROM expected e WHERE e.player_id = g.player_id;
    SELECT glicko2_rating_at(e.rating, e.rated_at, g.played_at, period, max_rd) AS r, e.rated_at AS at
      INTO o FROM expected e WHERE e.player_id = g.opponent_id;
    INSERT INTO expected VALUES
      (g.player_id, glicko2_game(p.r, o.r, g.score, tau), greatest(p.at, g.played_at)),
      (g.opponent_id, glicko2_game(o.r, p.r, 1 - g.score, tau), greatest(o.at, g.played_at))
    ON CONFLICT (player_id) DO UPDATE SET rating = excluded.rating, rated_at = excluded.rated_at;
  END LOOP;
END $$;
CREATE VIEW differences AS
SELECT player_id, r.rating AS live, e.rating AS replayed
FROM ratings r FULL JOIN expected e USING (player_id)
WHERE r.rating IS DISTINCT FROM e.rating OR r.rated_at IS DISTINCT FROM e.rated_at;

-- Two new players: both added, rated from the unrated player, rated_at = played_at.
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 2, 1, '2026-01-01 10:00');
SELECT player_id, rating, rated_at,
       rating = glicko2_game(NULL, NULL, CASE player_id WHEN 1 THEN 1 ELSE 0 END) AS as_glicko2_game
FROM ratings ORDER BY player_id;

-- A day and a half later against a new player: player 1's RD first grows by
-- 1.5 periods, then the game (t = 0) from both pre-game ratings.
SELECT glicko2_rating_at(rating, rated_at, '2026-01-02 22:00') AS grown FROM ratings WHERE player_id = 1 \gset
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (3, 1, 0.5, '2026-01-02 22:00');
SELECT player_id, rating, rated_at FROM ratings ORDER BY player_id;
SELECT rating = glicko2_game(:'grown', NULL, 0.5) AS player_1_grown_then_rated,
       (SELECT rating FROM ratings WHERE player_id = 3) = glicko2_game(NULL, :'grown', 0.5) AS player_3
FROM ratings WHERE player_id = 1;
-- (the growth itself: sqrt(phi^2 + 1.5 sigma^2) on the Glicko-2 scale)
SELECT abs((:'grown'::glicko2_rating).rd
           / (173.7178 * sqrt((290.23050778223865 / 173.7178) ^ 2 + 1.5 * 0.05999967537233814 ^ 2)) - 1) < 1e-12
       AS growth_by_formula;

-- A multi-row INSERT rates each row in order: the same as one game at a
-- time (replayed with glicko2_rating_at and glicko2_game).
INSERT INTO games (player_id, opponent_id, score, played_at)
SELECT 1 + (i * 7) % 5, 1 + (i * 7 + 1 + i % 4) % 5, (i % 3) / 2.0,
       '2026-01-03'::timestamptz + i * interval '37 minutes'
FROM generate_series(1, 40) i;
SELECT replay();
SELECT count(*) AS players, (SELECT count(*) FROM games) AS games FROM ratings;
SELECT * FROM differences;

-- A ratings row with a NULL rating is an unrated player (not grown); a NULL
-- rated_at is a rating of unknown time (not grown).
INSERT INTO ratings VALUES (10, NULL, '2020-01-01'), (11, glicko2_rating(1600, 60, 0.05), NULL);
TRUNCATE expected; INSERT INTO expected SELECT * FROM ratings;
DELETE FROM games;
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (10, 11, 0, '2026-02-01');
SELECT replay();
SELECT player_id, rating, rated_at FROM ratings WHERE player_id IN (10, 11) ORDER BY 1;
SELECT (SELECT rating FROM ratings WHERE player_id = 10) = glicko2_game(NULL, glicko2_rating(1600, 60, 0.05), 0)
       AS unrated_not_grown;
SELECT * FROM differences;

-- rated_at after played_at (a game arriving late, or a clock ahead): no
-- growth, and rated_at does not move back.
INSERT INTO ratings VALUES (20, glicko2_rating(1500, 100, 0.06), '2026-06-01'),
                           (21, glicko2_rating(1500, 100, 0.06), '2026-05-01');
TRUNCATE expected; INSERT INTO expected SELECT * FROM ratings;
DELETE FROM games;
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (20, 21, 1, '2026-05-11');
SELECT replay();
SELECT player_id, rating, rated_at FROM ratings WHERE player_id IN (20, 21) ORDER BY 1;
SELECT (SELECT rating FROM ratings WHERE player_id = 20)
         = glicko2_game(glicko2_rating(1500, 100, 0.06), glicko2_idle(glicko2_rating(1500, 100, 0.06), 10), 1)
       AS late_game_rated_without_growth;
SELECT * FROM differences;

-- Bad games: a clear error naming the game, and nothing rated or written
-- (a bad row anywhere in a multi-row INSERT refuses the whole statement).
CREATE TABLE before AS SELECT * FROM ratings;
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 1, 0.5, '2026-07-01');
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 2, 1.5, '2026-07-01');
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 2, -0.5, '2026-07-01');
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 2, 'NaN', '2026-07-01');
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 2, NULL, '2026-07-01');
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (NULL, 2, 1, '2026-07-01');
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, NULL, 1, '2026-07-01');
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 2, 1, NULL);
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 2, 1, 'infinity');
INSERT INTO games (player_id, opponent_id, score, played_at)
VALUES (1, 2, 1, '2026-07-01'), (3, 4, 0, '2026-07-01'), (5, 5, 1, '2026-07-01');
SELECT count(*) AS changed FROM ratings r FULL JOIN before b USING (player_id)
WHERE r IS DISTINCT FROM b;
SELECT count(*) AS games_written FROM games WHERE played_at >= '2026-07-01';
-- A bad rating stored in the ratings table is named too.
UPDATE ratings SET rating = ROW(1500, -1, 0.06) WHERE player_id = 5;
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (4, 5, 1, '2026-07-01');
UPDATE ratings SET rating = b.rating FROM before b WHERE b.player_id = 5 AND ratings.player_id = 5;

-- A rolled-back game leaves no trace, nor does one rolled back to a savepoint.
BEGIN;
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 99, 1, '2026-07-02');
SELECT count(*) AS new_player_while_open FROM ratings WHERE player_id = 99;
ROLLBACK;
BEGIN;
SAVEPOINT s;
INSERT INTO games (player_id, opponent_id, score, played_at) VALUES (1, 2, 1, '2026-07-02');
ROLLBACK TO SAVEPOINT s;
COMMIT;
SELECT count(*) AS changed FROM ratings r FULL JOIN before b USING (player_id)
WHERE r IS DISTINCT FROM b;

-- Options: period, tau, max_rd and column names; any key type; the ratings
-- table in another schema.
CREATE SCHEMA league;
CREATE TABLE league.elo (handle text PRIMARY KEY, r glicko2_rating NOT NULL, seen timestamptz);
CREATE TABLE matches (winner text, loser text, result numeric, at timestamptz);
CREATE TRIGGER rate AFTER INSERT ON matches FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games(
  'league.elo', 'period=1 hour', 'tau=0.3', 'max_rd=200', 'player_column=handle', 'rating_column=r',
  'rated_at_column=seen', 'game_player_column=winner', 'opponent_column=loser',
  'score_column=result', 'played_at_column=at');
INSERT INTO league.elo VALUES ('ann', glicko2_rating(1700, 50, 0.06), '2026-01-01 00:00');
INSERT INTO matches VALUES ('ann', 'bob', 1, '2026-01-01 06:00');
SELECT handle, r, seen FROM league.elo ORDER BY 1;
-- (bob, new, starts at the league's max_rd: 1500 / 200 / 0.06)
SELECT r = glicko2_game(glicko2_rating_at(glicko2_rating(1700, 50, 0.06), '2026-01-01 00:00',
                                          '2026-01-01 06:00', '1 hour', 200),
                        glicko2_rating(1500, 200, 0.06), 1, 0.3) AS options_used
FROM league.elo WHERE handle = 'ann';
SELECT r = glicko2_game(glicko2_rating(1500, 200, 0.06),
                        glicko2_rating_at(glicko2_rating(1700, 50, 0.06), '2026-01-01 00:00',
                                          '2026-01-01 06:00', '1 hour', 200), 0, 0.3) AS new_player_at_max_rd
FROM league.elo WHERE handle = 'bob';
-- Integer scores and a bigint ratings key for int games.
CREATE TABLE big (player_id bigint PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE big_games (player_id int, opponent_id int, score int, played_at timestamptz);
CREATE TRIGGER rate AFTER INSERT ON big_games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('big', 'max_rd=none');
INSERT INTO big_games VALUES (1, 2, 1, '2026-01-01'), (2, 1, 1, '2026-03-01');
SELECT player_id, rating FROM big ORDER BY 1;
COPY big_games FROM STDIN;
1	3	0	2026-03-02 00:00:00+00
\.
SELECT count(*) AS rated_by_copy FROM big WHERE player_id = 3;

-- The ratings table replaced by one of the same name: the trigger follows the name.
DROP TABLE big;
CREATE TABLE big (player_id bigint PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
INSERT INTO big_games VALUES (1, 2, 1, '2026-03-03');
SELECT player_id, rating FROM big ORDER BY 1;

-- A games table guarded by glicko2_refuse_closed_games: a game written to a
-- closed period is refused by the guard before the trigger sees it; a game
-- in an open period is rated live.  (The close rates its own table.)
CREATE TABLE guarded (period int, player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TABLE closed_ratings (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE live_ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CALL glicko2_guard_games('guarded');
CREATE TRIGGER rate_live AFTER INSERT ON guarded
  FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('live_ratings');
INSERT INTO guarded VALUES (1, 1, 2, 1, '2026-01-01');
CALL glicko2_close_period('closed_ratings', 'guarded', 1);
CREATE TABLE live_before AS SELECT * FROM live_ratings;
-- (only the SQLSTATE is shown: the guard's wording is its own)
DO $$
BEGIN
  INSERT INTO guarded VALUES (1, 1, 2, 0, '2026-01-02');
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'refused by the guard: SQLSTATE %', SQLSTATE;
END $$;
SELECT count(*) AS live_changed_by_refused_game FROM live_ratings l JOIN live_before b USING (player_id)
WHERE l IS DISTINCT FROM b;
INSERT INTO guarded VALUES (2, 1, 2, 0, '2026-01-02');
SELECT count(*) AS live_changed_by_open_game FROM live_ratings l JOIN live_before b USING (player_id)
WHERE l IS DISTINCT FROM b;

-- A partitioned games table: the trigger on the parent rates games written
-- to any partition.
CREATE TABLE part_games (player_id int, opponent_id int, score float8, played_at timestamptz)
  PARTITION BY RANGE (played_at);
CREATE TABLE part_games_2026 PARTITION OF part_games FOR VALUES FROM ('2026-01-01') TO ('2027-01-01');
CREATE TABLE part_games_2027 PARTITION OF part_games FOR VALUES FROM ('2027-01-01') TO ('2028-01-01');
CREATE TABLE part_ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TRIGGER rate AFTER INSERT ON part_games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('part_ratings');
INSERT INTO part_games VALUES (1, 2, 1, '2026-12-31 23:00'), (2, 1, 1, '2027-01-01 01:00');
SELECT player_id, rating, rated_at FROM part_ratings ORDER BY 1;

-- Rebuilding live ratings from the games (after a correction, say): the
-- games inserted in played_at order into a temporary table with the same
-- trigger naming the ratings table; the result is the live ratings again.
CREATE TABLE rebuilt AS SELECT * FROM ratings WHERE false;
ALTER TABLE rebuilt ADD PRIMARY KEY (player_id);
CREATE TEMP TABLE replay_games (LIKE games);
CREATE TRIGGER rate AFTER INSERT ON replay_games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('live.rebuilt');
TRUNCATE ratings, games;
INSERT INTO games (player_id, opponent_id, score, played_at)
SELECT 1 + (i * 7) % 6, 1 + (i * 7 + 1 + i % 5) % 6, (i % 3) / 2.0, '2026-08-01'::timestamptz + i * interval '5 hours'
FROM generate_series(1, 30) i;
INSERT INTO replay_games SELECT * FROM games ORDER BY played_at;
SELECT count(*) AS players, count(*) FILTER (WHERE r.rating = b.rating AND r.rated_at = b.rated_at) AS same
FROM ratings r JOIN rebuilt b USING (player_id);

-- Hostile objects on the search_path of the writer are never called: the
-- trigger's statements name the ratings table, its types and its equality
-- operator by schema.  (evil.ratings would be found first by an unqualified
-- name; the trigger's unqualified 'ratings' means the games table's schema.)
CREATE SCHEMA evil;
CREATE FUNCTION evil.int_eq(int, int) RETURNS boolean LANGUAGE plpgsql AS
  $$BEGIN RAISE EXCEPTION 'hostile =(int, int) called'; END$$;
CREATE OPERATOR evil.= (LEFTARG = int, RIGHTARG = int, FUNCTION = evil.int_eq);
CREATE TABLE evil.ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
SET search_path = evil, public, pg_catalog;
INSERT INTO live.games (player_id, opponent_id, score, played_at) VALUES (1, 2, 1, '2026-09-01');
SET search_path = live, public;
SELECT (SELECT count(*) FROM evil.ratings) AS evil_rows,
       (SELECT rated_at FROM ratings WHERE player_id = 1) = '2026-09-01' AS rated_in_public;
SET client_min_messages = warning;
DROP SCHEMA evil CASCADE;
RESET client_min_messages;

-- Misuse: clear errors at the first game, each with its SQLSTATE and hint.
CREATE TABLE g2 (player_id int, opponent_id int, score float8, played_at timestamptz, p text, t timestamp);
INSERT INTO g2 VALUES (1, 2, 1, now());
CREATE TABLE nokey (player_id int, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE noat (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE textrating (player_id int PRIMARY KEY, rating text, rated_at timestamptz);
CREATE FUNCTION misuse(event text, args text, level text DEFAULT 'ROW') RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  msg text;
  hint text;
BEGIN
  EXECUTE format('CREATE TRIGGER t %s ON g2 FOR EACH %s EXECUTE FUNCTION glicko2_rate_games(%s)',
                 event, level, args);
  BEGIN
    IF event LIKE '%UPDATE%' THEN
      UPDATE g2 SET score = 0;
    ELSE
      INSERT INTO g2 VALUES (1, 2, 1, now());
    END IF;
    msg := 'no error';
  EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS hint = PG_EXCEPTION_HINT;
    msg := SQLSTATE || ' ' || SQLERRM || CASE WHEN hint <> '' THEN ' (HINT: ' || hint || ')' ELSE '' END;
  END;
  EXECUTE 'DROP TRIGGER t ON g2';
  RETURN msg;
END $$;
\pset format unaligned
SELECT e AS event, a AS arguments, misuse(e, a) AS error
FROM (VALUES ('AFTER INSERT', ''), ('AFTER INSERT', '''nosuch'''),
             ('AFTER INSERT', '''ratings'', ''speed=3'''), ('AFTER INSERT', '''ratings'', ''fast'''),
             ('AFTER INSERT', '''ratings'', ''period=0'''), ('AFTER INSERT', '''ratings'', ''tau=-1'''),
             ('AFTER INSERT', '''ratings'', ''max_rd=NaN'''), ('AFTER INSERT', '''ratings'', ''score_column=s'''),
             ('AFTER INSERT', '''ratings'', ''score_column=p'''), ('AFTER INSERT', '''ratings'', ''played_at_column=t'''),
             ('AFTER INSERT', '''ratings'', ''opponent_column=p'''), ('AFTER INSERT', '''league.elo'''),
             ('AFTER INSERT', '''nokey'''), ('AFTER INSERT', '''noat'''), ('AFTER INSERT', '''textrating'''),
             ('BEFORE INSERT', '''ratings'''), ('AFTER UPDATE', '''ratings''')) x(e, a)
UNION ALL
SELECT 'AFTER INSERT FOR EACH STATEMENT', '''ratings''', misuse('AFTER INSERT', '''ratings''', 'STATEMENT');
\pset format aligned
SELECT count(*) AS g2_games FROM g2;
RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA live, league CASCADE;
