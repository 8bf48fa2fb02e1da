/*
 * executor_rows.c — rows between glicko2's C functions and the executor (executor_rows.h).
 */
#include "postgres.h"

#include "funcapi.h"
#include "miscadmin.h"

#include "executor_rows.h"

/* Materialize mode: the result's descriptor and tuplestore, in query memory. */
Tuplestorestate *
glicko_materialized_result(FunctionCallInfo fcinfo, TupleDesc *desc, const char *function)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext old;
	Tuplestorestate *store;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("%s must be called where a set is accepted", function));
	if (get_call_result_type(fcinfo, NULL, desc) != TYPEFUNC_COMPOSITE)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("%s needs a column definition list", function),
				errhint("Call it in FROM with AS (column type, ...)."));
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	*desc = CreateTupleDescCopy(*desc);
	store = tuplestore_begin_heap(rsinfo->allowedModes & SFRM_Materialize_Random, false, work_mem);
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = store;
	rsinfo->setDesc = *desc;
	MemoryContextSwitchTo(old);
	return store;
}

static void
rows_startup(DestReceiver *self, int operation, TupleDesc desc)
{
}

static void
rows_shutdown(DestReceiver *self)
{
}

static void
rows_destroy(DestReceiver *self)
{
}

void
glicko_rows_receiver_init(DestReceiver *receiver,
						  bool (*receive) (TupleTableSlot *slot, DestReceiver *self))
{
	receiver->receiveSlot = receive;
	receiver->rStartup = rows_startup;
	receiver->rShutdown = rows_shutdown;
	receiver->rDestroy = rows_destroy;
	receiver->mydest = DestNone;
}
