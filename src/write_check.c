/*
 * write_check.c — one rule for every write path of the extension (closes,
 * replay and recompute, history, the live trigger, matchmaking's queue): a
 * statement that wrote fewer rows than it meant to fails the whole call.
 *
 * An UPDATE, INSERT or DELETE can skip rows without an error: a row-level
 * security policy for the command narrower than the SELECT policy that
 * found the rows, a BEFORE row trigger returning NULL, a DO INSTEAD rule.
 * Whatever skipped them, the ratings would be left half written, so the
 * error names the table and both counts, and its SQLSTATE says which kind of
 * cause it is: 42501 where row-level security applies to the table for this
 * role, 55000 otherwise (a trigger or rule of the table's).
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rls.h"

#include "write_check.h"

void
glicko2_require_written(Oid relid, int64 written, int64 meant, const char *what)
{
	char	   *name;
	char	   *schema;
	char	   *table;

	if (written == meant)
		return;
	name = get_rel_name(relid);
	schema = name ? get_namespace_name(get_rel_namespace(relid)) : NULL;
	table = schema ? quote_qualified_identifier(schema, name) : psprintf("relation %u", relid);
	if (check_enable_rls(relid, InvalidOid, true) == RLS_ENABLED)
		ereport(ERROR,
				errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				errmsg("%s failed: " INT64_FORMAT " of " INT64_FORMAT " rows of %s written",
					   what, written, meant, table),
				errdetail("Row-level security on %s let role %s write only some of the rows it could read; nothing was changed.",
						  table, GetUserNameFromId(GetUserId(), false)),
				errhint("Give the role policies that let it write every row it reads, or run it as a role that bypasses them."));
	ereport(ERROR,
			errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			errmsg("%s failed: " INT64_FORMAT " of " INT64_FORMAT " rows of %s written",
				   what, written, meant, table),
			errdetail("A trigger or rule on %s skipped or redirected the write of some rows; nothing was changed.",
					  table),
			errhint("A BEFORE trigger of the table must return the row, and no DO INSTEAD rule may replace the write."));
}

/* glicko2_require_written(table, written, meant, what): the rule, for SQL. */
PG_FUNCTION_INFO_V1(glicko2_require_written_sql);
Datum
glicko2_require_written_sql(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) || PG_ARGISNULL(3))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("the arguments of glicko2_require_written must not be NULL"));
	glicko2_require_written(PG_GETARG_OID(0), PG_GETARG_INT64(1), PG_GETARG_INT64(2),
							text_to_cstring(PG_GETARG_TEXT_PP(3)));
	PG_RETURN_VOID();
}
