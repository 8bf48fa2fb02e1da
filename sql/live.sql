------------------------------------------------------------------------------
-- Live ratings: one game rated as it is written (glicko2_game, glicko2_rate_games, glicko2_rating_at)
------------------------------------------------------------------------------

CREATE FUNCTION glicko2_game(player glicko2_rating, opponent glicko2_rating, score float8,
                             tau float8 DEFAULT 0.5, elapsed_periods float8 DEFAULT 0)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_game_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_game(glicko2_rating, glicko2_rating, float8, float8, float8) IS
  'The player''s rating after one game, rated at once: the paper''s update with Step 6 over elapsed_periods periods (1: glicko2_period over that one game; 0: no growth inside the game, lichess''s live update); NULL ratings are unrated players';

-- IMMUTABLE: the result depends only on the arguments (a period is a fixed
-- number of seconds, a day 24 hours, a month 30 days); the default now()
-- is evaluated in the caller's expression, which is then STABLE.
CREATE FUNCTION glicko2_rating_at(r glicko2_rating, rated_at timestamptz,
                                  at timestamptz DEFAULT now(),
                                  period interval DEFAULT '1 day',
                                  max_rd float8 DEFAULT 350)
  RETURNS glicko2_rating AS 'MODULE_PATHNAME', 'glicko2_rating_at_sql'
  LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_rating_at(glicko2_rating, timestamptz, timestamptz, interval, float8) IS
  'A rating as of time at: RD grown by Step 6 for the fractional periods since rated_at, up to max_rd (NULL: no cap), nothing written; a time before rated_at (or a NULL rated_at) gives r as it is';

-- The trigger reads its arguments: the ratings table (unqualified: in the
-- games table's schema), then 'name=value' options.
CREATE FUNCTION glicko2_rate_games()
  RETURNS trigger AS 'MODULE_PATHNAME', 'glicko2_rate_games'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_rate_games() IS
  'AFTER INSERT ... FOR EACH ROW trigger for a games table: rates both players of each game at once in the inserting transaction (RD grown for the time since rated_at, then glicko2_game at t = 0 from both pre-game ratings); arguments: the ratings table, then ''period=1 day'', ''tau=0.5'', ''max_rd=350'' (or none), column names, parties and advantages, and ''teammates=store'' (a store of glicko2_teammates_create read and rewritten with the ratings, each match rated with its players'' stored covariances)';

-- One game rated in the caller's transaction, by one-row statements in key
-- order (C: src/live_rate_game.c): the path where no row trigger can rate,
-- such as a ratings table Citus distributes (docs/citus.md#live-ratings).
-- Not STRICT: a NULL player, score or time is a bad game, refused.
CREATE FUNCTION glicko2_rate_game(ratings regclass, player_id anyelement, opponent_id anyelement,
                                  score float8, played_at timestamptz,
                                  VARIADIC options text[] DEFAULT '{}')
  RETURNS void AS 'MODULE_PATHNAME', 'glicko2_rate_game'
  LANGUAGE C VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION glicko2_rate_game(regclass, anyelement, anyelement, float8, timestamptz, text[]) IS
  'Rates one game in the caller''s transaction as glicko2_rate_games does (the same update, bit for bit), with one-row statements in key order: each player''s row locked by key (added as unrated if missing), both rated, each written by key; for ratings tables no row trigger can serve (Citus); options as the trigger''s: ''period=1 day'', ''tau=0.5'', ''max_rd=350'' (or none), floors and caps, column names';

-- Team and free-for-all matches rated live (C: src/live_matches.c).  Its
-- arguments: the ratings table, then 'name=value' options.
CREATE FUNCTION glicko2_rate_matches()
  RETURNS trigger AS 'MODULE_PATHNAME', 'glicko2_rate_matches'
  LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION glicko2_rate_matches() IS
  'AFTER INSERT ... REFERENCING NEW TABLE AS ... FOR EACH STATEMENT trigger for a matches table (one row per player per match: match_id, player_id, team, place, played_at [, weight]): rates every match the statement inserted, in order of played_at then match id, in the inserting transaction (each player''s RD grown for the time since rated_at, then the team model''s update at t = 0 from the ratings before the match); arguments: the ratings table, then ''method=sum'' (sum, mean, individual, composite), ''period=1 day'', ''tau=0.5'', ''max_rd=350'' (or none) and column names';

-- One team or free-for-all match rated in the caller's transaction, as the
-- glicko2_rate_matches trigger rates a statement that inserted its rows, by
-- one-row statements in key order (C: src/live_rate_match.c): the path for
-- matches where no statement trigger can rate, such as tables Citus
-- distributes (docs/citus.md#live-ratings).  Not STRICT: a NULL argument
-- is refused by name.
CREATE FUNCTION glicko2_rate_match(ratings regclass, matches regclass, match_id anyelement,
                                   VARIADIC options text[] DEFAULT '{}')
  RETURNS void AS 'MODULE_PATHNAME', 'glicko2_rate_match'
  LANGUAGE C VOLATILE PARALLEL UNSAFE
  SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION glicko2_rate_match(regclass, regclass, anyelement, text[]) IS
  'Rates one match (the rows of matches with this match id, read in the caller''s transaction) as the glicko2_rate_matches trigger rates a statement that inserted exactly those rows (the same bits), with one-row statements in key order: each player''s row locked by key (added as unrated if missing), the match rated, each row written by key; for tables no statement trigger can serve (Citus); options as the trigger''s (method, period, tau, max_rd, column names, parties and advantages, floors and caps) but not teammates= (refused)';

------------------------------------------------------------------------------
-- Live triggers on partitioned and inheritance tables.  A statement fires
-- only the statement triggers of the table it names, and an inheritance
-- parent's row triggers do not fire for rows written to its children: a
-- glicko2_rate_matches trigger on a partitioned table never sees a row
-- written straight to a partition, nor glicko2_rate_games on an inheritance
-- parent a game written to a child.  So every table below one carrying a
-- live trigger needs a trigger like it (a partition's row trigger is
-- PostgreSQL's clone); the event trigger gives it to new partitions and
-- children, and a live trigger refuses to rate while a table below its own
-- lacks one (src/live_rows.c).
------------------------------------------------------------------------------

-- The ratings table a live trigger's first argument names, resolved as the
-- trigger resolves it (unqualified: in the schema of the trigger's table).
CREATE FUNCTION glicko2_internal.glicko2_live_ratings(trigger oid)
  RETURNS regclass
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT to_regclass(CASE WHEN cardinality(parse_ident(a.args[1])) = 1
                          THEN quote_ident(n.nspname) || '.' ELSE '' END || a.args[1])
  FROM pg_trigger g
  JOIN pg_class c ON c.oid = g.tgrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  CROSS JOIN LATERAL (SELECT glicko2_internal.glicko2_trigger_args(g.oid) AS args) a
  WHERE g.oid = trigger
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_live_ratings(oid) IS
  'Helper of the live triggers'' copies: the ratings table a live trigger names, resolved in the schema of its table when unqualified';

-- The teammates store a live trigger's last 'teammates=' option names,
-- resolved as the trigger resolves it (unqualified: in the schema of the
-- trigger's table); NULL: none, or no such table.
CREATE FUNCTION glicko2_internal.glicko2_live_teammates(trigger oid)
  RETURNS regclass
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT to_regclass(CASE WHEN cardinality(parse_ident(t.store)) = 1
                          THEN quote_ident(n.nspname) || '.' ELSE '' END || t.store)
  FROM pg_trigger g
  JOIN pg_class c ON c.oid = g.tgrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  CROSS JOIN LATERAL (SELECT substr(a.arg, length('teammates=') + 1) AS store
                      FROM unnest(glicko2_internal.glicko2_trigger_args(g.oid)) WITH ORDINALITY a(arg, k)
                      WHERE a.k > 1 AND starts_with(a.arg, 'teammates=')
                      ORDER BY a.k DESC LIMIT 1) t
  WHERE g.oid = trigger
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_live_teammates(oid) IS
  'Helper of the live triggers'' copies and of glicko2_teammates_owner: the teammates store a glicko2_rate_matches trigger names (its last teammates= option), resolved in the schema of its table when unqualified; NULL none';

-- Whether two triggers rate alike: the same function, events, timing, level,
-- enabled state and WHEN condition, a NEW TABLE each or neither, the same
-- ratings table and teammates store and the same other options.
CREATE FUNCTION glicko2_internal.glicko2_live_trigger_like(a oid, b oid)
  RETURNS boolean
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT coalesce(x.tgfoid = y.tgfoid AND x.tgtype = y.tgtype AND x.tgenabled = y.tgenabled
                  AND (x.tgnewtable IS NULL) = (y.tgnewtable IS NULL)
                  AND pg_get_expr(x.tgqual, x.tgrelid) IS NOT DISTINCT FROM pg_get_expr(y.tgqual, y.tgrelid)
                  AND glicko2_internal.glicko2_live_ratings(x.oid) = glicko2_internal.glicko2_live_ratings(y.oid)
                  AND glicko2_internal.glicko2_live_teammates(x.oid)
                      IS NOT DISTINCT FROM glicko2_internal.glicko2_live_teammates(y.oid)
                  AND ARRAY(SELECT a FROM unnest((glicko2_internal.glicko2_trigger_args(x.oid))[2:]) a
                            WHERE NOT starts_with(a, 'teammates='))
                      = ARRAY(SELECT a FROM unnest((glicko2_internal.glicko2_trigger_args(y.oid))[2:]) a
                              WHERE NOT starts_with(a, 'teammates=')), false)
  FROM pg_trigger x, pg_trigger y
  WHERE x.oid = a AND y.oid = b
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_live_trigger_like(oid, oid) IS
  'Helper of the live triggers'' copies: whether two triggers rate alike (function, events, timing, level, enabled state, WHEN, NEW TABLE, the same ratings table and options)';

-- The statement that gives relation a trigger like this one (the ratings
-- table and the teammates store qualified when relation is in another
-- schema: the copy resolves them as the original does).
CREATE FUNCTION glicko2_internal.glicko2_live_trigger_copy(trigger oid, relation regclass)
  RETURNS text
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT format('CREATE TRIGGER %I %s %s ON %s%s FOR EACH %s%s EXECUTE FUNCTION %I.%I(%s)',
                g.tgname,
                CASE WHEN g.tgtype & 2 <> 0 THEN 'BEFORE' ELSE 'AFTER' END,
                array_to_string(ARRAY[CASE WHEN g.tgtype & 4 <> 0 THEN 'INSERT' END,
                                      CASE WHEN g.tgtype & 8 <> 0 THEN 'DELETE' END,
                                      CASE WHEN g.tgtype & 16 <> 0 THEN 'UPDATE' END], ' OR '),
                relation,
                CASE WHEN g.tgnewtable IS NULL THEN ''
                     ELSE format(' REFERENCING NEW TABLE AS %I', g.tgnewtable) END,
                CASE WHEN g.tgtype & 1 <> 0 THEN 'ROW' ELSE 'STATEMENT' END,
                CASE WHEN g.tgqual IS NULL THEN ''
                     ELSE format(' WHEN (%s)', pg_get_expr(g.tgqual, g.tgrelid)) END,
                pn.nspname, p.proname,
                (SELECT string_agg(quote_literal(CASE WHEN r.relnamespace = c.relnamespace THEN a.arg
                                                      WHEN a.n = 1 AND rc.oid IS NOT NULL
                                                      THEN format('%I.%I', rn.nspname, rc.relname)
                                                      WHEN a.n > 1 AND starts_with(a.arg, 'teammates=') AND sc.oid IS NOT NULL
                                                      THEN format('teammates=%I.%I', sn.nspname, sc.relname)
                                                      ELSE a.arg END), ', ' ORDER BY a.n)
                 FROM unnest(glicko2_internal.glicko2_trigger_args(g.oid)) WITH ORDINALITY a(arg, n)
                 LEFT JOIN pg_class rc ON rc.oid = glicko2_internal.glicko2_live_ratings(g.oid)
                 LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
                 LEFT JOIN pg_class sc ON sc.oid = glicko2_internal.glicko2_live_teammates(g.oid)
                 LEFT JOIN pg_namespace sn ON sn.oid = sc.relnamespace))
         || CASE g.tgenabled WHEN 'O' THEN ''
                 WHEN 'D' THEN format('; ALTER TABLE %s DISABLE TRIGGER %I', relation, g.tgname)
                 WHEN 'A' THEN format('; ALTER TABLE %s ENABLE ALWAYS TRIGGER %I', relation, g.tgname)
                 ELSE format('; ALTER TABLE %s ENABLE REPLICA TRIGGER %I', relation, g.tgname) END
  FROM pg_trigger g
  JOIN pg_class c ON c.oid = g.tgrelid
  JOIN pg_proc p ON p.oid = g.tgfoid
  JOIN pg_namespace pn ON pn.oid = p.pronamespace
  CROSS JOIN pg_class r
  WHERE g.oid = trigger AND r.oid = relation
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_live_trigger_copy(oid, regclass) IS
  'Helper of the live triggers'' copies: the statement that gives the relation a trigger like this one';

-- For a live trigger: the topmost table above its own reached through
-- tables with a trigger like it (the matches table whose rows it counts),
-- the first table below its own (partitions and inheritance children at
-- every level) without one and the statement that would give it one, and
-- every table above and below (whose DDL may change these).
CREATE FUNCTION glicko2_internal.glicko2_live_trigger_scope(trigger oid, OUT top regclass,
                                                            OUT missing regclass, OUT fix text,
                                                            OUT hierarchy oid[])
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  WITH RECURSIVE up(r, depth, alike) AS (
      SELECT g.tgrelid, 0, true FROM pg_trigger g WHERE g.oid = trigger
    UNION ALL
      SELECT i.inhparent, up.depth + 1,
             up.alike AND EXISTS (SELECT FROM pg_trigger p
                                  WHERE p.tgrelid = i.inhparent
                                    AND glicko2_internal.glicko2_live_trigger_like(p.oid, trigger))
      FROM up JOIN pg_inherits i ON i.inhrelid = up.r
  ), down(r) AS (
      SELECT g.tgrelid FROM pg_trigger g WHERE g.oid = trigger
    UNION
      SELECT i.inhrelid FROM down JOIN pg_inherits i ON i.inhparent = down.r
  ), lacking AS (
      SELECT d.r FROM down d
      WHERE d.r <> (SELECT g.tgrelid FROM pg_trigger g WHERE g.oid = trigger)
        AND NOT EXISTS (SELECT FROM pg_trigger u
                        WHERE u.tgrelid = d.r AND glicko2_internal.glicko2_live_trigger_like(u.oid, trigger))
      ORDER BY d.r::regclass::text LIMIT 1
  )
  SELECT (SELECT up.r FROM up WHERE up.alike ORDER BY up.depth DESC, up.r LIMIT 1)::regclass,
         (SELECT lacking.r FROM lacking)::regclass,
         (SELECT glicko2_internal.glicko2_live_trigger_copy(trigger, lacking.r) FROM lacking),
         ARRAY(SELECT up.r FROM up UNION SELECT down.r FROM down)
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_live_trigger_scope(oid) IS
  'Helper of the live triggers: the topmost table above the trigger''s reached through tables with a trigger like it, the first table below without one and the statement giving it one, and the tables above and below';

-- At the end of CREATE TABLE and ALTER TABLE: each partition or inheritance
-- child (at every level below the tables the command names) whose parent
-- has a live trigger gets a trigger like it, unless it has one (a
-- partition's cloned row trigger is one) or one of that name of the same
-- function (left as the owner made it, disabled say: the parent's trigger
-- then refuses to rate; one of another function is refused here).
CREATE FUNCTION glicko2_internal.glicko2_live_new_children()
  RETURNS event_trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  c record;
  created boolean := true;
BEGIN
  -- (Citus's own commands on its shards: see glicko2_citus_internal)
  IF glicko2_internal.glicko2_citus_internal() THEN
    RETURN;
  END IF;
  -- (again after a pass: a child's own children compare with its new triggers)
  WHILE created LOOP
    created := false;
    FOR c IN
      SELECT DISTINCT ON (tree.r) tree.r::regclass AS rel, p.oid AS parent_trigger, p.tgname,
             p.tgrelid::regclass AS parent
      FROM glicko2_internal.glicko2_new_tables() tree(r)
      JOIN pg_inherits i ON i.inhrelid = tree.r
      JOIN pg_trigger p ON p.tgrelid = i.inhparent
                       AND p.tgfoid IN ('@extschema@.glicko2_rate_matches()'::regprocedure,
                                        '@extschema@.glicko2_rate_games()'::regprocedure)
      WHERE NOT EXISTS (SELECT FROM pg_trigger u
                        WHERE u.tgrelid = tree.r
                          AND (u.tgname = p.tgname AND u.tgfoid = p.tgfoid
                               OR glicko2_internal.glicko2_live_trigger_like(u.oid, p.oid)))
      ORDER BY tree.r, p.oid
    LOOP
      IF EXISTS (SELECT FROM pg_trigger u WHERE u.tgrelid = c.rel AND u.tgname = c.tgname) THEN
        RAISE EXCEPTION '% cannot get live trigger % of %: it has another trigger of that name',
                        c.rel, c.tgname, c.parent
          USING ERRCODE = '42710',
                DETAIL = 'Rows written straight to it would not be rated by the trigger of its parent.',
                HINT = 'Rename or drop its trigger, or give it one like its parent''s: '
                       || glicko2_internal.glicko2_live_trigger_copy(c.parent_trigger, c.rel) || '.';
      END IF;
      EXECUTE glicko2_internal.glicko2_live_trigger_copy(c.parent_trigger, c.rel);
      created := true;
    END LOOP;
  END LOOP;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_live_new_children() IS
  'Event trigger function (ddl_command_end of CREATE TABLE and ALTER TABLE): gives each new partition or inheritance child of a table with a live trigger (glicko2_rate_matches, glicko2_rate_games) a trigger like it';
CREATE EVENT TRIGGER glicko2_live_new_children ON ddl_command_end
  WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE')
  EXECUTE FUNCTION glicko2_internal.glicko2_live_new_children();
COMMENT ON EVENT TRIGGER glicko2_live_new_children IS
  'Gives partitions and inheritance children created in or attached to a table with a live trigger a trigger like it (glicko2_live_new_children)';
