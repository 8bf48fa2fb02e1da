/*
 * guard.c — glicko2_refuse_closed_games, the guard trigger of a games table:
 * refuses a game written to, changed in or deleted from a period that a
 * close has closed (BEFORE ... FOR EACH ROW), and a TRUNCATE of a table that
 * holds such games (BEFORE TRUNCATE ... FOR EACH STATEMENT).
 *
 * Which closes a trigger guards is decided in SQL, by glicko2_guard_closes
 * (the same scope the close checks with glicko2_guard_gaps).  This file only
 * keeps its answer per trigger and compares each row's period with it, so a
 * written row costs one comparison.
 *
 * The answer is kept until the command counter moves or the transaction
 * ends.  That is safe because the executor holds ROW EXCLUSIVE on the table
 * (and TRUNCATE ACCESS EXCLUSIVE) before the first row reaches the trigger,
 * and keeps it to the end of the transaction, while a close takes SHARE on
 * every table it reads: another session's close of this table cannot commit
 * until this transaction ends, and a close in this transaction writes, which
 * moves the command counter.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "compat.h"

/* What one trigger (a partition's clone is a trigger of its own) guards. */
typedef struct GuardState
{
	Oid			tgoid;			/* hash key */
	bool		valid;
	CommandId	cid;			/* the command counter when it was read */
	bool		closed;			/* some covered ratings table has closed a period */
	AttrNumber	attnum;			/* the period column of the trigger's table */
	Oid			typid;
	Oid			collation;
	int16		typlen;
	bool		typbyval;
	FmgrInfo   *cmp;			/* the type's btree comparison (type cache) */
	Datum		last;			/* the latest period closed, in the column's type */
	char	   *last_text;
	char	   *ratings;		/* the ratings table that closed it */
} GuardState;

static MemoryContext guard_cxt = NULL;
static HTAB *guard_states = NULL;

/* Every transaction reads the closes afresh. */
static void
guard_xact_callback(XactEvent event, void *arg)
{
	if (guard_cxt != NULL)
		MemoryContextReset(guard_cxt);
	guard_states = NULL;
}

static HTAB *
guard_hash(void)
{
	HASHCTL		ctl;

	if (guard_states != NULL)
		return guard_states;
	if (guard_cxt == NULL)
	{
		guard_cxt = AllocSetContextCreate(TopMemoryContext, "glicko2 guard",
										  ALLOCSET_SMALL_SIZES);
		RegisterXactCallback(guard_xact_callback, NULL);
	}
	memset(&ctl, 0, sizeof(ctl));
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(GuardState);
	ctl.hcxt = guard_cxt;
	guard_states = hash_create("glicko2 guard states", 16, &ctl,
							   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
	return guard_states;
}

static char *
relation_name(Relation rel)
{
	return quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)),
									  RelationGetRelationName(rel));
}

/* The period column of the trigger's table, by the name the guard uses. */
static void
read_period_column(GuardState *s, Relation rel, const char *column)
{
	TupleDesc	desc = RelationGetDescr(rel);
	TypeCacheEntry *tc;
	int			i;

	s->attnum = InvalidAttrNumber;
	for (i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute a = TupleDescAttr(desc, i);

		if (!a->attisdropped && strcmp(NameStr(a->attname), column) == 0)
		{
			s->attnum = a->attnum;
			s->typid = a->atttypid;
			break;
		}
	}
	if (s->attnum == InvalidAttrNumber)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_COLUMN),
				errmsg("column \"%s\" of relation %s does not exist", column, relation_name(rel)),
				errhint("Name the period column in the guard's arguments: 'period_column=name'."));
	tc = lookup_type_cache(s->typid, TYPECACHE_CMP_PROC_FINFO | TYPECACHE_LT_OPR);
	if (!OidIsValid(tc->cmp_proc_finfo.fn_oid) || !OidIsValid(tc->lt_opr))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("period column \"%s\" of %s has type %s, which has no ordering",
					   column, relation_name(rel), format_type_be(s->typid)));
	s->cmp = &tc->cmp_proc_finfo;
	s->collation = tc->typcollation;
	s->typlen = tc->typlen;
	s->typbyval = tc->typbyval;
}

static int
compare_periods(GuardState *s, Datum a, Datum b)
{
	return DatumGetInt32(FunctionCall2Coll(s->cmp, s->collation, a, b));
}

/*
 * Reads what the trigger guards: the last period closed of each ratings
 * table it covers, keeping the latest (in the period column's type).
 */
static void
read_closes(GuardState *s, TriggerData *td, Oid fn_oid)
{
	Relation	rel = td->tg_relation;
	char	   *schema = get_namespace_name(get_func_namespace(fn_oid));
	Oid			argtypes[1] = {OIDOID};
	Datum		values[1];
	char	   *query;
	uint64		i;
	MemoryContext old;

	if (s->valid && s->closed)
	{
		pfree(s->last_text);
		pfree(s->ratings);
		if (!s->typbyval)
			pfree(DatumGetPointer(s->last));
	}
	s->valid = false;
	s->closed = false;

	query = psprintf("SELECT g.ratings, g.period, g.period_column FROM %s.glicko2_guard_closes($1) g",
					 quote_identifier(schema));
	values[0] = ObjectIdGetDatum(td->tg_trigger->tgoid);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args(query, 1, argtypes, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed: %s", query);
	for (i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tuple = SPI_tuptable->vals[i];
		TupleDesc	desc = SPI_tuptable->tupdesc;
		char	   *ratings = SPI_getvalue(tuple, desc, 1);
		char	   *period = SPI_getvalue(tuple, desc, 2);
		Oid			input;
		Oid			ioparam;
		Datum		value;

		if (i == 0)
			read_period_column(s, rel, SPI_getvalue(tuple, desc, 3));
		getTypeInputInfo(s->typid, &input, &ioparam);
		old = MemoryContextSwitchTo(guard_cxt);
		value = OidInputFunctionCall(input, period, ioparam, -1);
		if (!s->closed || compare_periods(s, value, s->last) > 0)
		{
			if (s->closed)
			{
				pfree(s->last_text);
				pfree(s->ratings);
				if (!s->typbyval)
					pfree(DatumGetPointer(s->last));
			}
			s->last = value;
			s->last_text = pstrdup(period);
			s->ratings = pstrdup(ratings);
			s->closed = true;
		}
		else if (!s->typbyval)
			pfree(DatumGetPointer(value));
		MemoryContextSwitchTo(old);
	}
	SPI_finish();
	/* SPI moved the command counter (a statement not read-only): read it after. */
	s->cid = GetCurrentCommandId(false);
	s->valid = true;
}

static GuardState *
guard_state(TriggerData *td, Oid fn_oid)
{
	bool		found;
	GuardState *s = hash_search(guard_hash(), &td->tg_trigger->tgoid, HASH_ENTER, &found);

	if (!found)
		s->valid = false;
	if (!s->valid || s->cid != GetCurrentCommandId(false))
		read_closes(s, td, fn_oid);
	return s;
}

/* Refuses the row if its period is at or before the latest closed one. */
static void
check_row(GuardState *s, TriggerData *td, HeapTuple tuple, const char *op)
{
	bool		isnull;
	Datum		period;
	Oid			output;
	bool		isvarlena;

	if (!s->closed)
		return;
	period = heap_getattr(tuple, s->attnum, RelationGetDescr(td->tg_relation), &isnull);
	if (isnull || compare_periods(s, period, s->last) > 0)
		return;
	getTypeOutputInfo(s->typid, &output, &isvarlena);
	ereport(ERROR,
			errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			errmsg("%s of a game in period %s on %s refused: %s has closed period %s",
				   op, OidOutputFunctionCall(output, period), relation_name(td->tg_relation),
				   s->ratings, s->last_text),
			errdetail("Periods up to %s of %s are closed; a game written there would never be rated.",
					  s->last_text, s->ratings),
			errhint("Write the game to a period that is still open."));
}

/* TRUNCATE is refused if the table (with its partitions) holds a closed period's game. */
static void
check_truncate(GuardState *s, TriggerData *td)
{
	Relation	rel = td->tg_relation;
	TupleDesc	desc = RelationGetDescr(rel);
	Datum		first = (Datum) 0;
	bool		isnull = true;
	Oid			output;
	bool		isvarlena;
	const char *column;
	char	   *query;
	char	   *found = NULL;
	MemoryContext caller = CurrentMemoryContext;

	if (!s->closed)
		return;
	/* The earliest period it holds (an index on the period column serves it). */
	column = quote_identifier(NameStr(TupleDescAttr(desc, s->attnum - 1)->attname));
	/* ORDER BY uses the type's default btree ordering, not an operator found by name. */
	query = psprintf("SELECT g.%s FROM %s g WHERE g.%s IS NOT NULL ORDER BY g.%s LIMIT 1",
					 column, relation_name(rel), column, column);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute(query, false, 1) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed: %s", query);
	if (SPI_processed > 0)
		first = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull && compare_periods(s, first, s->last) <= 0)
	{
		getTypeOutputInfo(s->typid, &output, &isvarlena);
		found = MemoryContextStrdup(caller, OidOutputFunctionCall(output, first));
	}
	SPI_finish();
	if (found != NULL)
		ereport(ERROR,
				errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				errmsg("truncate of %s refused: it holds games of period %s, and %s has closed period %s",
					   relation_name(rel), found, s->ratings, s->last_text),
				errdetail("Periods up to %s of %s are closed; their games must stay as they were rated.",
						  s->last_text, s->ratings),
				errhint("Delete the games of open periods instead."));
}

/* glicko2_refuse_closed_games(): the guard trigger (arguments: see glicko2_guard_scope). */
PG_FUNCTION_INFO_V1(glicko2_refuse_closed_games);
Datum
glicko2_refuse_closed_games(PG_FUNCTION_ARGS)
{
	TriggerData *td = (TriggerData *) fcinfo->context;
	TriggerEvent ev;
	GuardState *s;

	if (!CALLED_AS_TRIGGER(fcinfo))
		ereport(ERROR,
				errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				errmsg("glicko2_refuse_closed_games must be called as a trigger"));
	ev = td->tg_event;
	if (!TRIGGER_FIRED_BEFORE(ev) ||
		(TRIGGER_FIRED_FOR_STATEMENT(ev) && !TRIGGER_FIRED_BY_TRUNCATE(ev)))
		ereport(ERROR,
				errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				errmsg("glicko2_refuse_closed_games must be a BEFORE ... FOR EACH ROW trigger, or BEFORE TRUNCATE ... FOR EACH STATEMENT"));

	s = guard_state(td, fcinfo->flinfo->fn_oid);
	if (TRIGGER_FIRED_BY_TRUNCATE(ev))
	{
		check_truncate(s, td);
		return PointerGetDatum(NULL);
	}
	if (TRIGGER_FIRED_BY_INSERT(ev))
	{
		check_row(s, td, td->tg_trigtuple, "insert");
		return PointerGetDatum(td->tg_trigtuple);
	}
	if (TRIGGER_FIRED_BY_DELETE(ev))
	{
		check_row(s, td, td->tg_trigtuple, "delete");
		return PointerGetDatum(td->tg_trigtuple);
	}
	check_row(s, td, td->tg_trigtuple, "update");
	check_row(s, td, td->tg_newtuple, "update");
	return PointerGetDatum(td->tg_newtuple);
}
