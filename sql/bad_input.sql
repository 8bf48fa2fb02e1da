-- Every bad input is an ERROR with a proper SQLSTATE (never XX000) and a
-- message naming the bad value.  One line per case: SQLSTATE: message.
CREATE FUNCTION pg_temp.try(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

SELECT q, pg_temp.try(q) FROM (VALUES
  -- NaN and infinities anywhere
  ($$SELECT glicko2_rating('NaN', 350, 0.06)$$),
  ($$SELECT glicko2_rating('Infinity', 350, 0.06)$$),
  ($$SELECT glicko2_rating(1500, 'NaN', 0.06)$$),
  ($$SELECT glicko2_rating(1500, '-Infinity', 0.06)$$),
  ($$SELECT glicko2_rating(1500, 350, 'NaN')$$),
  ($$SELECT glicko1_rating('-Infinity', 350)$$),
  ($$SELECT glicko2_period(('NaN', 200, 0.06)::glicko2_rating, glicko2_rating(), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), (1500, 'Infinity', 0.06)::glicko2_rating, 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 'NaN')$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 'NaN')$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 'Infinity')$$),
  ($$SELECT glicko1_period((1500, 'NaN')::glicko1_rating, glicko1_rating(), 1)$$),
  ($$SELECT glicko2_idle(glicko2_rating(), 'NaN')$$),
  ($$SELECT glicko2_idle(glicko2_rating(), 'Infinity')$$),
  ($$SELECT glicko2_idle(glicko2_rating(), 1, 'NaN')$$),
  ($$SELECT glicko1_idle(glicko1_rating(), 1, 'Infinity')$$),
  ($$SELECT glicko2_expected(glicko2_rating(), ('NaN', 1, 1)::glicko2_rating)$$),
  ($$SELECT glicko2_win_probability(('Infinity', 1, 1)::glicko2_rating, glicko2_rating())$$),
  ($$SELECT glicko2_g('NaN')$$),
  -- RD <= 0, volatility <= 0, tau <= 0
  ($$SELECT glicko2_rating(1500, 0, 0.06)$$),
  ($$SELECT glicko2_rating(1500, -1, 0.06)$$),
  ($$SELECT glicko2_rating(1500, 350, 0)$$),
  ($$SELECT glicko2_rating(1500, 350, -0.06)$$),
  ($$SELECT glicko1_rating(1500, 0)$$),
  ($$SELECT glicko2_period((1500, -200, 0.06)::glicko2_rating, glicko2_rating(), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), (1500, 350, 0)::glicko2_rating, 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, 0)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, -0.5)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1, NULL)$$),
  ($$SELECT glicko2_idle((1500, 0, 0.06)::glicko2_rating)$$),
  ($$SELECT glicko2_idle(glicko2_rating(), -1)$$),
  ($$SELECT glicko2_idle(glicko2_rating(), 1, 0)$$),
  ($$SELECT glicko1_idle(glicko1_rating(), 1, -34.6)$$),
  ($$SELECT glicko2_g(0)$$),
  -- score outside [0, 1]
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), 1.5)$$),
  ($$SELECT glicko2_period(glicko2_rating(), glicko2_rating(), -0.5)$$),
  ($$SELECT glicko1_period(glicko1_rating(), glicko1_rating(), 2)$$),
  -- a rating with a NULL field is not an unrated player
  ($$SELECT glicko2_period((1500, NULL, 0.06)::glicko2_rating, glicko2_rating(), 1)$$),
  ($$SELECT glicko2_period(glicko2_rating(), (NULL, 350, 0.06)::glicko2_rating, 1)$$),
  ($$SELECT glicko2_expected(glicko2_rating(), (1500, 350, NULL)::glicko2_rating)$$),
  -- the player's rating differing within a group
  ($$SELECT glicko2_period(p, glicko2_rating(), 1) FROM (VALUES (glicko2_rating(1500)), (glicko2_rating(1501))) v(p)$$),
  ($$SELECT glicko1_period(p, glicko1_rating(), 1) FROM (VALUES (glicko1_rating(1500, 100)), (glicko1_rating(1500, 101))) v(p)$$)
) cases(q);
