-- glicko2_match_sides: the one-on-one game sides a match becomes, checked
-- against sides written out by hand; then used with glicko2_period and
-- glicko2_explain as an analyst would.
CREATE SCHEMA matches_sides;
SET search_path = matches_sides, public;

-- A 2v2, team 'red' (players 1, 2) first.  Individual: each player meets
-- both players of the other team: 4 players x 2 = 8 sides.
SELECT player, team, opponent, opponent_team, opponent_rating, score
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4], ARRAY['red', 'red', 'blue', 'blue'], ARRAY[1, 1, 2, 2],
                         ARRAY[glicko2_rating(1600, 100), glicko2_rating(1400, 50),
                               glicko2_rating(1550, 200, 0.05), NULL], 'individual');
-- Composite: each player meets the other team once, as the mean of its
-- players: red is (1600 + 1400) / 2 = 1500, RD (100 + 50) / 2 = 75; blue,
-- with player 4 unrated (1500 / 350 / 0.06), is 1525 / 275 / 0.055.
SELECT player, team, rating, opponent, opponent_team, opponent_rating, score
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4], ARRAY['red', 'red', 'blue', 'blue'], ARRAY[1, 1, 2, 2],
                         ARRAY[glicko2_rating(1600, 100), glicko2_rating(1400, 50),
                               glicko2_rating(1550, 200, 0.05), NULL], 'composite');

-- A 3-team free-for-all with a tie: A (1, 2) first, B (3) and C (4, 5)
-- tied second.  A beats everyone (1); B and C draw (0.5); both lose to A (0).
SELECT player, team, opponent, opponent_team, score
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4, 5], ARRAY['A', 'A', 'B', 'C', 'C'], ARRAY[1, 1, 2, 2, 2],
                         ARRAY[NULL, NULL, NULL, NULL, NULL]::glicko2_rating[], 'individual');
SELECT player, opponent_team, score
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4, 5], ARRAY['A', 'A', 'B', 'C', 'C'], ARRAY[1, 1, 2, 2, 2],
                         ARRAY[NULL, NULL, NULL, NULL, NULL]::glicko2_rating[], 'composite');

-- Uneven teams, 1v3 (the three win).  Individual: the lone player has three
-- games, each of the three has one.  Composite: one game each; the three
-- meet the lone player as he is, he meets their mean 1500 / 100 / 0.06.
SELECT player, opponent, opponent_team, opponent_rating, score
FROM glicko2_match_sides(ARRAY[10, 20, 21, 22], ARRAY[1, 2, 2, 2], ARRAY[2, 1, 1, 1],
                         ARRAY[glicko2_rating(1700, 60), glicko2_rating(1400, 80),
                               glicko2_rating(1500, 100), glicko2_rating(1600, 120)], 'individual');
SELECT player, opponent, opponent_team, opponent_rating, score
FROM glicko2_match_sides(ARRAY[10, 20, 21, 22], ARRAY[1, 2, 2, 2], ARRAY[2, 1, 1, 1],
                         ARRAY[glicko2_rating(1700, 60), glicko2_rating(1400, 80),
                               glicko2_rating(1500, 100), glicko2_rating(1600, 120)], 'composite');

-- A 12-player free-for-all (Hunt: teams of 1 to 3): teams of 3, 3, 3, 2 and
-- a player alone (team 'solo', placed 2nd).  Individual: a player of a team
-- of size k has 12 - k games, 120 in all; composite: 4 games each, 48.
CREATE TABLE ffa (player int, team text, place int);
INSERT INTO ffa VALUES
  (1, 'a', 3), (2, 'a', 3), (3, 'a', 3), (4, 'b', 1), (5, 'b', 1), (6, 'b', 1),
  (7, 'c', 5), (8, 'c', 5), (9, 'c', 5), (10, 'd', 4), (11, 'd', 4), (12, 'solo', 2);
SELECT s.player, count(*) AS games, sum(s.score) AS points, string_agg(s.score::text, ' ' ORDER BY s.opponent) AS scores
FROM (SELECT array_agg(player ORDER BY player) p, array_agg(team ORDER BY player) t,
             array_agg(place ORDER BY player) pl FROM ffa) m,
     glicko2_match_sides(m.p, m.t, m.pl, array_fill(NULL::glicko2_rating, ARRAY[12]), 'individual') s
GROUP BY s.player ORDER BY s.player;
SELECT s.player, string_agg(s.opponent_team || ':' || s.score, ' ' ORDER BY s.opponent_team) AS games
FROM (SELECT array_agg(player ORDER BY player) p, array_agg(team ORDER BY player) t,
             array_agg(place ORDER BY player) pl FROM ffa) m,
     glicko2_match_sides(m.p, m.t, m.pl, array_fill(NULL::glicko2_rating, ARRAY[12]), 'composite') s
WHERE s.player IN (1, 12)
GROUP BY s.player ORDER BY s.player;

-- A 1v1 is one game, both ways, whatever the method: the composite of one
-- player is that player, bit for bit.
SELECT player, opponent, opponent_rating = glicko2_rating(1623.123456789, 87.654321, 0.0612345) AS exact, score
FROM glicko2_match_sides(ARRAY['ann', 'bob'], ARRAY[1, 2], ARRAY[1, 1],
                         ARRAY[glicko2_rating(1400.5, 33.3), glicko2_rating(1623.123456789, 87.654321, 0.0612345)], 'composite')
WHERE player = 'ann';

-- Keys of any type with an equality: text players, uuid teams, bigint places.
SELECT player, opponent_team, score
FROM glicko2_match_sides(ARRAY['x', 'y'], ARRAY['a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12'],
                         ARRAY[2::bigint, 1], ARRAY[NULL, NULL]::glicko2_rating[]);

-- An analyst's period: matches in a table, ratings in another, the sides fed
-- to glicko2_period.  Player 1's new rating is glicko2_period over the games
-- written out by hand (composite opponents of the 2v2 above).
CREATE TABLE ratings (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings VALUES (1, glicko2_rating(1600, 100)), (2, glicko2_rating(1400, 50)),
                           (3, glicko2_rating(1550, 200, 0.05)), (5, glicko2_rating(1450, 150));
CREATE TABLE matches (match_id int, period int, player_id int, team text, place int);
INSERT INTO matches VALUES
  (1, 1, 1, 'red', 1), (1, 1, 2, 'red', 1), (1, 1, 3, 'blue', 2), (1, 1, 4, 'blue', 2),
  (2, 1, 1, 'x', 2), (2, 1, 5, 'y', 1);
CREATE TABLE new_ratings AS
SELECT s.player AS player_id, glicko2_period(s.rating, s.opponent_rating, s.score) AS rating
FROM (SELECT m.match_id, array_agg(m.player_id) p, array_agg(m.team) t, array_agg(m.place) pl, array_agg(r.rating) rt
      FROM matches m LEFT JOIN ratings r USING (player_id) WHERE m.period = 1 GROUP BY m.match_id) x,
     glicko2_match_sides(x.p, x.t, x.pl, x.rt, 'composite') s
GROUP BY s.player;
SELECT n.rating = (SELECT glicko2_period(glicko2_rating(1600, 100), o, s)
                   FROM (VALUES (glicko2_rating(1525, 275, 0.055), 1::float8),
                                (glicko2_rating(1450, 150), 0)) g(o, s)) AS player_1_as_by_hand
FROM new_ratings n WHERE n.player_id = 1;
SELECT player_id, round((rating).rating::numeric, 3) AS rating, round((rating).rd::numeric, 3) AS rd
FROM new_ratings ORDER BY player_id;

-- Why did player 1's rating move?  glicko2_explain over the same sides.
SELECT e -> 'result' = glicko2_to_jsonb(n.rating) AS explains_the_rating,
       jsonb_path_query_array(e, '$.games[*].s') AS scores,
       jsonb_path_query_array(e, '$.games[*].opponent.rating') AS composite_opponents
FROM (SELECT glicko2_explain(s.rating, s.opponent_rating, s.score ORDER BY s.opponent_team) AS e
      FROM (SELECT m.match_id, array_agg(m.player_id) p, array_agg(m.team) t, array_agg(m.place) pl, array_agg(r.rating) rt
            FROM matches m LEFT JOIN ratings r USING (player_id) WHERE m.period = 1 GROUP BY m.match_id) x,
           glicko2_match_sides(x.p, x.t, x.pl, x.rt, 'composite') s
      WHERE s.player = 1) q, new_ratings n
WHERE n.player_id = 1;

-- The team model ('sum', the default, and 'mean'): one side per opposing
-- team, E from both teams, each player's terms his share of the game.  A
-- 2v2 of equal teams (1600 + 1400 against 1550 + 1450, 'mean' and 'sum'
-- alike: E = 1/2); red wins.  Python's figures (test/unit/team_reference.py)
-- for the 2v2 of its examples; in a free-for-all of 3 teams every side is
-- weighted lambda_3 = 7/9.
SELECT player, opponent, opponent_team, opponent_rating, score, expected, weight
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4], ARRAY['red', 'red', 'blue', 'blue'], ARRAY[1, 1, 2, 2],
                         ARRAY[glicko2_rating(1600, 100), glicko2_rating(1400, 50),
                               glicko2_rating(1550, 200, 0.05), glicko2_rating(1450, 70)]);
SELECT player, abs(information / i - 1) < 1e-13 AND abs(surprise / s - 1) < 1e-13 AS as_python
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4], ARRAY[1, 1, 2, 2], ARRAY[1, 1, 2, 2],
                         ARRAY[glicko2_rating(1600, 80), glicko2_rating(1450, 200), glicko2_rating(1550, 120), NULL], 'mean')
JOIN (VALUES (1, 0.0432390761055149, 0.20794007816078866), (2, 0.04592739217852368, 0.21430677119149474),
             (3, 0.0438502022345349, -0.20940439879461678), (4, 0.05420169614651718, -0.2328125772945207)) p(player, i, s)
USING (player) ORDER BY player;
SELECT player, opponent_team, score, weight = 7 / 9.0 AS lambda_3
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4, 5], ARRAY['A', 'A', 'B', 'C', 'C'], ARRAY[1, 1, 2, 2, 2],
                         ARRAY[NULL, NULL, NULL, NULL, NULL]::glicko2_rating[], 'sum')
WHERE player IN (1, 3);
-- Weights: a player who played half the match counts half in his team's
-- strength and takes half the share ('sum': his terms halve, his
-- teammate's grow); weights of 1 are no weights, bit for bit.
SELECT s.player, s.weight, round(s.information::numeric, 6) AS information, round(s.surprise::numeric, 6) AS surprise,
       round(f.information::numeric, 6) AS full_information
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4], ARRAY[1, 1, 2, 2], ARRAY[1, 1, 2, 2],
                         ARRAY[glicko2_rating(1600, 80), glicko2_rating(1450, 200), glicko2_rating(1550, 120), NULL],
                         'sum', ARRAY[1, 0.5, 1, 1]) s
JOIN glicko2_match_sides(ARRAY[1, 2, 3, 4], ARRAY[1, 1, 2, 2], ARRAY[1, 1, 2, 2],
                         ARRAY[glicko2_rating(1600, 80), glicko2_rating(1450, 200), glicko2_rating(1550, 120), NULL]) f
USING (player) ORDER BY s.player;
SELECT m.method, count(*) AS sides,
       count(*) FILTER (WHERE a.information = b.information AND a.surprise = b.surprise
                        AND a.expected = b.expected AND a.weight = b.weight) AS same_bits
FROM (VALUES ('sum'), ('mean'), ('individual'), ('composite')) m(method),
     LATERAL (SELECT row_number() OVER () AS n, * FROM glicko2_match_sides(ARRAY[1, 2, 3, 4, 5], ARRAY[1, 1, 2, 3, 3], ARRAY[1, 1, 2, 2, 2],
                         ARRAY[glicko2_rating(1600, 80), glicko2_rating(1450, 200), glicko2_rating(1550, 120), NULL,
                               glicko2_rating(1700, 30)], m.method)) a
     JOIN LATERAL (SELECT row_number() OVER () AS n, * FROM glicko2_match_sides(ARRAY[1, 2, 3, 4, 5], ARRAY[1, 1, 2, 3, 3], ARRAY[1, 1, 2, 2, 2],
                         ARRAY[glicko2_rating(1600, 80), glicko2_rating(1450, 200), glicko2_rating(1550, 120), NULL,
                               glicko2_rating(1700, 30)], m.method, ARRAY[1, 1, 1, 1, 1])) b USING (n)
GROUP BY m.method ORDER BY m.method;

-- Bad matches: each a clear error naming the player, the team or the place.
\set VERBOSITY terse
SELECT * FROM glicko2_match_sides(ARRAY[1, 2, 1], ARRAY[1, 2, 1], ARRAY[1, 2, 1], ARRAY[NULL, NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2, 1], ARRAY[1, 2, 3], ARRAY[1, 2, 3], ARRAY[NULL, NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 1, 1], ARRAY[1, 1, 1], ARRAY[NULL, NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 2, 1], ARRAY[1, 2, NULL], ARRAY[NULL, NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 2, 1], ARRAY[1, 2, 3], ARRAY[NULL, NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 2, 1], ARRAY[1, 2, 0], ARRAY[NULL, NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, NULL], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, NULL], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, '(1500,NaN,0.06)']::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, '(Infinity,30,0.06)']::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1], ARRAY[NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[[1, 2]], ARRAY[[1, 2]], ARRAY[[1, 2]], ARRAY[[NULL, NULL]]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides('{}'::int[], '{}'::int[], '{}', '{}');
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[], 'team');
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], NULL);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[], NULL);
SELECT count(*) FROM glicko2_match_sides(array_fill(1, ARRAY[10001]), array_fill(1, ARRAY[10001]),
                                         array_fill(1, ARRAY[10001]), array_fill(NULL::glicko2_rating, ARRAY[10001]));
SELECT * FROM glicko2_match_sides(ARRAY[point(1, 2), point(3, 4)], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[], 'sum', ARRAY[1, 0]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[], 'sum', ARRAY[1, 'NaN'::float8]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[], 'sum', ARRAY[1.5, 1]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[], 'sum', ARRAY[NULL, 1]);
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2], ARRAY[NULL, NULL]::glicko2_rating[], 'sum', ARRAY[1]::float8[]);
\set VERBOSITY default

DROP SCHEMA matches_sides CASCADE;
