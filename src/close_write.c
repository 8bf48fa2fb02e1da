/*
 * close_write.c — a close's results kept in the backend while the close
 * writes them, so that the ratings are rewritten by a plain UPDATE of every
 * row, with no join:
 *
 *   glicko2_close_compute(ratings_query, games_query, tau, max_rd, what,
 *                         form, caps, VARIADIC params, OUT handle bigint,
 *                         OUT sides bigint, OUT known bigint,
 *                         OUT new_players bigint, OUT capped bigint)
 *       runs the pass of close_pass.c (every bad game an ERROR first) and
 *       keeps its results under a handle, until glicko2_close_finish or the
 *       end of the (sub)transaction that computed them; known and
 *       new_players count the rows the writes must then touch;
 *   glicko2_close_result(handle, player)  -> glicko2_rating
 *       the player's new rating (NULL: unrated and idle), for
 *       UPDATE ratings SET rating = glicko2_close_result(h, player_id);
 *   glicko2_close_new_players(handle) -> SETOF record AS (player, rating)
 *       the players of the games absent from the ratings, to insert;
 *   glicko2_close_finish(handle, OUT written bigint, OUT played bigint)
 *       how many results were read by glicko2_close_result, how many of
 *       them with games; frees the results.
 *
 * Why: joining the computed ratings back to the table by key made the close
 * hash a million keys and copy a million rows that the pass already had in
 * its table (measured, 1 000 000 players: about 3 s of a 13 s close).  The
 * UPDATE reads the rows in the order the pass read them, so each lookup is
 * the next result (glicko_close_pass_result_of).
 *
 * The results are the backend's own, read only through these functions, in
 * a context under CurTransactionContext: a close that fails, even inside a
 * subtransaction that is rolled back and caught, or one that never
 * finishes, frees them with its (sub)transaction.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"

#include "close_pass.h"
#include "rating.h"
#include "executor_rows.h"

typedef struct KeptClose
{
	int64		handle;
	MemoryContext context;		/* everything below, under
								 * CurTransactionContext */
	ClosePass  *pass;
	int64		written;		/* results read by glicko2_close_result */
	int64		played;			/* of them, players with games */
	struct KeptClose *next;
	MemoryContextCallback on_delete;
} KeptClose;

/* The kept closes of this backend (one, but a trigger may close another table). */
static KeptClose *kept_closes = NULL;
static int64 last_handle = 0;

static void
forget_kept_close(void *arg)
{
	KeptClose  *kept = (KeptClose *) arg;
	KeptClose **link = &kept_closes;

	while (*link != NULL && *link != kept)
		link = &(*link)->next;
	if (*link == kept)
		*link = kept->next;
}

static KeptClose *
kept_close(FunctionCallInfo fcinfo)
{
	int64		handle;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("the handle of a close must not be NULL"));
	handle = PG_GETARG_INT64(0);
	for (KeptClose *kept = kept_closes; kept != NULL; kept = kept->next)
		if (kept->handle == handle)
			return kept;
	ereport(ERROR,
			errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("no close with handle " INT64_FORMAT " is in progress in this session",
				   handle),
			errdetail("glicko2_close_compute keeps a close's results until glicko2_close_finish or the end of the (sub)transaction that computed them."));
	pg_unreachable();
}

PG_FUNCTION_INFO_V1(glicko2_close_compute);
Datum
glicko2_close_compute(PG_FUNCTION_ARGS)
{
	MemoryContext context;
	KeptClose  *kept;
	ClosePassArgs args;
	TupleDesc	desc;
	Datum		values[5];
	bool		nulls[5] = {false, false, false, false, false};
	const CloseResult *results;
	uint32		n;
	int64		sides = 0;
	int64		new_players = 0;
	int64		capped = 0;

	glicko_close_pass_args(fcinfo, &args);
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "glicko2_close_compute must return a record");

	context = AllocSetContextCreate(CurTransactionContext, "glicko2 kept close",
									ALLOCSET_SMALL_SIZES);
	kept = MemoryContextAllocZero(context, sizeof(KeptClose));
	kept->context = context;
	kept->pass = glicko_close_pass_run(context, glicko2_extension_rating_type(), &args);
	results = glicko_close_pass_results(kept->pass, &n);
	for (uint32 i = 0; i < n; i++)
	{
		sides += results[i].games;
		new_players += results[i].is_new;
		capped += results[i].capped;
	}

	kept->handle = ++last_handle;
	kept->next = kept_closes;
	kept_closes = kept;
	kept->on_delete.func = forget_kept_close;
	kept->on_delete.arg = kept;
	MemoryContextRegisterResetCallback(context, &kept->on_delete);

	values[0] = Int64GetDatum(kept->handle);
	values[1] = Int64GetDatum(sides);
	values[2] = Int64GetDatum((int64) n - new_players);
	values[3] = Int64GetDatum(new_players);
	values[4] = Int64GetDatum(capped);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/* What glicko2_close_result keeps per call site: the checked handle, its output type. */
typedef struct ResultCall
{
	int64		checked_handle;
	TupleDesc	rating_desc;
} ResultCall;

PG_FUNCTION_INFO_V1(glicko2_close_result);
Datum
glicko2_close_result(PG_FUNCTION_ARGS)
{
	KeptClose  *kept = kept_close(fcinfo);
	ResultCall *call = (ResultCall *) fcinfo->flinfo->fn_extra;
	const CloseResult *result;

	if (call == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
		TupleDesc	desc;

		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "glicko2_close_result must return a glicko2_rating");
		call = palloc0(sizeof(ResultCall));
		call->rating_desc = BlessTupleDesc(CreateTupleDescCopy(desc));
		MemoryContextSwitchTo(old);
		fcinfo->flinfo->fn_extra = call;
	}
	if (call->checked_handle != kept->handle)
	{
		Oid			type = get_fn_expr_argtype(fcinfo->flinfo, 1);

		if (type != glicko_close_pass_key_type(kept->pass))
			ereport(ERROR,
					errcode(ERRCODE_DATATYPE_MISMATCH),
					errmsg("the player is %s, but the close's players are %s",
						   format_type_be(type),
						   format_type_be(glicko_close_pass_key_type(kept->pass))));
		call->checked_handle = kept->handle;
	}
	if (PG_ARGISNULL(1))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("a player of the ratings is NULL"));

	result = glicko_close_pass_result_of(kept->pass, PG_GETARG_DATUM(1));
	if (result == NULL || result->is_new)
	{
		Oid			out;
		bool		varlena;

		getTypeOutputInfo(glicko_close_pass_key_type(kept->pass), &out, &varlena);
		ereport(ERROR,
				errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				errmsg("player %s was not among the ratings the close read",
					   OidOutputFunctionCall(out, PG_GETARG_DATUM(1))));
	}
	kept->written++;
	if (result->games > 0)
		kept->played++;
	if (!result->has_rating)
		PG_RETURN_NULL();		/* unrated and idle: stays unrated */
	PG_RETURN_DATUM(glicko2_rating_datum(call->rating_desc, &result->rating));
}

PG_FUNCTION_INFO_V1(glicko2_close_new_players);
Datum
glicko2_close_new_players(PG_FUNCTION_ARGS)
{
	TupleDesc	out_desc;
	Tuplestorestate *store = glicko_materialized_result(fcinfo, &out_desc, "glicko2_close_new_players");
	KeptClose  *kept = kept_close(fcinfo);
	TupleDesc	rating_desc;
	MemoryContext old;
	MemoryContext row_context;
	const CloseResult *results;
	uint32		n;

	if (out_desc->natts != 2 ||
		TupleDescAttr(out_desc, 0)->atttypid != glicko_close_pass_key_type(kept->pass) ||
		TupleDescAttr(out_desc, 1)->atttypid != glicko2_extension_rating_type())
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("glicko2_close_new_players needs the column definition list (player %s, rating glicko2_rating)",
					   format_type_be(glicko_close_pass_key_type(kept->pass))));

	rating_desc = BlessTupleDesc(lookup_rowtype_tupdesc_copy(TupleDescAttr(out_desc, 1)->atttypid, -1));
	row_context = AllocSetContextCreate(CurrentMemoryContext, "glicko2_close_new_players row",
										ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(row_context);

	results = glicko_close_pass_results(kept->pass, &n);
	for (uint32 i = 0; i < n; i++)
	{
		Datum		values[2];
		bool		nulls[2] = {false, false};

		CHECK_FOR_INTERRUPTS();
		if (!results[i].is_new)
			continue;
		/* (a new player comes from the games: it has games, so a rating) */
		Assert(results[i].has_rating);
		values[0] = results[i].key;
		values[1] = glicko2_rating_datum(rating_desc, &results[i].rating);
		tuplestore_putvalues(store, out_desc, values, nulls);
		MemoryContextReset(row_context);
	}
	MemoryContextSwitchTo(old);
	MemoryContextDelete(row_context);
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(glicko2_close_finish);
Datum
glicko2_close_finish(PG_FUNCTION_ARGS)
{
	KeptClose  *kept = kept_close(fcinfo);
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "glicko2_close_finish must return a record");
	values[0] = Int64GetDatum(kept->written);
	values[1] = Int64GetDatum(kept->played);
	MemoryContextDelete(kept->context); /* forgets it */
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
