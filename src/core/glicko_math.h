/*
 * glicko_math.h — the Glicko-2 and Glicko-1 rating mathematics.
 *
 * Plain C99 with libm: nothing here knows PostgreSQL, so the file can be
 * compiled, tested and fuzzed on its own.  The algorithm is Mark Glickman's
 * "Example of the Glicko-2 system" (2022), Steps 1-8, and his "The Glicko
 * system" for Glicko-1.  Ratings cross this interface on the public scale
 * (1500 / 350); the Glicko-2 scale (mu, phi) stays inside glicko_math.c.
 */
#ifndef GLICKO_MATH_H
#define GLICKO_MATH_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

/* Step 2: one Glicko-2 unit is 173.7178 Glicko points, centred on 1500. */
#define GLICKO2_SCALE 173.7178
#define GLICKO2_CENTRE 1500.0

/* Step 1(a): the unrated player. */
#define GLICKO2_DEFAULT_RATING 1500.0
#define GLICKO2_DEFAULT_RD 350.0
#define GLICKO2_DEFAULT_VOLATILITY 0.06
#define GLICKO2_DEFAULT_TAU 0.5

/* Step 5: the paper's convergence tolerance. */
#define GLICKO2_EPSILON 0.000001

/*
 * Loop bounds.  The paper saw at most 19 Illinois iterations in 10 000
 * simulations and says the Step 5.2 search almost always stops at k = 1;
 * f(a - k tau) > k/tau - 1/2, so the search ends once k exceeds tau/2.
 * The bounds are far above both and only stop pathological input.
 */
#define GLICKO2_MAX_ILLINOIS 200
#define GLICKO2_MAX_BRACKET 100000

/* Glicko-1's default c: Glickman's "The Glicko system", Step 1, takes
 * RD 50 back to 350 in 100 periods: c = sqrt((350^2 - 50^2) / 100) ~ 34.6. */
#define GLICKO1_DEFAULT_C 34.6

typedef struct Glicko2Rating
{
	double		rating;
	double		rd;
	double		volatility;
} Glicko2Rating;

typedef struct Glicko1Rating
{
	double		rating;
	double		rd;
} Glicko1Rating;

/*
 * What one player's games of one period add up to.  Both Glicko systems
 * need only two sums over the games, so the state is fixed-size, and two
 * partial sums over disjoint games combine by addition.
 *   information = sum g(phi_j)^2 E_j (1 - E_j)      (1/v in Step 3)
 *   surprise    = sum g(phi_j) (s_j - E_j)          (Delta / v in Step 4)
 * Each sum is kept in double-double: the double nearest the exact sum plus
 * the rounding error left over (*_low).  That makes the sum independent of
 * the order of the games, so a parallel plan, which adds them in another
 * order, gets the same doubles, and so the same Step 5 iteration (whose
 * stopping rule would turn a last-bit difference into 1e-7 in sigma').
 */
typedef struct GlickoSums
{
	double		information;
	double		information_low;
	double		surprise;
	double		surprise_low;
	int64_t		games;
} GlickoSums;

/* Double-double addition of x_hi + x_lo to hi + lo: the sums of GlickoSums,
 * whose result does not depend on the order of the terms. */
extern void glicko_dd_add(double *hi, double *lo, double x_hi, double x_lo);

/* One game's terms of the two sums. */
typedef struct GlickoTerms
{
	double		information;
	double		surprise;
} GlickoTerms;

typedef enum GlickoStatus
{
	GLICKO_OK = 0,
	GLICKO_OUT_OF_RANGE,		/* a result does not fit in a double */
	GLICKO_NO_CONVERGENCE		/* a loop bound was reached */
} GlickoStatus;

/* One row of the paper's Step 5 iteration table. */
typedef struct Glicko2Iteration
{
	double		A;
	double		B;
	double		fA;
	double		fB;
} Glicko2Iteration;

/*
 * Every intermediate quantity of one Glicko-2 update (for explanations).
 * iterations[0] holds the starting values, as in the paper's table.
 */
typedef struct Glicko2Trace
{
	double		mu;
	double		phi;
	double		v;
	double		delta;
	double		a;
	int			k;				/* Step 5.2 search steps; 0 if not needed */
	bool		no_information; /* every E saturated: Step 6 only */
	int			n_iterations;
	Glicko2Iteration iterations[GLICKO2_MAX_ILLINOIS + 1];
	double		sigma_new;
	double		phi_star;
	double		phi_new;
	double		mu_new;
} Glicko2Trace;

/* Validity of values: finite, and RD, volatility and tau positive.
 * Inline: the aggregates check every row. */
static inline bool
glicko_valid_rating_value(double rating)
{
	return isfinite(rating);
}

static inline bool
glicko_valid_positive(double x)
{
	return isfinite(x) && x > 0.0;
}

static inline bool
glicko_valid_score(double score)
{
	return isfinite(score) && score >= 0.0 && score <= 1.0;
}

/* Glicko-2 (Step 3's g and E on the Glicko-2 scale, inputs on the public scale). */
extern double glicko2_g(double opponent_rd);
extern double glicko2_expected(double rating, double opponent_rating, double opponent_rd);
extern double glicko2_win_probability(const Glicko2Rating *a, const Glicko2Rating *b);
extern GlickoTerms glicko2_terms(double rating, double opponent_rating,
								 double opponent_rd, double score);

/* With an advantage: the player's rating counts `advantage` points more in
 * E for this game (+A at home or with the first move, -A away, 0 neutral);
 * advantage 0 gives the functions above bit for bit. */
extern double glicko2_win_probability_advantage(const Glicko2Rating *a,
												const Glicko2Rating *b,
												double advantage);
extern GlickoTerms glicko2_terms_advantage(double rating, double advantage,
										   double opponent_rating,
										   double opponent_rd, double score);
extern void glicko2_add_game(GlickoSums *sums, double rating,
							 double opponent_rating, double opponent_rd,
							 double score);
extern GlickoStatus glicko2_update(const Glicko2Rating *player,
								   const GlickoSums *sums, double tau,
								   Glicko2Rating *result, Glicko2Trace *trace);
extern GlickoStatus glicko2_update_elapsed(const Glicko2Rating *player,
										   const GlickoSums *sums, double tau,
										   double elapsed, Glicko2Rating *result,
										   Glicko2Trace *trace);
extern GlickoStatus glicko2_single_game(const Glicko2Rating *player,
										const Glicko2Rating *opponent,
										double score, double tau, double elapsed,
										Glicko2Rating *result);
extern GlickoStatus glicko2_grown(const Glicko2Rating *player, double periods,
								  double max_rd, Glicko2Rating *result);
extern GlickoStatus glicko2_live_game(const Glicko2Rating *player, double player_idle,
									  const Glicko2Rating *opponent, double opponent_idle,
									  double score, double tau, double max_rd,
									  Glicko2Rating *new_player,
									  Glicko2Rating *new_opponent);
extern GlickoStatus glicko2_idle(const Glicko2Rating *player, double periods,
								 double max_rd, Glicko2Rating *result);

/*
 * Step 1(a)'s unrated player in a league whose RD is capped at max_rd
 * (INFINITY: no cap): 1500 / min(350, max_rd) / 0.06.  max_rd is the RD of
 * knowing nothing about a player there (idle players grow back to it), so a
 * new player starts no wider; the paper's 350 where max_rd >= 350.
 */
extern Glicko2Rating glicko2_unrated(double max_rd);

/* A player's rating after a period close: the update from the period's sums,
 * or without games Step 6 for one period capped at max_rd (INFINITY: no cap). */
extern GlickoStatus glicko2_close_player(const Glicko2Rating *player,
										 const GlickoSums *sums, double tau,
										 double max_rd, Glicko2Rating *result);

/*
 * A new rating a close may write (docs/close.md, "Ratings the games cannot
 * justify"): after a period with games, a volatility above
 * glicko2_max_raised_volatility(tau) = max(1, tau) only if it rose by at most
 * 1 % (as Step 5 moves one by an ulp).
 */
#define GLICKO2_MAX_RAISED_VOLATILITY 1.0
static inline double
glicko2_max_raised_volatility(double tau)
{
	return tau > GLICKO2_MAX_RAISED_VOLATILITY ? tau : GLICKO2_MAX_RAISED_VOLATILITY;
}
extern bool glicko2_justified(const Glicko2Rating *pre, const Glicko2Rating *post,
							  double tau);

/* Glicko-1. */
extern double glicko1_g(double opponent_rd);
extern double glicko1_expected(double rating, double opponent_rating, double opponent_rd);
extern GlickoTerms glicko1_terms(double rating, double opponent_rating,
								 double opponent_rd, double score);
extern void glicko1_add_game(GlickoSums *sums, double rating,
							 double opponent_rating, double opponent_rd,
							 double score);
extern GlickoStatus glicko1_update(const Glicko1Rating *player,
								   const GlickoSums *sums,
								   Glicko1Rating *result);
extern GlickoStatus glicko1_idle(const Glicko1Rating *player, double periods,
								 double c, double max_rd, Glicko1Rating *result);

/* Teams: the composite opponent of Williams (2013), means of the players'
 * rating, RD and volatility (its win probability: team.h). */
extern void glicko_team_composite(const Glicko2Rating *players, int n,
								  Glicko2Rating *out);
extern void glicko_team_composite_of(const Glicko2Rating *players, const double *weights,
									 const int *index, int n, Glicko2Rating *out);

/* One game's terms from g and the exponent z of E (E = glicko_logistic(z)). */
extern GlickoTerms glicko2_terms_gz(double g, double z, double score);
extern double glicko_logistic(double z);

/* Both systems. */
extern void glicko_add_terms(GlickoSums *sums, const GlickoTerms *game);
extern void glicko_merge_sums(GlickoSums *into, const GlickoSums *from);

/* Whether a game side's terms are ones a game can give: finite, the
 * information not negative (the closes check terms they are given). */
extern bool glicko_terms_valid(const GlickoTerms *terms);

/*
 * Reading ratings: intervals, the normal quantile behind them, and the
 * Glicko-2 scale of Step 2.
 */
typedef struct Glicko2Scaled
{
	double		mu;
	double		phi;
	double		sigma;
} Glicko2Scaled;

extern double glicko_normal_quantile(double p);
extern double glicko_confidence_deviations(double confidence);
extern GlickoStatus glicko_interval(double rating, double rd, double deviations,
									double *lower, double *upper);
extern void glicko2_to_scaled(const Glicko2Rating *r, Glicko2Scaled *out);
extern GlickoStatus glicko2_from_scaled(const Glicko2Scaled *s, Glicko2Rating *out);

#endif							/* GLICKO_MATH_H */
