/*
 * league_test.c — src/core/league_math.c alone: the soft reset exact at
 * both ends of keep, RD never lowered, volatility kept or set; floors and
 * caps: the exact capped value when one binds, the same bits when none does.
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

static bool
same(const Glicko2Rating *a, const Glicko2Rating *b)
{
	return a->rating == b->rating && a->rd == b->rd && a->volatility == b->volatility;
}

static void
test_caps(void)
{
	GlickoCaps	off = GLICKO_CAPS_OFF;
	GlickoCaps	lichess = {400.0, 700.0, 0.1};
	GlickoCaps	move_only;
	Glicko2Rating before = {1500.0, 350.0, 0.06};
	Glicko2Rating after,
				orig;

	CHECK(glicko_caps_off(&off) && !glicko_caps_off(&lichess));
	/* off, or not binding: the same bits, false */
	for (double x = -3000.0; x <= 3000.0; x += 0.731)
	{
		orig = (Glicko2Rating)
		{
			1500.0 + x, 80.0 + fabs(x) / 100, 0.05 + fabs(x) / 1e5
		};
		after = orig;
		CHECK(!glicko2_apply_caps(&before, &after, &off) && same(&after, &orig));
		after = orig;
		if (fabs(x) <= 700.0 && 1500.0 + x >= 400.0 && orig.volatility <= 0.1)
			CHECK(!glicko2_apply_caps(&before, &after, &lichess) && same(&after, &orig));
	}
	/* the move clamped to +-700 exactly, RD untouched */
	after = (Glicko2Rating)
	{
		2300.5, 120.0, 0.06
	};
	CHECK(glicko2_apply_caps(&before, &after, &lichess));
	CHECK(after.rating == 2200.0 && after.rd == 120.0 && after.volatility == 0.06);
	after = (Glicko2Rating)
	{
		650.0, 120.0, 0.06
	};
	CHECK(glicko2_apply_caps(&before, &after, &lichess) && after.rating == 800.0);
	/* the floor after the clamp: 1000 -> 100 clamps to 300, floored to 400 */
	before.rating = 1000.0;
	after = (Glicko2Rating)
	{
		100.0, 120.0, 0.06
	};
	CHECK(glicko2_apply_caps(&before, &after, &lichess) && after.rating == 400.0);
	/* a rating below the floor before is raised to it */
	before.rating = 350.0;
	after = (Glicko2Rating)
	{
		360.0, 120.0, 0.06
	};
	CHECK(glicko2_apply_caps(&before, &after, &lichess) && after.rating == 400.0);
	/* the volatility lowered to its cap, alone */
	before.rating = 1500.0;
	after = (Glicko2Rating)
	{
		1510.0, 120.0, 0.1300001
	};
	CHECK(glicko2_apply_caps(&before, &after, &lichess));
	CHECK(after.volatility == 0.1 && after.rating == 1510.0 && after.rd == 120.0);
	/* each cap alone */
	after = (Glicko2Rating)
	{
		3000.0, 120.0, 0.5
	};
	move_only = (GlickoCaps)
	{
		NAN, 700.0, NAN
	};
	CHECK(glicko2_apply_caps(&before, &after, &move_only));
	CHECK(after.rating == 2200.0 && after.volatility == 0.5);
}

int
main(void)
{
	test_soft_reset();
	test_caps();
	printf("league_test: %d checks, %d failed\n", checks, failures);
	return failures != 0;
}
