/*
 * compat.h — every difference between the PostgreSQL versions glicko2
 * builds against (14 to 19) lives here, so no function body needs #if.
 * Memory hints (prefetch, huge pages): memory.h.
 */
#ifndef GLICKO2_COMPAT_H
#define GLICKO2_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 140000
#error "glicko2 requires PostgreSQL 14 or later"
#endif

#include "fmgr.h"
#include "utils/jsonb.h"

/*
 * The module's magic block.  From 18 it also carries the module's name and
 * version (pg_get_loaded_modules()); the version is glicko2.control's
 * default_version, which the Makefile passes as GLICKO2_VERSION.
 */
#if PG_VERSION_NUM >= 180000
#define GLICKO_MODULE_MAGIC \
	PG_MODULE_MAGIC_EXT(.name = "glicko2", .version = GLICKO2_VERSION)
#else
#define GLICKO_MODULE_MAGIC PG_MODULE_MAGIC
#endif

/* A function that does not return: PostgreSQL 18 replaced the suffix
 * pg_attribute_noreturn() with the prefix pg_noreturn (C11 _Noreturn);
 * glicko_noreturn goes first, where both work. */
#if PG_VERSION_NUM >= 180000
#define glicko_noreturn pg_noreturn
#else
#define glicko_noreturn pg_attribute_noreturn()
#endif

/* Since PostgreSQL 16 the varlena macros (VARDATA_ANY, ...) are in varatt.h,
 * which postgres.h no longer includes. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/* make_range() gained a soft-error context argument in PostgreSQL 16. */
#if PG_VERSION_NUM >= 160000
#define glicko_make_range(typcache, lower, upper) \
	make_range((typcache), (lower), (upper), false, NULL)
#else
#define glicko_make_range(typcache, lower, upper) \
	make_range((typcache), (lower), (upper), false)
#endif

/* Intervals can be infinite since PostgreSQL 17. */
#if PG_VERSION_NUM >= 170000
#define glicko_interval_is_finite(i) (!INTERVAL_NOT_FINITE(i))
#else
#define glicko_interval_is_finite(i) ((void) (i), true)
#endif

/*
 * Building jsonb: up to 18 pushJsonbValue takes the address of a
 * JsonbParseState pointer and returns the value it completes; from 19 it
 * takes a JsonbInState (zeroed) and leaves the completed value in its result.
 * A GlickoJsonbState starts as GLICKO_JSONB_STATE_INIT; glicko_jsonb_close
 * pushes the last token and gives the completed value.
 */
#if PG_VERSION_NUM >= 190000
typedef JsonbInState GlickoJsonbState;
#define GLICKO_JSONB_STATE_INIT {0}
#define glicko_push_jsonb(st, seq, v) pushJsonbValue((st), (seq), (v))
#define glicko_jsonb_close(st, seq) (pushJsonbValue((st), (seq), NULL), (st)->result)
#else
typedef struct GlickoJsonbState
{
	JsonbParseState *parse;
} GlickoJsonbState;
#define GLICKO_JSONB_STATE_INIT {NULL}
#define glicko_push_jsonb(st, seq, v) pushJsonbValue(&(st)->parse, (seq), (v))
#define glicko_jsonb_close(st, seq) pushJsonbValue(&(st)->parse, (seq), NULL)
#endif

#endif							/* GLICKO2_COMPAT_H */
