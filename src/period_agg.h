/*
 * period_agg.h — what the rating-period aggregates share with
 * glicko2_explain, which keeps the same state plus its list of games.
 */
#ifndef GLICKO2_PERIOD_AGG_H
#define GLICKO2_PERIOD_AGG_H

#include "postgres.h"
#include "fmgr.h"
#include "lib/stringinfo.h"

#include "core/glicko_math.h"

/* The aggregate's memory context, or an ERROR outside an aggregate. */
extern MemoryContext glicko_aggregate_context(FunctionCallInfo fcinfo, const char *fname);

/* Argument n as tau (0.5 where the aggregate has no tau argument), checked. */
extern double glicko_arg_tau(FunctionCallInfo fcinfo, int n);

/* ERROR unless a row's player rating and tau are the group's. */
extern void glicko_check_same_group(const Glicko2Rating *first, double first_tau,
									const Glicko2Rating *player, double tau);

/* Serialization of the part every state has: player, tau, the sums. */
#define GROUP_SERIAL_SIZE (8 * sizeof(float8) + sizeof(int64))
extern void glicko_send_group(StringInfo buf, const Glicko2Rating *player, double tau,
							  const GlickoSums *sums);
extern bool glicko_recv_group(StringInfo buf, Glicko2Rating *player, double *tau,
							  GlickoSums *sums);

#endif							/* GLICKO2_PERIOD_AGG_H */
