-- live_matches_teammates: glicko2_rate_matches with a teammates store
-- ('teammates=store'; docs/live.md, "Recurring teammates").  Each live match
-- is a period of its own for the close's mathematics (src/core/teammates.c)
-- with no Step 6 (t = 0) and a pair made by one match together: five matches
-- written one by one match the independent Python transcription
-- (python3 test/unit/teammates_reference.py --live) to 1e-9, ratings and
-- store after each; one-on-one and free-for-all matches give the trigger's
-- ratings without the store bit for bit and leave it empty; a trio that
-- always plays together keeps each member's RD above the bound of knowing
-- only the team's sum; a refused statement changes neither ratings nor
-- store; bad options are named.
SET TimeZone = 'UTC';
SET extra_float_digits = 0;
CREATE SCHEMA live_mates;
SET search_path = live_mates, public;
\set SHOW_CONTEXT never

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CALL glicko2_teammates_create('store', 'live_mates.ratings');
CREATE TABLE matches (match_id int, player_id int, team int, place int, played_at timestamptz,
                      PRIMARY KEY (match_id, player_id));
CREATE TRIGGER rate_matches AFTER INSERT ON matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'teammates=store');
INSERT INTO ratings
SELECT i, glicko2_rating(r, rd, 0.06), '2026-03-01 20:00+00'
FROM (VALUES (1, 1600, 80), (2, 1450, 200), (3, 1520, 150), (4, 1550, 120), (5, 1500, 350),
             (6, 1480, 100), (7, 1500, 90), (8, 1620, 110), (9, 1400, 250)) v(i, r, rd);
CREATE TABLE after_r (k int, player_id int, rating glicko2_rating);
CREATE TABLE after_s (k int, player_a int, player_b int, covariance float8);
-- the matches of teammates_reference.py's LIVE, one INSERT each, at one time
-- (no RD grows between them)
CREATE TABLE live_list (k int, player_id int, team int, place int);
INSERT INTO live_list VALUES
  (1, 1, 1, 1), (1, 2, 1, 1), (1, 3, 1, 1), (1, 4, 2, 2), (1, 5, 2, 2), (1, 6, 2, 2),
  (2, 1, 1, 2), (2, 2, 1, 2), (2, 3, 1, 2), (2, 7, 2, 1), (2, 8, 2, 1), (2, 9, 2, 1),
  (3, 1, 1, 2), (3, 2, 1, 2), (3, 3, 1, 2), (3, 4, 2, 1), (3, 5, 2, 1), (3, 6, 2, 1),
  (4, 1, 1, 1), (4, 7, 1, 1), (4, 8, 2, 2), (4, 9, 2, 2),
  (5, 2, 1, 2), (5, 4, 1, 2), (5, 3, 2, 1), (5, 5, 2, 1), (5, 6, 3, 3);
DO $$
BEGIN
  FOR m IN 1..5 LOOP
    INSERT INTO live_mates.matches
    SELECT m, player_id, team, place, '2026-03-01 20:00+00' FROM live_mates.live_list l WHERE l.k = m;
    INSERT INTO live_mates.after_r SELECT m, player_id, rating FROM live_mates.ratings;
    INSERT INTO live_mates.after_s SELECT m, * FROM live_mates.store;
  END LOOP;
END $$;
CREATE TABLE python (k int, player_id int, rating float8, rd float8, volatility float8);
INSERT INTO python VALUES
  (1, 1, 1607.302620281362, 79.58008062543273, 0.05999986384000289),
  (1, 2, 1495.6413767585125, 193.3452660105401, 0.05999986384000289),
  (1, 3, 1545.6732744266633, 147.21335684485192, 0.05999986384000289),
  (1, 4, 1534.7361827507002, 118.537543211517, 0.05999977231577138),
  (1, 5, 1370.1515546500536, 311.85625779866746, 0.05999977231577138),
  (1, 6, 1469.4001269102084, 99.15526007826026, 0.05999977231577138),
  (1, 7, 1500, 90.0, 0.06),
  (1, 8, 1620, 110.0, 0.06),
  (1, 9, 1400, 250.0, 0.06),
  (2, 1, 1598.5149058883499, 79.2043912312687, 0.060000042162135114),
  (2, 2, 1440.7181618021868, 187.22225160678414, 0.06000006373555799),
  (2, 3, 1514.7789660137303, 144.68751203069374, 0.06000005203803023),
  (2, 4, 1534.7361827507002, 118.537543211517, 0.05999977231577138),
  (2, 5, 1370.1515546500536, 311.85625779866746, 0.05999977231577138),
  (2, 6, 1469.4001269102084, 99.15526007826026, 0.05999977231577138),
  (2, 7, 1512.2994914668475, 89.32381426898964, 0.0600001861895231),
  (2, 8, 1638.3733144134387, 108.7631114162311, 0.0600001861895231),
  (2, 9, 1494.9034835404896, 235.11852045711288, 0.0600001861895231),
  (3, 1, 1590.5177379446764, 78.9355530427373, 0.060000264013147946),
  (3, 2, 1390.7358621542278, 182.73331983585877, 0.060000341286500655),
  (3, 3, 1486.6639224617534, 142.8601364813044, 0.060000298256875605),
  (3, 4, 1551.5221615750663, 117.68194831827348, 0.05999993661017937),
  (3, 5, 1512.9489439545564, 287.4511071698524, 0.06000002043785359),
  (3, 6, 1481.0570566493516, 98.66254761793759, 0.059999934146763384),
  (3, 7, 1512.2994914668475, 89.32381426898964, 0.0600001861895231),
  (3, 8, 1638.3733144134387, 108.7631114162311, 0.0600001861895231),
  (3, 9, 1494.9034835404896, 235.11852045711288, 0.0600001861895231),
  (4, 1, 1601.5824267507255, 78.20494636127796, 0.06000034353273833),
  (4, 2, 1390.7358621542278, 182.73331983585877, 0.060000341286500655),
  (4, 3, 1486.6639224617534, 142.8601364813044, 0.060000298256875605),
  (4, 4, 1551.5221615750663, 117.68194831827348, 0.05999993661017937),
  (4, 5, 1512.9489439545564, 287.4511071698524, 0.06000002043785359),
  (4, 6, 1481.0570566493516, 98.66254761793759, 0.059999934146763384),
  (4, 7, 1526.9207992887962, 87.95760860486402, 0.06000000382068807),
  (4, 8, 1620.9523214402743, 107.20767935151947, 0.06000009154777078),
  (4, 9, 1405.0206411925087, 214.49569364740978, 0.060000026791119467),
  (5, 1, 1601.5824267507255, 78.20494636127796, 0.06000034353273833),
  (5, 2, 1404.6614353577083, 166.43472683610028, 0.05999833393111386),
  (5, 3, 1520.6768210602943, 135.98567686974908, 0.05999955468772975),
  (5, 4, 1554.4398071608234, 112.26224423685076, 0.059997309615779135),
  (5, 5, 1656.7082515739478, 231.84103203093798, 0.05999953013427709),
  (5, 6, 1449.4679849651695, 94.66543371178199, 0.06000089740421669),
  (5, 7, 1526.9207992887962, 87.95760860486402, 0.06000000382068807),
  (5, 8, 1620.9523214402743, 107.20767935151947, 0.06000009154777078),
  (5, 9, 1405.0206411925087, 214.49569364740978, 0.060000026791119467);
CREATE TABLE python_pairs (k int, player_a int, player_b int, covariance float8);
INSERT INTO python_pairs VALUES
  (1, 1, 2, -418.81729781016065),
  (1, 1, 3, -235.58473001821528),
  (1, 2, 3, -1472.4045626138459),
  (1, 4, 5, -2967.654795053708),
  (1, 4, 6, -242.25753429009868),
  (1, 5, 6, -2060.8713854539637),
  (2, 1, 2, -791.6525605257661),
  (2, 1, 3, -445.30456529574315),
  (2, 2, 3, -2783.153533098397),
  (2, 4, 5, -2967.654795053708),
  (2, 4, 6, -242.2575342900987),
  (2, 5, 6, -2060.8713854539637),
  (2, 7, 9, -935.6188614123383),
  (2, 8, 9, -1397.6528670480616),
  (3, 1, 2, -1057.3654114825206),
  (3, 1, 3, -594.7680439589175),
  (3, 2, 3, -3717.3002747432365),
  (3, 4, 5, -4686.977944573837),
  (3, 4, 6, -382.6104444550071),
  (3, 5, 6, -3254.845794842941),
  (3, 7, 9, -935.6188614123384),
  (3, 8, 9, -1397.6528670480616),
  (4, 1, 2, -1037.933989420442),
  (4, 1, 3, -583.8239270829506),
  (4, 1, 7, -157.92239962604853),
  (4, 2, 3, -3717.3002747432365),
  (4, 4, 5, -4686.977944573838),
  (4, 4, 6, -382.6104444550071),
  (4, 5, 6, -3254.845794842941),
  (4, 7, 9, 583.2089958135788),
  (4, 8, 9, -3142.2203005125216),
  (5, 1, 2, -907.5280327657688),
  (5, 1, 3, -582.2293179361092),
  (5, 1, 7, -157.92239962604853),
  (5, 2, 3, -1817.579859294454),
  (5, 2, 4, -2381.627014580274),
  (5, 3, 5, -6849.4246432348555),
  (5, 4, 5, -1343.1105426098366),
  (5, 7, 9, 583.2089958135788),
  (5, 8, 9, -3142.2203005125216);
SELECT p.k, count(*) AS players,
       max(greatest(abs((h.rating).rating - p.rating), abs((h.rating).rd - p.rd) / p.rd,
                    abs((h.rating).volatility - p.volatility) / p.volatility)) < 1e-9 AS matches_python
FROM python p JOIN after_r h USING (k, player_id) GROUP BY p.k ORDER BY 1;
SELECT p.k, p.player_a, p.player_b, abs(s.covariance - p.covariance) / abs(p.covariance) < 1e-9 AS matches_python
FROM python_pairs p FULL JOIN after_s s USING (k, player_a, player_b) ORDER BY 1, 2, 3;

-- The five matches in one INSERT: each rated from the ratings and the store
-- as the matches before it left them, so the same bits as one by one
CREATE TABLE one_r (LIKE ratings INCLUDING ALL);
CALL glicko2_teammates_create('one_s', 'live_mates.one_r');
CREATE TABLE one_m (LIKE matches INCLUDING ALL);
CREATE TRIGGER rate_matches AFTER INSERT ON one_m REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('one_r', 'teammates=one_s');
INSERT INTO one_r
SELECT i, glicko2_rating(r, rd, 0.06), '2026-03-01 20:00+00'
FROM (VALUES (1, 1600, 80), (2, 1450, 200), (3, 1520, 150), (4, 1550, 120), (5, 1500, 350),
             (6, 1480, 100), (7, 1500, 90), (8, 1620, 110), (9, 1400, 250)) v(i, r, rd);
INSERT INTO one_m SELECT * FROM matches;
SELECT count(*) AS players, count(*) FILTER (WHERE o.rating::text = r.rating::text) AS same_bits
FROM one_r o JOIN ratings r USING (player_id);
SELECT count(*) AS pairs, count(*) FILTER (WHERE o.covariance = s.covariance) AS same_bits
FROM one_s o FULL JOIN store s USING (player_a, player_b);

-- One-on-one and free-for-all matches (teams of one): no teammates, so the
-- store stays empty and the ratings are the trigger's without it, bit for bit
CREATE TABLE solo_r (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE solo_plain (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CALL glicko2_teammates_create('solo_s', 'live_mates.solo_r');
CREATE TABLE solo_m (match_id int, player_id int, team int, place int, played_at timestamptz,
                     PRIMARY KEY (match_id, player_id));
CREATE TABLE solo_m2 (LIKE solo_m INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON solo_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('solo_r', 'teammates=solo_s', 'period=1 hour');
CREATE TRIGGER rate AFTER INSERT ON solo_m2 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('solo_plain', 'period=1 hour');
DO $$
BEGIN
  FOR k IN 1..40 LOOP
    INSERT INTO live_mates.solo_m
    SELECT k, p, p, 1 + (hashint4(k * 31 + p) & 3), '2026-03-01 20:00+00'::timestamptz + k * interval '7 minutes'
    FROM generate_series(1 + k % 5, 3 + k % 5 + (k % 3)) p;
    INSERT INTO live_mates.solo_m2 SELECT * FROM live_mates.solo_m WHERE match_id = k;
  END LOOP;
END $$;
SELECT count(*) AS players, count(*) FILTER (WHERE s.rating::text = p.rating::text AND s.rated_at = p.rated_at) AS same_bits
FROM solo_r s JOIN solo_plain p USING (player_id);
SELECT count(*) AS pairs FROM solo_s;

-- A trio always together against strangers (36 matches, an hour apart):
-- only the team's sum is measured, so each member's variance cannot fall
-- below that of his deviation from the trio's mean, 2/3 of the prior's
-- (RD >= 350 sqrt(2/3) = 285.77); without the store it does.
CREATE TABLE trio_r (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE trio_plain (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CALL glicko2_teammates_create('trio_s', 'live_mates.trio_r');
CREATE TABLE trio_m (match_id int, player_id int, team int, place int, played_at timestamptz,
                     PRIMARY KEY (match_id, player_id));
CREATE TABLE trio_m2 (LIKE trio_m INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON trio_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_r', 'teammates=trio_s');
CREATE TRIGGER rate AFTER INSERT ON trio_m2 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_plain');
DO $$
BEGIN
  FOR k IN 1..36 LOOP
    INSERT INTO live_mates.trio_m
    SELECT k, x, CASE WHEN x <= 3 THEN 1 ELSE 2 END,
           CASE WHEN (x <= 3) = (hashint4(k) % 3 <> 0) THEN 1 ELSE 2 END,
           '2026-03-01 20:00+00'::timestamptz + k * interval '1 hour'
    FROM unnest(ARRAY[1, 2, 3, 1 + 3 * k, 2 + 3 * k, 3 + 3 * k]) x;
    INSERT INTO live_mates.trio_m2 SELECT * FROM live_mates.trio_m WHERE match_id = k;
  END LOOP;
END $$;
SELECT r.player_id, round((r.rating).rd::numeric, 1) AS rd_with_store, (r.rating).rd >= 350 * sqrt(2.0 / 3) AS above_bound,
       round((t.rating).rd::numeric, 1) AS rd_without
FROM trio_r r JOIN trio_plain t USING (player_id) WHERE r.player_id <= 3 ORDER BY 1;
SELECT player_a, player_b, round((covariance / 350 ^ 2)::numeric, 2) AS covariance_over_350_squared
FROM trio_s WHERE player_b <= 3 ORDER BY 1, 2;

-- All or nothing: a refused statement (a bad match beside a good one)
-- changes neither the ratings nor the store
CREATE TABLE before_r AS SELECT * FROM trio_r;
CREATE TABLE before_s AS SELECT * FROM trio_s;
INSERT INTO trio_m VALUES (100, 1, 1, 1, '2026-03-05 20:00+00'), (100, 2, 1, 1, '2026-03-05 20:00+00'),
  (100, 200, 2, 2, '2026-03-05 20:00+00'), (101, 3, 1, 1, '2026-03-05 20:00+00');
SELECT (SELECT count(*) FROM trio_r r JOIN before_r b USING (player_id) WHERE r.rating::text = b.rating::text) AS same_ratings,
       (SELECT count(*) FROM trio_r) AS ratings,
       (SELECT count(*) FROM trio_s s JOIN before_s b USING (player_a, player_b) WHERE s.covariance = b.covariance) AS same_pairs,
       (SELECT count(*) FROM trio_s) AS pairs;

-- Bad options, named at the first insert
CREATE TABLE bad_m (LIKE trio_m INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON bad_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_r', 'teammates=no_such_store');
INSERT INTO bad_m VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER rate ON bad_m;
-- the store of another ratings table (text keys)
CREATE TABLE text_r (player_id text PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CALL glicko2_teammates_create('text_s', 'live_mates.text_r');
CREATE TRIGGER rate AFTER INSERT ON bad_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_r', 'teammates=text_s');
INSERT INTO bad_m VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER rate ON bad_m;
-- the store of another ratings table with the same key type (55000, both
-- tables named): as created for it; named by a close of it (a store made
-- by hand, no record of its creation); named by a trigger rating it
CREATE TABLE other_r (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CALL glicko2_teammates_create('other_s', 'live_mates.other_r');
CREATE TRIGGER rate AFTER INSERT ON bad_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_r', 'teammates=other_s');
INSERT INTO bad_m VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
\echo :LAST_ERROR_SQLSTATE
DROP TRIGGER rate ON bad_m;
CREATE TABLE hand_s (LIKE trio_s INCLUDING ALL);
CREATE TABLE other_closed (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('other_closed');
INSERT INTO other_closed VALUES (1, 1, 1, 1, 1), (1, 1, 2, 1, 1), (1, 1, 3, 2, 2);
CALL glicko2_close_matches('other_r', 'other_closed', 1, teammates => 'hand_s');
SELECT count(*) AS pairs_closed FROM hand_s;
CREATE TRIGGER rate AFTER INSERT ON bad_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_r', 'teammates=hand_s');
INSERT INTO bad_m VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
\echo :LAST_ERROR_SQLSTATE
DROP TRIGGER rate ON bad_m;
CREATE TABLE hand2_s (LIKE trio_s INCLUDING ALL);
CREATE TABLE other_m (LIKE trio_m INCLUDING ALL);
CREATE TRIGGER rate_other AFTER INSERT ON other_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('other_r', 'teammates=live_mates.hand2_s');
INSERT INTO other_m VALUES (1, 1, 1, 1, now()), (1, 2, 1, 1, now()), (1, 3, 2, 2, now());
CREATE TRIGGER rate AFTER INSERT ON bad_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_r', 'teammates=hand2_s');
INSERT INTO bad_m VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
\echo :LAST_ERROR_SQLSTATE
DROP TRIGGER rate ON bad_m;
-- (the trigger rating other_r with its store is not refused)
SELECT count(*) AS other_pairs FROM hand2_s;
-- not a table
CREATE VIEW store_view AS SELECT * FROM trio_s;
CREATE TRIGGER rate AFTER INSERT ON bad_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_r', 'teammates=store_view');
INSERT INTO bad_m VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER rate ON bad_m;
-- a method without the team model's sums
CREATE TRIGGER rate AFTER INSERT ON bad_m REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('trio_r', 'teammates=trio_s', 'method=individual');
INSERT INTO bad_m VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
SELECT count(*) AS rows_written FROM bad_m;

RESET search_path;
DROP SCHEMA live_mates CASCADE;
