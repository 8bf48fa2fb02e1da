------------------------------------------------------------------------------
-- Closing a period (glicko2_close_period) and the steps every close shares
------------------------------------------------------------------------------

-- The computation of a close in one pass (src/close_pass.c, which documents
-- it): pre-period ratings into a hash table, the period's games streamed once,
-- every player's new rating returned; bad games refused before any row.
CREATE FUNCTION glicko2_close_ratings(
  ratings_query text, games_query text, tau float8, max_rd float8,
  what text DEFAULT NULL, form text DEFAULT NULL, VARIADIC params text[] DEFAULT '{}')
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'glicko2_close_ratings'
  LANGUAGE C VOLATILE PARALLEL UNSAFE ROWS 100000;
COMMENT ON FUNCTION glicko2_close_ratings(text, text, float8, float8, text, text, text[]) IS
  'The computation of a period close in one pass, for glicko2_close_period and other closes: ratings_query yields (player, rating glicko2_rating), games_query rows of the form named: ''games'' (player, opponent, score), ''sides'' (player, opponent_rating glicko2_rating, score) or ''terms'' (player, information float8, surprise float8), a game side''s terms of the player''s Step 3/4 sums (NULL: sides if the second column is a glicko2_rating, else games), both given params as text $1, $2, ...; returns AS (player <key type>, rating glicko2_rating, games bigint, is_new boolean): every player''s new rating (the paper''s update, Step 6 capped at max_rd without games), bit for bit glicko2_period''s and glicko2_idle''s; a bad game is an ERROR naming what and the first bad game';

-- The same pass with floors and caps (caps {min_rating, max_change,
-- max_volatility}, a NULL element off; src/caps.c), for the closes: a fifth
-- result column, capped boolean, says whether a cap changed the rating.
CREATE FUNCTION glicko2_internal.glicko2_close_ratings_capped(
  ratings_query text, games_query text, tau float8, max_rd float8,
  what text, form text, caps float8[], VARIADIC params text[] DEFAULT '{}')
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'glicko2_close_ratings'
  LANGUAGE C VOLATILE PARALLEL UNSAFE ROWS 100000;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_ratings_capped(text, text, float8, float8, text, text, float8[], text[]) IS
  'Helper of glicko2_close_apply: glicko2_close_ratings with floors and caps (caps = {min_rating, max_change, max_volatility}, a NULL element off) applied to every new rating; AS (player, rating, games, is_new [, capped boolean])';

-- The same pass with its results kept in this backend (src/close_write.c,
-- which documents it), for a close that rewrites the ratings in place:
-- glicko2_close_compute runs the pass and keeps the results under a handle,
-- UPDATE ... SET rating = glicko2_close_result(handle, player) writes them,
-- glicko2_close_new_players yields the players to add, and
-- glicko2_close_finish reports what was read and frees them (the end of the
-- (sub)transaction that computed them frees them too).
CREATE FUNCTION glicko2_internal.glicko2_close_compute(
  ratings_query text, games_query text, tau float8, max_rd float8,
  what text DEFAULT NULL, form text DEFAULT NULL, caps float8[] DEFAULT NULL,
  VARIADIC params text[] DEFAULT '{}',
  OUT handle bigint, OUT sides bigint, OUT known bigint, OUT new_players bigint, OUT capped bigint)
  AS 'MODULE_PATHNAME', 'glicko2_close_compute'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_compute(text, text, float8, float8, text, text, float8[], text[]) IS
  'Helper of glicko2_close_apply: the pass of glicko2_internal.glicko2_close_ratings_capped (same arguments), its results kept in this backend until glicko2_close_finish or the end of the (sub)transaction that computed them; returns their handle, the number of game sides, of players read from the ratings, of new players and of ratings a floor or cap changed';

CREATE FUNCTION glicko2_internal.glicko2_close_result(handle bigint, player anyelement)
  RETURNS glicko2_rating
  AS 'MODULE_PATHNAME', 'glicko2_close_result'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_result(bigint, anyelement) IS
  'Helper of glicko2_close_apply: the new rating of a player of the ratings in the kept close with this handle (NULL: unrated and idle), counted for glicko2_close_finish; an ERROR for a player the close did not read';

CREATE FUNCTION glicko2_internal.glicko2_close_new_players(handle bigint)
  RETURNS SETOF record
  AS 'MODULE_PATHNAME', 'glicko2_close_new_players'
  LANGUAGE C VOLATILE PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_new_players(bigint) IS
  'Helper of glicko2_close_apply: AS (player <key type>, rating glicko2_rating), the players of the kept close''s games absent from its ratings, with their new ratings';

CREATE FUNCTION glicko2_internal.glicko2_close_finish(handle bigint, OUT written bigint, OUT played bigint)
  AS 'MODULE_PATHNAME', 'glicko2_close_finish'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_finish(bigint) IS
  'Helper of glicko2_close_apply: how many results of the kept close glicko2_close_result read, and how many of those players had games; frees the kept close';

-- The bookkeeping every close shares (glicko2_close_period here,
-- glicko2_close_matches in sql/matches.sql), in the order a close runs it:
-- glicko2_close_check (arguments, columns, the period as text), then
-- glicko2_close_lock (locks, exactly once), then the procedure's own checks
-- of its rows, then glicko2_close_apply (every player's new rating from the
-- procedure's query of games, in one pass in C; ratings, idle and new
-- players, history, record).

-- Arguments and columns of a close, each error naming what is wrong: the
-- ratings key's type, and the period in the type of the source's period column.
CREATE FUNCTION glicko2_internal.glicko2_close_check(
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
  PERFORM glicko2_internal.glicko2_not_catalog(ratings, 'ratings'),
          glicko2_internal.glicko2_not_catalog(source, source_argument),
          glicko2_internal.glicko2_not_catalog(history, 'history');
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = ratings) NOT IN ('r', 'p') THEN
    RAISE EXCEPTION 'ratings % is not a table', ratings USING ERRCODE = '42809';
  END IF;
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = source) NOT IN ('r', 'p', 'v', 'm', 'f') THEN
    RAISE EXCEPTION '% % is not a table or view', source_argument, source USING ERRCODE = '42809';
  END IF;

  key_type := glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column');
  IF glicko2_internal.glicko2_column_type(ratings, rating_column, 'rating_column')
     <> '@extschema@.glicko2_rating'::regtype THEN
    RAISE EXCEPTION 'column "%" of % is not a glicko2_rating', rating_column, ratings
      USING ERRCODE = '42804';
  END IF;
  IF NOT (glicko2_internal.glicko2_unique_key(ratings, player_column)
          AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = ratings
                        AND a.attname = player_column AND a.attnotnull)) THEN
    RAISE EXCEPTION 'column "%" of % is not a NOT NULL unique key', player_column, ratings
      USING ERRCODE = '42P10',
            DETAIL = 'Each player must have exactly one row in the ratings table.',
            HINT = format('ALTER TABLE %s ADD PRIMARY KEY (%I);', ratings, player_column);
  END IF;
  period_type := glicko2_internal.glicko2_column_type(source, period_column, 'period_column');
  IF history IS NOT NULL THEN
    IF glicko2_internal.glicko2_column_type(history, 'rating', 'history') <> '@extschema@.glicko2_rating'::regtype THEN
      RAISE EXCEPTION 'column "rating" of history table % is not a glicko2_rating', history
        USING ERRCODE = '42804';
    END IF;
    PERFORM glicko2_internal.glicko2_column_type(history, 'player_id', 'history'),
            glicko2_internal.glicko2_column_type(history, 'period', 'history');
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
COMMENT ON FUNCTION glicko2_internal.glicko2_close_check(text, regclass, regclass, text, anyelement, float8, float8, regclass, name, name, name) IS
  'Helper of glicko2_close_period and glicko2_close_matches: checks a close''s arguments and columns (each error naming the column) and gives the ratings key type, the source''s period type and the period as text of that type';

-- Locks, then exactly once and in order: the number of the last close of
-- ratings (0 if none), or an error if period is not after it.
CREATE FUNCTION glicko2_internal.glicko2_close_lock(ratings regclass, source regclass, period_type regtype, period_text text)
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
  PERFORM glicko2_internal.glicko2_not_catalog(ratings, 'ratings'),
          glicko2_internal.glicko2_not_catalog(source, 'source');
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
COMMENT ON FUNCTION glicko2_internal.glicko2_close_lock(regclass, regclass, regtype, text) IS
  'Helper of glicko2_close_period and glicko2_close_matches: locks the ratings table (SHARE ROW EXCLUSIVE) and the source (SHARE), then refuses a period not after the last one closed; returns the last close number (0 if none)';

-- Games written later to the closed period or an earlier one are refused
-- only by guard triggers: every table the source is read from needs them
-- (the locks of glicko2_close_lock keep them as they are until commit), or
-- the caller says with unguarded => true that late games may go unrated.
CREATE FUNCTION glicko2_internal.glicko2_close_guard(ratings regclass, source regclass, period_text text,
                                    period_column name, unguarded boolean)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  n_gaps bigint;
  gap_text text;
  distributed boolean;
BEGIN
  SELECT count(*), min(format('%s has no enabled guard for %s', g.relation, array_to_string(g.missing, ', '))
                       || CASE WHEN glicko2_internal.glicko2_citus_distributed(g.relation)
                               THEN ' (Citus distributes it)'
                               ELSE '' END),
         bool_or(glicko2_internal.glicko2_citus_distributed(g.relation))
    INTO n_gaps, gap_text, distributed
  FROM @extschema@.glicko2_guard_gaps(source, ratings) g;
  IF n_gaps > 0 AND NOT coalesce(unguarded, false) THEN
    RAISE EXCEPTION 'period % of % not closed: % (read from %)', period_text, ratings,
                    gap_text || CASE WHEN n_gaps > 1 THEN format(', and %s more tables', n_gaps - 1) ELSE '' END,
                    source
      USING ERRCODE = '55000',
            DETAIL = format('A row written there later for period %s or earlier would never be rated.', period_text),
            HINT = format('%s: CALL %s.glicko2_guard_games(%L%s); or close with unguarded => true to accept that risk.',
                          CASE WHEN distributed THEN 'With citus.enable_unsafe_triggers = on'
                               ELSE 'Attach glicko2_refuse_closed_games' END,
                          '@extschema@', source,
                          CASE WHEN period_column = 'period' THEN '' ELSE format(', period_column => %L', period_column) END);
  END IF;
  -- (before any game is read: see glicko2_citus_guard_publish)
  PERFORM glicko2_internal.glicko2_citus_guard_publish(ratings, source, period_text);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_guard(regclass, regclass, text, name, boolean) IS
  'Helper of glicko2_close_period and glicko2_close_matches: refuses a close whose source is not guarded by glicko2_refuse_closed_games on every table it is read from (glicko2_guard_gaps), unless unguarded; then tells the guards of Citus tables that the period is closed (glicko2_citus_guard_publish)';

-- The record of a close (glicko2_closes, on Citus the coordinator's): its
-- unique keys make a racing second close of the same period fail (40001)
-- rather than close twice.
CREATE FUNCTION glicko2_internal.glicko2_close_record(
  ratings regclass, source regclass, period_text text, close_number bigint,
  n_players bigint, n_played bigint, n_new bigint, n_games bigint, tau float8, max_rd float8,
  advantage float8, home_column name, min_rating float8, max_change float8, max_volatility float8,
  n_capped bigint, method text DEFAULT NULL, match_columns name[] DEFAULT NULL,
  party_advantage float8 DEFAULT 0, size_advantage float8 DEFAULT 0, teammates regclass DEFAULT NULL,
  teammates_kept boolean DEFAULT false)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  BEGIN
    INSERT INTO @extschema@.glicko2_closes
      (ratings, period, close_number, games_table, closed_at, closed_by,
       players, played, new_players, games, tau, max_rd, unguarded, advantage, home_column,
       min_rating, max_change, max_volatility, capped,
       method, match_column, match_player_column, team_column, place_column, weight_column, party_column,
       party_advantage, size_advantage, teammates, teammates_kept)
    VALUES (glicko2_close_record.ratings, period_text, glicko2_close_record.close_number + 1,
            source, clock_timestamp(), current_user,
            n_players, n_played, n_new, n_games, glicko2_close_record.tau,
            glicko2_close_record.max_rd,
            -- (the locks keep the guards as glicko2_close_guard found them)
            EXISTS (SELECT FROM @extschema@.glicko2_guard_gaps(source, glicko2_close_record.ratings)),
            glicko2_close_record.advantage, glicko2_close_record.home_column,
            glicko2_close_record.min_rating, glicko2_close_record.max_change, glicko2_close_record.max_volatility,
            n_capped, glicko2_close_record.method, match_columns[1], match_columns[2], match_columns[3],
            match_columns[4], match_columns[5], match_columns[6], glicko2_close_record.party_advantage,
            glicko2_close_record.size_advantage, glicko2_close_record.teammates, teammates_kept);
  EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'period % of % not closed: another close of % committed meanwhile', period_text, ratings, ratings
      USING ERRCODE = '40001',
            DETAIL = 'A close of this ratings table committed after this one began; nothing was changed.',
            HINT = 'Retry: the close then sees the committed one.';
  END;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_record(regclass, regclass, text, bigint, bigint, bigint, bigint, bigint, float8, float8, float8, name, float8, float8, float8, bigint, text, name[], float8, float8, regclass, boolean) IS
  'Helper of the closes: records a close in glicko2_closes with the options it was closed with (40001 if another close of the same ratings committed meanwhile), and whether the source was unguarded';

-- Everything a close computes and writes.  games_sql selects the period's
-- games for the pass (glicko2_close_ratings), in the form games_form names
-- (NULL: (player, opponent, score) games, both players rated, or (player,
-- opponent_rating, score) sides, only the player rated; 'terms': (player,
-- information, surprise), a side's terms of the player's sums); its parameters are $1 the period, $2 the procedure's
-- option (text, or NULL) and $3 max_rd (text; for glicko2_match_sides' unrated players).  n_games NULL: the number of games is counted from
-- the games (half the game sides).  advantage and home_column are only
-- recorded (games_sql applies them), as are glicko2_close_matches' method,
-- match_columns (match, player, team, place, weight, party), party and size
-- advantages and teammates store (NULL method: glicko2_close_period).
--
-- The pass reads the pre-period ratings once and the period's games once, and
-- refuses every bad game before anything is written.  Then the ratings are
-- written in place: a plain UPDATE of every row sets each player's new rating
-- from the kept pass (glicko2_close_result), new players are inserted, and
-- history is written from what the writes return.  Where a row's update may
-- be skipped or turned into something else (a BEFORE or INSTEAD OF row
-- trigger on UPDATE, a rule, a view, a table Citus distributes, whose rows
-- are updated on its workers), the computed ratings are instead joined to
-- the table by key in one statement, with the counts from what it returns.
-- The locks of glicko2_close_lock keep both tables as they are until commit.
CREATE FUNCTION glicko2_internal.glicko2_close_apply(
  ratings regclass, source regclass, period_text text, close_number bigint,
  games_sql text, games_option text, n_games bigint,
  tau float8, max_rd float8, history regclass, player_column name, rating_column name,
  advantage float8 DEFAULT 0, home_column name DEFAULT NULL, games_form text DEFAULT NULL,
  min_rating float8 DEFAULT NULL, max_change float8 DEFAULT NULL, max_volatility float8 DEFAULT NULL,
  method text DEFAULT NULL, match_columns name[] DEFAULT NULL,
  party_advantage float8 DEFAULT 0, size_advantage float8 DEFAULT 0, teammates regclass DEFAULT NULL)
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
  n_sides bigint;
  n_updated bigint;
  n_written bigint;
  n_known bigint;
  n_meant_new bigint;
  n_history bigint;
  handle bigint;
  in_place boolean;
  key_type regtype := glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column');
  ratings_sql text := format('SELECT r.%1$I, r.%2$I FROM %3$s r', player_column, rating_column, ratings);
  what text := format('period %s of %s', period_text, source);
  history_sql text := '';
  update_sql text;
  insert_sql text;
  -- What the writes return: only what the counts (and the history) read,
  -- as every returned row is kept in a tuple store until the end.
  updated_returning text := 'c.games > 0 AS played';
  inserted_returning text := 'true AS played';
  close_sql text;
  -- Floors and caps (src/caps.c checks them in the pass, before any write).
  caps float8[] := ARRAY[min_rating, max_change, max_volatility];
  n_capped bigint;
BEGIN
  PERFORM glicko2_internal.glicko2_not_catalog(ratings, 'ratings'),
          glicko2_internal.glicko2_not_catalog(source, 'source'),
          glicko2_internal.glicko2_not_catalog(history, 'history');
  SELECT c.relkind IN ('r', 'p') AND NOT c.relhasrules
         AND NOT glicko2_internal.glicko2_citus_distributed(ratings)
         -- (the table and, if partitioned, every partition at every level;
         -- no row moves between partitions: the unique key on the player that
         -- glicko2_close_check requires must contain the partition key, so
         -- the rating written is not part of it)
         AND NOT EXISTS (SELECT FROM (SELECT ratings::oid AS relid UNION SELECT relid FROM pg_partition_tree(ratings)) p
                         JOIN pg_class pc ON pc.oid = p.relid
                         LEFT JOIN pg_trigger t ON t.tgrelid = p.relid
                                  AND (t.tgtype::int & 1) <> 0      -- FOR EACH ROW
                                  AND (t.tgtype::int & 66) <> 0     -- BEFORE or INSTEAD OF
                                  AND (t.tgtype::int & 16) <> 0     -- UPDATE
                                  AND t.tgenabled <> 'D'
                         WHERE t.oid IS NOT NULL OR pc.relhasrules)
    INTO in_place
  FROM pg_class c WHERE c.oid = ratings;

  IF history IS NOT NULL THEN
    -- (the period is parameter $2 of the in-place statement, $4 of the join's)
    history_sql := format(
      ', hist AS (INSERT INTO %1$s (player_id, period, rating)'
      '  SELECT x.player, CAST($%3$s AS %2$s), x.rating'
      '  FROM (SELECT player, rating FROM updated UNION ALL SELECT player, rating FROM inserted) x'
      '  RETURNING 1)',
      history, glicko2_internal.glicko2_column_type(history, 'period', 'history'),
      CASE WHEN in_place THEN 2 ELSE 4 END);
  END IF;

  IF in_place THEN
    SELECT k.handle, k.sides, k.known, k.new_players, k.capped INTO handle, n_sides, n_known, n_meant_new, n_capped
    FROM glicko2_internal.glicko2_close_compute(ratings_sql, games_sql, tau, max_rd, what, games_form, caps,
                                           period_text, games_option, max_rd::text) k;
    -- Every row of the ratings set from the kept pass; the new players added.
    update_sql := format('UPDATE %1$s t SET %2$I = glicko2_internal.glicko2_close_result($1, t.%3$I)',
                         ratings, rating_column, player_column);
    insert_sql := format('INSERT INTO %1$s (%2$I, %3$I) SELECT n.player, n.rating'
                         ' FROM glicko2_internal.glicko2_close_new_players($1) AS n(player %4$s, rating @extschema@.glicko2_rating)',
                         ratings, player_column, rating_column, key_type);
    IF history IS NULL THEN
      EXECUTE update_sql USING handle;
      GET DIAGNOSTICS n_updated = ROW_COUNT;
      EXECUTE insert_sql USING handle;
      GET DIAGNOSTICS n_new = ROW_COUNT;
    ELSE
      EXECUTE format('WITH updated AS (%1$s RETURNING t.%3$I AS player, t.%4$I AS rating),'
                     ' inserted AS (%2$s RETURNING %3$I AS player, %4$I AS rating) %5$s'
                     ' SELECT (SELECT count(*) FROM updated), (SELECT count(*) FROM inserted),'
                     ' (SELECT count(*) FROM hist)',
                     update_sql, insert_sql, player_column, rating_column, history_sql)
        INTO n_updated, n_new, n_history
        USING handle, period_text;
    END IF;
    SELECT f.written, f.played INTO n_written, n_played FROM glicko2_internal.glicko2_close_finish(handle) f;
    -- Every row the pass read updated (row-level security can narrow an
    -- UPDATE to fewer rows than the SELECT read), every new player added.
    PERFORM glicko2_internal.glicko2_require_written(ratings, n_updated, n_known, 'update of ' || what),
            glicko2_internal.glicko2_require_written(ratings, n_new, n_meant_new, 'insert of new players of ' || what);
    IF n_written <> n_updated THEN
      RAISE EXCEPTION 'period % of % not closed: % ratings were computed for % rows updated',
                      period_text, ratings, n_written, n_updated
        USING ERRCODE = 'XX000';
    END IF;
    n_players := n_updated + n_new;
    n_played := n_played + n_new;
  ELSE
    IF history IS NOT NULL THEN
      updated_returning := format('t.%1$I AS player, t.%2$I AS rating, c.games > 0 AS played',
                                  player_column, rating_column);
      inserted_returning := format('%1$I AS player, %2$I AS rating', player_column, rating_column);
    END IF;
    close_sql := format($sql$
      WITH computed AS (
        SELECT c.* FROM glicko2_internal.glicko2_close_ratings_capped($1, $2, $3, $5, $6, $8, $9, $4, $7, CAST($5 AS text))
          AS c(player %4$s, rating @extschema@.glicko2_rating, games bigint, is_new boolean, capped boolean)
      ), updated AS (
        UPDATE %3$s t SET %2$I = c.rating
        FROM computed c
        WHERE t.%1$I = c.player AND NOT c.is_new
        RETURNING %6$s
      ), inserted AS (
        INSERT INTO %3$s (%1$I, %2$I) SELECT c.player, c.rating FROM computed c WHERE c.is_new
        RETURNING %7$s
      ) %5$s
      SELECT u.n + i.n, u.played + i.n, i.n, c.sides, u.n, c.known, c.new, %8$s, c.capped
      FROM (SELECT count(*) AS n, count(*) FILTER (WHERE played) AS played FROM updated) u,
           (SELECT count(*) AS n FROM inserted) i,
           (SELECT coalesce(sum(games), 0) AS sides, count(*) FILTER (WHERE NOT is_new) AS known,
                   count(*) FILTER (WHERE is_new) AS new, count(*) FILTER (WHERE capped) AS capped
            FROM computed) c
      $sql$, player_column, rating_column, ratings, key_type, history_sql,
             updated_returning, inserted_returning,
             CASE WHEN history IS NULL THEN 'NULL::bigint' ELSE '(SELECT count(*) FROM hist)' END);
    EXECUTE close_sql INTO n_players, n_played, n_new, n_sides, n_updated, n_known, n_meant_new, n_history, n_capped
      USING ratings_sql, games_sql, tau, period_text, max_rd, what, games_option, games_form, caps;
    -- Every row the pass read updated, every new player added: a trigger,
    -- rule or policy that skipped one fails the close.
    PERFORM glicko2_internal.glicko2_require_written(ratings, n_updated, n_known, 'update of ' || what),
            glicko2_internal.glicko2_require_written(ratings, n_new, n_meant_new, 'insert of new players of ' || what);
  END IF;
  IF history IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_require_written(history, n_history, n_players, 'history of ' || what);
  END IF;

  PERFORM glicko2_internal.glicko2_close_record(ratings, source, period_text, close_number,
            n_players, n_played, n_new, coalesce(n_games, n_sides / 2), tau, max_rd,
            advantage, home_column, min_rating, max_change, max_volatility, n_capped,
            method, match_columns, party_advantage, size_advantage, teammates,
            -- (glicko2_close_matches keeps the store's pairs with a history table)
            teammates IS NOT NULL AND history IS NOT NULL);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_apply(regclass, regclass, text, bigint, text, text, bigint, float8, float8, regclass, name, name, float8, name, text, float8, float8, float8, text, name[], float8, float8, regclass) IS
  'Helper of glicko2_close_period and glicko2_close_matches: computes every player''s new rating from the procedure''s query of games with glicko2_close_ratings (Step 6 capped at max_rd for idle players; with min_rating, max_change, max_volatility, the floors and caps applied) and writes them, adds new players and writes history; records the close in glicko2_closes with the options it was closed with (glicko2_close_matches'': method, match_columns {match, player, team, place, weight, party}, the party and size advantages, the teammates store), whether the source was unguarded and how many ratings a floor or cap changed';

-- Checks a home / first-move advantage and the games' column saying who has
-- it (glicko2_close_period, glicko2_evaluate).
CREATE FUNCTION glicko2_internal.glicko2_advantage_check(games regclass, advantage float8, home_column name)
  RETURNS void
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  home_type regtype;
BEGIN
  IF advantage IS NULL OR NOT (advantage > '-Infinity'::float8 AND advantage < 'Infinity'::float8) THEN
    RAISE EXCEPTION 'advantage must be a finite number, not %', coalesce(advantage::text, 'NULL')
      USING ERRCODE = CASE WHEN advantage IS NULL THEN '22004' ELSE '22003' END;
  END IF;
  IF advantage <> 0 AND home_column IS NULL THEN
    RAISE EXCEPTION 'advantage % needs home_column', advantage
      USING ERRCODE = '22023',
            DETAIL = 'home_column names the boolean column saying which side of each game has the advantage: true the player, false the opponent, NULL neither.';
  END IF;
  IF home_column IS NOT NULL THEN
    home_type := glicko2_internal.glicko2_column_type(games, home_column, 'home_column');
    IF home_type <> 'boolean'::regtype THEN
      RAISE EXCEPTION 'home_column % of % must be boolean, not %', home_column, games, home_type
        USING ERRCODE = '42804',
              DETAIL = 'true: the player has the advantage, false: the opponent has it, NULL: neither.';
    END IF;
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_advantage_check(regclass, float8, name) IS
  'Helper of glicko2_close_period and glicko2_evaluate: an error unless advantage is finite, given with home_column when not 0, and home_column is a boolean column of games';

-- The columns of a games table (glicko2_close_period, glicko2_replay): both
-- player columns of the ratings key's type, a numeric score.
CREATE FUNCTION glicko2_internal.glicko2_games_check(games regclass, ratings regclass, player_column name, key_type regtype,
                                    game_player_column name, opponent_column name, score_column name)
  RETURNS void
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  PERFORM glicko2_internal.glicko2_key_column_check(games, game_player_column, 'game_player_column',
                                               ratings, player_column, key_type),
          glicko2_internal.glicko2_key_column_check(games, opponent_column, 'opponent_column',
                                               ratings, player_column, key_type),
          glicko2_internal.glicko2_number_column_check(games, score_column, 'score_column');
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_games_check(regclass, regclass, name, regtype, name, name, name) IS
  'Helper of glicko2_close_period and glicko2_replay: refuses a games table whose player columns are not of the ratings key''s type or whose score column is not a number, naming the column';

CREATE PROCEDURE glicko2_close_period(
  ratings regclass, games regclass, period anyelement,
  tau float8 DEFAULT 0.5, max_rd float8 DEFAULT 350, history regclass DEFAULT NULL,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', game_player_column name DEFAULT 'player_id',
  opponent_column name DEFAULT 'opponent_id', score_column name DEFAULT 'score',
  unguarded boolean DEFAULT false,
  advantage float8 DEFAULT 0, home_column name DEFAULT NULL,
  min_rating float8 DEFAULT NULL, max_change float8 DEFAULT NULL, max_volatility float8 DEFAULT NULL)
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  c record;
  last_number bigint;
  advantage_sql text := '';
BEGIN
  IF ratings IS NULL OR games IS NULL OR period IS NULL THEN
    RAISE EXCEPTION 'ratings, games and period must not be NULL' USING ERRCODE = '22004';
  END IF;
  PERFORM glicko2_internal.glicko2_advantage_check(games, advantage, home_column);
  IF home_column IS NOT NULL THEN
    -- The player's advantage in each game, a fourth column for
    -- glicko2_close_ratings; $2 is the advantage as text (exact: float8 out
    -- with extra_float_digits 1 reads back to the same double).
    advantage_sql := format(', CASE WHEN g.%1$I THEN CAST($2 AS float8) WHEN NOT g.%1$I THEN -CAST($2 AS float8) ELSE CAST(0 AS float8) END',
                            home_column);
  END IF;
  c := glicko2_internal.glicko2_close_check('glicko2_close_period', ratings, games, 'games', period,
                                       tau, max_rd, history, player_column, rating_column, period_column);
  PERFORM glicko2_internal.glicko2_games_check(games, ratings, player_column, c.key_type,
                                          game_player_column, opponent_column, score_column);

  last_number := glicko2_internal.glicko2_close_lock(ratings, games, c.period_type, c.period_text);
  PERFORM glicko2_internal.glicko2_close_guard(ratings, games, c.period_text, period_column, unguarded);

  IF glicko2_internal.glicko2_citus_colocated(ratings, player_column, games, game_player_column) THEN
    -- Ratings and games Citus distributes by the player, co-located: the
    -- same close on the workers (sql/close_citus.sql).
    PERFORM glicko2_internal.glicko2_close_on_workers(ratings, games, c.period_text, c.period_type, last_number,
      tau, max_rd, history, player_column, rating_column, period_column, game_player_column,
      opponent_column, score_column, advantage, home_column, min_rating, max_change, max_volatility);
    RETURN;
  END IF;

  -- Every game is checked by glicko2_close_ratings in its one pass, before
  -- anything changes (the first bad game named).
  PERFORM glicko2_internal.glicko2_close_apply(ratings, games, c.period_text, last_number, format(
      'SELECT CAST(g.%1$I AS %4$s), CAST(g.%2$I AS %4$s), g.%3$I%8$s FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)',
      game_player_column, opponent_column, score_column, c.key_type, games, period_column, c.period_type,
      advantage_sql),
    CASE WHEN home_column IS NOT NULL THEN advantage::text END, NULL, tau, max_rd, history,
    player_column, rating_column, advantage, home_column, NULL, min_rating, max_change, max_volatility);
END
$$;
COMMENT ON PROCEDURE glicko2_close_period(regclass, regclass, anyelement, float8, float8, regclass, name, name, name, name, name, name, boolean, float8, name, float8, float8, float8) IS
  'Closes one period for a whole ratings table, atomically and exactly once: the paper''s update for players with games (both sides of each game, pre-period ratings), Step 6 capped at max_rd for the rest, new players added; with home_column, the side it marks (true: the player, false: the opponent) counts advantage points more in each game''s E; min_rating, max_change, max_volatility (NULL: off, the paper''s procedure): floors and caps of every new rating, a departure from the paper; recorded in glicko2_closes and, if given, the history table (player_id, period, rating)';
