/*
 * compat.h — every difference between the PostgreSQL versions glicko2
 * builds against (13 to 17), and between compilers, lives here, so no
 * function body needs #if.
 */
#ifndef GLICKO2_COMPAT_H
#define GLICKO2_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 130000
#error "glicko2 requires PostgreSQL 13 or later"
#endif

/* Since PostgreSQL 16 the varlena macros (VARDATA_ANY, ...) are in varatt.h,
 * which postgres.h no longer includes. */
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

/* A hint to bring memory that will be written soon into cache (no-op where unknown). */
#if defined(__GNUC__) || defined(__clang__)
#define glicko_prefetch_write(p) __builtin_prefetch((p), 1)
#else
#define glicko_prefetch_write(p) ((void) (p))
#endif

/* Ask for transparent huge pages for a large array (Linux; elsewhere a no-op). */
#define GLICKO_HUGE_PAGE_SIZE ((Size) 2 * 1024 * 1024)
#if defined(__linux__)
#include <sys/mman.h>
#endif
static inline void
glicko_advise_huge_pages(void *start, Size size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	Size		whole = size - size % GLICKO_HUGE_PAGE_SIZE;

	if (whole > 0)
		(void) madvise(start, whole, MADV_HUGEPAGE);
#else
	(void) start;
	(void) size;
#endif
}

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

#endif							/* GLICKO2_COMPAT_H */
