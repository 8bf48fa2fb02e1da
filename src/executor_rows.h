/*
 * executor_rows.h — rows between glicko2's C functions and the executor: the result
 * store of a set-returning function, and a receiver that takes a query's
 * rows straight from the executor (no SPI tuple table copying each row).
 */
#ifndef GLICKO2_EXECUTOR_ROWS_H
#define GLICKO2_EXECUTOR_ROWS_H

#include "postgres.h"

#include "fmgr.h"
#include "tcop/dest.h"
#include "utils/tuplestore.h"

/*
 * A set-returning function's result in materialize mode: its row type (a
 * copy in query memory) and the tuple store to fill.
 */
extern Tuplestorestate *glicko_materialized_result(FunctionCallInfo fcinfo, TupleDesc *desc,
												   const char *function);

/* A receiver whose only work is receive(), called with each row. */
extern void glicko_rows_receiver_init(DestReceiver *receiver,
									  bool (*receive) (TupleTableSlot *slot, DestReceiver *self));

#endif							/* GLICKO2_EXECUTOR_ROWS_H */
