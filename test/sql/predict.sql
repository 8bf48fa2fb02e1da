-- Predictions: the paper's g and E, and the win probability counting both RDs.
-- Reference values were computed independently with mpmath at 40 digits
-- (g(phi) = 1/sqrt(1 + 3 phi^2/pi^2), E = 1/(1 + exp(-g (mu - mu_j)))).

-- g for the paper's opponents and for an unrated one, to 1e-14 relative.
SELECT rd, round(glicko2_g(rd)::numeric, 4) AS g_printed,
       abs(glicko2_g(rd) / ref - 1) < 1e-14 AS exact
FROM (VALUES (30, 0.995498006450608236), (100, 0.95314897786897641435),
             (300, 0.72423547808775255978), (350, 0.66906941258120410825)) v(rd, ref)
ORDER BY rd;

-- E against the paper's three opponents: 0.639, 0.432, 0.303 as printed.
SELECT (o).rating AS opponent, round(glicko2_expected(glicko2_rating(1500, 200, 0.06), o)::numeric, 3) AS e_printed,
       abs(glicko2_expected(glicko2_rating(1500, 200, 0.06), o) / ref - 1) < 1e-14 AS exact
FROM (VALUES (glicko2_rating(1400, 30), 0.6394677305521533446),
             (glicko2_rating(1550, 100), 0.43184235610766791933),
             (glicko2_rating(1700, 300), 0.30284072909521924788)) v(o, ref)
ORDER BY 1;

-- E uses the opponent's RD only: the player's RD does not change it...
SELECT glicko2_expected(glicko2_rating(1500, 30), glicko2_rating(1700, 300))
     = glicko2_expected(glicko2_rating(1500, 350), glicko2_rating(1700, 300)) AS e_ignores_player_rd;
-- ...so E(a, b) + E(b, a) is not 1 when the RDs differ (1700/300 vs 1500/200).
SELECT round((glicko2_expected(glicko2_rating(1500, 200), glicko2_rating(1700, 300))
            + glicko2_expected(glicko2_rating(1700, 300), glicko2_rating(1500, 200)))::numeric, 6) AS e_sum,
       abs(glicko2_expected(glicko2_rating(1700, 300), glicko2_rating(1500, 200)) / 0.72552094037935714167 - 1) < 1e-14 AS exact;

-- The win probability counts both RDs: g(sqrt(phi_a^2 + phi_b^2)).
SELECT a, b, round(glicko2_win_probability(a, b)::numeric, 6) AS p,
       abs(glicko2_win_probability(a, b) / ref - 1) < 1e-14 AS exact
FROM (VALUES (glicko2_rating(1500, 200), glicko2_rating(1400, 30), 0.61879690396632703754),
             (glicko2_rating(1400, 30), glicko2_rating(1500, 200), 0.38120309603367296246),
             (glicko2_rating(1850, 50), glicko2_rating(1700, 80), 0.69576015183284679241),
             (glicko2_rating(1850, 50), glicko2_rating(1700, 300), 0.650506384185345576)) v(a, b, ref)
ORDER BY 3;

-- Symmetric: p(a, b) + p(b, a) = 1 (to 1e-15) over many pairs, and equal
-- ratings give exactly 0.5 whatever the RDs.
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE abs(glicko2_win_probability(a, b) + glicko2_win_probability(b, a) - 1) < 1e-15) AS symmetric,
       count(*) FILTER (WHERE glicko2_win_probability(a, b) > 0 AND glicko2_win_probability(a, b) < 1) AS strictly_between
FROM (SELECT glicko2_rating(1000 + (i * 37) % 1500, 20 + (i * 53) % 330) AS a,
             glicko2_rating(1000 + (i * 91) % 1500, 20 + (i * 17) % 330) AS b
      FROM generate_series(1, 1000) i) pairs;
SELECT glicko2_win_probability(glicko2_rating(1500, 350), glicko2_rating(1500, 30)) AS equal_ratings;

-- More uncertainty pulls a prediction towards 0.5; a tiny RD on a's side
-- makes it E of the paper.
SELECT glicko2_win_probability(glicko2_rating(1850, 50), glicko2_rating(1700, 300))
     < glicko2_win_probability(glicko2_rating(1850, 50), glicko2_rating(1700, 80)) AS rd_pulls_to_half,
       abs(glicko2_win_probability(glicko2_rating(1850, 0.001), glicko2_rating(1700, 80))
           - glicko2_expected(glicko2_rating(1850, 0.001), glicko2_rating(1700, 80))) < 1e-9 AS tiny_rd_is_e;

-- A 3400-point gap keeps its small probability (4.0275e-9, not 0), and a
-- gap of a million points saturates to exactly 1 and 0, never NaN.
SELECT abs((1 - glicko2_expected(glicko2_rating(4900, 50), glicko2_rating(1500, 50))) / 4.0275406689640847842e-9 - 1) < 1e-6 AS upset_kept,
       abs(glicko2_expected(glicko2_rating(1500, 50), glicko2_rating(4900, 50)) / 4.0275406689640847842e-9 - 1) < 1e-12 AS small_side_exact;
SELECT glicko2_win_probability(glicko2_rating(1e6, 1), glicko2_rating(-1e6, 1)) AS p_high,
       glicko2_win_probability(glicko2_rating(-1e6, 1), glicko2_rating(1e6, 1)) AS p_low,
       glicko2_expected(glicko2_rating(-1e6, 1), glicko2_rating(1e6, 1)) AS e_low;

-- NULL in, NULL out (STRICT); bad values are errors naming the value.
SELECT glicko2_g(NULL) IS NULL AS g_null, glicko2_expected(NULL, glicko2_rating()) IS NULL AS e_null,
       glicko2_win_probability(glicko2_rating(), NULL) IS NULL AS p_null;
SELECT glicko2_g(0);
SELECT glicko2_g('NaN');
SELECT glicko2_expected(glicko2_rating(), '(1500,-5,0.06)'::glicko2_rating);
SELECT glicko2_win_probability('(Infinity,50,0.06)'::glicko2_rating, glicko2_rating());
SELECT glicko2_win_probability(glicko2_rating(), '(1500,,0.06)'::glicko2_rating);
