-- The queries of the README's "Dashboards" section, on a small league, and
-- the indexes they use: a B-tree on the conservative rating for the
-- leaderboard, a GiST index on the interval for "who overlaps me".
CREATE TABLE players (id int PRIMARY KEY, name text NOT NULL, rating glicko2_rating NOT NULL);
-- Ratings after each period (period 1: where the league stood before period 2).
CREATE TABLE rating_history (player_id int, period int, rating glicko2_rating NOT NULL,
                             PRIMARY KEY (player_id, period));
-- One row per game; score is player_id's result.
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);

-- A synthetic league: hidden strengths, ratings near them, and period 2's
-- results drawn (deterministically) from the strengths.
CREATE TEMP TABLE strength AS
SELECT i AS id, 1000 + (i * 7919) % 1000 AS s FROM generate_series(1, 3000) i;
INSERT INTO rating_history
SELECT id, 1, glicko2_rating(s + (id * 104729) % 200 - 100, 40 + (id * 31) % 260, 0.06)
FROM strength;
INSERT INTO games
SELECT 2, p.id, o.id,
       CASE WHEN ((g * 2654435761) % 10007) / 10007.0 < 1 / (1 + 10 ^ ((o.s - p.s) / 400.0)) THEN 1 ELSE 0 END
FROM generate_series(1, 12000) g
JOIN strength p ON p.id = 1 + g % 3000
JOIN strength o ON o.id = 1 + (g % 3000 + 1 + (g * 7919) % 2999) % 3000;
-- Close period 2 with the aggregate (both sides of every game).
WITH sides AS (
  SELECT player_id, opponent_id, score FROM games WHERE period = 2
  UNION ALL
  SELECT opponent_id, player_id, 1 - score FROM games WHERE period = 2)
INSERT INTO rating_history
SELECT h.player_id, 2, glicko2_period(h.rating, o.rating, s.score)
FROM rating_history h
LEFT JOIN sides s ON s.player_id = h.player_id
LEFT JOIN rating_history o ON o.player_id = s.opponent_id AND o.period = 1
WHERE h.period = 1
GROUP BY h.player_id, h.rating;
INSERT INTO players SELECT player_id, 'player' || player_id, rating FROM rating_history WHERE period = 2;

CREATE INDEX players_conservative ON players (glicko2_lower(rating));
CREATE INDEX players_interval ON players USING gist (glicko2_interval(rating));
ANALYZE players;
ANALYZE rating_history;
ANALYZE games;

-- Leaderboard by the conservative rating (rating - 2 RD): an index scan.
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT name FROM players ORDER BY glicko2_lower(rating) DESC LIMIT 10;
SELECT rank() OVER (ORDER BY glicko2_lower(rating) DESC) AS rank, name,
       round((rating).rating) AS rating, round((rating).rd) AS rd,
       round(glicko2_lower(rating)) AS low, round(glicko2_upper(rating)) AS high
FROM players
ORDER BY glicko2_lower(rating) DESC
LIMIT 10;
RESET enable_seqscan;
-- The index gives the order a sort of every row gives.
SET enable_indexscan = off;
SELECT array_agg(id) AS top10_by_sort FROM
  (SELECT id FROM players ORDER BY glicko2_lower(rating) DESC LIMIT 10) t;
RESET enable_indexscan;
SET enable_seqscan = off;
SELECT array_agg(id) AS top10_by_index FROM
  (SELECT id FROM players ORDER BY glicko2_lower(rating) DESC LIMIT 10) t;
RESET enable_seqscan;

-- Win probability for an upcoming game (player42 against player7), both ways.
SELECT a.name, b.name AS opponent,
       round(glicko2_win_probability(a.rating, b.rating)::numeric, 3) AS p_win,
       round(glicko2_win_probability(b.rating, a.rating)::numeric, 3) AS p_opponent
FROM players a, players b
WHERE a.id = 42 AND b.id = 7;

-- Fair opponents: players whose 95 % interval overlaps mine, the closest
-- to an even game first.  The overlap uses the GiST index.
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT p.name
FROM players me
JOIN players p ON glicko2_interval(p.rating) && glicko2_interval(me.rating) AND p.id <> me.id
WHERE me.id = 42;
RESET enable_seqscan;
SELECT p.name, round((p.rating).rating) AS rating, round((p.rating).rd) AS rd,
       round(glicko2_win_probability(me.rating, p.rating)::numeric, 3) AS p_win
FROM players me
JOIN players p ON glicko2_interval(p.rating) && glicko2_interval(me.rating) AND p.id <> me.id
WHERE me.id = 42
ORDER BY abs(glicko2_win_probability(me.rating, p.rating) - 0.5), p.id
LIMIT 5;
-- Overlap is what the intervals say, row by row.
SELECT count(*) AS overlapping,
       count(*) FILTER (WHERE glicko2_lower(p.rating) <= glicko2_upper(me.rating)
                          AND glicko2_upper(p.rating) >= glicko2_lower(me.rating)) AS checked
FROM players me
JOIN players p ON glicko2_interval(p.rating) && glicko2_interval(me.rating) AND p.id <> me.id
WHERE me.id = 42;

-- Why did my rating move in period 2?  Ratings before the period (period 1
-- of the history), player42's games of period 2 from both sides.
CREATE TEMP TABLE why AS
SELECT glicko2_explain(me.rating, them.rating, s.score) AS e
FROM (SELECT opponent_id AS them_id, score FROM games WHERE period = 2 AND player_id = 42
      UNION ALL
      SELECT player_id, 1 - score FROM games WHERE period = 2 AND opponent_id = 42) s
JOIN rating_history me ON me.player_id = 42 AND me.period = 1
JOIN rating_history them ON them.player_id = s.them_id AND them.period = 1;
SELECT e->'player' AS before, e->'result' AS after,
       round((e->>'v')::numeric, 4) AS v, round((e->>'delta')::numeric, 4) AS delta,
       round((e->>'sigma_new')::numeric, 6) AS sigma_new,
       jsonb_array_length(e->'iterations') - 1 AS illinois_iterations
FROM why;
SELECT g->'opponent'->'rating' AS opponent, g->'opponent'->'rd' AS opponent_rd, g->'s' AS score,
       round((g->>'E')::numeric, 3) AS expected, round((g->>'g')::numeric, 4) AS g
FROM why, jsonb_array_elements(e->'games') g
ORDER BY (g->'opponent'->>'rating')::float8;
-- The explanation ends where the history says the rating went (to 1e-12:
-- the two queries add the same games up in different orders).
SELECT abs((e->'result'->>'rating')::float8 - (h.rating).rating) < 1e-12 * 1500
       AND abs((e->'result'->>'rd')::float8 / (h.rating).rd - 1) < 1e-12
       AND abs((e->'result'->>'volatility')::float8 / (h.rating).volatility - 1) < 1e-12 AS matches_history
FROM why, rating_history h WHERE h.player_id = 42 AND h.period = 2;

DROP TABLE players, rating_history, games, strength;
