-- Floors and caps (min_rating, max_change, max_volatility; NULL = off, the
-- paper's procedure): in glicko2_close_period, glicko2_close_matches and
-- both live triggers.  Off or not binding: bit for bit the uncapped result;
-- binding: exactly the capped value (the move clamped to +-max_change, then
-- raised to min_rating, the volatility lowered to max_volatility, the RD
-- untouched), counted in the close's record; recompute closes again with
-- the caps recorded; bad values refused with their SQLSTATE, nothing changed.
CREATE SCHEMA league_caps;
SET search_path = league_caps, public;
\set SHOW_CONTEXT never

CREATE FUNCTION try(command text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE command;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- The rule, transcribed: what a capped close must hold, from the uncapped
-- rating and the rating before.
CREATE FUNCTION capped(before glicko2_rating, after glicko2_rating,
                       min_rating float8, max_change float8, max_volatility float8)
RETURNS glicko2_rating LANGUAGE sql AS $$
  SELECT ROW(CASE WHEN r < min_rating THEN min_rating ELSE r END, (after).rd,
             CASE WHEN (after).volatility > max_volatility THEN max_volatility ELSE (after).volatility END)::glicko2_rating
  FROM (SELECT CASE WHEN (after).rating - (before).rating > max_change THEN (before).rating + max_change
                    WHEN (before).rating - (after).rating > max_change THEN (before).rating - max_change
                    ELSE (after).rating END AS r) x
$$;

-- A league of 60 players around 1000, some far below, with a newcomer (61)
-- who beats the strongest many times: large moves.
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
INSERT INTO games
SELECT p, 1 + (p * 7 + g * 3) % 60, 1 + (p * 7 + g * 3 + 1 + g % 59) % 60, (g % 3) / 2.0
FROM generate_series(1, 3) p, generate_series(1, 300) g;
INSERT INTO games SELECT p, 61, 1 + k % 5, 1 FROM generate_series(1, 3) p, generate_series(1, 30) k;
CREATE TABLE start (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO start SELECT i, glicko2_rating(300 + 25 * i, 40 + i, 0.05 + (i % 7) / 100.0) FROM generate_series(1, 60) i;
CREATE TABLE plain (LIKE start INCLUDING ALL);
CREATE TABLE loose (LIKE start INCLUDING ALL);
CREATE TABLE capped (LIKE start INCLUDING ALL);
INSERT INTO plain SELECT * FROM start;
INSERT INTO loose SELECT * FROM start;
INSERT INTO capped SELECT * FROM start;

-- Period 1: caps that never bind give the same bits as no caps; lichess's
-- 400 / 700 / 0.1 bind and give exactly the capped values.
CALL glicko2_close_period('plain', 'games', 1, unguarded => true);
CALL glicko2_close_period('loose', 'games', 1, unguarded => true,
                          min_rating => -1e6, max_change => 1e6, max_volatility => 100);
CALL glicko2_close_period('capped', 'games', 1, unguarded => true,
                          min_rating => 400, max_change => 700, max_volatility => 0.1);
SELECT count(*) AS players,
       count(*) FILTER (WHERE l.rating IS DISTINCT FROM p.rating) AS loose_differs,
       count(*) FILTER (WHERE c.rating IS DISTINCT FROM p.rating) AS capped_differs,
       count(*) FILTER (WHERE c.rating IS DISTINCT FROM
                        capped(coalesce(s.rating, glicko2_rating()), p.rating, 400, 700, 0.1)) AS not_the_rule,
       count(*) FILTER (WHERE (c.rating).rating < 400 OR (c.rating).volatility > 0.1
                           OR abs((c.rating).rating - (coalesce(s.rating, glicko2_rating())).rating) > 700) AS outside
FROM plain p JOIN loose l USING (player_id) JOIN capped c USING (player_id) LEFT JOIN start s USING (player_id);
-- Each kind binds here: the newcomer's move, the floor, the volatility.
SELECT player_id, round((p.rating).rating::numeric, 3) AS uncapped, (c.rating).rating AS capped,
       round((p.rating).volatility::numeric, 5) AS vol_uncapped, (c.rating).volatility AS vol_capped
FROM plain p JOIN capped c USING (player_id)
WHERE p.rating IS DISTINCT FROM c.rating ORDER BY player_id LIMIT 6;
SELECT ratings::text, capped, min_rating, max_change, max_volatility FROM glicko2_closes
WHERE ratings IN ('plain'::regclass, 'loose'::regclass, 'capped'::regclass) ORDER BY 1;
SELECT capped = (SELECT count(*) FROM plain p JOIN capped c USING (player_id) WHERE p.rating IS DISTINCT FROM c.rating)
       AS counted FROM glicko2_closes WHERE ratings = 'capped'::regclass;

-- The join path (a BEFORE UPDATE trigger on the ratings) caps and counts alike.
CREATE TABLE joined (LIKE start INCLUDING ALL);
INSERT INTO joined SELECT * FROM start;
CREATE FUNCTION keep_row() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RETURN NEW; END$$;
CREATE TRIGGER keep_row BEFORE UPDATE ON joined FOR EACH ROW EXECUTE FUNCTION keep_row();
CALL glicko2_close_period('joined', 'games', 1, unguarded => true,
                          min_rating => 400, max_change => 700, max_volatility => 0.1);
SELECT (SELECT count(*) FROM joined j JOIN capped c USING (player_id) WHERE j.rating IS DISTINCT FROM c.rating) AS differs,
       (SELECT capped FROM glicko2_closes WHERE ratings = 'joined'::regclass)
       = (SELECT capped FROM glicko2_closes WHERE ratings = 'capped'::regclass) AS same_count;

-- Bad values: refused with their SQLSTATE, nothing written, nothing recorded.
CREATE TABLE snapshot AS SELECT * FROM capped;
SELECT c, try(c) FROM unnest(ARRAY[
  $$CALL glicko2_close_period('capped', 'games', 2, unguarded => true, min_rating => 'NaN')$$,
  $$CALL glicko2_close_period('capped', 'games', 2, unguarded => true, min_rating => '-Infinity')$$,
  $$CALL glicko2_close_period('capped', 'games', 2, unguarded => true, max_change => 0)$$,
  $$CALL glicko2_close_period('capped', 'games', 2, unguarded => true, max_change => -700)$$,
  $$CALL glicko2_close_period('capped', 'games', 2, unguarded => true, max_change => 'Infinity')$$,
  $$CALL glicko2_close_period('capped', 'games', 2, unguarded => true, max_volatility => 'NaN')$$,
  $$CALL glicko2_close_period('capped', 'games', 2, unguarded => true, max_volatility => -0.1)$$]) c;
SELECT (SELECT count(*) FROM capped c JOIN snapshot s USING (player_id) WHERE c.rating IS DISTINCT FROM s.rating) AS changed,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'capped'::regclass) AS closes;

-- Recompute closes again with the caps each close recorded: period 2
-- capped, then recomputed from period 1, comes out the same.
CREATE TABLE history (player_id int, period int, rating glicko2_rating, PRIMARY KEY (player_id, period));
CREATE TABLE league (LIKE start INCLUDING ALL);
CALL glicko2_close_period('league', 'games', 1, history => 'history', unguarded => true,
                          min_rating => 400, max_change => 200, max_volatility => 0.07);
CALL glicko2_close_period('league', 'games', 2, history => 'history', unguarded => true,
                          min_rating => 400, max_change => 200, max_volatility => 0.07);
CREATE TABLE league_before AS SELECT * FROM league;
CALL glicko2_recompute('league', 'games', 1, 'history');
SELECT (SELECT count(*) FROM league l JOIN league_before b USING (player_id) WHERE l.rating IS DISTINCT FROM b.rating) AS differs,
       (SELECT array_agg(capped ORDER BY close_number) FROM glicko2_closes WHERE ratings = 'league'::regclass) AS capped;

-- Team matches: glicko2_close_matches caps the same way.
CREATE TABLE matches (match_id int, period int, player_id int, team int, place int);
INSERT INTO matches
SELECT m, 1, 1 + (m * 4 + k) % 60, k % 2, CASE WHEN k % 2 = (m % 3 = 0)::int THEN 1 ELSE 2 END
FROM generate_series(1, 200) m, generate_series(0, 3) k;
INSERT INTO matches SELECT 1000 + k, 1, 61, 0, 1 FROM generate_series(1, 20) k;
INSERT INTO matches SELECT 1000 + k, 1, 1 + k % 3, 1, 2 FROM generate_series(1, 20) k;
CREATE TABLE team_plain (LIKE start INCLUDING ALL);
CREATE TABLE team_capped (LIKE start INCLUDING ALL);
INSERT INTO team_plain SELECT * FROM start;
INSERT INTO team_capped SELECT * FROM start;
CALL glicko2_close_matches('team_plain', 'matches', 1, unguarded => true);
CALL glicko2_close_matches('team_capped', 'matches', 1, unguarded => true,
                           min_rating => 400, max_change => 700, max_volatility => 0.1);
SELECT count(*) FILTER (WHERE c.rating IS DISTINCT FROM p.rating) AS capped_differs,
       count(*) FILTER (WHERE c.rating IS DISTINCT FROM
                        capped(coalesce(s.rating, glicko2_rating()), p.rating, 400, 700, 0.1)) AS not_the_rule,
       (SELECT capped FROM glicko2_closes WHERE ratings = 'team_capped'::regclass) AS recorded
FROM team_plain p JOIN team_capped c USING (player_id) LEFT JOIN start s USING (player_id);

-- Live games: the trigger's options; each game's new ratings capped from the
-- ratings before it (RD grown), the same bits as without when none binds.
CREATE TABLE live_plain (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE live_capped (LIKE live_plain INCLUDING ALL);
CREATE TABLE live_loose (LIKE live_plain INCLUDING ALL);
INSERT INTO live_plain SELECT player_id, rating, '2025-01-01' FROM start;
INSERT INTO live_capped SELECT * FROM live_plain;
INSERT INTO live_loose SELECT * FROM live_plain;
CREATE TABLE live_games (player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TABLE live_log (tbl text, game int, player_id int, before glicko2_rating, after glicko2_rating);
CREATE TRIGGER a_plain AFTER INSERT ON live_games FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('live_plain');
CREATE TRIGGER b_capped AFTER INSERT ON live_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('live_capped', 'min_rating=400', 'max_change=30', 'max_volatility=0.08');
CREATE TRIGGER c_loose AFTER INSERT ON live_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('live_loose', 'min_rating=-1e6', 'max_change=1e6', 'max_volatility=none');
-- One game at a time, each checked against the rule from the capped table's
-- rating before it (as the trigger saw it, RD grown) and the uncapped update
-- of that same rating.
DO $$
DECLARE
  g record;
  b1 glicko2_rating; b2 glicko2_rating;
BEGIN
  FOR g IN SELECT k, 1 + (k * 7) % 61 AS a, 1 + (k * 13 + 5) % 61 AS b, (k % 3) / 2.0 AS s
           FROM generate_series(1, 150) k WHERE 1 + (k * 7) % 61 <> 1 + (k * 13 + 5) % 61 LOOP
    b1 := (SELECT glicko2_rating_at(rating, rated_at, timestamptz '2025-01-01' + g.k * interval '1 hour')
           FROM live_capped WHERE player_id = g.a);
    b2 := (SELECT glicko2_rating_at(rating, rated_at, timestamptz '2025-01-01' + g.k * interval '1 hour')
           FROM live_capped WHERE player_id = g.b);
    INSERT INTO live_games VALUES (g.a, g.b, g.s, timestamptz '2025-01-01' + g.k * interval '1 hour');
    INSERT INTO live_log SELECT 'capped', g.k, g.a, coalesce(b1, glicko2_rating()),
                                (SELECT rating FROM live_capped WHERE player_id = g.a);
    INSERT INTO live_log VALUES ('expected', g.k, g.a, NULL,
      capped(coalesce(b1, glicko2_rating()), glicko2_game(coalesce(b1, glicko2_rating()), coalesce(b2, glicko2_rating()), g.s),
             400, 30, 0.08));
  END LOOP;
END $$;
SELECT count(*) AS games,
       count(*) FILTER (WHERE c.after IS DISTINCT FROM e.after) AS not_the_rule,
       count(*) FILTER (WHERE abs((c.after).rating - (c.before).rating) = 30) AS moves_capped
FROM live_log c JOIN live_log e ON e.game = c.game AND e.tbl = 'expected' WHERE c.tbl = 'capped';
SELECT count(*) FILTER (WHERE l.rating IS DISTINCT FROM p.rating) AS loose_differs,
       count(*) FILTER (WHERE c.rating IS DISTINCT FROM p.rating) AS capped_differs,
       count(*) FILTER (WHERE (c.rating).volatility > 0.08
                        AND player_id IN (SELECT player_id FROM live_games UNION SELECT opponent_id FROM live_games))
         AS players_above_vol_cap
FROM live_plain p JOIN live_loose l USING (player_id) JOIN live_capped c USING (player_id);

-- Live matches: the same options.
CREATE TABLE lm_plain (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE lm_capped (LIKE lm_plain INCLUDING ALL);
INSERT INTO lm_plain SELECT player_id, rating, '2025-01-01' FROM start;
INSERT INTO lm_capped SELECT * FROM lm_plain;
CREATE TABLE live_matches (match_id int, player_id int, team int, place int, played_at timestamptz);
CREATE INDEX ON live_matches (match_id);
CREATE TRIGGER a_plain AFTER INSERT ON live_matches REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('lm_plain');
CREATE TRIGGER b_capped AFTER INSERT ON live_matches REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('lm_capped', 'min_rating=400', 'max_change=10', 'max_volatility=0.07');
-- One match a statement, each move of a capped player at most 10 points
-- from his rating before the match.
CREATE TABLE lm_moves (match_id int, player_id int, move float8);
DO $$
BEGIN
  FOR m IN 1 .. 60 LOOP
    CREATE TEMP TABLE lm_before AS SELECT * FROM lm_capped;
    INSERT INTO live_matches
    SELECT m, 1 + (m * 4 + k) % 61, k % 2, CASE WHEN k % 2 = (m % 3 = 0)::int THEN 1 ELSE 2 END,
           timestamptz '2025-01-01' + m * interval '1 hour'
    FROM generate_series(0, 3) k;
    INSERT INTO lm_moves
    SELECT m, c.player_id, abs((c.rating).rating - coalesce((b.rating).rating, 1500))
    FROM lm_capped c LEFT JOIN lm_before b USING (player_id)
    WHERE c.player_id IN (SELECT player_id FROM live_matches WHERE match_id = m);
    DROP TABLE lm_before;
  END LOOP;
END $$;
SELECT count(*) FILTER (WHERE c.rating IS DISTINCT FROM p.rating) AS capped_differs,
       count(*) FILTER (WHERE (c.rating).volatility > 0.07 OR (c.rating).rating < 400) AS outside,
       (SELECT max(move) FROM lm_moves WHERE player_id > 3) AS largest_move_above_floor,
       (SELECT count(*) FROM lm_moves WHERE move = 10) AS moves_capped
FROM lm_plain p JOIN lm_capped c USING (player_id);

-- Bad trigger options: refused with their SQLSTATE at the first insert.
CREATE TABLE bad_games (player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TRIGGER bad AFTER INSERT ON bad_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('live_plain', 'max_change=-5');
SELECT try($$INSERT INTO bad_games VALUES (1, 2, 1, '2025-02-01')$$);
DROP TRIGGER bad ON bad_games;
CREATE TRIGGER bad AFTER INSERT ON bad_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('live_plain', 'min_rating=NaN');
SELECT try($$INSERT INTO bad_games VALUES (1, 2, 1, '2025-02-01')$$);
DROP TRIGGER bad ON bad_games;
CREATE TRIGGER bad AFTER INSERT ON bad_games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('live_plain', 'max_volatility=lots');
SELECT try($$INSERT INTO bad_games VALUES (1, 2, 1, '2025-02-01')$$);
SELECT count(*) AS bad_games_kept FROM bad_games;

DROP SCHEMA league_caps CASCADE;
