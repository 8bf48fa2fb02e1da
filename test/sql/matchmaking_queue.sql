-- Matchmaking, queues: glicko2_pair and glicko2_lobbies take players from a
-- queue table, lock them, delete them in the calling transaction.
-- (Optimality against an independent exact matcher: test/shell/matchmaking_optimal.sh;
-- two matchmakers at once: test/specs/matchmaking_concurrent.spec.)
CREATE TABLE queue (player_id bigint PRIMARY KEY, rating glicko2_rating NOT NULL,
                    queued_at timestamptz NOT NULL);

-- Each block runs in one transaction, so now() and the waits are fixed.
BEGIN;
-- 1000 1090 1100 1190, max_gap 100, no widening.  Pairing the closest two
-- first (1090-1100) would leave 1000 and 1190 (190 apart) unpaired; the
-- whole pool's optimum is two pairs of 90.
INSERT INTO queue VALUES (1, glicko2_rating(1000, 60), now()), (2, glicko2_rating(1090, 60), now()),
                         (3, glicko2_rating(1100, 60), now()), (4, glicko2_rating(1190, 60), now());
SELECT player_a, player_b, gap, round(p_win::numeric, 6) AS p_win,
       p_win = glicko2_win_probability(rating_a, rating_b) AS p_is_win_probability, waited_a, waited_b
FROM glicko2_pair_typed('queue', NULL::bigint, max_gap => 100, widen => 0);
-- The paired rows are gone from the queue, in this transaction.
SELECT count(*) AS left_in_queue FROM queue;
ROLLBACK;

BEGIN;
-- max_gap 50: 1000 (alone) waits; 1090-1100 pair; 1190 waits.
INSERT INTO queue VALUES (1, glicko2_rating(1000, 60), now()), (2, glicko2_rating(1090, 60), now()),
                         (3, glicko2_rating(1100, 60), now()), (4, glicko2_rating(1190, 60), now());
SELECT player_a, player_b, gap FROM glicko2_pair_typed('queue', NULL::bigint, max_gap => 50, widen => 0);
SELECT player_id FROM queue ORDER BY player_id;
-- A rollback puts every player back: nothing is lost.
ROLLBACK;

BEGIN;
-- Widening: 1000 and 1190 (190 apart) with max_gap 100 and 5 points per
-- second waited.  After 10 s the tolerance is 150: no pair; after 20 s for
-- both, 200: a pair.  The tolerance is each player's: a pair needs both.
INSERT INTO queue VALUES (1, glicko2_rating(1000, 60), now() - interval '30 s'),
                         (2, glicko2_rating(1190, 60), now() - interval '10 s');
SELECT count(*) AS pairs_when_one_waited_10s FROM glicko2_pair_typed('queue', NULL::bigint, max_gap => 100, widen => 5);
UPDATE queue SET queued_at = now() - interval '20 s' WHERE player_id = 2;
SELECT player_a, player_b, gap, waited_a, waited_b FROM glicko2_pair_typed('queue', NULL::bigint, max_gap => 100, widen => 5);
-- NULL max_gap: no limit at all.
INSERT INTO queue VALUES (5, glicko2_rating(0, 60), now()), (6, glicko2_rating(3000, 60), now());
SELECT player_a, player_b, gap FROM glicko2_pair_typed('queue', NULL::bigint, max_gap => NULL, widen => 0);
-- An empty queue gives no pairs.
SELECT count(*) AS from_empty_queue FROM glicko2_pair_typed('queue', NULL::bigint);
ROLLBACK;

-- waited is now() - queued_at to the microsecond, whole days justified out
-- of the hours as timestamptz subtraction gives them; a time in the future
-- waits a negative time.
BEGIN;
CREATE TEMP TABLE joined ON COMMIT DROP AS
SELECT * FROM (VALUES (1, now() - interval '3 days 4 hours 5.000006 s'), (2, now() - interval '26 hours'),
                      (3, now() - interval '0.5 s'), (4, now() + interval '1 hour')) v (player_id, queued_at);
INSERT INTO queue SELECT player_id, glicko2_rating(1500 + 50 * player_id, 60), queued_at FROM joined;
SELECT p.player_a, p.waited_a, p.waited_a::text = (now() - a.queued_at)::text AS a_is_now_minus_queued,
       p.player_b, p.waited_b, p.waited_b::text = (now() - b.queued_at)::text AS b_is_now_minus_queued
FROM glicko2_pair_typed('queue', NULL::bigint, max_gap => NULL, widen => 0) p
JOIN joined a ON a.player_id = p.player_a
JOIN joined b ON b.player_id = p.player_b
ORDER BY p.player_a;
ROLLBACK;

-- Other column names, text keys, an odd pool: 9 players, 4 pairs, the one
-- left out is the one whose absence costs least.
CREATE TABLE waiting (who text PRIMARY KEY, r glicko2_rating, since timestamptz);
BEGIN;
INSERT INTO waiting SELECT 'p' || i, glicko2_rating(1500 + 10 * i * i, 80), now() FROM generate_series(1, 9) i;
SELECT player_a, player_b, gap
FROM glicko2_pair_typed('waiting', NULL::text, max_gap => 1000, widen => 0, player_column => 'who', rating_column => 'r', queued_column => 'since');
SELECT who AS left_waiting FROM waiting;
ROLLBACK;
-- Ids of every length come back whole: short, 200 bytes (past a one-byte
-- varlena header), 3000 bytes stored compressed (by the server's
-- default_toast_compression: pglz up to 18, lz4 on 19), 9000 bytes of random
-- text (base64 digests, which neither pglz nor lz4 compresses) stored out of line (no unique index: too long for one, so the duplicate
-- check compares them); and so do the ratings.
CREATE TABLE long_ids (who text, r glicko2_rating, since timestamptz);
BEGIN;
INSERT INTO long_ids VALUES ('short', glicko2_rating(1500, 80), now()),
                           (repeat('m', 200), glicko2_rating(1501, 81, 0.07), now()),
                           (repeat('c', 3000), glicko2_rating(1600, 82), now()),
                           ((SELECT string_agg(encode(sha256(i::text::bytea), 'base64'), '') FROM generate_series(1, 205) i), glicko2_rating(1601, 83), now());
SELECT length(who), pg_column_compression(who) IS NOT NULL AS compressed, pg_column_size(who) < length(who) AS smaller
FROM long_ids ORDER BY 1;
CREATE TEMP TABLE before ON COMMIT DROP AS SELECT * FROM long_ids;
SELECT length(p.player_a) AS length_a, p.player_a = a.who AND p.rating_a = a.r AS a_whole,
       length(p.player_b) AS length_b, p.player_b = b.who AND p.rating_b = b.r AS b_whole
FROM glicko2_pair_typed('long_ids', NULL::text, max_gap => NULL, widen => 0, player_column => 'who', rating_column => 'r', queued_column => 'since') p
JOIN before a ON a.who = p.player_a JOIN before b ON b.who = p.player_b
ORDER BY length_a;
ROLLBACK;

-- Lobbies: 25 players into 2v2 lobbies.  Runs of four in rating order (six
-- lobbies, one player left), each split as glicko2_balance splits it, p_win
-- the team's chance against the other team ('composite': as before the team
-- model was the default).
BEGIN;
INSERT INTO queue SELECT i, glicko2_rating(1000 + 20 * i + (hashint4(i) & 15), 40 + (hashint4(i + 99) & 127)), now()
FROM generate_series(1, 25) i;
CREATE TEMP TABLE lobbies AS SELECT * FROM glicko2_lobbies_typed('queue', 2, NULL::bigint, max_gap => 100, widen => 0,
                                                           method => 'composite');
SELECT lobby, team, string_agg(player_id::text, ',' ORDER BY player_id) AS players,
       round(min(p_win)::numeric, 4) AS p_win
FROM lobbies GROUP BY lobby, team ORDER BY lobby, team;
SELECT player_id AS left_waiting FROM queue;
-- Every lobby: the two teams' chances sum to 1; the split is glicko2_balance's.
WITH l AS (SELECT lobby, array_agg(rating ORDER BY player_id) AS r, array_agg(team ORDER BY player_id) AS t
           FROM lobbies GROUP BY lobby)
SELECT bool_and(glicko2_balance(r, method => 'composite') = t OR
                glicko2_balance(r, method => 'composite') = array_replace(array_replace(array_replace(t, 1, 0), 2, 1), 0, 2))
         AS split_is_balance
FROM l;
SELECT bool_and(abs(s - 1) < 1e-15) AS chances_sum_to_one
FROM (SELECT lobby, sum(DISTINCT p_win) AS s FROM lobbies GROUP BY lobby) s;
-- Team 1 holds the lobby's highest rated player.
SELECT bool_and(team = 1) AS best_in_team_1
FROM (SELECT DISTINCT ON (lobby) lobby, team FROM lobbies ORDER BY lobby, (rating).rating DESC) b;
ROLLBACK;

-- The same queue by each method: the split is glicko2_balance's of that
-- method, and p_win is glicko2_team_win_probability of that method, the
-- team against the other, to the bit.
CREATE TEMP TABLE method_lobbies (method text, lobby int, team int, player_id bigint, rating glicko2_rating, p_win float8,
                                  waited interval);
DO $$
DECLARE m text;
BEGIN
  FOREACH m IN ARRAY ARRAY['sum', 'mean', 'individual', 'composite'] LOOP
    DELETE FROM queue;
    INSERT INTO queue SELECT i, glicko2_rating(1000 + 20 * i + (hashint4(i) & 15), 40 + (hashint4(i + 99) & 127)), now()
    FROM generate_series(1, 25) i;
    INSERT INTO method_lobbies
    SELECT m, l.* FROM glicko2_lobbies_typed('queue', 2, NULL::bigint, max_gap => 100, widen => 0, method => m) l;
  END LOOP;
  DELETE FROM queue;
END $$;
WITH l AS (SELECT method, lobby, array_agg(rating ORDER BY player_id) AS r, array_agg(team ORDER BY player_id) AS t
           FROM method_lobbies GROUP BY method, lobby),
     p AS (SELECT a.method, a.lobby, a.team, min(a.p_win) AS p_win,
                  glicko2_team_win_probability((SELECT array_agg(rating ORDER BY player_id) FROM method_lobbies b
                                                WHERE (b.method, b.lobby, b.team) = (a.method, a.lobby, a.team)),
                                               (SELECT array_agg(rating ORDER BY player_id) FROM method_lobbies b
                                                WHERE (b.method, b.lobby) = (a.method, a.lobby) AND b.team <> a.team),
                                               a.method) AS want
           FROM method_lobbies a GROUP BY a.method, a.lobby, a.team)
SELECT method, count(DISTINCT lobby) AS lobbies,
       bool_and((SELECT bool_and(glicko2_balance(r, method => l.method) = t OR
                                 glicko2_balance(r, method => l.method) = array_replace(array_replace(array_replace(t, 1, 0), 2, 1), 0, 2))
                 FROM l WHERE l.method = p.method)) AS split_is_balance,
       bool_and(p_win = want) AS p_win_is_team_win_probability
FROM p GROUP BY method ORDER BY method;
DROP TABLE method_lobbies;

-- Three teams of two, and a max_gap that no six players fit.
BEGIN;
INSERT INTO queue SELECT i, glicko2_rating(1000 + 100 * i, 80), now() FROM generate_series(0, 5) i;
SELECT count(*) AS players_in_lobbies FROM glicko2_lobbies_typed('queue', 2, NULL::bigint, teams => 3, max_gap => 400, widen => 0);
SELECT lobby, team, string_agg(player_id::text, ',' ORDER BY player_id) AS players, round(min(p_win)::numeric, 6) AS p_win
FROM glicko2_lobbies_typed('queue', 2, NULL::bigint, teams => 3, max_gap => 500, widen => 0) GROUP BY lobby, team ORDER BY lobby, team;
ROLLBACK;
-- With more than two teams, 'sum' gives a team's chance against each other
-- team, averaged: here, of uneven ratings and RDs, the mean of its two
-- glicko2_team_win_probability.
BEGIN;
INSERT INTO queue SELECT i, glicko2_rating(1000 + 100 * i + 7 * i * i, 80 + 20 * i), now() FROM generate_series(0, 5) i;
CREATE TEMP TABLE three AS SELECT * FROM glicko2_lobbies_typed('queue', 2, NULL::bigint, teams => 3, max_gap => NULL);
WITH t AS (SELECT team, array_agg(rating ORDER BY player_id) AS r, min(p_win) AS p_win FROM three GROUP BY team)
SELECT a.team, abs(a.p_win - avg(glicko2_team_win_probability(a.r, b.r, 'sum'))) < 1e-15 AS mean_of_pairwise
FROM t a JOIN t b ON b.team <> a.team GROUP BY a.team, a.p_win ORDER BY a.team;
ROLLBACK;

-- Bad input: each a clear error naming the row or value, and nothing taken.
\set SHOW_CONTEXT never
CREATE TABLE loose (player_id int, rating glicko2_rating, queued_at timestamptz);
INSERT INTO loose VALUES (1, glicko2_rating(), now()), (2, glicko2_rating(), now()), (2, glicko2_rating(), now());
SELECT * FROM glicko2_pair_typed('loose', NULL::int);
DELETE FROM loose WHERE player_id = 2;
INSERT INTO loose VALUES (3, NULL, now());
SELECT * FROM glicko2_pair_typed('loose', NULL::int);
UPDATE loose SET rating = (1500, 'NaN', 0.06) WHERE player_id = 3;
SELECT * FROM glicko2_pair_typed('loose', NULL::int);
UPDATE loose SET rating = (1500, -1, 0.06) WHERE player_id = 3;
SELECT * FROM glicko2_lobbies_typed('loose', 1, NULL::int);
UPDATE loose SET rating = glicko2_rating(), queued_at = NULL WHERE player_id = 3;
SELECT * FROM glicko2_pair_typed('loose', NULL::int);
UPDATE loose SET queued_at = '-infinity' WHERE player_id = 3;
SELECT * FROM glicko2_pair_typed('loose', NULL::int);
UPDATE loose SET queued_at = 'infinity' WHERE player_id = 3;
SELECT * FROM glicko2_lobbies_typed('loose', 1, NULL::int);
UPDATE loose SET queued_at = now(), player_id = NULL WHERE player_id = 3;
SELECT * FROM glicko2_pair_typed('loose', NULL::int);
SELECT count(*) AS still_queued FROM loose;
DELETE FROM loose WHERE player_id IS NULL;
SELECT * FROM glicko2_lobbies_typed('loose', 0, NULL::int);
SELECT * FROM glicko2_lobbies_typed('loose', -3, NULL::int);
SELECT * FROM glicko2_lobbies_typed('loose', 2, NULL::int, teams => 1);
SELECT * FROM glicko2_lobbies_typed('loose', 2, NULL::int, teams => 65);
SELECT * FROM glicko2_lobbies_typed('loose', 1000000000, NULL::int, teams => 64);
-- Lobbies larger than the queue: no lobby, no error.
SELECT count(*) AS lobbies_of_a_billion FROM glicko2_lobbies_typed('loose', 1000000000, NULL::int, teams => 2);
SELECT * FROM glicko2_pair_typed('loose', NULL::int, max_gap => -1);
SELECT * FROM glicko2_pair_typed('loose', NULL::int, max_gap => 'NaN');
SELECT * FROM glicko2_pair_typed('loose', NULL::int, widen => 'Infinity');
SELECT * FROM glicko2_pair_typed('loose', NULL::int, player_column => 'nobody');
SELECT * FROM glicko2_pair_typed('loose', NULL::int, rating_column => 'queued_at');
SELECT * FROM glicko2_pair_typed('loose', NULL::int, queued_column => 'rating');
SELECT * FROM glicko2_pair(NULL, NULL::int);
-- Players are taken off by ctid: a view or a partitioned table is refused;
-- an inheritance parent is read and taken from ONLY itself.
CREATE VIEW loose_view AS SELECT * FROM loose;
SELECT * FROM glicko2_pair_typed('loose_view', NULL::int);
CREATE TABLE parted (player_id int, rating glicko2_rating, queued_at timestamptz) PARTITION BY RANGE (player_id);
SELECT * FROM glicko2_lobbies_typed('parted', 1, NULL::int);
CREATE TABLE loose_child () INHERITS (loose);
INSERT INTO loose_child VALUES (7, glicko2_rating(), now()), (8, glicko2_rating(), now());
BEGIN;
INSERT INTO loose VALUES (9, glicko2_rating(), now());
SELECT player_a, player_b FROM glicko2_pair_typed('loose', NULL::int);
SELECT player_id AS child_rows_untouched FROM loose_child ORDER BY 1;
ROLLBACK;
SELECT * FROM glicko2_pair_typed('no_such_queue', NULL::int);
SELECT count(*) AS still_queued FROM ONLY loose;
-- The delete's filter: bit block * MaxHeapTuplesPerPage + line pointer - 1
-- of the bitmap, least significant first; line pointer 0 and rows beyond the
-- bitmap are not in it.
SELECT glicko2_internal.glicko2_row_taken('(0,1)', '\x01') AS first_row,
       glicko2_internal.glicko2_row_taken('(0,2)', '\x01') AS second_row,
       glicko2_internal.glicko2_row_taken('(0,9)', '\x0001') AS ninth_row,
       glicko2_internal.glicko2_row_taken('(0,0)', '\xff') AS line_pointer_0,
       glicko2_internal.glicko2_row_taken('(0,17)', '\xffff') AS beyond,
       glicko2_internal.glicko2_row_taken('(4000,1)', '\xff') AS far_beyond,
       glicko2_internal.glicko2_row_taken('(0,1)', '') AS empty_set;
-- A queue over many pages, some players left waiting: exactly the paired
-- rows are deleted, on every page, and nobody else.
CREATE TABLE paged (player_id int PRIMARY KEY, rating glicko2_rating, queued_at timestamptz)
  WITH (fillfactor = 10);
INSERT INTO paged
SELECT i, glicko2_rating(1000 + 7 * i + CASE WHEN i % 10 = 0 THEN 500 ELSE 0 END, 60), now()
FROM generate_series(1, 600) i;
SELECT count(DISTINCT (ctid::text::point)[0]) > 20 AS many_pages FROM paged;
BEGIN;
CREATE TEMP TABLE paged_pairs AS SELECT * FROM glicko2_pair_typed('paged', NULL::int, max_gap => 20, widen => 0);
SELECT count(*) AS pairs, (SELECT count(*) FROM paged) AS left_waiting,
       2 * count(*) + (SELECT count(*) FROM paged) = 600 AS nobody_lost,
       NOT EXISTS (SELECT 1 FROM paged WHERE player_id IN
                   (SELECT player_a FROM paged_pairs UNION ALL SELECT player_b FROM paged_pairs)) AS paired_rows_gone
FROM paged_pairs;
ROLLBACK;
SELECT count(*) AS all_back FROM paged;
-- Ids come back in the queue key's own type (the _typed forms' NULL names it):
-- smallint, int and bigint, extreme values included; a player twice is
-- named by the type's output.
CREATE TABLE int_ids (s smallint, i int, b bigint, r glicko2_rating, since timestamptz);
INSERT INTO int_ids VALUES
  (-32768, -2147483648, -9223372036854775808, glicko2_rating(1500, 60), now()),
  (32767, 2147483647, 9223372036854775807, glicko2_rating(1510, 60), now()),
  (0, 0, 0, glicko2_rating(1700, 60), now()),
  (-1, -1, -1, glicko2_rating(1705, 60), now());
BEGIN;
SELECT player_a, player_b FROM glicko2_pair_typed('int_ids', NULL::smallint, player_column => 's', rating_column => 'r', queued_column => 'since');
ROLLBACK;
BEGIN;
SELECT player_a, player_b FROM glicko2_pair_typed('int_ids', NULL::int, player_column => 'i', rating_column => 'r', queued_column => 'since');
ROLLBACK;
BEGIN;
SELECT player_a, player_b FROM glicko2_pair_typed('int_ids', NULL::bigint, player_column => 'b', rating_column => 'r', queued_column => 'since');
ROLLBACK;
INSERT INTO int_ids VALUES (7, -1, 7, glicko2_rating(1800, 60), now());
SELECT * FROM glicko2_pair_typed('int_ids', NULL::int, player_column => 'i', rating_column => 'r', queued_column => 'since');
UPDATE int_ids SET r = ROW(1800, 0, 0.06)::glicko2_rating WHERE s = 7;
SELECT player_a FROM glicko2_pair_typed('int_ids', NULL::smallint, player_column => 's', rating_column => 'r', queued_column => 'since');
SELECT count(*) AS int_ids_untouched FROM int_ids;

-- The key's own type, whatever it is: ids go as they are into a table of
-- that type (a uuid key, a domain over bigint read as bigint, varchar).
CREATE TABLE uuid_queue (player_id uuid PRIMARY KEY, rating glicko2_rating NOT NULL, queued_at timestamptz NOT NULL);
CREATE TABLE uuid_games (player_a uuid, player_b uuid);
INSERT INTO uuid_queue VALUES ('00000000-0000-0000-0000-00000000000a', glicko2_rating(1500, 60), now()),
                              ('00000000-0000-0000-0000-00000000000b', glicko2_rating(1510, 60), now()),
                              ('00000000-0000-0000-0000-00000000000c', glicko2_rating(1900, 60), now());
BEGIN;
INSERT INTO uuid_games SELECT player_a, player_b FROM glicko2_pair_typed('uuid_queue', NULL::uuid);
SELECT * FROM uuid_games;
SELECT player_id AS left_waiting FROM uuid_queue;
ROLLBACK;
BEGIN;
SELECT lobby, team, player_id, pg_typeof(player_id) FROM glicko2_lobbies_typed('uuid_queue', 1, NULL::uuid, teams => 3, max_gap => NULL)
ORDER BY lobby, team;
ROLLBACK;
CREATE DOMAIN player_number AS bigint CHECK (VALUE > 0);
CREATE TABLE domain_queue (player_id player_number PRIMARY KEY, rating glicko2_rating, queued_at timestamptz);
INSERT INTO domain_queue VALUES (1, glicko2_rating(1500, 60), now()), (2, glicko2_rating(1520, 60), now());
SELECT player_a, player_b, pg_typeof(player_a) FROM glicko2_pair_typed('domain_queue', NULL::bigint);
CREATE TABLE varchar_queue (player_id varchar(10), rating glicko2_rating, queued_at timestamptz);
INSERT INTO varchar_queue VALUES ('x', glicko2_rating(1500, 60), now()), ('y', glicko2_rating(1520, 60), now()),
                                 ('x', glicko2_rating(1600, 60), now());
SELECT * FROM glicko2_pair_typed('varchar_queue', NULL::varchar);
DELETE FROM varchar_queue WHERE (rating).rating = 1600;
SELECT player_a, player_b, pg_typeof(player_a) FROM glicko2_pair_typed('varchar_queue', NULL::varchar);
-- An ids' type other than the key's or text is an error naming both, not a cast.
SELECT * FROM glicko2_pair_typed('domain_queue', NULL::int);
SELECT * FROM glicko2_lobbies_typed('queue', 1, NULL::int);
-- From glicko2_pair and glicko2_lobbies (or a _typed form given NULL::text),
-- ids as text, the key's text form whatever its type: uuid, a domain over
-- bigint, varchar; lobbies alike.
BEGIN;
SELECT player_a, player_b, pg_typeof(player_a) FROM glicko2_pair('uuid_queue');
ROLLBACK;
BEGIN;
SELECT player_a, player_b, pg_typeof(player_a) FROM glicko2_pair_typed('uuid_queue', NULL::text);
ROLLBACK;
BEGIN;
INSERT INTO domain_queue VALUES (11, glicko2_rating(1500, 60), now()), (12, glicko2_rating(1520, 60), now());
SELECT player_a, player_b, pg_typeof(player_a) FROM glicko2_pair('domain_queue', max_gap => NULL);
ROLLBACK;
BEGIN;
INSERT INTO varchar_queue VALUES ('v', glicko2_rating(1500, 60), now()), ('w', glicko2_rating(1520, 60), now());
SELECT player_a, player_b, pg_typeof(player_a) FROM glicko2_pair('varchar_queue');
ROLLBACK;
BEGIN;
SELECT lobby, team, player_id, pg_typeof(player_id) FROM glicko2_lobbies('uuid_queue', 1, 3, max_gap => NULL)
ORDER BY lobby, team;
ROLLBACK;
-- SPEC's argument order: glicko2_pair(queue, max_gap, widen),
-- glicko2_lobbies(queue, team_size, teams, max_gap, ...), positional
-- (every form of call: test matchmaking_calls).
INSERT INTO queue SELECT i, glicko2_rating(1500 + 40 * i, 60), now() FROM generate_series(1, 6) i;
BEGIN;
SELECT player_a, player_b, gap FROM glicko2_pair('queue', 50, 0);
ROLLBACK;
BEGIN;
SELECT lobby, team, string_agg(player_id, ',' ORDER BY player_id) AS players
FROM glicko2_lobbies('queue', 1, 3, 100, 0) GROUP BY lobby, team ORDER BY lobby, team;
ROLLBACK;
-- The text ids are the typed ids' text form, row for row.
BEGIN;
SELECT array_agg(ROW(player_a::text, player_b::text, p_win) ORDER BY player_a)::text AS typed_pairs
FROM glicko2_pair_typed('queue', NULL::bigint) \gset
ROLLBACK;
BEGIN;
SELECT array_agg(ROW(player_a, player_b, p_win) ORDER BY player_a::bigint)::text AS text_pairs
FROM glicko2_pair('queue') \gset
ROLLBACK;
SELECT :'typed_pairs' = :'text_pairs' AS text_is_typed_as_text, :'text_pairs' <> '' AS some_pairs;
DELETE FROM queue;
-- A key type with no order to tell players apart.
CREATE TABLE point_queue (player_id point, rating glicko2_rating, queued_at timestamptz);
SELECT * FROM glicko2_pair_typed('point_queue', NULL::point);
SELECT count(*) AS uuid_players_untouched FROM uuid_queue;
