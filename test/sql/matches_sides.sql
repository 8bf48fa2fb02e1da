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
                               glicko2_rating(1550, 200, 0.05), NULL]);
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
                         ARRAY[NULL, NULL, NULL, NULL, NULL]::glicko2_rating[]);
SELECT player, opponent_team, score
FROM glicko2_match_sides(ARRAY[1, 2, 3, 4, 5], ARRAY['A', 'A', 'B', 'C', 'C'], ARRAY[1, 1, 2, 2, 2],
                         ARRAY[NULL, NULL, NULL, NULL, NULL]::glicko2_rating[], 'composite');

-- Uneven teams, 1v3 (the three win).  Individual: the lone player has three
-- games, each of the three has one.  Composite: one game each; the three
-- meet the lone player as he is, he meets their mean 1500 / 100 / 0.06.
SELECT player, opponent, opponent_team, opponent_rating, score
FROM glicko2_match_sides(ARRAY[10, 20, 21, 22], ARRAY[1, 2, 2, 2], ARRAY[2, 1, 1, 1],
                         ARRAY[glicko2_rating(1700, 60), glicko2_rating(1400, 80),
                               glicko2_rating(1500, 100), glicko2_rating(1600, 120)]);
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
     glicko2_match_sides(m.p, m.t, m.pl, array_fill(NULL::glicko2_rating, ARRAY[12])) s
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
\set VERBOSITY default

DROP SCHEMA matches_sides CASCADE;
