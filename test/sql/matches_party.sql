-- Premade parties and uneven teams (docs/matches.md): party_column,
-- party_advantage and size_advantage of glicko2_close_matches,
-- glicko2_match_sides, glicko2_team_win_probability and glicko2_fit_matches.
-- New ratings against the formulas written out independently in Python
-- (test/unit/team_reference.py, EDGED); advantages of 0 are today's bits on
-- every path; the same bits whatever the order of the rows and the labels;
-- bad input named; a seeded league with a known party edge is fitted within
-- 25 % of it (by the grid and by glicko2_fit_team_advantages), and a league
-- without one is fitted at 0.
CREATE SCHEMA party;
SET search_path = party, public;
\set SHOW_CONTEXT never

CREATE TABLE base (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO base VALUES
  (1, glicko2_rating(1600, 80)), (2, glicko2_rating(1450, 200)), (3, glicko2_rating(1550, 120)),
  (21, glicko2_rating(1600, 80)), (22, glicko2_rating(1450, 200)), (23, glicko2_rating(1500, 120)),
  (24, glicko2_rating(1700, 60)), (26, glicko2_rating(1650, 150));
-- Period 1: a 2v2, team 1 a party ('x'), player 4 new; +40 a party member.
-- Period 2: a trio (21, 22 a party; 23 half the match) first, a duo (24
-- alone in party 'q', 25 new) second, a solo (26, party 'r') third; +40 a
-- party member, +25 a team member beyond one.
CREATE TABLE matches (match_id int, period int, player_id int, team int, place int, weight float8, party text);
INSERT INTO matches VALUES
  (1, 1, 1, 1, 1, 1, 'x'), (1, 1, 2, 1, 1, 1, 'x'), (1, 1, 3, 2, 2, 1, NULL), (1, 1, 4, 2, 2, 1, NULL),
  (2, 2, 21, 1, 1, 1, 'p'), (2, 2, 22, 1, 1, 1, 'p'), (2, 2, 23, 1, 1, 0.5, NULL),
  (2, 2, 24, 2, 2, 1, 'q'), (2, 2, 25, 2, 2, 1, NULL), (2, 2, 26, 3, 3, 1, 'r');
CREATE TABLE python (method text, period int, player_id int, rating float8, rd float8, volatility float8);
INSERT INTO python VALUES
  ('sum', 1, 1, 1608.3799890179275, 80.114921063625, 0.05999980751736852),
  ('sum', 1, 2, 1499.7992462892703, 191.38463475846524, 0.059999746602957205),
  ('sum', 1, 3, 1531.4726956003715, 118.56889432313714, 0.05999979330952817),
  ('sum', 1, 4, 1364.273535416715, 297.9617463115106, 0.05999958249928463),
  ('mean', 1, 1, 1606.9825361641397, 80.30595687376636, 0.05999989577608296),
  ('mean', 1, 2, 1492.0693943613342, 194.4794980315658, 0.05999986919004986),
  ('mean', 1, 3, 1534.515636610641, 119.21324335473273, 0.05999988953394813),
  ('mean', 1, 4, 1379.4719032492717, 317.3145624426998, 0.059999799643695964),
  ('sum', 2, 21, 1616.54008732749, 79.57527824943234, 0.060000934386285655),
  ('sum', 2, 22, 1543.2149376108737, 183.19728186168726, 0.06000054237542879),
  ('sum', 2, 23, 1518.5728671068812, 119.53647246938978, 0.0600002424652902),
  ('sum', 2, 24, 1699.7253612481234, 60.47975313374049, 0.05999849656661803),
  ('sum', 2, 25, 1495.8358484352307, 267.2322076626116, 0.059998613100997404),
  ('sum', 2, 26, 1597.08245683334, 142.31501114590165, 0.06000035483177369),
  ('mean', 2, 21, 1611.1596253975, 80.28160093884776, 0.060000586944595244),
  ('mean', 2, 22, 1516.827544585649, 194.22451595224177, 0.06000052687966682),
  ('mean', 2, 23, 1512.469108870575, 120.12354777837774, 0.06000014806715954),
  ('mean', 2, 24, 1699.7203122132819, 60.65201383083328, 0.05999911460443921),
  ('mean', 2, 25, 1490.392609150002, 302.6361510834318, 0.05999916186253315),
  ('mean', 2, 26, 1566.5156042888896, 134.96190121560898, 0.06000205308802514);
-- Python's terms (the sums of each player's game sides), and the same from
-- glicko2_match_sides with the match's parties and advantages.
CREATE TABLE python_terms (method text, period int, player_id int, information float8, surprise float8);
INSERT INTO python_terms VALUES
  ('sum', 1, 1, 0.06518778407831025, 0.2268093489565177),
  ('sum', 1, 2, 0.07149667194207897, 0.23618534959565982),
  ('sum', 1, 3, 0.06658675185560789, -0.22893648874023836),
  ('sum', 1, 4, 0.09378116789240787, -0.2655753946517571),
  ('mean', 1, 1, 0.042844986633452986, 0.18808839127876506),
  ('mean', 1, 2, 0.04548294387706785, 0.19322482864684679),
  ('mean', 1, 3, 0.043444929058990764, -0.18927300104025951),
  ('mean', 1, 4, 0.05358339809507553, -0.20794697753417588),
  ('sum', 2, 21, 0.12917745597015703, 0.45375955906020093),
  ('sum', 2, 22, 0.1467849014205726, 0.48249385063229205),
  ('sum', 2, 23, 0.0319769957177376, 0.2257992009607659),
  ('sum', 2, 24, 0.11308680305298166, -0.01304325899144232),
  ('sum', 2, 25, 0.17645032909667724, -0.010129622249874903),
  ('sum', 2, 26, 0.15520949015433513, -0.45388159376203874),
  ('mean', 2, 21, 0.0456865043851486, 0.30078895752098145),
  ('mean', 2, 22, 0.04757932787476016, 0.30774551298570674),
  ('mean', 2, 23, 0.011383887104156814, 0.1501147740525156),
  ('mean', 2, 24, 0.06629423835507553, -0.013207705366728884),
  ('mean', 2, 25, 0.08336192262967662, -0.018222508853148828),
  ('mean', 2, 26, 0.3219920201751595, -0.79620931387854);
WITH x AS (SELECT m.period, array_agg(m.player_id ORDER BY m.player_id) AS p, array_agg(m.team ORDER BY m.player_id) AS t,
                  array_agg(m.place::bigint ORDER BY m.player_id) AS pl,
                  array_agg(b.rating ORDER BY m.player_id) AS r, array_agg(m.weight ORDER BY m.player_id) AS w,
                  array_agg(m.party ORDER BY m.player_id) AS pt
           FROM matches m LEFT JOIN base b USING (player_id) GROUP BY m.period),
s AS (SELECT meth, x.period, s.player, sum(s.information) AS information, sum(s.surprise) AS surprise
      FROM x, unnest(ARRAY['sum', 'mean']) meth,
           glicko2_match_sides(x.p, x.t, x.pl, x.r, meth, x.w, 350, x.pt, 40, CASE x.period WHEN 2 THEN 25 ELSE 0 END) s
      GROUP BY 1, 2, 3)
SELECT p.method, p.period, count(*) AS players,
       count(*) FILTER (WHERE abs(s.information - p.information) <= 1e-13 * abs(p.information)
                        AND abs(s.surprise - p.surprise) <= 1e-13 * abs(p.surprise)) AS as_python
FROM python_terms p LEFT JOIN s ON (s.meth, s.period, s.player) = (p.method, p.period, p.player_id)
GROUP BY p.method, p.period ORDER BY p.period, p.method;
-- The closes' new ratings (Step 5's iteration stops within its tolerance
-- 1e-6 of the volatility's root: the last digits may differ).
CREATE TABLE closed (label text, method text, period int, player_id int, rating glicko2_rating);
CREATE SEQUENCE tables;
CREATE PROCEDURE close_from_base(label text, method text, period int, party_column name, pa float8, sa float8,
                                 source regclass DEFAULT 'matches')
LANGUAGE plpgsql AS $$
DECLARE
  r text := 'r' || nextval('tables');
BEGIN
  EXECUTE format('CREATE TABLE %I (LIKE base INCLUDING ALL)', r);
  EXECUTE format('INSERT INTO %I SELECT * FROM base', r);
  CALL glicko2_close_matches(r::regclass, source, period, method, unguarded => true,
                             party_column => party_column, party_advantage => pa, size_advantage => sa);
  EXECUTE format('INSERT INTO closed SELECT $1, $2, $3, player_id, rating FROM %I', r)
    USING label, method, period;
END $$;
SET client_min_messages = warning;
CALL close_from_base('python', 'sum', 1, 'party', 40, 0);
CALL close_from_base('python', 'mean', 1, 'party', 40, 0);
CALL close_from_base('python', 'sum', 2, 'party', 40, 25);
CALL close_from_base('python', 'mean', 2, 'party', 40, 25);
RESET client_min_messages;
SELECT p.method, p.period, count(*) AS players,
       count(*) FILTER (WHERE abs((c.rating).rating - p.rating) < 1e-9 AND abs((c.rating).rd - p.rd) < 1e-9
                        AND abs((c.rating).volatility - p.volatility) < 1e-10) AS as_python
FROM python p LEFT JOIN closed c ON c.label = 'python' AND (c.method, c.period, c.player_id) = (p.method, p.period, p.player_id)
GROUP BY p.method, p.period ORDER BY p.period, p.method;

-- Advantages of 0 are today's bits: the close with a party column and
-- advantages 0 against the close without, every method.
SET client_min_messages = warning;
DO $$
DECLARE
  m text;
BEGIN
  FOREACH m IN ARRAY ARRAY['sum', 'mean', 'individual', 'composite'] LOOP
    CALL close_from_base('today', m, 2, NULL, 0, 0);
    CALL close_from_base('zero', m, 2, 'party', 0, 0);
  END LOOP;
END $$;
RESET client_min_messages;
SELECT a.method, count(*) AS players, count(*) FILTER (WHERE a.rating = b.rating) AS same_bits
FROM closed a JOIN closed b USING (method, period, player_id)
WHERE a.label = 'today' AND b.label = 'zero' GROUP BY a.method ORDER BY a.method;
-- ... glicko2_match_sides and glicko2_team_win_probability too.
WITH x AS (SELECT array_agg(m.player_id ORDER BY m.player_id) AS p, array_agg(m.team ORDER BY m.player_id) AS t,
                  array_agg(m.place::bigint ORDER BY m.player_id) AS pl,
                  array_agg(b.rating ORDER BY m.player_id) AS r, array_agg(m.weight ORDER BY m.player_id) AS w,
                  array_agg(m.party ORDER BY m.player_id) AS pt
           FROM matches m LEFT JOIN base b USING (player_id) WHERE m.period = 2)
SELECT meth, count(*) AS sides,
       count(*) FILTER (WHERE (a.expected, a.information, a.surprise, a.weight) = (b.expected, b.information, b.surprise, b.weight)) AS same_bits
FROM x, unnest(ARRAY['sum', 'mean', 'individual', 'composite']) meth,
     LATERAL (SELECT row_number() OVER () AS k, * FROM glicko2_match_sides(x.p, x.t, x.pl, x.r, meth, x.w)) a
     JOIN LATERAL (SELECT row_number() OVER () AS k, * FROM glicko2_match_sides(x.p, x.t, x.pl, x.r, meth, x.w, 350, x.pt, 0, 0)) b
       ON a.k = b.k
GROUP BY meth ORDER BY meth;
SELECT meth,
       glicko2_team_win_probability(a, b, meth, '{1,0.5,1}', NULL)
         = glicko2_team_win_probability(a, b, meth, '{1,0.5,1}', NULL, ARRAY['p', 'p', NULL], ARRAY[7, 8], 0, 0) AS same_bits
FROM unnest(ARRAY['sum', 'mean', 'individual', 'composite']) meth,
     (SELECT ARRAY[glicko2_rating(1600, 80), glicko2_rating(1450, 200), glicko2_rating(1500, 120)] AS a,
             ARRAY[glicko2_rating(1700, 60), glicko2_rating()] AS b) t
ORDER BY meth;
-- The win probability by hand: 2v2 of unrated players, team a a party,
-- +40 a member: 'sum' M_a - M_b = 80 / 173.7178, s^2 = 2, V = 4 phi^2.
SELECT abs(glicko2_team_win_probability(ARRAY[glicko2_rating(), glicko2_rating()],
                                        ARRAY[glicko2_rating(), glicko2_rating()],
                                        parties_a => ARRAY[1, 1], party_advantage => 40)
           - 1 / (1 + exp(-(80 / 173.7178) / sqrt(2 + 3 * 4 * (350 / 173.7178) ^ 2 / pi() ^ 2)))) < 1e-15 AS by_hand,
       glicko2_team_win_probability(ARRAY[glicko2_rating(), glicko2_rating()], ARRAY[glicko2_rating()],
                                    size_advantage => 25)
         > glicko2_team_win_probability(ARRAY[glicko2_rating(), glicko2_rating()], ARRAY[glicko2_rating()])
         AS size_helps,
       glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], size_advantage => 25,
                                    party_advantage => 40, parties_a => ARRAY['a'])
         = glicko2_win_probability(glicko2_rating(), glicko2_rating()) AS one_on_one_no_edge;

-- Balance: a duo (1500, 1500) and four solos (1600, 1500, 1500, 1400) in 3v3.
-- Without an edge the duo with a 1500 is fair; with +120 a party member the
-- fairest split gives the duo the 1400.  Advantages of 0: today's split.
SELECT meth,
       glicko2_balance(l, 2, '{1,1,NULL,NULL,NULL,NULL}', meth) AS plain,
       glicko2_balance(l, 2, '{1,1,NULL,NULL,NULL,NULL}', meth, 0, 0)
         = glicko2_balance(l, 2, '{1,1,NULL,NULL,NULL,NULL}', meth) AS zero_same,
       glicko2_balance(l, 2, '{1,1,NULL,NULL,NULL,NULL}', meth, party_advantage => 120) AS with_edge
FROM unnest(ARRAY['sum', 'mean']) meth,
     (SELECT ARRAY[glicko2_rating(1500, 50), glicko2_rating(1500, 50), glicko2_rating(1600, 50),
                   glicko2_rating(1500, 50), glicko2_rating(1500, 50), glicko2_rating(1400, 50)] AS l) x
ORDER BY meth;
-- An odd lobby of 1700 ... 1300: with +200 a member beyond one ('sum') the
-- fair split gives the three 1700, 1400, 1300 (-100 + 400 points) against
-- 1600, 1500 (+100 + 200).
SELECT glicko2_balance(ARRAY[glicko2_rating(1700, 50), glicko2_rating(1600, 50), glicko2_rating(1500, 50),
                             glicko2_rating(1400, 50), glicko2_rating(1300, 50)], 2) AS plain,
       glicko2_balance(ARRAY[glicko2_rating(1700, 50), glicko2_rating(1600, 50), glicko2_rating(1500, 50),
                             glicko2_rating(1400, 50), glicko2_rating(1300, 50)], 2, size_advantage => 200) AS with_edge;
\set VERBOSITY terse
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 2, NULL, 'sum', 'NaN');
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 2, NULL, 'composite', 40);
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 2, NULL, 'sum', NULL);
\set VERBOSITY default

-- Order: the rows in another order, teams numbered otherwise, the labels
-- renamed: the same bits.
CREATE TABLE shuffled (LIKE matches);
INSERT INTO shuffled SELECT match_id, period, player_id, 10 - team, place, weight, 'label ' || md5(party)
FROM matches ORDER BY md5(player_id::text || period::text) DESC;
SET client_min_messages = warning;
CALL close_from_base('shuffled', 'sum', 2, 'party', 40, 25, 'shuffled');
CALL close_from_base('shuffled', 'mean', 2, 'party', 40, 25, 'shuffled');
RESET client_min_messages;
SELECT a.method, count(*) AS players, count(*) FILTER (WHERE a.rating = b.rating) AS same_bits
FROM closed a JOIN closed b USING (method, period, player_id)
WHERE a.label = 'python' AND b.label = 'shuffled' GROUP BY a.method ORDER BY a.method;

-- Bad input, named; nothing changed.
\set VERBOSITY terse
CREATE TABLE r (LIKE base INCLUDING ALL);
INSERT INTO r SELECT * FROM base;
CALL glicko2_close_matches('r', 'matches', 2, party_column => 'party', party_advantage => 'NaN', unguarded => true);
CALL glicko2_close_matches('r', 'matches', 2, party_column => 'party', size_advantage => '-Infinity', unguarded => true);
CALL glicko2_close_matches('r', 'matches', 2, party_column => 'party', party_advantage => NULL, unguarded => true);
CALL glicko2_close_matches('r', 'matches', 2, 'composite', party_column => 'party', party_advantage => 40, unguarded => true);
CALL glicko2_close_matches('r', 'matches', 2, party_column => 'squad', unguarded => true);
ALTER TABLE matches ADD COLUMN loadout json;
CALL glicko2_close_matches('r', 'matches', 2, party_column => 'loadout', unguarded => true);
SELECT * FROM glicko2_fit_matches('matches', party_column => 'loadout');
-- (box has an = operator, area equality, but no operator class to group by)
ALTER TABLE matches ADD COLUMN area box;
SELECT * FROM glicko2_fit_team_advantages('matches', party_column => 'area');
ALTER TABLE matches DROP COLUMN area;
UPDATE matches SET party = 'p' WHERE player_id = 24;  -- party p on teams 1 and 2 of match 2
CALL glicko2_close_matches('r', 'matches', 2, party_column => 'party', party_advantage => 40, unguarded => true);
SELECT * FROM glicko2_fit_matches('matches', party_column => 'party');
SELECT * FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 1, 2], '{1,1,2}', '{NULL,NULL,NULL}',
                                   parties => ARRAY['a', NULL, 'a']);
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()],
                                    parties_a => ARRAY[5], parties_b => ARRAY[5]);
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], size_advantage => 'Infinity');
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], '{1,2}', '{NULL,NULL}', parties => ARRAY['{}'::json, NULL]);
SELECT * FROM glicko2_fit_matches('matches', party_advantages => '{0,NaN}');
\set VERBOSITY default
SELECT count(*) FILTER (WHERE r.rating = b.rating) AS unchanged FROM r JOIN base b USING (player_id);
UPDATE matches SET party = 'q' WHERE player_id = 24;

-- A seeded 'sum' world league (generated here, the same on every version:
-- u(i, k) is uniform from PostgreSQL's integer hash, as in max_rd_prior):
-- 64 players (strengths normal, SD 200), 32 duos of friends (players 2k - 1
-- and 2k); 24 periods of 4 rounds of 16 2v2 matches.  In each round a duo
-- queues together with probability 1/2 (a team of its own, party k) or its
-- players alone (teams of strangers); teams meet at random.  A team performs
-- at its players' strengths plus a Gumbel noise each, plus `edge` points for
-- each member of a party.
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;
CREATE FUNCTION league(name text, edge float8, seed int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    CREATE TABLE %1$I AS
    WITH strength AS (
      SELECT i AS player_id, 200 / 173.7178 * sqrt(-2 * ln(1 - party.u(i, $1))) * cos(2 * pi() * party.u(i, $1 + 1)) AS s
      FROM generate_series(1, 64) i),
    rounds AS (SELECT p AS period, p * 10 + r AS round FROM generate_series(1, 24) p, generate_series(1, 4) r),
    together AS (SELECT period, round, k, party.u(round * 100 + k, $1 + 2) < 0.5 AS yes
                 FROM rounds, generate_series(1, 32) k),
    seat AS (
      SELECT t.period, t.round, s.player_id, s.s, CASE WHEN t.yes THEN (s.player_id + 1) / 2 END AS party,
             CASE WHEN t.yes THEN 'p' || ((s.player_id + 1) / 2)
                  ELSE 's' || ((row_number() OVER (PARTITION BY t.round, t.yes
                                                  ORDER BY party.u(t.round * 100 + s.player_id, $1 + 3), s.player_id) - 1) / 2)
             END AS team_key
      FROM together t JOIN strength s ON (s.player_id + 1) / 2 = t.k),
    teams AS (
      SELECT round, team_key,
             row_number() OVER (PARTITION BY round ORDER BY party.u(round * 1000 + hashtext(team_key), $1 + 4), team_key) - 1 AS n
      FROM (SELECT DISTINCT round, team_key FROM seat) x),
    perf AS (
      SELECT x.*, sum(x.s - ln(-ln(party.u(x.round * 100 + x.player_id, $1 + 5))) - 0.5772156649015329
                      + CASE WHEN x.party IS NOT NULL THEN $2 / 173.7178 ELSE 0 END)
                  OVER (PARTITION BY x.round, x.team_key) AS team_perf
      FROM (SELECT s.*, t.n FROM seat s JOIN teams t USING (round, team_key)) x)
    SELECT (round * 100 + n / 2)::int AS match_id, period, player_id, (n %% 2 + 1)::int AS team, party,
           (dense_rank() OVER (PARTITION BY round, n / 2 ORDER BY team_perf DESC))::int AS place
    FROM perf$q$, name) USING seed, edge;
END $$;
SELECT league('edge150', 150, 3), league('no_edge', 0, 3);
SELECT count(*) AS rows, count(DISTINCT match_id) AS matches, round(avg((party IS NOT NULL)::int), 1) AS in_parties
FROM edge150;
-- The fit at max_rd 200 (the league's SD: at 350 the prior's uncertainty
-- shrinks every prediction, and a larger edge makes up for it).
SELECT party_advantage AS fitted, abs(party_advantage - 150) <= 0.25 * 150 AS within_25_percent
FROM glicko2_fit_matches('edge150', '{sum}', '{0.5}', '{200}',
                         party_advantages => (SELECT array_agg(x) FROM generate_series(0, 300, 25) x),
                         party_column => 'party')
WHERE best;
SELECT f.party_advantage AS fitted, f.log_loss - z.log_loss <= 0.001 AS costs_at_most_0_001
FROM glicko2_fit_matches('no_edge', '{sum}', '{0.5}', '{200}',
                         party_advantages => (SELECT array_agg(x) FROM generate_series(0, 300, 25) x),
                         party_column => 'party') f,
     glicko2_fit_matches('no_edge', '{sum}', '{0.5}', '{200}') z
WHERE f.best;
-- The continuous fit (golden-section search, no grid) on the same league:
-- the party advantage only (every team has two players: no size edge).
-- Its standard error, from the curvature of the summed log loss: the truth
-- within two of it, and the curvature the one glicko2_fit_matches gives
-- at the fit and 10 points either side.
SELECT round(party_advantage) AS fitted, abs(party_advantage - 150) <= 0.25 * 150 AS within_25_percent,
       size_advantage, evaluations, round(party_se::numeric, 1) AS party_se,
       abs(party_advantage - 150) <= 2 * party_se AS truth_within_2_se, size_se
FROM glicko2_fit_team_advantages('edge150', max_rd => 200, party_column => 'party') f;
SELECT abs(f.party_se - 10 / sqrt(f.predictions * (p.log_loss + m.log_loss - 2 * f.log_loss))) < 1e-9 * f.party_se
         AS se_from_the_curvature
FROM glicko2_fit_team_advantages('edge150', max_rd => 200, party_column => 'party') f,
     LATERAL glicko2_fit_matches('edge150', '{sum}', '{0.5}', '{200}', party_advantages => ARRAY[f.party_advantage + 10],
                                 party_column => 'party') p,
     LATERAL glicko2_fit_matches('edge150', '{sum}', '{0.5}', '{200}', party_advantages => ARRAY[f.party_advantage - 10],
                                 party_column => 'party') m;
-- Where no two players of a team share a label there is no premade party:
-- the log loss does not depend on the party advantage, and it stays 0 (no
-- replay spent on it) rather than running to a bound.
CREATE VIEW edge150_alone AS SELECT period, match_id, player_id, team, place, player_id AS party FROM edge150;
SELECT party_advantage, size_advantage, evaluations, party_se, size_se,
       log_loss = (SELECT log_loss FROM glicko2_fit_matches('edge150', '{sum}', '{0.5}', '{350}', teammates => true)) AS as_without_edges
FROM glicko2_fit_team_advantages('edge150_alone', party_column => 'party');
-- Both advantages fitted (teams of one and two: a player sits out some
-- rounds): the standard errors from the Hessian with its cross term, as
-- glicko2_fit_matches' log loss 10 points either side of the fit gives it
-- by the four-corner difference for the cross term (the function's own
-- differences are along each advantage and along both: the two agree
-- where the loss is quadratic over 10 points), (H n)^-1 = adj(H) / det(H) / n.
-- Where parties play against larger teams the two trade off.
CREATE TABLE uneven AS
SELECT * FROM edge150 e
WHERE period <= 8
  AND NOT (match_id % 3 = 0 AND team = 1
           AND player_id = (SELECT max(o.player_id) FROM edge150 o WHERE o.match_id = e.match_id AND o.team = 1));
CREATE TABLE uneven_fit AS
SELECT * FROM glicko2_fit_team_advantages('uneven', max_rd => 200, party_column => 'party', tolerance => 2);
CREATE FUNCTION uneven_loss(p float8, s float8) RETURNS float8 LANGUAGE sql AS $$
  SELECT log_loss FROM glicko2_fit_matches('uneven', '{sum}', '{0.5}', '{200}', party_advantages => ARRAY[p],
                                           size_advantages => ARRAY[s], party_column => 'party')
$$;
SELECT party_se IS NOT NULL AND size_se IS NOT NULL AS both_determined,
       abs(party_se - sqrt(h22 / (h11 * h22 - h12 ^ 2) / predictions)) < 1e-3 * party_se AS party_se_from_the_hessian,
       abs(size_se - sqrt(h11 / (h11 * h22 - h12 ^ 2) / predictions)) < 1e-3 * size_se AS size_se_from_the_hessian,
       h12 / sqrt(h11 * h22) > 0.2 AS advantages_trade_off,
       abs(party_advantage - 150) <= 2 * party_se AS party_truth_within_2_se
FROM uneven_fit f,
     LATERAL (SELECT (uneven_loss(f.party_advantage + 10, f.size_advantage) + uneven_loss(f.party_advantage - 10, f.size_advantage)
                      - 2 * f.log_loss) / 100 AS h11,
                     (uneven_loss(f.party_advantage, f.size_advantage + 10) + uneven_loss(f.party_advantage, f.size_advantage - 10)
                      - 2 * f.log_loss) / 100 AS h22,
                     (uneven_loss(f.party_advantage + 10, f.size_advantage + 10) - uneven_loss(f.party_advantage + 10, f.size_advantage - 10)
                      - uneven_loss(f.party_advantage - 10, f.size_advantage + 10) + uneven_loss(f.party_advantage - 10, f.size_advantage - 10))
                     / 400 AS h12) h;
\set VERBOSITY terse
SELECT * FROM glicko2_fit_team_advantages('edge150', 'composite');
SELECT * FROM glicko2_fit_team_advantages('edge150', bound => 'Infinity');
\set VERBOSITY default
-- The fit at advantage 0 is the fit without a party column, bit for bit.
SELECT a.log_loss = b.log_loss AS same_bits
FROM glicko2_fit_matches('edge150', '{sum,mean,composite}', '{0.5}', '{200}') a
JOIN glicko2_fit_matches('edge150', '{sum,mean,composite}', '{0.5}', '{200}', party_column => 'party') b USING (method)
ORDER BY method;
RESET search_path;
DROP SCHEMA party CASCADE;
