-- matches_teammates: glicko2_close_matches with a store of recurring
-- teammates' covariances (teammates => store; docs/matches.md, "Recurring
-- teammates").  1v1 and teammates who never recur give today's ratings bit
-- for bit and leave the store empty; a trio's two periods match the
-- independent Python transcription (test/unit/teammates_reference.py) to
-- 1e-9; a trio always together keeps each member's RD above the bound of
-- knowing only the team's sum; rows in any order give the same bits; a
-- refused close changes neither ratings nor store; bad input is named.
SET extra_float_digits = 0;
CREATE TABLE tm_matches (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('tm_matches');

-- 1v1 (period 1) and 2v2 with new teammates every match (period 2)
INSERT INTO tm_matches VALUES
  (1, 1, 1, 1, 1), (1, 1, 2, 2, 2), (2, 1, 3, 1, 2), (2, 1, 4, 2, 1), (3, 1, 1, 1, 1), (3, 1, 4, 2, 2),
  (4, 2, 1, 1, 1), (4, 2, 2, 1, 1), (4, 2, 3, 2, 2), (4, 2, 4, 2, 2),
  (5, 2, 1, 1, 2), (5, 2, 3, 1, 2), (5, 2, 2, 2, 1), (5, 2, 4, 2, 1),
  (6, 2, 1, 1, 1), (6, 2, 4, 1, 1), (6, 2, 2, 2, 2), (6, 2, 3, 2, 2);
CREATE TABLE tm_today (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE tm_mates (player_id int PRIMARY KEY, rating glicko2_rating);
CALL glicko2_teammates_create('tm_store', 'tm_mates');
\d tm_store
CALL glicko2_close_matches('tm_today', 'tm_matches', 1);
CALL glicko2_close_matches('tm_mates', 'tm_matches', 1, teammates => 'tm_store');
CALL glicko2_close_matches('tm_today', 'tm_matches', 2);
CALL glicko2_close_matches('tm_mates', 'tm_matches', 2, teammates => 'tm_store');
-- every rating the same bits; the store empty
SELECT count(*) AS players, count(*) FILTER (WHERE t.rating::text = m.rating::text) AS same_bits
FROM tm_today t JOIN tm_mates m USING (player_id);
SELECT count(*) AS pairs FROM tm_store;
-- the same with the first team of every 2v2 a premade party, and both edges
CREATE TABLE tm_party AS SELECT m.*, CASE WHEN period = 2 AND team = 1 THEN match_id * 10 + team END AS party FROM tm_matches m;
CALL glicko2_guard_games('tm_party');
CREATE TABLE tm_party_today (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE tm_party_mates (player_id int PRIMARY KEY, rating glicko2_rating);
CALL glicko2_teammates_create('tm_party_store', 'tm_party_mates');
DO $$
BEGIN
  FOR p IN 1..2 LOOP
    CALL glicko2_close_matches('tm_party_today', 'tm_party', p, party_column => 'party',
                               party_advantage => 40, size_advantage => 25);
    CALL glicko2_close_matches('tm_party_mates', 'tm_party', p, party_column => 'party',
                               party_advantage => 40, size_advantage => 25, teammates => 'tm_party_store');
  END LOOP;
END $$;
SELECT count(*) AS players, count(*) FILTER (WHERE t.rating::text = m.rating::text) AS same_bits,
       count(*) FILTER (WHERE t.rating::text = x.rating::text) AS same_as_without_edges
FROM tm_party_today t JOIN tm_party_mates m USING (player_id) JOIN tm_today x USING (player_id);
SELECT count(*) AS pairs FROM tm_party_store;

-- The trio of test/unit/teammates_reference.py: period 1 (2 matches), period 2
CREATE TABLE tm_trio (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('tm_trio');
INSERT INTO tm_trio VALUES
  (1, 1, 1, 1, 1), (1, 1, 2, 1, 1), (1, 1, 3, 1, 1), (1, 1, 4, 2, 2), (1, 1, 5, 2, 2), (1, 1, 6, 2, 2),
  (2, 1, 1, 1, 2), (2, 1, 2, 1, 2), (2, 1, 3, 1, 2), (2, 1, 7, 2, 1), (2, 1, 8, 2, 1), (2, 1, 9, 2, 1),
  (3, 2, 1, 1, 2), (3, 2, 2, 1, 2), (3, 2, 3, 1, 2), (3, 2, 4, 2, 1), (3, 2, 5, 2, 1), (3, 2, 6, 2, 1);
CREATE TABLE tm_trio_r (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO tm_trio_r VALUES (1, (1600, 80, 0.06)), (2, (1450, 200, 0.06)), (3, (1520, 150, 0.06)),
  (4, (1550, 120, 0.06)), (5, (1500, 350, 0.06)), (6, (1480, 100, 0.06)), (7, (1500, 90, 0.06)),
  (8, (1620, 110, 0.06)), (9, (1400, 250, 0.06));
CREATE TABLE tm_trio_h (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('tm_trio_s', 'tm_trio_r');
CREATE TABLE tm_trio_sh (period int, player_a int, player_b int, covariance float8);
CALL glicko2_close_matches('tm_trio_r', 'tm_trio', 1, history => 'tm_trio_h', teammates => 'tm_trio_s');
INSERT INTO tm_trio_sh SELECT 1, * FROM tm_trio_s;
CALL glicko2_close_matches('tm_trio_r', 'tm_trio', 2, history => 'tm_trio_h', teammates => 'tm_trio_s');
INSERT INTO tm_trio_sh SELECT 2, * FROM tm_trio_s;
-- Python's figures (python3 test/unit/teammates_reference.py)
CREATE TABLE tm_python (period int, player_id int, rating float8, rd float8, volatility float8);
INSERT INTO tm_python VALUES
  (1, 1, 1598.5110298413533, 79.85049366755604, 0.05999874678327518),
  (1, 2, 1440.824411815021, 187.28497499062317, 0.05999874678327518),
  (1, 3, 1514.8278587037357, 144.94638603115857, 0.05999874678327518),
  (1, 4, 1532.7444492018785, 119.04125997553196, 0.0599999224597706),
  (1, 5, 1366.747688571035, 312.3216677816929, 0.05999980195939081),
  (1, 6, 1467.9404408012724, 99.72412129418136, 0.05999992701274853),
  (1, 7, 1511.7899388808105, 89.91956929270776, 0.06000009607940792),
  (1, 8, 1637.4888279713698, 109.25146597109992, 0.06000009047576427),
  (1, 9, 1486.4740374776757, 235.13776813211047, 0.06000001651381142),
  (2, 1, 1590.187235169789, 80.24687140917894, 0.059998980330429885),
  (2, 2, 1390.4264956117058, 183.1068685192885, 0.059999037617243234),
  (2, 3, 1486.3435474871414, 143.48883998045497, 0.05999900466423509),
  (2, 4, 1555.7299370007809, 118.10953469744028, 0.06000031953374656),
  (2, 5, 1518.252117397229, 285.9735711789127, 0.06000010447201705),
  (2, 6, 1484.1502974990553, 99.45048655081013, 0.0600003285470048),
  (2, 7, 1511.7899388808105, 90.52165285861525, 0.06000009607940792),
  (2, 8, 1637.4888279713698, 109.74754435071073, 0.06000009047576427),
  (2, 9, 1486.4740374776757, 235.36866913097205, 0.06000001651381142);
CREATE TABLE tm_python_pairs (period int, player_a int, player_b int, covariance float8);
INSERT INTO tm_python_pairs VALUES
  (1, 1, 2, -816.7270487569759), (1, 1, 3, -460.37679508671346), (1, 2, 3, -2837.012295629789),
  (2, 1, 2, -1090.2631524034498), (2, 1, 3, -614.9761952152227), (2, 2, 3, -3773.0621571223546);
SELECT p.period, count(*) AS players,
       max(greatest(abs((h.rating).rating - p.rating), abs((h.rating).rd - p.rd) / p.rd,
                    abs((h.rating).volatility - p.volatility) / p.volatility)) < 1e-9 AS matches_python
FROM tm_python p JOIN tm_trio_h h USING (period, player_id) GROUP BY p.period ORDER BY 1;
SELECT p.period, p.player_a, p.player_b, abs(s.covariance - p.covariance) / abs(p.covariance) < 1e-9 AS matches_python
FROM tm_python_pairs p FULL JOIN tm_trio_sh s USING (period, player_a, player_b) ORDER BY 1, 2, 3;

-- A trio always together against strangers (12 matches a period, 3
-- periods): only the team's sum is measured, so each member's variance
-- cannot fall below that of his deviation from the trio's mean, 2/3 of the
-- prior's (RD >= 350 sqrt(2/3) = 285.77); without the store it does.
CREATE TABLE tm_always (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('tm_always');
INSERT INTO tm_always
SELECT 100 * p + k, p, x, CASE WHEN x <= 3 THEN 1 ELSE 2 END,
       CASE WHEN (x <= 3) = (hashint4(100 * p + k) % 3 <> 0) THEN 1 ELSE 2 END
FROM generate_series(1, 3) p, generate_series(1, 12) k,
     LATERAL (SELECT unnest(ARRAY[1, 2, 3, 4 + 3 * (12 * (p - 1) + k - 1), 5 + 3 * (12 * (p - 1) + k - 1),
                                  6 + 3 * (12 * (p - 1) + k - 1)]) AS x) u;
CREATE TABLE tm_always_r (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE tm_always_h (player_id int, period int, rating glicko2_rating);
CREATE TABLE tm_always_sh (period int, player_a int, player_b int, covariance float8);
CREATE TABLE tm_always_today (player_id int PRIMARY KEY, rating glicko2_rating);
CALL glicko2_teammates_create('tm_always_s', 'tm_always_r');
DO $$
BEGIN
  FOR p IN 1..3 LOOP
    CALL glicko2_close_matches('tm_always_r', 'tm_always', p, history => 'tm_always_h', teammates => 'tm_always_s');
    INSERT INTO tm_always_sh SELECT p, * FROM tm_always_s;
    CALL glicko2_close_matches('tm_always_today', 'tm_always', p);
  END LOOP;
END $$;
SELECT r.player_id, round((r.rating).rd::numeric, 1) AS rd_with_store, (r.rating).rd >= 350 * sqrt(2.0 / 3) AS above_bound,
       round((t.rating).rd::numeric, 1) AS rd_today
FROM tm_always_r r JOIN tm_always_today t USING (player_id) WHERE r.player_id <= 3 ORDER BY 1;
SELECT player_a, player_b, round((covariance / 350 ^ 2)::numeric, 2) AS covariance_over_350_squared FROM tm_always_s ORDER BY 1, 2;

-- glicko2_fit_matches scores the league as these closes rate it: each
-- match predicted from the ratings and the store before its period, the
-- trio's covariances counted in its team's variance (2 sum of its pairs'
-- covariances, all on one team)
WITH pre AS (SELECT m.period, m.match_id, m.team, min(m.place) AS place,
                    array_agg(coalesce(h.rating, glicko2_rating()) ORDER BY m.player_id) AS rs,
                    (SELECT coalesce(sum(s.covariance), 0) FROM tm_always_sh s
                     WHERE s.period = m.period - 1 AND s.player_a = ANY (array_agg(m.player_id))
                       AND s.player_b = ANY (array_agg(m.player_id))) AS cov
             FROM tm_always m
             LEFT JOIN tm_always_h h ON h.player_id = m.player_id AND h.period = m.period - 1
             GROUP BY m.period, m.match_id, m.team),
loss AS (SELECT -ln(glicko2_internal.glicko2_team_win_probability_covaried(
                      w.rs, l.rs, 'sum', NULL, NULL, NULL::int[], NULL::int[], 0, 0,
                      2 * (w.cov + l.cov) / 173.7178 ^ 2)) AS loss
         FROM pre w JOIN pre l ON l.match_id = w.match_id AND l.place > w.place)
SELECT count(*) AS pairs,
       abs(avg(loss) - (SELECT log_loss FROM glicko2_fit_matches('tm_always', ARRAY['sum'], '{0.5}'))) < 1e-12
         AS fit_as_closes_with_store,
       abs(avg(loss) - (SELECT log_loss FROM glicko2_fit_matches('tm_always', ARRAY['sum'], '{0.5}', teammates => false))) > 1e-3
         AS differs_without
FROM loss;

-- Order: the same period's rows inserted in reverse close to the same bits
CREATE TABLE tm_reversed (match_id int, period int, player_id int, team int, place int);
CALL glicko2_guard_games('tm_reversed');
INSERT INTO tm_reversed SELECT * FROM tm_trio ORDER BY match_id DESC, player_id DESC;
CREATE TABLE tm_reversed_r (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO tm_reversed_r VALUES (9, (1400, 250, 0.06)), (8, (1620, 110, 0.06)), (7, (1500, 90, 0.06)),
  (6, (1480, 100, 0.06)), (5, (1500, 350, 0.06)), (4, (1550, 120, 0.06)), (3, (1520, 150, 0.06)),
  (2, (1450, 200, 0.06)), (1, (1600, 80, 0.06));
CALL glicko2_teammates_create('public.tm_reversed_s', 'tm_reversed_r');
CALL glicko2_close_matches('tm_reversed_r', 'tm_reversed', 1, teammates => 'tm_reversed_s');
CALL glicko2_close_matches('tm_reversed_r', 'tm_reversed', 2, teammates => 'tm_reversed_s');
SELECT count(*) FILTER (WHERE a.rating::text = h.rating::text) AS same_bits, count(*) AS players
FROM tm_reversed_r a JOIN tm_trio_h h ON h.player_id = a.player_id AND h.period = 2;
SELECT count(*) FILTER (WHERE a.covariance::text = b.covariance::text) AS same_bits, count(*) AS pairs
FROM tm_reversed_s a JOIN tm_trio_s b USING (player_a, player_b);

-- A partitioned store (its rows found by table and TID when rewritten): the
-- same bits as the plain store, the pairs in both partitions
CREATE TABLE tm_part_r (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO tm_part_r VALUES (1, (1600, 80, 0.06)), (2, (1450, 200, 0.06)), (3, (1520, 150, 0.06)),
  (4, (1550, 120, 0.06)), (5, (1500, 350, 0.06)), (6, (1480, 100, 0.06)), (7, (1500, 90, 0.06)),
  (8, (1620, 110, 0.06)), (9, (1400, 250, 0.06));
CREATE TABLE tm_part_s (player_a int NOT NULL, player_b int NOT NULL, covariance float8 NOT NULL,
                        PRIMARY KEY (player_a, player_b)) PARTITION BY LIST (player_a);
CREATE TABLE tm_part_s1 PARTITION OF tm_part_s FOR VALUES IN (1, 3, 5, 7, 9);
CREATE TABLE tm_part_s2 PARTITION OF tm_part_s DEFAULT;
CALL glicko2_close_matches('tm_part_r', 'tm_trio', 1, teammates => 'tm_part_s');
CALL glicko2_close_matches('tm_part_r', 'tm_trio', 2, teammates => 'tm_part_s');
SELECT count(*) FILTER (WHERE a.rating::text = h.rating::text) AS same_bits, count(*) AS players
FROM tm_part_r a JOIN tm_trio_h h ON h.player_id = a.player_id AND h.period = 2;
SELECT count(*) FILTER (WHERE a.covariance::text = b.covariance::text) AS same_bits, count(*) AS pairs,
       count(DISTINCT a.tableoid) AS partitions
FROM tm_part_s a JOIN tm_trio_s b USING (player_a, player_b);
SELECT (SELECT count(*) FROM tm_part_s) = (SELECT count(*) FROM tm_trio_s) AS as_many_pairs;

-- A refused close changes nothing: a player twice in a match of period 3
INSERT INTO tm_trio VALUES (4, 3, 1, 1, 1), (4, 3, 2, 1, 1), (4, 3, 1, 2, 2);
CREATE TABLE tm_before AS SELECT * FROM tm_trio_s;
CALL glicko2_close_matches('tm_trio_r', 'tm_trio', 3, teammates => 'tm_trio_s');
SELECT (SELECT count(*) FROM tm_trio_s) AS pairs,
       NOT EXISTS (SELECT * FROM tm_trio_s EXCEPT SELECT * FROM tm_before) AS store_unchanged,
       (SELECT count(*) FROM glicko2_closes WHERE ratings = 'tm_trio_r'::regclass) AS closes;

-- Bad input, named
CALL glicko2_close_matches('tm_trio_r', 'tm_trio', 3, 'composite', teammates => 'tm_trio_s');
CREATE TABLE tm_bad_store (player_a bigint, player_b bigint, covariance float8);
CALL glicko2_close_matches('tm_trio_r', 'tm_trio', 3, teammates => 'tm_bad_store');
INSERT INTO tm_party VALUES (9, 3, 1, 1, 1, 7), (9, 3, 2, 1, 1, 7), (9, 3, 3, 2, 2, 7), (9, 3, 4, 2, 2, NULL);
CALL glicko2_close_matches('tm_party_mates', 'tm_party', 3, party_column => 'party', teammates => 'tm_party_store');
CREATE TABLE tm_bad_store2 (player_a int, player_b int, covariance numeric);
CALL glicko2_close_matches('tm_trio_r', 'tm_trio', 3, teammates => 'tm_bad_store2');
CALL glicko2_teammates_create('tm_x', 'tm_trio_r', 'nope');
CALL glicko2_teammates_create('tm_trio_s', 'tm_trio_r');
CALL glicko2_teammates_create('a.b.c.d', 'tm_trio_r');
INSERT INTO tm_trio_s VALUES (3, 2, 1.0);
INSERT INTO tm_trio_s VALUES (4, 5, 'NaN');
