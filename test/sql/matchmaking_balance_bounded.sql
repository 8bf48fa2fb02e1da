-- glicko2_balance bounded in time by its input (issue 29, 4): sorting in
-- O(n log n), the swap search within a fixed budget of work, every long
-- loop checking for interrupts.  Before, a lobby of 300 000 players took
-- 38 s to notice a 2 s statement_timeout, and 10^6 players ignored
-- pg_terminate_backend for minutes; now a lobby of more than 100 000
-- players is refused, and the largest allowed answer in a fraction of a
-- second.  (Results of 16 players or fewer are exact and unchanged:
-- matchmaking_balance.)
CREATE SCHEMA balance_bounded;
SET search_path = balance_bounded, public;
\set SHOW_CONTEXT never
CREATE TABLE lobby AS
  SELECT i, glicko2_rating(1000 + (hashint4(i) & 1023), 40 + (hashint4(i + 1) & 63)) AS r
  FROM generate_series(1, 1000000) i;
CREATE FUNCTION lobby(n int) RETURNS glicko2_rating[] LANGUAGE sql AS
  $$ SELECT array_agg(r ORDER BY i) FROM balance_bounded.lobby WHERE i <= n $$;
CREATE TABLE lobbies AS
  SELECT lobby(1000000) AS million, lobby(100000) AS big, lobby(100001) AS over,
         lobby(2000) AS mid, lobby(200) AS small;

-- Large lobbies answer: every player in a team, teams of equal size, each
-- within a bounded search (a statement_timeout far above the time the
-- search needs, far below the minutes it took).
SET statement_timeout = '20s';
SELECT t.teams, count(*) AS players, count(DISTINCT x.team) AS teams_used,
       max(x.n) - min(x.n) AS size_spread
FROM lobbies l,
     (VALUES (2), (64)) t(teams),
     LATERAL (SELECT team, count(*) OVER (PARTITION BY team) AS n
              FROM unnest(glicko2_balance(l.big, t.teams)) team) x
GROUP BY t.teams ORDER BY t.teams;
SELECT t.teams, cardinality(b) AS players,
       (SELECT count(DISTINCT v) FROM unnest(b) v) AS teams_used
FROM lobbies l, (VALUES (2), (8), (64)) t(teams),
     LATERAL (SELECT glicko2_balance(l.mid, t.teams) AS b OFFSET 0) s
ORDER BY t.teams;
-- Parties: 100 000 players, each its own party number (the renumbering
-- of parties was quadratic too).
SELECT cardinality(glicko2_balance(big, 2, ARRAY(SELECT g FROM generate_series(1, 100000) g))) AS with_parties
FROM lobbies;
-- One player more, or a million, is refused at once (54000), nothing computed.
SELECT cardinality(glicko2_balance(over, 2)) FROM lobbies;
SELECT cardinality(glicko2_balance(million, 64)) FROM lobbies;
-- Within its budget the search still evens out a 200 player lobby: the
-- two teams' win probability within 1e-3 of an even game.
SELECT abs(glicko2_team_win_probability(
         ARRAY(SELECT small[k] FROM generate_subscripts(small, 1) k WHERE b[k] = 1),
         ARRAY(SELECT small[k] FROM generate_subscripts(small, 1) k WHERE b[k] = 2)) - 0.5) < 1e-3 AS fair
FROM lobbies, LATERAL (SELECT glicko2_balance(small) AS b OFFSET 0) s;

-- A cancel is noticed: statement_timeout stops a balance of the largest
-- lobby in 64 teams with the usual error (asserted, not timed).
SET statement_timeout = '5ms';
SELECT cardinality(glicko2_balance(big, 64)) FROM lobbies;
RESET statement_timeout;

SET client_min_messages = warning;
DROP SCHEMA balance_bounded CASCADE;
RESET search_path;
