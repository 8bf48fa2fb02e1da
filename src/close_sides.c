/*
 * close_sides.c — a close's per-player sums and results where the games
 * are not in one backend: Citus's shards (sql/close_citus.sql).
 *
 *   glicko2_internal.glicko2_side_sums(rating, opponent_rating, opponent_rd,
 *                                      score, advantage float8)
 *     an aggregate of one player's game sides (his pre-period rating, the
 *     opponent's, the score and his advantage, all float8 as the pass reads
 *     them): his period's sums, as float8[] {information, information_low,
 *     surprise, surprise_low, games}
 *   glicko2_internal.glicko2_term_sums(information, surprise float8)
 *     the same from his game sides' terms (a match's sides, computed on the
 *     match's shard by glicko2_match_sides)
 *   glicko2_internal.glicko2_sides_result(player anyelement, pre glicko2_rating,
 *                                        sums float8[], tau, max_rd, caps float8[],
 *                                        OUT rating, OUT capped)
 *     his new rating (pre NULL: unrated; NULL: unrated and idle) and
 *     whether a floor or cap changed it, from one computation
 *
 * Each side's terms are computed as the pass computes them (glicko2_terms,
 * or glicko2_terms_advantage with an advantage; a match's by the reduction
 * glicko2_close_matches gives the pass) and added in double-double
 * (GlickoSums), whose sums do not depend on the order of the games; the
 * result is close_pass.c's glicko_close_player_result.  So a close whose
 * sides are gathered on many nodes writes the ratings of one pass, bit for
 * bit.  Every game was checked before (the caller refuses bad games as the
 * pass does); a NULL here is an error, never a game skipped.
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include "caps.h"
#include "close_pass.h"
#include "period_agg.h"
#include "rating.h"

#define SUMS_FIELDS 5

/* The state of glicko2_side_sums and glicko2_term_sums: the sums so far. */
static GlickoSums *
sums_state(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext aggcontext = glicko_aggregate_context(fcinfo, fname);

	if (PG_ARGISNULL(0))
		return MemoryContextAllocZero(aggcontext, sizeof(GlickoSums));
	return (GlickoSums *) PG_GETARG_POINTER(0);
}

PG_FUNCTION_INFO_V1(glicko2_side_sums_transfn);
Datum
glicko2_side_sums_transfn(PG_FUNCTION_ARGS)
{
	GlickoSums *sums = sums_state(fcinfo, "glicko2_side_sums");
	GlickoTerms terms;
	double		rating,
				opponent_rating,
				opponent_rd,
				score,
				advantage;

	for (int i = 1; i <= 5; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("a game side of the close has a NULL in argument %d", i));
	rating = PG_GETARG_FLOAT8(1);
	opponent_rating = PG_GETARG_FLOAT8(2);
	opponent_rd = PG_GETARG_FLOAT8(3);
	score = PG_GETARG_FLOAT8(4);
	advantage = PG_GETARG_FLOAT8(5);

	/*
	 * (the pass: glicko2_terms without an advantage column; with one,
	 * glicko2_terms_advantage, which at 0 gives the same bits)
	 */
	if (advantage == 0.0)
		terms = glicko2_terms(rating, opponent_rating, opponent_rd, score);
	else
		terms = glicko2_terms_advantage(rating, advantage, opponent_rating, opponent_rd,
										score);
	glicko_add_terms(sums, &terms);
	PG_RETURN_POINTER(sums);
}

/*
 * One game side given as its terms (a match's sides, glicko2_match_sides),
 * checked as the pass checks the 'terms' form.
 */
PG_FUNCTION_INFO_V1(glicko2_term_sums_transfn);
Datum
glicko2_term_sums_transfn(PG_FUNCTION_ARGS)
{
	GlickoSums *sums = sums_state(fcinfo, "glicko2_term_sums");
	GlickoTerms terms;

	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("a game side of the close has NULL terms"));
	terms.information = PG_GETARG_FLOAT8(1);
	terms.surprise = PG_GETARG_FLOAT8(2);
	if (!glicko_terms_valid(&terms))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("a game side of the close has terms not finite or a negative information"));
	glicko_add_terms(sums, &terms);
	PG_RETURN_POINTER(sums);
}

PG_FUNCTION_INFO_V1(glicko2_side_sums_finalfn);
Datum
glicko2_side_sums_finalfn(PG_FUNCTION_ARGS)
{
	GlickoSums	none = {0};
	const GlickoSums *sums;
	Datum		fields[SUMS_FIELDS];

	(void) glicko_aggregate_context(fcinfo, "glicko2_side_sums");
	sums = PG_ARGISNULL(0) ? &none : (const GlickoSums *) PG_GETARG_POINTER(0);
	fields[0] = Float8GetDatum(sums->information);
	fields[1] = Float8GetDatum(sums->information_low);
	fields[2] = Float8GetDatum(sums->surprise);
	fields[3] = Float8GetDatum(sums->surprise_low);
	fields[4] = Float8GetDatum((double) sums->games);
	PG_RETURN_ARRAYTYPE_P(construct_array(fields, SUMS_FIELDS, FLOAT8OID, sizeof(float8),
										  FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

/* The sums of glicko2_side_sums (NULL: no games). */
static void
sums_from_array(ArrayType *a, GlickoSums *sums)
{
	const double *f = (const double *) ARR_DATA_PTR(a);

	if (ARR_NDIM(a) != 1 || ARR_DIMS(a)[0] != SUMS_FIELDS || ARR_HASNULL(a) ||
		ARR_ELEMTYPE(a) != FLOAT8OID)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("sums must be the %d numbers of glicko2_side_sums", SUMS_FIELDS));
	sums->information = f[0];
	sums->information_low = f[1];
	sums->surprise = f[2];
	sums->surprise_low = f[3];
	sums->games = (int64) f[4];
}

/*
 * (player, pre, sums, tau, max_rd, caps): the player's close result; pre
 * NULL is an unrated player (absent from the ratings, or NULL there), sums
 * NULL no games.
 */
static void
sides_result(FunctionCallInfo fcinfo, CloseResult *result)
{
	Oid			key_type = get_fn_expr_argtype(fcinfo->flinfo, 0);
	double		tau;
	double		max_rd;
	bool		rated = !PG_ARGISNULL(1);
	Glicko2Rating pre;
	GlickoSums	sums = {0};
	GlickoCaps	caps = GLICKO_CAPS_OFF;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(3))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("player and tau must not be NULL"));
	tau = PG_GETARG_FLOAT8(3);
	glicko_check_positive(tau, "tau");
	max_rd = PG_ARGISNULL(4) ? INFINITY : PG_GETARG_FLOAT8(4);
	if (!PG_ARGISNULL(4))
		glicko_check_positive(max_rd, "max_rd");
	if (!PG_ARGISNULL(5))
		glicko_caps_from_array(PG_GETARG_ARRAYTYPE_P(5), &caps);
	if (!PG_ARGISNULL(2))
		sums_from_array(PG_GETARG_ARRAYTYPE_P(2), &sums);

	/* The pass's pre-period rating: checked as it reads it, or unrated. */
	if (rated)
	{
		glicko2_datum_get_fields(PG_GETARG_DATUM(1), &pre, "rating");
		if (!glicko2_valid(&pre))
		{
			Oid			out;
			bool		varlena;

			getTypeOutputInfo(key_type, &out, &varlena);
			glicko2_check(&pre, psprintf("rating of player %s",
										 OidOutputFunctionCall(out, PG_GETARG_DATUM(0))));
		}
	}
	else
		pre = glicko2_unrated(max_rd);

	glicko_close_player_result(key_type, PG_GETARG_DATUM(0), &pre, rated, &sums, tau, max_rd,
							   &caps, result);
}

/* The descriptors of glicko2_sides_result's result and of its rating. */
typedef struct SidesResultDescs
{
	TupleDesc	result;
	TupleDesc	rating;
} SidesResultDescs;

PG_FUNCTION_INFO_V1(glicko2_sides_result);
Datum
glicko2_sides_result(PG_FUNCTION_ARGS)
{
	SidesResultDescs *descs = (SidesResultDescs *) fcinfo->flinfo->fn_extra;
	CloseResult result;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (descs == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
		TupleDesc	desc;

		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE ||
			desc->natts != 2)
			elog(ERROR, "glicko2_sides_result must return (rating, capped)");
		descs = palloc(sizeof(SidesResultDescs));
		descs->result = BlessTupleDesc(CreateTupleDescCopy(desc));
		descs->rating = BlessTupleDesc(lookup_rowtype_tupdesc_copy(TupleDescAttr(desc, 0)->atttypid,
																   -1));
		MemoryContextSwitchTo(old);
		fcinfo->flinfo->fn_extra = descs;
	}

	sides_result(fcinfo, &result);
	if (result.has_rating)
		values[0] = glicko2_rating_datum(descs->rating, &result.rating);
	else
		nulls[0] = true;		/* unrated and idle: stays unrated */
	values[1] = BoolGetDatum(result.capped);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(descs->result, values, nulls)));
}
