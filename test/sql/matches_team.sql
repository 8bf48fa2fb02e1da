-- glicko2_close_matches with the team model ('sum', the default, and
-- 'mean'): the new ratings of a 2v2, a 2v2 with a half-time player and a
-- free-for-all of teams of 1, 2 and 3 against TEAM_MATH's formulas written
-- out independently in Python (test/unit/team_reference.py: its terms, then
-- the paper's Steps 5-8); weights of 1 are no weight column, bit for bit;
-- the same bits whatever the order of the rows and the numbering of teams;
-- a 12v12 league of 30 periods closes with every method, every rating finite.
CREATE SCHEMA matches_team;
SET search_path = matches_team, public;
\set SHOW_CONTEXT never

CREATE TABLE base (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO base VALUES
  (1, glicko2_rating(1600, 80)), (2, glicko2_rating(1450, 200)), (3, glicko2_rating(1550, 120)),
  (11, glicko2_rating(1700, 60)), (12, glicko2_rating(1500, 100)), (13, glicko2_rating(1400, 300)),
  (15, glicko2_rating(1650, 150)), (16, glicko2_rating(1350, 90));
-- Period 1: the 2v2 (team 1 wins; player 4 is new).  Period 2: the same
-- with player 2 on half the match.  Period 3: team 2 (12, 13) first, team 1
-- (11) and team 3 (14 new, 15, 16) tied second.
-- (not guarded: the test rewrites closed periods)
CREATE TABLE matches (match_id int, period int, player_id int, team int, place int, weight float8);
INSERT INTO matches VALUES
  (1, 1, 1, 1, 1, 1), (1, 1, 2, 1, 1, 1), (1, 1, 3, 2, 2, 1), (1, 1, 4, 2, 2, 1),
  (2, 2, 1, 1, 1, 1), (2, 2, 2, 1, 1, 0.5), (2, 2, 3, 2, 2, 1), (2, 2, 4, 2, 2, 1),
  (3, 3, 11, 1, 2, 1), (3, 3, 12, 2, 1, 1), (3, 3, 13, 2, 1, 1),
  (3, 3, 14, 3, 2, 1), (3, 3, 15, 3, 2, 1), (3, 3, 16, 3, 2, 1);
-- Python's new ratings (rating, RD, volatility) by method and period.
CREATE TABLE python (method text, period int, player_id int, rating float8, rd float8, volatility float8);
INSERT INTO python VALUES
  ('sum', 1, 1, 1609.497691424317, 80.10710388835952, 0.06),
  ('sum', 1, 2, 1506.7367963357092, 191.25624763131523, 0.059999921335278684),
  ('sum', 1, 3, 1528.9767203289255, 118.54243701094987, 0.06),
  ('sum', 1, 4, 1342.7881335266627, 297.12542300389947, 0.05999973957691964),
  ('mean', 1, 1, 1607.7188545248523, 80.30257781562116, 0.06),
  ('mean', 1, 2, 1496.6334318375302, 194.42535578796597, 0.05999996638277458),
  ('mean', 1, 3, 1532.8719619742399, 119.20187024785824, 0.06),
  ('mean', 1, 4, 1365.3373613940614, 316.9877658879057, 0.059999891777344466),
  ('sum', 2, 1, 1609.8428966886115, 80.01206480929713, 0.059999905494762154),
  ('sum', 2, 2, 1480.2158328750077, 197.72045182812815, 0.06),
  ('sum', 2, 3, 1528.2502690346107, 118.2204684762757, 0.05999988482532995),
  ('sum', 2, 4, 1343.4443919634548, 286.68764898711123, 0.05999956885695771),
  ('mean', 2, 1, 1609.7808835496053, 79.99184079561414, 0.059999862673272945),
  ('mean', 2, 2, 1480.0182719249706, 197.64240998627622, 0.05999996327363953),
  ('mean', 2, 3, 1533.6776680007188, 119.16795914685183, 0.05999992022519295),
  ('mean', 2, 4, 1372.8768813633392, 316.01124887955746, 0.05999982153650751),
  ('sum', 3, 11, 1690.9626473932892, 60.4967885793726, 0.06000097429563871),
  ('sum', 3, 12, 1532.1760764763214, 98.92863339896086, 0.06000284508959694),
  ('sum', 3, 13, 1665.3972877305441, 256.5225856133478, 0.060002314852633576),
  ('sum', 3, 14, 1435.374778753852, 286.27180946640084, 0.0599990113826458),
  ('sum', 3, 15, 1633.5068207012805, 145.41949615150958, 0.05999905174128805),
  ('sum', 3, 16, 1343.78040448638, 89.52259731547905, 0.05999905889512641),
  ('mean', 3, 11, 1685.0635698779936, 60.04852027532744, 0.06000356292143135),
  ('mean', 3, 12, 1525.9610213662017, 99.53884023993108, 0.06000188718500409),
  ('mean', 3, 13, 1616.5745361763434, 273.3216690879518, 0.060001580655266916),
  ('mean', 3, 14, 1459.068186588765, 329.65674722424603, 0.05999966775877456),
  ('mean', 3, 15, 1641.7077873622966, 148.74336325786555, 0.05999966900584426),
  ('mean', 3, 16, 1346.9503855389667, 90.2476130333249, 0.05999966923409898);
-- Each period closed from the base ratings, by each method, each close in
-- a ratings table of its own (kept: the closes' record names them).
CREATE TABLE closed (label text, method text, period int, player_id int, rating glicko2_rating);
CREATE SEQUENCE tables;
CREATE PROCEDURE close_from_base(label text, method text, period int, weight_column name DEFAULT NULL,
                                 source regclass DEFAULT 'matches')
LANGUAGE plpgsql AS $$
DECLARE
  r text := 'r' || nextval('tables');
BEGIN
  EXECUTE format('CREATE TABLE %I (LIKE base INCLUDING ALL)', r);
  EXECUTE format('INSERT INTO %I SELECT * FROM base', r);
  CALL glicko2_close_matches(r::regclass, source, period, method, weight_column => weight_column,
                             unguarded => true);
  EXECUTE format('INSERT INTO closed SELECT $1, $2, $3, player_id, rating FROM %I', r)
    USING label, method, period;
END $$;
SET client_min_messages = warning;
CALL close_from_base('python', 'sum', 1);
CALL close_from_base('python', 'mean', 1);
CALL close_from_base('python', 'sum', 2);
CALL close_from_base('python', 'mean', 2);
CALL close_from_base('python', 'sum', 3);
CALL close_from_base('python', 'mean', 3);
RESET client_min_messages;
SELECT p.method, p.period, count(*) AS players,
       count(*) FILTER (WHERE abs((c.rating).rating - p.rating) < 1e-9 AND abs((c.rating).rd - p.rd) < 1e-9
                        AND abs((c.rating).volatility - p.volatility) < 1e-12) AS as_python
FROM python p LEFT JOIN closed c ON c.label = 'python' AND (c.method, c.period, c.player_id) = (p.method, p.period, p.player_id)
GROUP BY p.method, p.period ORDER BY p.period, p.method;
-- Idle players of those closes: Step 6 from the base rating.
SELECT count(*) AS idle, count(*) FILTER (WHERE c.rating = glicko2_idle(b.rating)) AS step_6
FROM closed c JOIN base b USING (player_id)
WHERE c.method = 'sum' AND c.period = 1 AND c.player_id NOT IN (1, 2, 3);

-- Weights of 1 are no weight column, bit for bit (period 1, every method):
-- without a column named weight, none is read; with one, it is; and
-- weight_column names the column to read.
ALTER TABLE matches RENAME COLUMN weight TO share;
SET client_min_messages = warning;
CALL close_from_base('no column', 'sum', 1);
CALL close_from_base('no column', 'mean', 1);
CALL close_from_base('no column', 'individual', 1);
CALL close_from_base('no column', 'composite', 1);
ALTER TABLE matches RENAME COLUMN share TO weight;
CALL close_from_base('ones', 'sum', 1);
CALL close_from_base('ones', 'mean', 1);
CALL close_from_base('ones', 'individual', 1);
CALL close_from_base('ones', 'composite', 1);
ALTER TABLE matches ADD COLUMN played float8 DEFAULT 1;
UPDATE matches SET played = 0.25 WHERE period = 1 AND player_id = 1;
CALL close_from_base('player 1 a quarter', 'sum', 1, 'played');
RESET client_min_messages;
SELECT a.method, count(*) AS players, count(*) FILTER (WHERE a.rating IS NOT DISTINCT FROM b.rating) AS same_bits
FROM closed a JOIN closed b USING (method, period, player_id)
WHERE a.label = 'no column' AND b.label = 'ones'
GROUP BY a.method ORDER BY a.method;
SELECT count(*) AS players, count(*) FILTER (WHERE a.rating IS DISTINCT FROM b.rating) AS moved,
       string_agg(player_id::text, ' ' ORDER BY player_id) FILTER (WHERE a.rating IS DISTINCT FROM b.rating) AS who
FROM closed a JOIN closed b USING (method, period, player_id)
WHERE a.label = 'ones' AND b.label = 'player 1 a quarter';

-- Order: the same matches inserted in another order, with the teams numbered
-- otherwise, close to the same bits by every method.
CREATE TABLE shuffled (LIKE matches);
INSERT INTO shuffled SELECT match_id, period, player_id, 10 - team, place, weight
FROM matches ORDER BY md5(player_id::text || period::text);
UPDATE shuffled SET weight = 0.75 WHERE player_id = 13;
UPDATE matches SET weight = 0.75 WHERE player_id = 13;
SET client_min_messages = warning;
DO $$
DECLARE
  m text;
BEGIN
  FOREACH m IN ARRAY ARRAY['sum', 'mean', 'individual', 'composite'] LOOP
    CALL close_from_base('in order', m, 3);
    CALL close_from_base('shuffled', m, 3, source => 'shuffled');
  END LOOP;
END $$;
RESET client_min_messages;
SELECT a.method, count(*) AS players, count(*) FILTER (WHERE a.rating = b.rating) AS same_bits,
       count(*) FILTER (WHERE a.rating <> c.rating) AS moved_by_the_weight
FROM closed a JOIN closed b USING (method, period, player_id)
LEFT JOIN closed c ON c.label = 'python' AND (c.method, c.period, c.player_id) = (a.method, a.period, a.player_id)
WHERE a.label = 'in order' AND b.label = 'shuffled' AND a.period = 3
GROUP BY a.method ORDER BY a.method;

-- A 12v12 league of 30 periods (hidden strengths, a seeded generator): 96
-- players, 8 matches of 24 a period, each player in 2; the better sum of
-- strength plus noise wins.  Every method closes every period; every rating
-- finite, within a few thousand points of 1500, every RD at most 350.
SELECT setseed(0.25);
CREATE TABLE strength AS SELECT p AS player_id, 300 * (random() - 0.5) * 2 AS s FROM generate_series(1, 96) p;
CREATE TABLE league (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('league');
DO $$
DECLARE
  per int;
  half int;
BEGIN
  FOR per IN 1..30 LOOP
    FOR half IN 0..1 LOOP
      -- the 96 players in a random order, 4 matches of 24: 12 a team
      INSERT INTO league
      WITH seated AS (SELECT player_id, row_number() OVER (ORDER BY random()) - 1 AS seat FROM strength),
      teams AS (SELECT player_id, seat / 24 AS m, (seat % 24) / 12 AS t FROM seated),
      perf AS (SELECT t.m, t.t, sum(s.s + 173.7178 * (-ln(-ln(random())))) AS p
               FROM teams t JOIN strength s USING (player_id) GROUP BY t.m, t.t)
      SELECT per * 100 + half * 10 + t.m, per, t.player_id, t.t,
             CASE WHEN p.p >= max(p.p) OVER (PARTITION BY t.m) THEN 1 ELSE 2 END
      FROM teams t JOIN perf p USING (m, t);
    END LOOP;
  END LOOP;
END $$;
SELECT count(*) AS rows, count(DISTINCT match_id) AS matches, count(DISTINCT (match_id, team)) AS teams FROM league;
CREATE TABLE league_ratings (method text, player_id int, rating glicko2_rating);
DO $$
DECLARE
  m text;
BEGIN
  FOREACH m IN ARRAY ARRAY['sum', 'mean', 'individual', 'composite'] LOOP
    EXECUTE format('CREATE TABLE %I (player_id int PRIMARY KEY, rating glicko2_rating)', 'league_' || m);
    FOR per IN 1..30 LOOP
      CALL glicko2_close_matches(('league_' || m)::regclass, 'league', per, m);
    END LOOP;
    EXECUTE format('INSERT INTO league_ratings SELECT $1, player_id, rating FROM %I', 'league_' || m) USING m;
  END LOOP;
END $$;
SELECT method, count(*) AS players,
       count(*) FILTER (WHERE abs((rating).rating - 1500) < 3000 AND (rating).rd > 0 AND (rating).rd <= 350
                        AND (rating).volatility > 0 AND (rating).volatility < 1) AS sane,
       corr((rating).rating, s) > 0.5 AS follows_strength
FROM league_ratings JOIN strength USING (player_id)
GROUP BY method ORDER BY method;
SELECT count(*) AS closes FROM glicko2_closes WHERE games_table = 'league'::regclass;

DROP SCHEMA matches_team CASCADE;
