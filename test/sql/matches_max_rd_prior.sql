-- max_rd is the RD of knowing nothing about a player in a league: idle
-- players grow back to it, and a player a close or live trigger adds, or
-- finds with a NULL rating, starts at 1500 / least(350, max_rd) / 0.06.
-- Checked against the same league whose players were inserted beforehand at
-- that rating by hand (bit for bit), on every path; max_rd NULL and 350 are
-- the paper's unrated player; and glicko2_fit_matches can choose max_rd.
\pset footer off
SET extra_float_digits = 0;
CREATE EXTENSION IF NOT EXISTS glicko2;
CREATE SCHEMA prior;
SET search_path = prior, public;
-- The data is pseudo-random but the same on every PostgreSQL version (the
-- generator behind random() changed in 15): u(i, k) is a uniform number in
-- [0, 1) from PostgreSQL's integer hash with seed k, as in close_paths.
CREATE FUNCTION u(i int, k int) RETURNS float8 LANGUAGE sql IMMUTABLE
RETURN (hashint4extended(i, k) & 2147483647)::float8 / 2147483648;

-- A 'sum' world league of 4v4 matches (eval/README.md): strengths normal with
-- SD `sd` points, each member's performance his strength plus a centred
-- Gumbel noise, a team's the sum; 96 players, 6 periods of 3 rounds; `seed`
-- picks the league's draws.
CREATE FUNCTION make_league(name text, sd float8, seed int, n_players int DEFAULT 96) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    CREATE TABLE %1$I_strength AS
    SELECT i AS player_id, $1 / 173.7178 * sqrt(-2 * ln(1 - prior.u(i, $3))) * cos(2 * pi() * prior.u(i, $3 + 1)) AS s
    FROM generate_series(1, $2) i$q$, name) USING sd, n_players, seed;
  EXECUTE format($q$
    CREATE TABLE %1$I_seated AS
    SELECT period, (period * 10000 + round * 1000 + seat / 8)::int AS match_id, player_id,
           (seat %% 8 / 4)::int + 1 AS team,
           s - ln(-ln(prior.u(period * 1000 + round * 100 + player_id, $1 + 2))) - 0.5772156649015329 AS perf
    FROM (SELECT p AS period, r AS round, player_id, s,
                 row_number() OVER (PARTITION BY p, r ORDER BY prior.u(p * 1000 + r * 100 + player_id, $1 + 3), player_id) - 1 AS seat
          FROM generate_series(1, 6) p, generate_series(1, 3) r, %1$I_strength) x$q$, name) USING seed;
  EXECUTE format($q$
    CREATE TABLE %1$I AS
    SELECT s.match_id, s.period, s.player_id, s.team,
           (rank() OVER (PARTITION BY s.match_id ORDER BY t.perf DESC))::int AS place
    FROM %1$I_seated s JOIN (SELECT match_id, team, sum(perf) AS perf FROM %1$I_seated GROUP BY 1, 2) t
         USING (match_id, team)$q$, name);
  EXECUTE format('CALL glicko2_guard_games(%L)', 'prior.' || name);
END $$;
SELECT make_league('sd200', 200, 10), make_league('sd350', 350, 20);
SELECT round(stddev(s) * 173.7178 / 50) * 50 AS sd_200_about FROM sd200_strength;
SELECT round(stddev(s) * 173.7178 / 50) * 50 AS sd_350_about FROM sd350_strength;

-- close_matches: every period of sd200 closed at max_rd `cap` into `ratings`,
-- with history.  `given`: the players' rows inserted beforehand with the
-- rating given (NULL: none inserted, every player new; 'null': NULL ratings).
CREATE FUNCTION close_all(ratings text, cap float8, given text, method text DEFAULT 'sum') RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE TABLE %I (player_id int PRIMARY KEY, rating glicko2_rating)', ratings);
  EXECUTE format('CREATE TABLE %I (player_id int, period int, rating glicko2_rating)', ratings || '_h');
  IF given IS NOT NULL THEN
    EXECUTE format('INSERT INTO %I SELECT DISTINCT player_id, CAST(%L AS glicko2_rating) FROM sd200',
                   ratings, nullif(given, 'null'));
  END IF;
  FOR p IN 1 .. 6 LOOP
    IF cap = 350 THEN  -- (the default)
      CALL glicko2_close_matches(ratings::regclass, 'sd200', p, method, history => (ratings || '_h')::regclass);
    ELSE
      CALL glicko2_close_matches(ratings::regclass, 'sd200', p, method, max_rd => cap,
                                 history => (ratings || '_h')::regclass);
    END IF;
  END LOOP;
END $$;
CREATE FUNCTION differences(a text, b text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM %I x FULL JOIN %I y USING (player_id, period)
                  WHERE x.rating IS DISTINCT FROM y.rating', a || '_h', b || '_h') INTO n;
  RETURN n;
END $$;

-- max_rd 200: new players and NULL-rated ones are the players inserted at
-- 1500 / 200 / 0.06, bit for bit, for 'sum' and 'composite'.
SELECT close_all('new200', 200, NULL), close_all('null200', 200, 'null'),
       close_all('given200', 200, '(1500,200,0.06)'), close_all('given350_cap200', 200, '(1500,350,0.06)');
SELECT differences('new200', 'given200') AS new_vs_given, differences('null200', 'given200') AS null_vs_given,
       differences('new200', 'given350_cap200') > 0 AS differs_from_350;
SELECT close_all('cnew200', 200, NULL, 'composite'), close_all('cgiven200', 200, '(1500,200,0.06)', 'composite');
SELECT differences('cnew200', 'cgiven200') AS composite_new_vs_given;
-- ... and no RD above it, ever.
SELECT max((rating).rd) <= 200 AS rd_at_most_200, count(*) AS ratings FROM new200_h;

-- The paper's unrated player where max_rd is 350 (the default), NULL (no
-- cap) or above: the same bits as players inserted at glicko2_rating().
SELECT close_all('new350', 350, NULL), close_all('given350', 350, '(1500,350,0.06)'),
       close_all('newnull', NULL, NULL), close_all('givennull', NULL, '(1500,350,0.06)'),
       close_all('new500', 500, 'null'), close_all('given500', 500, '(1500,350,0.06)');
SELECT differences('new350', 'given350') AS default_350, differences('newnull', 'givennull') AS no_cap,
       differences('new500', 'given500') AS cap_500;

-- glicko2_close_period, games of one period: new players at max_rd 150 are
-- players inserted at 1500 / 150 / 0.06.
CREATE TABLE games (period int, player_id int, opponent_id int, score float8);
INSERT INTO games SELECT 1, a.player_id, b.player_id, CASE WHEN a.place < b.place THEN 1 WHEN a.place > b.place THEN 0 ELSE 0.5 END
FROM sd200 a JOIN sd200 b ON b.match_id = a.match_id AND b.team > a.team AND (a.player_id + b.player_id) % 4 = 0
WHERE a.period = 1;
CALL glicko2_guard_games('games');
CREATE TABLE g_new (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE g_given (player_id int PRIMARY KEY, rating glicko2_rating);
INSERT INTO g_given SELECT player_id, glicko2_rating(1500, 150, 0.06) FROM games UNION SELECT opponent_id, glicko2_rating(1500, 150, 0.06) FROM games;
CALL glicko2_close_period('g_new', 'games', 1, max_rd => 150);
CALL glicko2_close_period('g_given', 'games', 1, max_rd => 150);
SELECT count(*) AS players, count(*) FILTER (WHERE n.rating IS DISTINCT FROM g.rating) AS close_period_differences
FROM g_new n FULL JOIN g_given g USING (player_id);

-- glicko2_match_sides: a NULL rating is the unrated player of max_rd.
SELECT (SELECT array_agg((s.player, s.expected, s.information, s.surprise) ORDER BY s.player)
        FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 1, 2], ARRAY[1, 1, 2]::bigint[],
          ARRAY[NULL, glicko2_rating(1600, 80, 0.06), NULL], max_rd => 120) s)
     = (SELECT array_agg((s.player, s.expected, s.information, s.surprise) ORDER BY s.player)
        FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 1, 2], ARRAY[1, 1, 2]::bigint[],
          ARRAY[glicko2_rating(1500, 120, 0.06), glicko2_rating(1600, 80, 0.06), glicko2_rating(1500, 120, 0.06)]) s)
         AS sides_at_120,
       (SELECT array_agg(s.information ORDER BY s.player) FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 1, 2], ARRAY[1, 1, 2]::bigint[],
          ARRAY[NULL, glicko2_rating(1600, 80, 0.06), NULL], max_rd => 120) s)
     <> (SELECT array_agg(s.information ORDER BY s.player) FROM glicko2_match_sides(ARRAY[1, 2, 3], ARRAY[1, 1, 2], ARRAY[1, 1, 2]::bigint[],
          ARRAY[NULL, glicko2_rating(1600, 80, 0.06), NULL]) s) AS differs_from_default,
       (SELECT array_agg(s.information ORDER BY s.player) FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2]::bigint[],
          ARRAY[NULL, NULL]::glicko2_rating[], max_rd => NULL) s)
     = (SELECT array_agg(s.information ORDER BY s.player) FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2]::bigint[],
          ARRAY[glicko2_rating(), glicko2_rating()]) s) AS no_cap_is_350;

-- The live triggers: new players of glicko2_rate_matches and
-- glicko2_rate_games with 'max_rd=200' are players inserted at 1500 / 200 / 0.06.
CREATE TABLE live_new (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE live_given (LIKE live_new INCLUDING ALL);
INSERT INTO live_given SELECT DISTINCT player_id, glicko2_rating(1500, 200, 0.06), NULL::timestamptz FROM sd200 WHERE period <= 2;
CREATE TABLE lm_new (match_id int, player_id int, team int, place int, played_at timestamptz);
CREATE INDEX ON lm_new (match_id);
CREATE TABLE lm_given (LIKE lm_new INCLUDING ALL);
CREATE TRIGGER rate AFTER INSERT ON lm_new REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('live_new', 'max_rd=200');
CREATE TRIGGER rate AFTER INSERT ON lm_given REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches('live_given', 'max_rd=200');
INSERT INTO lm_new SELECT match_id, player_id, team, place, '2026-01-01'::timestamptz + period * interval '1 day' + match_id * interval '1 second'
FROM sd200 WHERE period <= 2;
INSERT INTO lm_given SELECT * FROM lm_new;
SELECT count(*) AS players, count(*) FILTER (WHERE n.rating IS DISTINCT FROM g.rating) AS rate_matches_differences,
       max((n.rating).rd) <= 200 AS rd_at_most_200
FROM live_new n FULL JOIN live_given g USING (player_id);
-- (glicko2_rate_games: new players, NULL-rated ones and players given 200)
CREATE TABLE lg_new (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE lg_null (LIKE lg_new INCLUDING ALL);
CREATE TABLE lg_given (LIKE lg_new INCLUDING ALL);
INSERT INTO lg_null SELECT player_id, NULL, NULL FROM g_given;
INSERT INTO lg_given SELECT player_id, glicko2_rating(1500, 200, 0.06), NULL FROM g_given;
CREATE TABLE lg_games_new (player_id int, opponent_id int, score float8, played_at timestamptz);
CREATE TABLE lg_games_null (LIKE lg_games_new);
CREATE TABLE lg_games_given (LIKE lg_games_new);
CREATE TRIGGER rate AFTER INSERT ON lg_games_new FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('lg_new', 'max_rd=200');
CREATE TRIGGER rate AFTER INSERT ON lg_games_null FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('lg_null', 'max_rd=200');
CREATE TRIGGER rate AFTER INSERT ON lg_games_given FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('lg_given', 'max_rd=200');
INSERT INTO lg_games_new SELECT player_id, opponent_id, score, '2026-01-01'::timestamptz + n * interval '1 minute'
FROM (SELECT *, row_number() OVER (ORDER BY player_id, opponent_id) AS n FROM games) x;
INSERT INTO lg_games_null SELECT * FROM lg_games_new;
INSERT INTO lg_games_given SELECT * FROM lg_games_new;
SELECT count(*) AS players, count(*) FILTER (WHERE n.rating IS DISTINCT FROM g.rating) AS rate_games_new_vs_given,
       count(*) FILTER (WHERE u.rating IS DISTINCT FROM g.rating) AS rate_games_null_vs_given
FROM lg_new n FULL JOIN lg_given g USING (player_id) FULL JOIN lg_null u USING (player_id);
-- (one game of two new players, by hand: both start at 1500 / 200 / 0.06)
DELETE FROM lg_new;
INSERT INTO lg_games_new VALUES (1, 2, 1, '2027-01-01');
SELECT rating = glicko2_game(glicko2_rating(1500, 200, 0.06), glicko2_rating(1500, 200, 0.06), 1) AS first_game_from_200
FROM lg_new WHERE player_id = 1;

-- glicko2_fit_matches replays each max_rd as its closes do: its log loss at
-- max_rd 200 is the one scored from the real closes at 200 (new200; without
-- a teammates store, as they were closed).
WITH pre AS (SELECT m.match_id, m.team, min(m.place) AS place,
                    array_agg(coalesce(h.rating, glicko2_rating(1500, 200, 0.06)) ORDER BY m.player_id) AS rs
             FROM sd200 m
             LEFT JOIN new200_h h ON h.player_id = m.player_id AND h.period = m.period - 1
             GROUP BY m.match_id, m.team),
pairs AS (SELECT -ln(glicko2_team_win_probability(w.rs, l.rs, 'sum')) AS loss
          FROM pre w JOIN pre l ON l.match_id = w.match_id AND l.place > w.place)
SELECT count(*) AS pairs,
       abs(avg(loss) - (SELECT log_loss FROM glicko2_fit_matches('sd200', ARRAY['sum'], '{0.5}', '{200}',
                                                               teammates => false))) < 1e-12
         AS same_log_loss
FROM pairs;

-- Choosing max_rd by log loss: a league whose strengths have SD ~200 is
-- predicted best with a max_rd below 350; one with SD ~350 with 300-350.
-- One row per method, tau and max_rd (NULL: no cap, here 350 for new players).
CREATE TABLE fit200 AS SELECT * FROM glicko2_fit_matches('sd200', ARRAY['sum'], '{0.5}', '{350, 300, 250, 200, 150, NULL}');
CREATE TABLE fit350 AS SELECT * FROM glicko2_fit_matches('sd350', ARRAY['sum'], '{0.5}', '{350, 300, 250, 200, 150, NULL}');
SELECT count(*) AS rows, count(*) FILTER (WHERE best) AS best FROM fit200;
SELECT 'sd 200' AS league, max_rd AS best_max_rd, max_rd < 350 AS below_350,
       (SELECT log_loss FROM fit200 WHERE max_rd = 350) - log_loss > 0.005 AS clearly_better
FROM fit200 WHERE best
UNION ALL
SELECT 'sd 350', max_rd, max_rd < 350, max_rd >= 300 FROM fit350 WHERE best;
SELECT (SELECT log_loss FROM fit350 WHERE max_rd = 150) - (SELECT log_loss FROM fit350 WHERE best) > 0.01
         AS sd_350_far_from_150;

-- Bad max_rd, named.
\set VERBOSITY terse
SELECT * FROM glicko2_match_sides(ARRAY[1, 2], ARRAY[1, 2], ARRAY[1, 2]::bigint[], ARRAY[NULL, NULL]::glicko2_rating[], max_rd => 0);
SELECT glicko2_internal.glicko2_unrated('NaN');
SELECT glicko2_internal.glicko2_unrated(200), glicko2_internal.glicko2_unrated(NULL), glicko2_internal.glicko2_unrated(1e6);
\set VERBOSITY default

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA prior CASCADE;
