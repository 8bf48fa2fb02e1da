/*
 * caps.c — the floors and caps of a close (an array argument of the
 * internal pass) and of a live trigger (its options), checked the same
 * way: min_rating finite, max_change and max_volatility positive and
 * finite, each off when NULL (or 'none').  The rule itself is
 * core/league_math.c's glicko2_apply_caps.
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "utils/builtins.h"
#include "utils/float.h"

#include "caps.h"
#include "rating.h"

static const char *const cap_names[3] = {"min_rating", "max_change", "max_volatility"};

/* Cap i, in the order of cap_names. */
static double *
cap_slot(GlickoCaps *caps, int i)
{
	return i == 0 ? &caps->min_rating : i == 1 ? &caps->max_change : &caps->max_volatility;
}

/* Cap i set to x, checked. */
static void
set_cap(GlickoCaps *caps, int i, double x)
{
	if (i == 0)
		glicko_check_finite(x, cap_names[i]);
	else
		glicko_check_positive(x, cap_names[i]);
	*cap_slot(caps, i) = x;
}

void
glicko_caps_from_array(ArrayType *a, GlickoCaps *caps)
{
	Datum	   *values;
	bool	   *nulls;
	int			n;

	*caps = GLICKO_CAPS_OFF;
	if (ARR_ELEMTYPE(a) != FLOAT8OID || ARR_NDIM(a) > 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("caps must be a float8 array {min_rating, max_change, max_volatility}"));
	deconstruct_array(a, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &values, &nulls, &n);
	if (n != 3 && n != 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("caps must be a float8 array {min_rating, max_change, max_volatility}, not of %d elements", n));
	for (int i = 0; i < n; i++)
		if (!nulls[i])
			set_cap(caps, i, DatumGetFloat8(values[i]));
}

bool
glicko_caps_option(const char *name, const char *value, GlickoCaps *caps)
{
	for (int i = 0; i < 3; i++)
	{
		if (strcmp(name, cap_names[i]) != 0)
			continue;
		if (pg_strcasecmp(value, "none") == 0)
			*cap_slot(caps, i) = NAN;
		else
			set_cap(caps, i, DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(value))));
		return true;
	}
	return false;
}
