/*
 * league_math.h — rules a league applies around the paper's procedure:
 * the season's soft reset and the optional floors and caps of a close or
 * a live game.  Plain C99 with libm, nothing of PostgreSQL.
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

/*
 * Floors and caps (lichess: 400, 700, 0.1).  A NaN field is off; with
 * every field off a rating goes through unchanged, bit for bit.
 */
typedef struct GlickoCaps
{
	double		min_rating;		/* no rating below it */
	double		max_change;		/* no rating moves further from before */
	double		max_volatility; /* no volatility above it */
} GlickoCaps;

/* Every cap off. */
#define GLICKO_CAPS_OFF ((GlickoCaps) {NAN, NAN, NAN})

static inline bool
glicko_caps_off(const GlickoCaps *caps)
{
	return isnan(caps->min_rating) && isnan(caps->max_change) &&
		isnan(caps->max_volatility);
}

/*
 * after, the rating computed from before, with the caps applied: its move
 * clamped to +-max_change, then raised to min_rating, its volatility
 * lowered to max_volatility.  True when a cap changed a value.
 */
extern bool glicko2_apply_caps(const Glicko2Rating *before, Glicko2Rating *after,
							   const GlickoCaps *caps);

#endif							/* LEAGUE_MATH_H */
