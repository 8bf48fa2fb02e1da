/*
 * matchmaking_taken.c — a set of one table's row ids (ctids) as a bitmap in a
 * bytea, and glicko2_row_taken(ctid, set), the filter glicko2_pair and
 * glicko2_lobbies delete the players they placed with.
 *
 * Why not DELETE ... WHERE ctid = ANY(array): its TID scan fetches every
 * row on its own (a buffer lookup, pin and lock per row, then the delete
 * does the same again), while a sequential scan filtered by the bitmap reads
 * each page once and tests a row in a few instructions (bench/matchmaking.sh).
 * Both see the same rows: those of the set visible to the statement.
 *
 * Row (block b, line pointer o) is bit b * MaxHeapTuplesPerPage + o - 1,
 * least significant bit first; a bitmap covers blocks 0 to the highest block
 * of the set, about 37 bytes a block of 8 kB.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"
#include "storage/itemptr.h"
#include "utils/memutils.h"

#include "compat.h"
#include "matchmaking_taken.h"

static uint64
row_bit(ItemPointer tid)
{
	return (uint64) ItemPointerGetBlockNumberNoCheck(tid) * MaxHeapTuplesPerPage +
		ItemPointerGetOffsetNumberNoCheck(tid) - 1;
}

/* An empty set with room for rows up to block last_block. */
bytea *
glicko_taken_rows_new(BlockNumber last_block, const char *relname)
{
	uint64		bytes = ((uint64) last_block + 1) * MaxHeapTuplesPerPage / 8 + 1;
	bytea	   *set;

	if (bytes > MaxAllocSize - VARHDRSZ)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("queue %s has too many pages to take players from (row in block %u)",
					   relname, last_block));
	set = palloc0(VARHDRSZ + bytes);
	SET_VARSIZE(set, VARHDRSZ + bytes);
	return set;
}

/* Add a row (its block at most the set's last_block). */
void
glicko_taken_rows_add(bytea *set, ItemPointer tid)
{
	uint64		bit = row_bit(tid);

	Assert(bit / 8 < VARSIZE(set) - VARHDRSZ);
	((uint8 *) VARDATA(set))[bit / 8] |= (uint8) (1 << (bit % 8));
}

/* glicko2_row_taken(ctid, set): is the row in the set (a row beyond it is not). */
PG_FUNCTION_INFO_V1(glicko2_row_taken_sql);
Datum
glicko2_row_taken_sql(PG_FUNCTION_ARGS)
{
	ItemPointer tid = (ItemPointer) PG_GETARG_POINTER(0);
	bytea	   *set = PG_GETARG_BYTEA_PP(1);
	OffsetNumber offset = ItemPointerGetOffsetNumberNoCheck(tid);
	uint64		bit = row_bit(tid);

	if (offset < FirstOffsetNumber || offset > MaxHeapTuplesPerPage ||
		bit / 8 >= VARSIZE_ANY_EXHDR(set))
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL((((const uint8 *) VARDATA_ANY(set))[bit / 8] >> (bit % 8)) & 1);
}
