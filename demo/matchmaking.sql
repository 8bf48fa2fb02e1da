-- A matchmaking round (run at the end of league.sql): 1,000 players waiting
-- in a queue, paired for one-on-one games by glicko2_pair, against random
-- pairing and a greedy matchmaker (first come, first served: the player who
-- has waited longest takes the closest rating left); then one tick with a
-- gap limit, and 5v5 lobbies from the same 1,000.  Seeded like the league.
SELECT setseed(0.18) \gset
CREATE TABLE queue (player_id int PRIMARY KEY, rating glicko2_rating NOT NULL,
                    queued_at timestamptz NOT NULL);
INSERT INTO queue
SELECT i, glicko2_rating(1500 + 300 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()),
                         50 + 100 * random()),
       now() - 30 * random() * interval '1 s'
FROM generate_series(1, 1000) i;

-- Copies of the queue for the comparison and for the lobbies.
CREATE TABLE everyone (LIKE queue INCLUDING ALL);
INSERT INTO everyone SELECT * FROM queue;
CREATE TABLE lobby_queue (LIKE queue INCLUDING ALL);
INSERT INTO lobby_queue SELECT * FROM queue;

-- Everyone paired (no gap limit), three ways.
CREATE TEMP TABLE pairs_optimal AS
  SELECT p_win FROM glicko2_pair_typed('everyone', NULL::int, max_gap => NULL, widen => 0);
-- Random: one shuffle, split into consecutive pairs.
CREATE TEMP TABLE shuffled AS SELECT rating, row_number() OVER (ORDER BY random()) AS k FROM queue;
CREATE TEMP TABLE pairs_random AS
  SELECT glicko2_win_probability(a.rating, b.rating) AS p_win
  FROM shuffled a JOIN shuffled b ON b.k = a.k + 1 WHERE a.k % 2 = 1;
CREATE TEMP TABLE pairs_greedy (p_win float8);
DO $$
DECLARE
  me record;
  other record;
BEGIN
  CREATE TEMP TABLE waiting AS SELECT * FROM queue;
  FOR me IN SELECT * FROM queue ORDER BY queued_at LOOP
    CONTINUE WHEN NOT EXISTS (SELECT 1 FROM waiting WHERE player_id = me.player_id);
    SELECT * INTO other FROM waiting WHERE player_id <> me.player_id
    ORDER BY abs((rating).rating - (me.rating).rating), player_id LIMIT 1;
    DELETE FROM waiting WHERE player_id IN (me.player_id, other.player_id);
    INSERT INTO pairs_greedy VALUES (glicko2_win_probability(me.rating, other.rating));
  END LOOP;
END $$;
\echo 'Matchmaking: 1000 queued players (ratings 1500 +- 300, RD 50-150) paired one-on-one, no gap limit:'
SELECT method, count(*) AS pairs, round(avg(abs(p_win - 0.5))::numeric, 4) AS "mean |p - 0.5|",
       round(max(abs(p_win - 0.5))::numeric, 4) AS "worst |p - 0.5|"
FROM (SELECT 1 AS o, 'glicko2_pair (optimal)' AS method, p_win FROM pairs_optimal
      UNION ALL SELECT 2, 'greedy: longest wait takes the closest', p_win FROM pairs_greedy
      UNION ALL SELECT 3, 'random pairs', p_win FROM pairs_random) s
GROUP BY o, method ORDER BY o;

-- A real tick: the defaults (a gap of at most 100 points, widening by 5 a
-- second waited), rows locked and deleted in this transaction.
CREATE TEMP TABLE tick AS SELECT * FROM glicko2_pair_typed('queue', NULL::int);
\echo 'One tick of glicko2_pair(''queue'') (max_gap 100, widen 5 a second):'
SELECT count(*) AS pairs, (SELECT count(*) FROM queue) AS "left waiting",
       round(avg(abs(p_win - 0.5))::numeric, 4) AS "mean |p - 0.5|", round(max(gap)::numeric, 1) AS "largest gap"
FROM tick;

-- 5v5: lobbies of ten similar players, each split by glicko2_balance.
CREATE TEMP TABLE lobbies AS SELECT * FROM glicko2_lobbies_typed('lobby_queue', 5, NULL::int);
\echo '5v5 lobbies from the same 1000 players (glicko2_lobbies(''queue'', 5)):'
SELECT count(DISTINCT lobby) AS lobbies, count(*) AS players,
       round(avg(abs(p_win - 0.5))::numeric, 5) AS "mean |p - 0.5|",
       round(max(abs(p_win - 0.5))::numeric, 5) AS "worst |p - 0.5|"
FROM lobbies;
\echo 'The first lobby:'
SELECT team, string_agg(player_id || ' (' || round((rating).rating) || ')', ', ' ORDER BY (rating).rating DESC) AS players,
       round(avg((rating).rating)) AS "mean rating", round(min(p_win)::numeric, 4) AS "win chance"
FROM lobbies WHERE lobby = 1 GROUP BY team ORDER BY team;
