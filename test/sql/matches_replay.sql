-- matches_replay: glicko2_replay_matches and glicko2_recompute on leagues
-- closed with glicko2_close_matches.  The record keeps each matches close's
-- method, columns, advantages and teammates store, and a close with a store
-- and a history keeps the store's pairs (glicko2_teammates_history); a
-- replay equals the closes bit for bit (ratings, history, store); a
-- recompute after a match of a closed period changed equals a league closed
-- from scratch on the corrected matches, bit for bit, the store put back as
-- kept after the period before (or, not kept, rebuilt from its first
-- close); a mixed league (games and matches) closes each period again with
-- its own close; a recompute that fails half way changes nothing; bad input
-- is named.  In a schema of its own, removed at the end with its records.
CREATE SCHEMA matches_replay;
SET search_path = matches_replay, public;
\set VERBOSITY terse
CREATE FUNCTION try(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE statement;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
-- Rows of a and b that the other lacks (0: the same rows, bit for bit:
-- float8 compares exactly).
CREATE FUNCTION differ(a regclass, b regclass) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  EXECUTE format('SELECT count(*) FROM ((TABLE %1$s EXCEPT ALL TABLE %2$s) UNION ALL (TABLE %2$s EXCEPT ALL TABLE %1$s)) x',
                 a, b) INTO n;
  RETURN n;
END
$$;

-- A seeded league of 4 periods: 18 players; trio 1-3 and duo 4-5 queue
-- together (a party), the others are seated by a hash; 6 matches a period
-- of two teams of 3; player 18 joins in period 3; weights below 1 for a few.
CREATE TABLE m (match_id int, period int, player_id int, team int, place int, weight float8, party int);
INSERT INTO m
SELECT x.match_id, x.period, x.player_id, x.team,
       CASE WHEN (x.team = 1) = (abs(hashint4(x.match_id * 7)) % 3 > 0) THEN 1 ELSE 2 END,
       CASE WHEN abs(hashint4(x.match_id * 31 + x.player_id)) % 9 = 0 THEN 0.5 ELSE 1 END,
       CASE WHEN x.player_id <= 3 THEN 1 WHEN x.player_id <= 5 THEN 2 END
FROM (SELECT mt AS match_id, 1 + (mt - 1) / 6 AS period, s.player_id,
             CASE WHEN s.slot <= 3 THEN 1 ELSE 2 END AS team
      FROM generate_series(1, 24) mt,
           LATERAL (SELECT p AS player_id, row_number() OVER (ORDER BY
                      CASE WHEN p <= 3 THEN 0 WHEN p <= 5 THEN 1 ELSE 2 END,
                      hashint4(p * 1000 + mt)) AS slot
                    FROM generate_series(1, 18) p
                    WHERE (p < 18 OR mt > 12) AND (p > 3 OR mt % 2 = 0)) s
      WHERE s.slot <= 6) x;
SELECT period, count(DISTINCT match_id) AS matches, count(*) AS rows, count(DISTINCT player_id) AS players,
       count(*) FILTER (WHERE weight < 1) AS partial
FROM m GROUP BY period ORDER BY period;
CALL glicko2_guard_games('m');

-- 1. The league as it ran: a store, the 'mean' method, parties with an edge,
-- tau and max_rd of its own, a history.
CREATE TABLE r (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('s', 'r');
DO $$
BEGIN
  FOR p IN 1..4 LOOP
    CALL glicko2_close_matches('r', 'm', p, method => 'mean', tau => 0.4, max_rd => 300, history => 'h',
                               party_column => 'party', party_advantage => 30, size_advantage => 10,
                               teammates => 's');
  END LOOP;
END $$;
SELECT count(*) AS players FROM r;
SELECT count(*) AS pairs, count(*) FILTER (WHERE player_a <= 3 AND player_b <= 3) AS trio_pairs FROM s;
-- what the record keeps of a matches close
SELECT period, close_number, games_table, method, tau, max_rd, match_column, match_player_column, team_column,
       place_column, weight_column, party_column, party_advantage, size_advantage, teammates
FROM glicko2_closes WHERE ratings = 'r'::regclass ORDER BY close_number;
CREATE TABLE r_closed AS TABLE r;
CREATE TABLE h_closed AS TABLE h;
CREATE TABLE s_closed AS TABLE s;
-- the store's pairs kept after every period; the last ones are the store
SELECT period, count(*) AS pairs_kept FROM glicko2_teammates_history
WHERE ratings = 'r'::regclass AND teammates = 's'::regclass GROUP BY period ORDER BY period;
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE t.covariance = s.covariance) AS same_bits
FROM s JOIN glicko2_teammates_history t
  ON t.ratings = 'r'::regclass AND t.period = '4' AND t.player_a = s.player_a::text AND t.player_b = s.player_b::text;
SELECT teammates_kept, count(*) FROM glicko2_closes WHERE ratings = 'r'::regclass GROUP BY 1;
CREATE TABLE kept_closed AS SELECT period, teammates, player_a, player_b, covariance
FROM glicko2_teammates_history WHERE ratings = 'r'::regclass;
CREATE TABLE rec_closed AS
  SELECT period, close_number, games_table, players, played, new_players, games, tau, max_rd, unguarded,
         method, match_column, match_player_column, team_column, place_column, weight_column, party_column,
         party_advantage, size_advantage, teammates
  FROM glicko2_closes WHERE ratings = 'r'::regclass;

-- 2. glicko2_replay_matches with the same arguments gives the same ratings,
-- history, store and record, bit for bit (from nothing: a stray rating, a
-- history row and a pair are emptied first).
INSERT INTO r VALUES (99, glicko2_rating(2000, 50));
INSERT INTO h VALUES (99, 0, glicko2_rating(2000, 50));
INSERT INTO s VALUES (1, 99, 100);
CALL glicko2_replay_matches('r', 'm', method => 'mean', tau => 0.4, max_rd => 300, history => 'h',
                            party_column => 'party', party_advantage => 30, size_advantage => 10,
                            teammates => 's');
SELECT differ('r', 'r_closed') AS ratings_differ, differ('h', 'h_closed') AS history_differ,
       differ('s', 's_closed') AS store_differs, (SELECT count(*) FROM h) AS history_rows;
CREATE TABLE rec_replayed AS
  SELECT period, close_number, games_table, players, played, new_players, games, tau, max_rd, unguarded,
         method, match_column, match_player_column, team_column, place_column, weight_column, party_column,
         party_advantage, size_advantage, teammates
  FROM glicko2_closes WHERE ratings = 'r'::regclass;
SELECT differ('rec_replayed', 'rec_closed') AS records_differ;
CREATE TABLE kept_replayed AS SELECT period, teammates, player_a, player_b, covariance
FROM glicko2_teammates_history WHERE ratings = 'r'::regclass;
SELECT differ('kept_replayed', 'kept_closed') AS kept_pairs_differ;
-- through: the league after period 2 only, store included
CREATE TABLE r2 (player_id int PRIMARY KEY, rating glicko2_rating);
CALL glicko2_teammates_create('s2', 'r2');
CALL glicko2_close_matches('r2', 'm', 1, method => 'mean', tau => 0.4, max_rd => 300, party_column => 'party',
                           party_advantage => 30, size_advantage => 10, teammates => 's2');
CALL glicko2_close_matches('r2', 'm', 2, method => 'mean', tau => 0.4, max_rd => 300, party_column => 'party',
                           party_advantage => 30, size_advantage => 10, teammates => 's2');
CREATE TABLE r2_closed AS TABLE r2;
CREATE TABLE s2_closed AS TABLE s2;
CALL glicko2_replay_matches('r2', 'm', method => 'mean', tau => 0.4, max_rd => 300, through => '2',
                            party_column => 'party', party_advantage => 30, size_advantage => 10,
                            teammates => 's2');
SELECT differ('r2', 'r2_closed') AS ratings_differ, differ('s2', 's2_closed') AS store_differs,
       (SELECT max(period) FROM glicko2_closes WHERE ratings = 'r2'::regclass) AS last_closed;

-- 3. A match of period 2 had its result wrong: the places are swapped, then
-- periods 2-4 are recomputed; the store goes back to its pairs kept after
-- period 1.
CREATE TABLE closed_at_r AS SELECT period, closed_at FROM glicko2_closes WHERE ratings = 'r'::regclass;
BEGIN;
ALTER TABLE m DISABLE TRIGGER refuse_closed_games;
UPDATE m SET place = 3 - place WHERE match_id = 8;
ALTER TABLE m ENABLE TRIGGER refuse_closed_games;
CALL glicko2_recompute('r', 'm', 2, 'h');
COMMIT;
-- A league closed from scratch on the corrected matches.
CREATE TABLE f (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE fh (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('fs', 'f');
DO $$
BEGIN
  FOR p IN 1..4 LOOP
    CALL glicko2_close_matches('f', 'm', p, method => 'mean', tau => 0.4, max_rd => 300, history => 'fh',
                               party_column => 'party', party_advantage => 30, size_advantage => 10,
                               teammates => 'fs');
  END LOOP;
END $$;
SELECT differ('r', 'f') AS ratings_differ, differ('h', 'fh') AS history_differ,
       differ('s', 'fs') AS store_differs,
       differ('r', 'r_closed') > 0 AS ratings_changed, differ('s', 's_closed') > 0 AS store_changed,
       (SELECT array_agg(c.period ORDER BY c.period) FROM glicko2_closes c JOIN closed_at_r o USING (period)
        WHERE c.ratings = 'r'::regclass AND c.closed_at = o.closed_at) AS periods_not_closed_again;
SELECT (SELECT count(*) FROM glicko2_teammates_history WHERE ratings = 'r'::regclass) AS pairs_kept,
       (SELECT count(*) FROM glicko2_teammates_history a JOIN glicko2_teammates_history b
          USING (period, player_a, player_b, covariance)
        WHERE a.ratings = 'r'::regclass AND b.ratings = 'f'::regclass) AS same_as_from_scratch;
SELECT a.period, a.close_number, a.method, a.teammates,
       (a.players, a.played, a.new_players, a.games, a.tau, a.max_rd, a.party_advantage, a.size_advantage)
       = (b.players, b.played, b.new_players, b.games, b.tau, b.max_rd, b.party_advantage, b.size_advantage)
         AS same_record
FROM glicko2_closes a JOIN glicko2_closes b USING (period)
WHERE a.ratings = 'r'::regclass AND b.ratings = 'f'::regclass ORDER BY a.close_number;

-- 4. A store first named at period 2 (period 1 closed without it): a
-- recompute from period 3 puts back its pairs after period 2, one from
-- period 2 empties it.
CREATE TABLE r4 (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h4 (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('s4', 'r4');
CALL glicko2_close_matches('r4', 'm', 1, history => 'h4');
CALL glicko2_close_matches('r4', 'm', 2, history => 'h4', teammates => 's4');
CALL glicko2_close_matches('r4', 'm', 3, history => 'h4', teammates => 's4');
CALL glicko2_close_matches('r4', 'm', 4, history => 'h4', teammates => 's4');
CREATE TABLE r4_closed AS TABLE r4;
CREATE TABLE h4_closed AS TABLE h4;
CREATE TABLE s4_closed AS TABLE s4;
CREATE TABLE closed_at_4 AS SELECT period, closed_at FROM glicko2_closes WHERE ratings = 'r4'::regclass;
CALL glicko2_recompute('r4', 'm', 3, 'h4');
SELECT differ('r4', 'r4_closed') AS ratings_differ, differ('h4', 'h4_closed') AS history_differ,
       differ('s4', 's4_closed') AS store_differs,
       (SELECT array_agg(c.period ORDER BY c.period) FROM glicko2_closes c JOIN closed_at_4 o USING (period)
        WHERE c.ratings = 'r4'::regclass AND c.closed_at = o.closed_at) AS periods_not_closed_again;
CALL glicko2_recompute('r4', 'm', 2, 'h4');
SELECT differ('r4', 'r4_closed') AS ratings_differ, differ('h4', 'h4_closed') AS history_differ,
       differ('s4', 's4_closed') AS store_differs;
-- A league closed without a history table kept no pairs: the recompute
-- (given a history table now) rebuilds the store from its first close,
-- period 1, and says so; the same bits.
CREATE TABLE r7 (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h7 (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('s7', 'r7');
DO $$
BEGIN
  FOR p IN 1..4 LOOP
    CALL glicko2_close_matches('r7', 'm', p, teammates => 's7');
  END LOOP;
END $$;
CREATE TABLE r7_closed AS TABLE r7;
CREATE TABLE s7_closed AS TABLE s7;
CALL glicko2_recompute('r7', 'm', 3, 'h7');
SELECT differ('r7', 'r7_closed') AS ratings_differ, differ('s7', 's7_closed') AS store_differs,
       (SELECT count(DISTINCT period) FROM h7) AS history_periods,
       (SELECT array_agg(DISTINCT period ORDER BY period) FROM glicko2_teammates_history
        WHERE ratings = 'r7'::regclass) AS kept_now;
-- without a store, a matches league recomputes from the period asked
CREATE TABLE r5 (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h5 (player_id int, period int, rating glicko2_rating);
DO $$
BEGIN
  FOR p IN 1..4 LOOP
    CALL glicko2_close_matches('r5', 'm', p, method => 'individual', history => 'h5', weight_column => 'weight');
  END LOOP;
END $$;
CREATE TABLE r5_closed AS TABLE r5;
CREATE TABLE h5_closed AS TABLE h5;
CREATE TABLE closed_at_5 AS SELECT period, closed_at FROM glicko2_closes WHERE ratings = 'r5'::regclass;
CALL glicko2_recompute('r5', 'm', 3, 'h5');
SELECT differ('r5', 'r5_closed') AS ratings_differ, differ('h5', 'h5_closed') AS history_differ,
       (SELECT array_agg(c.period ORDER BY c.period) FROM glicko2_closes c JOIN closed_at_5 o USING (period)
        WHERE c.ratings = 'r5'::regclass AND c.closed_at = o.closed_at) AS periods_not_closed_again;

-- 5. A mixed league: periods 1-2 of one-on-one games (glicko2_close_period,
-- with a home advantage), periods 3-4 of matches with a store.  A game of
-- period 2 is annulled: the recompute closes period 2 with
-- glicko2_close_period from the games and periods 3-4 with
-- glicko2_close_matches from the matches, as a league closed from scratch.
CREATE TABLE g (period int, player_id int, opponent_id int, score float8, home boolean);
INSERT INTO g
SELECT 1 + k % 2, 1 + abs(hashint4(k)) % 17, 1 + abs(hashint4(k + 500)) % 17,
       (abs(hashint4(k + 900)) % 3) / 2.0, k % 3 = 0
FROM generate_series(1, 60) k;
DELETE FROM g WHERE player_id = opponent_id;
CALL glicko2_guard_games('g');
CREATE PROCEDURE close_mixed(ratings regclass, history regclass, store regclass) LANGUAGE plpgsql AS $$
BEGIN
  CALL glicko2_close_period(ratings, 'g', 1, history => history, advantage => 40, home_column => 'home');
  CALL glicko2_close_period(ratings, 'g', 2, history => history, advantage => 40, home_column => 'home');
  CALL glicko2_close_matches(ratings, 'm', 3, history => history, teammates => store, party_column => 'party');
  CALL glicko2_close_matches(ratings, 'm', 4, history => history, teammates => store, party_column => 'party');
END
$$;
CREATE TABLE x (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE xh (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('xs', 'x');
CALL close_mixed('x', 'xh', 'xs');
SELECT period, games_table, method, advantage, home_column, party_column, teammates
FROM glicko2_closes WHERE ratings = 'x'::regclass ORDER BY close_number;
SELECT try($$CALL glicko2_recompute('x', 'm', 2, 'xh')$$) AS wrong_table;
BEGIN;
ALTER TABLE g DISABLE TRIGGER refuse_closed_games;
DELETE FROM g WHERE period = 2 AND 7 IN (player_id, opponent_id);
ALTER TABLE g ENABLE TRIGGER refuse_closed_games;
CALL glicko2_recompute('x', 'g', 2, 'xh');
COMMIT;
CREATE TABLE xf (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE xfh (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('xfs', 'xf');
CALL close_mixed('xf', 'xfh', 'xfs');
SELECT differ('x', 'xf') AS ratings_differ, differ('xh', 'xfh') AS history_differ,
       differ('xs', 'xfs') AS store_differs, (SELECT count(*) FROM xs) AS pairs;

-- 6. All or nothing: a bad row in period 4 (a NULL place) makes the
-- recompute fail at its last close; ratings, history, store, record and
-- kept pairs are as before.
CREATE TABLE r_before AS TABLE r;
CREATE TABLE h_before AS TABLE h;
CREATE TABLE s_before AS TABLE s;
CREATE TABLE rec_before AS SELECT * FROM glicko2_closes WHERE ratings = 'r'::regclass;
CREATE TABLE kept_before AS SELECT * FROM glicko2_teammates_history WHERE ratings = 'r'::regclass;
ALTER TABLE m DISABLE TRIGGER refuse_closed_games;
UPDATE m SET place = NULL WHERE match_id = 20 AND player_id = (SELECT min(player_id) FROM m WHERE match_id = 20);
ALTER TABLE m ENABLE TRIGGER refuse_closed_games;
SELECT try($$CALL glicko2_recompute('r', 'm', 2, 'h')$$) AS bad_row_in_period_4;
SELECT differ('r', 'r_before') AS ratings_differ, differ('h', 'h_before') AS history_differ,
       differ('s', 's_before') AS store_differs,
       (SELECT count(*) FROM glicko2_closes c JOIN rec_before b USING (ratings, period, close_number, closed_at)
        WHERE c.ratings = 'r'::regclass) AS records_kept,
       (SELECT count(*) FROM ((SELECT * FROM glicko2_teammates_history WHERE ratings = 'r'::regclass
                               EXCEPT ALL TABLE kept_before)
                              UNION ALL (TABLE kept_before EXCEPT ALL
                                         SELECT * FROM glicko2_teammates_history WHERE ratings = 'r'::regclass)) x)
         AS kept_pairs_differ;
SELECT try($$CALL glicko2_replay_matches('r', 'm', method => 'mean', history => 'h', teammates => 's')$$) AS replay_bad_row;
SELECT differ('r', 'r_before') AS ratings_differ, differ('s', 's_before') AS store_differs;
ALTER TABLE m DISABLE TRIGGER refuse_closed_games;
UPDATE m SET place = 1 WHERE place IS NULL;
ALTER TABLE m ENABLE TRIGGER refuse_closed_games;

-- 7. Bad input, named, nothing changed.
CREATE TABLE other (player_id int PRIMARY KEY, rating glicko2_rating);
-- a store of another league: the close refuses it, naming its owner
CREATE TABLE s4_before AS TABLE s4;
SELECT try($$CALL glicko2_close_matches('other', 'm', 1, teammates => 's4')$$) AS store_of_another_close,
       (SELECT count(*) FROM other) AS other_rated, differ('s4', 's4_before') AS store_differs;
-- and so do replay and recompute, which would empty it (a store whose
-- creation names another ratings table; s4's closes name r4)
CALL glicko2_teammates_create('s_other', 'other');
SELECT try($$CALL glicko2_replay_matches('r4', 'm', teammates => 's_other')$$) AS shared_store_replay;
COMMENT ON TABLE s4 IS 'glicko2 teammates store of matches_replay.other: the covariance (rating points squared) of pairs of recurring teammates';
SELECT try($$CALL glicko2_recompute('r4', 'm', 3, 'h4')$$) AS shared_store_recompute;
SELECT differ('s4', 's4_before') AS store_differs;
SELECT try($$CALL glicko2_replay_matches(NULL, 'm')$$) AS null_ratings,
       try($$CALL glicko2_replay_matches('r', 'm', method => NULL)$$) AS null_method,
       try($$CALL glicko2_replay_matches('r', 'm', method => 'elo')$$) AS bad_method;
SELECT try($$CALL glicko2_replay_matches('r', 'm', method => 'individual', teammates => 's')$$) AS store_individual,
       try($$CALL glicko2_replay_matches('r', 'm', team_column => 'side')$$) AS no_column,
       try($$CALL glicko2_replay_matches('r', 'm', party_advantage => 'NaN')$$) AS nan_advantage,
       try($$CALL glicko2_replay_matches('r', 'm', teammates => 'r5')$$) AS not_a_store,
       try($$CALL glicko2_replay_matches('r', 'g')$$) AS games_not_matches;
SELECT try($$CALL glicko2_replay('r', 'm')$$) AS replay_of_games_on_matches;
SELECT differ('r', 'r_before') AS ratings_differ, differ('h', 'h_before') AS history_differ,
       differ('s', 's_before') AS store_differs;
-- a recorded store dropped since: the recompute cannot rebuild it
CREATE TABLE r6 (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h6 (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('s6', 'r6');
CALL glicko2_close_matches('r6', 'm', 1, history => 'h6', teammates => 's6');
CALL glicko2_close_matches('r6', 'm', 2, history => 'h6', teammates => 's6');
SELECT count(*) AS pairs_kept FROM glicko2_teammates_history WHERE teammates = 's6'::regclass;
DROP TABLE s6;   -- its kept pairs go with it
SELECT count(*) AS pairs_kept FROM glicko2_teammates_history WHERE ratings = 'r6'::regclass;
SELECT regexp_replace(try($$CALL glicko2_recompute('r6', 'm', 2, 'h6')$$), 'OID [0-9]+', 'OID n') AS dropped_store;

-- 9. A season reset between periods 2 and 3 of a league with a store: a
-- recompute from period 2 or 3 and a replay apply it again at its place,
-- the same bits.
CREATE TABLE r8 (player_id int PRIMARY KEY, rating glicko2_rating);
CREATE TABLE h8 (player_id int, period int, rating glicko2_rating);
CALL glicko2_teammates_create('s8', 'r8');
CALL glicko2_close_matches('r8', 'm', 1, history => 'h8', teammates => 's8');
CALL glicko2_close_matches('r8', 'm', 2, history => 'h8', teammates => 's8');
CALL glicko2_season_reset('r8', 1, keep => 0.5, rd => 250);
CALL glicko2_close_matches('r8', 'm', 3, history => 'h8', teammates => 's8');
CALL glicko2_close_matches('r8', 'm', 4, history => 'h8', teammates => 's8');
CREATE TABLE r8_closed AS TABLE r8;
CREATE TABLE h8_closed AS TABLE h8;
CREATE TABLE s8_closed AS TABLE s8;
CALL glicko2_recompute('r8', 'm', 3, 'h8');
SELECT differ('r8', 'r8_closed') AS ratings_differ, differ('h8', 'h8_closed') AS history_differ,
       differ('s8', 's8_closed') AS store_differs;
CALL glicko2_recompute('r8', 'm', 2, 'h8');
SELECT differ('r8', 'r8_closed') AS ratings_differ, differ('h8', 'h8_closed') AS history_differ,
       differ('s8', 's8_closed') AS store_differs;
CALL glicko2_replay_matches('r8', 'm', history => 'h8', teammates => 's8');
SELECT differ('r8', 'r8_closed') AS ratings_differ, differ('h8', 'h8_closed') AS history_differ,
       differ('s8', 's8_closed') AS store_differs,
       (SELECT format('%s after close %s (period %s)', season, after_close, after_period)
        FROM glicko2_season_resets WHERE ratings = 'r8'::regclass) AS reset;
-- (without the reset the league would differ: it is not a no-op here)
CREATE TABLE r9 (player_id int PRIMARY KEY, rating glicko2_rating);
CALL glicko2_teammates_create('s9', 'r9');
CALL glicko2_replay_matches('r9', 'm', teammates => 's9');
SELECT differ('r9', 'r8') > 0 AS reset_matters;

-- 8. Row-level security of the kept pairs: a role sees the pairs of a store
-- it may read; it records pairs if it may update the ratings and insert into
-- the store, deletes them if it may update the ratings and delete from it.
CREATE ROLE regress_matches_replay_reader;
GRANT USAGE ON SCHEMA matches_replay TO regress_matches_replay_reader;
SET ROLE regress_matches_replay_reader;
SELECT count(*) AS pairs_seen_without_select FROM glicko2_teammates_history WHERE ratings = 'matches_replay.r'::regclass;
RESET ROLE;
GRANT SELECT ON matches_replay.s TO regress_matches_replay_reader;
SET ROLE regress_matches_replay_reader;
SELECT count(*) AS pairs_seen_with_select FROM glicko2_teammates_history WHERE ratings = 'matches_replay.r'::regclass;
DELETE FROM glicko2_teammates_history WHERE ratings = 'matches_replay.r'::regclass;
SELECT try($$INSERT INTO glicko2_teammates_history VALUES ('matches_replay.r', '9', 'matches_replay.s', '1', '2', 0)$$)
  AS insert_without_update;
RESET ROLE;
-- Recording a pair is writing the store (glicko2_recompute copies kept pairs
-- back into it): INSERT on the store, with UPDATE on the ratings; deleting
-- kept pairs is deleting from it: DELETE on the store (UPDATE on the store
-- alone gives neither).
GRANT UPDATE ON matches_replay.r, matches_replay.s TO regress_matches_replay_reader;
INSERT INTO glicko2_teammates_history VALUES ('matches_replay.r', '9', 'matches_replay.s', '1', '3', 0);
SET ROLE regress_matches_replay_reader;
SELECT try($$INSERT INTO glicko2_teammates_history VALUES ('matches_replay.r', '9', 'matches_replay.s', '1', '2', 0)$$)
  AS insert_with_update_on_store;
WITH d AS (DELETE FROM glicko2_teammates_history WHERE ratings = 'matches_replay.r'::regclass AND period = '9' RETURNING 1)
SELECT count(*) AS deleted_with_update_on_store FROM d;
RESET ROLE;
REVOKE UPDATE ON matches_replay.s FROM regress_matches_replay_reader;
GRANT INSERT, DELETE ON matches_replay.s TO regress_matches_replay_reader;
SET ROLE regress_matches_replay_reader;
SELECT try($$INSERT INTO glicko2_teammates_history VALUES ('matches_replay.r', '9', 'matches_replay.s', '1', '2', 0)$$)
  AS insert_with_insert_on_store;
WITH d AS (DELETE FROM glicko2_teammates_history WHERE ratings = 'matches_replay.r'::regclass AND period = '9' RETURNING 1)
SELECT count(*) AS deleted_with_delete_on_store FROM d;
RESET ROLE;
REVOKE UPDATE ON matches_replay.r FROM regress_matches_replay_reader;
SET ROLE regress_matches_replay_reader;
SELECT try($$INSERT INTO glicko2_teammates_history VALUES ('matches_replay.r', '9', 'matches_replay.s', '1', '2', 0)$$)
  AS insert_without_update_on_ratings;
RESET ROLE;
SELECT count(*) AS pairs_kept FROM glicko2_teammates_history WHERE ratings = 'matches_replay.r'::regclass;
DROP OWNED BY regress_matches_replay_reader;
DROP ROLE regress_matches_replay_reader;

RESET search_path;
DELETE FROM glicko2_closes WHERE ratings::text LIKE 'matches_replay.%';
DELETE FROM glicko2_teammates_history WHERE ratings::text LIKE 'matches_replay.%';
DELETE FROM glicko2_season_resets WHERE ratings::text LIKE 'matches_replay.%';
SET client_min_messages = warning;
DROP SCHEMA matches_replay CASCADE;
RESET client_min_messages;
