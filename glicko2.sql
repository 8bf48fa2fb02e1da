\echo Use "CREATE EXTENSION glicko2" to load this file. \quit

-- glicko2: Glicko-2 and Glicko-1 ratings (Glickman, "Example of the Glicko-2
-- system", 2022).  Ratings are stored on the public scale (1500 / 350).

------------------------------------------------------------------------------
-- Types and constructors
------------------------------------------------------------------------------

CREATE TYPE glicko2_rating AS (rating float8, rd float8, volatility float8);
COMMENT ON TYPE glicko2_rating IS
  'A Glicko-2 rating on the public scale: rating, rating deviation (RD) and volatility';

CREATE TYPE glicko1_rating AS (rating float8, rd float8);
COMMENT ON TYPE glicko1_rating IS
  'An original Glicko (Glicko-1) rating: rating and rating deviation (RD)';

CREATE FUNCTION glicko2_rating(rating float8 DEFAULT 1500, rd float8 DEFAULT 350,
                               volatility float8 DEFAULT 0.06)
  RETURNS glicko2_rating
  AS 'MODULE_PATHNAME', 'glicko2_rating_make'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_rating(float8, float8, float8) IS
  'A checked Glicko-2 rating; the defaults are the paper''s unrated player (1500, 350, 0.06)';

CREATE FUNCTION glicko1_rating(rating float8 DEFAULT 1500, rd float8 DEFAULT 350)
  RETURNS glicko1_rating
  AS 'MODULE_PATHNAME', 'glicko1_rating_make'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_rating(float8, float8) IS
  'A checked Glicko-1 rating; the defaults are the unrated player (1500, 350)';

------------------------------------------------------------------------------
-- Rating-period aggregates
------------------------------------------------------------------------------

-- Support functions take and return internal, so they cannot be called from SQL.
CREATE FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8) IS
  'Transition function of glicko2_period';

CREATE FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_transfn(internal, glicko2_rating, glicko2_rating, float8, float8) IS
  'Transition function of glicko2_period with tau';

CREATE FUNCTION glicko1_period_transfn(internal, glicko1_rating, glicko1_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko1_period_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_period_transfn(internal, glicko1_rating, glicko1_rating, float8) IS
  'Transition function of glicko1_period';

CREATE FUNCTION glicko_period_combinefn(internal, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko_period_combinefn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_combinefn(internal, internal) IS
  'Combine function of glicko2_period and glicko1_period: adds partial sums';

CREATE FUNCTION glicko_period_serialfn(internal)
  RETURNS bytea AS 'MODULE_PATHNAME', 'glicko_period_serialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_serialfn(internal) IS
  'Serialization function of glicko2_period and glicko1_period';

CREATE FUNCTION glicko_period_deserialfn(bytea, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko_period_deserialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko_period_deserialfn(bytea, internal) IS
  'Deserialization function of glicko2_period and glicko1_period';

CREATE FUNCTION glicko2_period_finalfn(internal)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_period_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_period_finalfn(internal) IS
  'Final function of glicko2_period: the paper''s Steps 2-8';

CREATE FUNCTION glicko1_period_finalfn(internal)
  RETURNS glicko1_rating AS 'MODULE_PATHNAME', 'glicko1_period_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_period_finalfn(internal) IS
  'Final function of glicko1_period: Glicko-1''s update';

-- SSPACE: the 80-byte state as allocated (a 128-byte chunk and its header),
-- for the planner's estimate of a hash aggregate's memory.
CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8) (
  SFUNC = glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 144,
  FINALFUNC = glicko2_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8) IS
  'One player''s Glicko-2 rating after one period''s games (tau 0.5); NULL ratings are unrated players, NULL scores are skipped';

CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8, tau float8) (
  SFUNC = glicko2_period_transfn,
  STYPE = internal,
  SSPACE = 144,
  FINALFUNC = glicko2_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8, float8) IS
  'One player''s Glicko-2 rating after one period''s games with system constant tau';

CREATE AGGREGATE glicko1_period(player glicko1_rating, opponent glicko1_rating, score float8) (
  SFUNC = glicko1_period_transfn,
  STYPE = internal,
  SSPACE = 144,
  FINALFUNC = glicko1_period_finalfn,
  COMBINEFUNC = glicko_period_combinefn,
  SERIALFUNC = glicko_period_serialfn,
  DESERIALFUNC = glicko_period_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko1_period(glicko1_rating, glicko1_rating, float8) IS
  'One player''s Glicko-1 rating after one period''s games; NULL ratings are unrated players, NULL scores are skipped';

------------------------------------------------------------------------------
-- Between periods
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_idle(r glicko2_rating, periods float8 DEFAULT 1,
                             max_rd float8 DEFAULT 350)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_idle_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_idle(glicko2_rating, float8, float8) IS
  'Step 6 alone for periods without games: RD grows as sqrt(phi^2 + t sigma^2) up to max_rd (NULL: no cap)';

-- c = 34.6: Glickman, "The Glicko system", Step 1: an RD of 50 returns to
-- 350 after 100 periods, c = sqrt((350^2 - 50^2) / 100).
CREATE FUNCTION glicko1_idle(r glicko1_rating, periods float8 DEFAULT 1,
                             c float8 DEFAULT 34.6, max_rd float8 DEFAULT 350)
  RETURNS glicko1_rating AS 'MODULE_PATHNAME', 'glicko1_idle_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko1_idle(glicko1_rating, float8, float8, float8) IS
  'Glicko-1 RD growth for periods without games: sqrt(RD^2 + c^2 t) up to max_rd (NULL: no cap); c = 34.6 takes RD 50 to 350 in 100 periods (Glickman)';

------------------------------------------------------------------------------
-- Predictions
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_g(rd float8)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_g_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_g(float8) IS
  'The paper''s g(phi) = 1/sqrt(1 + 3 phi^2/pi^2) for an RD on the public scale: how much an opponent''s uncertainty damps a game';

CREATE FUNCTION glicko2_expected(player glicko2_rating, opponent glicko2_rating)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_expected_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_expected(glicko2_rating, glicko2_rating) IS
  'The paper''s E(mu, mu_j, phi_j): the player''s expected score against the opponent, using the opponent''s RD only';

CREATE FUNCTION glicko2_win_probability(a glicko2_rating, b glicko2_rating)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_win_probability_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_win_probability(glicko2_rating, glicko2_rating) IS
  'Predicted score of a against b counting both players'' uncertainty: E with g(sqrt(phi_a^2 + phi_b^2)); p(a,b) + p(b,a) = 1';

------------------------------------------------------------------------------
-- Closing a period (glicko2_close_period) and the record of closes
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
  PRIMARY KEY (ratings, period),
  UNIQUE (ratings, close_number)
);
COMMENT ON TABLE glicko2_closes IS
  'Record of every glicko2_close_period: one row per (ratings table, period), in close order by close_number; dumped by pg_dump';
COMMENT ON COLUMN glicko2_closes.ratings IS 'The ratings table closed';
COMMENT ON COLUMN glicko2_closes.period IS 'The period closed, as text of the games'' period column type';
COMMENT ON COLUMN glicko2_closes.close_number IS '1 for the first close of this ratings table, then 2, 3, ...';
COMMENT ON COLUMN glicko2_closes.games_table IS 'The games table or view the period was read from';
COMMENT ON COLUMN glicko2_closes.closed_at IS 'When the close ran (clock time at its end; it is visible from its commit)';
COMMENT ON COLUMN glicko2_closes.closed_by IS 'The role that ran the close';
COMMENT ON COLUMN glicko2_closes.players IS 'Players moved on by one period: played + idle, new ones included';
COMMENT ON COLUMN glicko2_closes.played IS 'Players with at least one game in the period (new ones included)';
COMMENT ON COLUMN glicko2_closes.new_players IS 'Players added to the ratings table by this close';
COMMENT ON COLUMN glicko2_closes.games IS 'Games (rows of the games table) rated';
COMMENT ON COLUMN glicko2_closes.tau IS 'System constant tau used';
COMMENT ON COLUMN glicko2_closes.max_rd IS 'RD cap of idle players (NULL: no cap)';

SELECT pg_catalog.pg_extension_config_dump('glicko2_closes', '');

-- Anyone may read the record; a row may be added only by a role that may
-- update the ratings table it names (so nobody can block another's closes).
ALTER TABLE glicko2_closes ENABLE ROW LEVEL SECURITY;
CREATE POLICY glicko2_closes_read ON glicko2_closes FOR SELECT USING (true);
CREATE POLICY glicko2_closes_record ON glicko2_closes FOR INSERT
  WITH CHECK (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
GRANT SELECT, INSERT ON glicko2_closes TO PUBLIC;

-- The type of a column, or an error naming the column and the argument that names it.
CREATE FUNCTION glicko2_column_type(rel regclass, col name, argument text)
  RETURNS regtype
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  t regtype;
BEGIN
  IF col IS NULL THEN
    RAISE EXCEPTION '% must not be NULL', argument USING ERRCODE = '22004';
  END IF;
  SELECT a.atttypid::regtype INTO t
  FROM pg_attribute a
  WHERE a.attrelid = rel AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
  IF t IS NULL THEN
    RAISE EXCEPTION 'column "%" of relation % does not exist', col, rel
      USING ERRCODE = '42703',
            HINT = format('Name the column with %s => ''...''.', argument);
  END IF;
  RETURN t;
END
$$;
COMMENT ON FUNCTION glicko2_column_type(regclass, name, text) IS
  'Helper of glicko2_close_period: the type of column col of rel, or an error naming the column and the argument that names it';

CREATE FUNCTION glicko2_refuse_closed_games()
  RETURNS trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  guarded regclass[] := '{}';
  arg text;
  parts text[];
  col name := 'period';
  col_type regtype;
  last record;
  game record;
  game_period text;
  is_closed boolean;
BEGIN
  IF TG_LEVEL <> 'ROW' OR TG_WHEN <> 'BEFORE' THEN
    RAISE EXCEPTION 'glicko2_refuse_closed_games must be a BEFORE ... FOR EACH ROW trigger'
      USING ERRCODE = '39P01';
  END IF;
  -- Arguments: ratings tables (unqualified: the games table's schema), and
  -- optionally 'period_column=name'.
  FOREACH arg IN ARRAY coalesce(TG_ARGV, '{}'::text[]) LOOP
    IF arg LIKE 'period_column=%' THEN
      col := substr(arg, length('period_column=') + 1);
      CONTINUE;
    END IF;
    parts := parse_ident(arg);
    IF cardinality(parts) = 1 THEN
      parts := ARRAY[TG_TABLE_SCHEMA::text] || parts;
    END IF;
    guarded := guarded || to_regclass(format('%I.%I', parts[1], parts[2]));
    IF guarded[cardinality(guarded)] IS NULL THEN
      RAISE EXCEPTION 'ratings table % named by trigger % on % does not exist', arg, TG_NAME, TG_RELID::regclass
        USING ERRCODE = '42P01';
    END IF;
  END LOOP;

  -- The last period closed of each ratings table this table feeds.
  FOR last IN
    SELECT DISTINCT ON (c.ratings) c.ratings, c.period
    FROM @extschema@.glicko2_closes c
    WHERE CASE WHEN cardinality(guarded) = 0 THEN c.games_table = TG_RELID
               ELSE c.ratings = ANY (guarded) END
    ORDER BY c.ratings, c.close_number DESC
  LOOP
    col_type := coalesce(col_type,
                         @extschema@.glicko2_column_type(TG_RELID, col, 'period_column'));
    FOREACH game IN ARRAY CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW]
                                     WHEN 'DELETE' THEN ARRAY[OLD]
                                     ELSE ARRAY[OLD, NEW] END LOOP
      EXECUTE format('SELECT ($1).%1$I::text, ($1).%1$I <= CAST($2 AS %2$s)', col, col_type)
        INTO game_period, is_closed USING game, last.period;
      IF is_closed THEN
        RAISE EXCEPTION '% of a game in period % refused: % has closed period %',
                        lower(TG_OP), game_period, last.ratings, last.period
          USING ERRCODE = '55000',
                DETAIL = format('Periods up to %s of %s are closed; a game written there would never be rated.',
                                last.period, last.ratings),
                HINT = 'Write the game to a period that is still open.';
      END IF;
    END LOOP;
  END LOOP;
  RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;
COMMENT ON FUNCTION glicko2_refuse_closed_games() IS
  'BEFORE INSERT OR UPDATE OR DELETE ... FOR EACH ROW trigger for a games table: refuses a game whose period is at or before the last period closed by glicko2_close_period (arguments: the ratings tables it feeds, default those closed from this table; ''period_column=name'')';

CREATE PROCEDURE glicko2_close_period(
  ratings regclass, games regclass, period anyelement,
  tau float8 DEFAULT 0.5, max_rd float8 DEFAULT 350, history regclass DEFAULT NULL,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', game_player_column name DEFAULT 'player_id',
  opponent_column name DEFAULT 'opponent_id', score_column name DEFAULT 'score')
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  key_type regtype;
  period_type regtype;
  game_key_types regtype[];
  score_type regtype;
  period_text text;
  last_period text;
  last_number bigint;
  is_later boolean;
  n_games bigint;
  n_bad bigint;
  bad_game text;
  n_players bigint;
  n_played bigint;
  n_new bigint;
  history_sql text := '';
  played_sql text;
  -- (not if the caller may not, or a table of that name is the caller's own)
  played_in_temp boolean := has_database_privilege(current_database(), 'TEMPORARY')
                            AND to_regclass('pg_temp.glicko2_close_played') IS NULL;
  close_sql text;
BEGIN
  -- Arguments.
  IF ratings IS NULL OR games IS NULL OR period IS NULL THEN
    RAISE EXCEPTION 'ratings, games and period must not be NULL' USING ERRCODE = '22004';
  END IF;
  IF tau IS NULL OR NOT (tau > 0 AND tau < 'Infinity') THEN
    RAISE EXCEPTION 'tau must be a positive finite number, not %', coalesce(tau::text, 'NULL')
      USING ERRCODE = '22003';
  END IF;
  IF NOT (max_rd > 0 AND max_rd < 'Infinity') THEN
    RAISE EXCEPTION 'max_rd must be a positive finite number or NULL (no cap), not %', max_rd
      USING ERRCODE = '22003';
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'glicko2_close_period must run at READ COMMITTED, not %',
                    upper(current_setting('transaction_isolation'))
      USING ERRCODE = '25000',
            DETAIL = 'A snapshot taken before the close locks the games table can miss games committed meanwhile.';
  END IF;
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = ratings) NOT IN ('r', 'p') THEN
    RAISE EXCEPTION 'ratings % is not a table', ratings USING ERRCODE = '42809';
  END IF;
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = games) NOT IN ('r', 'p', 'v', 'm', 'f') THEN
    RAISE EXCEPTION 'games % is not a table or view', games USING ERRCODE = '42809';
  END IF;

  -- Columns and their types, each error naming the column.
  key_type := @extschema@.glicko2_column_type(ratings, player_column, 'player_column');
  IF @extschema@.glicko2_column_type(ratings, rating_column, 'rating_column')
     <> '@extschema@.glicko2_rating'::regtype THEN
    RAISE EXCEPTION 'column "%" of % is not a glicko2_rating', rating_column, ratings
      USING ERRCODE = '42804';
  END IF;
  IF NOT EXISTS (
      SELECT FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
      WHERE i.indrelid = ratings AND i.indisunique AND i.indnatts = 1 AND i.indpred IS NULL
        AND a.attname = player_column AND a.attnotnull) THEN
    RAISE EXCEPTION 'column "%" of % is not a NOT NULL unique key', player_column, ratings
      USING ERRCODE = '42P10',
            DETAIL = 'Each player must have exactly one row in the ratings table.',
            HINT = format('ALTER TABLE %s ADD PRIMARY KEY (%I);', ratings, player_column);
  END IF;
  period_type := @extschema@.glicko2_column_type(games, period_column, 'period_column');
  game_key_types := ARRAY[@extschema@.glicko2_column_type(games, game_player_column, 'game_player_column'),
                          @extschema@.glicko2_column_type(games, opponent_column, 'opponent_column')];
  FOR i IN 1..2 LOOP
    IF game_key_types[i] <> key_type AND NOT (
         game_key_types[i] IN ('int2', 'int4', 'int8') AND key_type IN ('int2', 'int4', 'int8')) THEN
      RAISE EXCEPTION 'column "%" of % is %, but player column "%" of % is %',
                      (ARRAY[game_player_column, opponent_column])[i], games, game_key_types[i],
                      player_column, ratings, key_type
        USING ERRCODE = '42804';
    END IF;
  END LOOP;
  score_type := @extschema@.glicko2_column_type(games, score_column, 'score_column');
  IF score_type NOT IN ('float8', 'float4', 'numeric', 'int2', 'int4', 'int8') THEN
    RAISE EXCEPTION 'column "%" of % is %, not a number', score_column, games, score_type
      USING ERRCODE = '42804';
  END IF;
  IF history IS NOT NULL THEN
    IF @extschema@.glicko2_column_type(history, 'rating', 'history') <> '@extschema@.glicko2_rating'::regtype THEN
      RAISE EXCEPTION 'column "rating" of history table % is not a glicko2_rating', history
        USING ERRCODE = '42804';
    END IF;
    PERFORM @extschema@.glicko2_column_type(history, 'player_id', 'history'),
            @extschema@.glicko2_column_type(history, 'period', 'history');
    history_sql := format(
      ', hist AS (INSERT INTO %1$s (player_id, period, rating)'
      '  SELECT x.player, CAST($4 AS %2$s), x.rating'
      '  FROM (SELECT player, rating FROM updated UNION ALL SELECT player, rating FROM inserted) x)',
      history, @extschema@.glicko2_column_type(history, 'period', 'history'));
  END IF;

  -- The period in the type of the games' period column.
  BEGIN
    EXECUTE format('SELECT CAST(CAST($1 AS %s) AS text)', period_type) INTO period_text USING period;
  EXCEPTION WHEN cannot_coerce OR data_exception THEN
    RAISE EXCEPTION 'period % (%) does not convert to %, the type of column "%" of %',
                    period, pg_typeof(period), period_type, period_column, games
      USING ERRCODE = CASE WHEN SQLSTATE = '42846' THEN '42804' ELSE SQLSTATE END,
            DETAIL = SQLERRM;
  END;

  -- A second closer waits here until the first commits; writers of games
  -- wait until this close commits (on a view: its tables).
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);
  EXECUTE format('LOCK TABLE %s IN SHARE MODE', games);

  -- Exactly once, in increasing order (the unique keys of glicko2_closes
  -- back this up against any snapshot).
  SELECT c.period, c.close_number INTO last_period, last_number
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_close_period.ratings
  ORDER BY c.close_number DESC LIMIT 1;
  IF last_period IS NOT NULL THEN
    EXECUTE format('SELECT CAST($1 AS %1$s) > CAST($2 AS %1$s)', period_type)
      INTO is_later USING period_text, last_period;
    IF NOT is_later THEN
      RAISE EXCEPTION '%', CASE WHEN EXISTS (SELECT FROM @extschema@.glicko2_closes c
                                             WHERE c.ratings = glicko2_close_period.ratings
                                               AND c.period = period_text)
                                THEN format('period %s of %s is already closed', period_text, ratings)
                                ELSE format('period %s of %s is before the last closed period %s',
                                            period_text, ratings, last_period) END
        USING ERRCODE = '55000',
              DETAIL = format('Periods close once each, in increasing order; the last close of %s was period %s.',
                              ratings, last_period);
    END IF;
  END IF;

  -- Every game of the period checked before anything changes (the message
  -- is formatted for bad games only: FILTER spares format() on every row).
  EXECUTE format($sql$
    SELECT count(*), count(b.why), min(b.why || format(': player %%s, opponent %%s, score %%s',
                                                      coalesce(b.p::text, 'NULL'), coalesce(b.o::text, 'NULL'),
                                                      coalesce(b.s::text, 'NULL'))) FILTER (WHERE b.why IS NOT NULL)
    FROM (SELECT g.%1$I AS p, g.%2$I AS o, g.%3$I AS s,
                 CASE WHEN g.%1$I IS NULL OR g.%2$I IS NULL THEN 'NULL player'
                      WHEN g.%1$I = g.%2$I THEN 'self-play'
                      WHEN g.%3$I IS NULL THEN 'NULL score'
                      WHEN NOT (CAST(g.%3$I AS float8) BETWEEN 0 AND 1) THEN 'score outside [0, 1]'
                 END AS why
          FROM %4$s g WHERE g.%5$I = CAST($1 AS %6$s)) b
    $sql$, game_player_column, opponent_column, score_column, games, period_column, period_type)
    INTO n_games, n_bad, bad_game USING period_text;
  IF n_bad > 0 THEN
    RAISE EXCEPTION 'bad game in period % of %: %', period_text, games, bad_game
      USING ERRCODE = CASE WHEN bad_game LIKE 'self-play%' THEN '22023'
                           WHEN bad_game LIKE 'score outside%' THEN '22003'
                           ELSE '22004' END,
            DETAIL = format('%s of the period''s %s games are refused (self-play, a NULL player, a NULL score or a score outside [0, 1]); nothing was changed.',
                            n_bad, n_games);
  END IF;

  -- Each player's new rating from both sides of every game against the
  -- pre-period ratings.  Where the caller may create temporary tables this
  -- is a plain SELECT, which PostgreSQL can run with parallel workers
  -- (a statement that writes, like the one below, runs serially); the locks
  -- above keep both tables as they are until commit.
  played_sql := format($sql$
      SELECT s.me, @extschema@.glicko2_period(r.%9$I, o.%9$I, s.score, $2) AS rating,
             bool_and(r.%8$I IS NULL) AS is_new
      FROM (SELECT CAST(g.%1$I AS %4$s) AS me, CAST(g.%2$I AS %4$s) AS them, CAST(g.%3$I AS float8) AS score
            FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)
            UNION ALL
            SELECT CAST(g.%2$I AS %4$s), CAST(g.%1$I AS %4$s), 1 - CAST(g.%3$I AS float8)
            FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)) s
      LEFT JOIN %10$s r ON r.%8$I = s.me
      LEFT JOIN %10$s o ON o.%8$I = s.them
      GROUP BY s.me
    $sql$, game_player_column, opponent_column, score_column, key_type, games,
           period_column, period_type, player_column, rating_column, ratings);
  IF played_in_temp THEN
    EXECUTE 'CREATE TEMPORARY TABLE glicko2_close_played AS ' || played_sql USING period_text, tau;
    played_sql := 'SELECT * FROM pg_temp.glicko2_close_played';
  END IF;

  -- One statement: the new ratings written, Step 6 for idle players, new
  -- players added, history written.
  close_sql := format($sql$
    WITH played AS (%4$s
    ), updated AS (
      UPDATE %3$s t SET %2$I = coalesce(p.rating, @extschema@.glicko2_idle(t0.%2$I, 1, $3))
      FROM %3$s t0 LEFT JOIN played p ON p.me = t0.%1$I
      WHERE t.%1$I = t0.%1$I
      RETURNING t.%1$I AS player, t.%2$I AS rating, p.me IS NOT NULL AS played
    ), inserted AS (
      INSERT INTO %3$s (%1$I, %2$I) SELECT p.me, p.rating FROM played p WHERE p.is_new
      RETURNING %1$I AS player, %2$I AS rating
    ) %5$s
    SELECT (SELECT count(*) FROM updated) + (SELECT count(*) FROM inserted),
           (SELECT count(*) FROM updated WHERE played) + (SELECT count(*) FROM inserted),
           (SELECT count(*) FROM inserted)
    $sql$, player_column, rating_column, ratings, played_sql, history_sql);
  EXECUTE close_sql INTO n_players, n_played, n_new USING period_text, tau, max_rd, period_text;
  IF played_in_temp THEN
    DROP TABLE pg_temp.glicko2_close_played;
  END IF;

  BEGIN
    INSERT INTO @extschema@.glicko2_closes
      (ratings, period, close_number, games_table, closed_at, closed_by,
       players, played, new_players, games, tau, max_rd)
    VALUES (glicko2_close_period.ratings, period_text, coalesce(last_number, 0) + 1,
            glicko2_close_period.games, clock_timestamp(), current_user,
            n_players, n_played, n_new, n_games, glicko2_close_period.tau,
            glicko2_close_period.max_rd);
  EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'period % of % not closed: another close of % committed meanwhile', period_text, ratings, ratings
      USING ERRCODE = '40001',
            DETAIL = 'A close of this ratings table committed after this one began; nothing was changed.',
            HINT = 'Retry: the close then sees the committed one.';
  END;

  -- Games written later to this period are refused only by the guard trigger.
  IF NOT EXISTS (
      SELECT FROM pg_trigger t
      WHERE t.tgfoid = '@extschema@.glicko2_refuse_closed_games()'::regprocedure
        AND t.tgenabled <> 'D'
        AND (t.tgrelid = games
             OR t.tgrelid IN (SELECT d.refobjid FROM pg_rewrite w
                              JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = w.oid
                              WHERE w.ev_class = games AND d.refclassid = 'pg_class'::regclass))) THEN
    RAISE WARNING 'no glicko2_refuse_closed_games trigger guards %', games
      USING DETAIL = format('A game written later to period %s or earlier would never be rated.', period_text),
            HINT = format('CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION %s.glicko2_refuse_closed_games();',
                          games, '@extschema@');
  END IF;
END
$$;
COMMENT ON PROCEDURE glicko2_close_period(regclass, regclass, anyelement, float8, float8, regclass, name, name, name, name, name, name) IS
  'Closes one period for a whole ratings table, atomically and exactly once: the paper''s update for players with games (both sides of each game, pre-period ratings), Step 6 capped at max_rd for the rest, new players added; recorded in glicko2_closes and, if given, the history table (player_id, period, rating)';

------------------------------------------------------------------------------
-- Dashboards: intervals, the Glicko-2 scale, JSON, explanations
------------------------------------------------------------------------------

-- PostgreSQL has no float8range, so the extension creates one in its own
-- schema.  CREATE EXTENSION fails if that schema already has a type of that
-- name (install the extension in a schema of its own, WITH SCHEMA); a
-- float8range of the user's in another schema is a different type: write
-- the extension's as <schema>.float8range where both are on the search_path.
CREATE TYPE float8range AS RANGE (subtype = pg_catalog.float8,
                                  subtype_diff = pg_catalog.float8mi);
COMMENT ON TYPE float8range IS
  'A range of double precision values (glicko2 creates it: PostgreSQL has none); glicko2_interval returns closed ranges [lower, upper]';
COMMENT ON FUNCTION float8range(float8, float8) IS
  'Range constructor of float8range: [lower, upper)';
COMMENT ON FUNCTION float8range(float8, float8, text) IS
  'Range constructor of float8range with bounds given as ''[]'', ''[)'', ''(]'' or ''()''';
-- PostgreSQL 14 and later also make a multirange type for every range type.
DO $$
BEGIN
  IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 140000 THEN
    EXECUTE $c$COMMENT ON TYPE @extschema@.float8multirange IS
      'Multirange of float8range (made by PostgreSQL with the range type)'$c$;
    EXECUTE $c$COMMENT ON FUNCTION @extschema@.float8multirange() IS
      'Multirange constructor of float8multirange: the empty multirange'$c$;
    EXECUTE $c$COMMENT ON FUNCTION @extschema@.float8multirange(@extschema@.float8range) IS
      'Multirange constructor of float8multirange from one range'$c$;
    EXECUTE $c$COMMENT ON FUNCTION @extschema@.float8multirange(VARIADIC @extschema@.float8range[]) IS
      'Multirange constructor of float8multirange from ranges'$c$;
    EXECUTE $c$COMMENT ON CAST (@extschema@.float8range AS @extschema@.float8multirange) IS
      'A float8range as a multirange of one range'$c$;
  END IF;
END
$$;

CREATE FUNCTION glicko2_interval(r glicko2_rating, deviations float8 DEFAULT 2)
  RETURNS float8range AS 'MODULE_PATHNAME', 'glicko2_interval_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_interval(glicko2_rating, float8) IS
  'The closed interval [rating - k RD, rating + k RD] with k = deviations; k = 2 is the paper''s 95 % interval';

CREATE FUNCTION glicko2_lower(r glicko2_rating, deviations float8 DEFAULT 2)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_lower_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_lower(glicko2_rating, float8) IS
  'rating - k RD with k = deviations: the conservative rating of a leaderboard (index it: CREATE INDEX ON t (glicko2_lower(rating)))';

CREATE FUNCTION glicko2_upper(r glicko2_rating, deviations float8 DEFAULT 2)
  RETURNS float8 AS 'MODULE_PATHNAME', 'glicko2_upper_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_upper(glicko2_rating, float8) IS
  'rating + k RD with k = deviations: the upper end of glicko2_interval';

CREATE FUNCTION glicko2_confidence_interval(r glicko2_rating, confidence float8 DEFAULT 0.95)
  RETURNS float8range AS 'MODULE_PATHNAME', 'glicko2_confidence_interval_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_confidence_interval(glicko2_rating, float8) IS
  'The closed normal interval of the given confidence (0 <= confidence < 1): rating -/+ z RD with the exact quantile z (0.95: 1.959963984540054)';

CREATE TYPE glicko2_scaled AS (mu float8, phi float8, sigma float8);
COMMENT ON TYPE glicko2_scaled IS
  'A Glicko-2 rating on the paper''s internal scale (Step 2): mu = (r - 1500)/173.7178, phi = RD/173.7178, sigma = volatility';

CREATE FUNCTION glicko2_to_scaled(r glicko2_rating)
  RETURNS glicko2_scaled AS 'MODULE_PATHNAME', 'glicko2_to_scaled_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_to_scaled(glicko2_rating) IS
  'The paper''s Step 2: a rating on the Glicko-2 scale (mu, phi, sigma)';

CREATE FUNCTION glicko2_from_scaled(s glicko2_scaled)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_from_scaled_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_from_scaled(glicko2_scaled) IS
  'The paper''s Step 8: a checked rating on the public scale from (mu, phi, sigma)';

CREATE FUNCTION glicko2_to_jsonb(r glicko2_rating)
  RETURNS jsonb AS 'MODULE_PATHNAME', 'glicko2_to_jsonb_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_to_jsonb(glicko2_rating) IS
  'A rating as {"rating": ..., "rd": ..., "volatility": ...} with every digit: glicko2_from_jsonb gives back the same rating';

CREATE FUNCTION glicko2_from_jsonb(j jsonb)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_from_jsonb_sql'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_from_jsonb(jsonb) IS
  'A checked rating from an object with exactly the numbers "rating", "rd" and "volatility"';

-- glicko2_explain: support functions take and return internal.
CREATE FUNCTION glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8) IS
  'Transition function of glicko2_explain';

CREATE FUNCTION glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8, float8)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_transfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_transfn(internal, glicko2_rating, glicko2_rating, float8, float8) IS
  'Transition function of glicko2_explain with tau';

CREATE FUNCTION glicko2_explain_combinefn(internal, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_combinefn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_combinefn(internal, internal) IS
  'Combine function of glicko2_explain: adds the sums as glicko2_period does and appends the games';

CREATE FUNCTION glicko2_explain_serialfn(internal)
  RETURNS bytea AS 'MODULE_PATHNAME', 'glicko2_explain_serialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_serialfn(internal) IS
  'Serialization function of glicko2_explain';

CREATE FUNCTION glicko2_explain_deserialfn(bytea, internal)
  RETURNS internal AS 'MODULE_PATHNAME', 'glicko2_explain_deserialfn'
  LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_deserialfn(bytea, internal) IS
  'Deserialization function of glicko2_explain';

CREATE FUNCTION glicko2_explain_finalfn(internal)
  RETURNS jsonb AS 'MODULE_PATHNAME', 'glicko2_explain_finalfn'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_explain_finalfn(internal) IS
  'Final function of glicko2_explain: the paper''s Steps 2-8 with every intermediate quantity';

CREATE AGGREGATE glicko2_explain(player glicko2_rating, opponent glicko2_rating, score float8) (
  SFUNC = glicko2_explain_transfn,
  STYPE = internal,
  SSPACE = 1024,
  FINALFUNC = glicko2_explain_finalfn,
  COMBINEFUNC = glicko2_explain_combinefn,
  SERIALFUNC = glicko2_explain_serialfn,
  DESERIALFUNC = glicko2_explain_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_explain(glicko2_rating, glicko2_rating, float8) IS
  'Why a rating moved: glicko2_period''s update (tau 0.5) as jsonb with every quantity of the paper (mu, phi, each game''s g and E, v, delta, the Illinois iterations, sigma'', phi*, phi'', mu'', result); at most 10000 games';

CREATE AGGREGATE glicko2_explain(player glicko2_rating, opponent glicko2_rating, score float8, tau float8) (
  SFUNC = glicko2_explain_transfn,
  STYPE = internal,
  SSPACE = 1024,
  FINALFUNC = glicko2_explain_finalfn,
  COMBINEFUNC = glicko2_explain_combinefn,
  SERIALFUNC = glicko2_explain_serialfn,
  DESERIALFUNC = glicko2_explain_deserialfn,
  PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_explain(glicko2_rating, glicko2_rating, float8, float8) IS
  'Why a rating moved, with system constant tau: glicko2_period''s update as jsonb with every quantity of the paper; at most 10000 games';

-- History: evaluation of past predictions, choosing tau, replay, corrections
------------------------------------------------------------------------------

-- The ratings before each period predict that period's games.  Runs the
-- paper's update period by period in memory (three float8 arrays indexed by a
-- dense player number, so each lookup is O(1)); writes nothing.
CREATE FUNCTION glicko2_evaluate(games regclass, tau float8 DEFAULT 0.5,
                                 rd float8 DEFAULT 350, volatility float8 DEFAULT 0.06,
                                 max_rd float8 DEFAULT 350,
                                 period_column name DEFAULT 'period',
                                 player_column name DEFAULT 'player_id',
                                 opponent_column name DEFAULT 'opponent_id',
                                 score_column name DEFAULT 'score')
  RETURNS TABLE (period text, n_games bigint, n_decisive bigint,
                 log_loss float8, brier float8, accuracy float8)
  LANGUAGE plpgsql STABLE PARALLEL RESTRICTED
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $fn$
DECLARE
  games_sql text;
  bad record;
  found_bad bigint;
  labels text[];         -- period values as text, by period number
  first_period int[];    -- by player number: the period number of the first game
  g_period int[];        -- by game, sorted by period: period number,
  g_a int[];             --   the two players' numbers
  g_b int[];
  g_s float8[];          --   and the score of g_a
  r float8[];            -- by player number: rating, RD and volatility
  d float8[];            --   before the current period
  v float8[];
  players int;
  lo int := 1;
  hi int;
  total_games bigint := 0;
  total_decisive bigint := 0;
  sum_log_loss float8 := 0;
  sum_brier float8 := 0;
  sum_correct float8 := 0;
  p_loss float8;
  p_brier float8;
  p_correct float8;
BEGIN
  IF games IS NULL OR tau IS NULL OR rd IS NULL OR volatility IS NULL
     OR period_column IS NULL OR player_column IS NULL
     OR opponent_column IS NULL OR score_column IS NULL THEN
    RAISE EXCEPTION 'glicko2_evaluate arguments must not be NULL (only max_rd may be)'
      USING ERRCODE = '22004';
  END IF;
  IF NOT (tau > 0 AND tau < 'Infinity'::float8) THEN
    RAISE EXCEPTION 'tau must be a positive finite number, not %', tau
      USING ERRCODE = '22003';
  END IF;
  PERFORM @extschema@.glicko2_rating(1500, rd, volatility);   -- checks rd and volatility
  IF max_rd IS NOT NULL AND NOT (max_rd > 0 AND max_rd < 'Infinity'::float8) THEN
    RAISE EXCEPTION 'max_rd must be a positive finite number or NULL, not %', max_rd
      USING ERRCODE = '22003';
  END IF;

  games_sql := format('SELECT %I AS period, %I AS a, %I AS b, (%I)::float8 AS s FROM %s',
                      period_column, player_column, opponent_column, score_column, games);

  EXECUTE format('SELECT period::text AS period, a::text AS a, b::text AS b, s FROM (%s) g
                  WHERE period IS NULL OR a IS NULL OR b IS NULL OR a = b
                     OR s IS NULL OR NOT (s >= 0 AND s <= 1) LIMIT 1', games_sql)
    INTO bad;
  GET DIAGNOSTICS found_bad = ROW_COUNT;
  IF found_bad > 0 THEN
    RAISE EXCEPTION 'game (%, %, %, %) of % cannot be rated',
                    bad.period, bad.a, bad.b, bad.s, games
      USING ERRCODE = '22023',
            DETAIL = format('Columns %I, %I and %I must not be NULL, a player cannot play himself, and %I must be between 0 and 1.',
                            period_column, player_column, opponent_column, score_column);
  END IF;

  -- Players and games are numbered in a total order, so the loss sums are
  -- added in the same order whatever plan (parallel or not) reads the games:
  -- the same evaluation always gives the same bits.
  EXECUTE format($q$
    WITH g AS (%s),
    k AS (SELECT key, (row_number() OVER (ORDER BY key))::int AS i
          FROM (SELECT a FROM g UNION SELECT b FROM g) u(key)),
    p AS (SELECT period, (row_number() OVER (ORDER BY period))::int AS i
          FROM (SELECT DISTINCT period FROM g) u),
    numbered AS (SELECT p.i AS pi, ka.i AS ia, kb.i AS ib, g.s,
                        row_number() OVER (ORDER BY p.i, ka.i, kb.i, g.s) AS gi
                 FROM g JOIN p ON p.period = g.period
                 JOIN k ka ON ka.key = g.a JOIN k kb ON kb.key = g.b),
    firsts AS (SELECT i, min(pi) AS f
               FROM (SELECT ia, pi FROM numbered UNION ALL SELECT ib, pi FROM numbered) u(i, pi)
               GROUP BY i)
    SELECT (SELECT array_agg(period::text ORDER BY i) FROM p),
           (SELECT array_agg(f ORDER BY i) FROM firsts),
           array_agg(pi ORDER BY gi), array_agg(ia ORDER BY gi),
           array_agg(ib ORDER BY gi), array_agg(s ORDER BY gi)
    FROM numbered$q$, games_sql)
    INTO labels, first_period, g_period, g_a, g_b, g_s;

  players := coalesce(cardinality(first_period), 0);
  r := array_fill(1500::float8, ARRAY[players]);
  d := array_fill(rd, ARRAY[players]);
  v := array_fill(volatility, ARRAY[players]);

  FOR pn IN 1 .. coalesce(cardinality(labels), 0) LOOP
    hi := lo;
    WHILE hi < cardinality(g_period) AND g_period[hi + 1] = pn LOOP
      hi := hi + 1;
    END LOOP;

    -- Predict with the pre-period ratings.  Log loss clamps q to
    -- [1e-15, 1 - 1e-15] so that a certain prediction that fails costs
    -- 34.5, not infinity.
    SELECT count(*), count(*) FILTER (WHERE s <> 0.5),
           sum(-(s * ln(greatest(q, 1e-15)) + (1 - s) * ln(greatest(1 - q, 1e-15)))),
           sum((q - s) * (q - s)),
           sum(CASE WHEN q = 0.5 THEN 0.5 WHEN (q > 0.5) = (s > 0.5) THEN 1 ELSE 0 END)
             FILTER (WHERE s <> 0.5)
      INTO n_games, n_decisive, p_loss, p_brier, p_correct
    FROM (SELECT g_s[j] AS s,
                 @extschema@.glicko2_win_probability(
                   ROW(r[g_a[j]], d[g_a[j]], v[g_a[j]])::@extschema@.glicko2_rating,
                   ROW(r[g_b[j]], d[g_b[j]], v[g_b[j]])::@extschema@.glicko2_rating) AS q
          FROM generate_series(lo, hi) j) x;

    period := labels[pn];
    log_loss := p_loss / n_games;
    brier := p_brier / n_games;
    accuracy := p_correct / nullif(n_decisive, 0);
    RETURN NEXT;
    total_games := total_games + n_games;
    total_decisive := total_decisive + n_decisive;
    sum_log_loss := sum_log_loss + p_loss;
    sum_brier := sum_brier + p_brier;
    sum_correct := sum_correct + coalesce(p_correct, 0);

    -- Then close the period: the paper's update for players with games,
    -- Step 6 for players already in the league without games, nothing for
    -- players whose first game is still to come (as a close adds them then).
    WITH side AS (
      SELECT g_a[j] AS me, g_b[j] AS them, g_s[j] AS s FROM generate_series(lo, hi) j
      UNION ALL
      SELECT g_b[j], g_a[j], 1 - g_s[j] FROM generate_series(lo, hi) j
    ), updated AS (
      SELECT me, @extschema@.glicko2_period(
                   ROW(r[me], d[me], v[me])::@extschema@.glicko2_rating,
                   ROW(r[them], d[them], v[them])::@extschema@.glicko2_rating, s, tau) AS x
      FROM side GROUP BY me
    ), moved AS (
      SELECT i, CASE WHEN u.me IS NOT NULL THEN u.x
                     WHEN first_period[i] > pn THEN ROW(r[i], d[i], v[i])::@extschema@.glicko2_rating
                     ELSE @extschema@.glicko2_idle(ROW(r[i], d[i], v[i])::@extschema@.glicko2_rating, 1, max_rd)
                END AS x
      FROM generate_series(1, players) i LEFT JOIN updated u ON u.me = i
    )
    SELECT array_agg((x).rating ORDER BY i), array_agg((x).rd ORDER BY i),
           array_agg((x).volatility ORDER BY i)
      INTO r, d, v
    FROM moved;

    lo := hi + 1;
  END LOOP;

  period := NULL;
  n_games := total_games;
  n_decisive := total_decisive;
  log_loss := sum_log_loss / nullif(total_games, 0);
  brier := sum_brier / nullif(total_games, 0);
  accuracy := sum_correct / nullif(total_decisive, 0);
  RETURN NEXT;
END
$fn$;
COMMENT ON FUNCTION glicko2_evaluate(regclass, float8, float8, float8, float8, name, name, name, name) IS
  'How well the ratings before each period predicted its games (glicko2_win_probability): log loss, Brier score, accuracy on decisive games; one row per period in order, then an overall row with period NULL; writes nothing';

-- A grid search: glicko2_evaluate for each tau, best = lowest overall log loss.
CREATE FUNCTION glicko2_fit_tau(games regclass,
                                taus float8[] DEFAULT '{0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0,1.1,1.2}',
                                rd float8 DEFAULT 350, volatility float8 DEFAULT 0.06,
                                max_rd float8 DEFAULT 350,
                                period_column name DEFAULT 'period',
                                player_column name DEFAULT 'player_id',
                                opponent_column name DEFAULT 'opponent_id',
                                score_column name DEFAULT 'score')
  RETURNS TABLE (tau float8, n_games bigint, log_loss float8, brier float8,
                 accuracy float8, best boolean)
  LANGUAGE sql STABLE PARALLEL RESTRICTED
  SET search_path = pg_catalog, pg_temp
AS $fn$
  WITH e AS (
    SELECT t.tau, ev.n_games, ev.log_loss, ev.brier, ev.accuracy
    FROM (SELECT DISTINCT u AS tau FROM unnest(taus) u) t,
         LATERAL @extschema@.glicko2_evaluate(games, t.tau, rd, volatility, max_rd,
                                              period_column, player_column,
                                              opponent_column, score_column) ev
    WHERE ev.period IS NULL
  )
  SELECT tau, n_games, log_loss, brier, accuracy,
         coalesce(tau = (SELECT tau FROM e WHERE log_loss IS NOT NULL
                         ORDER BY log_loss, tau LIMIT 1), false)
  FROM e ORDER BY tau
$fn$;
COMMENT ON FUNCTION glicko2_fit_tau(regclass, float8[], float8, float8, float8, name, name, name, name) IS
  'glicko2_evaluate over a grid of tau values; best marks the lowest overall log loss (the smallest tau on a tie); writes nothing';

-- Replay and corrections delete records of closes they redo; the same roles
-- that may close a ratings table (UPDATE on it) may do that.
CREATE POLICY glicko2_closes_redo ON glicko2_closes FOR DELETE
  USING (pg_catalog.has_table_privilege(ratings::pg_catalog.oid, 'UPDATE'));
GRANT DELETE ON glicko2_closes TO PUBLIC;
COMMENT ON POLICY glicko2_closes_redo ON glicko2_closes IS
  'glicko2_replay and glicko2_recompute delete the records of the periods they close again: allowed to roles that may update the ratings table';

-- Rebuilds a ratings table from nothing by closing every period of the games
-- in order with glicko2_close_period (which does all the checking and
-- rating); one transaction.
CREATE PROCEDURE glicko2_replay(
  ratings regclass, games regclass,
  tau float8 DEFAULT 0.5, max_rd float8 DEFAULT 350, history regclass DEFAULT NULL,
  through text DEFAULT NULL,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', game_player_column name DEFAULT 'player_id',
  opponent_column name DEFAULT 'opponent_id', score_column name DEFAULT 'score')
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  period_type regtype;
  p text;
BEGIN
  IF ratings IS NULL OR games IS NULL THEN
    RAISE EXCEPTION 'ratings and games must not be NULL' USING ERRCODE = '22004';
  END IF;
  period_type := @extschema@.glicko2_column_type(games, period_column, 'period_column');
  -- As a close does: closes of this table wait, readers do not.
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);

  EXECUTE format('DELETE FROM %s', ratings);
  IF history IS NOT NULL THEN
    EXECUTE format('DELETE FROM %s', history);
  END IF;
  DELETE FROM @extschema@.glicko2_closes c WHERE c.ratings = glicko2_replay.ratings;

  FOR p IN EXECUTE format(
      'SELECT CAST(u.p AS text) FROM (SELECT DISTINCT %1$I AS p FROM %2$s) u
       WHERE u.p IS NOT NULL AND ($1 IS NULL OR u.p <= CAST($1 AS %3$s)) ORDER BY u.p',
      period_column, games, period_type) USING through
  LOOP
    EXECUTE format('CALL @extschema@.glicko2_close_period($1, $2, CAST($3 AS %s), $4, $5, $6,
                      $7, $8, $9, $10, $11, $12)', period_type)
      USING ratings, games, p, tau, max_rd, history, player_column, rating_column,
            period_column, game_player_column, opponent_column, score_column;
  END LOOP;
END
$$;
COMMENT ON PROCEDURE glicko2_replay(regclass, regclass, float8, float8, regclass, text, name, name, name, name, name, name) IS
  'Rebuilds a ratings table from its games: empties it (and the history table, and its records in glicko2_closes), then closes every period of the games in order (up to through, if given) with glicko2_close_period; one transaction';

-- After games of closed periods were changed or annulled: rolls the ratings
-- back to the end of the period before, from the history table, and closes
-- again every period closed since, with the tau and max_rd each was closed
-- with.  One transaction: all of it or nothing.
CREATE PROCEDURE glicko2_recompute(
  ratings regclass, games regclass, period anyelement, history regclass,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', game_player_column name DEFAULT 'player_id',
  opponent_column name DEFAULT 'opponent_id', score_column name DEFAULT 'score')
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  period_type regtype;
  history_type regtype;
  period_text text;
  first_number bigint;
  before text;
  periods text[];
  taus float8[];
  max_rds float8[];
  kept bigint;
BEGIN
  IF ratings IS NULL OR games IS NULL OR period IS NULL THEN
    RAISE EXCEPTION 'ratings, games and period must not be NULL' USING ERRCODE = '22004';
  END IF;
  IF history IS NULL THEN
    RAISE EXCEPTION 'glicko2_recompute needs the history table of %', ratings
      USING ERRCODE = '22004',
            DETAIL = 'The ratings before the period are read back from the history table.',
            HINT = 'Without a history, rebuild everything with glicko2_replay.';
  END IF;
  period_type := @extschema@.glicko2_column_type(games, period_column, 'period_column');
  history_type := @extschema@.glicko2_column_type(history, 'period', 'history');
  PERFORM @extschema@.glicko2_column_type(ratings, player_column, 'player_column'),
          @extschema@.glicko2_column_type(ratings, rating_column, 'rating_column');
  EXECUTE format('SELECT CAST(CAST($1 AS %s) AS text)', period_type) INTO period_text USING period;
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);

  SELECT c.close_number INTO first_number
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.period = period_text;
  IF first_number IS NULL THEN
    RAISE EXCEPTION 'period % of % is not closed', period_text, ratings
      USING ERRCODE = '55000',
            DETAIL = 'Only closed periods are recomputed; an open period is rated when it is closed.';
  END IF;
  SELECT c.period INTO before
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number = first_number - 1;

  -- Ratings as they were after the period before (none before the first).
  IF before IS NULL THEN
    EXECUTE format('DELETE FROM %s', ratings);
  ELSE
    EXECUTE format('SELECT count(*) FROM %s h WHERE h.period = CAST($1 AS %s)', history, history_type)
      INTO kept USING before;
    IF kept = 0 THEN
      RAISE EXCEPTION 'history table % has no ratings for period %', history, before
        USING ERRCODE = '55000',
              DETAIL = format('The ratings of %s before period %s cannot be read back.', ratings, period_text),
              HINT = 'Rebuild everything with glicko2_replay.';
    END IF;
    EXECUTE format('DELETE FROM %1$s r WHERE NOT EXISTS
                      (SELECT FROM %2$s h WHERE h.player_id = r.%3$I AND h.period = CAST($1 AS %4$s))',
                   ratings, history, player_column, history_type) USING before;
    EXECUTE format('UPDATE %1$s r SET %4$I = h.rating FROM %2$s h
                    WHERE h.player_id = r.%3$I AND h.period = CAST($1 AS %5$s)',
                   ratings, history, player_column, rating_column, history_type) USING before;
  END IF;
  EXECUTE format('DELETE FROM %s h WHERE h.period >= CAST($1 AS %s)', history, history_type)
    USING period_text;

  -- Close again, in the order closed, each with its own tau and max_rd.
  SELECT array_agg(c.period ORDER BY c.close_number), array_agg(c.tau ORDER BY c.close_number),
         array_agg(c.max_rd ORDER BY c.close_number)
    INTO periods, taus, max_rds
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= first_number;
  DELETE FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_recompute.ratings AND c.close_number >= first_number;
  FOR i IN 1 .. cardinality(periods) LOOP
    EXECUTE format('CALL @extschema@.glicko2_close_period($1, $2, CAST($3 AS %s), $4, $5, $6,
                      $7, $8, $9, $10, $11, $12)', period_type)
      USING ratings, games, periods[i], taus[i], max_rds[i], history, player_column,
            rating_column, period_column, game_player_column, opponent_column, score_column;
  END LOOP;
END
$$;
COMMENT ON PROCEDURE glicko2_recompute(regclass, regclass, anyelement, regclass, name, name, name, name, name, name) IS
  'After games of closed periods were changed or annulled: puts the ratings back as they were before period (from the history table), then closes that period and every later closed one again with glicko2_close_period and the tau and max_rd each was closed with; one transaction';
