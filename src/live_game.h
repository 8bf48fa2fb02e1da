/*
 * live_game.h — what glicko2_game, glicko2_rating_at and the live rating
 * trigger share: time as fractional rating periods.
 */
#ifndef GLICKO2_LIVE_GAME_H
#define GLICKO2_LIVE_GAME_H

#include "postgres.h"
#include "datatype/timestamp.h"
#include "fmgr.h"

#include "compat.h"
#include "core/glicko_math.h"

/* A period's length in microseconds; ERROR unless positive and finite. */
extern double glicko_live_period_usecs(const Interval *period);

/* ERROR unless ts is finite; `what` names it. */
extern void glicko_live_check_timestamp(TimestampTz ts, const char *what);

/* Periods from `from` to `to`, fractional, 0 if `to` is not later. */
extern double glicko_live_elapsed_periods(TimestampTz from, TimestampTz to,
										  double period_usecs);

/* ERROR unless argument n is not NULL; `what` names it. */
extern void glicko_live_require_arg(FunctionCallInfo fcinfo, int n, const char *what);

/* r as of time at (RD grown from rated_at, capped at max_rd); ERROR on bad
 * input, naming fn. */
extern void glicko_live_rating_at(const Glicko2Rating *r, bool rated_at_null,
								  TimestampTz rated_at, TimestampTz at,
								  const Interval *period, double max_rd,
								  Glicko2Rating *result, const char *fn);

#endif							/* GLICKO2_LIVE_GAME_H */
