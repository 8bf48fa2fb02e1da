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

-- The bookkeeping every close shares (glicko2_close_period here,
-- glicko2_close_matches in sql/matches.sql), in the order a close runs it:
-- glicko2_close_check (arguments, columns, the period as text), then
-- glicko2_close_lock (locks, exactly once), then the procedure's own check
-- of its rows and its query of the period's one-on-one game sides, then
-- glicko2_close_apply (new ratings, idle and new players, history, record).

-- Arguments and columns of a close, each error naming what is wrong: the
-- ratings key's type, and the period in the type of the source's period column.
CREATE FUNCTION glicko2_close_check(
  procedure_name text, ratings regclass, source regclass, source_argument text, period anyelement,
  tau float8, max_rd float8, history regclass,
  player_column name, rating_column name, period_column name,
  OUT key_type regtype, OUT period_type regtype, OUT period_text text)
  LANGUAGE plpgsql STABLE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
BEGIN
  IF tau IS NULL OR NOT (tau > 0 AND tau < 'Infinity') THEN
    RAISE EXCEPTION 'tau must be a positive finite number, not %', coalesce(tau::text, 'NULL')
      USING ERRCODE = '22003';
  END IF;
  IF NOT (max_rd > 0 AND max_rd < 'Infinity') THEN
    RAISE EXCEPTION 'max_rd must be a positive finite number or NULL (no cap), not %', max_rd
      USING ERRCODE = '22003';
  END IF;
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION '% must run at READ COMMITTED, not %', procedure_name,
                    upper(current_setting('transaction_isolation'))
      USING ERRCODE = '25000',
            DETAIL = format('A snapshot taken before the close locks the %1$s table can miss %1$s committed meanwhile.',
                            source_argument);
  END IF;
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = ratings) NOT IN ('r', 'p') THEN
    RAISE EXCEPTION 'ratings % is not a table', ratings USING ERRCODE = '42809';
  END IF;
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = source) NOT IN ('r', 'p', 'v', 'm', 'f') THEN
    RAISE EXCEPTION '% % is not a table or view', source_argument, source USING ERRCODE = '42809';
  END IF;

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
  period_type := @extschema@.glicko2_column_type(source, period_column, 'period_column');
  IF history IS NOT NULL THEN
    IF @extschema@.glicko2_column_type(history, 'rating', 'history') <> '@extschema@.glicko2_rating'::regtype THEN
      RAISE EXCEPTION 'column "rating" of history table % is not a glicko2_rating', history
        USING ERRCODE = '42804';
    END IF;
    PERFORM @extschema@.glicko2_column_type(history, 'player_id', 'history'),
            @extschema@.glicko2_column_type(history, 'period', 'history');
  END IF;

  BEGIN
    EXECUTE format('SELECT CAST(CAST($1 AS %s) AS text)', period_type) INTO period_text USING period;
  EXCEPTION WHEN cannot_coerce OR data_exception THEN
    RAISE EXCEPTION 'period % (%) does not convert to %, the type of column "%" of %',
                    period, pg_typeof(period), period_type, period_column, source
      USING ERRCODE = CASE WHEN SQLSTATE = '42846' THEN '42804' ELSE SQLSTATE END,
            DETAIL = SQLERRM;
  END;
END
$$;
COMMENT ON FUNCTION glicko2_close_check(text, regclass, regclass, text, anyelement, float8, float8, regclass, name, name, name) IS
  'Helper of glicko2_close_period and glicko2_close_matches: checks a close''s arguments and columns (each error naming the column) and gives the ratings key type, the source''s period type and the period as text of that type';

-- A column of player keys in a games or matches table: of the ratings key's
-- type (any integer types mix), or an error naming both columns.
CREATE FUNCTION glicko2_key_column_check(source regclass, col name, argument text,
                                         ratings regclass, player_column name, key_type regtype)
  RETURNS void
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  t regtype := @extschema@.glicko2_column_type(source, col, argument);
BEGIN
  IF t <> key_type AND NOT (t IN ('int2', 'int4', 'int8') AND key_type IN ('int2', 'int4', 'int8')) THEN
    RAISE EXCEPTION 'column "%" of % is %, but player column "%" of % is %',
                    col, source, t, player_column, ratings, key_type
      USING ERRCODE = '42804';
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_key_column_check(regclass, name, text, regclass, name, regtype) IS
  'Helper of glicko2_close_period and glicko2_close_matches: refuses a column of player keys whose type is not the ratings key''s (integer types mix), naming both columns';

-- Locks, then exactly once and in order: the number of the last close of
-- ratings (0 if none), or an error if period is not after it.
CREATE FUNCTION glicko2_close_lock(ratings regclass, source regclass, period_type regtype, period_text text)
  RETURNS bigint
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  last_period text;
  last_number bigint;
  is_later boolean;
BEGIN
  -- A second closer waits here until the first commits; writers of the
  -- source wait until this close commits (on a view: its tables).
  EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', ratings);
  EXECUTE format('LOCK TABLE %s IN SHARE MODE', source);

  -- (the unique keys of glicko2_closes back this up against any snapshot)
  SELECT c.period, c.close_number INTO last_period, last_number
  FROM @extschema@.glicko2_closes c
  WHERE c.ratings = glicko2_close_lock.ratings
  ORDER BY c.close_number DESC LIMIT 1;
  IF last_period IS NOT NULL THEN
    EXECUTE format('SELECT CAST($1 AS %1$s) > CAST($2 AS %1$s)', period_type)
      INTO is_later USING period_text, last_period;
    IF NOT is_later THEN
      RAISE EXCEPTION '%', CASE WHEN EXISTS (SELECT FROM @extschema@.glicko2_closes c
                                             WHERE c.ratings = glicko2_close_lock.ratings
                                               AND c.period = period_text)
                                THEN format('period %s of %s is already closed', period_text, ratings)
                                ELSE format('period %s of %s is before the last closed period %s',
                                            period_text, ratings, last_period) END
        USING ERRCODE = '55000',
              DETAIL = format('Periods close once each, in increasing order; the last close of %s was period %s.',
                              ratings, last_period);
    END IF;
  END IF;
  RETURN coalesce(last_number, 0);
END
$$;
COMMENT ON FUNCTION glicko2_close_lock(regclass, regclass, regtype, text) IS
  'Helper of glicko2_close_period and glicko2_close_matches: locks the ratings table (SHARE ROW EXCLUSIVE) and the source (SHARE), then refuses a period not after the last one closed; returns the last close number (0 if none)';

-- Everything a close computes and writes, in one statement after one
-- computation.  sides_sql selects the period's game sides (me, rating,
-- opponent_rating, score): a player's key and pre-period rating, the
-- opponent's pre-period rating, the player's score (NULL ratings unrated);
-- its parameters are $1 the period (text), $2 tau and $3 sides_option.
CREATE FUNCTION glicko2_close_apply(
  ratings regclass, source regclass, period_text text, close_number bigint,
  sides_sql text, sides_option text, n_games bigint,
  tau float8, max_rd float8, history regclass, player_column name, rating_column name)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
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
  IF history IS NOT NULL THEN
    history_sql := format(
      ', hist AS (INSERT INTO %1$s (player_id, period, rating)'
      '  SELECT x.player, CAST($1 AS %2$s), x.rating'
      '  FROM (SELECT player, rating FROM updated UNION ALL SELECT player, rating FROM inserted) x)',
      history, @extschema@.glicko2_column_type(history, 'period', 'history'));
  END IF;

  -- Each player's new rating from the sides, and whether the player is new.
  -- Where the caller may create temporary tables this is a plain SELECT,
  -- which PostgreSQL can run with parallel workers (a statement that writes,
  -- like the one below, runs serially); the locks of glicko2_close_lock keep
  -- the tables as they are until commit.
  played_sql := format($sql$
      SELECT p.me, p.rating, r.%1$I IS NULL AS is_new
      FROM (SELECT s.me, @extschema@.glicko2_period(s.rating, s.opponent_rating, s.score, $2) AS rating
            FROM (%2$s) s GROUP BY s.me) p
      LEFT JOIN %3$s r ON r.%1$I = p.me
    $sql$, player_column, sides_sql, ratings);
  IF played_in_temp THEN
    EXECUTE 'CREATE TEMPORARY TABLE glicko2_close_played AS ' || played_sql
      USING period_text, tau, sides_option;
    played_sql := 'SELECT * FROM pg_temp.glicko2_close_played';
  END IF;

  -- One statement: the new ratings written, Step 6 for idle players, new
  -- players added, history written.
  close_sql := format($sql$
    WITH played AS (%4$s
    ), updated AS (
      UPDATE %3$s t SET %2$I = coalesce(p.rating, @extschema@.glicko2_idle(t0.%2$I, 1, $4))
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
  EXECUTE close_sql INTO n_players, n_played, n_new USING period_text, tau, sides_option, max_rd;
  IF played_in_temp THEN
    DROP TABLE pg_temp.glicko2_close_played;
  END IF;

  BEGIN
    INSERT INTO @extschema@.glicko2_closes
      (ratings, period, close_number, games_table, closed_at, closed_by,
       players, played, new_players, games, tau, max_rd)
    VALUES (glicko2_close_apply.ratings, period_text, glicko2_close_apply.close_number + 1,
            source, clock_timestamp(), current_user,
            n_players, n_played, n_new, n_games, glicko2_close_apply.tau,
            glicko2_close_apply.max_rd);
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
        AND (t.tgrelid = source
             OR t.tgrelid IN (SELECT d.refobjid FROM pg_rewrite w
                              JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = w.oid
                              WHERE w.ev_class = source AND d.refclassid = 'pg_class'::regclass))) THEN
    RAISE WARNING 'no glicko2_refuse_closed_games trigger guards %', source
      USING DETAIL = format('A game written later to period %s or earlier would never be rated.', period_text),
            HINT = format('CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON %s FOR EACH ROW EXECUTE FUNCTION %s.glicko2_refuse_closed_games();',
                          source, '@extschema@');
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_close_apply(regclass, regclass, text, bigint, text, text, bigint, float8, float8, regclass, name, name) IS
  'Helper of glicko2_close_period and glicko2_close_matches: rates the period''s game sides the procedure selects (glicko2_period grouped by player), then in one statement writes the new ratings, gives idle players Step 6 capped at max_rd, adds new players and writes history; records the close in glicko2_closes and warns if no guard trigger protects the source';

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
  c record;
  score_type regtype;
  last_number bigint;
  n_games bigint;
  n_bad bigint;
  bad_game text;
BEGIN
  IF ratings IS NULL OR games IS NULL OR period IS NULL THEN
    RAISE EXCEPTION 'ratings, games and period must not be NULL' USING ERRCODE = '22004';
  END IF;
  c := @extschema@.glicko2_close_check('glicko2_close_period', ratings, games, 'games', period,
                                       tau, max_rd, history, player_column, rating_column, period_column);
  PERFORM @extschema@.glicko2_key_column_check(games, game_player_column, 'game_player_column',
                                               ratings, player_column, c.key_type),
          @extschema@.glicko2_key_column_check(games, opponent_column, 'opponent_column',
                                               ratings, player_column, c.key_type);
  score_type := @extschema@.glicko2_column_type(games, score_column, 'score_column');
  IF score_type NOT IN ('float8', 'float4', 'numeric', 'int2', 'int4', 'int8') THEN
    RAISE EXCEPTION 'column "%" of % is %, not a number', score_column, games, score_type
      USING ERRCODE = '42804';
  END IF;

  last_number := @extschema@.glicko2_close_lock(ratings, games, c.period_type, c.period_text);

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
    $sql$, game_player_column, opponent_column, score_column, games, period_column, c.period_type)
    INTO n_games, n_bad, bad_game USING c.period_text;
  IF n_bad > 0 THEN
    RAISE EXCEPTION 'bad game in period % of %: %', c.period_text, games, bad_game
      USING ERRCODE = CASE WHEN bad_game LIKE 'self-play%' THEN '22023'
                           WHEN bad_game LIKE 'score outside%' THEN '22003'
                           ELSE '22004' END,
            DETAIL = format('%s of the period''s %s games are refused (self-play, a NULL player, a NULL score or a score outside [0, 1]); nothing was changed.',
                            n_bad, n_games);
  END IF;

  -- Both sides of every game, with the pre-period ratings.
  PERFORM @extschema@.glicko2_close_apply(ratings, games, c.period_text, last_number, format($sql$
      SELECT s.me, r.%9$I AS rating, o.%9$I AS opponent_rating, s.score
      FROM (SELECT CAST(g.%1$I AS %4$s) AS me, CAST(g.%2$I AS %4$s) AS them, CAST(g.%3$I AS float8) AS score
            FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)
            UNION ALL
            SELECT CAST(g.%2$I AS %4$s), CAST(g.%1$I AS %4$s), 1 - CAST(g.%3$I AS float8)
            FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)) s
      LEFT JOIN %10$s r ON r.%8$I = s.me
      LEFT JOIN %10$s o ON o.%8$I = s.them
    $sql$, game_player_column, opponent_column, score_column, c.key_type, games,
           period_column, c.period_type, player_column, rating_column, ratings),
    NULL, n_games, tau, max_rd, history, player_column, rating_column);
END
$$;
COMMENT ON PROCEDURE glicko2_close_period(regclass, regclass, anyelement, float8, float8, regclass, name, name, name, name, name, name) IS
  'Closes one period for a whole ratings table, atomically and exactly once: the paper''s update for players with games (both sides of each game, pre-period ratings), Step 6 capped at max_rd for the rest, new players added; recorded in glicko2_closes and, if given, the history table (player_id, period, rating)';
