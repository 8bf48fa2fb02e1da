/*
 * league_math.c — the soft reset of a season (league_math.h), a departure
 * from the paper a league chooses; docs/league.md measures what it costs.
 */
#include <math.h>

#include "league_math.h"

void
glicko2_soft_reset(const Glicko2Rating *r, double mean, double keep, double rd,
				   double volatility, Glicko2Rating *result)
{
	/* (keep 1: r + 0 exactly; keep 0: 0 + mean exactly) */
	result->rating = keep * r->rating + (1.0 - keep) * mean;
	result->rd = r->rd >= rd ? r->rd : rd;
	result->volatility = isnan(volatility) ? r->volatility : volatility;
}
