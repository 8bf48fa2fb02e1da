-- eval/league_caps.sql — what floors and caps cost in accuracy, on the
-- simulated league of eval/league_world.sql (1000 players, 36 periods).
--
--   PG_CONFIG=... bash tools/with-cluster.sh sh -c \
--     'psql -X -q -c "CREATE EXTENSION glicko2" && psql -X -q -f eval/league_caps.sql'
--
-- Every variant closes the same games with glicko2_close_period (tau 0.5,
-- max_rd 350), with its min_rating, max_change and max_volatility; scored
-- as eval/league_season.sql scores: the log loss of each period's games
-- predicted from the ratings before it, and the share of strengths inside
-- the 95 % intervals; with how many ratings the caps changed (the closes'
-- record) and whether the final ratings are those of the uncapped league.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
CREATE TEMP TABLE variant (name text PRIMARY KEY, min_rating float8, max_change float8, max_volatility float8, ord int);
INSERT INTO variant VALUES
  ('none',                          NULL, NULL, NULL, 1),
  ('lichess: 400, 700, 0.1',        400,  700,  0.1,  2),
  ('max_change 200',                NULL, 200,  NULL, 3),
  ('max_change 100',                NULL, 100,  NULL, 4),
  ('max_change 50',                 NULL, 50,   NULL, 5),
  ('max_volatility 0.06',           NULL, NULL, 0.06, 6),
  ('min_rating 1200',               1200, NULL, NULL, 7);

\ir league_world.sql

CREATE TEMP TABLE final (variant text, player_id int, rating glicko2_rating);
CREATE TEMP TABLE capped (variant text, period int, capped bigint);
DO $$
DECLARE
  v record;
  ll float8;
BEGIN
  FOR v IN SELECT * FROM variant ORDER BY ord LOOP
    TRUNCATE ratings;
    DELETE FROM glicko2_closes WHERE ratings = 'ratings'::regclass;
    FOR p IN 1 .. 36 LOOP
      ll := pg_temp.log_loss(p);
      CALL glicko2_close_period('ratings', 'games', p, unguarded => true, min_rating => v.min_rating,
                                max_change => v.max_change, max_volatility => v.max_volatility);
      PERFORM pg_temp.score(v.name, p, 'closed', ll);
    END LOOP;
    INSERT INTO capped SELECT v.name, c.period::int, c.capped FROM glicko2_closes c WHERE c.ratings = 'ratings'::regclass;
    INSERT INTO final SELECT v.name, r.player_id, r.rating FROM ratings r;
  END LOOP;
END
$$;

\echo 'Floors and caps: ratings changed, log loss of each period''s games from the ratings before it, share of strengths inside the 95 % intervals'
SELECT v.name AS caps,
       (SELECT sum(c.capped) FROM capped c WHERE c.variant = v.name AND c.period = 1) AS capped_period_1,
       (SELECT sum(c.capped) FROM capped c WHERE c.variant = v.name AND c.period > 1) AS capped_2_36,
       (SELECT count(*) FROM final f JOIN final n ON n.player_id = f.player_id AND n.variant = 'none'
        WHERE f.variant = v.name AND f.rating IS DISTINCT FROM n.rating) AS differ_from_none,
       round(avg(s.log_loss) FILTER (WHERE s.period = 2)::numeric, 4) AS ll_2,
       round(avg(s.log_loss) FILTER (WHERE s.period BETWEEN 3 AND 10)::numeric, 4) AS ll_3_10,
       round(avg(s.log_loss) FILTER (WHERE s.period BETWEEN 11 AND 36)::numeric, 4) AS ll_11_36,
       round(100 * avg(s.coverage) FILTER (WHERE s.period BETWEEN 1 AND 5))::text || ' %' AS cover_1_5,
       round(100 * avg(s.coverage) FILTER (WHERE s.period BETWEEN 11 AND 36))::text || ' %' AS cover_11_36
FROM variant v JOIN scored s ON s.variant = v.name
GROUP BY v.name, v.ord ORDER BY v.ord;
