-- glicko2_rate_matches: team and free-for-all matches rated live.  Checked
-- against TEAM_MATH's team model and the paper's Steps 5-8 written out
-- here in SQL (not the extension's code), against glicko2_rate_games for
-- one-on-one games (bit for bit), and for its refusals.
SET TimeZone = 'UTC';
CREATE SCHEMA live_matches;
SET search_path = live_matches, public;
\set SHOW_CONTEXT never

CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE matches (match_id int, player_id int, team int, place int, played_at timestamptz,
                      weight float8 DEFAULT 1, PRIMARY KEY (match_id, player_id));
CREATE TRIGGER rate_matches AFTER INSERT ON matches REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings');

-- The paper's Steps 5-8 at t = 0 (no growth inside the match) from a
-- player's Step 3/4 sums, on the Glicko-2 scale; returns the public scale.
CREATE FUNCTION hand_update(mu float8, phi float8, sigma float8, info float8, surprise float8,
                            tau float8 DEFAULT 0.5) RETURNS glicko2_rating
LANGUAGE plpgsql AS $$
DECLARE
  v float8 := 1 / info;
  delta float8 := v * surprise;
  a float8 := ln(sigma ^ 2);
  big_a float8 := a;
  big_b float8;
  big_c float8;
  fa float8; fb float8; fc float8;
  k int := 1;
  phi_new float8;
BEGIN
  IF delta ^ 2 > phi ^ 2 + v THEN
    big_b := ln(delta ^ 2 - phi ^ 2 - v);
  ELSE
    WHILE hand_f(a - k * tau, delta, phi, v, a, tau) < 0 LOOP k := k + 1; END LOOP;
    big_b := a - k * tau;
  END IF;
  fa := hand_f(big_a, delta, phi, v, a, tau);
  fb := hand_f(big_b, delta, phi, v, a, tau);
  WHILE abs(big_b - big_a) > 0.000001 LOOP
    big_c := big_a + (big_a - big_b) * fa / (fb - fa);
    fc := hand_f(big_c, delta, phi, v, a, tau);
    IF fc * fb <= 0 THEN big_a := big_b; fa := fb; ELSE fa := fa / 2; END IF;
    big_b := big_c; fb := fc;
  END LOOP;
  phi_new := 1 / sqrt(1 / phi ^ 2 + 1 / v);     -- Step 6 at t = 0: phi* = phi
  RETURN glicko2_rating(1500 + 173.7178 * (mu + phi_new ^ 2 * surprise), 173.7178 * phi_new,
                        exp(big_a / 2));
END $$;
CREATE FUNCTION hand_f(x float8, delta float8, phi float8, v float8, a float8, tau float8)
RETURNS float8 LANGUAGE sql AS $$
  SELECT exp(x) * (delta ^ 2 - phi ^ 2 - v - exp(x)) / (2 * (phi ^ 2 + v + exp(x)) ^ 2) - (x - a) / tau ^ 2
$$;

-- One match rated by hand from the ratings in `pre` (a copy taken before
-- it): each RD grown for the days since rated_at (capped at 350), then
-- TEAM_MATH's terms: a_i = weight ('sum') or weight over the team's
-- ('mean'); each pair of teams one game with D = M_t - M_u,
-- s^2 = (sum a_t + sum a_u) / 2, Phi2 everyone's a^2 phi^2 but his own,
-- h = 1 / sqrt(s^2 + 3 Phi2 / pi^2), E = 1 / (1 + exp(-h D)), weighted by
-- lambda_m = 4 (m - H_m) / (m (m - 1)).  With parties (docs/matches.md): D
-- gains (e_t - e_u) / 173.7178, e_t = pa * (sum of a over the team's players
-- whose label two or more of them share) + sa * (sum of the team's weights - 1).
CREATE TABLE pre (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE FUNCTION hand_match(method text, id int, source regclass DEFAULT 'matches',
                           pa float8 DEFAULT 0, sa float8 DEFAULT 0)
RETURNS TABLE (player_id int, rating glicko2_rating) LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY EXECUTE format($q$
  WITH rows AS (
    SELECT m.player_id AS p, m.team AS t, m.place AS pl, m.weight AS w, m.played_at AS at,
           %s AS party,
           coalesce((r.rating).rating, 1500) AS r0, coalesce((r.rating).rd, 350) AS rd0,
           coalesce((r.rating).volatility, 0.06) AS sigma,
           CASE WHEN r.rating IS NULL OR r.rated_at IS NULL OR m.played_at <= r.rated_at THEN 0
                ELSE extract(epoch FROM m.played_at - r.rated_at)::float8 / 86400 END AS days
    FROM %s m LEFT JOIN pre r USING (player_id) WHERE m.match_id = $2),
  grown AS (
    SELECT p, t, pl, w, sigma, count(party) OVER (PARTITION BY t, party) AS in_party,
           (r0 - 1500) / 173.7178 AS mu,
           CASE WHEN 173.7178 * sqrt((rd0 / 173.7178) ^ 2 + days * sigma ^ 2) > 350 THEN greatest(rd0, 350)
                ELSE 173.7178 * sqrt((rd0 / 173.7178) ^ 2 + days * sigma ^ 2) END / 173.7178 AS phi
    FROM rows),
  weighted AS (
    SELECT *, CASE $1 WHEN 'sum' THEN w ELSE w / sum(w) OVER (PARTITION BY t) END AS a FROM grown),
  teams AS (SELECT t, min(pl) AS pl, sum(a * mu) AS big_m, sum(a) AS big_a,
                   $3 * coalesce(sum(a) FILTER (WHERE in_party >= 2), 0) + $4 * (sum(w) - 1) AS edge
            FROM weighted GROUP BY t),
  lambda AS (
    SELECT 4 * (n - (SELECT sum(1 / k::float8) FROM generate_series(1, n::int) k)) / (n * (n - 1)) AS lam
    FROM (SELECT count(*)::float8 AS n FROM teams) c),
  games AS (
    SELECT i.p, i.a, i.mu, i.phi, i.sigma,
           (SELECT lam FROM lambda) AS lam,
           ti.big_m - tu.big_m + (ti.edge - tu.edge) / 173.7178 AS d,
           1 / sqrt((ti.big_a + tu.big_a) / 2
                    + 3 * (SELECT sum(j.a ^ 2 * j.phi ^ 2) FROM weighted j
                           WHERE j.t IN (ti.t, tu.t) AND j.p <> i.p) / pi() ^ 2) AS h,
           CASE WHEN ti.pl < tu.pl THEN 1 WHEN ti.pl = tu.pl THEN 0.5 ELSE 0 END AS score
    FROM weighted i JOIN teams ti ON ti.t = i.t JOIN teams tu ON tu.t <> i.t),
  expected AS (SELECT *, 1 / (1 + exp(-h * d)) AS e FROM games)
  SELECT p, live_matches.hand_update(min(mu), min(phi), min(sigma),
                                     sum(lam * (a * h) ^ 2 * e * (1 - e)), sum(lam * a * h * (score - e)))
  FROM expected GROUP BY p ORDER BY p
  $q$, CASE WHEN EXISTS (SELECT FROM pg_attribute WHERE attrelid = source AND attname = 'party')
            THEN 'm.party' ELSE 'NULL::int' END, source) USING method, id, pa, sa;
END $$;
-- Relative differences of every field, live against by hand.
CREATE FUNCTION worst(a glicko2_rating, b glicko2_rating) RETURNS float8 LANGUAGE sql AS $$
  SELECT greatest(abs(a.rating / b.rating - 1), abs(a.rd / b.rd - 1), abs(a.volatility / b.volatility - 1))
$$;

INSERT INTO ratings VALUES
  (1, glicko2_rating(1600, 80), '2026-01-01 00:00'), (2, glicko2_rating(1450, 200), '2026-01-02 12:00'),
  (3, glicko2_rating(1550, 120, 0.05), '2025-12-01'), (5, NULL, NULL),
  (11, glicko2_rating(1700, 60), '2026-01-03'), (12, glicko2_rating(1500, 100), NULL),
  (13, glicko2_rating(1400, 300), '2025-01-01'), (15, glicko2_rating(1650, 150), '2026-01-02'),
  (16, glicko2_rating(1350, 90), '2026-01-03 06:00');

-- A 2v2: team 1 (1, 2) beats team 2 (3, 4 new); RDs grown by 2, 0.5 and 33
-- days; player 4 added as unrated.
INSERT INTO pre SELECT * FROM ratings;
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (1, 1, 1, 1, '2026-01-03'), (1, 2, 1, 1, '2026-01-03'),
  (1, 3, 2, 2, '2026-01-03'), (1, 4, 2, 2, '2026-01-03');
SELECT player_id, rating, rated_at FROM ratings WHERE player_id <= 4 ORDER BY 1;
SELECT h.player_id, worst(r.rating, h.rating) < 1e-12 AS as_by_hand
FROM hand_match('sum', 1) h JOIN ratings r USING (player_id) ORDER BY 1;

-- Three teams: team 2 (12, 13) first, team 1 (11) and team 3 (14 new, 15
-- on 60 % of the match, 16) tied second.
TRUNCATE pre; INSERT INTO pre SELECT * FROM ratings;
INSERT INTO matches (match_id, player_id, team, place, played_at, weight) VALUES
  (2, 11, 1, 2, '2026-01-04', 1), (2, 12, 2, 1, '2026-01-04', 1), (2, 13, 2, 1, '2026-01-04', 1),
  (2, 14, 3, 2, '2026-01-04', 1), (2, 15, 3, 2, '2026-01-04', 0.6), (2, 16, 3, 2, '2026-01-04', 1);
SELECT player_id, rating, rated_at FROM ratings WHERE player_id > 10 ORDER BY 1;
SELECT h.player_id, worst(r.rating, h.rating) < 1e-12 AS as_by_hand
FROM hand_match('sum', 2) h JOIN ratings r USING (player_id) ORDER BY 1;
-- (the hand computation moves them: it is not the identity)
SELECT count(*) AS moved FROM hand_match('sum', 2) h JOIN pre p USING (player_id)
WHERE abs((h.rating).rating - coalesce((p.rating).rating, 1500)) > 1;

-- 'mean' on a matches table of its own: the same 2v2 by the mean model.
CREATE TABLE ratings_mean (LIKE pre INCLUDING ALL);
CREATE TABLE matches_mean (LIKE matches INCLUDING ALL);
CREATE TRIGGER rate_matches AFTER INSERT ON matches_mean REFERENCING NEW TABLE AS new_matches
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings_mean', 'method=mean');
TRUNCATE pre;
INSERT INTO pre VALUES (1, glicko2_rating(1600, 80), '2026-01-01'), (2, glicko2_rating(1450, 200), '2026-01-02 12:00');
INSERT INTO ratings_mean SELECT * FROM pre;
INSERT INTO matches_mean (match_id, player_id, team, place, played_at, weight) VALUES
  (1, 1, 1, 1, '2026-01-03', 1), (1, 2, 1, 1, '2026-01-03', 0.5),
  (1, 3, 2, 2, '2026-01-03', 1), (1, 4, 2, 2, '2026-01-03', 1);
SELECT h.player_id, worst(r.rating, h.rating) < 1e-12 AS as_by_hand
FROM hand_match('mean', 1, 'matches_mean') h JOIN ratings_mean r USING (player_id) ORDER BY 1;

-- One-on-one: glicko2_rate_matches equals glicko2_rate_games bit for bit
-- (new players, draws, growth over days, a game before rated_at).
CREATE TABLE r_games (LIKE pre INCLUDING ALL);
CREATE TABLE r_matches (LIKE pre INCLUDING ALL);
CREATE TABLE games (id int, player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TRIGGER rate_games AFTER INSERT ON games FOR EACH ROW
  EXECUTE FUNCTION glicko2_rate_games('r_games', 'period=12 hours', 'max_rd=300');
CREATE TABLE duels (match_id int, player_id int, team text, place int, played_at timestamptz,
                    PRIMARY KEY (match_id, player_id));
CREATE TRIGGER rate_duels AFTER INSERT ON duels REFERENCING NEW TABLE AS new_duels FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_matches', 'period=12 hours', 'max_rd=300');
INSERT INTO r_games VALUES (1, glicko2_rating(1700, 50, 0.04), '2026-01-01'), (2, NULL, NULL);
INSERT INTO r_matches SELECT * FROM r_games;
INSERT INTO games
SELECT i, 1 + (i * 7) % 6, 1 + (i * 7 + 1 + i % 4) % 6, (i % 3) / 2.0,
       '2026-01-02'::timestamptz + i * interval '7 hours' - (i % 5 = 0)::int * interval '20 hours'
FROM generate_series(1, 60) i;
-- one statement per game, as the games trigger rates them
DO $$
DECLARE g record;
BEGIN
  FOR g IN SELECT * FROM games ORDER BY id LOOP
    INSERT INTO duels VALUES
      (g.id, g.player_id, 'a', CASE WHEN g.score = 1 THEN 1 ELSE 2 END - (g.score = 0.5)::int, g.played_at),
      (g.id, g.opponent_id, 'b', CASE WHEN g.score = 0 THEN 1 ELSE 2 END - (g.score = 0.5)::int, g.played_at);
  END LOOP;
END $$;
SELECT count(*) AS players, count(*) FILTER (WHERE g.rating = m.rating AND g.rated_at = m.rated_at
                                              AND (g.rating).rd = (m.rating).rd
                                              AND (g.rating).volatility = (m.rating).volatility) AS bit_for_bit
FROM r_games g FULL JOIN r_matches m USING (player_id);

-- In one statement, matches are rated in order of played_at, then match
-- id, each from the ratings the earlier ones left: the same bits as one
-- statement per match in that order.
CREATE TABLE r_one (LIKE pre INCLUDING ALL);
CREATE TABLE one_by_one (LIKE matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON one_by_one REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_one');
CREATE TABLE r_all (LIKE pre INCLUDING ALL);
CREATE TABLE at_once (LIKE matches INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON at_once REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_all');
CREATE TABLE batch (LIKE matches INCLUDING DEFAULTS);
INSERT INTO batch (match_id, player_id, team, place, played_at)
SELECT m, p, 1 + (p + m) % 3, 1 + ((p + m) % 3 + m) % 3,
       '2026-02-01'::timestamptz + (20 - m) * interval '1 hour' + (m % 2) * interval '1 day'
FROM generate_series(1, 20) m, generate_series(1, 7) p WHERE (p * m) % 5 <> 0;
DO $$
DECLARE b record;
BEGIN
  FOR b IN SELECT match_id FROM batch GROUP BY match_id ORDER BY min(played_at), match_id LOOP
    INSERT INTO one_by_one SELECT * FROM batch WHERE match_id = b.match_id;
  END LOOP;
END $$;
INSERT INTO at_once SELECT * FROM batch ORDER BY random();
SELECT count(*) AS players, count(*) FILTER (WHERE a.rating = o.rating AND a.rated_at = o.rated_at) AS same
FROM r_all a FULL JOIN r_one o USING (player_id);

-- Bad matches: the whole statement refused, nothing rated, the match named.
-- (loose: a matches table without a primary key, so that only the trigger
-- refuses a player twice or a NULL key)
CREATE TABLE before AS SELECT * FROM ratings;
CREATE TABLE loose (match_id int, player_id int, team int, place int, played_at timestamptz,
                    weight float8 DEFAULT 1);
CREATE INDEX ON loose (match_id);
CREATE TRIGGER rate AFTER INSERT ON loose REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings');
INSERT INTO loose (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, '2026-03-01'), (10, 2, 2, 2, '2026-03-01'),
  (11, 3, 1, 1, '2026-03-01'), (11, 3, 2, 2, '2026-03-01');
INSERT INTO loose (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, '2026-03-01'), (10, 2, 2, 2, '2026-03-01'),
  (11, 3, 1, 1, '2026-03-01'), (11, 3, 1, 1, '2026-03-01'), (11, 4, 2, 2, '2026-03-01');
INSERT INTO loose (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, '2026-03-01'), (10, NULL, 2, 2, '2026-03-01');
INSERT INTO loose (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, '2026-03-01'), (10, 2, 2, 2, '2026-03-01'), (NULL, 2, 2, 2, '2026-03-01');
INSERT INTO loose (match_id, player_id, team, place, played_at) VALUES
  (10, 1, NULL, 1, '2026-03-01'), (10, 2, 2, 2, '2026-03-01');
INSERT INTO loose (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, NULL), (10, 2, 2, 2, NULL);
INSERT INTO loose (match_id, player_id, team, place, played_at, weight) VALUES
  (10, 1, 1, 1, '2026-03-01', NULL), (10, 2, 2, 2, '2026-03-01', 1);
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, '2026-03-01'), (10, 2, 2, 2, '2026-03-01'),
  (12, 3, 1, 1, '2026-03-01'), (12, 4, 1, 1, '2026-03-01');
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, '2026-03-01'), (10, 2, 2, NULL, '2026-03-01');
INSERT INTO matches (match_id, player_id, team, place, played_at, weight) VALUES
  (10, 1, 1, 1, '2026-03-01', 1), (10, 2, 2, 2, '2026-03-01', 0);
INSERT INTO matches (match_id, player_id, team, place, played_at, weight) VALUES
  (10, 1, 1, 1, '2026-03-01', 1.5), (10, 2, 2, 2, '2026-03-01', 1);
INSERT INTO matches (match_id, player_id, team, place, played_at, weight) VALUES
  (10, 1, 1, 1, '2026-03-01', 'NaN'), (10, 2, 2, 2, '2026-03-01', 1);
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, '2026-03-01'), (10, 2, 1, 2, '2026-03-01'), (10, 3, 2, 3, '2026-03-01');
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 0, '2026-03-01'), (10, 2, 2, 2, '2026-03-01');
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, '2026-03-01'), (10, 2, 2, 2, '2026-03-02');
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (10, 1, 1, 1, 'infinity'), (10, 2, 2, 2, 'infinity');
SELECT count(*) AS changed FROM (SELECT * FROM ratings EXCEPT SELECT * FROM before) c;
SELECT (SELECT count(*) FROM matches WHERE match_id >= 10) + (SELECT count(*) FROM loose) AS match_rows;

-- A match of more players than a close rates (GLICKO_TEAM_MAX_PLAYERS, the
-- bound of glicko2_match_sides and so of glicko2_close_matches): refused
-- (54000) before any work, nothing rated; before, 20 000 players took 17 s.
INSERT INTO matches (match_id, player_id, team, place, played_at)
  SELECT 40, i, i % 2, i % 2 + 1, '2026-03-01' FROM generate_series(1, 10001) i;
\echo :LAST_ERROR_SQLSTATE
SELECT count(*) AS changed FROM (SELECT * FROM ratings EXCEPT SELECT * FROM before) c;
SELECT count(*) FROM glicko2_match_sides(array_fill(1, ARRAY[10001]), array_fill(1, ARRAY[10001]),
                                         array_fill(1, ARRAY[10001]), array_fill(NULL::glicko2_rating, ARRAY[10001]));
\echo :LAST_ERROR_SQLSTATE

-- A match's rows in two statements: the second is refused (the match is
-- rated once, from the first statement's rows), in another transaction
-- or the same one.
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (20, 1, 1, 1, '2026-03-01'), (20, 2, 2, 2, '2026-03-01');
DELETE FROM before; INSERT INTO before SELECT * FROM ratings;
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (20, 3, 3, 3, '2026-03-01'), (20, 4, 4, 4, '2026-03-01'),
  (21, 4, 1, 1, '2026-03-01'), (21, 5, 2, 1, '2026-03-01');
BEGIN;
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (22, 1, 1, 1, '2026-03-02'), (22, 2, 2, 2, '2026-03-02');
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (22, 3, 3, 1, '2026-03-02'), (22, 4, 4, 1, '2026-03-02');
ROLLBACK;
SELECT count(*) AS changed FROM (SELECT * FROM ratings EXCEPT SELECT * FROM before) c;

-- All or nothing with the statement: a rolled-back match, or savepoint,
-- leaves no trace (a new player neither).
BEGIN;
SAVEPOINT s;
INSERT INTO matches (match_id, player_id, team, place, played_at) VALUES
  (30, 1, 1, 1, '2026-03-05'), (30, 99, 2, 2, '2026-03-05');
SELECT count(*) AS changed_inside FROM (SELECT * FROM ratings EXCEPT SELECT * FROM before) c;
ROLLBACK TO s;
COMMIT;
SELECT count(*) AS changed FROM (SELECT * FROM ratings EXCEPT SELECT * FROM before) c;
-- An empty statement rates nothing.
INSERT INTO matches SELECT * FROM matches WHERE false;

-- Mistakes in the trigger or its tables: errors at the first insert.
CREATE TABLE m2 (match_id int, player_id int, team int, place int, played_at timestamptz);
CREATE TRIGGER t AFTER INSERT ON m2 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'method=median');
INSERT INTO m2 VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER t ON m2;
CREATE TRIGGER t AFTER INSERT ON m2 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'colour=blue');
INSERT INTO m2 VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER t ON m2;
CREATE TRIGGER t AFTER INSERT ON m2 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings');
INSERT INTO m2 VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER t ON m2;
CREATE INDEX ON m2 (match_id);
CREATE TRIGGER t AFTER INSERT ON m2 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'team_column=side');
INSERT INTO m2 VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER t ON m2;
-- A weight that is not a number, a place that is not an integer.
ALTER TABLE m2 ADD COLUMN share text DEFAULT '1', ADD COLUMN rank numeric;
CREATE TRIGGER t AFTER INSERT ON m2 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'weight_column=share');
INSERT INTO m2 VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER t ON m2;
CREATE TRIGGER t AFTER INSERT ON m2 REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings', 'place_column=rank');
INSERT INTO m2 VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER t ON m2;
ALTER TABLE m2 DROP COLUMN share, DROP COLUMN rank;
CREATE TRIGGER t AFTER INSERT ON m2 FOR EACH ROW EXECUTE FUNCTION glicko2_rate_matches('ratings');
INSERT INTO m2 VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
DROP TRIGGER t ON m2;
CREATE TRIGGER t AFTER INSERT ON m2 FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('ratings');
INSERT INTO m2 VALUES (1, 1, 1, 1, now()), (1, 2, 2, 2, now());
SELECT count(*) AS changed FROM (SELECT * FROM ratings EXCEPT SELECT * FROM before) c;

-- Parties and uneven teams: a trio (21, 22 a party, 23 on half the match)
-- first, a duo (24 alone in party 'q', 25 new) second, a solo (26) third;
-- +40 a party member, +25 a team member beyond one, by both methods.  With
-- the advantages 0, a party column changes no bit.
CREATE TABLE m_party (LIKE matches INCLUDING ALL);
ALTER TABLE m_party ADD COLUMN party text;
CREATE TABLE r_party (LIKE pre INCLUDING ALL);
CREATE TABLE m_party_mean (LIKE m_party INCLUDING ALL);
CREATE TABLE r_party_mean (LIKE pre INCLUDING ALL);
CREATE TABLE m_party_zero (LIKE m_party INCLUDING ALL);
CREATE TABLE r_party_zero (LIKE pre INCLUDING ALL);
CREATE TABLE m_no_party (LIKE matches INCLUDING ALL);
CREATE TABLE r_no_party (LIKE pre INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON m_party REFERENCING NEW TABLE AS n FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_party', 'party_column=party', 'party_advantage=40', 'size_advantage=25');
CREATE TRIGGER rate AFTER INSERT ON m_party_mean REFERENCING NEW TABLE AS n FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_party_mean', 'method=mean', 'party_column=party',
                                        'party_advantage=40', 'size_advantage=25');
CREATE TRIGGER rate AFTER INSERT ON m_party_zero REFERENCING NEW TABLE AS n FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_party_zero', 'party_column=party', 'party_advantage=0');
CREATE TRIGGER rate AFTER INSERT ON m_no_party REFERENCING NEW TABLE AS n FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_no_party');
TRUNCATE pre;
INSERT INTO pre VALUES
  (21, glicko2_rating(1600, 80), '2026-01-01'), (22, glicko2_rating(1450, 200), '2025-12-20'),
  (23, glicko2_rating(1500, 120), '2026-01-01'), (24, glicko2_rating(1700, 60), NULL),
  (26, glicko2_rating(1650, 150), '2026-01-02');
INSERT INTO r_party SELECT * FROM pre;
INSERT INTO r_party_mean SELECT * FROM pre;
INSERT INTO r_party_zero SELECT * FROM pre;
INSERT INTO r_no_party SELECT * FROM pre;
INSERT INTO m_party (match_id, player_id, team, place, played_at, weight, party) VALUES
  (40, 21, 1, 1, '2026-01-04', 1, 'p'), (40, 22, 1, 1, '2026-01-04', 1, 'p'),
  (40, 23, 1, 1, '2026-01-04', 0.5, NULL), (40, 24, 2, 2, '2026-01-04', 1, 'q'),
  (40, 25, 2, 2, '2026-01-04', 1, NULL), (40, 26, 3, 3, '2026-01-04', 1, NULL);
INSERT INTO m_party_mean SELECT * FROM m_party;
INSERT INTO m_party_zero SELECT * FROM m_party;
INSERT INTO m_no_party SELECT match_id, player_id, team, place, played_at, weight FROM m_party;
SELECT h.player_id, worst(r.rating, h.rating) < 1e-12 AS as_by_hand,
       worst(m.rating, hm.rating) < 1e-12 AS mean_as_by_hand,
       z.rating = n.rating AND z.rated_at = n.rated_at AS zero_same_bits
FROM hand_match('sum', 40, 'm_party', 40, 25) h JOIN r_party r USING (player_id)
JOIN hand_match('mean', 40, 'm_party', 40, 25) hm USING (player_id) JOIN r_party_mean m USING (player_id)
JOIN r_party_zero z USING (player_id) JOIN r_no_party n USING (player_id)
ORDER BY 1;
-- (the edges move them: the hand computation without them differs)
SELECT count(*) AS moved_by_the_edges FROM hand_match('sum', 40, 'm_party') h JOIN r_party r USING (player_id)
WHERE worst(r.rating, h.rating) > 1e-6;
-- Refused: a label on two teams (the whole statement), a bad option.
\set VERBOSITY terse
INSERT INTO m_party (match_id, player_id, team, place, played_at, party) VALUES
  (41, 21, 1, 1, '2026-01-05', 'p'), (41, 22, 2, 2, '2026-01-05', 'p');
CREATE TABLE m_bad (LIKE m_party INCLUDING ALL);
ALTER TABLE m_bad ADD COLUMN loadout json;
CREATE TRIGGER rate AFTER INSERT ON m_bad REFERENCING NEW TABLE AS n FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_party', 'party_column=loadout');
INSERT INTO m_bad (match_id, player_id, team, place, played_at) VALUES (1, 21, 1, 1, now()), (1, 22, 2, 2, now());
DROP TRIGGER rate ON m_bad;
CREATE TRIGGER rate AFTER INSERT ON m_bad REFERENCING NEW TABLE AS n FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_party', 'party_column=squad');
INSERT INTO m_bad (match_id, player_id, team, place, played_at) VALUES (1, 21, 1, 1, now()), (1, 22, 2, 2, now());
DROP TRIGGER rate ON m_bad;
CREATE TRIGGER rate AFTER INSERT ON m_bad REFERENCING NEW TABLE AS n FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_party', 'party_advantage=NaN');
INSERT INTO m_bad (match_id, player_id, team, place, played_at) VALUES (1, 21, 1, 1, now()), (1, 22, 2, 2, now());
DROP TRIGGER rate ON m_bad;
CREATE TRIGGER rate AFTER INSERT ON m_bad REFERENCING NEW TABLE AS n FOR EACH STATEMENT
  EXECUTE FUNCTION glicko2_rate_matches('r_party', 'method=composite', 'size_advantage=25');
INSERT INTO m_bad (match_id, player_id, team, place, played_at) VALUES (1, 21, 1, 1, now()), (1, 22, 2, 2, now());
\set VERBOSITY default
SELECT (SELECT count(*) FROM m_party WHERE match_id = 41) AS rows_kept,
       (SELECT count(*) FROM r_party WHERE rated_at > '2026-01-04') AS rated_since;

-- A partitioned ratings table and a partitioned matches table: the rows
-- found and written in every partition, the same bits as plain tables.
CREATE TABLE r_parts (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz)
  PARTITION BY HASH (player_id);
CREATE TABLE r_parts_0 PARTITION OF r_parts FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE r_parts_1 PARTITION OF r_parts FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE r_parts_2 PARTITION OF r_parts FOR VALUES WITH (MODULUS 3, REMAINDER 2);
-- (the trigger first: each partition then gets one like it, see
-- live_matches_partitioned)
CREATE TABLE m_parts (LIKE matches INCLUDING DEFAULTS, PRIMARY KEY (match_id, player_id))
  PARTITION BY RANGE (match_id);
CREATE TRIGGER rate AFTER INSERT ON m_parts REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_parts');
CREATE TABLE m_parts_low PARTITION OF m_parts FOR VALUES FROM (MINVALUE) TO (10);
CREATE TABLE m_parts_high PARTITION OF m_parts FOR VALUES FROM (10) TO (MAXVALUE);
INSERT INTO r_parts SELECT * FROM pre WHERE player_id = 1;
DELETE FROM r_one; INSERT INTO r_one SELECT * FROM r_parts;
DELETE FROM one_by_one;
INSERT INTO m_parts SELECT * FROM batch WHERE match_id < 15;
INSERT INTO one_by_one SELECT * FROM batch WHERE match_id < 15;
SELECT tableoid::regclass AS partition, count(*) FROM r_parts GROUP BY 1 ORDER BY 1;
SELECT count(*) AS players, count(*) FILTER (WHERE p.rating = o.rating AND p.rated_at = o.rated_at) AS same
FROM r_parts p FULL JOIN r_one o USING (player_id);

-- The writer's privileges (docs/live.md): INSERT and SELECT on the matches
-- table (the trigger reads the match ids written, to rate a match once),
-- SELECT and UPDATE on the ratings table, INSERT on it to add a new player.
-- Each one missing is 42501 and nothing is written.
CREATE TABLE r_priv (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE m_priv (match_id int, player_id int, team int, place int, played_at timestamptz);
CREATE INDEX ON m_priv (match_id);
CREATE TRIGGER rate AFTER INSERT ON m_priv REFERENCING NEW TABLE AS n
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('r_priv');
CREATE ROLE regress_live_writer;
GRANT USAGE ON SCHEMA live_matches TO regress_live_writer;
CREATE FUNCTION write_as_writer(id int, p1 int, p2 int) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  SET LOCAL ROLE regress_live_writer;
  INSERT INTO live_matches.m_priv VALUES (id, p1, 1, 1, '2026-04-01'), (id, p2, 2, 2, '2026-04-01');
  RESET ROLE;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
INSERT INTO r_priv VALUES (1, NULL, NULL), (2, NULL, NULL);
GRANT INSERT ON m_priv TO regress_live_writer;
GRANT SELECT, UPDATE ON r_priv TO regress_live_writer;
SELECT write_as_writer(1, 1, 2) AS without_select_on_matches;
GRANT SELECT ON m_priv TO regress_live_writer;
SELECT write_as_writer(1, 1, 2) AS documented_privileges;
SELECT write_as_writer(2, 1, 3) AS new_player_without_insert;
GRANT INSERT ON r_priv TO regress_live_writer;
SELECT write_as_writer(2, 1, 3) AS new_player_with_insert;
REVOKE UPDATE ON r_priv FROM regress_live_writer;
SELECT write_as_writer(3, 1, 2) AS without_update;
GRANT UPDATE ON r_priv TO regress_live_writer;
REVOKE SELECT ON r_priv FROM regress_live_writer;
SELECT write_as_writer(3, 1, 2) AS without_select_on_ratings;
SELECT match_id, count(*) FROM m_priv GROUP BY 1 ORDER BY 1;
SELECT player_id, rating IS NOT NULL AS rated FROM r_priv ORDER BY 1;
DROP OWNED BY regress_live_writer;
DROP ROLE regress_live_writer;

RESET search_path;
DROP SCHEMA live_matches CASCADE;
