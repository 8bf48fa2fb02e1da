------------------------------------------------------------------------------
-- What every part checks of a relation: columns, keys, triggers' arguments
------------------------------------------------------------------------------

-- Every write path's last check (src/write_check.c): an error unless a
-- statement wrote as many rows as it meant to (42501 where row-level
-- security narrowed it, 55000 where a trigger or rule did).
CREATE FUNCTION glicko2_internal.glicko2_require_written(relation regclass, written bigint, meant bigint, what text)
  RETURNS void
  AS 'MODULE_PATHNAME', 'glicko2_require_written_sql'
  LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_require_written(regclass, bigint, bigint, text) IS
  'Helper of every write path (closes, replay, recompute, history): an ERROR naming the table, what and both counts unless written = meant; SQLSTATE 42501 where row-level security applies to the table for this role, else 55000';

-- No part reads, locks or writes a system catalog or TOAST table for a table
-- argument (a superuser could otherwise empty or update pg_class): 42809,
-- naming the argument (src/relation.c, which the C parts call too).
CREATE FUNCTION glicko2_internal.glicko2_not_catalog(relation regclass, argument text)
  RETURNS void
  AS 'MODULE_PATHNAME', 'glicko2_not_catalog_sql'
  LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_not_catalog(regclass, text) IS
  'Helper of every procedure and helper that takes a table: an error (42809) naming the argument if the relation is a system catalog or TOAST table';

-- The type of a column, or an error naming the column and the argument that names it.
CREATE FUNCTION glicko2_internal.glicko2_column_type(rel regclass, col name, argument text)
  RETURNS regtype
  AS 'MODULE_PATHNAME', 'glicko2_column_type_sql'
  LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_column_type(regclass, name, text) IS
  'Helper of glicko2_close_period: the type of column col of rel, or an error naming the column and the argument that names it';

-- A score or weight column: a number (float8, float4, numeric or an integer
-- type; src/relation.c has the one rule, which the live triggers and the
-- close's pass use too), or an error naming the column and the argument.
CREATE FUNCTION glicko2_internal.glicko2_number_column_check(rel regclass, col name, argument text)
  RETURNS void
  AS 'MODULE_PATHNAME', 'glicko2_number_column_check_sql'
  LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_number_column_check(regclass, name, text) IS
  'Helper of glicko2_close_period, glicko2_replay and glicko2_close_matches: an error (42804) unless column col of rel is a number (float8, float4, numeric, int2, int4, int8), naming the column; an unknown column is an error naming the argument';

-- Is the column alone a unique key: a valid, immediate, non-partial unique
-- index or primary key whose one key column it is (the rule of every caller:
-- the closes here, the live trigger and the matchmaking queue in C).
CREATE FUNCTION glicko2_internal.glicko2_unique_key(rel regclass, col name)
  RETURNS boolean
  AS 'MODULE_PATHNAME', 'glicko2_unique_key_sql'
  LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_unique_key(regclass, name) IS
  'Helper of the closes: whether the column alone is a unique key (a valid, immediate, non-partial unique index or primary key whose one key column it is); false for a column that does not exist';

-- A question to Citus's catalog about a relation (query, with the
-- relation's OID as $1): false where Citus is not installed, so that no
-- part of glicko2 needs Citus.
CREATE FUNCTION glicko2_internal.glicko2_citus_ask(query text, relation oid)
  RETURNS boolean
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  answer boolean;
BEGIN
  IF to_regclass('pg_catalog.pg_dist_partition') IS NULL THEN
    RETURN false;
  END IF;
  EXECUTE query INTO answer USING relation;
  RETURN coalesce(answer, false);
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_ask(text, oid) IS
  'Helper of the Citus tests below: runs a query of Citus''s catalog about a relation ($1); false without Citus';

-- Whether Citus distributes this table (a Citus table of any kind): its
-- triggers run on its shards, where only a guard reading the guard state
-- on its node guards (sql/guard.sql), and the close updates it by key.
CREATE FUNCTION glicko2_internal.glicko2_citus_distributed(relation regclass)
  RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT glicko2_internal.glicko2_citus_ask(
    'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_partition WHERE logicalrelid OPERATOR(pg_catalog.=) $1)', relation)
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_distributed(regclass) IS
  'Helper of the guard and the close: whether Citus distributes this table (its triggers then run on the shards)';

-- Whether relation is a shard of a Citus table on this node (Citus's own
-- test, relation_is_a_known_shard).
CREATE FUNCTION glicko2_internal.glicko2_citus_shard(relation oid)
  RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT glicko2_internal.glicko2_citus_ask(
    'SELECT pg_catalog.relation_is_a_known_shard($1::pg_catalog.regclass)', relation)
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_shard(oid) IS
  'Helper of the event triggers: whether this relation is a shard of a Citus table (Citus''s relation_is_a_known_shard); false without Citus';

-- The Citus table a relation is, or whose shard it is on this node (a
-- shard is named after its table, suffixed with the shard's id); NULL for
-- any other relation, and without Citus.
CREATE FUNCTION glicko2_internal.glicko2_citus_table(relation oid)
  RETURNS regclass
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  answer regclass;
BEGIN
  IF to_regclass('pg_catalog.pg_dist_partition') IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE 'SELECT p.logicalrelid FROM pg_catalog.pg_dist_partition p'
          ' WHERE p.logicalrelid OPERATOR(pg_catalog.=) $1'
          '    OR p.logicalrelid OPERATOR(pg_catalog.=) (SELECT s.logicalrelid FROM pg_catalog.pg_dist_shard s, pg_catalog.pg_class c'
          '       WHERE c.oid OPERATOR(pg_catalog.=) $1 AND pg_catalog.relation_is_a_known_shard($1::pg_catalog.regclass)'
          '         AND s.shardid OPERATOR(pg_catalog.=) (pg_catalog.regexp_match(c.relname::pg_catalog.text, ''_(\d+)$''))[1]::pg_catalog.int8)'
    INTO answer USING relation;
  RETURN answer;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_table(oid) IS
  'Helper of the live triggers: the Citus table this relation is, or whose shard it is on this node; NULL otherwise and without Citus';

-- Whether Citus places this table's rows elsewhere than its own node, so
-- that its row triggers run on shards or on every placement: a distributed
-- or reference table, or a shard of one (not a Citus local table, whose
-- triggers run once on the coordinator, nor a table of a distributed
-- schema: see glicko2_citus_unreachable).  The live triggers refuse them.
CREATE FUNCTION glicko2_internal.glicko2_citus_placed(relation oid)
  RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT glicko2_internal.glicko2_citus_ask(
    'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_partition p'
    ' WHERE p.logicalrelid OPERATOR(pg_catalog.=) glicko2_internal.glicko2_citus_table($1)'
    '   AND (p.partmethod OPERATOR(pg_catalog.<>) ''n'' OR p.repmodel OPERATOR(pg_catalog.=) ''t''))', relation)
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_placed(oid) IS
  'Helper of the live triggers: whether Citus distributes or replicates this table, or it is a shard of such a table (its row triggers run on shards or on every placement); false without Citus';

-- A table of a distributed schema (Citus 12+, schema-based sharding) is a
-- single-shard table, co-located with the other tables of its schema on
-- one node; its triggers run there, and a statement they run may reach
-- only tables of that co-location group (Citus refuses "a distributed
-- query from a query on a shard").  The first of the named tables a live
-- trigger on relation (or its shard) could not reach: not a Citus table
-- of its group, or not there at all; NULL when relation is not such a
-- table, or all of them are in its group.
CREATE FUNCTION glicko2_internal.glicko2_citus_unreachable(relation oid, named text[])
  RETURNS text
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  grp int;
  other int;
  name text;
BEGIN
  IF to_regclass('pg_catalog.pg_dist_partition') IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE 'SELECT p.colocationid FROM pg_catalog.pg_dist_partition p'
          ' WHERE p.logicalrelid OPERATOR(pg_catalog.=) glicko2_internal.glicko2_citus_table($1)'
          '   AND p.partmethod OPERATOR(pg_catalog.=) ''n'' AND p.repmodel OPERATOR(pg_catalog.=) ''s'''
          '   AND p.colocationid OPERATOR(pg_catalog.<>) 0'
    INTO grp USING relation;
  IF grp IS NULL THEN
    RETURN NULL;
  END IF;
  FOREACH name IN ARRAY named LOOP
    other := NULL;
    EXECUTE 'SELECT p.colocationid FROM pg_catalog.pg_dist_partition p'
            ' WHERE p.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass($1)'
      INTO other USING name;
    IF other IS DISTINCT FROM grp THEN
      RETURN name;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_unreachable(oid, text[]) IS
  'Helper of the live triggers: on a table of a Citus distributed schema (or its shard), the first named table outside its co-location group, which its triggers cannot reach; NULL otherwise and without Citus';

-- Whether this backend runs Citus's own commands: a coordinator's
-- connection to a worker (shard DDL, metadata sync), the rebalancer, a
-- shard move or split (Citus names them by application_name,
-- src/include/distributed/connection_management.h).  glicko2's event
-- triggers do nothing there: the command they would act on was the user's
-- on the coordinator, where they ran.
CREATE FUNCTION glicko2_internal.glicko2_citus_internal()
  RETURNS boolean
  LANGUAGE sql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL
     AND (current_setting('application_name') LIKE 'citus\_internal gpid=%'
          OR current_setting('application_name') LIKE 'citus\_rebalancer gpid=%'
          OR current_setting('application_name') LIKE 'citus\_shard\_%')
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_internal() IS
  'Helper of the event triggers: whether this backend runs Citus''s internal commands (shard creation, moves, splits, node activation), where they do nothing';

-- A trigger's arguments (pg_trigger.tgargs: each ends with a NUL byte).
CREATE FUNCTION glicko2_internal.glicko2_trigger_args(trigger oid)
  RETURNS text[]
  LANGUAGE sql STABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
  SELECT coalesce(array_agg(convert_from(substring(g.tgargs FROM z.prev + 2 FOR z.i - z.prev - 1),
                                         getdatabaseencoding()) ORDER BY z.i), '{}')
  FROM pg_trigger g,
  LATERAL (SELECT b.i, lag(b.i, 1, -1) OVER (ORDER BY b.i) AS prev
           FROM generate_series(0, length(g.tgargs) - 1) b(i)
           WHERE get_byte(g.tgargs, b.i) = 0) z
  WHERE g.oid = trigger
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_trigger_args(oid) IS
  'Helper of the event triggers that copy the guard and the live triggers to new tables: the arguments of the trigger with this OID';

-- In a ddl_command_end event trigger of CREATE TABLE or ALTER TABLE: the
-- tables the command created or altered, and every table below them
-- (partitions, inheritance children), which may have come with them.
CREATE FUNCTION glicko2_internal.glicko2_new_tables()
  RETURNS SETOF oid
  LANGUAGE sql STABLE PARALLEL RESTRICTED
  SET search_path = pg_catalog, pg_temp
AS $$
  WITH RECURSIVE tree(r) AS (
      SELECT d.objid FROM pg_event_trigger_ddl_commands() d
      WHERE d.classid = 'pg_class'::regclass AND d.command_tag IN ('CREATE TABLE', 'ALTER TABLE')
        -- (Citus's shards: Citus gives them the triggers of their table)
        AND NOT glicko2_internal.glicko2_citus_shard(d.objid)
    UNION
      SELECT i.inhrelid FROM tree JOIN pg_inherits i ON i.inhparent = tree.r
  )
  SELECT r FROM tree
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_new_tables() IS
  'Helper of the event triggers glicko2_guard_new_partitions and glicko2_live_new_children: the tables a CREATE TABLE or ALTER TABLE created or altered, and every table below them';

-- A column of player keys in a games or matches table: of the ratings key's
-- type (any integer types mix), or an error naming both columns.
CREATE FUNCTION glicko2_internal.glicko2_key_column_check(source regclass, col name, argument text,
                                         ratings regclass, player_column name, key_type regtype)
  RETURNS void
  AS 'MODULE_PATHNAME', 'glicko2_key_column_check_sql'
  LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION glicko2_internal.glicko2_key_column_check(regclass, name, text, regclass, name, regtype) IS
  'Helper of glicko2_close_period and glicko2_close_matches: refuses a column of player keys whose type is not the ratings key''s (integer types mix), naming both columns';
