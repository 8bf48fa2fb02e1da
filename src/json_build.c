/*
 * json_build.c — small helpers over pushJsonbValue for the jsonb that
 * glicko2_explain and glicko2_to_jsonb return.
 */
#include "postgres.h"

#include <math.h>

#include "common/shortest_dec.h"
#include "utils/builtins.h"
#include "utils/numeric.h"

#include "json_build.h"

static void
put_key(GlickoJsonbState *st, const char *key)
{
	JsonbValue	k;

	if (key == NULL)
		return;
	k.type = jbvString;
	k.val.string.val = (char *) key;
	k.val.string.len = strlen(key);
	glicko_push_jsonb(st, WJB_KEY, &k);
}

/* Inside an object a scalar is a WJB_VALUE; inside an array, a WJB_ELEM. */
static void
put_scalar(GlickoJsonbState *st, const char *key, JsonbValue *v)
{
	put_key(st, key);
	glicko_push_jsonb(st, key ? WJB_VALUE : WJB_ELEM, v);
}

void
glicko_json_begin_object(GlickoJsonbState *st, const char *key)
{
	put_key(st, key);
	glicko_push_jsonb(st, WJB_BEGIN_OBJECT, NULL);
}

void
glicko_json_end_object(GlickoJsonbState *st)
{
	glicko_push_jsonb(st, WJB_END_OBJECT, NULL);
}

void
glicko_json_begin_array(GlickoJsonbState *st, const char *key)
{
	put_key(st, key);
	glicko_push_jsonb(st, WJB_BEGIN_ARRAY, NULL);
}

void
glicko_json_end_array(GlickoJsonbState *st)
{
	glicko_push_jsonb(st, WJB_END_ARRAY, NULL);
}

/*
 * float8 -> numeric through the shortest decimal that reads back as the same
 * double: float8_numeric would keep only 15 digits, float8out depends on
 * extra_float_digits.
 */
void
glicko_json_put_number(GlickoJsonbState *st, const char *key, double x)
{
	JsonbValue	v;

	if (isfinite(x))
	{
		char		buf[DOUBLE_SHORTEST_DECIMAL_LEN];

		double_to_shortest_decimal_buf(x, buf);
		v.type = jbvNumeric;
		v.val.numeric = DatumGetNumeric(DirectFunctionCall3(numeric_in,
															CStringGetDatum(buf),
															ObjectIdGetDatum(InvalidOid),
															Int32GetDatum(-1)));
	}
	else
		v.type = jbvNull;
	put_scalar(st, key, &v);
}

void
glicko_json_put_bool(GlickoJsonbState *st, const char *key, bool b)
{
	JsonbValue	v;

	v.type = jbvBool;
	v.val.boolean = b;
	put_scalar(st, key, &v);
}

Jsonb *
glicko_json_finish(GlickoJsonbState *st)
{
	return JsonbValueToJsonb(glicko_jsonb_close(st, WJB_END_OBJECT));
}
