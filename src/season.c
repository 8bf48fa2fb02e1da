/*
 * season.c — glicko2_soft_reset, one rating's soft reset between seasons
 * (core/league_math.c); glicko2_season_reset (sql/league.sql) applies it
 * to a whole ratings table.
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/float.h"

#include "core/league_math.h"
#include "live_game.h"
#include "rating.h"

/* The reset's arguments checked, each error naming the bad value. */
static void
check_reset_args(double mean, double keep, double rd, bool volatility_null,
				 double volatility)
{
	if (!(keep >= 0.0 && keep <= 1.0))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("keep must be between 0 and 1, not %s", float8out_internal(keep)),
				errdetail("keep 1 leaves every rating as it is, 0 puts every rating at the mean."));
	glicko_check_nonnegative(rd, "rd");
	glicko_check_finite(mean, "mean");
	if (!volatility_null)
		glicko_check_positive(volatility, "volatility");
}

/* glicko2_soft_reset(r, mean, keep, rd, volatility): NULL r gives NULL. */
PG_FUNCTION_INFO_V1(glicko2_soft_reset_sql);
Datum
glicko2_soft_reset_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r,
				result;
	double		volatility = PG_ARGISNULL(4) ? NAN : PG_GETARG_FLOAT8(4);

	glicko_live_require_arg(fcinfo, 1, "mean");
	glicko_live_require_arg(fcinfo, 2, "keep");
	glicko_live_require_arg(fcinfo, 3, "rd");
	check_reset_args(PG_GETARG_FLOAT8(1), PG_GETARG_FLOAT8(2), PG_GETARG_FLOAT8(3),
					 PG_ARGISNULL(4), volatility);
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "r");
	glicko2_soft_reset(&r, PG_GETARG_FLOAT8(1), PG_GETARG_FLOAT8(2), PG_GETARG_FLOAT8(3),
					   volatility, &result);
	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &result));
}

/*
 * The league's mean for a reset: an aggregate over float8 whose state is
 * float8[3] (the double-double sum hi, lo and the count), so the mean does
 * not depend on the order the rows are read in (a replay that finds the
 * rows elsewhere on disk resets toward the same mean, bit for bit).
 */
static float8 *
mean_state(ArrayType *a)
{
	if (ARR_NDIM(a) != 1 || ARR_DIMS(a)[0] != 3 || ARR_HASNULL(a) ||
		ARR_ELEMTYPE(a) != FLOAT8OID)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("glicko2_mean's state must be an array of 3 float8 values (sum, its error, count)"));
	return (float8 *) ARR_DATA_PTR(a);
}

/* The state array of an aggregate's call (changed in place and returned),
 * or an ERROR when called alone. */
static ArrayType *
mean_agg_state(FunctionCallInfo fcinfo, const char *fname)
{
	if (!AggCheckCallContext(fcinfo, NULL))
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("%s must be called as part of an aggregate", fname));
	return PG_GETARG_ARRAYTYPE_P(0);
}

PG_FUNCTION_INFO_V1(glicko2_mean_accum);
Datum
glicko2_mean_accum(PG_FUNCTION_ARGS)
{
	ArrayType  *a = mean_agg_state(fcinfo, "glicko2_mean_accum");
	float8	   *st = mean_state(a);

	if (!PG_ARGISNULL(1))
	{
		double		x = PG_GETARG_FLOAT8(1);

		glicko_check_finite(x, "rating");
		glicko_dd_add(&st[0], &st[1], x, 0.0);
		st[2] += 1.0;
	}
	PG_RETURN_ARRAYTYPE_P(a);
}

PG_FUNCTION_INFO_V1(glicko2_mean_combine);
Datum
glicko2_mean_combine(PG_FUNCTION_ARGS)
{
	ArrayType  *a = mean_agg_state(fcinfo, "glicko2_mean_combine");
	float8	   *st = mean_state(a);
	float8	   *other = mean_state(PG_GETARG_ARRAYTYPE_P(1));

	glicko_dd_add(&st[0], &st[1], other[0], other[1]);
	st[2] += other[2];
	PG_RETURN_ARRAYTYPE_P(a);
}

/* The sum over the count, rounded once; NULL without rows. */
PG_FUNCTION_INFO_V1(glicko2_mean_final);
Datum
glicko2_mean_final(PG_FUNCTION_ARGS)
{
	float8	   *st = mean_state(PG_GETARG_ARRAYTYPE_P(0));

	if (st[2] == 0.0)
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8((st[0] + st[1]) / st[2]);
}
