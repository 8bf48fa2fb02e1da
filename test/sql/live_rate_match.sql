-- glicko2_rate_match: one team or free-for-all match rated in the caller's
-- transaction with one-row statements in key order (the path for matches
-- tables Citus distributes; test/citus/live_rate_match.sql runs it there).
-- On the same matches it writes what the trigger glicko2_rate_matches
-- writes for statements that insert exactly those rows, bit for bit; bad
-- matches and options are refused and nothing is written.
SET TimeZone = 'UTC';
CREATE SCHEMA live_match_call;
SET search_path = live_match_call, public;

-- The same matches into two ratings tables: by the trigger, and by the function.
CREATE TABLE by_trigger (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
CREATE TABLE by_call (LIKE by_trigger INCLUDING ALL);
CREATE TABLE matches (match_id int, player_id int, team int, place int, played_at timestamptz,
                      weight float8, party text, PRIMARY KEY (match_id, player_id));
-- 300 matches among 40 players (30 known, some with a NULL rating or a NULL
-- rated_at; 10 new): 2 v 2 and 3 v 2 (wins, losses, draws; shares of play
-- 0.5 and 1; parties of two), and free-for-alls of 4 with tied places; each
-- a little later, some back in time (rated with no growth).
SELECT setseed(0.34);
INSERT INTO matches
SELECT m, p,
       CASE WHEN m % 3 = 2 THEN k WHEN k <= 2 + (m % 3) THEN 1 ELSE 2 END AS team,
       CASE WHEN m % 3 = 2 THEN 1 + (m + k * k) % 3
            WHEN m % 5 = 4 THEN 1
            WHEN (m % 5 < 2) = (k <= 2 + (m % 3)) THEN 1 ELSE 2 END AS place,
       '2026-01-02'::timestamptz + m * interval '20 minutes'
         - CASE WHEN m % 13 = 0 THEN interval '2 days' ELSE interval '0' END,
       CASE WHEN (m + k) % 4 = 0 THEN 0.5 ELSE 1 END,
       CASE WHEN m % 3 <> 2 AND m % 2 = 0 AND k <= 2 THEN 'p' || m END
FROM generate_series(1, 300) m,
     LATERAL (SELECT p, row_number() OVER () AS k
              FROM (SELECT p FROM generate_series(1, 40) p
                    ORDER BY random() + 0 * m LIMIT 4 + (m % 3 = 1)::int) s) x;
SELECT count(DISTINCT match_id) AS matches, count(*) AS rows, count(DISTINCT player_id) AS players,
       count(*) FILTER (WHERE weight < 1) AS half_shares, count(DISTINCT party) AS parties
FROM matches;
SELECT count(*) FILTER (WHERE places = 1) AS draws, count(*) FILTER (WHERE teams = 4 AND places < 4) AS tied_ffa
FROM (SELECT match_id, count(DISTINCT team) AS teams, count(DISTINCT place) AS places
      FROM matches GROUP BY match_id) s;

-- Each settings set: the trigger rates a copy of the matches, one statement
-- per match in id order, the function the same matches one call each, in
-- id order (all_at_once: one statement of every match, which the trigger
-- rates in played_at order, against calls in that order).
CREATE TABLE replay (LIKE matches INCLUDING ALL);
CREATE FUNCTION compare(all_at_once boolean, VARIADIC options text[] DEFAULT '{}')
RETURNS TABLE (players bigint, differing bigint)
LANGUAGE plpgsql SET search_path = live_match_call, public AS $$
DECLARE
  m record;
BEGIN
  TRUNCATE by_trigger, by_call, replay;
  INSERT INTO by_trigger
  SELECT i, CASE WHEN i % 7 = 0 THEN NULL ELSE glicko2_rating(1200 + 37 * i, 40 + 11 * i, 0.05 + i / 1000.0) END,
         CASE WHEN i % 5 = 0 THEN NULL ELSE '2026-01-01'::timestamptz + i * interval '3 hours' END
  FROM generate_series(1, 30) i;
  INSERT INTO by_call SELECT * FROM by_trigger;
  DROP TRIGGER IF EXISTS rate ON replay;
  EXECUTE format('CREATE TRIGGER rate AFTER INSERT ON replay REFERENCING NEW TABLE AS new'
                 ' FOR EACH STATEMENT EXECUTE FUNCTION glicko2_rate_matches(%s)',
                 (SELECT string_agg(quote_literal(a), ', ') FROM unnest('{by_trigger}' || options) a));
  IF all_at_once THEN
    INSERT INTO replay SELECT * FROM matches;
  ELSE
    FOR m IN SELECT DISTINCT match_id FROM matches ORDER BY match_id LOOP
      INSERT INTO replay SELECT * FROM matches WHERE match_id = m.match_id;
    END LOOP;
  END IF;
  FOR m IN SELECT match_id FROM matches GROUP BY match_id
           ORDER BY CASE WHEN all_at_once THEN min(played_at) END, match_id LOOP
    PERFORM glicko2_rate_match('by_call', 'matches', m.match_id, VARIADIC options);
  END LOOP;
  RETURN QUERY
  SELECT count(*), count(*) FILTER (WHERE t.rating IS DISTINCT FROM c.rating OR t.rated_at IS DISTINCT FROM c.rated_at)
  FROM by_trigger t FULL JOIN by_call c USING (player_id);
END $$;
CREATE VIEW result AS SELECT md5(string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id)) FROM by_call;
SELECT * FROM compare(false);
SELECT md5 AS defaults FROM result \gset
SELECT * FROM compare(true);
SELECT md5 = :'defaults' AS same_as_in_id_order FROM result;
SELECT * FROM compare(false, 'method=mean', 'period=1 hour', 'tau=0.3', 'max_rd=250');
SELECT md5 AS mean FROM result \gset
SELECT * FROM compare(false, 'method=sum', 'party_column=party', 'party_advantage=40', 'size_advantage=25');
SELECT md5 AS party FROM result \gset
SELECT * FROM compare(true, 'method=mean', 'party_column=party', 'party_advantage=30', 'max_rd=none');
SELECT md5 AS party_mean FROM result \gset
SELECT * FROM compare(false, 'method=individual', 'period=2 hours', 'max_rd=none');
SELECT md5 AS individual FROM result \gset
SELECT * FROM compare(false, 'method=composite', 'min_rating=1000', 'max_change=40', 'max_volatility=0.0601');
SELECT md5 AS composite FROM result \gset
-- (every setting changes the ratings: not the same table seven times)
SELECT count(DISTINCT m) AS distinct_results
FROM unnest(ARRAY[:'defaults', :'mean', :'party', :'party_mean', :'individual', :'composite']) m;
-- The shares of play are read (weight, by name as the trigger): without
-- them the ratings differ.
ALTER TABLE matches RENAME weight TO share;
ALTER TABLE replay RENAME weight TO share;
SELECT * FROM compare(false);
SELECT md5 <> :'defaults' AS shares_read FROM result;
SELECT * FROM compare(false, 'weight_column=share');
SELECT md5 = :'defaults' AS shares_by_option FROM result;
ALTER TABLE matches RENAME share TO weight;
ALTER TABLE replay RENAME share TO weight;

-- A new player is added as unrated, rated_at = played_at; known players
-- are locked and written by key.  Other column names and key types.
CREATE TABLE handles (handle text PRIMARY KEY, r glicko2_rating, at timestamptz);
CREATE TABLE ffa (game bigint, who text, rank smallint, at timestamptz, side text,
                  PRIMARY KEY (game, who));
INSERT INTO ffa VALUES (7, 'magnus', 1, '2026-03-01 20:00', 'm'), (7, 'hikaru', 2, '2026-03-01 20:00', 'h'),
                       (7, 'fabiano', 2, '2026-03-01 20:00', 'f');
SELECT glicko2_rate_match('handles', 'ffa', 7, 'player_column=handle', 'rating_column=r', 'rated_at_column=at',
                          'match_column=game', 'match_player_column=who', 'place_column=rank',
                          'played_at_column=at', 'team_column=side');
SELECT handle, round((r).rating::numeric, 6) AS rating, round((r).rd::numeric, 6) AS rd, at
FROM handles ORDER BY handle;

-- Bad matches: refused with the trigger's messages; nothing written.
SELECT * FROM compare(false);
SELECT count(*) AS rows_before, string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id) AS before
FROM by_call \gset
CREATE TABLE bad (LIKE matches);
CREATE INDEX ON bad (match_id);
INSERT INTO bad VALUES (1, 1, 1, 1, '2026-04-01', 1, NULL), (1, 2, 2, 0, '2026-04-01', 1, NULL),
                       (2, 1, 1, 1, '2026-04-01', 1, NULL), (2, 2, 1, 1, '2026-04-01', 1, NULL),
                       (3, 1, 1, 1, '2026-04-01', 1, NULL), (3, 1, 2, 2, '2026-04-01', 1, NULL),
                       (4, 1, 1, 1, '2026-04-01', 1, NULL), (4, 2, 2, 2, '2026-04-02', 1, NULL),
                       (5, 1, 1, 1, '2026-04-01', 1, NULL), (5, 2, NULL, 2, '2026-04-01', 1, NULL),
                       (6, 1, 1, 1, '2026-04-01', 1.5, NULL), (6, 2, 2, 2, '2026-04-01', 1, NULL),
                       (7, 1, 1, 1, '2026-04-01', 1, 'x'), (7, 2, 2, 2, '2026-04-01', 1, 'x'),
                       (8, 1, 1, 1, 'infinity', 1, NULL), (8, 2, 2, 2, 'infinity', 1, NULL),
                       (9, 1, 1, 1, '2026-04-01', 1, NULL), (9, 2, 1, 2, '2026-04-01', 1, NULL),
                       (9, 3, 2, 1, '2026-04-01', 1, NULL);
SELECT glicko2_rate_match('by_call', 'bad', 1);
SELECT glicko2_rate_match('by_call', 'bad', 2);
SELECT glicko2_rate_match('by_call', 'bad', 3);
SELECT glicko2_rate_match('by_call', 'bad', 4);
SELECT glicko2_rate_match('by_call', 'bad', 5);
SELECT glicko2_rate_match('by_call', 'bad', 6);
SELECT glicko2_rate_match('by_call', 'bad', 7, 'party_column=party');
SELECT glicko2_rate_match('by_call', 'bad', 8);
SELECT glicko2_rate_match('by_call', 'bad', 9);
-- No rows for the match id, and NULL arguments.
SELECT glicko2_rate_match('by_call', 'matches', 301);
SELECT glicko2_rate_match('by_call', 'matches', NULL::int);
SELECT glicko2_rate_match(NULL, 'matches', 1);
SELECT glicko2_rate_match('by_call', NULL, 1);
-- Bad options and tables: refused, naming the option or column.
SELECT glicko2_rate_match('by_call', 'matches', 1, 'fast');
SELECT glicko2_rate_match('by_call', 'matches', 1, 'score_column=s');
SELECT glicko2_rate_match('by_call', 'matches', 1, NULL);
SELECT glicko2_rate_match('by_call', 'matches', 1, 'method=best');
SELECT glicko2_rate_match('by_call', 'matches', 1, 'method=individual', 'party_advantage=10');
SELECT glicko2_rate_match('by_call', 'matches', 1, 'team_column=side');
SELECT glicko2_rate_match('by_call', 'matches', 1, 'rating_column=elo');
SELECT glicko2_rate_match('handles', 'matches', 1);
CREATE TABLE no_index (LIKE matches);
INSERT INTO no_index SELECT * FROM matches WHERE match_id = 1;
SELECT glicko2_rate_match('by_call', 'no_index', 1);
-- A teammates store cannot be kept: refused, saying what is lost.
CALL glicko2_teammates_create('live_match_call.pairs', 'by_call');
SELECT glicko2_rate_match('by_call', 'matches', 1, 'teammates=pairs');
-- A stored rating that is bad names its player.
CREATE TABLE bad_rating (player_id int PRIMARY KEY, rating glicko2_rating, rated_at timestamptz);
INSERT INTO bad_rating VALUES ((SELECT min(player_id) FROM matches WHERE match_id = 1), ROW(1500, 'NaN', 0.06), NULL);
SELECT glicko2_rate_match('bad_rating', 'matches', 1);
SELECT count(*) AS bad_rating_rows FROM bad_rating;
SELECT count(*) = :rows_before AS same_rows,
       string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id) = :'before' AS unchanged
FROM by_call;

-- All or nothing with the caller's transaction.
BEGIN;
INSERT INTO matches VALUES (400, 1, 1, 1, '2026-05-01', 1, NULL), (400, 41, 2, 2, '2026-05-01', 1, NULL);
SELECT glicko2_rate_match('by_call', 'matches', 400);
SELECT count(*) AS rated_in_transaction FROM by_call WHERE rated_at = '2026-05-01';
ROLLBACK;
SELECT count(*) = :rows_before AS same_rows,
       string_agg(player_id || ':' || rating || rated_at, ',' ORDER BY player_id) = :'before' AS unchanged_after_rollback
FROM by_call;

-- Privileges are the caller's: SELECT on the matches, SELECT and UPDATE on
-- the ratings (and INSERT to add a new player).
CREATE ROLE live_match_writer;
GRANT USAGE ON SCHEMA live_match_call TO live_match_writer;
GRANT SELECT, UPDATE ON by_call TO live_match_writer;
SET ROLE live_match_writer;
SELECT glicko2_rate_match('by_call', 'matches', 1);
RESET ROLE;
GRANT SELECT ON matches TO live_match_writer;
SET ROLE live_match_writer;
SELECT glicko2_rate_match('by_call', 'matches', 1);
RESET ROLE;

-- The function is pinned to pg_catalog: an operator or function of the
-- caller's search_path is never called.
SELECT proconfig FROM pg_proc WHERE oid = 'glicko2_rate_match'::regproc;

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA live_match_call CASCADE;
DROP ROLE live_match_writer;
