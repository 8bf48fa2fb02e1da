/*
 * rating.h — the glicko2_rating and glicko1_rating composites on the
 * PostgreSQL side: reading them from Datums, validating, building results,
 * and the errors every SQL-callable function shares.
 */
#ifndef GLICKO2_RATING_H
#define GLICKO2_RATING_H

#include "postgres.h"
#include "fmgr.h"

#include "compat.h"
#include "glicko_math.h"

/* Read a composite argument; `what` names it in errors ("player", "opponent"). */
extern void datum_get_glicko2(Datum d, Glicko2Rating *out, const char *what);
extern void datum_get_glicko1(Datum d, Glicko1Rating *out, const char *what);
/* The fields only (NULL fields and shape checked): for callers that name the
 * bad value themselves when glicko2_valid() is false. */
extern void datum_get_glicko2_fields(Datum d, Glicko2Rating *out, const char *what);
/* A valid rating read without raising: false for anything datum_get_glicko2
 * would refuse (callers that build the error's wording only when needed). */
extern bool datum_try_glicko2(Datum d, Glicko2Rating *out);

/* Argument n as a rating, NULL meaning the unrated player of Step 1(a). */
extern void arg_glicko2_or_unrated(FunctionCallInfo fcinfo, int n,
								   Glicko2Rating *out, const char *what);
extern void arg_glicko1_or_unrated(FunctionCallInfo fcinfo, int n,
								   Glicko1Rating *out, const char *what);

/* Build the function's composite result. */
extern Datum glicko2_get_datum(FunctionCallInfo fcinfo, const Glicko2Rating *r);
extern Datum glicko1_get_datum(FunctionCallInfo fcinfo, const Glicko1Rating *r);

/* Validation: each check_ raises a clear ERROR naming the bad value. */
extern bool glicko2_valid(const Glicko2Rating *r);
extern void check_glicko2(const Glicko2Rating *r, const char *what);
extern void check_glicko1(const Glicko1Rating *r, const char *what);
extern void check_positive(double x, const char *what);
extern void check_nonnegative(double x, const char *what);
extern void check_finite(double x, const char *what);
extern void check_score(double score);

/* A score column's value as float8 (float8, float4, int2, int4, int8, numeric). */
extern double score_as_float8(Oid type, Datum d);

/* Argument n as max_rd: checked, NULL meaning no cap (INFINITY). */
extern double arg_max_rd(FunctionCallInfo fcinfo, int n);

/* Turn a GlickoStatus from glicko_math.c into an ERROR (or nothing if OK). */
extern void report_glicko_status(GlickoStatus status, const char *what);

/* A rating as text for messages: "(1500,350,0.06)". */
extern char *glicko2_to_cstring(const Glicko2Rating *r);
extern char *glicko1_to_cstring(const Glicko1Rating *r);

#endif							/* GLICKO2_RATING_H */
