-- Intervals: glicko2_interval, glicko2_lower/upper, glicko2_confidence_interval,
-- and the float8range type the extension creates for them.

-- The paper's example: rating 1850, RD 50 -> 95 % interval 1750 to 1950.
SELECT glicko2_interval(glicko2_rating(1850, 50)) AS paper_interval,
       glicko2_lower(glicko2_rating(1850, 50)) AS lower,
       glicko2_upper(glicko2_rating(1850, 50)) AS upper;
-- Other widths; the bounds are closed: both ends belong to the interval.
SELECT glicko2_interval(glicko2_rating(1500, 350), 1) AS one_rd,
       glicko2_interval(glicko2_rating(1500, 350), 3) AS three_rd,
       glicko2_interval(glicko2_rating(1500, 350), 0) AS zero_width,
       lower_inc(glicko2_interval(glicko2_rating(1500, 350))) AND upper_inc(glicko2_interval(glicko2_rating(1500, 350))) AS closed,
       1850::float8 <@ glicko2_interval(glicko2_rating(1500, 350), 1) AS upper_end_inside,
       glicko2_lower(glicko2_rating(1500, 350), 1) AS lower_1, glicko2_upper(glicko2_rating(1500, 350), 3) AS upper_3;
-- The type of the result is the extension's float8range.
SELECT pg_typeof(glicko2_interval(glicko2_rating())) AS type,
       pg_typeof(glicko2_confidence_interval(glicko2_rating())) AS ci_type;

-- Every interval contains its rating, its ends are lower/upper, and it is
-- [rating - k RD, rating + k RD] (exact for these values).
SELECT count(*) AS ratings,
       count(*) FILTER (WHERE (r).rating <@ glicko2_interval(r, k)
                          AND (r).rating <@ glicko2_confidence_interval(r, c)) AS contain_rating,
       count(*) FILTER (WHERE lower(glicko2_interval(r, k)) = glicko2_lower(r, k)
                          AND upper(glicko2_interval(r, k)) = glicko2_upper(r, k)
                          AND glicko2_lower(r, k) = (r).rating - k * (r).rd
                          AND glicko2_upper(r, k) = (r).rating + k * (r).rd) AS ends_match
FROM (SELECT glicko2_rating(900 + i * 7, 10 + i % 340, 0.06) AS r, (i % 7) / 2.0 AS k,
             (i % 99) / 100.0 AS c
      FROM generate_series(1, 500) i) t;

-- The confidence interval uses the exact normal quantile z: 0.95 gives
-- z = 1.959963984540054 (Phi^-1(0.975) = 1.95996398454005423552..., and the
-- double nearest 0.95 is 4.4e-17 below 0.95), so RD 100 gives +-195.9963984540054.
SELECT glicko2_confidence_interval(glicko2_rating(1500, 100)) AS ci95,
       abs((upper(glicko2_confidence_interval(glicko2_rating(1500, 1))) - 1500) - 1.959963984540054) < 1e-12 AS z95,
       abs((1500 - lower(glicko2_confidence_interval(glicko2_rating(1500, 1)))) - 1.959963984540054) < 1e-12 AS z95_lower,
       round((upper(glicko2_confidence_interval(glicko2_rating(0, 1))))::numeric, 6) AS z95_printed;
-- Other confidences against Phi^-1(1/2 + c/2) computed with mpmath at 50 digits
-- for the double nearest each c, to 2e-15 relative (z = upper - rating with
-- rating 0, RD 1: no rounding in between).
SELECT c, upper(glicko2_confidence_interval(glicko2_rating(0, 1), c)) AS z,
       abs(upper(glicko2_confidence_interval(glicko2_rating(0, 1), c)) / ref - 1) < 2e-15 AS exact,
       lower(glicko2_confidence_interval(glicko2_rating(0, 1), c)) = -upper(glicko2_confidence_interval(glicko2_rating(0, 1), c)) AS symmetric
FROM (VALUES (0.5, 0.6744897501960817432), (0.6827, 1.00002171332299911),
             (0.9, 1.6448536269514728225), (0.99, 2.5758293035489004539),
             (0.999999, 4.8916384756929317718), (0.999999999999999, 8.0269570180338918552),
             (1e-10, 1.2533141373155002969e-10)) v(c, ref)
ORDER BY c;
-- Confidence 0 is the rating alone; wider confidence, wider interval.
SELECT glicko2_confidence_interval(glicko2_rating(1500, 100), 0) AS ci0,
       glicko2_confidence_interval(glicko2_rating(1500, 100), 0.99)
       @> glicko2_confidence_interval(glicko2_rating(1500, 100), 0.95) AS wider;

-- Bad input: negative or non-finite deviations, confidence outside [0, 1),
-- an invalid rating, an interval that would not be finite.
SELECT glicko2_interval(glicko2_rating(), -1);
SELECT glicko2_lower(glicko2_rating(), 'NaN');
SELECT glicko2_upper(glicko2_rating(), 'Infinity');
SELECT glicko2_confidence_interval(glicko2_rating(), 1);
SELECT glicko2_confidence_interval(glicko2_rating(), -0.1);
SELECT glicko2_confidence_interval(glicko2_rating(), 'NaN');
SELECT glicko2_interval('(1500,0,0.06)'::glicko2_rating);
SELECT glicko2_lower(glicko2_rating(-1.7e308, 1e307), 3);
-- NULL in, NULL out.
SELECT glicko2_interval(NULL) IS NULL AS i, glicko2_lower(NULL) IS NULL AS l,
       glicko2_upper(glicko2_rating(), NULL) IS NULL AS u,
       glicko2_confidence_interval(glicko2_rating(), NULL) IS NULL AS c;

-- float8range behaves as a range type: constructor, operators, a GiST index.
SELECT float8range(1, 2, '[]') AS closed, float8range(1, 2) AS half_open,
       float8range(1, 2) && float8range(2, 3) AS touching_half_open,
       float8range(1, 2, '[]') && float8range(2, 3, '[]') AS touching_closed,
       float8range(1.5, 2.5) - float8range(2, 3) AS difference;
CREATE TABLE interval_players (id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO interval_players
SELECT i, glicko2_rating(800 + (i * 7919) % 1600, 30 + (i * 104729) % 320, 0.06)
FROM generate_series(1, 5000) i;
CREATE INDEX interval_players_gist ON interval_players USING gist (glicko2_interval(rating));
ANALYZE interval_players;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF)
SELECT id FROM interval_players
WHERE glicko2_interval(rating) && glicko2_interval(glicko2_rating(1500, 40));
-- The index gives the same rows as a sequential scan.
CREATE TEMP TABLE with_index AS
SELECT id FROM interval_players
WHERE glicko2_interval(rating) && glicko2_interval(glicko2_rating(1500, 40));
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT count(*) AS overlapping,
       count(*) = (SELECT count(*) FROM with_index) AS same_count,
       NOT EXISTS (SELECT id FROM interval_players
                   WHERE glicko2_interval(rating) && glicko2_interval(glicko2_rating(1500, 40))
                   EXCEPT SELECT id FROM with_index) AS same_rows
FROM interval_players
WHERE glicko2_interval(rating) && glicko2_interval(glicko2_rating(1500, 40));
RESET ALL;
DROP TABLE interval_players;
