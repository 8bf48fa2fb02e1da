-- Matchmaking, lobbies: the team win probability and glicko2_balance.
-- References computed independently with mpmath at 40 digits: with
-- 'composite', a team is the composite of Williams (2013), the means of its
-- players' rating and RD, and p = 1 / (1 + exp(-g(sqrt(phi_a^2 + phi_b^2))
-- (mu_a - mu_b))); with 'sum' and 'mean' (the team model, TEAM_MATH's
-- formula written out in Python), p = 1 / (1 + exp(-(M_a - M_b) /
-- sqrt(s^2 + 3 (V_a + V_b) / pi^2))).

-- Teams of one are glicko2_win_probability, bit for bit, by every method.
SELECT (a).rating AS a, (b).rating AS b,
       glicko2_team_win_probability(ARRAY[a], ARRAY[b]) = glicko2_win_probability(a, b) AS same,
       glicko2_team_win_probability(ARRAY[a], ARRAY[b], 'mean') = glicko2_win_probability(a, b) AS same_mean,
       glicko2_team_win_probability(ARRAY[a], ARRAY[b], 'composite') = glicko2_win_probability(a, b) AS same_composite
FROM (VALUES (glicko2_rating(1700, 50), glicko2_rating(1500, 80)),
             (glicko2_rating(1400, 350), glicko2_rating(2100, 30)),
             (glicko2_rating(-5e5, 1e-3), glicko2_rating(5e5, 1e-3))) v(a, b);

-- 1600/50 + 1400/150 (composite 1500/100) against 1550/100 + 1500/60
-- (composite 1525/80): 0.46671908873167062; swapped, 1 - that.
SELECT abs(glicko2_team_win_probability(ARRAY[glicko2_rating(1600, 50), glicko2_rating(1400, 150)],
                                        ARRAY[glicko2_rating(1550, 100), glicko2_rating(1500, 60)], 'composite')
           / 0.46671908873167061989 - 1) < 1e-14 AS two_against_two,
       glicko2_team_win_probability(ARRAY[glicko2_rating(1600, 50), glicko2_rating(1400, 150)],
                                    ARRAY[glicko2_rating(1550, 100), glicko2_rating(1500, 60)], 'composite')
     + glicko2_team_win_probability(ARRAY[glicko2_rating(1550, 100), glicko2_rating(1500, 60)],
                                    ARRAY[glicko2_rating(1600, 50), glicko2_rating(1400, 150)], 'composite') AS p_ab_plus_p_ba;
-- Three against two: composites 1500/100 and 1650/140, 0.31911231887186800752.
SELECT abs(glicko2_team_win_probability(
             ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
             ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], 'composite')
           / 0.31911231887186800752 - 1) < 1e-14 AS three_against_two;
-- The order of a team's players does not matter.
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
                                    ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], 'composite')
     = glicko2_team_win_probability(ARRAY[glicko2_rating(1200, 150), glicko2_rating(1800, 50), glicko2_rating(1500, 100)],
                                    ARRAY[glicko2_rating(1600, 80), glicko2_rating(1700, 200)], 'composite') AS order_free;

-- The team model: 'sum' adds the members' strengths (and noise), 'mean'
-- averages them; the same two matches, Python's figures.
SELECT abs(glicko2_team_win_probability(ARRAY[glicko2_rating(1600, 50), glicko2_rating(1400, 150)],
                                        ARRAY[glicko2_rating(1550, 100), glicko2_rating(1500, 60)])
           / 0.4535780122310803 - 1) < 1e-14 AS sum_two_against_two,
       abs(glicko2_team_win_probability(ARRAY[glicko2_rating(1600, 50), glicko2_rating(1400, 150)],
                                        ARRAY[glicko2_rating(1550, 100), glicko2_rating(1500, 60)], 'mean')
           / 0.4657065894557042 - 1) < 1e-14 AS mean_two_against_two,
       abs(glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
                                        ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], 'sum')
           / 0.27932827680553113 - 1) < 1e-14 AS sum_three_against_two,
       abs(glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
                                        ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], 'mean')
           / 0.3093641843134334 - 1) < 1e-14 AS mean_three_against_two;
SELECT m, abs(glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
                                           ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], m)
            + glicko2_team_win_probability(ARRAY[glicko2_rating(1600, 80), glicko2_rating(1700, 200)],
                                           ARRAY[glicko2_rating(1200, 150), glicko2_rating(1800, 50), glicko2_rating(1500, 100)], m)
            - 1) < 1e-15 AS p_ab_plus_p_ba_is_1
FROM unnest(ARRAY['sum', 'mean', 'individual', 'composite']) m;

-- Play shares (weights_a, weights_b): a player counts by the share of the
-- match he played, as the closes count him.  1600/50 (1) + 1400/150 (0.5)
-- against 1550/100 (0.25) + 1500/60 (1), mpmath at 40 digits: 'sum' with
-- M = sum w mu, V = sum w^2 phi^2, s^2 = (sum w_a + sum w_b) / 2; 'mean' with
-- w / sum w; 'composite' the share-weighted means (1533.33/83.33 against
-- 1510/68).
SELECT m, abs(glicko2_team_win_probability(ARRAY[glicko2_rating(1600, 50), glicko2_rating(1400, 150)],
                                           ARRAY[glicko2_rating(1550, 100), glicko2_rating(1500, 60)], m,
                                           '{1, 0.5}', '{0.25, 1}') / want - 1) < 1e-14 AS weighted
FROM (VALUES ('sum', 0.5439588504027245024375225941101995913533),
             ('mean', 0.532513845287361865050915937583890147452),
             ('composite', 0.5317361759609037298523736251789990012314)) v(m, want);
-- Weights of 1 are no weights, bit for bit; one side's weights alone.
SELECT m, glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
                                       ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], m, '{1,1,1}', '{1,1}')
        = glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
                                       ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], m) AS ones_are_none,
          glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
                                       ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], m, NULL, '{0.5,1}')
        > glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1500, 100), glicko2_rating(1200, 150)],
                                       ARRAY[glicko2_rating(1700, 200), glicko2_rating(1600, 80)], m) AS strong_half_weakens_b
FROM unnest(ARRAY['sum', 'mean', 'individual', 'composite']) m;
-- NULL teams or method: NULL, as a strict function would give.
SELECT glicko2_team_win_probability(NULL, ARRAY[glicko2_rating()]) IS NULL AS null_team,
       glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], NULL) IS NULL AS null_method;

-- Splits by 'composite' (Williams's composite, the fairness before the team
-- model; 'sum' is tested below).
-- 2v2: 1800 1600 1500 1300 (RD 50).  Free: 1800 + 1300 against 1600 + 1500,
-- both 1550, p = 0.5.  With the two best in one party the only split left is
-- 1700 against 1400: 0.84356933445838788305.
SELECT glicko2_balance(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1600, 50),
                             glicko2_rating(1500, 50), glicko2_rating(1300, 50)], method => 'composite') AS free,
       glicko2_balance(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1600, 50),
                             glicko2_rating(1500, 50), glicko2_rating(1300, 50)], 2, '{9,9,NULL,NULL}', method => 'composite') AS party;
SELECT abs(glicko2_team_win_probability(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1600, 50)],
                                        ARRAY[glicko2_rating(1500, 50), glicko2_rating(1300, 50)], 'composite')
           / 0.84356933445838788305 - 1) < 1e-14 AS party_chance;
-- A party of the best and the worst changes nothing: it is the fair split.
SELECT glicko2_balance(ARRAY[glicko2_rating(1800, 50), glicko2_rating(1600, 50),
                             glicko2_rating(1500, 50), glicko2_rating(1300, 50)], 2, '{4,NULL,NULL,4}', method => 'composite') AS party_fair;

-- 3 teams of 2: 1000 ... 1500 pair outside in, every team 1250.
SELECT glicko2_balance(ARRAY(SELECT glicko2_rating(1000 + 100 * i, 80) FROM generate_series(0, 5) i), 3, method => 'composite') AS three_teams;
-- Two parties of two and 3 teams of 2: the parties are two of the teams.
SELECT glicko2_balance(ARRAY(SELECT glicko2_rating(1000 + 100 * i, 80) FROM generate_series(0, 5) i), 3,
                       '{1,NULL,1,2,NULL,2}', method => 'composite') AS three_teams_parties;
-- Uneven: 7 players in 2 teams are 4 and 3; in 3 teams 3, 2 and 2.
SELECT array_agg(n ORDER BY t) AS sizes_2
FROM (SELECT t, count(*) AS n
      FROM unnest(glicko2_balance(ARRAY(SELECT glicko2_rating(1000 + 37 * i, 60) FROM generate_series(1, 7) i), method => 'composite')) t
      GROUP BY t) s;
SELECT array_agg(n ORDER BY n DESC) AS sizes_3
FROM (SELECT t, count(*) AS n
      FROM unnest(glicko2_balance(ARRAY(SELECT glicko2_rating(1000 + 37 * i, 60) FROM generate_series(1, 7) i), 3, method => 'composite')) t
      GROUP BY t) s;

-- Against brute force: every split of 20 lobbies of 4 to 12 players into two
-- teams (all 2^n masks with n/2 players in team 1): the least |p - 0.5|
-- equals that of glicko2_balance's split.  Ratings and RDs from a fixed hash.
CREATE TEMP TABLE lobby AS
SELECT l, i, glicko2_rating(1000 + (hashint4(l * 100 + i) & 1023), 40 + (hashint4(l * 100 + i + 50) & 255)) AS r
FROM generate_series(1, 20) l, generate_series(1, 4 + l % 9) i;
CREATE TEMP TABLE lobby_size AS SELECT l, count(*)::int AS n FROM lobby GROUP BY l;
CREATE FUNCTION pg_temp.split_cost(l int, mask int) RETURNS float8 LANGUAGE sql AS $$
  SELECT abs(glicko2_team_win_probability(array_agg(r) FILTER (WHERE mask & (1 << (i - 1)) <> 0),
                                          array_agg(r) FILTER (WHERE mask & (1 << (i - 1)) = 0), 'composite') - 0.5)
  FROM lobby WHERE lobby.l = split_cost.l $$;
WITH brute AS (
  SELECT s.l, min(pg_temp.split_cost(s.l, m)) AS best
  FROM lobby_size s, generate_series(0, (1 << s.n) - 1) m
  WHERE length(replace(m::bit(16)::text, '0', '')) = s.n / 2
  GROUP BY s.l),
balanced AS (
  SELECT l, glicko2_balance(array_agg(r ORDER BY i), method => 'composite') AS team FROM lobby GROUP BY l),
mine AS (
  SELECT b.l, pg_temp.split_cost(b.l, (SELECT sum(1 << (i - 1))::int FROM generate_subscripts(b.team, 1) i
                                       WHERE b.team[i] = 1)) AS cost
  FROM balanced b)
SELECT count(*) AS lobbies, count(*) FILTER (WHERE abs(m.cost - b.best) < 1e-12) AS optimal,
       min(s.n) AS smallest, max(s.n) AS largest
FROM brute b JOIN mine m USING (l) JOIN lobby_size s USING (l);

-- Deterministic, and the team numbers follow the first player of each team.
SELECT count(DISTINCT glicko2_balance(a, 3, method => 'composite')) AS distinct_results, min((glicko2_balance(a, 3, method => 'composite'))[1]) AS first_team
FROM (SELECT ARRAY(SELECT r FROM lobby WHERE l = 8 ORDER BY i) AS a FROM generate_series(1, 5)) s;

-- Larger lobbies (24 players in 3 teams: beyond the exact search) still
-- split into teams of 8, with every party together.
SELECT array_agg(n ORDER BY t) AS sizes
FROM (SELECT t, count(*) AS n
      FROM unnest(glicko2_balance(ARRAY(SELECT glicko2_rating(1000 + (hashint4(i) & 1023), 80) FROM generate_series(1, 24) i), 3,
                                  ARRAY(SELECT CASE WHEN i <= 6 THEN (i + 1) / 2 END FROM generate_series(1, 24) i), method => 'composite'),
                  ARRAY(SELECT CASE WHEN i <= 6 THEN (i + 1) / 2 END FROM generate_series(1, 24) i)) u(t, p)
      GROUP BY t) s;
SELECT count(DISTINCT t) AS teams_per_party
FROM unnest(glicko2_balance(ARRAY(SELECT glicko2_rating(1000 + (hashint4(i) & 1023), 80) FROM generate_series(1, 24) i), 3,
                            ARRAY(SELECT CASE WHEN i <= 6 THEN (i + 1) / 2 END FROM generate_series(1, 24) i), method => 'composite'),
            ARRAY(SELECT CASE WHEN i <= 6 THEN (i + 1) / 2 END FROM generate_series(1, 24) i)) u(t, p)
WHERE p IS NOT NULL GROUP BY p ORDER BY p;

-- The team model ('sum', the default, and 'mean') and 'individual', against
-- brute force over the same lobbies: the least |p - 0.5| by
-- glicko2_team_win_probability of the method equals that of the split
-- glicko2_balance of the method chooses.
CREATE FUNCTION pg_temp.split_cost_of(l int, mask int, method text) RETURNS float8 LANGUAGE sql AS $$
  SELECT abs(glicko2_team_win_probability(array_agg(r) FILTER (WHERE mask & (1 << (i - 1)) <> 0),
                                          array_agg(r) FILTER (WHERE mask & (1 << (i - 1)) = 0), method) - 0.5)
  FROM lobby WHERE lobby.l = split_cost_of.l $$;
WITH methods(method) AS (VALUES ('sum'), ('mean'), ('individual')),
brute AS (
  SELECT method, s.l, min(pg_temp.split_cost_of(s.l, m, method)) AS best
  FROM methods, lobby_size s, generate_series(0, (1 << s.n) - 1) m
  WHERE length(replace(m::bit(16)::text, '0', '')) = s.n / 2
  GROUP BY method, s.l),
balanced AS (
  SELECT method, l, glicko2_balance(array_agg(r ORDER BY i), method => method) AS team
  FROM methods, lobby GROUP BY method, l),
mine AS (
  SELECT method, b.l, pg_temp.split_cost_of(b.l, (SELECT sum(1 << (i - 1))::int FROM generate_subscripts(b.team, 1) i
                                                  WHERE b.team[i] = 1), method) AS cost
  FROM balanced b)
SELECT method, count(*) AS lobbies, count(*) FILTER (WHERE abs(m.cost - b.best) < 1e-12) AS optimal
FROM brute b JOIN mine m USING (method, l) GROUP BY method ORDER BY method;
-- Without a method, 'sum'.
SELECT bool_and(glicko2_balance(a) = glicko2_balance(a, method => 'sum')) AS default_is_sum
FROM (SELECT l, array_agg(r ORDER BY i) AS a FROM lobby GROUP BY l) s;

-- Teams of unequal RD, where 'sum' and 'composite' choose differently:
-- 1700 and 1595 of RD 350, 1500 and 1695 of RD 30.  The composite puts the
-- two uncertain players together (means 1647.5 / 1597.5: their lopsided
-- RDs widen its combined RD and shrink the 50-point gap); 'sum', where every
-- split counts all four players' uncertainty, takes the smaller gap of sums
-- (3200 against 3290).  Each is its own method's best of the three splits.
CREATE TEMP TABLE unequal AS
SELECT ARRAY[glicko2_rating(1700, 350), glicko2_rating(1595, 350), glicko2_rating(1500, 30), glicko2_rating(1695, 30)] AS a;
SELECT glicko2_balance(a) AS sum_split, glicko2_balance(a, method => 'composite') AS composite_split,
       glicko2_balance(a, method => 'individual') AS individual_split, glicko2_balance(a, method => 'mean') AS mean_split
FROM unequal;
SELECT m, round(abs(glicko2_team_win_probability(ARRAY[a[1], a[t]], ARRAY(SELECT a[k] FROM generate_series(2, 4) k WHERE k <> t), m) - 0.5)::numeric, 4)
         AS cost, t AS partner_of_first
FROM unequal, unnest(ARRAY['sum', 'composite']) m, generate_series(2, 4) t ORDER BY m, cost;

-- NULL method: no split.
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], method => NULL) IS NULL AS null_method;
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], method => 'median');

-- NULL lobby or team count: no split; NULL parties: none.
SELECT glicko2_balance(NULL) IS NULL AS null_lobby,
       glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], NULL) IS NULL AS null_teams,
       glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 2, NULL) AS null_parties;

-- Bad input: each a clear error naming the value.
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating(), NULL], ARRAY[glicko2_rating()]);
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[(1500, 0, 0.06)::glicko2_rating]);
SELECT glicko2_team_win_probability(ARRAY[('NaN', 350, 0.06)::glicko2_rating], ARRAY[glicko2_rating()]);
SELECT glicko2_team_win_probability('{}', ARRAY[glicko2_rating()]);
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[(1500, NULL, 0.06)::glicko2_rating]);
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], 'median');
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], 'sum', '{0}');
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], 'sum', NULL, '{1.5}');
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], 'mean', '{NaN}');
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], 'sum', '{NULL}');
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating(), glicko2_rating()], ARRAY[glicko2_rating()], 'sum', '{1}');
SELECT glicko2_team_win_probability(ARRAY[glicko2_rating()], ARRAY[glicko2_rating()], 'sum', '{{1}}');
SELECT glicko2_balance(ARRAY[glicko2_rating(), NULL, glicko2_rating()]);
SELECT glicko2_balance(ARRAY[glicko2_rating(), (1500, 'Infinity', 0.06)::glicko2_rating]);
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating(), glicko2_rating()], 4);
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 1);
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 0);
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 65);
SELECT glicko2_balance('{}');
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating(), glicko2_rating(), glicko2_rating()], 2, '{5,5,5,NULL}');
SELECT glicko2_balance(ARRAY(SELECT glicko2_rating() FROM generate_series(1, 6)), 2, '{1,1,2,2,3,3}');
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 2, '{1,2,3}');
SELECT glicko2_balance(ARRAY[glicko2_rating(), glicko2_rating()], 2, '{{1},{2}}');
SELECT glicko2_balance(ARRAY[[glicko2_rating()], [glicko2_rating()]]);

-- Lobbies over 16 players whose parties fit only one way were refused
-- (22023): 18 players in 3 teams of 6 with parties of 5, 3, 3, 2, 2, 2 and one
-- alone ({5,1} {3,3} {2,2,2}), and 1 000 players in 8 teams with parties of 3
-- and 4. Now split, each party together, teams of equal size; a lobby whose
-- parties do not fit is still refused, at any size.
WITH s AS (SELECT glicko2_balance(array_agg(glicko2_rating(1500 + (i * 7919) % 1000, 100) ORDER BY i), 3,
                                  '{5,5,3,4,3,6,1,4,2,1,2,6,5,1,0,1,4,1}'::int[]) AS team
           FROM generate_series(1, 18) i),
     p AS (SELECT i, (s.team)[i] AS team, ('{5,5,3,4,3,6,1,4,2,1,2,6,5,1,0,1,4,1}'::int[])[i] AS party
           FROM s, generate_series(1, 18) i)
SELECT (SELECT array_agg(n ORDER BY n) FROM (SELECT count(*) AS n FROM p GROUP BY team) t) AS team_sizes,
       (SELECT count(*) FROM (SELECT party FROM p WHERE party > 0 GROUP BY party HAVING count(DISTINCT team) > 1) x)
         AS parties_split;
WITH l AS (SELECT i, CASE WHEN i <= 600 THEN (i - 1) / 3 + 1 ELSE 1000 + (i - 601) / 4 END AS party
           FROM generate_series(1, 1000) i),
     s AS (SELECT glicko2_balance(array_agg(glicko2_rating(1500 + (i * 7919) % 1000, 100) ORDER BY i), 8,
                                  array_agg(party ORDER BY i)) AS team FROM l),
     p AS (SELECT l.i, (s.team)[l.i] AS team, l.party FROM s, l)
SELECT (SELECT array_agg(DISTINCT n) FROM (SELECT count(*) AS n FROM p GROUP BY team) t) AS team_sizes,
       (SELECT count(*) FROM (SELECT party FROM p GROUP BY party HAVING count(DISTINCT team) > 1) x) AS parties_split;
-- 18 players in parties of 5, 5, 4 and 4 in three teams of 6: a team holds
-- one of them at most, so one is left over: refused (22023).
SELECT glicko2_balance(array_agg(glicko2_rating(1500 + i, 100) ORDER BY i), 3,
       array_agg(CASE WHEN i <= 5 THEN 1 WHEN i <= 10 THEN 2 WHEN i <= 14 THEN 3 WHEN i <= 18 THEN 4 END ORDER BY i))
FROM generate_series(1, 18) i;
