/*
 * json_build.h — writing jsonb objects from C, with numbers that read back
 * as exactly the same double (shortest round-trip digits, whatever
 * extra_float_digits says), so the functions that use it are IMMUTABLE.
 */
#ifndef GLICKO2_JSON_BUILD_H
#define GLICKO2_JSON_BUILD_H

#include "postgres.h"

#include "compat.h"

/* key is NULL for the outermost value and for array elements. */
extern void glicko_json_begin_object(GlickoJsonbState *st, const char *key);
extern void glicko_json_end_object(GlickoJsonbState *st);
extern void glicko_json_begin_array(GlickoJsonbState *st, const char *key);
extern void glicko_json_end_array(GlickoJsonbState *st);

/* A non-finite x is written as null. */
extern void glicko_json_put_number(GlickoJsonbState *st, const char *key, double x);
extern void glicko_json_put_bool(GlickoJsonbState *st, const char *key, bool b);

/* Close the outermost object and return it. */
extern Jsonb *glicko_json_finish(GlickoJsonbState *st);

#endif							/* GLICKO2_JSON_BUILD_H */
