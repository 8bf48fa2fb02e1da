/*
 * compat.h — every difference between the PostgreSQL versions glicko2
 * builds against (13 to 17) lives here, so no function body needs #if.
 */
#ifndef GLICKO2_COMPAT_H
#define GLICKO2_COMPAT_H

#include "postgres.h"

#if PG_VERSION_NUM < 130000
#error "glicko2 requires PostgreSQL 13 or later"
#endif

#endif							/* GLICKO2_COMPAT_H */
