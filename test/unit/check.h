/*
 * check.h — the counting CHECK() of the unit tests (one translation unit
 * per test program, so the counters can be static here).
 */
#ifndef GLICKO_UNIT_CHECK_H
#define GLICKO_UNIT_CHECK_H

#include <stdio.h>

static int	checks;
static int	failures;

#define CHECK(cond) check((cond), #cond, __LINE__)

static void
check(int ok, const char *what, int line)
{
	checks++;
	if (!ok)
	{
		failures++;
		printf("FAILED line %d: %s\n", line, what);
	}
}

#endif							/* GLICKO_UNIT_CHECK_H */
