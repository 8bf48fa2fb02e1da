/*
 * fuzz_math.c — libFuzzer harness for the PostgreSQL-free mathematics.
 *
 * The input bytes choose a player, tau and up to 64 kinds of games (each
 * repeated up to 1000 times).  Two modes, picked by the first byte:
 *   raw:    any finite doubles the SQL layer would accept (rating finite;
 *           RD, volatility, tau positive; score in [0, 1]).  The update may
 *           refuse (GLICKO_OUT_OF_RANGE / NO_CONVERGENCE, an SQL ERROR) but
 *           must never report success with a non-finite or non-positive
 *           field.
 *   domain: the ranges of SPEC's extremes (rating +-1e6, RD 1e-3..1e4,
 *           volatility 1e-6..5, tau 0.01..10).  There the update must
 *           succeed, and it must obey the properties: phi' <= phi*, the
 *           Illinois iterations stay within bounds, and replacing the first
 *           game's score by a higher one never lowers the new rating.
 * A violated property calls abort(), which libFuzzer reports as a crash;
 * hangs are caught by libFuzzer's -timeout.
 */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/glicko_math.h"

#define MAX_KINDS 64

typedef struct Reader
{
	const uint8_t *p;
	size_t		left;
} Reader;

static uint64_t
take(Reader *r, size_t n)
{
	uint64_t	v = 0;

	while (n-- > 0 && r->left > 0)
	{
		v = (v << 8) | *r->p++;
		r->left--;
	}
	return v;
}

/*
 * A double for raw mode: one byte picks either a value from the edges of
 * the double range (where mutations of random bits rarely land) or the bit
 * pattern of the next 8 bytes (NaN and infinities included).
 */
static double
take_raw(Reader *r)
{
	static const double edges[] = {
		DBL_MAX, 1e308, 1e200, 1.5e154, 1e100, 1e15, 1e6, 1500, 350, 1, 0.5,
		0.06, 1e-6, 1e-100, 1e-300, DBL_MIN, 4.9406564584124654e-324, 0
	};
	uint64_t	kind = take(r, 1);
	uint64_t	bits;
	double		d;

	if (kind < 2 * sizeof(edges) / sizeof(edges[0]))
		return (kind & 1 ? -1.0 : 1.0) * edges[kind / 2];
	bits = take(r, 8);
	memcpy(&d, &bits, sizeof(d));
	return d;
}

/* A uniform number in [0, 1] from 4 bytes. */
static double
take_unit(Reader *r)
{
	return (double) take(r, 4) / 4294967295.0;
}

/* Log-uniform in [lo, hi]. */
static double
take_log(Reader *r, double lo, double hi)
{
	return exp(log(lo) + take_unit(r) * (log(hi) - log(lo)));
}

/* A score: mostly 0, 0.5 or 1, sometimes anything in [0, 1]. */
static double
take_score(Reader *r)
{
	uint64_t	kind = take(r, 1);

	if (kind % 4 == 3)
		return take_unit(r);
	return (double) (kind % 4) / 2.0;
}

typedef struct Game
{
	double		rating;
	double		rd;
	double		score;
	int			repeat;
} Game;

/* Report a violated property with the player and tau, then crash. */
static Glicko2Rating failing_player;
static double failing_tau;

#define fail() fail_at(__LINE__)

static void
fail_at(int line)
{
	fprintf(stderr, "fuzz_math: property at line %d violated for player (%.17g, %.17g, %.17g), tau %.17g\n",
			line, failing_player.rating, failing_player.rd,
			failing_player.volatility, failing_tau);
	abort();
}

static GlickoStatus
rate(const Glicko2Rating *p, const Game *games, int n, double tau,
	 Glicko2Rating *out, Glicko2Trace *trace, GlickoSums *s)
{
	int			i,
				j;

	*s = (GlickoSums)
	{
		0
	};
	for (i = 0; i < n; i++)
		for (j = 0; j < games[i].repeat; j++)
			glicko2_add_game(s, p->rating, games[i].rating, games[i].rd, games[i].score);
	return glicko2_update(p, s, tau, out, trace);
}

static int
finite_rating(const Glicko2Rating *r)
{
	return isfinite(r->rating) && glicko_valid_positive(r->rd) &&
		glicko_valid_positive(r->volatility);
}

/* Glicko-1, idle and predictions on the same input: finite when they succeed. */
static void
check_others(const Glicko2Rating *p, const Game *g, int n)
{
	Glicko1Rating p1 = {p->rating, p->rd},
				r1;
	Glicko2Rating o = {g[0].rating, g[0].rd, 0.06},
				r2;
	GlickoSums	s = {0};
	double		e;
	int			i;

	for (i = 0; i < n; i++)
		glicko1_add_game(&s, p1.rating, g[i].rating, g[i].rd, g[i].score);
	if (glicko1_update(&p1, &s, &r1) == GLICKO_OK &&
		!(isfinite(r1.rating) && glicko_valid_positive(r1.rd)))
		fail();
	if (glicko2_idle(p, g[0].score * 100.0, 350.0, &r2) == GLICKO_OK && !finite_rating(&r2))
		fail();
	if (glicko1_idle(&p1, g[0].score * 100.0, GLICKO1_DEFAULT_C, INFINITY, &r1) == GLICKO_OK &&
		!(isfinite(r1.rating) && glicko_valid_positive(r1.rd)))
		fail();
	/* intervals and the Glicko-2 scale: finite when they succeed */
	{
		double		lower,
					upper,
					conf = g[0].score < 1.0 ? g[0].score : 0.5,
					k = glicko_confidence_deviations(conf);
		Glicko2Scaled sc;

		if (!(isfinite(k) && k >= 0.0))
			fail();
		if (glicko_interval(p->rating, p->rd, k, &lower, &upper) == GLICKO_OK &&
			!(isfinite(lower) && isfinite(upper) && lower <= upper))
			fail();
		glicko2_to_scaled(p, &sc);
		if (glicko2_from_scaled(&sc, &r2) == GLICKO_OK && !finite_rating(&r2))
			fail();
	}
	e = glicko2_win_probability(p, &o);
	if (!(e >= 0.0 && e <= 1.0))
		fail();
	e = glicko2_expected(p->rating, o.rating, o.rd);
	if (!(e >= 0.0 && e <= 1.0))
		fail();
}

int			LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static Glicko2Trace trace;
	static int	max_iterations = 0,
				max_k = 0;
	Reader		r = {data, size};
	int			domain = take(&r, 1) & 1;
	Glicko2Rating p,
				res,
				better;
	Game		games[MAX_KINDS];
	double		tau;
	int			n = 0;
	GlickoSums	sums;
	GlickoStatus st;

	if (domain)
	{
		p.rating = -1e6 + 2e6 * take_unit(&r);
		p.rd = take_log(&r, 1e-3, 1e4);
		p.volatility = take_log(&r, 1e-6, 5);
		tau = take_log(&r, 0.01, 10);
	}
	else
	{
		p.rating = take_raw(&r);
		p.rd = take_raw(&r);
		p.volatility = take_raw(&r);
		tau = take_raw(&r);
		if (!glicko_valid_rating_value(p.rating) || !glicko_valid_positive(p.rd) ||
			!glicko_valid_positive(p.volatility) || !glicko_valid_positive(tau))
			return 0;
	}

	while (r.left > 0 && n < MAX_KINDS)
	{
		Game	   *g = &games[n];

		if (domain)
		{
			g->rating = -1e6 + 2e6 * take_unit(&r);
			/* half the opponents near the player, so games carry information */
			if (take(&r, 1) & 1)
				g->rating = p.rating + (g->rating - p.rating) * 1e-3;
			g->rd = take_log(&r, 1e-3, 1e4);
		}
		else
		{
			g->rating = take_raw(&r);
			g->rd = take_raw(&r);
		}
		g->score = take_score(&r);
		g->repeat = 1 + (int) (take(&r, 2) % 1000);
		if (!glicko_valid_rating_value(g->rating) || !glicko_valid_positive(g->rd) ||
			!glicko_valid_score(g->score))
			return 0;
		n++;
	}
	if (n == 0)
		return 0;
	failing_player = p;
	failing_tau = tau;

	st = rate(&p, games, n, tau, &res, &trace, &sums);
	if (st == GLICKO_OK && !finite_rating(&res))
		fail();
	check_others(&p, games, n);
	if (!domain)
		return 0;

	/*
	 * Domain mode: success and the properties.  The one refusal allowed is an
	 * upset of negligible information (I < 1e-290): Glicko-2 then moves the
	 * rating by about S/I Glicko-2 units, which overflows a double.
	 */
	if (st == GLICKO_OUT_OF_RANGE && sums.information < 1e-290)
		return 0;
	if (st != GLICKO_OK)
		fail();
	if (trace.n_iterations > max_iterations || trace.k > max_k)
	{
		max_iterations = fmax(max_iterations, trace.n_iterations);
		max_k = fmax(max_k, trace.k);
		fprintf(stderr, "fuzz_math: new maximum: %d Illinois rows, k = %d\n",
				max_iterations, max_k);
	}
	if (!(trace.phi_new <= trace.phi_star))
	{
		fprintf(stderr, "phi' %.17g > phi* %.17g (v %.17g)\n",
				trace.phi_new, trace.phi_star, trace.v);
		fail();
	}
	if (games[0].score < 1.0)
	{
		/* a loss (or any low score) becomes a draw or a win, a draw a win */
		if (games[0].score < 0.5 && (games[0].repeat & 1))
			games[0].score = 0.5;
		else
			games[0].score = 1.0;
		st = rate(&p, games, n, tau, &better, NULL, &sums);
		if (st == GLICKO_OUT_OF_RANGE && sums.information < 1e-290)
			return 0;
		if (st != GLICKO_OK)
			fail();
		if (better.rating < res.rating)
		{
			fprintf(stderr, "score up, rating down: %.17g < %.17g (sigma' %.17g, I %.17g)\n",
					better.rating, res.rating, res.volatility, sums.information);
			fail();
		}
	}
	return 0;
}
