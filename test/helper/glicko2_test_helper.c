/*
 * glicko2_test_helper.c — test-only: calls an aggregate's support functions
 * the way an extension that runs aggregates itself does (Citus's partial
 * aggregation in worker_partial_agg_sfunc and coord_combine_agg_ffunc): each
 * call through a fresh FmgrInfo made in a short-lived memory context, so
 * fn_extra starts NULL every row and whatever is kept there is freed after
 * the call.  The aggregate node's AggState is passed on as the context.
 *
 * fresh_fmgr(aggregate, args...) runs `aggregate` row by row like that, then
 * serializes its state, deserializes it, combines it into an empty state and
 * finalizes, each through a fresh FmgrInfo too, and returns the result as
 * text (float8 output is exact, so equal text is equal bits).
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_aggregate.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

PG_MODULE_MAGIC;

#define INNER_ARGS 3			/* player, opponent, score */

typedef struct Box
{
	Oid			transfn;
	Oid			finalfn;
	Oid			combinefn;
	Oid			serialfn;
	Oid			deserialfn;
	Datum		state;
	bool		isnull;
} Box;

/* Call fn with nargs arguments through an FmgrInfo that lives for this call only. */
static Datum
call_fresh(FunctionCallInfo outer, Oid fn, int nargs, const Datum *values,
		   const bool *nulls, bool *isnull, MemoryContext cxt)
{
	LOCAL_FCINFO(inner, INNER_ARGS + 1);
	FmgrInfo	info;
	Datum		result;
	int			i;

	fmgr_info_cxt(fn, &info, cxt);
	InitFunctionCallInfoData(*inner, &info, nargs, outer->fncollation,
							 outer->context, NULL);
	for (i = 0; i < nargs; i++)
	{
		inner->args[i].value = values[i];
		inner->args[i].isnull = nulls[i];
	}
	result = FunctionCallInvoke(inner);
	*isnull = inner->isnull;
	return result;
}

static MemoryContext
row_context(void)
{
	return AllocSetContextCreate(CurrentMemoryContext, "fresh FmgrInfo call",
								 ALLOCSET_SMALL_SIZES);
}

PG_FUNCTION_INFO_V1(fresh_fmgr_sfunc);
Datum
fresh_fmgr_sfunc(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	Box		   *box;
	Datum		values[INNER_ARGS + 1];
	bool		nulls[INNER_ARGS + 1];
	MemoryContext cxt,
				old;
	int			i;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		elog(ERROR, "fresh_fmgr_sfunc called in non-aggregate context");
	if (PG_NARGS() != INNER_ARGS + 2)
		elog(ERROR, "fresh_fmgr_sfunc takes the aggregate and %d arguments", INNER_ARGS);

	if (PG_ARGISNULL(0))
	{
		HeapTuple	tuple = SearchSysCache1(AGGFNOID, PG_GETARG_DATUM(1));
		Form_pg_aggregate agg;

		if (!HeapTupleIsValid(tuple))
			elog(ERROR, "not an aggregate: %u", PG_GETARG_OID(1));
		agg = (Form_pg_aggregate) GETSTRUCT(tuple);
		box = MemoryContextAllocZero(aggcontext, sizeof(Box));
		box->transfn = agg->aggtransfn;
		box->finalfn = agg->aggfinalfn;
		box->combinefn = agg->aggcombinefn;
		box->serialfn = agg->aggserialfn;
		box->deserialfn = agg->aggdeserialfn;
		box->isnull = true;
		ReleaseSysCache(tuple);
	}
	else
		box = (Box *) PG_GETARG_POINTER(0);

	values[0] = box->state;
	nulls[0] = box->isnull;
	for (i = 0; i < INNER_ARGS; i++)
	{
		nulls[i + 1] = PG_ARGISNULL(i + 2);
		values[i + 1] = nulls[i + 1] ? (Datum) 0 : PG_GETARG_DATUM(i + 2);
	}

	cxt = row_context();
	old = MemoryContextSwitchTo(cxt);
	box->state = call_fresh(fcinfo, box->transfn, INNER_ARGS + 1, values, nulls,
							&box->isnull, cxt);
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);	/* the FmgrInfo and all in its fn_mcxt */

	PG_RETURN_POINTER(box);
}

PG_FUNCTION_INFO_V1(fresh_fmgr_final);
Datum
fresh_fmgr_final(PG_FUNCTION_ARGS)
{
	Box		   *box;
	MemoryContext cxt,
				old;
	Datum		v[2];
	bool		n[2];
	bool		isnull;
	Datum		result;
	Oid			typoutput;
	bool		typisvarlena;
	char	   *out;
	text	   *t;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	box = (Box *) PG_GETARG_POINTER(0);
	if (box->isnull)
		PG_RETURN_NULL();

	cxt = row_context();
	old = MemoryContextSwitchTo(cxt);

	/* serialize, deserialize, combine into an empty state: Citus's path */
	v[0] = box->state;
	n[0] = false;
	v[0] = call_fresh(fcinfo, box->serialfn, 1, v, n, &isnull, cxt);
	v[1] = (Datum) 0;
	n[1] = true;
	v[1] = call_fresh(fcinfo, box->deserialfn, 2, v, n, &isnull, cxt);
	n[1] = isnull;
	v[0] = (Datum) 0;
	n[0] = true;
	v[0] = call_fresh(fcinfo, box->combinefn, 2, v, n, &isnull, cxt);
	n[0] = isnull;
	result = call_fresh(fcinfo, box->finalfn, 1, v, n, &isnull, cxt);

	if (isnull)
		out = NULL;
	else
	{
		getTypeOutputInfo(get_func_rettype(box->finalfn), &typoutput, &typisvarlena);
		out = OidOutputFunctionCall(typoutput, result);
	}
	MemoryContextSwitchTo(old);
	t = out ? cstring_to_text(out) : NULL;
	MemoryContextDelete(cxt);
	if (t == NULL)
		PG_RETURN_NULL();
	PG_RETURN_TEXT_P(t);
}
