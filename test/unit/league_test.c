/*
 * league_test.c — src/core/league_math.c alone: the soft reset exact at
 * both ends of keep, RD never lowered, volatility kept or set.
 */
#include <math.h>

#include "check.h"
#include "core/league_math.h"

static void
test_soft_reset(void)
{
	Glicko2Rating r = {1734.123456789012, 61.5, 0.0712};
	Glicko2Rating out;

	/* keep 1: the rating itself, bit for bit; keep 0: the mean itself */
	for (double mean = -1e6; mean <= 1e6; mean += 12345.678)
	{
		glicko2_soft_reset(&r, mean, 1.0, 0.0, NAN, &out);
		CHECK(out.rating == r.rating && out.rd == r.rd && out.volatility == r.volatility);
		glicko2_soft_reset(&r, mean, 0.0, 0.0, NAN, &out);
		CHECK(out.rating == mean);
	}
	/* halfway, and always between the rating and the mean */
	glicko2_soft_reset(&r, 1500.0, 0.5, 100.0, NAN, &out);
	CHECK(fabs(out.rating - (r.rating + 1500.0) / 2) < 1e-12);
	for (double keep = 0.0; keep <= 1.0; keep += 0.01)
	{
		glicko2_soft_reset(&r, 1500.0, keep, 0.0, NAN, &out);
		CHECK(out.rating >= 1500.0 && out.rating <= r.rating);
	}
	/* RD raised to rd, never lowered; volatility kept (NaN) or set */
	glicko2_soft_reset(&r, 1500.0, 0.5, 100.0, NAN, &out);
	CHECK(out.rd == 100.0 && out.volatility == r.volatility);
	glicko2_soft_reset(&r, 1500.0, 0.5, 50.0, 0.06, &out);
	CHECK(out.rd == r.rd && out.volatility == 0.06);
}

int
main(void)
{
	test_soft_reset();
	printf("league_test: %d checks, %d failed\n", checks, failures);
	return failures != 0;
}
