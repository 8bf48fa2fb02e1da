/*
 * rating_scaled.c — a rating on the Glicko-2 scale of the paper's Step 2:
 * glicko2_scaled (mu, phi, sigma), and the conversions both ways.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/float.h"

#include "rating.h"

static inline void
check_scaled_field(bool ok, const char *field, double value)
{
	if (!ok)
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("glicko2_scaled has invalid %s %s", field, float8out_internal(value)),
				errdetail("mu must be finite; phi and sigma must be positive and finite."));
}

/* One float8 field of a glicko2_scaled; a NULL field is an error. */
static double
scaled_field(HeapTupleHeader t, AttrNumber n, const char *field)
{
	bool		isnull;
	Datum		d = GetAttributeByNum(t, n, &isnull);

	if (isnull)
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("glicko2_scaled %s must not be NULL", field));
	return DatumGetFloat8(d);
}

/* glicko2_to_scaled(r): Step 2, mu = (r - 1500) / 173.7178, phi = RD / 173.7178. */
PG_FUNCTION_INFO_V1(glicko2_to_scaled_sql);
Datum
glicko2_to_scaled_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r;
	Glicko2Scaled s;
	TupleDesc	tupdesc;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};

	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "r");
	glicko2_to_scaled(&r, &s);

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "glicko2_to_scaled called in a context that cannot accept a composite");
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = Float8GetDatum(s.mu);
	values[1] = Float8GetDatum(s.phi);
	values[2] = Float8GetDatum(s.sigma);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/* glicko2_from_scaled(s): Step 8, r = 173.7178 mu + 1500, RD = 173.7178 phi. */
PG_FUNCTION_INFO_V1(glicko2_from_scaled_sql);
Datum
glicko2_from_scaled_sql(PG_FUNCTION_ARGS)
{
	HeapTupleHeader t = PG_GETARG_HEAPTUPLEHEADER(0);
	Glicko2Scaled s;
	Glicko2Rating r;

	s.mu = scaled_field(t, 1, "mu");
	s.phi = scaled_field(t, 2, "phi");
	s.sigma = scaled_field(t, 3, "sigma");
	check_scaled_field(isfinite(s.mu), "mu", s.mu);
	check_scaled_field(glicko_valid_positive(s.phi), "phi", s.phi);
	check_scaled_field(glicko_valid_positive(s.sigma), "sigma", s.sigma);
	glicko_report_status(glicko2_from_scaled(&s, &r),
						 psprintf("rating of glicko2_scaled (%s,%s,%s)",
								  float8out_internal(s.mu), float8out_internal(s.phi),
								  float8out_internal(s.sigma)));
	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &r));
}
