------------------------------------------------------------------------------
-- The record of closes (glicko2_closes), one row per period closed, and of
-- season resets (glicko2_season_resets, sql/league.sql)
------------------------------------------------------------------------------

-- One row per (ratings table, period) closed.  The primary key makes a
-- period close at most once, and the unique close_number (1, 2, ... per
-- ratings table) makes two closes that saw the same history collide, even
-- where a REPEATABLE READ snapshot could not see the other one.
CREATE TABLE glicko2_closes (
  ratings      regclass    NOT NULL,
  period       text        NOT NULL,
  close_number bigint      NOT NULL CHECK (close_number > 0),
  games_table  regclass    NOT NULL,
  closed_at    timestamptz NOT NULL,
  closed_by    name        NOT NULL,
  players      bigint      NOT NULL CHECK (players >= 0),
  played       bigint      NOT NULL CHECK (played >= 0),
  new_players  bigint      NOT NULL CHECK (new_players >= 0),
  games        bigint      NOT NULL CHECK (games >= 0),
  tau          float8      NOT NULL,
  max_rd       float8,
  unguarded    boolean     NOT NULL DEFAULT false,
  advantage    float8      NOT NULL DEFAULT 0,
  home_column  name,
  min_rating   float8,
  max_change   float8,
  max_volatility float8,
  capped       bigint      NOT NULL DEFAULT 0 CHECK (capped >= 0),
  -- glicko2_close_matches' own options (NULL method: glicko2_close_period),
  -- so that glicko2_recompute closes each period again as it was closed
  method       text        CHECK (method IN ('sum', 'mean', 'individual', 'composite')),
  match_column name,
  match_player_column name,
  team_column  name,
  place_column name,
  weight_column name,
  party_column name,
  party_advantage float8   NOT NULL DEFAULT 0,
  size_advantage float8    NOT NULL DEFAULT 0,
  teammates    regclass,
  teammates_kept boolean   NOT NULL DEFAULT false,
  CHECK ((method IS NULL) = (match_column IS NULL)),
  PRIMARY KEY (ratings, period),
  UNIQUE (ratings, close_number)
);
COMMENT ON TABLE glicko2_closes IS
  'Record of every close (glicko2_close_period, glicko2_close_matches): one row per (ratings table, period), in close order by close_number; dumped by pg_dump';
COMMENT ON COLUMN glicko2_closes.ratings IS 'The ratings table closed';
COMMENT ON COLUMN glicko2_closes.period IS 'The period closed, as text of the games'' period column type';
COMMENT ON COLUMN glicko2_closes.close_number IS '1 for the first close of this ratings table, then 2, 3, ...';
COMMENT ON COLUMN glicko2_closes.games_table IS 'The games table or view (or matches table) the period was read from';
COMMENT ON COLUMN glicko2_closes.closed_at IS 'When the close ran (clock time at its end; it is visible from its commit)';
COMMENT ON COLUMN glicko2_closes.closed_by IS 'The role that ran the close';
COMMENT ON COLUMN glicko2_closes.players IS 'Players moved on by one period: played + idle, new ones included';
COMMENT ON COLUMN glicko2_closes.played IS 'Players with at least one game in the period (new ones included)';
COMMENT ON COLUMN glicko2_closes.new_players IS 'Players added to the ratings table by this close';
COMMENT ON COLUMN glicko2_closes.games IS 'Rows of the games (or matches) table rated';
COMMENT ON COLUMN glicko2_closes.tau IS 'System constant tau used';
COMMENT ON COLUMN glicko2_closes.max_rd IS 'RD cap of idle players (NULL: no cap)';
COMMENT ON COLUMN glicko2_closes.advantage IS 'Home / first-move advantage in rating points given to the side that home_column marked (0: none)';
COMMENT ON COLUMN glicko2_closes.home_column IS 'The games'' boolean column saying which side had the advantage (NULL: none); glicko2_recompute closes again with it';
COMMENT ON COLUMN glicko2_closes.min_rating IS 'Floor of every new rating (NULL: none; a departure from the paper)';
COMMENT ON COLUMN glicko2_closes.max_change IS 'Largest move of one rating in the close (NULL: none; a departure from the paper)';
COMMENT ON COLUMN glicko2_closes.max_volatility IS 'Cap of every new volatility (NULL: none; a departure from the paper)';
COMMENT ON COLUMN glicko2_closes.capped IS 'Ratings a floor or cap changed';
COMMENT ON COLUMN glicko2_closes.method IS 'The team method of a close by glicko2_close_matches (''sum'', ''mean'', ''individual'', ''composite''); NULL: a close of one-on-one games by glicko2_close_period';
COMMENT ON COLUMN glicko2_closes.match_column IS 'glicko2_close_matches: the matches'' match id column (NULL: a close by glicko2_close_period)';
COMMENT ON COLUMN glicko2_closes.match_player_column IS 'glicko2_close_matches: the matches'' player column';
COMMENT ON COLUMN glicko2_closes.team_column IS 'glicko2_close_matches: the matches'' team column';
COMMENT ON COLUMN glicko2_closes.place_column IS 'glicko2_close_matches: the matches'' place column';
COMMENT ON COLUMN glicko2_closes.weight_column IS 'glicko2_close_matches: the weight (play share) column read (NULL: none, every share 1)';
COMMENT ON COLUMN glicko2_closes.party_column IS 'glicko2_close_matches: the party column (NULL: none)';
COMMENT ON COLUMN glicko2_closes.party_advantage IS 'glicko2_close_matches: points a party member added to his team (0: none)';
COMMENT ON COLUMN glicko2_closes.size_advantage IS 'glicko2_close_matches: points per team member beyond one (0: none)';
COMMENT ON COLUMN glicko2_closes.teammates IS 'glicko2_close_matches: the teammates store read and rewritten (NULL: none)';
COMMENT ON COLUMN glicko2_closes.teammates_kept IS 'glicko2_close_matches: the store''s pairs after the close were kept in glicko2_teammates_history (a store and a history table given)';
COMMENT ON COLUMN glicko2_closes.unguarded IS 'Closed with unguarded => true while a table the games were read from had no guard trigger covering the close: a game written later to a closed period may never be rated';

SELECT pg_catalog.pg_extension_config_dump('glicko2_closes', '');

-- Anyone may read the record; a row may be added only by a role that may
-- update the ratings table it names (so nobody can block another's closes).
ALTER TABLE glicko2_closes ENABLE ROW LEVEL SECURITY;
CREATE POLICY glicko2_closes_read ON glicko2_closes FOR SELECT USING (true);
CREATE POLICY glicko2_closes_record ON glicko2_closes FOR INSERT
  WITH CHECK (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
GRANT SELECT, INSERT ON glicko2_closes TO PUBLIC;

-- A dropped ratings table's closes go with it: its ratings are gone, and a
-- table created later with its OID must not find them as its own.  (The
-- guard also ignores closes of a table that no longer exists, should one
-- be dropped while event triggers are off.)  Closes of a dropped games
-- table stay: they are the ratings table's history and keep its periods
-- closed.  Anyone may delete a close whose ratings table no longer exists,
-- as the dropping role no longer has a privilege on it to show.
CREATE POLICY glicko2_closes_forget ON glicko2_closes FOR DELETE
  USING (NOT EXISTS (SELECT FROM pg_catalog.pg_class r WHERE r.oid OPERATOR(pg_catalog.=) ratings::pg_catalog.oid));
COMMENT ON POLICY glicko2_closes_forget ON glicko2_closes IS
  'glicko2_forget_dropped deletes the closes of a dropped ratings table: allowed to every role';
GRANT DELETE ON glicko2_closes TO PUBLIC;

-- The pairs of a teammates store after each close that named a store and a
-- history table (glicko2_close_matches), one row a pair: glicko2_recompute
-- reads them back to roll the store back to the end of the period before,
-- as it reads the ratings back from the history table.  The players' keys
-- are text of the ratings key's type (read back by a cast: exact).
CREATE TABLE glicko2_teammates_history (
  ratings    regclass NOT NULL,
  period     text     NOT NULL,
  teammates  regclass NOT NULL,
  player_a   text     NOT NULL,
  player_b   text     NOT NULL,
  covariance float8   NOT NULL
);
CREATE INDEX glicko2_teammates_history_close ON glicko2_teammates_history (ratings, period);
COMMENT ON TABLE glicko2_teammates_history IS
  'The pairs of every teammates store after each close by glicko2_close_matches that named a store and a history table, one row a pair; glicko2_recompute reads them back; dumped by pg_dump';
COMMENT ON COLUMN glicko2_teammates_history.ratings IS 'The ratings table closed';
COMMENT ON COLUMN glicko2_teammates_history.period IS 'The period closed (glicko2_closes.period)';
COMMENT ON COLUMN glicko2_teammates_history.teammates IS 'The teammates store';
COMMENT ON COLUMN glicko2_teammates_history.player_a IS 'The pair''s first player, as text of the ratings key''s type';
COMMENT ON COLUMN glicko2_teammates_history.player_b IS 'The pair''s second player (player_a < player_b in the key''s type)';
COMMENT ON COLUMN glicko2_teammates_history.covariance IS 'The pair''s covariance after the close (rating points squared)';

SELECT pg_catalog.pg_extension_config_dump('glicko2_teammates_history', '');

-- A role may read the pairs of a store it may read; a close records them
-- (as a role that may update the ratings table and insert into the store,
-- as the close does), and replay and recompute delete those of the closes
-- they redo (as one that may update the ratings table and delete from the
-- store, as they do); the pairs of a dropped ratings table or store may be
-- deleted by anyone (glicko2_forget_dropped).
ALTER TABLE glicko2_teammates_history ENABLE ROW LEVEL SECURITY;
CREATE POLICY glicko2_teammates_history_read ON glicko2_teammates_history FOR SELECT
  USING (pg_catalog.has_table_privilege(teammates::pg_catalog.oid, 'SELECT'));
COMMENT ON POLICY glicko2_teammates_history_read ON glicko2_teammates_history IS
  'Roles that may read a teammates store may read its pairs of earlier periods';
CREATE POLICY glicko2_teammates_history_record ON glicko2_teammates_history FOR INSERT
  WITH CHECK (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE')
              AND pg_catalog.has_table_privilege(teammates::pg_catalog.oid, 'INSERT'));
COMMENT ON POLICY glicko2_teammates_history_record ON glicko2_teammates_history IS
  'glicko2_close_matches records a store''s pairs: allowed to roles that may update the ratings table and insert into the store';
CREATE POLICY glicko2_teammates_history_redo ON glicko2_teammates_history FOR DELETE
  USING (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE')
         AND pg_catalog.has_table_privilege(teammates::pg_catalog.oid, 'DELETE'));
COMMENT ON POLICY glicko2_teammates_history_redo ON glicko2_teammates_history IS
  'glicko2_replay_matches and glicko2_recompute delete the pairs of the closes they redo: allowed to roles that may update the ratings table and delete from the store';
CREATE POLICY glicko2_teammates_history_forget ON glicko2_teammates_history FOR DELETE
  USING (NOT EXISTS (SELECT FROM pg_catalog.pg_class r WHERE r.oid OPERATOR(pg_catalog.=) ratings::pg_catalog.oid)
         OR NOT EXISTS (SELECT FROM pg_catalog.pg_class t WHERE t.oid OPERATOR(pg_catalog.=) teammates::pg_catalog.oid));
COMMENT ON POLICY glicko2_teammates_history_forget ON glicko2_teammates_history IS
  'glicko2_forget_dropped deletes the pairs of a dropped ratings table or store: allowed to every role';
GRANT SELECT, INSERT, DELETE ON glicko2_teammates_history TO PUBLIC;

-- One row per (ratings table, season) reset.  The primary key makes a
-- season reset at most once; the unique reset_number (1, 2, ... per ratings
-- table) makes two resets that saw the same history collide, even where a
-- snapshot could not see the other one; after_close places the reset among
-- the closes of glicko2_closes.
CREATE TABLE glicko2_season_resets (
  ratings      regclass    NOT NULL,
  season       text        NOT NULL,
  reset_number bigint      NOT NULL CHECK (reset_number > 0),
  after_close  bigint      NOT NULL CHECK (after_close >= 0),
  after_period text,
  reset_at     timestamptz NOT NULL,
  reset_by     name        NOT NULL,
  players      bigint      NOT NULL CHECK (players >= 0),
  raised       bigint      NOT NULL CHECK (raised >= 0),
  mean         float8,
  keep         float8      NOT NULL CHECK (keep >= 0 AND keep <= 1),
  rd           float8      NOT NULL CHECK (rd >= 0),
  volatility   float8,
  toward       float8,
  history      regclass,
  PRIMARY KEY (ratings, season),
  UNIQUE (ratings, reset_number)
);
COMMENT ON TABLE glicko2_season_resets IS
  'Record of every season reset (glicko2_season_reset): one row per (ratings table, season), in order by reset_number, placed among the closes of glicko2_closes by after_close; dumped by pg_dump';
COMMENT ON COLUMN glicko2_season_resets.ratings IS 'The ratings table reset';
COMMENT ON COLUMN glicko2_season_resets.season IS 'The season that ended, as text of the season argument''s type';
COMMENT ON COLUMN glicko2_season_resets.reset_number IS '1 for the first reset of this ratings table, then 2, 3, ...';
COMMENT ON COLUMN glicko2_season_resets.after_close IS 'close_number in glicko2_closes of the last close of this ratings table before the reset (0: none); the next close rates from the reset ratings';
COMMENT ON COLUMN glicko2_season_resets.after_period IS 'The period of that close (NULL: none)';
COMMENT ON COLUMN glicko2_season_resets.reset_at IS 'When the reset ran (clock time at its end; it is visible from its commit)';
COMMENT ON COLUMN glicko2_season_resets.reset_by IS 'The role that ran the reset';
COMMENT ON COLUMN glicko2_season_resets.players IS 'Ratings reset: every non-NULL rating of the table';
COMMENT ON COLUMN glicko2_season_resets.raised IS 'Ratings whose RD was below rd and raised to it';
COMMENT ON COLUMN glicko2_season_resets.mean IS 'The rating every rating was pulled toward: toward, or else the mean of the non-NULL ratings before the reset (NULL: there were none)';
COMMENT ON COLUMN glicko2_season_resets.keep IS 'Share of each rating''s distance from mean kept (1: unchanged, 0: at mean)';
COMMENT ON COLUMN glicko2_season_resets.rd IS 'RD raised to at least this';
COMMENT ON COLUMN glicko2_season_resets.volatility IS 'Volatility every rating was set to (NULL: kept)';
COMMENT ON COLUMN glicko2_season_resets.toward IS 'The fixed rating pulled toward, if given (NULL: the league''s mean)';
COMMENT ON COLUMN glicko2_season_resets.history IS 'The table the season''s final ratings were written to (NULL: none)';

SELECT pg_catalog.pg_extension_config_dump('glicko2_season_resets', '');

-- As glicko2_closes: anyone may read; a row may be added only by a role that
-- may update the ratings table it names; the rows of a dropped ratings
-- table may be deleted by anyone (glicko2_forget_dropped).
ALTER TABLE glicko2_season_resets ENABLE ROW LEVEL SECURITY;
CREATE POLICY glicko2_season_resets_read ON glicko2_season_resets FOR SELECT USING (true);
COMMENT ON POLICY glicko2_season_resets_read ON glicko2_season_resets IS
  'Every role may read the record of resets';
CREATE POLICY glicko2_season_resets_record ON glicko2_season_resets FOR INSERT
  WITH CHECK (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
COMMENT ON POLICY glicko2_season_resets_record ON glicko2_season_resets IS
  'glicko2_season_reset records a reset: allowed to roles that may update the ratings table';
CREATE POLICY glicko2_season_resets_forget ON glicko2_season_resets FOR DELETE
  USING (NOT EXISTS (SELECT FROM pg_catalog.pg_class r WHERE r.oid OPERATOR(pg_catalog.=) ratings::pg_catalog.oid));
COMMENT ON POLICY glicko2_season_resets_forget ON glicko2_season_resets IS
  'glicko2_forget_dropped deletes the resets of a dropped ratings table: allowed to every role';
GRANT SELECT, INSERT, DELETE ON glicko2_season_resets TO PUBLIC;

CREATE FUNCTION glicko2_internal.glicko2_forget_dropped()
  RETURNS event_trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  -- (Citus's own commands on its shards: see glicko2_citus_internal)
  IF glicko2_internal.glicko2_citus_internal() THEN
    RETURN;
  END IF;
  DELETE FROM @extschema@.glicko2_closes c
  WHERE c.ratings::oid IN (SELECT d.objid FROM pg_event_trigger_dropped_objects() d
                           WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0
                             AND d.object_type IN ('table', 'foreign table'));
  DELETE FROM @extschema@.glicko2_season_resets s
  WHERE s.ratings::oid IN (SELECT d.objid FROM pg_event_trigger_dropped_objects() d
                           WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0
                             AND d.object_type IN ('table', 'foreign table'));
  DELETE FROM @extschema@.glicko2_teammates_history t
  WHERE t.ratings::oid IN (SELECT d.objid FROM pg_event_trigger_dropped_objects() d
                           WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0
                             AND d.object_type IN ('table', 'foreign table'))
     OR t.teammates::oid IN (SELECT d.objid FROM pg_event_trigger_dropped_objects() d
                             WHERE d.classid = 'pg_class'::regclass AND d.objsubid = 0
                               AND d.object_type = 'table');
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_forget_dropped() IS
  'Event trigger function (sql_drop): deletes from glicko2_closes and glicko2_season_resets the closes and resets of every dropped ratings table, and from glicko2_teammates_history the pairs of every dropped ratings table or teammates store';
CREATE EVENT TRIGGER glicko2_forget_dropped ON sql_drop
  EXECUTE FUNCTION glicko2_internal.glicko2_forget_dropped();
COMMENT ON EVENT TRIGGER glicko2_forget_dropped IS
  'Deletes the closes, season resets and kept teammates pairs of dropped ratings tables (and the kept pairs of dropped stores) (glicko2_forget_dropped)';
