/*
 * interval.c — a rating as an interval of plausible strengths:
 * [rating - k RD, rating + k RD] as the extension's float8range, its two
 * ends as plain float8 (for expression indexes), and the interval of a
 * given confidence from the exact normal quantile.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/float.h"
#include "utils/rangetypes.h"
#include "utils/typcache.h"

#include "rating.h"

/* The interval ends of r at k deviations, or an ERROR naming r. */
static void
interval_bounds(const Glicko2Rating *r, double deviations,
				double *lower, double *upper)
{
	if (glicko_interval(r->rating, r->rd, deviations, lower, upper) != GLICKO_OK)
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("interval of rating %s at %s deviations is out of range",
					   glicko2_to_cstring(r), float8out_internal(deviations)),
				errdetail("Both ends of an interval must be finite double precision numbers."));
}

/*
 * The closed range [lower, upper] of the function's result type, which is
 * the extension's float8range; its type cache entry is kept in fn_extra.
 */
static Datum
closed_range(FunctionCallInfo fcinfo, double lower, double upper)
{
	TypeCacheEntry *typcache = (TypeCacheEntry *) fcinfo->flinfo->fn_extra;
	RangeBound	lo = {Float8GetDatum(lower), false, true, true};
	RangeBound	hi = {Float8GetDatum(upper), false, true, false};

	if (typcache == NULL)
	{
		typcache = lookup_type_cache(get_fn_expr_rettype(fcinfo->flinfo),
									 TYPECACHE_RANGE_INFO);
		if (typcache->rngelemtype == NULL)
			elog(ERROR, "glicko2 interval function does not return a range type");
		fcinfo->flinfo->fn_extra = typcache;
	}
	PG_RETURN_RANGE_P(glicko_make_range(typcache, &lo, &hi));
}

/* The arguments (r, deviations) of the interval functions, as bounds. */
static void
deviation_bounds(FunctionCallInfo fcinfo, double *lower, double *upper)
{
	Glicko2Rating r;
	double		deviations = PG_GETARG_FLOAT8(1);

	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "r");
	glicko_check_nonnegative(deviations, "deviations");
	interval_bounds(&r, deviations, lower, upper);
}

/* glicko2_interval(r, deviations): [rating - k RD, rating + k RD]. */
PG_FUNCTION_INFO_V1(glicko2_interval_sql);
Datum
glicko2_interval_sql(PG_FUNCTION_ARGS)
{
	double		lower,
				upper;

	deviation_bounds(fcinfo, &lower, &upper);
	return closed_range(fcinfo, lower, upper);
}

/* glicko2_lower(r, deviations): rating - k RD, the conservative rating. */
PG_FUNCTION_INFO_V1(glicko2_lower_sql);
Datum
glicko2_lower_sql(PG_FUNCTION_ARGS)
{
	double		lower,
				upper;

	deviation_bounds(fcinfo, &lower, &upper);
	PG_RETURN_FLOAT8(lower);
}

/* glicko2_upper(r, deviations): rating + k RD. */
PG_FUNCTION_INFO_V1(glicko2_upper_sql);
Datum
glicko2_upper_sql(PG_FUNCTION_ARGS)
{
	double		lower,
				upper;

	deviation_bounds(fcinfo, &lower, &upper);
	PG_RETURN_FLOAT8(upper);
}

/* glicko2_confidence_interval(r, confidence): the normal interval of that confidence. */
PG_FUNCTION_INFO_V1(glicko2_confidence_interval_sql);
Datum
glicko2_confidence_interval_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r;
	double		confidence = PG_GETARG_FLOAT8(1);
	double		deviations = glicko_confidence_deviations(confidence);
	double		lower,
				upper;

	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "r");
	if (isnan(deviations))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("confidence must be at least 0 and less than 1, not %s",
					   float8out_internal(confidence)),
				errdetail("A confidence of 0.95 gives the interval that holds the strength with probability 95%%."));
	interval_bounds(&r, deviations, &lower, &upper);
	return closed_range(fcinfo, lower, upper);
}
