/*
 * rating.h — the glicko2_rating and glicko1_rating composites on the
 * PostgreSQL side: reading them from Datums, validating, building results,
 * and the errors every SQL-callable function shares.
 */
#ifndef GLICKO2_RATING_H
#define GLICKO2_RATING_H

#include "postgres.h"
#include "access/htup_details.h"
#include "fmgr.h"

#include "compat.h"
#include "core/glicko_math.h"

/* Read a composite argument; `what` names it in errors ("player", "opponent"). */
extern void glicko2_datum_get(Datum d, Glicko2Rating *out, const char *what);
extern void glicko1_datum_get(Datum d, Glicko1Rating *out, const char *what);

/* The fields only (NULL fields and shape checked): for callers that name the
 * bad value themselves when glicko2_valid() is false. */
extern void glicko2_datum_get_fields(Datum d, Glicko2Rating *out, const char *what);

/* A valid rating read without raising: false for anything glicko2_datum_get
 * would refuse (callers that build the error's wording only when needed). */
extern bool glicko2_datum_try(Datum d, Glicko2Rating *out);

/*
 * The float8 fields of a rating composite that is neither toasted nor
 * compressed, read in place (a value stored with a 1-byte varlena header is
 * the tuple header less its first 3 bytes, unaligned: hence offsets from
 * VARDATA_ANY and memcpy); all fields are float8, so field i sits at
 * t_hoff + 8 i when there are no NULLs.  Returns 0, or the 1-based number of
 * a NULL field, or -1 when it is not nfields float8 fields.
 */
#define RATING_HEADER_FIELD(body, field) \
	((body) + offsetof(HeapTupleHeaderData, field) - VARHDRSZ)

static inline int
rating_fields_untoasted(const struct varlena *v, void *out, int nfields)
{
	const char *body = VARDATA_ANY(v);
	uint16		infomask;
	uint16		infomask2;
	uint8		hoff;
	int			natts;

	memcpy(&infomask, RATING_HEADER_FIELD(body, t_infomask), sizeof(infomask));
	memcpy(&infomask2, RATING_HEADER_FIELD(body, t_infomask2), sizeof(infomask2));
	memcpy(&hoff, RATING_HEADER_FIELD(body, t_hoff), sizeof(hoff));
	natts = infomask2 & HEAP_NATTS_MASK;
	if (natts == nfields && (infomask & HEAP_HASNULL))
	{
		const uint8 *bits = (const uint8 *) RATING_HEADER_FIELD(body, t_bits);

		for (int i = 0; i < nfields; i++)
			if (att_isnull(i, bits))
				return i + 1;
	}
	if (natts != nfields || hoff < SizeofHeapTupleHeader ||
		hoff - VARHDRSZ + nfields * sizeof(float8) > VARSIZE_ANY_EXHDR(v))
		return -1;
	memcpy(out, body + hoff - VARHDRSZ, nfields * sizeof(float8));
	return 0;
}

/*
 * The common case, inline for the aggregates' rows: a value neither toasted
 * nor compressed, nfields float8 fields, no NULL.  False for anything else;
 * datum_get_* then read or report it.
 */
static inline bool
rating_fields_in_place(Datum d, void *out, int nfields)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	return !VARATT_IS_EXTERNAL(v) && !VARATT_IS_COMPRESSED(v) &&
		rating_fields_untoasted(v, out, nfields) == 0;
}

/*
 * Argument n's fields, NULL meaning the unrated player of Step 1(a), not
 * checked: the aggregates' rows check them inline (glicko2_valid), and
 * glicko2_arg_or_unrated with glicko2_check.
 */
static inline void
arg_glicko2_fields_or_unrated(FunctionCallInfo fcinfo, int n, Glicko2Rating *out,
							  const char *what)
{
	if (PG_ARGISNULL(n))
	{
		out->rating = GLICKO2_DEFAULT_RATING;
		out->rd = GLICKO2_DEFAULT_RD;
		out->volatility = GLICKO2_DEFAULT_VOLATILITY;
	}
	else if (!rating_fields_in_place(PG_GETARG_DATUM(n), out, 3))
		glicko2_datum_get_fields(PG_GETARG_DATUM(n), out, what);
}

/* Argument n as a rating, NULL meaning the unrated player of Step 1(a). */
extern void glicko2_arg_or_unrated(FunctionCallInfo fcinfo, int n,
								   Glicko2Rating *out, const char *what);
extern void glicko1_arg_or_unrated(FunctionCallInfo fcinfo, int n,
								   Glicko1Rating *out, const char *what);

/* Build the function's composite result. */
extern Datum glicko2_get_datum(FunctionCallInfo fcinfo, const Glicko2Rating *r);
extern Datum glicko2_rating_datum(TupleDesc desc, const Glicko2Rating *r);
extern Oid	glicko2_rating_type(Oid namespace);
extern Oid	glicko2_extension_rating_type(void);

extern Datum glicko1_get_datum(FunctionCallInfo fcinfo, const Glicko1Rating *r);

/* Validation: each check_ raises a clear ERROR naming the bad value. */
static inline bool
glicko2_valid(const Glicko2Rating *r)
{
	return glicko_valid_rating_value(r->rating) && glicko_valid_positive(r->rd) &&
		glicko_valid_positive(r->volatility);
}

extern void glicko2_check(const Glicko2Rating *r, const char *what);
extern void glicko_check_positive(double x, const char *what);
extern void glicko_check_nonnegative(double x, const char *what);
extern void glicko_check_finite(double x, const char *what);
extern void glicko_check_score(double score);

/* A score column's value as float8 (float8, float4, int2, int4, int8, numeric). */
extern double glicko_score_as_float8(Oid type, Datum d);

/* Argument n as max_rd: checked, NULL meaning no cap (INFINITY). */
extern double glicko_arg_max_rd(FunctionCallInfo fcinfo, int n);

/* Turn a GlickoStatus from glicko_math.c into an ERROR (or nothing if OK). */
extern void glicko_report_status(GlickoStatus status, const char *what);

/* A rating as text for messages: "(1500,350,0.06)". */
extern char *glicko2_to_cstring(const Glicko2Rating *r);
extern char *glicko1_to_cstring(const Glicko1Rating *r);

#endif							/* GLICKO2_RATING_H */
