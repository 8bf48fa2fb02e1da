/*
 * rating.c — the rating composites: reading, validating, building, and the
 * validating constructors glicko2_rating(...) and glicko1_rating(...).
 */
#include "postgres.h"

#include <math.h>

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/extension.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/syscache.h"

#include "rating.h"

GLICKO_MODULE_MAGIC;

static const char *const rating_fields[] = {"rating", "rd", "volatility"};

char *
glicko2_to_cstring(const Glicko2Rating *r)
{
	return psprintf("(%s,%s,%s)", float8out_internal(r->rating),
					float8out_internal(r->rd), float8out_internal(r->volatility));
}

char *
glicko1_to_cstring(const Glicko1Rating *r)
{
	return psprintf("(%s,%s)", float8out_internal(r->rating),
					float8out_internal(r->rd));
}

void
glicko_check_positive(double x, const char *what)
{
	if (!glicko_valid_positive(x))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("%s must be a positive finite number, not %s",
					   what, float8out_internal(x)));
}

void
glicko_check_nonnegative(double x, const char *what)
{
	if (!isfinite(x) || x < 0.0)
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("%s must be a finite number of at least 0, not %s",
					   what, float8out_internal(x)));
}

void
glicko_check_finite(double x, const char *what)
{
	if (!isfinite(x))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("%s must be a finite number, not %s",
					   what, float8out_internal(x)));
}

void
glicko_check_score(double score)
{
	if (!glicko_valid_score(score))
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("score must be between 0 and 1, not %s",
					   float8out_internal(score)),
				errdetail("A score is the player's result: 1 win, 0.5 draw, 0 loss."));
}

/* Argument n as max_rd, checked; NULL means no cap (INFINITY). */
double
glicko_arg_max_rd(FunctionCallInfo fcinfo, int n)
{
	double		max_rd;

	if (PG_ARGISNULL(n))
		return INFINITY;
	max_rd = PG_GETARG_FLOAT8(n);
	glicko_check_positive(max_rd, "max_rd");
	return max_rd;
}

/* A score column's value as float8: float8, float4, int2, int4, int8 or numeric. */
double
glicko_score_as_float8(Oid type, Datum d)
{
	switch (type)
	{
		case FLOAT8OID:
			return DatumGetFloat8(d);
		case FLOAT4OID:
			return (double) DatumGetFloat4(d);
		case INT2OID:
			return (double) DatumGetInt16(d);
		case INT4OID:
			return (double) DatumGetInt32(d);
		case INT8OID:
			return (double) DatumGetInt64(d);
		case NUMERICOID:
			return DatumGetFloat8(DirectFunctionCall1(numeric_float8, d));
	}
	elog(ERROR, "unexpected score type %u", type);
	return 0.0;					/* keep the compiler quiet */
}

static inline void
check_field(bool ok, const char *what, const char *field, double value)
{
	if (!ok)
		ereport(ERROR,
				errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				errmsg("%s has invalid %s %s", what, field, float8out_internal(value)),
				errdetail("A rating must be finite; rd and volatility must be positive and finite."));
}

void
glicko2_check(const Glicko2Rating *r, const char *what)
{
	check_field(glicko_valid_rating_value(r->rating), what, "rating", r->rating);
	check_field(glicko_valid_positive(r->rd), what, "rd", r->rd);
	check_field(glicko_valid_positive(r->volatility), what, "volatility", r->volatility);
}

static void
check_glicko1(const Glicko1Rating *r, const char *what)
{
	check_field(glicko_valid_rating_value(r->rating), what, "rating", r->rating);
	check_field(glicko_valid_positive(r->rd), what, "rd", r->rd);
}

void
glicko_report_status(GlickoStatus status, const char *what)
{
	switch (status)
	{
		case GLICKO_OK:
			return;
		case GLICKO_OUT_OF_RANGE:
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("%s is out of range", what),
					errdetail("The result would not be a finite rating with a positive RD and volatility."));
			break;
		case GLICKO_NO_CONVERGENCE:
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("%s did not converge", what),
					errdetail("The volatility iteration of Step 5 reached its bound of %d steps.",
							  GLICKO2_MAX_ILLINOIS));
			break;
	}
}

/*
 * The fields of any rating composite (rating_fields_untoasted, rating.h):
 * a toasted one detoasted first.  0, a NULL field's number, or -1.
 */
static inline int
float8_fields(Datum d, double *out, int nfields)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
		v = pg_detoast_datum(v);
	return rating_fields_untoasted(v, out, nfields);
}

static inline void
read_float8_fields(Datum d, double *out, int nfields, const char *what)
{
	int			bad = float8_fields(d, out, nfields);

	if (bad > 0)
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("%s %s must not be NULL", what, rating_fields[bad - 1]),
				errhint("A NULL rating means an unrated player; a rating with a NULL field is an error."));
	if (bad < 0)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("%s is not a rating of %d float8 fields", what, nfields));
}

void
glicko2_datum_get_fields(Datum d, Glicko2Rating *out, const char *what)
{
	double		f[3];

	read_float8_fields(d, f, 3, what);
	out->rating = f[0];
	out->rd = f[1];
	out->volatility = f[2];
}

bool
glicko2_datum_try(Datum d, Glicko2Rating *out)
{
	double		f[3];

	if (float8_fields(d, f, 3) != 0)
		return false;
	out->rating = f[0];
	out->rd = f[1];
	out->volatility = f[2];
	return glicko2_valid(out);
}

void
glicko2_datum_get(Datum d, Glicko2Rating *out, const char *what)
{
	glicko2_datum_get_fields(d, out, what);
	glicko2_check(out, what);
}

void
glicko1_datum_get(Datum d, Glicko1Rating *out, const char *what)
{
	double		f[2];

	read_float8_fields(d, f, 2, what);
	out->rating = f[0];
	out->rd = f[1];
	check_glicko1(out, what);
}

void
glicko2_arg_or_unrated(FunctionCallInfo fcinfo, int n, Glicko2Rating *out,
					   const char *what)
{
	arg_glicko2_fields_or_unrated(fcinfo, n, out, what);
	glicko2_check(out, what);
}

void
glicko1_arg_or_unrated(FunctionCallInfo fcinfo, int n, Glicko1Rating *out,
					   const char *what)
{
	if (PG_ARGISNULL(n))
	{
		out->rating = GLICKO2_DEFAULT_RATING;
		out->rd = GLICKO2_DEFAULT_RD;
	}
	else
		glicko1_datum_get(PG_GETARG_DATUM(n), out, what);
}

/*
 * Form the composite result.  The blessed descriptor is looked up once per
 * call site and kept in fn_extra: aggregates call this once per group.
 */
static Datum
form_rating(FunctionCallInfo fcinfo, const double *fields, int nfields)
{
	TupleDesc	tupdesc = (TupleDesc) fcinfo->flinfo->fn_extra;
	Datum		values[3];
	bool		nulls[3] = {false, false, false};
	int			i;

	if (tupdesc == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);

		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "function returning a rating called in a context that cannot accept a composite");
		tupdesc = BlessTupleDesc(CreateTupleDescCopy(tupdesc));
		MemoryContextSwitchTo(old);
		fcinfo->flinfo->fn_extra = tupdesc;
	}
	Assert(tupdesc->natts == nfields);

	for (i = 0; i < nfields; i++)
		values[i] = Float8GetDatum(fields[i]);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
}

/* The glicko2_rating type of the extension installed in schema `namespace`. */
Oid
glicko2_rating_type(Oid namespace)
{
	Oid			type = GetSysCacheOid2(TYPENAMENSP, Anum_pg_type_oid,
									   CStringGetDatum("glicko2_rating"),
									   ObjectIdGetDatum(namespace));

	if (!OidIsValid(type))
		elog(ERROR, "type glicko2_rating not found in schema %u", namespace);
	return type;
}

/*
 * The glicko2_rating type of the installed extension, for the helpers in
 * schema glicko2_internal (the type is in the extension's own schema).
 */
Oid
glicko2_extension_rating_type(void)
{
	Oid			extension = get_extension_oid("glicko2", false);
	Oid			namespace = InvalidOid;
	Relation	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tuple;

	ScanKeyInit(&key, Anum_pg_extension_oid, BTEqualStrategyNumber, F_OIDEQ,
				ObjectIdGetDatum(extension));
	scan = systable_beginscan(rel, ExtensionOidIndexId, true, NULL, 1, &key);
	tuple = systable_getnext(scan);
	if (HeapTupleIsValid(tuple))
		namespace = ((Form_pg_extension) GETSTRUCT(tuple))->extnamespace;
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	if (!OidIsValid(namespace))
		elog(ERROR, "extension glicko2 (%u) not found", extension);
	return glicko2_rating_type(namespace);
}

/* A rating as a composite of `desc`, a blessed glicko2_rating descriptor. */
Datum
glicko2_rating_datum(TupleDesc desc, const Glicko2Rating *r)
{
	Datum		values[3] = {Float8GetDatum(r->rating), Float8GetDatum(r->rd),
	Float8GetDatum(r->volatility)};
	bool		nulls[3] = {false, false, false};

	return HeapTupleGetDatum(heap_form_tuple(desc, values, nulls));
}

Datum
glicko2_get_datum(FunctionCallInfo fcinfo, const Glicko2Rating *r)
{
	double		f[3] = {r->rating, r->rd, r->volatility};

	return form_rating(fcinfo, f, 3);
}

Datum
glicko1_get_datum(FunctionCallInfo fcinfo, const Glicko1Rating *r)
{
	double		f[2] = {r->rating, r->rd};

	return form_rating(fcinfo, f, 2);
}

/* glicko2_rating(rating, rd, volatility): a checked Glicko-2 rating. */
PG_FUNCTION_INFO_V1(glicko2_rating_make);
Datum
glicko2_rating_make(PG_FUNCTION_ARGS)
{
	Glicko2Rating r;

	r.rating = PG_GETARG_FLOAT8(0);
	r.rd = PG_GETARG_FLOAT8(1);
	r.volatility = PG_GETARG_FLOAT8(2);
	glicko2_check(&r, "glicko2_rating");
	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &r));
}

/* glicko2_unrated(max_rd): a league's unrated player (glicko2_unrated in C). */
PG_FUNCTION_INFO_V1(glicko2_unrated_sql);
Datum
glicko2_unrated_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r = glicko2_unrated(glicko_arg_max_rd(fcinfo, 0));

	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &r));
}

/* glicko1_rating(rating, rd): a checked Glicko-1 rating. */
PG_FUNCTION_INFO_V1(glicko1_rating_make);
Datum
glicko1_rating_make(PG_FUNCTION_ARGS)
{
	Glicko1Rating r;

	r.rating = PG_GETARG_FLOAT8(0);
	r.rd = PG_GETARG_FLOAT8(1);
	check_glicko1(&r, "glicko1_rating");
	PG_RETURN_DATUM(glicko1_get_datum(fcinfo, &r));
}
