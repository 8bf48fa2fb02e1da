-- glicko2_period in a GROUP BY, with SPEC's NULL semantics.
CREATE TABLE ratings (player text PRIMARY KEY, rating glicko2_rating);
INSERT INTO ratings VALUES
  ('ann', glicko2_rating(1500, 200, 0.06)), ('bob', glicko2_rating(1400, 30, 0.06)),
  ('cat', glicko2_rating(1550, 100, 0.06)), ('dan', glicko2_rating(1700, 300, 0.06));
-- One row per game side: the paper's example seen from every player.
CREATE TABLE sides (period int, player text, opponent text, score float8);
INSERT INTO sides VALUES
  (1, 'ann', 'bob', 1), (1, 'bob', 'ann', 0),
  (1, 'ann', 'cat', 0), (1, 'cat', 'ann', 1),
  (1, 'ann', 'dan', 0), (1, 'dan', 'ann', 1);

SELECT s.player, round((r.new).rating::numeric, 4) AS rating,
       round((r.new).rd::numeric, 4) AS rd, round((r.new).volatility::numeric, 8) AS volatility
FROM (SELECT s.player, glicko2_period(p.rating, o.rating, s.score) AS new
      FROM sides s JOIN ratings p ON p.player = s.player JOIN ratings o ON o.player = s.opponent
      GROUP BY s.player) r
JOIN (SELECT DISTINCT player FROM sides) s USING (player)
ORDER BY 1;

-- ann's row equals the paper's example.
SELECT abs((glicko2_period(p.rating, o.rating, s.score)).rating - 1464.0506705393013) < 1e-9 AS ann_is_paper
FROM sides s JOIN ratings p ON p.player = s.player JOIN ratings o ON o.player = s.opponent
WHERE s.player = 'ann';

-- NULL player and opponent are the unrated player of Step 1(a): 1500 / 350 / 0.06.
SELECT glicko2_period(NULL, NULL, 1) = glicko2_period(glicko2_rating(), glicko2_rating(), 1) AS null_is_unrated;
SELECT glicko2_period(p, o, 1) = glicko2_period(glicko2_rating(), glicko2_rating(1400, 30), 1) AS mixed_null_and_default
FROM (VALUES (NULL::glicko2_rating, glicko2_rating(1400, 30)), (glicko2_rating(), glicko2_rating(1400, 30))) v(p, o)
WHERE p IS NULL;

-- A NULL score is skipped, as SQL aggregates skip NULLs.
SELECT glicko2_period(glicko2_rating(1500, 200, 0.06), o, s)
     = glicko2_period(glicko2_rating(1500, 200, 0.06), o, s) FILTER (WHERE s IS NOT NULL) AS null_score_skipped
FROM (VALUES (glicko2_rating(1400, 30), 1.0::float8), (glicko2_rating(1550, 100), NULL)) v(o, s);

-- A group whose every score is NULL had no games: Step 6 (rating and volatility stay, RD grows).
SELECT glicko2_period(glicko2_rating(1500, 200, 0.06), NULL, NULL::float8) AS no_games,
       glicko2_idle(glicko2_rating(1500, 200, 0.06), 1, NULL) AS step6;
-- No rows at all: NULL, like every SQL aggregate.
SELECT glicko2_period(rating, rating, 1) FROM ratings WHERE false;
SELECT glicko1_period(NULL, NULL, NULL::float8) AS glicko1_no_games;

-- A LEFT JOIN from ratings gives idle players their Step 6 in the same query.
SELECT p.player, round((glicko2_period(p.rating, o.rating, s.score)).rd::numeric, 4) AS rd
FROM ratings p
LEFT JOIN sides s ON s.player = p.player AND s.player <> 'bob'
LEFT JOIN ratings o ON o.player = s.opponent
GROUP BY p.player ORDER BY 1;

-- Memory does not grow with games: 100 000 games in one group give a finite, tighter rating.
SELECT (r).rd < 10 AS many_games_tight, (r).rating BETWEEN 1400 AND 1600 AS many_games_sane
FROM (SELECT glicko2_period(glicko2_rating(1500, 350, 0.06), glicko2_rating(1500, 50, 0.06), (i % 2)::float8) AS r
      FROM generate_series(1, 100000) i) x;

-- The player's rating must be the same in every row of a group.
SELECT glicko2_period(p.rating, o.rating, s.score)
FROM sides s JOIN ratings p ON p.player = s.player JOIN ratings o ON o.player = s.opponent;
-- tau must be the same in every row of a group.
SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, t) FROM (VALUES (0.5), (0.6)) v(t);

DROP TABLE sides, ratings;
