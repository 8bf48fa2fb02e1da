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

-- Citus runs a distributed table's triggers on its shards, on the workers,
-- where glicko2_closes (a coordinator table) is empty and the relation is
-- the shard: a guard trigger there guards nothing.  The catalog is read only
-- where Citus is installed.
CREATE FUNCTION glicko2_internal.glicko2_citus_distributed(relation regclass)
  RETURNS boolean
  LANGUAGE plpgsql STABLE PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
  found boolean;
BEGIN
  IF to_regclass('pg_catalog.pg_dist_partition') IS NULL THEN
    RETURN false;
  END IF;
  EXECUTE 'SELECT EXISTS (SELECT FROM pg_catalog.pg_dist_partition WHERE logicalrelid OPERATOR(pg_catalog.=) $1)'
    INTO found USING relation;
  RETURN found;
END
$$;
COMMENT ON FUNCTION glicko2_internal.glicko2_citus_distributed(regclass) IS
  'Helper of glicko2_guard_gaps: whether Citus distributes this table (its triggers then run on the shards and cannot guard a close)';

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
