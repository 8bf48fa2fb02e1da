/*
 * memory.h — hints for the hot loops' memory: prefetching a record about to
 * be written or read, and arrays on transparent huge pages.  Differences
 * between compilers and systems stay here, so no function body needs #if.
 */
#ifndef GLICKO2_MEMORY_H
#define GLICKO2_MEMORY_H

#include "postgres.h"

/* A hint to bring memory that will be written soon into cache (no-op where unknown). */
#if defined(__GNUC__) || defined(__clang__)
#define glicko_prefetch_write(p) __builtin_prefetch((p), 1)
#define glicko_prefetch_read(p) __builtin_prefetch((p), 0)
#else
#define glicko_prefetch_write(p) ((void) (p))
#define glicko_prefetch_read(p) ((void) (p))
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

/*
 * Where an array of size bytes starts in a chunk allocated with
 * GLICKO_HUGE_PAD(size) bytes more than it: from one huge page up, on a
 * huge-page boundary (and advised for huge pages), else MAXALIGNed.
 */
#define GLICKO_HUGE_PAD(size) \
	((size) >= GLICKO_HUGE_PAGE_SIZE ? GLICKO_HUGE_PAGE_SIZE : MAXIMUM_ALIGNOF)
static inline char *
glicko_huge_start(char *chunk, Size size)
{
	char	   *data = (char *) TYPEALIGN(GLICKO_HUGE_PAD(size), chunk);

	glicko_advise_huge_pages(data, size);
	return data;
}

#endif							/* GLICKO2_MEMORY_H */
