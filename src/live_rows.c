/*
 * live_rows.c — the pieces both live triggers share (live_rows.h): their
 * options, the ratings table's checks, a cache of each trigger's prepared
 * statements, the reading of a locked ratings row, and the rating of one
 * game (with glicko2_rate_game, live_rate_game.c).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/varlena.h"

#include "caps.h"
#include "live_game.h"
#include "live_rows.h"
#include "relation.h"
#include "rating.h"
#include "write_check.h"

void
glicko_live_options_init(GlickoLiveOptions *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->period_usecs = (double) USECS_PER_DAY;
	opt->tau = GLICKO2_DEFAULT_TAU;
	opt->max_rd = GLICKO2_DEFAULT_RD;
	opt->caps = GLICKO_CAPS_OFF;
	opt->player_column = "player_id";
	opt->rating_column = "rating";
	opt->rated_at_column = "rated_at";
}

void
glicko_live_option_split(const char *arg, const char *who, const char *option_names,
						 char **name, const char **value)
{
	const char *eq = strchr(arg, '=');

	if (eq == NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s: argument \"%s\" is not name=value", who, arg),
				errhint("Options are 'name=value': %s.", option_names));
	*name = pnstrdup(arg, eq - arg);
	*value = eq + 1;
}

char **
glicko_live_option_args(FunctionCallInfo fcinfo, int argno, const char *who,
						const char *option_names, int *n)
{
	Datum	   *items;
	bool	   *nulls;
	char	  **args;

	*n = 0;
	if (PG_ARGISNULL(argno))
		return NULL;
	deconstruct_array(PG_GETARG_ARRAYTYPE_P(argno), TEXTOID, -1, false, TYPALIGN_INT,
					  &items, &nulls, n);
	args = palloc(sizeof(char *) * Max(*n, 1));
	for (int i = 0; i < *n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s: an option is NULL", who),
					errhint("Options are 'name=value': %s.", option_names));
		args[i] = TextDatumGetCString(items[i]);
	}
	return args;
}

void
glicko_live_unknown_option(const char *who, const char *name, const char *option_names)
{
	ereport(ERROR,
			errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("%s: unknown option \"%s\"", who, name),
			errhint("Options are %s.", option_names));
}

bool
glicko_live_common_option(const char *name, const char *value, GlickoLiveOptions *opt,
						  MemoryContext cxt)
{
	const char **slot;

	if (strcmp(name, "period") == 0)
		opt->period_usecs = glicko_live_period_usecs(DatumGetIntervalP(
																	   DirectFunctionCall3(interval_in, CStringGetDatum(value),
																						   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
	else if (strcmp(name, "tau") == 0)
	{
		opt->tau = DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(value)));
		glicko_check_positive(opt->tau, "tau");
	}
	else if (strcmp(name, "max_rd") == 0)
	{
		if (pg_strcasecmp(value, "none") == 0)
			opt->max_rd = INFINITY;
		else
		{
			opt->max_rd = DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(value)));
			glicko_check_positive(opt->max_rd, "max_rd");
		}
	}
	else if (glicko_caps_option(name, value, &opt->caps))
		return true;
	else
	{
		slot = strcmp(name, "player_column") == 0 ? &opt->player_column :
			strcmp(name, "rating_column") == 0 ? &opt->rating_column :
			strcmp(name, "rated_at_column") == 0 ? &opt->rated_at_column : NULL;
		if (slot == NULL)
			return false;
		*slot = MemoryContextStrdup(cxt, value);
	}
	return true;
}

AttrNumber
glicko_live_column_attnum(Oid relid, const char *column, const char *option)
{
	return glicko_column_attnum(relid, column,
								psprintf("Name the column with the option '%s=...'.", option));
}

void
glicko_live_require_type(Oid relid, AttrNumber attnum, Oid want, const char *want_name)
{
	Oid			type = get_atttype(relid, attnum);

	if (type != want)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is %s, not %s",
					   get_attname(relid, attnum, false), get_rel_name(relid),
					   format_type_be(type), want_name));
}

char *
glicko_live_qualified_equality(Oid type, const char *what)
{
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_EQ_OPR | TYPECACHE_LT_OPR);
	HeapTuple	tup;
	Form_pg_operator op;
	char	   *result;

	if (!OidIsValid(tc->eq_opr) || !OidIsValid(tc->lt_opr))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("%s type %s has no default btree operator class", what,
					   format_type_be(type)),
				errdetail("Players are looked up by key and locked in key order."));
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(tc->eq_opr));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", tc->eq_opr);
	op = (Form_pg_operator) GETSTRUCT(tup);
	result = psprintf("OPERATOR(%s.%s)",
					  quote_identifier(get_namespace_name(op->oprnamespace)),
					  NameStr(op->oprname));
	ReleaseSysCache(tup);
	return result;
}

/* ERROR unless the ratings key is a unique key (relation.c's rule; ON CONFLICT needs it). */
static void
require_unique_key(Oid relid, AttrNumber attnum, const char *column)
{
	if (!glicko_unique_key(relid, attnum))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
				errmsg("column \"%s\" of %s is not a unique key", column, get_rel_name(relid)),
				errdetail("Each player must have exactly one row in the ratings table, found by a unique index of its own."),
				errhint("ALTER TABLE %s ADD PRIMARY KEY (%s);",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												   get_rel_name(relid)),
						quote_identifier(column)));
}

Oid
glicko_live_relation(const char *name, Relation table)
{
	RangeVar   *rv = makeRangeVarFromNameList(textToQualifiedNameList(cstring_to_text(name)));

	if (rv->schemaname == NULL)
		rv->schemaname = get_namespace_name(RelationGetNamespace(table));
	return RangeVarGetRelid(rv, NoLock, true);
}

void
glicko_live_open_ratings(GlickoLiveRatings *rt, const GlickoLiveOptions *opt,
						 TriggerData *trigdata, Oid source_key_type, const char *source_column,
						 Oid extension_namespace, MemoryContext cxt)
{
	Trigger    *trigger = trigdata->tg_trigger;
	Relation	table = trigdata->tg_relation;
	const char *ratings_name = trigger->tgargs[0];
	Oid			relid;

	relid = glicko_live_relation(ratings_name, table);
	if (!OidIsValid(relid))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("ratings table %s named by trigger %s on %s does not exist",
					   ratings_name, trigger->tgname, RelationGetRelationName(table)));
	glicko_live_check_ratings(rt, opt, relid, source_key_type,
							  psprintf("column \"%s\" of %s", source_column,
									   RelationGetRelationName(table)),
							  extension_namespace, cxt);
}

void
glicko_live_check_ratings(GlickoLiveRatings *rt, const GlickoLiveOptions *opt, Oid relid,
						  Oid source_key_type, const char *source_what,
						  Oid extension_namespace, MemoryContext cxt)
{
	AttrNumber	key_attnum,
				rating_attnum,
				rated_at_attnum;
	int32		key_typmod;
	MemoryContext old;

	rt->relid = relid;
	rt->unrated = glicko2_unrated(opt->max_rd);
	glicko_not_catalog(rt->relid, "ratings table");

	rt->rating_type = glicko2_rating_type(extension_namespace);
	key_attnum = glicko_live_column_attnum(rt->relid, opt->player_column, "player_column");
	rating_attnum = glicko_live_column_attnum(rt->relid, opt->rating_column, "rating_column");
	rated_at_attnum = glicko_live_column_attnum(rt->relid, opt->rated_at_column, "rated_at_column");
	glicko_live_require_type(rt->relid, rating_attnum, rt->rating_type, "glicko2_rating");
	old = MemoryContextSwitchTo(cxt);
	rt->rating_desc = BlessTupleDesc(lookup_rowtype_tupdesc_copy(rt->rating_type, -1));
	MemoryContextSwitchTo(old);
	glicko_live_require_type(rt->relid, rated_at_attnum, TIMESTAMPTZOID, "timestamptz");
	get_atttypetypmodcoll(rt->relid, key_attnum, &rt->key_type, &key_typmod, &rt->key_collation);
	if (!glicko_keys_match(rt->key_type, source_key_type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("%s is %s, but player column \"%s\" of %s is %s",
					   source_what, format_type_be(source_key_type), opt->player_column,
					   get_rel_name(rt->relid), format_type_be(rt->key_type)));
	require_unique_key(rt->relid, key_attnum, opt->player_column);

	rt->eq = glicko_live_qualified_equality(rt->key_type, "ratings player");
	rt->key = quote_identifier(opt->player_column);
	rt->rating = quote_identifier(opt->rating_column);
	rt->rated_at = quote_identifier(opt->rated_at_column);
	rt->name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(rt->relid)),
										  get_rel_name(rt->relid));
	rt->key_type_name = format_type_be_qualified(rt->key_type);
}

SPIPlanPtr
glicko_live_prepare(const char *sql, int nargs, Oid *types)
{
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql, SPI_result_code_string(SPI_result));
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed");
	return plan;
}

Datum
glicko_live_array(const Datum *values, int n, Oid type)
{
	int16		typlen;
	bool		typbyval;
	char		typalign;

	get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
	return PointerGetDatum(construct_array((Datum *) values, n, type, typlen, typbyval, typalign));
}

/*
 * The statements both live triggers run on the ratings table, every name
 * quoted and the key's equality qualified.  A trigger whose statements have
 * a fixed number of players (glicko2_rate_games: 2) passes each value as a
 * parameter of its own, so the plan cache keeps one generic plan; one with
 * any number (glicko2_rate_matches: players 0) passes arrays.
 *
 * GLICKO_LIVE_LOCK (the players' keys; with arrays, then their number):
 * each player's row (its key's position among the keys, rating, rated_at,
 * ctid, tableoid), locked in key order, so that two statements of the same
 * players wait for each other and never deadlock; none while a player is
 * missing (a statement that locked some players and then waited to add
 * another could deadlock with one adding that player:
 * test/specs/live_new_players).  The check is one index probe per key.
 *
 * GLICKO_LIVE_INSERT (the keys, the unrated rating, each key's rated_at):
 * the missing players.  (NOT EXISTS: the unique key of an inheritance
 * parent does not see its children's rows, so ON CONFLICT alone would add
 * a child's player again.)
 *
 * GLICKO_LIVE_WRITE (each row's tableoid, tid, rating, rated_at, then the
 * caller's parameters): the rows locked above, by table and TID (for each,
 * a TID scan in each partition or child of the ratings table, no index
 * descent), where the caller's condition holds (a one-time filter).
 */
void
glicko_live_prepare_rows(GlickoLiveEntry *e, const GlickoLiveRatings *rt, Oid key_type,
						 int players, const char *condition, int n_extra, const Oid *extra_types)
{
	int			n_params = (players > 0 ? 4 * players : 4) + n_extra;
	Oid		   *types = palloc(sizeof(Oid) * n_params);
	StringInfoData keys,
				found,
				rows;
	const char *key_array,
			   *unrated,
			   *rating,
			   *rated_at;
	char	   *sql;

	e->players = players;
	initStringInfo(&keys);
	initStringInfo(&found);
	initStringInfo(&rows);
	if (players > 0)
	{
		for (int i = 1; i <= players; i++)
		{
			appendStringInfo(&keys, "%sCAST($%d AS %s)", i > 1 ? ", " : "", i, rt->key_type_name);
			appendStringInfo(&found, "%sEXISTS (SELECT FROM %s x WHERE x.%s %s CAST($%d AS %s))",
							 i > 1 ? " AND " : "", rt->name, rt->key, rt->eq, i, rt->key_type_name);
			appendStringInfo(&rows, "%s(CAST($%d AS %s), $%d)",
							 i > 1 ? ", " : "", i, rt->key_type_name, players + 1 + i);
			types[i - 1] = key_type;
		}
		key_array = psprintf("ARRAY[%s]", keys.data);
		unrated = psprintf("$%d", players + 1);
	}
	else
	{
		key_array = psprintf("CAST($1 AS %s[])", rt->key_type_name);
		appendStringInfo(&found, "(SELECT pg_catalog.count(*) FROM %s x WHERE x.%s %s ANY (%s))"
						 " OPERATOR(pg_catalog.>=) $2", rt->name, rt->key, rt->eq, key_array);
		appendStringInfo(&rows, "ROWS FROM (pg_catalog.unnest(%s), pg_catalog.unnest($3))", key_array);
		unrated = "$2";
		types[0] = get_array_type(key_type);
		types[1] = INT8OID;
	}
	sql = psprintf("SELECT pg_catalog.array_position(%1$s, r.%2$s), r.%3$s, r.%4$s, r.ctid, r.tableoid"
				   " FROM %5$s r WHERE r.%2$s %6$s ANY (%1$s) AND %7$s"
				   " ORDER BY r.%2$s FOR NO KEY UPDATE OF r",
				   key_array, rt->key, rt->rating, rt->rated_at, rt->name, rt->eq, found.data);
	e->plans[GLICKO_LIVE_LOCK] = glicko_live_prepare(sql, players > 0 ? players : 2, types);

	sql = psprintf("INSERT INTO %1$s AS r (%2$s, %3$s, %4$s) SELECT v.k, %5$s, v.at FROM %6$s v(k, at)"
				   " WHERE NOT EXISTS (SELECT FROM %1$s x WHERE x.%2$s %7$s v.k)"
				   " ORDER BY v.k ON CONFLICT (%2$s) DO NOTHING",
				   rt->name, rt->key, rt->rating, rt->rated_at, unrated,
				   players > 0 ? psprintf("(VALUES %s)", rows.data) : rows.data, rt->eq);
	if (players > 0)
	{
		types[players] = rt->rating_type;
		for (int i = 1; i <= players; i++)
			types[players + i] = TIMESTAMPTZOID;
	}
	else
	{
		types[1] = rt->rating_type;
		types[2] = TIMESTAMPTZARRAYOID;
	}
	e->plans[GLICKO_LIVE_INSERT] = glicko_live_prepare(sql, players > 0 ? 2 * players + 1 : 3, types);

	resetStringInfo(&rows);
	if (players > 0)
	{
		for (int i = 0; i < players; i++)
		{
			appendStringInfo(&rows, "%s($%d, $%d, $%d, $%d)", i > 0 ? ", " : "",
							 4 * i + 1, 4 * i + 2, 4 * i + 3, 4 * i + 4);
			types[4 * i] = OIDOID;
			types[4 * i + 1] = TIDOID;
			types[4 * i + 2] = rt->rating_type;
			types[4 * i + 3] = TIMESTAMPTZOID;
		}
		key_array = psprintf("(VALUES %s) v(tableoid, tid, rating, rated_at)", rows.data);
		rating = "v.rating";
		rated_at = "v.rated_at";
	}
	else
	{
		/*
		 * (the subscripts in a subquery, not in SET: Citus's deparser, which
		 * runs this statement on a shard of a distributed schema, crashes on
		 * a subscripted parameter assigned in SET, in a generic plan)
		 */
		key_array = "(SELECT u.tableoid, u.tid, $3[u.i] AS rating, $4[u.i] AS rated_at"
			" FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2)) WITH ORDINALITY u(tableoid, tid, i)) v";
		rating = "v.rating";
		rated_at = "v.rated_at";
		types[0] = OIDARRAYOID;
		types[1] = get_array_type(TIDOID);
		types[2] = get_array_type(rt->rating_type);
		types[3] = TIMESTAMPTZARRAYOID;
	}
	if (n_extra > 0)
		memcpy(types + n_params - n_extra, extra_types, sizeof(Oid) * n_extra);
	sql = psprintf("UPDATE %1$s r SET %2$s = %3$s, %4$s = %5$s FROM %6$s"
				   " WHERE %7$s r.ctid OPERATOR(pg_catalog.=) v.tid"
				   " AND r.tableoid OPERATOR(pg_catalog.=) v.tableoid",
				   rt->name, rt->rating, rating, rt->rated_at, rated_at, key_array,
				   condition ? psprintf("(%s) AND", condition) : "");
	e->plans[GLICKO_LIVE_WRITE] = glicko_live_prepare(sql, n_params, types);
}

static void read_row(GlickoLiveRow *row, HeapTuple tup, TupleDesc desc, int first,
					 const GlickoLiveRatings *rt, Oid key_type, Datum key);

/* The rows a statement returned (array_position, then read_row's columns), by player. */
static void
rows_by_player(const GlickoLiveRatings *rt, Oid key_type, int n, const Datum *keys,
			   GlickoLiveRow *rows)
{
	TupleDesc	desc = SPI_tuptable->tupdesc;

	memset(rows, 0, sizeof(GlickoLiveRow) * n);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;
		int			position = DatumGetInt32(SPI_getbinval(tup, desc, 1, &isnull));

		if (isnull || position < 1 || position > n)
			elog(ERROR, "live rating: a row read is none of the players");
		read_row(&rows[position - 1], tup, desc, 2, rt, key_type, keys[position - 1]);
	}
}

/* Lock the rows of n players (GLICKO_LIVE_LOCK); false (none locked) if one is missing. */
static bool
lock_rows(GlickoLiveEntry *e, const GlickoLiveRatings *rt, Oid key_type, int n,
		  const Datum *keys, Datum key_array, GlickoLiveRow *rows)
{
	Datum		args[2] = {key_array, Int64GetDatum(n)};
	int			ret;
	bool		all = true;

	ret = SPI_execute_plan(e->plans[GLICKO_LIVE_LOCK], e->players > 0 ? (Datum *) keys : args,
						   NULL, false, 0);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "live rating: lock of players failed: %s", SPI_result_code_string(ret));
	rows_by_player(rt, key_type, n, keys, rows);
	for (int i = 0; i < n; i++)
		all &= rows[i].found;
	return all;
}

/*
 * The read of players' rows without a lock (the live teammates store's
 * partners, src/live_teammates.c): keys an array of the ratings key's type.
 */
SPIPlanPtr
glicko_live_prepare_read(const GlickoLiveRatings *rt)
{
	Oid			type = get_array_type(rt->key_type);

	return glicko_live_prepare(psprintf("SELECT pg_catalog.array_position($1, r.%1$s), r.%2$s, r.%3$s, r.ctid, r.tableoid"
										" FROM %4$s r WHERE r.%1$s %5$s ANY ($1)",
										rt->key, rt->rating, rt->rated_at, rt->name, rt->eq),
							   1, &type);
}

void
glicko_live_read_players(SPIPlanPtr plan, const GlickoLiveRatings *rt, int n, const Datum *keys,
						 GlickoLiveRow *rows)
{
	Datum		arg = glicko_live_array(keys, n, rt->key_type);
	int			ret = SPI_execute_plan(plan, &arg, NULL, false, 0);

	if (ret != SPI_OK_SELECT)
		elog(ERROR, "live rating: read of players failed: %s", SPI_result_code_string(ret));
	rows_by_player(rt, rt->key_type, n, keys, rows);
	/* (a player without a row: unrated, never grown) */
	for (int i = 0; i < n; i++)
		if (!rows[i].found)
		{
			rows[i].unrated = true;
			rows[i].rating = rt->unrated;
			rows[i].rated_at_null = true;
		}
}

/* Tries at locking every row: missing players are added once, then found. */
#define LOCK_TRIES 3

void
glicko_live_lock_players(GlickoLiveEntry *e, const GlickoLiveRatings *rt, Oid key_type, int n,
						 const Datum *keys, const Datum *rated_at, GlickoLiveRow *rows,
						 const char *noun, const char *table)
{
	Datum		key_array = e->players > 0 ? (Datum) 0 : glicko_live_array(keys, n, key_type);
	int			tries = 0;
	uint64		added = 0;

	Assert(e->players == 0 || e->players == n);
	while (!lock_rows(e, rt, key_type, n, keys, key_array, rows))
	{
		Datum	   *args = palloc(sizeof(Datum) * (2 * n + 1));
		int			ret;

		/*
		 * Still missing after an insert that added nobody: not a concurrent
		 * insert (the lock would see it now) but a trigger, rule or policy of
		 * the ratings table that dropped or hid the row.
		 */
		if (tries > 0 && added == 0)
			glicko2_require_written(rt->relid, 0, 1,
									psprintf("adding a new player of %s written to %s", noun, table));
		if (++tries >= LOCK_TRIES)
			ereport(ERROR,
					errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					errmsg("could not lock the ratings rows of every player of %s written to %s",
						   noun, table),
					errdetail("A player's row was deleted while it was being rated."),
					errhint("Retry the transaction."));
		if (e->players > 0)
		{
			memcpy(args, keys, sizeof(Datum) * n);
			args[n] = glicko2_rating_datum(rt->rating_desc, &rt->unrated);
			memcpy(args + n + 1, rated_at, sizeof(Datum) * n);
		}
		else
		{
			args[0] = key_array;
			args[1] = glicko2_rating_datum(rt->rating_desc, &rt->unrated);
			args[2] = glicko_live_array(rated_at, n, TIMESTAMPTZOID);
		}
		ret = SPI_execute_plan(e->plans[GLICKO_LIVE_INSERT], args, NULL, false, 0);
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "live rating: insert of new players failed: %s", SPI_result_code_string(ret));
		added = SPI_processed;
	}
}

int64
glicko_live_write_rows(GlickoLiveEntry *e, const GlickoLiveRatings *rt, int n,
					   const GlickoLiveRow *rows, const Datum *extra, int n_extra)
{
	Datum	   *values = palloc(sizeof(Datum) * (4 * n + n_extra));
	Datum	   *args = values;
	int			ret;

	Assert(e->players == 0 || e->players == n);
	/* row by row: tableoid, tid, rating, rated_at */
	for (int i = 0; i < n; i++)
	{
		values[4 * i] = ObjectIdGetDatum(rows[i].tableoid);
		values[4 * i + 1] = PointerGetDatum(&rows[i].tid);
		values[4 * i + 2] = glicko2_rating_datum(rt->rating_desc, &rows[i].rating);
		values[4 * i + 3] = TimestampTzGetDatum(rows[i].rated_at);
	}
	if (e->players == 0)
	{
		/* column by column, each an array */
		Oid			column_types[4] = {OIDOID, TIDOID, rt->rating_type, TIMESTAMPTZOID};
		Datum	   *column = palloc(sizeof(Datum) * n);

		args = palloc(sizeof(Datum) * (4 + n_extra));
		for (int c = 0; c < 4; c++)
		{
			for (int i = 0; i < n; i++)
				column[i] = values[4 * i + c];
			args[c] = glicko_live_array(column, n, column_types[c]);
		}
	}
	if (n_extra > 0)
		memcpy(args + (e->players > 0 ? 4 * n : 4), extra, sizeof(Datum) * n_extra);
	/* (a rule on the ratings table may make it no UPDATE: nothing written) */
	ret = SPI_execute_plan(e->plans[GLICKO_LIVE_WRITE], args, NULL, false, 0);
	if (ret < 0)
		elog(ERROR, "live rating: the write of the ratings failed: %s", SPI_result_code_string(ret));
	return ret == SPI_OK_UPDATE ? (int64) SPI_processed : 0;
}

/* The entries of every live trigger of this backend. */
static HTAB *live_entries = NULL;

/* DDL on a trigger's table, one above or below, or its ratings table: rebuild its entry. */
static void
live_relcache_callback(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS status;
	GlickoLiveEntry *e;

	hash_seq_init(&status, live_entries);
	while ((e = hash_seq_search(&status)) != NULL)
	{
		if (relid == InvalidOid || e->table_relid == relid || e->ratings_relid == relid)
			e->valid = false;
		for (int i = 0; i < e->n_hierarchy && e->valid; i++)
			if (e->hierarchy[i] == relid)
				e->valid = false;
	}
}

static void
free_plans(GlickoLiveEntry *e)
{
	for (int i = 0; i < GLICKO_LIVE_PLANS; i++)
	{
		if (e->plans[i])
			SPI_freeplan(e->plans[i]);
		e->plans[i] = NULL;
	}
}

/*
 * Free the plans and memory of other invalidated entries: they are rebuilt
 * if used again, and a dropped trigger (a temporary table's, say) then
 * keeps only its small hash entry.
 */
static void
release_invalid(GlickoLiveEntry *keep)
{
	HASH_SEQ_STATUS status;
	GlickoLiveEntry *e;

	hash_seq_init(&status, live_entries);
	while ((e = hash_seq_search(&status)) != NULL)
		if (e != keep && !e->valid && e->active == 0 && e->cxt != NULL)
		{
			free_plans(e);
			MemoryContextDelete(e->cxt);
			e->cxt = NULL;
			e->state = NULL;
			e->hierarchy = NULL;
			e->n_hierarchy = 0;
		}
}

/*
 * The trigger's place among its table's partitions or inheritance children
 * (glicko2_live_trigger_scope): refused while a table below lacks a trigger
 * like it (a statement fires only the statement triggers of the table it
 * names, and an inheritance parent's row triggers do not fire for rows
 * written to its children: rows written straight to that table would never
 * be rated); the topmost table above reached through tables with a trigger
 * like it; every table above and below, whose DDL may change these.
 */
static void
live_hierarchy(GlickoLiveEntry *e, TriggerData *trigdata)
{
	Trigger    *trigger = trigdata->tg_trigger;
	Datum		arg = ObjectIdGetDatum(trigger->tgoid);
	Oid			type = OIDOID;
	HeapTuple	tup;
	TupleDesc	desc;
	bool		isnull;
	Datum		top,
				hierarchy;
	Datum	   *relids;
	int			ret;

	ret = SPI_execute_with_args("SELECT s.top, s.missing, s.fix, s.hierarchy"
								" FROM glicko2_internal.glicko2_live_trigger_scope($1) s",
								1, &type, &arg, NULL, true, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the hierarchy of trigger %u", trigger->tgoid);
	tup = SPI_tuptable->vals[0];
	desc = SPI_tuptable->tupdesc;
	(void) SPI_getbinval(tup, desc, 2, &isnull);
	if (!isnull)
	{
		Oid			missing = DatumGetObjectId(SPI_getbinval(tup, desc, 2, &isnull));

		ereport(ERROR,
				errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				errmsg("%s %s of %s has no trigger like %s",
					   get_rel_relispartition(missing) ? "partition" : "inheritance child",
					   SPI_getvalue(tup, desc, 2), RelationGetRelationName(trigdata->tg_relation),
					   trigger->tgname),
				errdetail("Rows written straight to it would never be rated: a statement fires only the statement triggers of the table it names, and a parent's row triggers do not fire for its inheritance children's rows. Nothing is rated until it has one."),
				errhint("%s;", SPI_getvalue(tup, desc, 3)));
	}
	top = SPI_getbinval(tup, desc, 1, &isnull);
	e->top_relid = isnull ? e->table_relid : DatumGetObjectId(top);
	hierarchy = SPI_getbinval(tup, desc, 4, &isnull);
	if (!isnull)
	{
		MemoryContext old = MemoryContextSwitchTo(e->cxt);

		deconstruct_array(DatumGetArrayTypeP(hierarchy), OIDOID, sizeof(Oid), true,
						  TYPALIGN_INT, &relids, NULL, &e->n_hierarchy);
		e->hierarchy = palloc(sizeof(Oid) * Max(e->n_hierarchy, 1));
		for (int i = 0; i < e->n_hierarchy; i++)
			e->hierarchy[i] = DatumGetObjectId(relids[i]);
		MemoryContextSwitchTo(old);
	}
}

/*
 * A live trigger on a table of a Citus distributed schema (one shard, on
 * one node with the rest of its schema) rates there, but reaches only the
 * tables of its schema: a ratings table or teammates store elsewhere is
 * refused, naming it (Citus would fail with "cannot execute a distributed
 * query from a query on a shard", or find no such table on that node).
 */
static void
refuse_unreachable(TriggerData *trigdata, const char *fn)
{
	Trigger    *tg = trigdata->tg_trigger;
	Oid			argtypes[2] = {OIDOID, TEXTARRAYOID};
	Datum		values[2];
	Datum	   *named = palloc(sizeof(Datum) * Max(tg->tgnargs, 1));
	int			n = 0;
	bool		isnull;
	Datum		apart;

	for (int i = 0; i < tg->tgnargs; i++)
		if (i == 0 || strncmp(tg->tgargs[i], "teammates=", strlen("teammates=")) == 0)
			named[n++] = CStringGetTextDatum(i == 0 ? tg->tgargs[i] : tg->tgargs[i] + strlen("teammates="));
	values[0] = ObjectIdGetDatum(RelationGetRelid(trigdata->tg_relation));
	values[1] = PointerGetDatum(construct_array(named, n, TEXTOID, -1, false, TYPALIGN_INT));
	if (SPI_execute_with_args("SELECT glicko2_internal.glicko2_citus_unreachable($1, $2)", 2, argtypes, values,
							  NULL, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "glicko2_citus_unreachable failed");
	apart = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (isnull)
		return;
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("live trigger %s (%s) on %s cannot write %s: it is not in the table's Citus distributed schema",
				   tg->tgname, fn ? fn : "?", RelationGetRelationName(trigdata->tg_relation),
				   TextDatumGetCString(apart)),
			errdetail("A table of a distributed schema is one shard on one node, where its trigger runs; a trigger there reaches only the tables of its own schema (co-location group)."),
			errhint("Keep the ratings table and the teammates store in the same distributed schema as the games (docs/citus.md, Many small leagues)."));
}

/*
 * A live trigger on a table Citus distributes or replicates runs on its
 * shards (or on every copy): it would lock the players' rows from one node
 * in no order shared with the others, or rate a game once per copy.  It is
 * refused; the supported paths on Citus, which the writer calls, are
 * glicko2_rate_game for games (live_rate_game.c) and glicko2_rate_match
 * for matches (live_rate_match.c).
 * (The catalog of Citus is read only where it is installed, once per
 * trigger built.)
 */
static void
refuse_citus_table(TriggerData *trigdata)
{
	Oid			argtypes[1] = {OIDOID};
	Datum		values[1];
	bool		isnull;
	char	   *fn = get_func_name(trigdata->tg_trigger->tgfoid);
	const char *ratings = "'<ratings>'";
	const char *table;

	if (!OidIsValid(get_relname_relid("pg_dist_partition", PG_CATALOG_NAMESPACE)))
		return;
	values[0] = ObjectIdGetDatum(RelationGetRelid(trigdata->tg_relation));
	if (SPI_execute_with_args("SELECT glicko2_internal.glicko2_citus_placed($1),"
							  " glicko2_internal.glicko2_citus_table($1)::pg_catalog.text",
							  1, argtypes, values, NULL, true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "glicko2_citus_placed failed");
	if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)) || isnull)
	{
		refuse_unreachable(trigdata, fn);
		return;
	}
	if (trigdata->tg_trigger->tgnargs > 0)
		ratings = quote_literal_cstr(trigdata->tg_trigger->tgargs[0]);
	/* (the table, not its shard, whose trigger this is) */
	table = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);
	table = table ? quote_literal_cstr(table) : "'<matches>'";
	ereport(ERROR,
			errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			errmsg("live trigger %s (%s) cannot rate rows written to %s: Citus distributes the table",
				   trigdata->tg_trigger->tgname, fn ? fn : "?", RelationGetRelationName(trigdata->tg_relation)),
			errdetail("A trigger runs on one shard's node: it cannot lock both players' rows on other nodes in one order, so concurrent games could be rated out of order or deadlock."),
			fn != NULL && strcmp(fn, "glicko2_rate_games") == 0
			? errhint("Call glicko2_rate_game(%s, player, opponent, score, played_at[, options]) in the transaction that writes the game (docs/citus.md, Live ratings).",
					  ratings)
			: errhint("Call glicko2_rate_match(%s, %s, match_id[, options]) in the transaction that writes the match's rows (docs/citus.md, Live ratings).",
					  ratings, table));
}

GlickoLiveEntry *
glicko_live_entry(TriggerData *trigdata, Oid extension_namespace, GlickoLiveBuild build)
{
	Oid			oid = trigdata->tg_trigger->tgoid;
	GlickoLiveEntry *e;
	bool		found;

	if (live_entries == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(GlickoLiveEntry);
		live_entries = hash_create("glicko2 live triggers", 16, &ctl, HASH_ELEM | HASH_BLOBS);
		CacheRegisterRelcacheCallback(live_relcache_callback, (Datum) 0);
	}
	e = hash_search(live_entries, &oid, HASH_ENTER, &found);
	if (!found)
		memset((char *) e + sizeof(Oid), 0, sizeof(GlickoLiveEntry) - sizeof(Oid));
	if ((!e->valid || e->table_relid != RelationGetRelid(trigdata->tg_relation)) &&
		e->active == 0)
	{
		release_invalid(e);
		free_plans(e);
		e->valid = false;
		e->state = NULL;
		if (e->cxt == NULL)
			e->cxt = AllocSetContextCreate(TopMemoryContext, "glicko2 live trigger",
										   ALLOCSET_SMALL_SIZES);
		MemoryContextReset(e->cxt);
		e->hierarchy = NULL;
		e->n_hierarchy = 0;
		refuse_citus_table(trigdata);
		e->table_relid = RelationGetRelid(trigdata->tg_relation);
		live_hierarchy(e, trigdata);
		build(e, trigdata, extension_namespace);
		e->valid = true;
	}
	return e;
}

char *
glicko_live_key_text(Oid type, Datum key)
{
	Oid			output;
	bool		isvarlena;

	getTypeOutputInfo(type, &output, &isvarlena);
	return OidOutputFunctionCall(output, key);
}

/* For errors in a stored rating: which player's row it is. */
typedef struct RowContext
{
	const GlickoLiveRatings *rt;
	Oid			key_type;
	Datum		key;
} RowContext;

static void
row_error_context(void *arg)
{
	RowContext *c = (RowContext *) arg;

	errcontext("ratings row of player %s in %s", glicko_live_key_text(c->key_type, c->key),
			   get_rel_name(c->rt->relid));
}

/*
 * Read a locked row whose columns first..first+3 are rating, rated_at,
 * ctid, tableoid.  key names the player in errors; a second row of a
 * player already found is an ERROR (an inheritance parent's unique key
 * does not cover its children).
 */
static void
read_row(GlickoLiveRow *row, HeapTuple tup, TupleDesc desc, int first,
		 const GlickoLiveRatings *rt, Oid key_type, Datum key)
{
	bool		isnull;			/* ctid and tableoid are never NULL */
	bool		rating_null,
				rated_at_null;
	Datum		rating = SPI_getbinval(tup, desc, first, &rating_null);
	Datum		rated_at = SPI_getbinval(tup, desc, first + 1, &rated_at_null);
	Oid			tableoid = DatumGetObjectId(SPI_getbinval(tup, desc, first + 3, &isnull));

	/*
	 * (a unique index of a partitioned table spans its partitions, one of an
	 * inheritance parent only the parent's own rows)
	 */
	if (row->found)
		ereport(ERROR,
				errcode(ERRCODE_UNIQUE_VIOLATION),
				errmsg("player %s has more than one row in %s",
					   glicko_live_key_text(key_type, key), get_rel_name(rt->relid)),
				errdetail("Rows of %s and %s hold the same player; the unique key of an inheritance parent does not cover its children.",
						  get_rel_name(row->tableoid), get_rel_name(tableoid)),
				errhint("Keep each player in one table of the hierarchy, or use a partitioned table, whose unique key spans its partitions."));
	glicko_live_read_rating(row, rating, rating_null, rated_at, rated_at_null, rt, key_type, key);
	row->tableoid = tableoid;
	row->tid = *(ItemPointer) DatumGetPointer(SPI_getbinval(tup, desc, first + 2, &isnull));
}

void
glicko_live_read_rating(GlickoLiveRow *row, Datum rating, bool rating_null, Datum rated_at,
						bool rated_at_null, const GlickoLiveRatings *rt, Oid key_type, Datum key)
{
	row->found = true;
	row->unrated = rating_null;
	row->rated_at_null = rated_at_null;
	row->rated_at = rated_at_null ? 0 : DatumGetTimestampTz(rated_at);
	if (!row->rated_at_null)
		glicko_live_check_timestamp(row->rated_at, "rated_at");
	if (row->unrated)
		row->rating = rt->unrated;
	else
	{
		RowContext	c = {rt, key_type, key};
		ErrorContextCallback callback = {error_context_stack, row_error_context, &c};

		error_context_stack = &callback;
		glicko2_datum_get(rating, &row->rating, "rating");
		error_context_stack = callback.previous;
	}
}

/*
 * One game rated for both players from their locked rows (rows[0] the
 * player's, rows[1] the opponent's): each RD grown for the periods since
 * its rated_at, both updated from both pre-game ratings at t = 0, the
 * floors and caps applied, rated_at moved to played_at (never back).  The
 * one definition glicko2_rate_games and glicko2_rate_game rate a game by;
 * `what` names the game in errors.
 */
void
glicko_live_rate_game(const GlickoLiveOptions *opt, GlickoLiveRow *rows, double score,
					  TimestampTz played_at, const char *what)
{
	Glicko2Rating new_player,
				new_opponent;
	GlickoStatus status;

	status = glicko2_live_game(&rows[0].rating, glicko_live_idle(&rows[0], played_at, opt->period_usecs),
							   &rows[1].rating, glicko_live_idle(&rows[1], played_at, opt->period_usecs),
							   score, opt->tau, opt->max_rd, &new_player, &new_opponent);
	if (status != GLICKO_OK)
		glicko_report_status(status, what);
	(void) glicko2_apply_caps(&rows[0].rating, &new_player, &opt->caps);
	(void) glicko2_apply_caps(&rows[1].rating, &new_opponent, &opt->caps);
	rows[0].rating = new_player;
	rows[1].rating = new_opponent;
	for (int i = 0; i < 2; i++)
		rows[i].rated_at = glicko_live_rated_at(&rows[i], played_at);
}

double
glicko_live_idle(const GlickoLiveRow *row, TimestampTz at, double period_usecs)
{
	if (row->unrated || row->rated_at_null)
		return 0.0;
	return glicko_live_elapsed_periods(row->rated_at, at, period_usecs);
}

TimestampTz
glicko_live_rated_at(const GlickoLiveRow *row, TimestampTz at)
{
	return row->rated_at_null ? at : Max(row->rated_at, at);
}
