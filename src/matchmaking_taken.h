/*
 * matchmaking_taken.h — a set of one table's row ids as a bitmap in a bytea, for
 * the delete filter glicko2_row_taken(ctid, set) (matchmaking_taken.c).
 */
#ifndef GLICKO2_MATCHMAKING_TAKEN_H
#define GLICKO2_MATCHMAKING_TAKEN_H

#include "postgres.h"

#include "storage/block.h"
#include "storage/itemptr.h"

/* The schema of glicko2_row_taken and the extension's other internal
 * helpers (created by sql/types.sql). */
#define GLICKO2_INTERNAL_SCHEMA "glicko2_internal"

/* An empty set with room for rows up to last_block (relname for the error
 * when that is too large); glicko_taken_rows_add puts a row in. */
extern bytea *glicko_taken_rows_new(BlockNumber last_block, const char *relname);
extern void glicko_taken_rows_add(bytea *set, ItemPointer tid);

#endif							/* GLICKO2_MATCHMAKING_TAKEN_H */
