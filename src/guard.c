/*
 * guard.c — glicko2_refuse_closed_games, the guard trigger of a games table:
 * refuses a game written to, changed in or deleted from a period that a
 * close has closed (BEFORE ... FOR EACH ROW), and a TRUNCATE of a table that
 * holds such games (BEFORE TRUNCATE ... FOR EACH STATEMENT); and
 * glicko2_refuse_closed_arrivals, which refuses a table attached or
 * inherited below a guarded one that holds such games.
 *
 * Which closes a trigger guards is its scope (guard_scope, which SQL calls
 * as glicko2_guard_scope: the close checks the guards with the same
 * function, in glicko2_guard_gaps).  The trigger reads the closes in that
 * scope once per statement, keeps the latest closed period per trigger and
 * compares each row's period with it, so a written row costs one comparison.
 *
 * On a table Citus distributes the trigger runs on the shards, on the
 * workers, where glicko2_closes (the coordinator's) says nothing: a guard
 * there carries 'citus=key' and reads its row of the reference table
 * glicko2_internal.glicko2_citus_guards on its own node instead, locking it
 * FOR SHARE, which the close updates before it reads any game (see
 * sql/guard.sql).  A guard that cannot read that row refuses every write.
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

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/xact.h"
#include "catalog/indexing.h"
#include "catalog/namespace.h"
#include "catalog/pg_class.h"
#include "catalog/pg_depend.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_rewrite.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "nodes/makefuncs.h"
#include "nodes/parsenodes.h"
#include "tcop/deparse_utility.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
#include "utils/typcache.h"
#include "utils/varlena.h"

#include "compat.h"

/* The table a rule (of a view) belongs to. */
static Oid
rule_relation(Oid rule)
{
	Relation	rewrite = table_open(RewriteRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			relid = InvalidOid;

	ScanKeyInit(&key, Anum_pg_rewrite_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(rule));
	scan = systable_beginscan(rewrite, RewriteOidIndexId, true, NULL, 1, &key);
	if (HeapTupleIsValid(tuple = systable_getnext(scan)))
		relid = ((Form_pg_rewrite) GETSTRUCT(tuple))->ev_class;
	systable_endscan(scan);
	table_close(rewrite, AccessShareLock);
	return relid;
}

/* Appends to views the views (and materialized views) whose rules read relid. */
static List *
add_readers(List *views, Oid relid)
{
	Relation	depend = table_open(DependRelationId, AccessShareLock);
	ScanKeyData keys[2];
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&keys[0], Anum_pg_depend_refclassid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(RelationRelationId));
	ScanKeyInit(&keys[1], Anum_pg_depend_refobjid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(depend, DependReferenceIndexId, true, NULL, 2, keys);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Form_pg_depend d = (Form_pg_depend) GETSTRUCT(tuple);
		Oid			view;

		if (d->classid != RewriteRelationId)
			continue;
		view = rule_relation(d->objid);
		if (OidIsValid(view) && view != relid && !list_member_oid(views, view))
			views = lappend_oid(views, view);
	}
	systable_endscan(scan);
	table_close(depend, AccessShareLock);
	return views;
}

/*
 * Appends to tables the parents of relid: partitioned tables and
 * inheritance parents alike (a close reading a parent reads relid's rows).
 */
static List *
add_parents(List *tables, Oid relid)
{
	Relation	inherits = table_open(InheritsRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&key, Anum_pg_inherits_inhrelid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(relid));
	scan = systable_beginscan(inherits, InheritsRelidSeqnoIndexId, true, NULL, 1, &key);
	while (HeapTupleIsValid(tuple = systable_getnext(scan)))
	{
		Oid			parent = ((Form_pg_inherits) GETSTRUCT(tuple))->inhparent;

		if (!list_member_oid(tables, parent))
			tables = lappend_oid(tables, parent);
	}
	systable_endscan(scan);
	table_close(inherits, AccessShareLock);
	return tables;
}

/*
 * What a guard trigger on relid with these arguments covers: the ratings
 * tables its arguments name (unqualified: in relid's schema), or else every
 * close read from relid, from a table above it (a partitioned table or an
 * inheritance parent, at any level) or from a view reading any of these
 * (views over views too); and the period column ('period_column=name',
 * default period).
 */
static void
guard_scope(Oid relid, const char *tgname, int nargs, char **args,
			List **named, List **games, char **period_column, char **citus)
{
	char	   *schema = get_namespace_name(get_rel_namespace(relid));
	int			i;

	*named = NIL;
	*games = NIL;
	*period_column = pstrdup("period");
	*citus = NULL;
	for (i = 0; i < nargs; i++)
	{
		List	   *names;
		Oid			ratings;

		if (strncmp(args[i], "period_column=", strlen("period_column=")) == 0)
		{
			*period_column = pstrdup(args[i] + strlen("period_column="));
			continue;
		}
		if (strncmp(args[i], "citus=", strlen("citus=")) == 0)
		{
			*citus = pstrdup(args[i] + strlen("citus="));
			continue;
		}
		names = textToQualifiedNameList(cstring_to_text(args[i]));
		if (list_length(names) == 1)
			names = lcons(makeString(schema), names);
		ratings = RangeVarGetRelid(makeRangeVarFromNameList(names), NoLock, true);
		if (!OidIsValid(ratings))
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_TABLE),
					errmsg("ratings table %s named by trigger %s on %s does not exist",
						   args[i], tgname, quote_qualified_identifier(schema, get_rel_name(relid))));
		*named = lappend_oid(*named, ratings);
	}
	if (*named != NIL)
		return;
	*games = list_make1_oid(relid);

	/*
	 * (the list grows as parents and views are found; each relation is added
	 * once)
	 */
	for (i = 0; i < list_length(*games); i++)
	{
		*games = add_parents(*games, list_nth_oid(*games, i));
		*games = add_readers(*games, list_nth_oid(*games, i));
	}
}

static Datum
regclass_array(List *oids)
{
	Datum	   *elems = palloc(sizeof(Datum) * (list_length(oids) + 1));
	ListCell   *lc;
	int			n = 0;

	foreach(lc, oids)
		elems[n++] = ObjectIdGetDatum(lfirst_oid(lc));
	return PointerGetDatum(construct_array(elems, n, REGCLASSOID, sizeof(Oid), true, TYPALIGN_INT));
}

/* glicko2_guard_scope(guard oid): guard_scope of the trigger with that OID. */
PG_FUNCTION_INFO_V1(glicko2_guard_scope);
Datum
glicko2_guard_scope(PG_FUNCTION_ARGS)
{
	Oid			guard = PG_GETARG_OID(0);
	Relation	triggers;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;
	Oid			relid;
	char	   *tgname;
	int			nargs;
	char	  **args;
	List	   *named;
	List	   *games;
	char	   *period_column;
	char	   *citus;
	TupleDesc	desc;
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "glicko2_guard_scope must return a record");
	triggers = table_open(TriggerRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_trigger_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(guard));
	scan = systable_beginscan(triggers, TriggerOidIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (!HeapTupleIsValid(tuple))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_OBJECT),
				errmsg("trigger with OID %u does not exist", guard));
	relid = ((Form_pg_trigger) GETSTRUCT(tuple))->tgrelid;
	tgname = pstrdup(NameStr(((Form_pg_trigger) GETSTRUCT(tuple))->tgname));
	nargs = ((Form_pg_trigger) GETSTRUCT(tuple))->tgnargs;
	args = palloc(sizeof(char *) * (nargs + 1));
	if (nargs > 0)
	{
		bool		isnull;
		bytea	   *raw = DatumGetByteaPP(heap_getattr(tuple, Anum_pg_trigger_tgargs,
													   RelationGetDescr(triggers), &isnull));
		char	   *p = VARDATA_ANY(raw);
		int			i;

		/* (NUL-separated, as RelationBuildTriggers reads them) */
		for (i = 0; i < nargs; i++)
		{
			args[i] = pstrdup(p);
			p += strlen(p) + 1;
		}
	}
	systable_endscan(scan);
	table_close(triggers, AccessShareLock);

	guard_scope(relid, tgname, nargs, args, &named, &games, &period_column, &citus);
	values[0] = regclass_array(named);
	values[1] = regclass_array(games);
	values[2] = DirectFunctionCall1(namein, CStringGetDatum(period_column));
	values[3] = citus ? CStringGetTextDatum(citus) : (Datum) 0;
	nulls[3] = citus == NULL;
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(desc, values, nulls)));
}

/* What one trigger (a partition's clone is a trigger of its own) guards. */
typedef struct GuardState
{
	Oid			tgoid;			/* hash key */
	bool		valid;
	CommandId	cid;			/* the command counter when it was read */
	bool		closed;			/* some covered ratings table has closed a
								 * period */
	AttrNumber	attnum;			/* the period column of the trigger's table */
	Oid			typid;
	Oid			collation;
	int16		typlen;
	bool		typbyval;
	FmgrInfo   *cmp;			/* the type's btree comparison (type cache) */
	Datum		last;			/* the latest period closed, in the column's
								 * type */
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

/* The table's name, schema-qualified and quoted; NULL if it no longer exists. */
static char *
qualified_name(Oid relid)
{
	char	   *name = get_rel_name(relid);
	char	   *schema = name ? get_namespace_name(get_rel_namespace(relid)) : NULL;

	return schema ? quote_qualified_identifier(schema, name) : NULL;
}

/* A recorded period that no longer reads as the period column's type. */
typedef struct ClosedPeriodReading
{
	const char *period;
	const char *ratings;
	const char *column;
	Relation	rel;
} ClosedPeriodReading;

static void
closed_period_context(void *arg)
{
	ClosedPeriodReading *r = (ClosedPeriodReading *) arg;

	errcontext("reading period %s closed by %s as the type of column \"%s\" of %s (glicko2_closes)",
			   r->period, r->ratings, r->column, relation_name(r->rel));
}

/*
 * The query of the closes a scope covers, latest first for each ratings
 * table: prepared once per backend (per extension schema: the guard
 * function's); schema-qualified and with no operator found by name, as it
 * runs under the writer's search_path.
 */
static SPIPlanPtr
closes_plan(Oid fn_oid)
{
	static SPIPlanPtr plan = NULL;
	static Oid	plan_fn = InvalidOid;
	Oid			argtypes[2] = {REGCLASSARRAYOID, REGCLASSARRAYOID};
	char	   *query;

	if (plan != NULL && plan_fn == fn_oid)
		return plan;
	if (plan != NULL)
		SPI_freeplan(plan);
	plan = NULL;
	query = psprintf("SELECT c.ratings, c.period FROM %s.glicko2_closes c"
					 " WHERE c.ratings OPERATOR(pg_catalog.=) ANY ($1)"
					 " OR c.games_table OPERATOR(pg_catalog.=) ANY ($2)"
					 " ORDER BY c.ratings, c.close_number DESC",
					 quote_identifier(get_namespace_name(get_func_namespace(fn_oid))));
	/* (a generic plan: planning per statement would cost more than the query) */
	plan = SPI_prepare_cursor(query, 2, argtypes, CURSOR_OPT_GENERIC_PLAN);
	if (plan == NULL || SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_prepare failed: %s", query);
	plan_fn = fn_oid;
	return plan;
}

/*
 * One ratings table's last closed period (text, from the record): kept if
 * it is the latest so far, in the period column's type.
 */
static void
keep_closed(GuardState *s, Relation rel, const char *period_column,
			const char *ratings, const char *period)
{
	Oid			input;
	Oid			ioparam;
	Datum		value;
	MemoryContext old;
	ClosedPeriodReading reading;
	ErrorContextCallback callback = {NULL, closed_period_context, NULL};

	if (s->attnum == InvalidAttrNumber)
		read_period_column(s, rel, period_column);
	getTypeInputInfo(s->typid, &input, &ioparam);
	reading.period = period;
	reading.ratings = ratings;
	reading.column = period_column;
	reading.rel = rel;
	callback.arg = &reading;
	callback.previous = error_context_stack;
	error_context_stack = &callback;
	old = MemoryContextSwitchTo(guard_cxt);
	value = OidInputFunctionCall(input, (char *) period, ioparam, -1);
	error_context_stack = callback.previous;
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

/* A Citus guard that cannot read its state refuses: it would guard nothing. */
static void
citus_state_missing(TriggerData *td, const char *key, const char *why)
{
	ereport(ERROR,
			errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			errmsg("write to %s refused: its guard %s cannot read the guard state of %s on this node: %s",
				   relation_name(td->tg_relation), td->tg_trigger->tgname, key, why),
			errdetail("Without it the guard cannot tell which periods are closed, and a game written to a closed period would never be rated."),
			errhint("Call glicko2_guard_games on %s on the coordinator (with citus.enable_unsafe_triggers on).", key));
}

/*
 * The closes a Citus guard covers, from its row of glicko2_citus_guards on
 * this node (the reference table's copy here, a shard of it): locked FOR
 * SHARE first (a close updating the row is waited for, a close that comes
 * later waits for this transaction), then read with the latest snapshot.
 */
static void
read_citus_closes(GuardState *s, TriggerData *td, const char *key,
				  List *named, const char *period_column)
{
	Oid			argtypes[1] = {TEXTOID};
	Datum		values[1];
	char	   *placement;
	char	   *query;
	uint64		i;

	if (!OidIsValid(get_relname_relid("pg_dist_shard", PG_CATALOG_NAMESPACE)))
		citus_state_missing(td, key, "Citus is not installed");
	if (SPI_execute("SELECT pg_catalog.to_regclass(pg_catalog.shard_name(s.logicalrelid, s.shardid))::pg_catalog.text"
					" FROM pg_catalog.pg_dist_shard s"
					" WHERE s.logicalrelid OPERATOR(pg_catalog.=) pg_catalog.to_regclass('glicko2_internal.glicko2_citus_guards')",
					true, 2) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed");
	placement = SPI_processed == 1 ? SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1) : NULL;
	if (placement == NULL)
		citus_state_missing(td, key, "glicko2_internal.glicko2_citus_guards has no copy here");

	values[0] = CStringGetTextDatum(key);
	query = psprintf("SELECT 1 FROM %s g WHERE g.games OPERATOR(pg_catalog.=) $1 FOR SHARE", placement);
	if (SPI_execute_with_args(query, 1, argtypes, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed: %s", query);
	if (SPI_processed != 1)
		citus_state_missing(td, key, "it has no row there");
	query = psprintf("SELECT e.key, e.value FROM %s g, pg_catalog.jsonb_each_text(g.closed) e"
					 " WHERE g.games OPERATOR(pg_catalog.=) $1", placement);
	PushActiveSnapshot(GetLatestSnapshot());
	if (SPI_execute_with_args(query, 1, argtypes, values, NULL, true, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed: %s", query);
	PopActiveSnapshot();
	for (i = 0; i < SPI_processed; i++)
	{
		char	   *ratings = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1);
		char	   *period = SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2);
		ListCell   *lc;
		bool		covered = (named == NIL);

		/* (a guard naming ratings tables: their closes only) */
		foreach(lc, named)
		{
			char	   *name = qualified_name(lfirst_oid(lc));

			if (name != NULL && strcmp(name, ratings) == 0)
				covered = true;
		}
		if (covered && period != NULL)
			keep_closed(s, td->tg_relation, period_column, ratings, period);
	}
}

/*
 * Reads what the trigger guards: the last period closed of each ratings
 * table it covers, keeping the latest (in the period column's type).  The
 * query sees every close committed before now (a writer that waited for a
 * close's lock sees that close, whatever its isolation level), and being
 * read-only it leaves the command counter alone.
 */
static void
read_closes(GuardState *s, TriggerData *td, Oid fn_oid)
{
	Relation	rel = td->tg_relation;
	Trigger    *trigger = td->tg_trigger;
	List	   *named;
	List	   *games;
	char	   *period_column;
	char	   *citus;
	Datum		values[2];
	Oid			previous = InvalidOid;
	uint64		i;
	int			ret;

	if (s->valid && s->closed)
	{
		pfree(s->last_text);
		pfree(s->ratings);
		if (!s->typbyval)
			pfree(DatumGetPointer(s->last));
	}
	s->valid = false;
	s->closed = false;
	s->attnum = InvalidAttrNumber;

	guard_scope(RelationGetRelid(rel), trigger->tgname, trigger->tgnargs, trigger->tgargs,
				&named, &games, &period_column, &citus);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (citus != NULL)
	{
		read_citus_closes(s, td, citus, named, period_column);
		SPI_finish();
		s->cid = GetCurrentCommandId(false);
		s->valid = true;
		return;
	}
	values[0] = regclass_array(named);
	values[1] = regclass_array(games);

	/*
	 * (the latest snapshot, also under REPEATABLE READ: a close committed
	 * after the writer's snapshot still counts)
	 */
	PushActiveSnapshot(GetLatestSnapshot());
	ret = SPI_execute_plan(closes_plan(fn_oid), values, NULL, true, 0);
	PopActiveSnapshot();
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_plan failed");
	for (i = 0; i < SPI_processed; i++)
	{
		bool		isnull;
		Oid			ratings = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
		char	   *name;

		if (ratings == previous)	/* (not the last close of this ratings
									 * table) */
			continue;
		previous = ratings;

		/*
		 * A dropped ratings table's closes guard nothing: its ratings are
		 * gone (glicko2_forget_dropped deletes them at the DROP; this covers
		 * a DROP while event triggers were off).
		 */
		name = qualified_name(ratings);
		if (name == NULL)
			continue;
		keep_closed(s, rel, period_column, name,
					SPI_getvalue(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 2));
	}
	SPI_finish();
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

/*
 * The earliest period at or before the latest closed one that rel holds
 * (with its partitions and children, or ONLY rel), as text; NULL if none.
 * Read with the latest snapshot, also under REPEATABLE READ: the caller
 * holds a lock that keeps out writers, and a game committed after its
 * snapshot is there all the same.
 */
static char *
first_closed_period(GuardState *s, Relation rel, bool only)
{
	TupleDesc	desc = RelationGetDescr(rel);
	Datum		first = (Datum) 0;
	bool		isnull = true;
	Oid			output;
	bool		isvarlena;
	const char *column;
	char	   *query;
	char	   *found = NULL;
	int			ret;
	MemoryContext caller = CurrentMemoryContext;

	if (!s->closed)
		return NULL;
	/* The earliest period it holds (an index on the period column serves it). */
	column = quote_identifier(NameStr(TupleDescAttr(desc, s->attnum - 1)->attname));

	/*
	 * ORDER BY uses the type's default btree ordering, not an operator found
	 * by name.
	 */
	query = psprintf("SELECT g.%s FROM %s%s g WHERE g.%s IS NOT NULL ORDER BY g.%s LIMIT 1",
					 column, only ? "ONLY " : "", relation_name(rel), column, column);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetLatestSnapshot());
	ret = SPI_execute(query, true, 1);
	PopActiveSnapshot();
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed: %s", query);
	if (SPI_processed > 0)
		first = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);
	if (!isnull && compare_periods(s, first, s->last) <= 0)
	{
		getTypeOutputInfo(s->typid, &output, &isvarlena);
		found = MemoryContextStrdup(caller, OidOutputFunctionCall(output, first));
	}
	SPI_finish();
	return found;
}

/* TRUNCATE is refused if the table (with its partitions) holds a closed period's game. */
static void
check_truncate(GuardState *s, TriggerData *td)
{
	char	   *found = first_closed_period(s, td->tg_relation, false);

	if (found != NULL)
		ereport(ERROR,
				errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				errmsg("truncate of %s refused: it holds games of period %s, and %s has closed period %s",
					   relation_name(td->tg_relation), found, s->ratings, s->last_text),
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

/* Whether a guard trigger reads the Citus guard state (its 'citus=' argument). */
static bool
citus_guard(Trigger *t)
{
	for (int i = 0; i < t->tgnargs; i++)
		if (strncmp(t->tgargs[i], "citus=", strlen("citus=")) == 0)
			return true;
	return false;
}

/*
 * A table that arrives below a guarded table (ALTER TABLE ... ATTACH
 * PARTITION, ALTER TABLE ... INHERIT) brings games that no guard saw
 * written: written while it was detached, no longer a child, or never yet
 * one (a detached partition loses its cloned row guard, a child that left
 * keeps guards whose scope no longer reaches the parent).  Closes already
 * made never read them, and later closes read only later periods, so a game
 * of a closed period there would never be rated: the table is refused if it,
 * or any table below it, holds one that a row guard it now has covers.  A
 * Citus table cannot be read here (Citus returns no rows to queries on
 * distributed tables during an ALTER TABLE, taking them for constraint
 * checks: AlterTableConstraintCheck in executor/multi_executor.c), so once
 * a period its guard covers is closed it is refused unread (fail closed).
 */
static void
refuse_closed_arrival(Oid arrived, Oid guard_fn)
{
	List	   *tree;
	ListCell   *lc;

	/*
	 * SHARE keeps out writers of every table below it to the end of the
	 * transaction (ALTER TABLE ... INHERIT takes only SHARE UPDATE EXCLUSIVE
	 * on the child): a game written now would have been checked by a guard
	 * whose scope did not yet reach the parent.
	 */
	tree = find_all_inheritors(arrived, ShareLock, NULL);
	foreach(lc, tree)
	{
		Relation	rel = table_open(lfirst_oid(lc), NoLock);
		TriggerDesc *trigdesc = rel->trigdesc;
		int			i;

		for (i = 0; trigdesc != NULL && i < trigdesc->numtriggers; i++)
		{
			Trigger    *t = &trigdesc->triggers[i];
			GuardState	s;
			TriggerData td;
			char	   *found;

			if (t->tgfoid != guard_fn || !TRIGGER_FOR_ROW(t->tgtype) ||
				(t->tgenabled != TRIGGER_FIRES_ON_ORIGIN && t->tgenabled != TRIGGER_FIRES_ALWAYS))
				continue;
			memset(&s, 0, sizeof(s));
			memset(&td, 0, sizeof(td));
			td.type = T_TriggerData;
			td.tg_relation = rel;
			td.tg_trigger = t;
			read_closes(&s, &td, guard_fn);
			if (s.closed && citus_guard(t))
				ereport(ERROR,
						errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						errmsg("%s %s refused: Citus distributes it, and its games cannot be checked during ALTER TABLE",
							   get_rel_relispartition(arrived) ? "partition" : "inheritance child",
							   qualified_name(arrived)),
						errdetail("Citus answers a query on a distributed table made during an ALTER TABLE with no rows, so a game of a period closed by %s (up to %s) would arrive unseen and never be rated.",
								  s.ratings, s.last_text),
						errhint("Create partitions with CREATE TABLE ... PARTITION OF and write games through the partitioned table; to attach this table, lift the guard (ALTER TABLE ... DISABLE TRIGGER refuse_closed_games) and recompute."));
			found = first_closed_period(&s, rel, true);
			if (found != NULL)
				ereport(ERROR,
						errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						errmsg("%s %s refused: it holds games of period %s%s%s, and %s has closed period %s",
							   get_rel_relispartition(arrived) ? "partition" : "inheritance child",
							   qualified_name(arrived), found,
							   RelationGetRelid(rel) == arrived ? "" : " in ",
							   RelationGetRelid(rel) == arrived ? "" : relation_name(rel),
							   s.ratings, s.last_text),
						errdetail("Games of a closed period attached below a guarded table would never be rated."),
						errhint("Write them to an open period, or lift the guard (ALTER TABLE ... DISABLE TRIGGER refuse_closed_games) to attach them and recompute."));
		}
		table_close(rel, NoLock);
	}
}

/*
 * The partition an ATTACH PARTITION of parent attached (the command records
 * no address for it, and its name is to be read with the caller's
 * search_path): the partition of that name whose bound is the command's.
 */
static Oid
attached_partition(Oid parent, PartitionCmd *pc)
{
	List	   *children = find_inheritance_children(parent, NoLock);
	ListCell   *lc;

	foreach(lc, children)
	{
		Oid			child = lfirst_oid(lc);
		HeapTuple	tuple;
		Datum		bound;
		bool		isnull;
		bool		same = false;

		if (strcmp(get_rel_name(child), pc->name->relname) != 0)
			continue;
		tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(child));
		if (!HeapTupleIsValid(tuple))
			continue;
		bound = SysCacheGetAttr(RELOID, tuple, Anum_pg_class_relpartbound, &isnull);
		if (!isnull)
			same = equal(stringToNode(TextDatumGetCString(bound)), pc->bound);
		ReleaseSysCache(tuple);
		if (same)
			return child;
	}
	elog(ERROR, "partition \"%s\" attached to relation %u not found", pc->name->relname, parent);
	return InvalidOid;
}

/*
 * glicko2_refuse_closed_arrivals(command pg_ddl_command, guard regprocedure),
 * in the ddl_command_end event trigger: refuse_closed_arrival for each table
 * an ALTER TABLE attached as a partition or made an inheritance child
 * (guard: glicko2_refuse_closed_games, by OID).  A table CREATE TABLE made
 * is empty.
 */
PG_FUNCTION_INFO_V1(glicko2_refuse_closed_arrivals);
Datum
glicko2_refuse_closed_arrivals(PG_FUNCTION_ARGS)
{
	CollectedCommand *cmd = (CollectedCommand *) PG_GETARG_POINTER(0);
	Oid			guard_fn = PG_GETARG_OID(1);
	ListCell   *lc;

	if (cmd->type != SCT_AlterTable)
		PG_RETURN_VOID();
	guard_hash();				/* (read_closes keeps the periods in its
								 * context) */
	foreach(lc, cmd->d.alterTable.subcmds)
	{
		CollectedATSubcmd *sub = (CollectedATSubcmd *) lfirst(lc);
		AlterTableCmd *at = (AlterTableCmd *) sub->parsetree;
		Oid			arrived;
		char		relkind;

		if (!IsA(at, AlterTableCmd))
			continue;
		if (at->subtype == AT_AttachPartition)
			arrived = attached_partition(cmd->d.alterTable.objectId, (PartitionCmd *) at->def);
		else if (at->subtype == AT_AddInherit)
			arrived = cmd->d.alterTable.objectId;
		else
			continue;
		relkind = get_rel_relkind(arrived);
		if (relkind == RELKIND_RELATION || relkind == RELKIND_PARTITIONED_TABLE ||
			relkind == RELKIND_FOREIGN_TABLE)
			refuse_closed_arrival(arrived, guard_fn);
	}
	PG_RETURN_VOID();
}
