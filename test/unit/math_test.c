/*
 * math_test.c — unit tests of glicko_math.c, with no PostgreSQL in sight.
 * Prints one line per failed check and a summary; exits 1 on any failure.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/glicko_math.h"
#include "check.h"

static int
close_rel(double x, double want, double rel)
{
	return fabs(x / want - 1.0) < rel;
}

/* The paper's example: 1500/200/0.06 against 1400/30 (won), 1550/100, 1700/300 (lost). */
static void
paper_games(GlickoSums *s, void (*add) (GlickoSums *, double, double, double, double))
{
	add(s, 1500, 1400, 30, 1);
	add(s, 1500, 1550, 100, 0);
	add(s, 1500, 1700, 300, 0);
}

static void
test_paper(void)
{
	Glicko2Rating p = {1500, 200, 0.06},
				r;
	GlickoSums	s = {0};
	Glicko2Trace t;

	paper_games(&s, glicko2_add_game);
	CHECK(glicko2_update(&p, &s, 0.5, &r, &t) == GLICKO_OK);
	CHECK(close_rel(r.rating, 1464.0506705393013, 1e-12));
	CHECK(close_rel(r.rd, 151.51652412385727, 1e-12));
	CHECK(close_rel(r.volatility, 0.059995984286488495, 1e-12));
	CHECK(close_rel(t.v, 1.7789770897, 1e-9));
	CHECK(close_rel(t.delta, -0.4839332609, 1e-9));
	CHECK(t.k == 1);
	CHECK(t.n_iterations == 3);
	CHECK(fabs(t.iterations[0].A - -5.62682) < 5e-6);
	CHECK(fabs(t.iterations[0].B - -6.12682) < 5e-6);
	CHECK(fabs(t.iterations[0].fB - 1.999675) < 5e-6);
	CHECK(fabs(glicko2_g(30) - 0.9955) < 5e-5);
	CHECK(fabs(glicko2_g(100) - 0.9531) < 5e-5);
	CHECK(fabs(glicko2_g(300) - 0.7242) < 5e-5);
	CHECK(fabs(glicko2_expected(1500, 1400, 30) - 0.639) < 5e-4);
	CHECK(fabs(glicko2_expected(1500, 1550, 100) - 0.432) < 5e-4);
	CHECK(fabs(glicko2_expected(1500, 1700, 300) - 0.303) < 5e-4);
}

static void
test_glicko1(void)
{
	Glicko1Rating p = {1500, 200},
				r;
	GlickoSums	s = {0};

	paper_games(&s, glicko1_add_game);
	CHECK(glicko1_update(&p, &s, &r) == GLICKO_OK);
	CHECK(fabs(r.rating - 1464.106) < 1e-3);
	CHECK(fabs(r.rd - 151.399) < 1e-3);
}

static void
test_idle(void)
{
	Glicko2Rating p = {1500, 200, 0.06},
				r;
	Glicko1Rating p1 = {1500, 50},
				r1;

	CHECK(glicko2_idle(&p, 1, INFINITY, &r) == GLICKO_OK);
	CHECK(fabs(r.rd - 173.7178 * sqrt(pow(200 / 173.7178, 2) + 0.0036)) < 1e-9);
	CHECK(glicko2_idle(&p, 1e6, 350, &r) == GLICKO_OK && r.rd == 350);
	p.rd = 400;
	CHECK(glicko2_idle(&p, 1, 350, &r) == GLICKO_OK && r.rd == 400);
	CHECK(glicko1_idle(&p1, 100, GLICKO1_DEFAULT_C, INFINITY, &r1) == GLICKO_OK);
	CHECK(fabs(r1.rd - 350) < 1);
}

/* A close: the update with games, capped Step 6 without (not the aggregate's uncapped one). */
static void
test_close_player(void)
{
	Glicko2Rating p = {1500, 349.9, 0.06},
				r,
				want;
	GlickoSums	s = {0};

	CHECK(glicko2_close_player(&p, &s, 0.5, 350, &r) == GLICKO_OK && r.rd == 350);
	CHECK(r.rating == 1500 && r.volatility == 0.06);
	CHECK(glicko2_close_player(&p, &s, 0.5, INFINITY, &r) == GLICKO_OK && r.rd > 350);
	CHECK(glicko2_update(&p, &s, 0.5, &want, NULL) == GLICKO_OK && want.rd == r.rd);
	paper_games(&s, glicko2_add_game);
	CHECK(glicko2_close_player(&p, &s, 0.5, 350, &r) == GLICKO_OK);
	CHECK(glicko2_update(&p, &s, 0.5, &want, NULL) == GLICKO_OK);
	CHECK(r.rating == want.rating && r.rd == want.rd && r.volatility == want.volatility);
	CHECK(r.rd < 349.9);
}

static void
test_saturation(void)
{
	Glicko2Rating p = {1e6, 50, 0.06},
				r;
	GlickoSums	s = {0};

	glicko2_add_game(&s, p.rating, 1500, 50, 0);
	CHECK(s.information == 0.0);
	CHECK(glicko2_update(&p, &s, 0.5, &r, NULL) == GLICKO_OK);
	CHECK(r.rating == p.rating && r.volatility == p.volatility && r.rd > p.rd);
}

/*
 * Lopsided games (gaps of 3 400 to 130 000 points) between saturation and
 * normal play: finite, no error, and continuous: an expected result leaves
 * the rating, an upset moves it by about phi*^2 g, whatever the gap.
 */
static void
test_lopsided(void)
{
	static const double gaps[] = {3400, 10000, 40000, 60000, 100000, 120000, 130000};
	Glicko2Rating p = {1500, 30, 0.06},
				won,
				lost;
	size_t		i;

	for (i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++)
	{
		GlickoSums	s = {0};

		glicko2_add_game(&s, p.rating, p.rating + gaps[i], 30, 1);
		CHECK(glicko2_update(&p, &s, 0.5, &won, NULL) == GLICKO_OK);
		s = (GlickoSums)
		{
			0
		};
		glicko2_add_game(&s, p.rating, p.rating + gaps[i], 30, 0);
		CHECK(glicko2_update(&p, &s, 0.5, &lost, NULL) == GLICKO_OK);
		CHECK(isfinite(won.rating) && isfinite(won.rd) && isfinite(won.volatility));
		CHECK(fabs(lost.rating - p.rating) < 1e-6);
		if (gaps[i] < 120000)
			CHECK(won.rating > p.rating + 5 && won.rating < p.rating + 7);
	}
}

/*
 * The sums do not depend on the order of the games or on how they are split
 * between partial states: the parallel plan's result is the serial one.
 */
static void
test_order_free_sums(void)
{
	int			trial;

	srand(4711);
	for (trial = 0; trial < 2000; trial++)
	{
		double		opp[64],
					rd[64],
					score[64];
		int			n = 2 + rand() % 63,
					split = rand() % n,
					j;
		GlickoSums	forward = {0},
					backward = {0},
					left = {0},
					right = {0};

		for (j = 0; j < n; j++)
		{
			opp[j] = 1000 + rand() % 1000 + (rand() % 1000) / 997.0;
			rd[j] = 20 + rand() % 330 + (rand() % 1000) / 991.0;
			score[j] = (rand() % 3) / 2.0;
		}
		for (j = 0; j < n; j++)
			glicko2_add_game(&forward, 1500.25, opp[j], rd[j], score[j]);
		for (j = n - 1; j >= 0; j--)
			glicko2_add_game(&backward, 1500.25, opp[j], rd[j], score[j]);
		for (j = 0; j < n; j++)
			glicko2_add_game(j < split ? &left : &right, 1500.25, opp[j], rd[j], score[j]);
		glicko_merge_sums(&right, &left);
		CHECK(forward.information == backward.information && forward.surprise == backward.surprise);
		CHECK(forward.information == right.information && forward.surprise == right.surprise);
		CHECK(right.games == n);
	}
}

/*
 * Ratings and RDs near the top of the double range are finite input: g
 * must not underflow to 0 and r - r_j must not overflow, or 0 * inf makes
 * E NaN (and NaN sums would fail the aggregate's Assert).
 */
static void
test_huge_values(void)
{
	static const double big[] = {1e100, 1e200, 1e308, 1.7976931348623157e308};
	size_t		i;

	for (i = 0; i < sizeof(big) / sizeof(big[0]); i++)
	{
		Glicko2Rating a = {big[i], big[i], 1},
					b = {-big[i], big[i], 1};
		GlickoSums	s2 = {0},
					s1 = {0};
		double		p = glicko2_win_probability(&a, &b),
					e = glicko2_expected(a.rating, b.rating, b.rd),
					e1 = glicko1_expected(a.rating, b.rating, b.rd);

		CHECK(p >= 0.5 && p <= 1.0);
		CHECK(e >= 0.5 && e <= 1.0);
		CHECK(e1 >= 0.5 && e1 <= 1.0);
		CHECK(glicko2_g(big[i]) > 0.0 && glicko1_g(big[i]) > 0.0);
		glicko2_add_game(&s2, a.rating, b.rating, b.rd, 0);
		glicko1_add_game(&s1, a.rating, b.rating, b.rd, 0);
		CHECK(isfinite(s2.information) && isfinite(s2.surprise));
		CHECK(isfinite(s1.information) && isfinite(s1.surprise));
	}

	/*
	 * g keeps its paper values, and is continuous at the switch to pi/(sqrt 3
	 * phi)
	 */
	CHECK(close_rel(glicko2_g(1e100 * GLICKO2_SCALE), glicko2_g(1.0000001e100 * GLICKO2_SCALE), 1e-6));
}

/* Log-uniform random number in [lo, hi]. */
static double
log_uniform(double lo, double hi)
{
	return exp(log(lo) + (rand() / (double) RAND_MAX) * (log(hi) - log(lo)));
}

/*
 * Properties over random input across SPEC's extremes (rating +-1e6, RD
 * 1e-3..1e4, volatility 1e-6..5, tau 0.01..10, up to 10 000 games):
 *  - the update succeeds with finite output, the Illinois loop well inside
 *    its bound;
 *  - phi' <= phi* (games never add uncertainty);
 *  - replacing a loss by a draw or a win, or a draw by a win, all else
 *    equal, never lowers the new rating.
 * Opponents are drawn near the player so that games carry information.
 */
static void
test_properties(void)
{
	static Glicko2Trace t;
	int			i,
				max_rows = 0;

	srand(6);
	for (i = 0; i < 20000; i++)
	{
		Glicko2Rating p = {-1e6 + 2e6 * (rand() / (double) RAND_MAX),
		log_uniform(1e-3, 1e4), log_uniform(1e-6, 5)},
					r,
					better;
		double		tau = log_uniform(0.01, 10);
		double		opp[8],
					opp_rd[8],
					score[8];
		int			repeat[8],
					n = 1 + rand() % 8,
					j,
					k;
		GlickoSums	s = {0};
		GlickoStatus st;

		for (j = 0; j < n; j++)
		{
			opp[j] = p.rating + (rand() / (double) RAND_MAX - 0.5) * log_uniform(1, 3000);
			opp_rd[j] = log_uniform(1e-3, 1e4);
			score[j] = (rand() % 3) / 2.0;
			repeat[j] = rand() % 4 == 0 ? 1 + rand() % 2500 : 1;
			for (k = 0; k < repeat[j]; k++)
				glicko2_add_game(&s, p.rating, opp[j], opp_rd[j], score[j]);
		}
		st = glicko2_update(&p, &s, tau, &r, &t);
		CHECK(st == GLICKO_OK);
		if (st != GLICKO_OK)
			continue;
		CHECK(isfinite(r.rating) && r.rd > 0 && isfinite(r.rd) &&
			  r.volatility > 0 && isfinite(r.volatility));
		CHECK(t.phi_new <= t.phi_star);
		if (t.n_iterations > max_rows)
			max_rows = t.n_iterations;

		if (score[0] == 1.0)
			continue;
		score[0] = score[0] == 0.0 && rand() % 2 ? 0.5 : 1.0;
		s = (GlickoSums)
		{
			0
		};
		for (j = 0; j < n; j++)
			for (k = 0; k < repeat[j]; k++)
				glicko2_add_game(&s, p.rating, opp[j], opp_rd[j], score[j]);
		CHECK(glicko2_update(&p, &s, tau, &better, NULL) == GLICKO_OK);
		CHECK(better.rating >= r.rating);
	}
	CHECK(max_rows < GLICKO2_MAX_ILLINOIS / 4);
}

/*
 * phi' <= phi* also when the information is negligible beside 1/phi*^2,
 * where the paper's formula can round one ulp above phi* (the fuzzer's
 * first finding).
 */
static void
test_rd_never_grows_from_games(void)
{
	static Glicko2Trace t;
	int			i;

	srand(7);
	for (i = 0; i < 100000; i++)
	{
		Glicko2Rating p = {1500, log_uniform(1e-3, 1e4), log_uniform(1e-6, 5)},
					r;
		GlickoSums	s = {.information = log_uniform(1e-300, 1e-3),.games = 1};

		s.surprise = (rand() / (double) RAND_MAX - 0.5) * sqrt(s.information);
		if (glicko2_update(&p, &s, 0.5, &r, &t) == GLICKO_OK)
			CHECK(t.phi_new <= t.phi_star);
	}
}

/* Random finite input in wide ranges: finite output, bounded loops, win symmetry. */
static void
test_random(void)
{
	int			i;

	srand(20221);
	for (i = 0; i < 20000; i++)
	{
		Glicko2Rating p = {-3000 + rand() % 9000, 1 + rand() % 600, 0.001 + (rand() % 1000) / 500.0},
					q = {-3000 + rand() % 9000, 1 + rand() % 600, 0.06},
					r;
		GlickoSums	s = {0};
		int			games = 1 + rand() % 30,
					j;
		GlickoStatus st;

		for (j = 0; j < games; j++)
			glicko2_add_game(&s, p.rating, -3000 + rand() % 9000, 1 + rand() % 600, (rand() % 3) / 2.0);
		st = glicko2_update(&p, &s, 0.05 + (rand() % 100) / 50.0, &r, NULL);
		CHECK(st == GLICKO_OK);
		if (st == GLICKO_OK)
			CHECK(isfinite(r.rating) && r.rd > 0 && isfinite(r.rd) && r.volatility > 0 && isfinite(r.volatility));
		CHECK(fabs(glicko2_win_probability(&p, &q) + glicko2_win_probability(&q, &p) - 1) < 1e-12);
	}
}

/*
 * The normal quantile (AS 241) against Phi^-1 computed with mpmath at 60
 * digits for the double nearest each p, both tails and the centre; then
 * Phi(z) = p through libm's erfc over many p, which would catch a wrong
 * coefficient anywhere.
 */
static void
test_quantile(void)
{
	static const double cases[][2] = {
		{1e-300, -37.047096299361199237}, {1e-20, -9.2623400897984075796},
		{1e-05, -4.2648907939228246102}, {0.025, -1.9599639845400542118},
		{0.07, -1.4757910281791706856}, {0.08, -1.4050715603096325447},
		{0.3, -0.52440051270804081597}, {0.6, 0.25334710313579974132},
	{0.92, 1.4050715603096328248}, {0.975, 1.9599639845400538556}};
	static const double confidences[][2] = {
		{1e-10, 1.2533141373155002969e-10}, {0.5, 0.6744897501960817432},
		{0.6827, 1.00002171332299911}, {0.9, 1.6448536269514728225},
		{0.95, 1.9599639845400538556}, {0.99, 2.5758293035489004539},
	{0.999999, 4.8916384756929317718}, {0.999999999999999, 8.0269570180338918552}};
	size_t		i;
	int			j;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(close_rel(glicko_normal_quantile(cases[i][0]), cases[i][1], 2e-15));
	for (i = 0; i < sizeof(confidences) / sizeof(confidences[0]); i++)
		CHECK(close_rel(glicko_confidence_deviations(confidences[i][0]), confidences[i][1], 2e-15));
	CHECK(glicko_normal_quantile(0.5) == 0.0);
	CHECK(glicko_confidence_deviations(0.0) == 0.0);
	CHECK(fabs(glicko_confidence_deviations(0.95) - 1.959963984540054) < 1e-15);
	CHECK(isnan(glicko_normal_quantile(0.0)) && isnan(glicko_normal_quantile(1.0)) &&
		  isnan(glicko_normal_quantile(NAN)));
	CHECK(isnan(glicko_confidence_deviations(1.0)) && isnan(glicko_confidence_deviations(-0.1)) &&
		  isnan(glicko_confidence_deviations(NAN)));

	for (j = 1; j < 100000; j++)
	{
		double		p = j / 200000.0;	/* (0, 0.5): Phi(z) is precise there */
		double		z = glicko_normal_quantile(p);

		CHECK(close_rel(0.5 * erfc(-z / M_SQRT2), p, 1e-13));
		/* symmetry, against the p that 1 - p really stands for */
		CHECK(close_rel(glicko_normal_quantile(1.0 - p),
						-glicko_normal_quantile(1.0 - (1.0 - p)), 1e-14));
	}
}

/* Step 2 and Step 8 are inverse to each other and to glicko2_update's scale. */
static void
test_scale(void)
{
	Glicko2Rating p = {1500, 200, 0.06},
				back;
	Glicko2Scaled s;
	double		lo,
				hi;

	glicko2_to_scaled(&p, &s);
	CHECK(s.mu == 0.0 && close_rel(s.phi, 1.1512924985234674, 1e-15) && s.sigma == 0.06);
	CHECK(glicko2_from_scaled(&s, &back) == GLICKO_OK);
	CHECK(close_rel(back.rating, 1500, 1e-15) && close_rel(back.rd, 200, 1e-15));
	s.phi = 0.0;
	CHECK(glicko2_from_scaled(&s, &back) == GLICKO_OUT_OF_RANGE);
	CHECK(glicko_interval(1850, 50, 2, &lo, &hi) == GLICKO_OK && lo == 1750 && hi == 1950);
	CHECK(glicko_interval(1e308, 1e308, 2, &lo, &hi) == GLICKO_OUT_OF_RANGE);
}

/* Teams: composite means, order-free (their win probability: team_test.c). */
static void
test_teams(void)
{
	Glicko2Rating a[3] = {{1100, 300, 0.06}, {1200, 310, 0.05}, {1300, 320, 0.07}};
	Glicko2Rating rev[3] = {a[2], a[1], a[0]};
	Glicko2Rating c,
				c2;

	glicko_team_composite(a, 3, &c);
	CHECK(c.rating == 1200 && c.rd == 310 && close_rel(c.volatility, 0.06, 1e-15));
	glicko_team_composite(rev, 3, &c2);
	CHECK(c.rating == c2.rating && c.rd == c2.rd && c.volatility == c2.volatility);
	/* Order-free for many players whose sum is not exact in a double. */
	{
		Glicko2Rating many[200],
					shuffled[200];

		for (int i = 0; i < 200; i++)
		{
			many[i].rating = 1500 + 700 * sin(i * 1.7) + 1e-9 * i;
			many[i].rd = 30 + 300 * fabs(cos(i * 0.3));
			many[i].volatility = 0.06;
		}
		for (int i = 0; i < 200; i++)
			shuffled[i] = many[(i * 37) % 200];
		glicko_team_composite(many, 200, &c);
		glicko_team_composite(shuffled, 200, &c2);
		CHECK(c.rating == c2.rating && c.rd == c2.rd);
	}
}

/*
 * Advantage: a constant added to the player's rating inside E only.
 * Zero gives the functions without it bit for bit; A on the player is the
 * player rated A points higher in E (the update still starts from the
 * player's own rating); and the paper's example at home (+50) and away (-50)
 * against figures from a direct transcription of the paper's Steps 2-8 with
 * E(mu + A/173.7178, mu_j, phi_j) (double precision, in Python).
 */
static void
test_advantage(void)
{
	static const double ratings[] = {-1e308, -3e5, 0, 1400, 1500, 1500.5, 2700, 1e308};
	static const double rds[] = {1e-3, 30, 350, 1e300};
	Glicko2Rating p = {1500, 200, 0.06},
				r;
	GlickoSums	s = {0};

	for (size_t i = 0; i < sizeof(ratings) / sizeof(ratings[0]); i++)
		for (size_t j = 0; j < sizeof(ratings) / sizeof(ratings[0]); j++)
			for (size_t k = 0; k < sizeof(rds) / sizeof(rds[0]); k++)
			{
				GlickoTerms a = glicko2_terms(ratings[i], ratings[j], rds[k], 1),
							b = glicko2_terms_advantage(ratings[i], 0.0, ratings[j], rds[k], 1);
				Glicko2Rating x = {ratings[i], rds[k], 0.06},
							y = {ratings[j], 50, 0.06};

				CHECK(a.information == b.information && a.surprise == b.surprise);
				CHECK(glicko2_win_probability(&x, &y) ==
					  glicko2_win_probability_advantage(&x, &y, 0.0));
				/* never NaN, even with an advantage at the edge of double */
				b = glicko2_terms_advantage(ratings[i], -1e308, ratings[j], rds[k], 0.5);
				CHECK(isfinite(b.information) && isfinite(b.surprise));
				CHECK(isfinite(glicko2_win_probability_advantage(&x, &y, 1e308)));
			}

	/* +100 on 1500 is 1600 in E (both gaps exact) */
	{
		GlickoTerms a = glicko2_terms(1600, 1400, 30, 1),
					b = glicko2_terms_advantage(1500, 100, 1400, 30, 1);
		Glicko2Rating x = {1500, 200, 0.06},
					x100 = {1600, 200, 0.06},
					y = {1600, 100, 0.06};

		CHECK(a.information == b.information && a.surprise == b.surprise);
		CHECK(glicko2_win_probability_advantage(&x, &y, 100) ==
			  glicko2_win_probability(&x100, &y));
		/* home side +A against away side -A: the two predictions add up to 1 */
		CHECK(fabs(glicko2_win_probability_advantage(&x, &y, 60) +
				   glicko2_win_probability_advantage(&y, &x, -60) - 1) < 1e-15);
		/* 1/(1 + exp(-g(hypot(200, 100)/173.7178) (1560 - 1600)/173.7178)) */
		CHECK(close_rel(glicko2_win_probability_advantage(&x, &y, 60),
						0.4531927493148511, 1e-14));
		CHECK(glicko2_win_probability_advantage(&x, &y, 100) == 0.5);
	}

	s = (GlickoSums)
	{
		0
	};
	{
		GlickoTerms g1 = glicko2_terms_advantage(1500, 50, 1400, 30, 1),
					g2 = glicko2_terms_advantage(1500, 50, 1550, 100, 0),
					g3 = glicko2_terms_advantage(1500, 50, 1700, 300, 0);

		glicko_add_terms(&s, &g1);
		glicko_add_terms(&s, &g2);
		glicko_add_terms(&s, &g3);
	}
	CHECK(glicko2_update(&p, &s, 0.5, &r, NULL) == GLICKO_OK);
	CHECK(close_rel(r.rating, 1442.4011971050054, 1e-11));
	CHECK(close_rel(r.rd, 152.02683441881206, 1e-11));
	CHECK(close_rel(r.volatility, 0.05999653626799101, 1e-11));

	s = (GlickoSums)
	{
		0
	};
	{
		GlickoTerms g1 = glicko2_terms_advantage(1500, -50, 1400, 30, 1),
					g2 = glicko2_terms_advantage(1500, -50, 1550, 100, 0),
					g3 = glicko2_terms_advantage(1500, -50, 1700, 300, 0);

		glicko_add_terms(&s, &g1);
		glicko_add_terms(&s, &g2);
		glicko_add_terms(&s, &g3);
	}
	CHECK(glicko2_update(&p, &s, 0.5, &r, NULL) == GLICKO_OK);
	CHECK(close_rel(r.rating, 1485.2594489277853, 1e-11));
	CHECK(close_rel(r.rd, 151.94679517476786, 1e-11));
	CHECK(close_rel(r.volatility, 0.05999574516203107, 1e-11));
}

static int
same_rating(const Glicko2Rating *a, const Glicko2Rating *b)
{
	return a->rating == b->rating && a->rd == b->rd && a->volatility == b->volatility;
}

/*
 * Step 6 over t elapsed periods.  t = 1 is glicko2_update bit for bit (the
 * paper's games together and one at a time, and random games); t = 0 and
 * t = 0.5 checked against the paper's formulas written out here.
 */
static void
test_elapsed(void)
{
	static const double opp[3][3] = {{1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
	Glicko2Rating p = {1500, 200, 0.06},
				a,
				b;
	GlickoSums	s = {0};
	Glicko2Trace t;

	paper_games(&s, glicko2_add_game);
	CHECK(glicko2_update(&p, &s, 0.5, &a, NULL) == GLICKO_OK);
	CHECK(glicko2_update_elapsed(&p, &s, 0.5, 1.0, &b, NULL) == GLICKO_OK);
	CHECK(same_rating(&a, &b));

	for (int i = 0; i < 3; i++)
	{
		double		mu = 0.0,
					phi = 200 / GLICKO2_SCALE,
					g,
					e,
					v,
					sigma,
					phi_new,
					mu_new;

		s = (GlickoSums)
		{
			0
		};
		glicko2_add_game(&s, p.rating, opp[i][0], opp[i][1], opp[i][2]);
		CHECK(glicko2_update(&p, &s, 0.5, &a, NULL) == GLICKO_OK);
		CHECK(glicko2_update_elapsed(&p, &s, 0.5, 1.0, &b, NULL) == GLICKO_OK);
		CHECK(same_rating(&a, &b));

		/* t = 0: phi* = phi, then Step 7 and 8 as the paper writes them. */
		CHECK(glicko2_update_elapsed(&p, &s, 0.5, 0.0, &b, &t) == GLICKO_OK);
		g = 1 / sqrt(1 + 3 * pow(opp[i][1] / GLICKO2_SCALE, 2) / (M_PI * M_PI));
		e = 1 / (1 + exp(-g * (mu - (opp[i][0] - 1500) / GLICKO2_SCALE)));
		v = 1 / (g * g * e * (1 - e));
		sigma = b.volatility;
		CHECK(sigma == a.volatility);	/* Step 5 does not depend on t */
		CHECK(close_rel(t.v, v, 1e-12));
		phi_new = 1 / sqrt(1 / (phi * phi) + 1 / v);
		mu_new = mu + phi_new * phi_new * g * (opp[i][2] - e);
		CHECK(t.phi_star == phi);
		CHECK(close_rel(b.rd, GLICKO2_SCALE * phi_new, 1e-12));
		CHECK(close_rel(b.rating, GLICKO2_SCALE * mu_new + 1500, 1e-12));
		CHECK(b.rd < a.rd);

		/* t = 0.5: half a period's growth. */
		CHECK(glicko2_update_elapsed(&p, &s, 0.5, 0.5, &b, &t) == GLICKO_OK);
		CHECK(close_rel(t.phi_star, sqrt(phi * phi + 0.5 * sigma * sigma), 1e-15));
		CHECK(close_rel(b.rd, GLICKO2_SCALE / sqrt(1 / (t.phi_star * t.phi_star) + 1 / v), 1e-12));
	}

	srand(11);
	for (int trial = 0; trial < 2000; trial++)
	{
		Glicko2Rating q = {1000 + rand() % 1000, 20 + rand() % 330, 0.02 + (rand() % 100) / 1000.0};
		double		tau = 0.1 + (rand() % 100) / 50.0;

		s = (GlickoSums)
		{
			0
		};
		glicko2_add_game(&s, q.rating, 1000 + rand() % 1000, 20 + rand() % 330, (rand() % 3) / 2.0);
		CHECK(glicko2_update(&q, &s, tau, &a, NULL) == GLICKO_OK);
		CHECK(glicko2_update_elapsed(&q, &s, tau, 1.0, &b, NULL) == GLICKO_OK);
		CHECK(same_rating(&a, &b));
	}

	/* A game with no information at t = 0 changes nothing but rounding. */
	p = (Glicko2Rating)
	{
		1e6, 50, 0.06
	};
	s = (GlickoSums)
	{
		0
	};
	glicko2_add_game(&s, p.rating, 1500, 50, 0);
	CHECK(glicko2_update_elapsed(&p, &s, 0.5, 0.0, &b, NULL) == GLICKO_OK);
	CHECK(b.rating == p.rating && close_rel(b.rd, p.rd, 1e-15) && b.volatility == p.volatility);
}

/*
 * Live games: both players' RDs grown for their idle time first (capped),
 * then each updated from both grown ratings at t = 0; no idle time leaves a
 * rating exactly as it was.
 */
static void
test_live_game(void)
{
	Glicko2Rating a = {1500, 200, 0.06},
				b = {1400, 30, 0.06},
				ga,
				gb,
				na,
				nb,
				want;

	CHECK(glicko2_grown(&a, 0.0, 350, &ga) == GLICKO_OK && same_rating(&a, &ga));
	CHECK(glicko2_grown(&a, 2.5, 350, &ga) == GLICKO_OK);
	CHECK(close_rel(ga.rd, GLICKO2_SCALE * sqrt(pow(200 / GLICKO2_SCALE, 2) + 2.5 * 0.06 * 0.06), 1e-15));
	CHECK(glicko2_grown(&a, 1e9, 350, &ga) == GLICKO_OK && ga.rd == 350);

	CHECK(glicko2_live_game(&a, 2.5, &b, 0.25, 1, 0.5, 350, &na, &nb) == GLICKO_OK);
	CHECK(glicko2_grown(&a, 2.5, 350, &ga) == GLICKO_OK);
	CHECK(glicko2_grown(&b, 0.25, 350, &gb) == GLICKO_OK);
	CHECK(glicko2_single_game(&ga, &gb, 1, 0.5, 0.0, &want) == GLICKO_OK && same_rating(&na, &want));
	CHECK(glicko2_single_game(&gb, &ga, 0, 0.5, 0.0, &want) == GLICKO_OK && same_rating(&nb, &want));
	CHECK(na.rating > a.rating && nb.rating < b.rating);
	CHECK(na.rd < ga.rd && nb.rd < gb.rd);
}

int
main(void)
{
	test_paper();
	test_glicko1();
	test_idle();
	test_close_player();
	test_saturation();
	test_lopsided();
	test_order_free_sums();
	test_random();
	test_properties();
	test_huge_values();
	test_rd_never_grows_from_games();
	test_quantile();
	test_scale();
	test_teams();
	test_advantage();
	test_elapsed();
	test_live_game();
	printf("math_test: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
