------------------------------------------------------------------------------
-- The guard: games of closed periods refused (glicko2_guard_games and its triggers)
------------------------------------------------------------------------------

-- The guard on tables Citus distributes: the state a shard's guard trigger
-- reads on its own node.  glicko2_closes cannot serve there (it is the
-- coordinator's, and its regclass columns are OIDs of one node), so each
-- guarded Citus table has a row here, keyed by the name its triggers carry
-- ('citus=schema.table'), holding the last period closed of each ratings
-- table (names and periods as text: the same on every node).
-- glicko2_guard_games makes it a reference table: Citus keeps a copy on
-- every node and writes them all in the writer's transaction (two-phase
-- commit).  A close updates the row (glicko2_citus_guard_publish) before it
-- reads any game; a shard's trigger reads it with FOR SHARE.  So a game is
-- either written by a transaction whose lock the close waited for, and read
-- by the close, or by one that waited for the close and sees its period
-- closed; a close in doubt (prepared, not committed) keeps writers waiting.
CREATE TABLE glicko2_internal.glicko2_citus_guards (
  games  text  PRIMARY KEY,
  closed jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(closed) = 'object')
);
COMMENT ON TABLE glicko2_internal.glicko2_citus_guards IS
  'Guard state of tables Citus distributes (a reference table once one is guarded): per guarded table (its quoted qualified name, the argument ''citus=...'' of its guard triggers), the last period closed of each ratings table ({"schema.ratings": "period"}), read by the guard triggers on the shards';
SELECT pg_catalog.pg_extension_config_dump('glicko2_internal.glicko2_citus_guards', '');

-- What a guard trigger (glicko2_refuse_closed_games) covers.  Its arguments
-- name ratings tables (unqualified: in the schema of the trigger's table)
-- and optionally 'period_column=name', and on a Citus table 'citus=key',
-- its row of glicko2_citus_guards.  Without ratings tables it covers
-- every close read from its table, from a partitioned table or inheritance
-- parent above it (at any level), or from a view reading any of these.
CREATE FUNCTION glicko2_guard_scope(guard oid, OUT named regclass[], OUT games regclass[],
                                    OUT period_column name, OUT citus text)
  AS 'MODULE_PATHNAME', 'glicko2_guard_scope'
  LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_guard_scope(oid) IS
  'What the guard trigger with this OID covers: the ratings tables its arguments name, or else the tables and views whose closes it guards (its table, the partitioned tables and inheritance parents above it, views reading them); its period column; and on a Citus table its row of glicko2_internal.glicko2_citus_guards';

CREATE FUNCTION glicko2_refuse_closed_games()
  RETURNS trigger
  AS 'MODULE_PATHNAME', 'glicko2_refuse_closed_games'
  LANGUAGE C;
COMMENT ON FUNCTION glicko2_refuse_closed_games() IS
  'Guard trigger of a games table: BEFORE INSERT OR UPDATE OR DELETE ... FOR EACH ROW refuses a game at or before the last period closed by glicko2_close_period, BEFORE TRUNCATE ... FOR EACH STATEMENT refuses emptying a table holding such games (arguments: the ratings tables it feeds, default every close read from this table, a partitioned table above it or a view over them; ''period_column=name'')';

-- Every table a close of source reads: through views (over views), and
-- partitions and inheritance children at every level.
CREATE FUNCTION glicko2_internal.glicko2_close_tables(source regclass)
  RETURNS SETOF regclass
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  WITH RECURSIVE source(r) AS (
    SELECT glicko2_close_tables.source
    UNION
    SELECT d.refobjid::regclass
    FROM source JOIN pg_class v ON v.oid = source.r AND v.relkind = 'v'
    JOIN pg_rewrite w ON w.ev_class = v.oid
    JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = w.oid
                    AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> v.oid
  ), rel(r) AS (
    SELECT r FROM source
    UNION
    SELECT i.inhrelid::regclass FROM rel JOIN pg_inherits i ON i.inhparent = rel.r
  )
  SELECT r FROM rel
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_close_tables(regclass) IS
  'Helper of glicko2_guard_gaps and glicko2_citus_guard_publish: every table a close of source reads (through views, partitions and inheritance children at every level), with the views';

-- The name of a Citus table as its guard state's key: the same on every node.
CREATE FUNCTION glicko2_internal.glicko2_citus_guard_key(relation regclass)
  RETURNS text
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT format('%I.%I', n.nspname, c.relname)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.oid = relation
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_guard_key(regclass) IS
  'Helper of the Citus guard: a table''s quoted, schema-qualified name, its key in glicko2_internal.glicko2_citus_guards';

-- Whether a guard trigger carrying citus=key guards: glicko2_citus_guards
-- is a reference table (a copy on every node) and holds key's row.
CREATE FUNCTION glicko2_internal.glicko2_citus_guard_ready(key text)
  RETURNS boolean
  LANGUAGE plpgsql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
  RETURN glicko2_internal.glicko2_citus_placed('glicko2_internal.glicko2_citus_guards'::regclass)
         AND EXISTS (SELECT FROM glicko2_internal.glicko2_citus_guards g WHERE g.games = key);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_guard_ready(text) IS
  'Helper of glicko2_guard_gaps: whether the guard state of the Citus table with this key is there (glicko2_internal.glicko2_citus_guards a reference table holding its row)';

-- Before glicko2_guard_games guards a Citus table: Citus places a trigger
-- on a distributed table's shards only with citus.enable_unsafe_triggers,
-- except in a distributed schema since Citus 15 (pg_dist_schema: its
-- tables' triggers always allowed, ErrorOutForTriggerIfNotSupported; 14.x
-- asks for the setting there too); without it the table stays unguarded,
-- and a close of it must say so.
CREATE FUNCTION glicko2_internal.glicko2_citus_guard_prepare(games regclass)
  RETURNS void
  LANGUAGE plpgsql VOLATILE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  tenant boolean := false;
BEGIN
  IF to_regclass('pg_catalog.pg_dist_schema') IS NOT NULL
     AND (SELECT split_part(e.extversion, '.', 1)::int >= 15 FROM pg_catalog.pg_extension e WHERE e.extname = 'citus') THEN
    tenant := glicko2_internal.glicko2_citus_ask(
      'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_schema s, pg_catalog.pg_class c'
      ' WHERE c.oid OPERATOR(pg_catalog.=) $1 AND s.schemaid OPERATOR(pg_catalog.=) c.relnamespace)', games);
  END IF;
  IF NOT tenant AND current_setting('citus.enable_unsafe_triggers', true) IS DISTINCT FROM 'on' THEN
    RAISE EXCEPTION 'cannot guard %: Citus distributes it, and places triggers on its shards only with citus.enable_unsafe_triggers on', games
      USING ERRCODE = '55000',
            DETAIL = format('Without a guard, every close of ratings from %s needs unguarded => true, and a game written later to a closed period is never rated.', games),
            HINT = 'SET citus.enable_unsafe_triggers = on (ALTER DATABASE ... SET for every session), then call glicko2_guard_games again.';
  END IF;
  IF NOT glicko2_internal.glicko2_citus_placed('glicko2_internal.glicko2_citus_guards'::regclass) THEN
    EXECUTE 'SELECT pg_catalog.create_reference_table($1)' USING 'glicko2_internal.glicko2_citus_guards'::regclass;
  END IF;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_guard_prepare(regclass) IS
  'Helper of glicko2_guard_games on a Citus table: refuses without citus.enable_unsafe_triggers (outside a distributed schema), and makes glicko2_internal.glicko2_citus_guards a reference table';

-- A new guard trigger of a Citus table: its row of glicko2_citus_guards
-- holds the last period closed of each ratings table its scope covers.
CREATE FUNCTION glicko2_internal.glicko2_citus_guard_seed(guard oid)
  RETURNS void
  LANGUAGE plpgsql VOLATILE STRICT
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  sc record;
BEGIN
  SELECT * INTO sc FROM @extschema@.glicko2_guard_scope(guard);
  INSERT INTO glicko2_internal.glicko2_citus_guards AS g (games, closed)
  SELECT sc.citus, coalesce(jsonb_object_agg(glicko2_internal.glicko2_citus_guard_key(l.ratings), l.period), '{}')
  FROM (SELECT DISTINCT ON (c.ratings) c.ratings, c.period
        FROM @extschema@.glicko2_closes c
        WHERE c.games_table = ANY (sc.games) OR c.ratings = ANY (sc.named)
        ORDER BY c.ratings, c.close_number DESC) l
  ON CONFLICT (games) DO UPDATE SET closed = excluded.closed;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_guard_seed(oid) IS
  'Helper of glicko2_guard_games on a Citus table: writes the guard trigger''s row of glicko2_internal.glicko2_citus_guards from glicko2_closes (the last period closed of each ratings table it covers)';

-- What a close calls after glicko2_close_lock and before it reads any game:
-- each guarded Citus table the source is read from gets period as the last
-- closed of ratings in its row of glicko2_citus_guards, on every node (a
-- reference table: in the close's transaction, two-phase commit).  The
-- update waits for every writer whose guard read the row, and writers that
-- read it later wait for the close.  Rows in key order: closes of
-- different ratings tables wait for each other instead of deadlocking.
CREATE FUNCTION glicko2_internal.glicko2_citus_guard_publish(ratings regclass, source regclass, period_text text)
  RETURNS void
  LANGUAGE plpgsql VOLATILE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  key text;
BEGIN
  IF to_regclass('pg_catalog.pg_dist_partition') IS NULL THEN
    RETURN;
  END IF;
  FOR key IN
    SELECT DISTINCT sc.citus
    FROM pg_trigger t, LATERAL @extschema@.glicko2_guard_scope(t.oid) sc
    WHERE t.tgrelid IN (SELECT glicko2_internal.glicko2_close_tables(source))
      AND t.tgfoid = '@extschema@.glicko2_refuse_closed_games()'::regprocedure
      AND sc.citus IS NOT NULL
    ORDER BY 1
  LOOP
    UPDATE glicko2_internal.glicko2_citus_guards g
    SET closed = g.closed || jsonb_build_object(glicko2_internal.glicko2_citus_guard_key(ratings), period_text)
    WHERE g.games = key;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'period % of % not closed: the guard state of % is missing', period_text, ratings, key
        USING ERRCODE = '55000',
              DETAIL = 'Its guard triggers would refuse every write, and cannot learn that this period is closed.',
              HINT = 'Call glicko2_guard_games on it again (with citus.enable_unsafe_triggers on).';
    END IF;
  END LOOP;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_guard_publish(regclass, regclass, text) IS
  'Helper of the closes (glicko2_close_guard), after glicko2_close_lock and before any game is read: records period as the last closed of ratings in the guard state (glicko2_internal.glicko2_citus_guards) of every guarded Citus table the source is read from';

-- Where a close of ratings from games would leave a game unguarded: every
-- table the games are read from (through views, partitions and inheritance
-- children at every level)
-- needs enabled guard triggers covering this close, for INSERT, UPDATE and
-- DELETE (on a partitioned table too: partitions attached later get its
-- row triggers) and TRUNCATE (not on foreign tables, which cannot have it).
-- With ratings NULL: guards without arguments (those glicko2_guard_games attaches).
CREATE FUNCTION glicko2_guard_gaps(games regclass, ratings regclass)
  RETURNS TABLE (relation regclass, missing text[])
  LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  WITH rel(r) AS (
    SELECT glicko2_internal.glicko2_close_tables(glicko2_guard_gaps.games)
  ), guard AS (
    SELECT t.tgrelid, t.tgtype::int AS tgtype, sc.period_column
    FROM pg_trigger t, LATERAL @extschema@.glicko2_guard_scope(t.oid) sc
    WHERE t.tgrelid IN (SELECT r FROM rel)
      -- (on a table Citus distributes, only a guard reading its state on the shards)
      AND (sc.citus IS NOT NULL) = glicko2_internal.glicko2_citus_distributed(t.tgrelid)
      AND (sc.citus IS NULL OR glicko2_internal.glicko2_citus_guard_ready(sc.citus))
      AND t.tgfoid = '@extschema@.glicko2_refuse_closed_games()'::regprocedure
      AND t.tgenabled IN ('O', 'A') AND t.tgqual IS NULL AND cardinality(t.tgattr::int2[]) = 0
      AND (glicko2_guard_gaps.ratings = ANY (sc.named)
           OR (cardinality(sc.named) = 0 AND glicko2_guard_gaps.games = ANY (sc.games)))
      AND (t.tgtype::int & 2) <> 0
  ), need AS (
    SELECT rel.r, c.relkind, e.ord, e.event, e.bit
    FROM rel JOIN pg_class c ON c.oid = rel.r
    CROSS JOIN (VALUES (1, 'insert', 4), (2, 'update', 16), (3, 'delete', 8), (4, 'truncate', 32)) e(ord, event, bit)
    WHERE c.relkind IN ('r', 'p', 'f') AND NOT (c.relkind = 'f' AND e.bit = 32)
  )
  SELECT n.r, array_agg(n.event ORDER BY n.ord)
  FROM need n
  WHERE NOT EXISTS (SELECT FROM guard g
                    WHERE g.tgrelid = n.r AND (g.tgtype & n.bit) <> 0
                      AND ((g.tgtype & 1) = 1) = (n.bit <> 32)
                      AND EXISTS (SELECT FROM pg_attribute a
                                  WHERE a.attrelid = n.r AND a.attname = g.period_column
                                    AND a.attnum > 0 AND NOT a.attisdropped))
  GROUP BY n.r
  ORDER BY n.r::text
$$;
COMMENT ON FUNCTION glicko2_guard_gaps(regclass, regclass) IS
  'Helper of glicko2_close_period: each table a close of ratings from games reads (through views, partitions and inheritance children at every level) that lacks an enabled glicko2_refuse_closed_games trigger covering the close, and for which events';

-- Attaches the guard triggers (without arguments: they cover every close
-- read from games) wherever glicko2_guard_gaps finds them missing.
CREATE PROCEDURE glicko2_guard_games(games regclass, period_column name DEFAULT 'period')
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  gap record;
  args text := CASE WHEN period_column = 'period' THEN ''
                    ELSE quote_literal('period_column=' || period_column) END;
  citus boolean;
  citus_args text;
  guard oid;
BEGIN
  IF games IS NULL OR period_column IS NULL THEN
    RAISE EXCEPTION 'games and period_column must not be NULL' USING ERRCODE = '22004';
  END IF;
  -- A guard reading a column that is not there would refuse every write later.
  PERFORM glicko2_internal.glicko2_column_type(games, period_column, 'period_column');
  citus := glicko2_internal.glicko2_citus_distributed(games);
  IF citus THEN
    PERFORM glicko2_internal.glicko2_citus_guard_prepare(games);
    -- (a guard already there whose row of the guard state is missing, after
    -- a restore say: its row again, from glicko2_closes)
    PERFORM glicko2_internal.glicko2_citus_guard_seed(t.oid)
    FROM pg_trigger t, LATERAL @extschema@.glicko2_guard_scope(t.oid) sc
    WHERE t.tgrelid IN (SELECT glicko2_internal.glicko2_close_tables(glicko2_guard_games.games))
      AND t.tgfoid = '@extschema@.glicko2_refuse_closed_games()'::regprocedure
      AND sc.citus IS NOT NULL AND NOT glicko2_internal.glicko2_citus_guard_ready(sc.citus);
  END IF;
  -- Partitioned tables first, so that their partitions get the row trigger as a clone.
  FOR gap IN SELECT g.* FROM @extschema@.glicko2_guard_gaps(games, NULL) g
             ORDER BY (SELECT count(*) FROM pg_partition_ancestors(g.relation)), g.relation::text LOOP
    -- (a partition has the row trigger once its parent has it, as a clone)
    -- (on a Citus table: the row of glicko2_citus_guards its triggers read, by its name)
    citus_args := CASE WHEN citus
                       THEN concat_ws(', ', quote_literal('citus=' || glicko2_internal.glicko2_citus_guard_key(gap.relation)),
                                      nullif(args, ''))
                       ELSE args END;
    IF gap.missing && ARRAY['insert', 'update', 'delete']
       AND EXISTS (SELECT FROM @extschema@.glicko2_guard_gaps(games, NULL) g
                   WHERE g.relation = gap.relation AND g.missing && ARRAY['insert', 'update', 'delete']) THEN
      EXECUTE format('CREATE TRIGGER refuse_closed_games BEFORE INSERT OR UPDATE OR DELETE ON %s'
                     ' FOR EACH ROW EXECUTE FUNCTION @extschema@.glicko2_refuse_closed_games(%s)',
                     gap.relation, citus_args);
      IF citus THEN
        SELECT t.oid INTO guard FROM pg_trigger t WHERE t.tgrelid = gap.relation AND t.tgname = 'refuse_closed_games';
        PERFORM glicko2_internal.glicko2_citus_guard_seed(guard);
      END IF;
    END IF;
    IF 'truncate' = ANY (gap.missing) THEN
      EXECUTE format('CREATE TRIGGER refuse_closed_truncate BEFORE TRUNCATE ON %s'
                     ' FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.glicko2_refuse_closed_games(%s)',
                     gap.relation, citus_args);
      IF citus THEN
        SELECT t.oid INTO guard FROM pg_trigger t WHERE t.tgrelid = gap.relation AND t.tgname = 'refuse_closed_truncate';
        PERFORM glicko2_internal.glicko2_citus_guard_seed(guard);
      END IF;
    END IF;
  END LOOP;
END
$$;
COMMENT ON PROCEDURE glicko2_guard_games(regclass, name) IS
  'Attaches glicko2_refuse_closed_games (BEFORE INSERT OR UPDATE OR DELETE per row, BEFORE TRUNCATE per statement) to every table, partition and inheritance child games are read from that lacks it; needs the TRIGGER privilege on them; on a table Citus distributes, with citus.enable_unsafe_triggers on, guards that read glicko2_internal.glicko2_citus_guards on the shards';

-- Refuses each table an ALTER TABLE attached as a partition or made an
-- inheritance child (src/guard.c) if it or a table below it holds a game at
-- or before a period one of its row guards covers as closed: written while
-- it was detached or not a child, no guard saw it, and no close will read it.
CREATE FUNCTION glicko2_internal.glicko2_refuse_closed_arrivals(command pg_ddl_command, guard regprocedure)
  RETURNS void
  AS 'MODULE_PATHNAME', 'glicko2_refuse_closed_arrivals'
  LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION glicko2_internal.glicko2_refuse_closed_arrivals(pg_ddl_command, regprocedure) IS
  'Helper of the event trigger glicko2_guard_new_partitions: refuses each table an ALTER TABLE attached (ATTACH PARTITION) or made an inheritance child (INHERIT), with every table below it, that holds a game of a period its row guards cover as closed';

-- A partition created in or attached to a guarded partitioned table gets
-- the row guard from PostgreSQL (a clone) but no TRUNCATE guard; an
-- inheritance child (CREATE TABLE ... INHERITS, ALTER TABLE ... INHERIT)
-- gets neither, though a close of its parent reads its games; and an
-- attached table may already hold games of closed periods, which no row
-- trigger sees arrive and no close will rate.  At the end of CREATE TABLE
-- and ALTER TABLE, each such new table below a guarded one gets the guards
-- its parent has and it lacks (a partition: the TRUNCATE guard; an
-- inheritance child: the enabled unconditional ones); then each table
-- attached or inherited is refused if it or a table below it holds a game
-- at or before a period its row guards cover as closed (also when it kept
-- its guards: a partition detached, or a child that left with NO INHERIT,
-- and came back with games written meanwhile).
CREATE FUNCTION glicko2_internal.glicko2_guard_new_partitions()
  RETURNS event_trigger
  LANGUAGE plpgsql
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  part record;
  args text[];
  created boolean := true;
BEGIN
  -- (Citus's own commands on its shards: see glicko2_citus_internal)
  IF glicko2_internal.glicko2_citus_internal() THEN
    RETURN;
  END IF;
  -- (again while a pass guarded a table: its own children come next)
  WHILE created LOOP
    created := false;
    FOR part IN
      SELECT DISTINCT ON (tree.r, pt.tgname) tree.r::regclass AS rel, pt.tgname, pt.tgtype::int AS tgtype,
             pt.oid AS parent_guard
      FROM glicko2_internal.glicko2_new_tables() tree(r)
      JOIN pg_class r ON r.oid = tree.r
      JOIN pg_inherits i ON i.inhrelid = tree.r
      JOIN pg_trigger pt ON pt.tgrelid = i.inhparent
                        AND pt.tgfoid = '@extschema@.glicko2_refuse_closed_games()'::regprocedure
      WHERE CASE WHEN r.relispartition
                 -- (a partition: the parent's TRUNCATE guard, where its row guard is cloned
                 -- and enabled; a foreign table can have no TRUNCATE trigger)
                 THEN (pt.tgtype::int & 32) <> 0 AND r.relkind <> 'f'
                      AND EXISTS (SELECT FROM pg_trigger rg
                                  WHERE rg.tgrelid = tree.r AND rg.tgparentid <> 0 AND rg.tgenabled IN ('O', 'A')
                                    AND rg.tgfoid = pt.tgfoid)
                      AND NOT EXISTS (SELECT FROM pg_trigger x
                                      WHERE x.tgrelid = tree.r AND (x.tgtype::int & 32) <> 0
                                        AND x.tgfoid = pt.tgfoid)
                 -- (an inheritance child: each enabled unconditional guard of the parent
                 -- whose events it lacks at that level)
                 ELSE pt.tgenabled IN ('O', 'A') AND (pt.tgtype::int & 2) <> 0 AND pt.tgqual IS NULL
                      AND cardinality(pt.tgattr::int2[]) = 0
                      AND NOT (r.relkind = 'f' AND (pt.tgtype::int & 32) <> 0)
                      AND NOT EXISTS (SELECT FROM pg_trigger x
                                      WHERE x.tgrelid = tree.r AND x.tgfoid = pt.tgfoid
                                        AND (x.tgtype::int & pt.tgtype::int & 60) <> 0
                                        AND (x.tgtype::int & 1) = (pt.tgtype::int & 1))
            END
      ORDER BY tree.r, pt.tgname
    LOOP
      SELECT coalesce(array_agg(quote_literal(a.arg) ORDER BY a.n), '{}') INTO args
      FROM unnest(glicko2_internal.glicko2_trigger_args(part.parent_guard)) WITH ORDINALITY a(arg, n);
      EXECUTE format('CREATE TRIGGER %I BEFORE %s ON %s FOR EACH %s EXECUTE FUNCTION @extschema@.glicko2_refuse_closed_games(%s)',
                     part.tgname,
                     array_to_string(ARRAY[CASE WHEN part.tgtype & 4 <> 0 THEN 'INSERT' END,
                                           CASE WHEN part.tgtype & 16 <> 0 THEN 'UPDATE' END,
                                           CASE WHEN part.tgtype & 8 <> 0 THEN 'DELETE' END,
                                           CASE WHEN part.tgtype & 32 <> 0 THEN 'TRUNCATE' END], ' OR '),
                     part.rel, CASE WHEN part.tgtype & 1 <> 0 THEN 'ROW' ELSE 'STATEMENT' END,
                     array_to_string(args, ', '));
      created := true;
    END LOOP;
  END LOOP;
  -- Tables attached or inherited, with every table below them: refused if they hold games of a closed period.
  PERFORM glicko2_internal.glicko2_refuse_closed_arrivals(d.command, '@extschema@.glicko2_refuse_closed_games()'::regprocedure)
  FROM pg_event_trigger_ddl_commands() d
  WHERE d.command_tag = 'ALTER TABLE' AND NOT glicko2_internal.glicko2_citus_shard(d.objid);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_guard_new_partitions() IS
  'Event trigger function (ddl_command_end of CREATE TABLE and ALTER TABLE): gives each partition or inheritance child created in or attached to a guarded table the guards of its parent it lacks, and refuses one that holds games of a closed period';
CREATE EVENT TRIGGER glicko2_guard_new_partitions ON ddl_command_end
  WHEN TAG IN ('CREATE TABLE', 'ALTER TABLE')
  EXECUTE FUNCTION glicko2_internal.glicko2_guard_new_partitions();
COMMENT ON EVENT TRIGGER glicko2_guard_new_partitions IS
  'Guards partitions and inheritance children created in or attached to a guarded table (glicko2_guard_new_partitions)';
