/*
 * write_check.h — a write that skipped rows fails the whole call
 * (write_check.c).
 */
#ifndef GLICKO2_WRITE_CHECK_H
#define GLICKO2_WRITE_CHECK_H

#include "postgres.h"

/* ERROR (42501 under row-level security, else 55000) unless written == meant. */
extern void glicko2_require_written(Oid relid, int64 written, int64 meant, const char *what);

#endif							/* GLICKO2_WRITE_CHECK_H */
