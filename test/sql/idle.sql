-- Step 6 for players without games: phi' = sqrt(phi^2 + t sigma^2), RD capped at max_rd.
SELECT glicko2_idle(glicko2_rating(1500, 200, 0.06));
-- By hand: 173.7178 * sqrt((200/173.7178)^2 + 0.06^2) = 200.2714...
SELECT abs((glicko2_idle(glicko2_rating(1500, 200, 0.06))).rd
           - 173.7178 * sqrt((200 / 173.7178)^2 + 0.06^2)) < 1e-9 AS step6_by_hand;
-- Two periods at once equal two periods one after the other.
SELECT abs((glicko2_idle(glicko2_rating(1500, 200, 0.06), 2)).rd
           - (glicko2_idle(glicko2_idle(glicko2_rating(1500, 200, 0.06)))).rd) < 1e-9 AS two_periods;
-- Fractional periods: half a period lies between none and one.
SELECT (glicko2_idle(r, 0)).rd = (r).rd AS zero_periods,
       (glicko2_idle(r, 0.5)).rd > (r).rd AND (glicko2_idle(r, 0.5)).rd < (glicko2_idle(r, 1)).rd AS half_period,
       abs((glicko2_idle(r, 0.5)).rd - 173.7178 * sqrt((200 / 173.7178)^2 + 0.5 * 0.06^2)) < 1e-9 AS half_by_hand
FROM (SELECT glicko2_rating(1500, 200, 0.06) AS r) x;
-- The cap: 1000 idle periods end at 350; NULL means no cap; a lower cap is honoured.
SELECT (glicko2_idle(glicko2_rating(1500, 200, 0.06), 1000)).rd AS capped,
       round((glicko2_idle(glicko2_rating(1500, 200, 0.06), 1000, NULL)).rd::numeric, 4) AS uncapped,
       (glicko2_idle(glicko2_rating(1500, 200, 0.06), 1000, 250)).rd AS capped_250;
-- Sitting out never makes a rating more certain: an RD above the cap stays where it is.
SELECT (glicko2_idle(glicko2_rating(1500, 400, 0.06))).rd AS above_cap_kept;
-- Rating and volatility do not change.
SELECT (r).rating = 1612.5 AND (r).volatility = 0.07 AS unchanged
FROM (SELECT glicko2_idle(glicko2_rating(1612.5, 80, 0.07), 3) AS r) x;
-- NULL in, NULL out.
SELECT glicko2_idle(NULL) IS NULL AS null_rating, glicko2_idle(glicko2_rating(), NULL) IS NULL AS null_periods;

-- Glicko-1: RD' = min(sqrt(RD^2 + c^2 t), max_rd), c = 34.6 by default.
SELECT round((glicko1_idle(glicko1_rating(1500, 50))).rd::numeric, 4) AS one_period,
       round(sqrt(50^2 + 34.6^2)::numeric, 4) AS by_hand;
-- Glickman's calibration of c: RD 50 returns to about 350 after 100 periods.
SELECT round((glicko1_idle(glicko1_rating(1500, 50), 100, 34.6, NULL)).rd::numeric, 1) AS after_100;
SELECT (glicko1_idle(glicko1_rating(1500, 50), 1000)).rd AS capped,
       (glicko1_idle(glicko1_rating(1500, 50), 2.5, 10)).rd = sqrt(50^2 + 100 * 2.5) AS fractional_custom_c;
