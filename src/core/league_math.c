/*
 * league_math.c — the soft reset of a season and the floors and caps of a
 * close or a live game (league_math.h).  Departures from the paper that a
 * league chooses; docs/league.md measures what they cost.
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

bool
glicko2_apply_caps(const Glicko2Rating *before, Glicko2Rating *after,
				   const GlickoCaps *caps)
{
	bool		capped = false;

	if (after->rating - before->rating > caps->max_change)
	{
		after->rating = before->rating + caps->max_change;
		capped = true;
	}
	else if (before->rating - after->rating > caps->max_change)
	{
		after->rating = before->rating - caps->max_change;
		capped = true;
	}
	if (after->rating < caps->min_rating)
	{
		after->rating = caps->min_rating;
		capped = true;
	}
	if (after->volatility > caps->max_volatility)
	{
		after->volatility = caps->max_volatility;
		capped = true;
	}
	return capped;
}
