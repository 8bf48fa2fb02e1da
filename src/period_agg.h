/*
 * period_agg.h — what the rating-period aggregates share with
 * glicko2_explain, which keeps the same state plus its list of games.
 */
#ifndef GLICKO2_PERIOD_AGG_H
#define GLICKO2_PERIOD_AGG_H

#include "postgres.h"
#include "fmgr.h"

#include "glicko_math.h"

/* The aggregate's memory context, or an ERROR outside an aggregate. */
extern MemoryContext aggregate_context(FunctionCallInfo fcinfo, const char *fname);

/* ERROR unless a row's player rating and tau are the group's. */
extern void check_same_group(const Glicko2Rating *first, double first_tau,
							 const Glicko2Rating *player, double tau);

#endif							/* GLICKO2_PERIOD_AGG_H */
