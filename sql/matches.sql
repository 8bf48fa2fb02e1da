------------------------------------------------------------------------------
-- Team and free-for-all matches (glicko2_close_matches and the reduction to one-on-one games)
------------------------------------------------------------------------------

-- A match as the game sides it is rated from, each with its terms of the
-- player's Step 3/4 sums (C: src/matches.c, src/core/team.c; docs/matches.md).
-- Element i of the arrays is the match's player i.
CREATE FUNCTION glicko2_match_sides(
  players anyarray, teams anycompatiblearray, places bigint[], ratings glicko2_rating[],
  method text DEFAULT 'sum', weights float8[] DEFAULT NULL, max_rd float8 DEFAULT 350,
  parties "any" DEFAULT NULL, party_advantage float8 DEFAULT 0, size_advantage float8 DEFAULT 0)
  RETURNS TABLE (player anyelement, team anycompatible, rating glicko2_rating,
                 opponent anyelement, opponent_team anycompatible,
                 opponent_rating glicko2_rating, score float8,
                 expected float8, information float8, surprise float8, weight float8)
  AS 'MODULE_PATHNAME', 'glicko2_match_sides_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE ROWS 36;
COMMENT ON FUNCTION glicko2_match_sides(anyarray, anycompatiblearray, bigint[], glicko2_rating[], text, float8[], float8, "any", float8, float8) IS
  'The game sides one team or free-for-all match becomes (element i of each array is player i; place 1 = first, equal places tie; a NULL rating is the unrated player, 1500 / least(350, max_rd) / 0.06 (max_rd NULL: no cap), as the closes start him; weights: each player''s share of the match in (0, 1], NULL all 1): ''sum'' and ''mean'' (the team model), one side against each other team, expected its E from both teams'' strengths and uncertainty; ''individual'', one against every player of every other team, the players of a team sharing one game; ''composite'', one against each other team as its mean rating, RD and volatility (Williams 2013); score 1, 0 or 0.5 by the teams'' places; information and surprise are what the side adds to the player''s Step 3/4 sums, weight the factor on them (lambda_m of several teams, play shares); parties: each player''s party label, an array of any type with equality (NULL: queued alone; a label on two teams is refused), party_advantage the points each member of a party of two or more adds to his team''s strength times his weight in it, size_advantage the points per team member beyond one (the sum of the team''s shares less 1), both ''sum'' and ''mean'' only (docs/matches.md)';

-- The first bad row of a period's matches, or NULL: a NULL column, a place
-- below 1, a weight outside (0, 1], a player twice in a match (on one team
-- or two), a team with two places, a match of one team, a party on two teams.  (why, sqlstate,
-- rows refused, rows read.)
CREATE FUNCTION glicko2_internal.glicko2_bad_match(
  matches regclass, period_text text, period_type regtype, period_column name, match_column name,
  match_player_column name, team_column name, place_column name, weight_column name,
  party_column name,
  OUT why text, OUT sqlstate text, OUT n_bad bigint, OUT n_rows bigint)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
BEGIN
  EXECUTE format($sql$
    WITH m AS (SELECT g.%1$I AS mt, g.%2$I AS p, g.%3$I AS t, g.%4$I AS pl, %8$s AS w, %9$s AS pt
               FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)),
    twice AS (SELECT mt, p, t, count(*) AS n FROM m WHERE p IS NOT NULL AND t IS NOT NULL GROUP BY mt, p, t),
    team AS (SELECT mt, t, min(pl) AS lo, max(pl) AS hi,
                    (array_agg(p ORDER BY pl))[1] AS p_lo, (array_agg(p ORDER BY pl DESC))[1] AS p_hi
             FROM m WHERE t IS NOT NULL GROUP BY mt, t),
    bad AS (
      SELECT 1 AS k, '22004' AS code,
             format('NULL %%s: match %%s, player %%s, team %%s, place %%s',
                    CASE WHEN mt IS NULL THEN 'match' WHEN p IS NULL THEN 'player'
                         WHEN t IS NULL THEN 'team' ELSE 'place' END,
                    coalesce(mt::text, 'NULL'), coalesce(p::text, 'NULL'),
                    coalesce(t::text, 'NULL'), coalesce(pl::text, 'NULL')) AS why
      FROM m WHERE mt IS NULL OR p IS NULL OR t IS NULL OR pl IS NULL
      UNION ALL
      SELECT 2, '22003', format('place below 1: match %%s, player %%s, team %%s, place %%s', mt, p, t, pl)
      FROM m WHERE pl < 1
      UNION ALL
      SELECT 2, CASE WHEN w IS NULL THEN '22004' ELSE '22003' END,
             format('weight %%s not in (0, 1]: match %%s, player %%s, team %%s', coalesce(w::text, 'NULL'), mt, p, t)
      FROM m WHERE w IS NULL OR w = 'NaN'::float8 OR NOT (w > 0 AND w <= 1)
      UNION ALL
      SELECT 3, '23505', format('player %%s twice in match %%s (team %%s)', p, mt, t)
      FROM twice WHERE n > 1
      UNION ALL
      SELECT 4, '23505', format('player %%s on two teams in match %%s (teams %%s)', p, mt,
                                array_to_string(array_agg(t::text ORDER BY t::text), ', '))
      FROM twice GROUP BY mt, p HAVING count(*) > 1
      UNION ALL
      SELECT 5, '22023', format('team %%s of match %%s has two places: player %%s place %%s, player %%s place %%s',
                                t, mt, p_lo, lo, p_hi, hi)
      FROM team WHERE lo <> hi
      UNION ALL
      SELECT 6, '22023', format('match %%s has one team only (team %%s)', mt, min(t::text))
      FROM team WHERE mt IS NOT NULL GROUP BY mt HAVING count(*) < 2
      UNION ALL
      SELECT 7, '22023', format('party %%s is on two teams of match %%s (teams %%s)', pt, mt,
                                array_to_string(array_agg(t::text ORDER BY t::text), ', '))
      FROM (SELECT DISTINCT mt, pt, t FROM m WHERE pt IS NOT NULL AND t IS NOT NULL) x
      GROUP BY mt, pt HAVING count(*) > 1)
    SELECT (SELECT b.why FROM bad b ORDER BY b.k, b.why LIMIT 1),
           (SELECT b.code FROM bad b ORDER BY b.k, b.why LIMIT 1),
           (SELECT count(*) FROM bad), (SELECT count(*) FROM m)
    $sql$, match_column, match_player_column, team_column, place_column, matches, period_column, period_type,
           CASE WHEN weight_column IS NULL THEN 'CAST(1 AS float8)'
                ELSE format('CAST(g.%I AS float8)', weight_column) END,
           CASE WHEN party_column IS NULL THEN 'NULL' ELSE format('g.%I', party_column) END)
    INTO why, sqlstate, n_bad, n_rows USING period_text;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_bad_match(regclass, text, regtype, name, name, name, name, name, name, name) IS
  'Helper of glicko2_close_matches: the first bad row of a period''s matches (a NULL column, a place below 1, a weight outside (0, 1] if weight_column is given, a player twice in a match or on two teams, a team with two places, a match of one team, a party on two teams of a match if party_column is given) with its SQLSTATE, how many are bad and how many rows the period has';

-- The place and weight columns of a matches table, checked: the place column
-- an integer, the weight column (NULL: a column named weight if there is
-- one, else none) a number; weight_sql reads a row's play share over alias g
-- (1 without a weight column).
CREATE FUNCTION glicko2_internal.glicko2_match_columns(matches regclass, place_column name, INOUT weight_column name,
                                      OUT weight_sql text)
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  place_type regtype;
BEGIN
  place_type := glicko2_internal.glicko2_column_type(matches, place_column, 'place_column');
  IF place_type NOT IN ('int2', 'int4', 'int8') THEN
    RAISE EXCEPTION 'column "%" of % is %, not an integer', place_column, matches, place_type
      USING ERRCODE = '42804';
  END IF;
  weight_sql := 'CAST(1 AS float8)';
  IF weight_column IS NULL AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = matches
                                       AND a.attname = 'weight' AND a.attnum > 0 AND NOT a.attisdropped) THEN
    weight_column := 'weight';
  END IF;
  IF weight_column IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_number_column_check(matches, weight_column, 'weight_column');
    weight_sql := format('CAST(g.%I AS float8)', weight_column);
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_match_columns(regclass, name, name) IS
  'Helper of glicko2_close_matches and glicko2_fit_matches: checks the place column (an integer) and the weight column (a number; NULL: a column named weight if there is one), and returns the weight column used and the SQL of a row''s play share over alias g (1 without one)';

-- The party column of a matches table: its type, which must have an
-- equality (C: glicko_party_type_check, shared with the live trigger).
CREATE FUNCTION glicko2_internal.glicko2_party_column(matches regclass, party_column name)
  RETURNS regtype AS 'MODULE_PATHNAME', 'glicko2_party_column_sql'
  LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_party_column(regclass, name) IS
  'Helper of glicko2_close_matches and glicko2_fit_matches: the type of the party column, an error unless it exists and its type has an equality operator';

-- The party and size advantages of a close or fit, checked as the C
-- functions check them (glicko2_team_advantage_check).
CREATE FUNCTION glicko2_internal.glicko2_advantages_check(method text, party_advantage float8, size_advantage float8)
  RETURNS void AS 'MODULE_PATHNAME', 'glicko2_advantages_check_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_advantages_check(text, float8, float8) IS
  'Helper of glicko2_close_matches and glicko2_fit_matches: an error unless party_advantage and size_advantage are finite numbers, zero with the methods ''individual'' and ''composite''';

-- The store of recurring teammates' covariances (docs/matches.md, "Recurring
-- teammates"; C: src/teammates_sql.c, src/core/teammates.c).

-- One period's terms of each player's sums with the store, and the store
-- after it: the period's rows numbered (players from 0 in key order, the
-- stored pairs' players among them; matches; teams), ratings by player
-- number (NULL: unrated).
CREATE FUNCTION glicko2_internal.glicko2_teammates_terms(
  method text, max_rd float8, ratings glicko2_rating[],
  row_match int[], row_team int[], row_player int[], row_place bigint[], row_weight float8[],
  row_party int[], party_advantage float8, size_advantage float8,
  pair_a int[], pair_b int[], pair_covariance float8[])
  RETURNS TABLE (player int, information float8, surprise float8, partner int, correlation float8)
  AS 'MODULE_PATHNAME', 'glicko2_teammates_terms'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_teammates_terms(text, float8, glicko2_rating[], int[], int[], int[], bigint[], float8[], int[], float8, float8, int[], int[], float8[]) IS
  'Helper of glicko2_close_matches with a teammates store: from one period''s rows (numbered: players from 0 in key order, matches, teams; ratings by player number, NULL unrated; each row''s party within its match, -1 alone, NULL none, and the advantages) and the store''s pairs, every player''s Step 3/4 sums, one row a player with games (partner NULL: today''s sides summed for a player without pairs, the effective sums of a player rated over his neighbourhood) and the pairs kept after the period with their correlations (information and surprise NULL)';

-- The same on the period's rows and the store's pairs as the queries
-- rows_sql ($1 the period: match, team, player of the key's type, place
-- bigint, weight float8 (all NULL: none), party (NULL: alone)) and store_sql
-- (player_a, player_b, covariance, tableoid, ctid) give them, read in C and
-- numbered there in their keys' order; the players' ratings read by
-- ratings_sql ($1 the array of their keys; its one row the array of their
-- ratings, NULL unrated); key: NULL of the key's type.  Players as keys, a
-- kept pair with its stored row (rel, tid; NULL new), then each stored pair
-- not kept (correlation NULL).
CREATE FUNCTION glicko2_internal.glicko2_teammates_close_terms(
  method text, max_rd float8, key anyelement, rows_sql text, period text, expected_rows bigint,
  store_sql text, ratings_sql text, party_advantage float8, size_advantage float8)
  RETURNS TABLE (player anyelement, information float8, surprise float8, partner anyelement, correlation float8,
                 rel oid, tid tid)
  AS 'MODULE_PATHNAME', 'glicko2_teammates_close_terms'
  LANGUAGE C STABLE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_teammates_close_terms(text, float8, anyelement, text, text, bigint, text, text, float8, float8) IS
  'Helper of glicko2_close_matches with a teammates store: glicko2_teammates_terms on one period''s rows and the store''s pairs as the queries rows_sql ($1 the period: match, team, player of the ratings key''s type, place bigint, weight float8, all NULL none, party, NULL alone) and store_sql (player_a, player_b, covariance, tableoid, ctid) give them, read in C straight from the executor and numbered there in their keys'' order (expected_rows: how many rows to make room for, NULL unknown); the players'' ratings read by ratings_sql ($1 the array of their keys in that order; its one row the array of their ratings, NULL unrated); key: a NULL of the key''s type; players and partners as keys, a kept pair with its stored row (rel, tid; NULL new), then each stored pair not kept (correlation NULL)';

-- A teammates store's columns, checked (the close and the live trigger):
-- player_a and player_b of the ratings key's type, covariance float8.
CREATE FUNCTION glicko2_internal.glicko2_teammates_check(teammates regclass, key_type regtype)
  RETURNS void
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  IF (SELECT c.relkind FROM pg_class c WHERE c.oid = teammates) NOT IN ('r', 'p') THEN
    RAISE EXCEPTION 'teammates % is not a table', teammates USING ERRCODE = '42809';
  END IF;
  IF glicko2_internal.glicko2_column_type(teammates, 'player_a', 'teammates') <> key_type
     OR glicko2_internal.glicko2_column_type(teammates, 'player_b', 'teammates') <> key_type THEN
    RAISE EXCEPTION 'columns player_a and player_b of teammates % are not of the ratings key''s type %', teammates, key_type
      USING ERRCODE = '42804', HINT = 'Create the store with glicko2_teammates_create(name, ratings).';
  END IF;
  IF glicko2_internal.glicko2_column_type(teammates, 'covariance', 'teammates') <> 'float8'::regtype THEN
    RAISE EXCEPTION 'column covariance of teammates % is not float8', teammates
      USING ERRCODE = '42804', HINT = 'Create the store with glicko2_teammates_create(name, ratings).';
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_teammates_check(regclass, regtype) IS
  'Helper of glicko2_close_matches and of glicko2_rate_matches'' teammates option: an ERROR unless the teammates store is a table with player_a and player_b of the ratings key''s type and covariance float8';

-- A teammates store must be one ratings table's (a store of two would mix
-- their players' pairs, and rebuilding it for one would lose the other's):
-- an ERROR (55000) naming the other ratings table where the store's
-- creation recorded one (glicko2_teammates_create's comment), a close of
-- one named it, or a glicko2_rate_matches trigger of one names it (other
-- than trigger, the one being checked; NULL none).  The close, the live
-- trigger, replay and recompute ask it.
CREATE FUNCTION glicko2_internal.glicko2_teammates_owner(teammates regclass, ratings regclass,
                                                         trigger oid DEFAULT NULL)
  RETURNS void
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  other regclass;
  why text;
  created text := substring(obj_description(teammates, 'pg_class')
                            FROM '^glicko2 teammates store of (.+): the covariance');
BEGIN
  IF created IS NOT NULL THEN
    BEGIN
      other := to_regclass(created);
    EXCEPTION WHEN OTHERS THEN
      other := NULL;              -- (an edited comment: no record)
    END;
    IF other = ratings THEN
      other := NULL;
    ELSIF other IS NOT NULL THEN
      why := format('It was created for %s (glicko2_teammates_create).', other);
    END IF;
  END IF;
  IF other IS NULL THEN
    SELECT c.ratings, format('A close of %s named it (glicko2_closes).', c.ratings) INTO other, why
    FROM @extschema@.glicko2_closes c
    WHERE c.teammates = glicko2_teammates_owner.teammates AND c.ratings <> glicko2_teammates_owner.ratings
    ORDER BY c.ratings::text LIMIT 1;
  END IF;
  IF other IS NULL THEN
    SELECT r.ratings, format('Trigger %I on %s names it.', g.tgname, g.tgrelid::regclass) INTO other, why
    FROM pg_trigger g
    CROSS JOIN LATERAL (SELECT glicko2_internal.glicko2_live_ratings(g.oid) AS ratings) r
    WHERE g.tgfoid = '@extschema@.glicko2_rate_matches()'::regprocedure
      AND g.oid IS DISTINCT FROM glicko2_teammates_owner.trigger
      AND r.ratings <> glicko2_teammates_owner.ratings
      AND glicko2_internal.glicko2_live_teammates(g.oid) = glicko2_teammates_owner.teammates
    ORDER BY g.tgrelid::regclass::text, g.tgname LIMIT 1;
  END IF;
  IF other IS NOT NULL THEN
    RAISE EXCEPTION 'teammates store % belongs to ratings table %, not %', teammates, other, ratings
      USING ERRCODE = '55000', DETAIL = why,
            HINT = 'Give each ratings table a store of its own (glicko2_teammates_create).';
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_teammates_owner(regclass, regclass, oid) IS
  'Helper of glicko2_close_matches, glicko2_rate_matches'' teammates option, glicko2_replay_matches and glicko2_recompute: an ERROR unless the store is the ratings table''s (its creation, the closes and the live triggers other than trigger name no other)';

CREATE PROCEDURE glicko2_teammates_create(name text, ratings regclass, player_column name DEFAULT 'player_id')
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  ident text;
  key_type regtype;
BEGIN
  IF name IS NULL OR ratings IS NULL OR player_column IS NULL THEN
    RAISE EXCEPTION 'name, ratings and player_column must not be NULL' USING ERRCODE = '22004';
  END IF;
  -- (a name without a schema goes into the ratings table's schema)
  SELECT string_agg(quote_ident(x), '.' ORDER BY o) INTO ident FROM unnest(parse_ident(name)) WITH ORDINALITY u(x, o);
  IF cardinality(parse_ident(name)) = 1 THEN
    SELECT quote_ident(n.nspname) || '.' || ident INTO ident
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = ratings;
  END IF;
  key_type := glicko2_internal.glicko2_column_type(ratings, player_column, 'player_column');
  -- (half of each page free: a close or a live match updates a kept pair's
  -- row on its own page, without new index entries)
  EXECUTE format('CREATE TABLE %1$s (player_a %2$s NOT NULL, player_b %2$s NOT NULL, covariance float8 NOT NULL,'
                 ' PRIMARY KEY (player_a, player_b), CHECK (player_a < player_b),'
                 ' CHECK (covariance > CAST(''-Infinity'' AS float8) AND covariance < CAST(''Infinity'' AS float8)))'
                 ' WITH (fillfactor = 50)',
                 ident, key_type);
  -- (the live trigger reads a player's pairs by either column)
  EXECUTE format('CREATE INDEX ON %s (player_b)', ident);
  EXECUTE format('COMMENT ON TABLE %s IS %L', ident,
                 format('glicko2 teammates store of %s: the covariance (rating points squared) of pairs of recurring teammates', ratings));
END
$$;
COMMENT ON PROCEDURE glicko2_teammates_create(text, regclass, name) IS
  'Creates the store of recurring teammates'' covariances for a ratings table (named by glicko2_close_matches'' teammates): a table name (in the ratings table''s schema unless the name has one; player_a, player_b of the ratings key''s type, player_a < player_b, covariance float8 in rating points squared)';

-- Rewrites a teammates store after a close: every pair kept whose players
-- both have a rating, its covariance its correlation times both players'
-- new RDs (from the ratings just written), in one statement: a kept pair's
-- row (pair_rel, pair_tid: its table and TID as the close read it, which
-- its lock holds still; NULL new) updated in place (the store is made with
-- room on its pages for that: no index entry is written), every other row
-- read (drop_rel, drop_tid: not kept; or a player without a rating)
-- deleted, a new pair inserted; rows found by their TIDs (a list of them: no
-- scan of the whole store, no hash of it; the lists reach the plan through
-- subqueries, as the planner would otherwise estimate each TID of a
-- constant list one by one).
CREATE FUNCTION glicko2_internal.glicko2_teammates_write(
  teammates regclass, ratings regclass, player_column name, rating_column name, key_type regtype,
  pair_a text[], pair_b text[], correlation float8[], pair_rel oid[], pair_tid tid[],
  drop_rel oid[], drop_tid tid[], n_stored bigint, what text)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET extra_float_digits = 1
  SET jit = off
AS $$
DECLARE
  n_updated bigint;
  n_deleted bigint;
  n_inserted bigint;
  meant bigint;
BEGIN
  EXECUTE format($sql$
    WITH src AS (
      SELECT u.rel, u.tid, CAST(u.a AS %1$s) AS a, CAST(u.b AS %1$s) AS b, u.r * (ra.%3$I).rd * (rb.%3$I).rd AS c
      FROM unnest(CAST($1 AS text[]), CAST($2 AS text[]), CAST($3 AS float8[]), CAST($4 AS oid[]),
                  CAST($5 AS tid[])) u(a, b, r, rel, tid)
      LEFT JOIN %2$s ra ON ra.%4$I = CAST(u.a AS %1$s)
      LEFT JOIN %2$s rb ON rb.%4$I = CAST(u.b AS %1$s)),
    upd AS (UPDATE %5$s t SET covariance = src.c FROM src
            WHERE t.ctid = ANY (CAST((SELECT $5) AS tid[])) AND t.ctid = src.tid AND t.tableoid = src.rel
              AND src.c IS NOT NULL RETURNING 1),
    del AS (DELETE FROM %5$s t
            WHERE t.ctid = ANY (CAST((SELECT $7 || array_agg(src.tid) FROM src WHERE src.c IS NULL) AS tid[])) %6$s
            RETURNING 1),
    ins AS (INSERT INTO %5$s (player_a, player_b, covariance)
            SELECT src.a, src.b, src.c FROM src WHERE src.tid IS NULL AND src.c IS NOT NULL RETURNING 1)
    SELECT (SELECT count(*) FROM upd), (SELECT count(*) FROM del), (SELECT count(*) FROM ins),
           (SELECT count(*) FROM src WHERE src.c IS NOT NULL)
    $sql$, key_type, ratings, rating_column, player_column, teammates,
           -- (the TIDs of a partitioned store's rows are its partitions')
           CASE WHEN (SELECT c.relkind FROM pg_class c WHERE c.oid = teammates) = 'p' THEN
             'AND (t.tableoid, t.ctid) IN (SELECT v.rel, v.tid FROM unnest($6, $7) v(rel, tid)
                                           UNION ALL SELECT src.rel, src.tid FROM src WHERE src.c IS NULL)'
           END)
    INTO n_updated, n_deleted, n_inserted, meant
    USING coalesce(pair_a, '{}'), coalesce(pair_b, '{}'), coalesce(correlation, '{}'), coalesce(pair_rel, '{}'),
          coalesce(pair_tid, '{}'), coalesce(drop_rel, '{}'), coalesce(drop_tid, '{}');
  PERFORM glicko2_internal.glicko2_require_written(teammates, n_updated + n_deleted, n_stored,
                                                   'rewrite of the teammates store for ' || what);
  PERFORM glicko2_internal.glicko2_require_written(teammates, n_updated + n_inserted, meant,
                                                   'teammates store of ' || what);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_teammates_write(regclass, regclass, name, name, regtype, text[], text[], float8[], oid[], tid[], oid[], tid[], bigint, text) IS
  'Helper of glicko2_close_matches: rewrites the teammates store with the pairs kept, each covariance its correlation times both players'' RDs in the ratings just written, in one statement: a kept pair''s row (pair_rel, pair_tid: its table and TID as the close read it, NULL new) updated in place, each row read and not kept (drop_rel, drop_tid) deleted, a new pair inserted; an ERROR unless every one of the n_stored rows read was updated or deleted and every pair kept was written';

-- A store's pairs after a close, kept in glicko2_teammates_history: a
-- close with a history table keeps them (restore false); glicko2_recompute
-- puts them back into the emptied store (restore true).  Every pair copied
-- or an ERROR.
CREATE FUNCTION glicko2_internal.glicko2_teammates_kept(ratings regclass, period_text text, teammates regclass,
                                                        restore boolean)
  RETURNS void
  LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
  SET extra_float_digits = 1
AS $$
DECLARE
  src_sql text;
  target text;
  n bigint;
  meant bigint;
BEGIN
  IF restore THEN
    src_sql := format('SELECT CAST(t.player_a AS %s), CAST(t.player_b AS %1$s), t.covariance
                       FROM @extschema@.glicko2_teammates_history t
                       WHERE t.ratings = $1 AND t.period = $2 AND t.teammates = $3',
                      glicko2_internal.glicko2_column_type(teammates, 'player_a', 'teammates'));
    target := format('%s (player_a, player_b, covariance)', teammates);
  ELSE
    src_sql := format('SELECT $1, $2, $3, CAST(st.player_a AS text), CAST(st.player_b AS text), st.covariance FROM %s st',
                      teammates);
    target := '@extschema@.glicko2_teammates_history (ratings, period, teammates, player_a, player_b, covariance)';
  END IF;
  EXECUTE format('WITH src AS (%s), ins AS (INSERT INTO %s SELECT * FROM src RETURNING 1)
                  SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM src)', src_sql, target)
    INTO n, meant USING ratings, period_text, teammates;
  PERFORM glicko2_internal.glicko2_require_written(
            CASE WHEN restore THEN teammates ELSE '@extschema@.glicko2_teammates_history'::regclass END, n, meant,
            format('pairs of %s after period %s of %s', teammates, period_text, ratings));
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_teammates_kept(regclass, text, regclass, boolean) IS
  'Helper of glicko2_close_matches and glicko2_recompute: copies the teammates store''s pairs after the close of period_text into glicko2_teammates_history (restore false: a close with a store and a history table), or those kept back into the emptied store (restore true); an ERROR unless every pair was written';

-- Every argument and column of a matches close, checked as
-- glicko2_close_matches checks them (glicko2_close_check's, then the
-- matches' columns, the advantages, the party column, the store): for
-- glicko2_close_matches and glicko2_replay_matches, which checks before it
-- empties anything.  Returns glicko2_close_check's results and the weight
-- column read (glicko2_match_columns).
CREATE FUNCTION glicko2_internal.glicko2_matches_check(
  procedure_name text, ratings regclass, matches regclass, period anyelement, method text,
  tau float8, max_rd float8, history regclass, player_column name, rating_column name, period_column name,
  match_column name, match_player_column name, team_column name, place_column name, weight_column name,
  party_column name, party_advantage float8, size_advantage float8, teammates regclass,
  OUT key_type regtype, OUT period_type regtype, OUT period_text text,
  OUT weight_column_read name, OUT weight_sql text)
  LANGUAGE plpgsql STABLE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  c record;
BEGIN
  IF ratings IS NULL OR matches IS NULL OR method IS NULL THEN
    RAISE EXCEPTION 'ratings, matches, period and method must not be NULL' USING ERRCODE = '22004';
  END IF;
  IF method NOT IN ('sum', 'mean', 'individual', 'composite') THEN
    RAISE EXCEPTION 'method must be ''sum'', ''mean'', ''individual'' or ''composite'', not %', quote_literal(method)
      USING ERRCODE = '22023';
  END IF;
  c := glicko2_internal.glicko2_close_check(procedure_name, ratings, matches, 'matches', period,
                                       tau, max_rd, history, player_column, rating_column, period_column);
  key_type := c.key_type;
  period_type := c.period_type;
  period_text := c.period_text;
  PERFORM glicko2_internal.glicko2_column_type(matches, match_column, 'match_column'),
          glicko2_internal.glicko2_column_type(matches, team_column, 'team_column');
  PERFORM glicko2_internal.glicko2_key_column_check(matches, match_player_column, 'match_player_column',
                                               ratings, player_column, key_type);
  SELECT w.weight_column, w.weight_sql INTO weight_column_read, weight_sql
  FROM glicko2_internal.glicko2_match_columns(matches, place_column, weight_column) w;
  PERFORM glicko2_internal.glicko2_advantages_check(method, party_advantage, size_advantage);
  IF party_column IS NOT NULL THEN
    PERFORM glicko2_internal.glicko2_party_column(matches, party_column);
  END IF;
  IF teammates IS NOT NULL THEN
    IF method NOT IN ('sum', 'mean') THEN
      RAISE EXCEPTION 'a teammates store needs the method ''sum'' or ''mean'', not %', quote_literal(method)
        USING ERRCODE = '22023',
              DETAIL = 'The store carries covariances of the team model''s strengths; ''individual'' and ''composite'' have none.';
    END IF;
    PERFORM glicko2_internal.glicko2_teammates_check(teammates, key_type);
    PERFORM glicko2_internal.glicko2_teammates_owner(teammates, ratings);
    IF glicko2_internal.glicko2_citus_distributed(ratings) OR glicko2_internal.glicko2_citus_distributed(matches)
       OR glicko2_internal.glicko2_citus_distributed(teammates) THEN
      RAISE EXCEPTION '% with a teammates store does not run on tables Citus distributes', procedure_name
        USING ERRCODE = '0A000',
              DETAIL = format('The store''s close rates a player together with his recurring teammates: one computation over every player, match and pair of the period, in one backend, which Citus cannot plan over %s.',
                              concat_ws(', ', CASE WHEN glicko2_internal.glicko2_citus_distributed(ratings) THEN ratings::text END,
                                              CASE WHEN glicko2_internal.glicko2_citus_distributed(matches) THEN matches::text END,
                                              CASE WHEN glicko2_internal.glicko2_citus_distributed(teammates) THEN teammates::text END)),
              HINT = 'Close without teammates (each player rated alone, on the workers: docs/citus.md, "Close"), or keep a league with a store on plain tables.';
    END IF;
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_matches_check(text, regclass, regclass, anyelement, text, float8, float8, regclass, name, name, name, name, name, name, name, name, name, float8, float8, regclass) IS
  'Helper of glicko2_close_matches and glicko2_replay_matches: checks a matches close''s arguments and columns (glicko2_close_check''s, the matches'' columns, the method, the advantages, the party column, the teammates store and its owner, refused on tables Citus distributes), each error naming what is wrong; gives the ratings key type, the period''s type and text and the weight column read';

CREATE PROCEDURE glicko2_close_matches(
  ratings regclass, matches regclass, period anyelement, method text DEFAULT 'sum',
  tau float8 DEFAULT 0.5, max_rd float8 DEFAULT 350, history regclass DEFAULT NULL,
  player_column name DEFAULT 'player_id', rating_column name DEFAULT 'rating',
  period_column name DEFAULT 'period', match_column name DEFAULT 'match_id',
  match_player_column name DEFAULT 'player_id', team_column name DEFAULT 'team',
  place_column name DEFAULT 'place', unguarded boolean DEFAULT false,
  weight_column name DEFAULT NULL, party_column name DEFAULT NULL,
  party_advantage float8 DEFAULT 0, size_advantage float8 DEFAULT 0,
  teammates regclass DEFAULT NULL,
  min_rating float8 DEFAULT NULL, max_change float8 DEFAULT NULL, max_volatility float8 DEFAULT NULL)
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
  SET datestyle = 'ISO, YMD'
  SET intervalstyle = 'postgres'
  SET extra_float_digits = 1
AS $$
DECLARE
  mates record;
  jit_setting text;
  c record;
  weight_sql text;
  weights_sql text := 'CAST(NULL AS float8[])';
  party_sql text := 'NULL';
  parties_sql text := 'NULL';
  last_number bigint;
  n_rows bigint;
  n_null bigint;
  bad record;
  match_columns name[];
BEGIN
  IF ratings IS NULL OR matches IS NULL OR period IS NULL THEN
    RAISE EXCEPTION 'ratings, matches, period and method must not be NULL' USING ERRCODE = '22004';
  END IF;
  c := glicko2_internal.glicko2_matches_check('glicko2_close_matches', ratings, matches, period, method, tau, max_rd,
                                              history, player_column, rating_column, period_column, match_column,
                                              match_player_column, team_column, place_column, weight_column,
                                              party_column, party_advantage, size_advantage, teammates);
  weight_column := c.weight_column_read;
  weight_sql := c.weight_sql;
  match_columns := ARRAY[match_column, match_player_column, team_column, place_column, weight_column, party_column];
  IF weight_column IS NOT NULL THEN
    weights_sql := 'array_agg(m.w)';
  END IF;
  IF party_column IS NOT NULL THEN
    party_sql := format('g.%I', party_column);
    parties_sql := 'array_agg(m.pt)';
  END IF;

  last_number := glicko2_internal.glicko2_close_lock(ratings, matches, c.period_type, c.period_text);
  PERFORM glicko2_internal.glicko2_close_guard(ratings, matches, c.period_text, period_column, unguarded);

  -- One cheap pass for the row count and NULLs (rows the reduction cannot
  -- see, like a NULL match); the reduction itself refuses the rest, and
  -- then the whole period is searched for the first bad row to name.
  EXECUTE format($sql$
    SELECT count(*), count(*) FILTER (WHERE g.%1$I IS NULL OR g.%2$I IS NULL OR g.%3$I IS NULL
                                         OR g.%4$I IS NULL OR g.%4$I < 1
                                         OR NOT coalesce(%8$s > 0 AND %8$s <= 1, false))
    FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)
    $sql$, match_column, match_player_column, team_column, place_column, matches, period_column, c.period_type,
           weight_sql)
    INTO n_rows, n_null USING c.period_text;
  BEGIN
    IF n_null > 0 THEN  -- (named by the handler below, like the reduction's errors)
      RAISE EXCEPTION 'bad row' USING ERRCODE = '22004';
    END IF;
    IF teammates IS NULL AND glicko2_internal.glicko2_citus_hash_by(ratings, player_column)
       AND glicko2_internal.glicko2_citus_hash_by(matches, match_column) THEN
      -- Ratings Citus distributes by the player, matches by the match: the
      -- same close on the workers (sql/close_citus.sql).
      PERFORM glicko2_internal.glicko2_close_matches_on_workers(ratings, matches, c.period_text, c.period_type,
        last_number, method, tau, max_rd, history, player_column, rating_column, period_column, match_columns,
        weight_sql, party_advantage, size_advantage, min_rating, max_change, max_volatility, n_rows);
    ELSIF teammates IS NULL THEN
      -- Each match's game sides as their terms of the players' sums, computed
      -- in C from the match's pre-period ratings (glicko2_close_ratings'
      -- 'terms' form: (player, information, surprise)).
      PERFORM glicko2_internal.glicko2_close_apply(ratings, matches, c.period_text, last_number, format($sql$
          SELECT s.player, s.information, s.surprise
          FROM (SELECT array_agg(m.p) AS ps, array_agg(m.t) AS ts, array_agg(m.pl) AS pls,
                       array_agg(r.%6$I) AS rs, %13$s AS ws, %15$s AS pts
                FROM (SELECT g.%1$I AS mt, CAST(g.%2$I AS %10$s) AS p, g.%3$I AS t,
                             CAST(g.%4$I AS bigint) AS pl, %12$s AS w, %14$s AS pt
                      FROM %7$s g WHERE g.%8$I = CAST($1 AS %9$s)) m
                LEFT JOIN %11$s r ON r.%5$I = m.p
                GROUP BY m.mt) x
          CROSS JOIN LATERAL @extschema@.glicko2_match_sides(x.ps, x.ts, x.pls, x.rs, $2, x.ws, CAST($3 AS float8),
                                                             x.pts, CAST(%16$L AS float8), CAST(%17$L AS float8)) s
        $sql$, match_column, match_player_column, team_column, place_column, player_column, rating_column,
               matches, period_column, c.period_type, c.key_type, ratings, weight_sql, weights_sql,
               party_sql, parties_sql, party_advantage, size_advantage),
        method, n_rows, tau, max_rd, history, player_column, rating_column, games_form => 'terms',
        min_rating => min_rating, max_change => max_change, max_volatility => max_volatility,
        method => method, match_columns => match_columns, party_advantage => party_advantage,
        size_advantage => size_advantage, teammates => teammates);
    ELSE
      -- The period with the store (glicko2_teammates_close_terms): the
      -- period's rows and the store's pairs read in C (no array or sort of
      -- every row in SQL), numbered there, the players' ratings read there by
      -- their keys; its terms (one row a player) go to the pass as the text
      -- of a 3 x n array ($2), the pairs kept are written after it.
      EXECUTE format('LOCK TABLE %s IN SHARE ROW EXCLUSIVE MODE', teammates);
      -- (without JIT: the planner's estimates of this one statement are far
      -- too high, and JIT compiling it took longer than running it)
      jit_setting := current_setting('jit');
      PERFORM set_config('jit', 'off', true);
      EXECUTE format($sql$
        SELECT ARRAY[array_agg(CAST(o.player AS text)) FILTER (WHERE o.partner IS NULL),
                     array_agg(CAST(o.information AS text)) FILTER (WHERE o.partner IS NULL),
                     array_agg(CAST(o.surprise AS text)) FILTER (WHERE o.partner IS NULL)] AS terms,
               array_agg(CAST(o.player AS text)) FILTER (WHERE o.correlation IS NOT NULL) AS pair_a,
               array_agg(CAST(o.partner AS text)) FILTER (WHERE o.correlation IS NOT NULL) AS pair_b,
               array_agg(o.correlation) FILTER (WHERE o.correlation IS NOT NULL) AS correlation,
               array_agg(o.rel) FILTER (WHERE o.correlation IS NOT NULL) AS pair_rel,
               array_agg(o.tid) FILTER (WHERE o.correlation IS NOT NULL) AS pair_tid,
               array_agg(o.rel) FILTER (WHERE o.partner IS NOT NULL AND o.correlation IS NULL) AS drop_rel,
               array_agg(o.tid) FILTER (WHERE o.partner IS NOT NULL AND o.correlation IS NULL) AS drop_tid,
               (SELECT count(*) FROM %1$s) AS n_stored
        FROM glicko2_internal.glicko2_teammates_close_terms($2, $3, CAST(NULL AS %2$s), $6, $1, $7, $8, $9, $4, $5) o
        $sql$, teammates, c.key_type)
        INTO mates USING c.period_text, method, max_rd, party_advantage, size_advantage,
                         format('SELECT g.%1$I, g.%3$I, CAST(g.%2$I AS %8$s), CAST(g.%4$I AS bigint), %9$s, %10$s'
                                ' FROM %5$s g WHERE g.%6$I = CAST($1 AS %7$s)',
                                match_column, match_player_column, team_column, place_column, matches,
                                period_column, c.period_type, c.key_type,
                                CASE WHEN weight_column IS NULL THEN 'CAST(NULL AS float8)' ELSE weight_sql END,
                                CASE WHEN party_column IS NULL THEN 'CAST(NULL AS int)'
                                     ELSE format('g.%I', party_column) END),
                         n_rows,
                         format('SELECT s.player_a, s.player_b, s.covariance, s.tableoid, s.ctid FROM %s s', teammates),
                         format('SELECT array_agg(r.%I ORDER BY u.n) FROM unnest($1) WITH ORDINALITY u(p, n)'
                                ' LEFT JOIN %s r ON r.%I = u.p', rating_column, ratings, player_column);
      PERFORM set_config('jit', jit_setting, true);
      PERFORM glicko2_internal.glicko2_close_apply(ratings, matches, c.period_text, last_number, format($sql$
          SELECT CAST(u.p AS %1$s), CAST(u.i AS float8), CAST(u.s AS float8)
          FROM (SELECT CAST($2 AS text[]) AS a) x,
               ROWS FROM (unnest(x.a[1:1][:]), unnest(x.a[2:2][:]), unnest(x.a[3:3][:])) u(p, i, s)
        $sql$, c.key_type),
        CASE WHEN mates.terms[1][1] IS NULL THEN '{}' ELSE mates.terms::text END, n_rows, tau, max_rd, history, player_column, rating_column,
        games_form => 'terms',
        min_rating => min_rating, max_change => max_change, max_volatility => max_volatility,
        method => method, match_columns => match_columns, party_advantage => party_advantage,
        size_advantage => size_advantage, teammates => teammates);
      PERFORM glicko2_internal.glicko2_teammates_write(teammates, ratings, player_column, rating_column, c.key_type,
                                                      mates.pair_a, mates.pair_b, mates.correlation, mates.pair_rel,
                                                      mates.pair_tid, mates.drop_rel, mates.drop_tid, mates.n_stored,
                                                      format('period %s of %s', c.period_text, matches));
      IF history IS NOT NULL THEN
        PERFORM glicko2_internal.glicko2_teammates_kept(ratings, c.period_text, teammates, false);
      END IF;
    END IF;
  EXCEPTION WHEN null_value_not_allowed OR unique_violation OR invalid_parameter_value
                 OR numeric_value_out_of_range THEN
    bad := glicko2_internal.glicko2_bad_match(matches, c.period_text, c.period_type, period_column, match_column,
                                         match_player_column, team_column, place_column, weight_column,
                                         party_column);
    IF bad.why IS NULL THEN
      RAISE;
    END IF;
    RAISE EXCEPTION 'bad match in period % of %: %', c.period_text, matches, bad.why
      USING ERRCODE = bad.sqlstate,
            DETAIL = format('Problems found among the period''s %s rows: %s (a NULL column, a place below 1, a weight outside (0, 1], a player twice in a match or on two teams, a team with two places, a match of one team, a party on two teams of a match); nothing was changed.',
                            bad.n_rows, bad.n_bad);
  END;
END
$$;
COMMENT ON PROCEDURE glicko2_close_matches(regclass, regclass, anyelement, text, float8, float8, regclass, name, name, name, name, name, name, name, boolean, name, name, float8, float8, regclass, float8, float8, float8) IS
  'Closes one period for a whole ratings table from team and free-for-all matches (one row per player per match: match_id, period, player_id, team, place [, weight]), atomically and exactly once like glicko2_close_period and sharing its record: each match''s game sides and their terms by glicko2_match_sides (''sum'', the default, and ''mean'': the team model; ''individual'' and ''composite'': Williams 2013), the paper''s update of each player from his sums and pre-period rating, Step 6 capped at max_rd for idle players, new players added; weight_column (NULL: a column named weight if there is one, else every share 1) is each player''s share of the match, in (0, 1]; party_column (NULL: none) labels the players of a team who queued together (NULL: alone), party_advantage the points each member of a party of two or more adds to his team''s strength (times his weight in it), size_advantage the points per team member beyond one (the sum of the shares less 1), both ''sum'' and ''mean'' only; teammates (a store made by glicko2_teammates_create; ''sum'' and ''mean'' only) rates players together with their recurring teammates, carrying their covariances from period to period, and rewrites the store in the same transaction; min_rating, max_change, max_volatility (NULL: off): floors and caps of every new rating, as glicko2_close_period''s';
