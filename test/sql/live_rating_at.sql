-- glicko2_rating_at: a rating as of a time, RD grown by Step 6 for the
-- fractional periods since rated_at, capped at max_rd; nothing written.
\set r 'glicko2_rating(1500, 200, 0.06)'

-- Whole and fractional periods are glicko2_idle's growth.
SELECT glicko2_rating_at(:r, '2026-01-01 00:00+00', '2026-01-11 00:00+00')
         = glicko2_idle(:r, 10) AS ten_days,
       glicko2_rating_at(:r, '2026-01-01 00:00+00', '2026-01-01 12:00+00')
         = glicko2_idle(:r, 0.5) AS half_a_day,
       glicko2_rating_at(:r, '2026-01-01 00:00+00', '2026-01-01 00:00:01+00')
         = glicko2_idle(:r, 1 / 86400.0) AS one_second,
       glicko2_rating_at(:r, '2026-01-01 00:00+00', '2026-01-08 00:00+00', '1 week')
         = glicko2_idle(:r, 1) AS a_week_period,
       glicko2_rating_at(:r, '2026-01-01 00:00+00', '2026-03-02 00:00+00', '1 mon')
         = glicko2_idle(:r, 2) AS months_are_30_days,
       glicko2_rating_at(:r, '2026-03-28 12:00+01', '2026-03-29 12:00+02')
         = glicko2_idle(:r, 23 / 24.0) AS absolute_time_not_calendar;
SELECT glicko2_rating_at(:r, '2026-01-01', '2026-01-01 06:00') AS six_hours;

-- Capped at max_rd (never lowering an RD already above it); NULL: no cap.
SELECT (glicko2_rating_at(:r, '2000-01-01', '2026-01-01')).rd AS capped,
       (glicko2_rating_at(:r, '2000-01-01', '2026-01-01', max_rd => 250)).rd AS capped_250,
       round((glicko2_rating_at(:r, '2000-01-01', '2026-01-01', max_rd => NULL)).rd) AS uncapped,
       (glicko2_rating_at(glicko2_rating(1500, 400, 0.06), '2000-01-01', '2026-01-01')).rd AS above_cap_kept;

-- No time, or a time before rated_at, leaves the rating exactly as stored.
SELECT glicko2_rating_at(:r, '2026-01-01', '2026-01-01') = :r AS same_instant,
       glicko2_rating_at(:r, '2026-01-02', '2026-01-01') = :r AS earlier;

-- at defaults to now().
SELECT glicko2_rating_at(:r, now() - interval '2 days') = glicko2_idle(:r, 2) AS two_days_ago;

-- NULLs: no rating or no time: NULL; never rated live (NULL rated_at): r.
SELECT glicko2_rating_at(NULL, '2026-01-01') IS NULL AS null_rating,
       glicko2_rating_at(:r, '2026-01-01', NULL) IS NULL AS null_at,
       glicko2_rating_at(:r, NULL, '2026-01-01') = :r AS null_rated_at;

-- Bad input.
SELECT glicko2_rating_at(:r, '2026-01-01', '2026-01-02', '0 days');
SELECT glicko2_rating_at(:r, '2026-01-01', '2026-01-02', '-1 day');
SELECT glicko2_rating_at(:r, '2026-01-01', '2026-01-02', NULL);
SELECT glicko2_rating_at(:r, '2026-01-01', '2026-01-02', max_rd => 0);
SELECT glicko2_rating_at(:r, '2026-01-01', '2026-01-02', max_rd => 'NaN');
SELECT glicko2_rating_at(:r, '-infinity', '2026-01-02');
SELECT glicko2_rating_at(:r, '2026-01-01', 'infinity');
SELECT glicko2_rating_at(ROW(1500, 0, 0.06)::glicko2_rating, '2026-01-01', '2026-01-02');
