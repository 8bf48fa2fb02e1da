/*
 * league_math.h — rules a league applies around the paper's procedure:
 * the season's soft reset.  Plain C99 with libm, nothing of PostgreSQL.
 */
#ifndef LEAGUE_MATH_H
#define LEAGUE_MATH_H

#include <stdbool.h>

#include "glicko_math.h"

/*
 * A soft reset: the rating pulled toward mean by keep (1: unchanged, 0: at
 * mean; keep r + (1 - keep) mean, exact at both ends), RD raised to at
 * least rd (never lowered), volatility set to volatility or, when that is
 * NaN, kept.  The caller checks the arguments (keep in [0, 1], rd >= 0,
 * mean finite, volatility NaN or positive).
 */
extern void glicko2_soft_reset(const Glicko2Rating *r, double mean, double keep,
							   double rd, double volatility, Glicko2Rating *result);

#endif							/* LEAGUE_MATH_H */
