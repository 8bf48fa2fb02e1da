-- The Glicko-2 scale (Step 2 / Step 8) and a rating's JSON round trip.

-- Step 2 on the paper's player and opponents: mu, phi as the paper prints them.
SELECT r, glicko2_to_scaled(r) AS scaled,
       round((glicko2_to_scaled(r)).mu::numeric, 4) AS mu, round((glicko2_to_scaled(r)).phi::numeric, 4) AS phi
FROM (VALUES (glicko2_rating(1500, 200, 0.06)), (glicko2_rating(1400, 30)),
             (glicko2_rating(1550, 100)), (glicko2_rating(1700, 300))) v(r);
-- Step 8 on the paper's mu' = -0.2069, phi' = 0.8722: 1464.06 / 151.52.
SELECT round((r).rating::numeric, 2) AS rating, round((r).rd::numeric, 2) AS rd, (r).volatility
FROM (SELECT glicko2_from_scaled(ROW(-0.2069, 0.8722, 0.05999)::glicko2_scaled) AS r) t;
-- Both ways over many ratings: back to within 1 ulp-ish (1e-15 relative).
SELECT count(*) AS ratings,
       count(*) FILTER (WHERE abs((b).rating - (r).rating) <= 1e-15 * greatest(abs((r).rating), 1500)
                          AND abs((b).rd / (r).rd - 1) < 1e-15
                          AND (b).volatility = (r).volatility) AS round_trip
FROM (SELECT r, glicko2_from_scaled(glicko2_to_scaled(r)) AS b
      FROM (SELECT glicko2_rating(-5000 + i * 13.7, 0.5 + i * 0.7, i / 1000.0) AS r
            FROM generate_series(1, 1000) i) t) u;
-- Bad scaled ratings name the field.
SELECT glicko2_from_scaled(ROW(0, 0, 0.06)::glicko2_scaled);
SELECT glicko2_from_scaled(ROW('NaN', 1, 0.06)::glicko2_scaled);
SELECT glicko2_from_scaled(ROW(0, 1, -0.06)::glicko2_scaled);
SELECT glicko2_from_scaled(ROW(0, NULL, 0.06)::glicko2_scaled);
SELECT glicko2_from_scaled(ROW(1e307, 1, 0.06)::glicko2_scaled);
SELECT glicko2_to_scaled(NULL) IS NULL AS to_null, glicko2_from_scaled(NULL) IS NULL AS from_null;

-- JSON: every digit kept, whatever extra_float_digits says, and back exactly.
SELECT glicko2_to_jsonb(glicko2_rating(1464.0506705393013, 151.51652412385727, 0.059995984286488495)) AS j;
SET extra_float_digits = -3;
SELECT glicko2_to_jsonb(glicko2_rating(1464.0506705393013, 151.51652412385727, 0.059995984286488495)) AS j_efd_minus_3;
RESET extra_float_digits;
SELECT count(*) AS ratings,
       count(*) FILTER (WHERE glicko2_from_jsonb(glicko2_to_jsonb(r)) = r) AS exact_round_trip
FROM (SELECT glicko2_rating(-1e6 + i * 1234.567891234567, 1e-3 * i * 1.1, 1.0 / i) AS r
      FROM generate_series(1, 2000) i) t;
-- The text form round-trips too (PostgreSQL's composite I/O).
SELECT count(*) FILTER (WHERE r::text::glicko2_rating = r) AS text_round_trip
FROM (SELECT glicko2_rating(-1e6 + i * 1234.567891234567, 1e-3 * i * 1.1, 1.0 / i) AS r
      FROM generate_series(1, 2000) i) t;
-- Key order and integers are free; the result is checked.
SELECT glicko2_from_jsonb('{"volatility": 0.06, "rd": 350, "rating": 1500}') AS from_json;
SELECT glicko2_from_jsonb('{"rating": 1500, "rd": 350}');
SELECT glicko2_from_jsonb('{"rating": 1500, "rd": 350, "volatility": 0.06, "RD": 1}');
SELECT glicko2_from_jsonb('{"rating": "1500", "rd": 350, "volatility": 0.06}');
SELECT glicko2_from_jsonb('{"rating": 1500, "rd": null, "volatility": 0.06}');
SELECT glicko2_from_jsonb('[1500, 350, 0.06]');
SELECT glicko2_from_jsonb('1500');
SELECT glicko2_from_jsonb('{"rating": 1500, "rd": -350, "volatility": 0.06}');
SELECT glicko2_from_jsonb('{"rating": 1e400, "rd": 350, "volatility": 0.06}');
SELECT glicko2_from_jsonb('{"rating": 1500, "rd": 1e-400, "volatility": 0.06}');
SELECT glicko2_from_jsonb('{"rating": 1500, "rd": 350, "volatility": 0}');
SELECT glicko2_from_jsonb(NULL) IS NULL AS null_in_null_out;
