/*
 * live_game.h — what glicko2_game, glicko2_rating_at and the live rating
 * trigger share: time as fractional rating periods.
 */
#ifndef GLICKO2_LIVE_GAME_H
#define GLICKO2_LIVE_GAME_H

#include "postgres.h"
#include "datatype/timestamp.h"

#include "compat.h"

/* A period's length in microseconds; ERROR unless positive and finite. */
extern double glicko_live_period_usecs(const Interval *period);

/* ERROR unless ts is finite; `what` names it. */
extern void glicko_live_check_timestamp(TimestampTz ts, const char *what);

/* Periods from `from` to `to`, fractional, 0 if `to` is not later. */
extern double glicko_live_elapsed_periods(TimestampTz from, TimestampTz to,
										  double period_usecs);

#endif							/* GLICKO2_LIVE_GAME_H */
