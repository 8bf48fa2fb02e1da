/*
 * json_build.h — writing jsonb objects from C, with numbers that read back
 * as exactly the same double (shortest round-trip digits, whatever
 * extra_float_digits says), so the functions that use it are IMMUTABLE.
 */
#ifndef GLICKO2_JSON_BUILD_H
#define GLICKO2_JSON_BUILD_H

#include "postgres.h"

#include "utils/jsonb.h"

/* key is NULL for the outermost value and for array elements. */
extern void json_begin_object(JsonbParseState **st, const char *key);
extern void json_end_object(JsonbParseState **st);
extern void json_begin_array(JsonbParseState **st, const char *key);
extern void json_end_array(JsonbParseState **st);
/* A non-finite x is written as null. */
extern void json_put_number(JsonbParseState **st, const char *key, double x);
extern void json_put_bool(JsonbParseState **st, const char *key, bool b);
/* Close the outermost object and return it. */
extern Jsonb *json_finish(JsonbParseState **st);

#endif							/* GLICKO2_JSON_BUILD_H */
