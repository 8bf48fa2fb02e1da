/*
 * relation.c — a relation's columns as every caller checks them
 * (relation.h), and the SQL wrappers the PL/pgSQL closes call:
 * glicko2_column_type, glicko2_key_column_check, glicko2_number_column_check
 * and glicko2_unique_key.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/relation.h"
#include "catalog/catalog.h"
#include "catalog/namespace.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "relation.h"

/* A relation as SQL prints a regclass: schema-qualified unless visible. */
static char *
relation_text(Oid relid)
{
	return DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(relid)));
}

AttrNumber
glicko_column_attnum(Oid relid, const char *column, const char *hint)
{
	AttrNumber	attnum = get_attnum(relid, column);

	if (attnum == InvalidAttrNumber || attnum < 0)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_COLUMN),
				errmsg("column \"%s\" of relation %s does not exist", column, relation_text(relid)),
				errhint("%s", hint));
	return attnum;
}

/* The type of column `column` of relid; errors name `argument`, the SQL
 * argument that named the column ("Name the column with argument => '...'"). */
static Oid
column_type(Oid relid, const char *column, const char *argument)
{
	AttrNumber	attnum;

	if (column == NULL)
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("%s must not be NULL", argument));
	attnum = glicko_column_attnum(relid, column,
								  psprintf("Name the column with %s => '...'.", argument));
	return get_atttype(relid, attnum);
}

bool
glicko_is_integer_type(Oid type)
{
	return type == INT2OID || type == INT4OID || type == INT8OID;
}

bool
glicko_is_number_type(Oid type)
{
	return type == FLOAT8OID || type == FLOAT4OID || type == NUMERICOID ||
		glicko_is_integer_type(type);
}

void
glicko_require_number(Oid type, const char *column, const char *relation)
{
	if (!glicko_is_number_type(type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is %s, not a number", column, relation,
					   format_type_be(type)));
}

bool
glicko_keys_match(Oid a, Oid b)
{
	return a == b || (glicko_is_integer_type(a) && glicko_is_integer_type(b));
}

bool
glicko_unique_key(Oid relid, AttrNumber attnum)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;
	bool		unique = false;

	foreach(lc, indexes)
	{
		HeapTuple	tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(lfirst_oid(lc)));
		Form_pg_index index;

		if (!HeapTupleIsValid(tuple))
			elog(ERROR, "cache lookup failed for index %u", lfirst_oid(lc));
		index = (Form_pg_index) GETSTRUCT(tuple);
		if (index->indisunique && index->indisvalid && index->indimmediate &&
			index->indnkeyatts == 1 && index->indkey.values[0] == attnum &&
			heap_attisnull(tuple, Anum_pg_index_indpred, NULL))
			unique = true;
		ReleaseSysCache(tuple);
	}
	list_free(indexes);
	relation_close(rel, AccessShareLock);
	return unique;
}

void
glicko_not_catalog(Oid relid, const char *argument)
{
	Oid			namespace = get_rel_namespace(relid);

	if (OidIsValid(namespace) && (IsCatalogNamespace(namespace) || IsToastNamespace(namespace)))
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("%s %s is a system catalog", argument,
					   DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(relid)))),
				errdetail("glicko2 reads and writes only tables of your own."));
}

/* glicko2_not_catalog(relation, argument): glicko_not_catalog, for the PL/pgSQL parts. */
PG_FUNCTION_INFO_V1(glicko2_not_catalog_sql);
Datum
glicko2_not_catalog_sql(PG_FUNCTION_ARGS)
{
	if (!PG_ARGISNULL(0))
		glicko_not_catalog(PG_GETARG_OID(0), PG_ARGISNULL(1) ? "relation" : text_to_cstring(PG_GETARG_TEXT_PP(1)));
	PG_RETURN_VOID();
}

/* glicko2_column_type(rel, col, argument): the column's type, or an error
 * naming the argument that named it. */
PG_FUNCTION_INFO_V1(glicko2_column_type_sql);
Datum
glicko2_column_type_sql(PG_FUNCTION_ARGS)
{
	const char *argument = PG_ARGISNULL(2) ? "column" : text_to_cstring(PG_GETARG_TEXT_PP(2));

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("the relation of %s must not be NULL", argument));
	PG_RETURN_OID(column_type(PG_GETARG_OID(0),
							  PG_ARGISNULL(1) ? NULL : NameStr(*PG_GETARG_NAME(1)),
							  argument));
}

/* ERROR unless a party column's type has an equality (players of a team
 * with equal values queued together). */
void
glicko_party_type_check(Oid relid, const char *column, Oid type)
{
	if (!OidIsValid(lookup_type_cache(type, TYPECACHE_EQ_OPR)->eq_opr))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("party column \"%s\" of %s is of type %s, which has no equality operator",
					   column, relation_text(relid), format_type_be(type)),
				errdetail("Players of a team with equal party values queued together."),
				errhint("Label parties with a type whose equality a btree or hash operator class defines (an integer, text, uuid)."));
}

/* glicko2_party_column(rel, col): the party column's type, checked. */
PG_FUNCTION_INFO_V1(glicko2_party_column_sql);
Datum
glicko2_party_column_sql(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	const char *column = NameStr(*PG_GETARG_NAME(1));
	Oid			type = column_type(relid, column, "party_column");

	glicko_party_type_check(relid, column, type);
	PG_RETURN_OID(type);
}

/* glicko2_key_column_check(source, col, argument, ratings, player_column,
 * key_type): ERROR unless column col of source holds keys of the ratings
 * key's type (integer types mix), naming both columns. */
PG_FUNCTION_INFO_V1(glicko2_key_column_check_sql);
Datum
glicko2_key_column_check_sql(PG_FUNCTION_ARGS)
{
	Oid			source,
				type,
				key_type;
	const char *column = PG_ARGISNULL(1) ? NULL : NameStr(*PG_GETARG_NAME(1));

	if (PG_ARGISNULL(0) || PG_ARGISNULL(2) || PG_ARGISNULL(3) || PG_ARGISNULL(4) || PG_ARGISNULL(5))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("the arguments of glicko2_key_column_check must not be NULL"));
	source = PG_GETARG_OID(0);
	type = column_type(source, column, text_to_cstring(PG_GETARG_TEXT_PP(2)));
	key_type = PG_GETARG_OID(5);
	if (!SearchSysCacheExists1(TYPEOID, ObjectIdGetDatum(key_type)))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("key_type %u is not a type", key_type));
	if (!glicko_keys_match(type, key_type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is %s, but player column \"%s\" of %s is %s",
					   column, relation_text(source), format_type_be(type),
					   NameStr(*PG_GETARG_NAME(4)), relation_text(PG_GETARG_OID(3)),
					   format_type_be(key_type)));
	PG_RETURN_VOID();
}

/* glicko2_number_column_check(rel, col, argument): ERROR unless the column
 * (named by argument) is a number (glicko_require_number). */
PG_FUNCTION_INFO_V1(glicko2_number_column_check_sql);
Datum
glicko2_number_column_check_sql(PG_FUNCTION_ARGS)
{
	const char *argument = PG_ARGISNULL(2) ? "column" : text_to_cstring(PG_GETARG_TEXT_PP(2));
	const char *column = PG_ARGISNULL(1) ? NULL : NameStr(*PG_GETARG_NAME(1));
	Oid			relid;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("the relation of %s must not be NULL", argument));
	relid = PG_GETARG_OID(0);
	glicko_require_number(column_type(relid, column, argument), column, relation_text(relid));
	PG_RETURN_VOID();
}

/* glicko2_unique_key(rel, col): is the column alone a unique key
 * (glicko_unique_key); false for a column that does not exist. */
PG_FUNCTION_INFO_V1(glicko2_unique_key_sql);
Datum
glicko2_unique_key_sql(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	AttrNumber	attnum = get_attnum(relid, NameStr(*PG_GETARG_NAME(1)));

	PG_RETURN_BOOL(attnum > 0 && glicko_unique_key(relid, attnum));
}
