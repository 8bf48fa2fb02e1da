/*
 * rating_json.c — a glicko2_rating as jsonb {"rating": ..., "rd": ...,
 * "volatility": ...} and back, checked: exactly those three keys, numbers,
 * a valid rating.  Numbers keep every digit, so the round trip is exact.
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"

#include "json_build.h"
#include "rating.h"

/* glicko2_to_jsonb(r): {"rating": r, "rd": RD, "volatility": sigma}. */
PG_FUNCTION_INFO_V1(glicko2_to_jsonb_sql);
Datum
glicko2_to_jsonb_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r;
	GlickoJsonbState st = GLICKO_JSONB_STATE_INIT;

	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "r");
	glicko_json_begin_object(&st, NULL);
	glicko_json_put_number(&st, "rating", r.rating);
	glicko_json_put_number(&st, "rd", r.rd);
	glicko_json_put_number(&st, "volatility", r.volatility);
	PG_RETURN_JSONB_P(glicko_json_finish(&st));
}

#define RATING_JSON_DETAIL \
	errdetail("A rating in JSON is an object with exactly the numbers \"rating\", \"rd\" and \"volatility\".")

/* glicko2_from_jsonb(j): the checked rating of {"rating", "rd", "volatility"}. */
PG_FUNCTION_INFO_V1(glicko2_from_jsonb_sql);
Datum
glicko2_from_jsonb_sql(PG_FUNCTION_ARGS)
{
	static const char *const keys[3] = {"rating", "rd", "volatility"};
	Jsonb	   *j = PG_GETARG_JSONB_P(0);
	double		fields[3];
	bool		seen[3] = {false, false, false};
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken tok;
	Glicko2Rating r;
	int			i;

	if (!JB_ROOT_IS_OBJECT(j))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("rating json must be an object"),
				RATING_JSON_DETAIL);

	it = JsonbIteratorInit(&j->root);
	while ((tok = JsonbIteratorNext(&it, &v, true)) != WJB_DONE)
	{
		char	   *key;

		if (tok != WJB_KEY)
			continue;
		key = pnstrdup(v.val.string.val, v.val.string.len);
		for (i = 0; i < 3; i++)
			if (strcmp(key, keys[i]) == 0)
				break;
		if (i == 3)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("rating json has unknown key \"%s\"", key),
					RATING_JSON_DETAIL);

		tok = JsonbIteratorNext(&it, &v, true);
		Assert(tok == WJB_VALUE);
		if (v.type != jbvNumeric)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("rating json \"%s\" must be a number", key),
					RATING_JSON_DETAIL);
		/* Out of range becomes +-Infinity here and an error just below. */
		fields[i] = DatumGetFloat8(DirectFunctionCall1(numeric_float8_no_overflow,
													   NumericGetDatum(v.val.numeric)));
		seen[i] = true;
	}
	for (i = 0; i < 3; i++)
		if (!seen[i])
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("rating json has no \"%s\"", keys[i]),
					RATING_JSON_DETAIL);

	for (i = 0; i < 3; i++)
		if (!isfinite(fields[i]))
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("rating json \"%s\" is out of range for double precision", keys[i]));
	r.rating = fields[0];
	r.rd = fields[1];
	r.volatility = fields[2];
	glicko2_check(&r, "rating json");
	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &r));
}
