/*
 * caps.h — the floors and caps of a close or a live trigger
 * (core/league_math.h's GlickoCaps) as they come from SQL: checked, each
 * error naming the bad value.
 */
#ifndef GLICKO2_CAPS_H
#define GLICKO2_CAPS_H

#include "postgres.h"

#include "utils/array.h"

#include "core/league_math.h"

/* {min_rating, max_change, max_volatility}, a NULL element off; ERROR
 * unless each is off or valid. */
extern void glicko_caps_from_array(ArrayType *a, GlickoCaps *caps);

/* A live trigger's option 'min_rating=', 'max_change=' or 'max_volatility='
 * ('none': off) into caps; false if `name` is not one of them. */
extern bool glicko_caps_option(const char *name, const char *value, GlickoCaps *caps);

#endif							/* GLICKO2_CAPS_H */
