-- The demo league played live: the same games (after the correction),
-- written one by one as they end into a games table with the live rating
-- trigger, a period being one day (each of the 20 periods is a day of
-- games).  Then: the live ratings against the hidden strengths and against
-- the same games closed period by period with the same tau (0.5), and a
-- dashboard that grows RD to a later time with glicko2_rating_at.
-- Run by demo.sh after league.sql, in the same session.

-- Played times: period p is day p of January 2026; its games in their
-- order spread over the day from 08:00, a minute or so apart.
CREATE TABLE live_ratings (player_id int PRIMARY KEY REFERENCES players,
                           rating glicko2_rating, rated_at timestamptz);
CREATE TABLE live_games (period int, player_id int REFERENCES players,
                         opponent_id int REFERENCES players, score float8, played_at timestamptz);
CREATE TRIGGER rate_games AFTER INSERT ON live_games
  FOR EACH ROW EXECUTE FUNCTION glicko2_rate_games('live_ratings', 'period=1 day', 'tau=0.5');
INSERT INTO live_games
SELECT period, player_id, opponent_id, score,
       timestamptz '2026-01-01 08:00+00' + (period - 1) * interval '1 day'
         + row_number() OVER (PARTITION BY period ORDER BY ctid) * interval '3 minutes'
FROM games
ORDER BY 5;

-- The same games closed period by period with tau 0.5, for comparison.
CREATE TABLE closed_ratings (player_id int PRIMARY KEY REFERENCES players, rating glicko2_rating);
CALL glicko2_replay('closed_ratings', 'games', tau => 0.5);

\echo
\echo 'Live: the same games rated one by one as they are written (glicko2_rate_games, a period = 1 day, tau 0.5),'
\echo 'against the same games closed period by period with tau 0.5 (glicko2_replay), after day / period 20:'
SELECT x.how, round(corr((x.rating).rating, s.strength)::numeric, 3) AS correlation,
       round(100 * avg((abs((x.rating).rating - s.strength) <= 2 * (x.rating).rd)::int), 1)
         AS "% inside 95 % interval",
       round(avg((x.rating).rd)::numeric, 1) AS "mean RD",
       round(avg((x.rating).rating)) AS "mean rating", round(stddev((x.rating).rating)) AS "SD of ratings",
       round(stddev(s.strength)) AS "SD of strengths"
FROM (SELECT 'live' AS how, player_id, rating FROM live_ratings
      UNION ALL
      SELECT 'closed', player_id, rating FROM closed_ratings) x
JOIN strengths s ON s.player_id = x.player_id AND s.period = 20
GROUP BY x.how ORDER BY x.how DESC;
SELECT round(avg(abs((l.rating).rating - (h.rating).rating))::numeric, 1) AS "mean |live - closed|",
       round(max(abs((l.rating).rating - (h.rating).rating))::numeric, 1) AS "largest",
       (SELECT count(*) FROM live_games) AS games
FROM live_ratings l JOIN closed_ratings h USING (player_id);

\echo 'Live leaderboard as of ten days after the last game (glicko2_rating_at grows RD, writes nothing):'
SELECT rank() OVER (ORDER BY glicko2_lower(glicko2_rating_at(l.rating, l.rated_at, '2026-01-30 20:00+00')) DESC) AS "#",
       p.name, round((l.rating).rating) AS rating, round((l.rating).rd) AS "RD after last game",
       round((glicko2_rating_at(l.rating, l.rated_at, '2026-01-30 20:00+00')).rd) AS "RD ten days on",
       round((h.rating).rating) AS "closed rating"
FROM live_ratings l JOIN players p USING (player_id)
JOIN closed_ratings h USING (player_id)
ORDER BY 1, 2 LIMIT 8;
