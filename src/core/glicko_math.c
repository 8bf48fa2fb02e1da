/*
 * glicko_math.c — Glicko-2 and Glicko-1 rating updates, PostgreSQL-free.
 *
 * Step numbers refer to Glickman, "Example of the Glicko-2 system" (2022).
 */
#include "glicko_math.h"

#include <float.h>
#include <stddef.h>
#include <math.h>

#define PI_SQUARED (M_PI * M_PI)

/* Glicko-1's q = ln(10) / 400. */
#define GLICKO1_Q (M_LN10 / 400.0)

/*
 * The logistic pair E = 1/(1 + exp(-z)) and 1 - E = 1/(1 + exp(z)), each
 * computed without subtraction so that a lopsided game keeps its small
 * probability instead of rounding it to zero on one side only.
 */
static inline void
logistic_pair(double z, double *e, double *one_minus_e)
{
	if (z >= 0.0)
	{
		double		t = exp(-z);

		*e = 1.0 / (1.0 + t);
		*one_minus_e = t / (1.0 + t);
	}
	else
	{
		double		t = exp(z);

		*e = t / (1.0 + t);
		*one_minus_e = 1.0 / (1.0 + t);
	}
}

/*
 * Step 3: g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2), on the Glicko-2 scale.
 * Beyond phi = 1e100 the 1 is negligible and phi^2 would overflow to make
 * g exactly 0 (and 0 times an infinite gap NaN): there g = pi / (sqrt 3 phi).
 */
static inline double
g_of_phi(double phi)
{
	if (phi > 1e100)
		return M_PI / sqrt(3.0) / phi;
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / PI_SQUARED);
}

/*
 * g (r - r_j) / 173.7178, the exponent of E.  Ratings near +-1e308 make
 * r - r_j overflow; scale them first there (elsewhere the paper's order of
 * operations, for bit-exact results).
 */
static inline double
glicko2_z(double g, double rating, double opponent_rating)
{
	double		gap = rating - opponent_rating;

	if (isfinite(gap))
		return g * gap / GLICKO2_SCALE;
	return g * (rating / GLICKO2_SCALE - opponent_rating / GLICKO2_SCALE);
}

/*
 * The exponent of E with an advantage: the player's rating counts
 * `advantage` points more in this game (home, first move; negative away).
 * Glickman's Glicko-Boost adds such a constant for white inside E; so does
 * scalachess (its ColorAdvantage).  A separate function so that the paths
 * without an advantage keep glicko2_z's arithmetic and cost; an advantage
 * of 0 gives the same bits ((r - r_j) + 0 is r - r_j).
 */
static inline double
glicko2_z_advantage(double g, double rating, double advantage,
					double opponent_rating)
{
	double		gap = (rating - opponent_rating) + advantage;

	if (isfinite(gap))
		return g * gap / GLICKO2_SCALE;
	return g * (rating / GLICKO2_SCALE - opponent_rating / GLICKO2_SCALE +
				advantage / GLICKO2_SCALE);
}

double
glicko2_g(double opponent_rd)
{
	return g_of_phi(opponent_rd / GLICKO2_SCALE);
}

/* Step 3: E(mu, mu_j, phi_j). */
double
glicko2_expected(double rating, double opponent_rating, double opponent_rd)
{
	double		e,
				one_minus_e;

	logistic_pair(glicko2_z(glicko2_g(opponent_rd), rating, opponent_rating),
				  &e, &one_minus_e);
	return e;
}

/*
 * The predicted score of a against b counting both players' uncertainty:
 * Glickman's E with g(sqrt(phi_a^2 + phi_b^2)), so p(a,b) + p(b,a) = 1.
 */
static inline double
combined_g(const Glicko2Rating *a, const Glicko2Rating *b)
{
	double		phi = hypot(a->rd, b->rd) / GLICKO2_SCALE;

	if (!isfinite(phi))			/* both RDs near 1e308 */
		phi = hypot(a->rd / GLICKO2_SCALE, b->rd / GLICKO2_SCALE);
	return g_of_phi(phi);
}

double
glicko2_win_probability(const Glicko2Rating *a, const Glicko2Rating *b)
{
	double		e,
				one_minus_e;

	logistic_pair(glicko2_z(combined_g(a, b), a->rating, b->rating),
				  &e, &one_minus_e);
	return e;
}

/* The same with a's rating counting `advantage` points more in this game. */
double
glicko2_win_probability_advantage(const Glicko2Rating *a, const Glicko2Rating *b,
								  double advantage)
{
	double		e,
				one_minus_e;

	logistic_pair(glicko2_z_advantage(combined_g(a, b), a->rating, advantage,
									  b->rating),
				  &e, &one_minus_e);
	return e;
}

/*
 * Double-double addition (Knuth's TwoSum, then renormalisation): *hi stays
 * the double nearest hi + lo, *lo the error, whatever the order of terms.
 */
static inline void
two_sum(double a, double b, double *sum, double *err)
{
	double		s = a + b;
	double		bb = s - a;

	*err = (a - (s - bb)) + (b - bb);
	*sum = s;
}

static inline void
sum_add(double *hi, double *lo, double x_hi, double x_lo)
{
	double		s,
				e;

	two_sum(*hi, x_hi, &s, &e);
	e += *lo + x_lo;
	two_sum(s, e, hi, lo);
}

void
glicko_dd_add(double *hi, double *lo, double x_hi, double x_lo)
{
	sum_add(hi, lo, x_hi, x_lo);
}

/*
 * A team as one composite player (G. J. Williams, "Abstracting Glicko-2 for
 * Team Games", University of Cincinnati, 2013): rating, RD and volatility are
 * the arithmetic means of its players'.  The sums are double-double, so the
 * composite does not depend on the order the players are listed in.
 * n >= 1; the caller has checked every rating.
 */
void
glicko_team_composite(const Glicko2Rating *players, int n, Glicko2Rating *out)
{
	glicko_team_composite_of(players, NULL, NULL, n, out);
}

/*
 * The same with the players players[index[0..n-1]] (index NULL: the first
 * n), each counted with its weight (weights NULL: all 1, the plain means;
 * weights of 1 give the same bits).  Weights positive and finite.
 */
void
glicko_team_composite_of(const Glicko2Rating *players, const double *weights,
						 const int *index, int n, Glicko2Rating *out)
{
	double		r_hi = 0.0,
				r_lo = 0.0,
				d_hi = 0.0,
				d_lo = 0.0,
				v_hi = 0.0,
				v_lo = 0.0,
				w_hi = 0.0,
				w_lo = 0.0;

	for (int k = 0; k < n; k++)
	{
		int			i = index ? index[k] : k;
		double		w = weights ? weights[i] : 1.0;

		sum_add(&r_hi, &r_lo, w * players[i].rating, 0.0);
		sum_add(&d_hi, &d_lo, w * players[i].rd, 0.0);
		sum_add(&v_hi, &v_lo, w * players[i].volatility, 0.0);
		sum_add(&w_hi, &w_lo, w, 0.0);
	}

	/*
	 * hi / W, then the low part's share: hi + lo is the exact sum to 2^-106
	 * (W is n exactly when every weight is 1).
	 */
	out->rating = r_hi / w_hi + r_lo / w_hi;
	out->rd = d_hi / w_hi + d_lo / w_hi;
	out->volatility = v_hi / w_hi + v_lo / w_hi;
}

/*
 * One game's terms: g(phi_j)^2 E (1 - E) for the information of Step 3,
 * g(phi_j) (s_j - E) for the sum shared by Steps 4 and 7.  s - E is written
 * so that it is exact for a win (1 - E) and a loss (-E) without cancellation.
 * This runs once per game in the aggregates: it is logistic_pair's
 * arithmetic, bit for bit, without a branch on the sign of z (which a
 * league's games make unpredictable).
 */
static inline GlickoTerms
game_terms(double g, double z, double score)
{
	GlickoTerms terms;
	double		t = exp(-fabs(z));
	double		larger = 1.0 / (1.0 + t);
	double		smaller = t / (1.0 + t);
	double		e = z >= 0.0 ? larger : smaller;
	double		one_minus_e = z >= 0.0 ? smaller : larger;

	terms.information = g * g * e * one_minus_e;
	terms.surprise = g * (score * one_minus_e - (1.0 - score) * e);
	return terms;
}

/* One game's terms from g and the exponent z of E, for who builds its own
 * (src/core/team.c): game_terms itself, so the same bits. */
GlickoTerms
glicko2_terms_gz(double g, double z, double score)
{
	return game_terms(g, z, score);
}

/* E = 1 / (1 + exp(-z)), as every E here is computed. */
double
glicko_logistic(double z)
{
	double		e,
				one_minus_e;

	logistic_pair(z, &e, &one_minus_e);
	return e;
}

void
glicko_add_terms(GlickoSums *sums, const GlickoTerms *game)
{
	sum_add(&sums->information, &sums->information_low, game->information, 0.0);
	sum_add(&sums->surprise, &sums->surprise_low, game->surprise, 0.0);
	sums->games++;
}

bool
glicko_terms_valid(const GlickoTerms *terms)
{
	return isfinite(terms->information) && terms->information >= 0.0 &&
		isfinite(terms->surprise);
}

GlickoTerms
glicko2_terms(double rating, double opponent_rating, double opponent_rd,
			  double score)
{
	double		g = g_of_phi(opponent_rd / GLICKO2_SCALE);

	return game_terms(g, glicko2_z(g, rating, opponent_rating), score);
}

/* One game's terms when the player's rating counts `advantage` points more. */
GlickoTerms
glicko2_terms_advantage(double rating, double advantage, double opponent_rating,
						double opponent_rd, double score)
{
	double		g = g_of_phi(opponent_rd / GLICKO2_SCALE);

	return game_terms(g, glicko2_z_advantage(g, rating, advantage, opponent_rating),
					  score);
}

void
glicko2_add_game(GlickoSums *sums, double rating, double opponent_rating,
				 double opponent_rd, double score)
{
	GlickoTerms terms = glicko2_terms(rating, opponent_rating, opponent_rd, score);

	glicko_add_terms(sums, &terms);
}

void
glicko_merge_sums(GlickoSums *into, const GlickoSums *from)
{
	sum_add(&into->information, &into->information_low,
			from->information, from->information_low);
	sum_add(&into->surprise, &into->surprise_low,
			from->surprise, from->surprise_low);
	into->games += from->games;
}

/*
 * Step 5.1: f(x), the function whose root is ln(sigma'^2).
 *
 * The paper writes f with v = 1/I and Delta = S/I (I the information, S the
 * surprise).  For lopsided games I can be as small as 1e-300, where v, Delta^2
 * and (phi^2 + v + e^x)^2 overflow although f itself is modest.  Multiplying
 * through by I gives the same function in terms that stay finite:
 *   f(x) = r (K / (c + t) - r) / 2 - (x - a) / tau^2,
 *   t = e^x I,  c = phi^2 I + 1,  r = t / (c + t),  K = S^2 / I - phi^2 I - 1,
 * and Step 5.2's test Delta^2 > phi^2 + v becomes K > 0, its B = ln(K / I).
 */
typedef struct VolatilityProblem
{
	double		log_information;	/* ln I */
	double		c;
	double		K;
	double		a;
	double		tau_sq;
} VolatilityProblem;

static inline double
f_of_x(const VolatilityProblem *p, double x)
{
	double		t = exp(x + p->log_information);
	double		r = 1.0 / (1.0 + p->c * exp(-(x + p->log_information)));

	return 0.5 * r * (p->K / (p->c + t) - r) - (x - p->a) / p->tau_sq;
}

static inline void
trace_iteration(Glicko2Trace *trace, double A, double B, double fA, double fB)
{
	if (trace && trace->n_iterations <= GLICKO2_MAX_ILLINOIS)
	{
		Glicko2Iteration *it = &trace->iterations[trace->n_iterations++];

		it->A = A;
		it->B = B;
		it->fA = fA;
		it->fB = fB;
	}
}

/*
 * Step 5: the Illinois procedure for sigma', exactly as the paper gives it
 * (including "f_C f_B <= 0"), with every loop bounded.
 */
static GlickoStatus
new_volatility(const VolatilityProblem *p, double tau,
			   double *sigma_new, Glicko2Trace *trace)
{
	double		A = p->a;
	double		B;
	double		fA,
				fB;
	int			iterations = 0;

	/* Step 5.2 */
	if (p->K > 0.0)
		B = log(p->K) - p->log_information;
	else
	{
		int			k = 1;

		while (f_of_x(p, p->a - k * tau) < 0.0)
		{
			if (++k > GLICKO2_MAX_BRACKET)
				return GLICKO_NO_CONVERGENCE;
		}
		B = p->a - k * tau;
		if (trace)
			trace->k = k;
	}

	/* Step 5.3 */
	fA = f_of_x(p, A);
	fB = f_of_x(p, B);
	if (!isfinite(B) || !isfinite(fA) || !isfinite(fB))
		return GLICKO_OUT_OF_RANGE;
	trace_iteration(trace, A, B, fA, fB);

	/* Step 5.4 */
	while (fabs(B - A) > GLICKO2_EPSILON)
	{
		double		C,
					fC;

		if (++iterations > GLICKO2_MAX_ILLINOIS)
			return GLICKO_NO_CONVERGENCE;
		if (fB == fA)			/* the bracket has already closed on a root */
			break;

		C = A + (A - B) * fA / (fB - fA);
		if (C == A || C == B)
		{
			/*
			 * The step is below one ulp: C is the root to double precision
			 * and the bracket cannot narrow further (it happens when f is
			 * ~1e-100 at one end, after games of negligible information).
			 */
			A = C;
			break;
		}
		fC = f_of_x(p, C);
		if (!isfinite(C) || !isfinite(fC))
			return GLICKO_OUT_OF_RANGE;

		if (fC * fB <= 0.0)
		{
			A = B;
			fA = fB;
		}
		else
			fA = fA / 2.0;
		B = C;
		fB = fC;
		trace_iteration(trace, A, B, fA, fB);
	}

	/* Step 5.5 */
	*sigma_new = exp(A / 2.0);
	return GLICKO_OK;
}

static GlickoStatus
check_glicko2_result(const Glicko2Rating *r)
{
	if (!isfinite(r->rating) || !glicko_valid_positive(r->rd) ||
		!glicko_valid_positive(r->volatility))
		return GLICKO_OUT_OF_RANGE;
	return GLICKO_OK;
}

/*
 * Steps 2-8 for one player, given the sums over the period's games.  With
 * no games, or games that carry no information (v infinite), only Step 6
 * applies.  A rating period is one period of Step 6's growth.
 */
GlickoStatus
glicko2_update(const Glicko2Rating *player, const GlickoSums *sums,
			   double tau, Glicko2Rating *result, Glicko2Trace *trace)
{
	return glicko2_update_elapsed(player, sums, tau, 1.0, result, trace);
}

/*
 * Steps 2-8 with Step 6 over `elapsed` periods: phi* = sqrt(phi^2 + t sigma'^2).
 * t = 1 is glicko2_update (1.0 * x is x exactly, so the bits are the same);
 * t = 0 rates games live without inflating RD per game (RD grows with time,
 * applied separately by glicko2_idle).  elapsed >= 0, finite.
 */
GlickoStatus
glicko2_update_elapsed(const Glicko2Rating *player, const GlickoSums *sums,
					   double tau, double elapsed, Glicko2Rating *result,
					   Glicko2Trace *trace)
{
	double		mu = (player->rating - GLICKO2_CENTRE) / GLICKO2_SCALE;
	double		phi = player->rd / GLICKO2_SCALE;
	double		sigma = player->volatility;
	double		sigma_new,
				phi_star,
				phi_new,
				mu_new;

	if (trace)
	{
		trace->mu = mu;
		trace->phi = phi;
		trace->k = 0;
		trace->n_iterations = 0;
		trace->no_information = false;
	}

	/*
	 * Games whose every E saturates carry no information: I is 0 (or below
	 * the normal range of a double, where 1/I is not representable).
	 */
	if (sums->games == 0 || sums->information < DBL_MIN)
	{
		/* Step 6 alone: rating and volatility stay, phi grows. */
		sigma_new = sigma;
		phi_star = sqrt(phi * phi + elapsed * sigma * sigma);
		phi_new = phi_star;
		mu_new = mu;
		if (trace)
		{
			trace->no_information = true;
			trace->v = INFINITY;
			trace->delta = 0.0;
			trace->a = log(sigma * sigma);
		}
	}
	else
	{
		VolatilityProblem p;
		GlickoStatus status;

		double		I = sums->information;
		double		S = sums->surprise;

		/* Steps 3 and 4, as I = 1/v and S = Delta/v (see f_of_x) */
		p.log_information = log(I);
		p.c = phi * phi * I + 1.0;
		p.K = S * S / I - phi * phi * I - 1.0;
		p.a = log(sigma * sigma);
		p.tau_sq = tau * tau;
		if (!isfinite(p.K))
			return GLICKO_OUT_OF_RANGE;
		if (trace)
		{
			trace->v = 1.0 / I;
			trace->delta = S / I;
			trace->a = p.a;
		}

		/* Step 5 */
		status = new_volatility(&p, tau, &sigma_new, trace);
		if (status != GLICKO_OK)
			return status;

		/* Steps 6 and 7 */
		phi_star = sqrt(phi * phi + elapsed * sigma_new * sigma_new);
		phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + sums->information);

		/*
		 * Games never add uncertainty: phi' <= phi*.  When the information is
		 * negligible beside 1/phi*^2, the four roundings above can put phi'
		 * one ulp above phi* (found by fuzz/fuzz_math.c); the paper's form is
		 * kept, so its example stays bit-exact, and clamped.
		 */
		phi_new = fmin(phi_new, phi_star);
		mu_new = mu + phi_new * phi_new * sums->surprise;
	}

	if (trace)
	{
		trace->sigma_new = sigma_new;
		trace->phi_star = phi_star;
		trace->phi_new = phi_new;
		trace->mu_new = mu_new;
	}

	/* Step 8 */
	result->rating = GLICKO2_SCALE * mu_new + GLICKO2_CENTRE;
	result->rd = GLICKO2_SCALE * phi_new;
	result->volatility = sigma_new;
	return check_glicko2_result(result);
}

/*
 * One game rated at once: the sums of that single game, then Steps 2-8 with
 * Step 6 over `elapsed` periods.  With elapsed = 1 this is glicko2_update
 * over a period of that one game, bit for bit (the same sums, the same code).
 */
GlickoStatus
glicko2_single_game(const Glicko2Rating *player, const Glicko2Rating *opponent,
					double score, double tau, double elapsed,
					Glicko2Rating *result)
{
	GlickoSums	sums = {0};

	glicko2_add_game(&sums, player->rating, opponent->rating, opponent->rd, score);
	return glicko2_update_elapsed(player, &sums, tau, elapsed, result, NULL);
}

/*
 * A rating as of `periods` periods after it was last rated: glicko2_idle,
 * except that no time at all leaves it exactly as it is (glicko2_idle's
 * sqrt of a square may move RD by one ulp).
 */
GlickoStatus
glicko2_grown(const Glicko2Rating *player, double periods, double max_rd,
			  Glicko2Rating *result)
{
	if (periods == 0.0)
	{
		*result = *player;
		return GLICKO_OK;
	}
	return glicko2_idle(player, periods, max_rd, result);
}

/*
 * A game rated live for both players (lichess's scheme): each rating's RD
 * first grows for the periods it sat idle since it was last rated (capped
 * at max_rd), then each player is updated from both grown ratings with no
 * Step 6 growth inside the game (t = 0).
 */
GlickoStatus
glicko2_live_game(const Glicko2Rating *player, double player_idle,
				  const Glicko2Rating *opponent, double opponent_idle,
				  double score, double tau, double max_rd,
				  Glicko2Rating *new_player, Glicko2Rating *new_opponent)
{
	Glicko2Rating p,
				o;
	GlickoStatus status;

	if ((status = glicko2_grown(player, player_idle, max_rd, &p)) != GLICKO_OK ||
		(status = glicko2_grown(opponent, opponent_idle, max_rd, &o)) != GLICKO_OK ||
		(status = glicko2_single_game(&p, &o, score, tau, 0.0, new_player)) != GLICKO_OK)
		return status;
	return glicko2_single_game(&o, &p, 1.0 - score, tau, 0.0, new_opponent);
}

/*
 * Step 6 for `periods` periods without games: phi' = sqrt(phi^2 + t sigma^2).
 * The cap stops growth at max_rd (INFINITY: no cap) but never lowers an RD
 * that was already above it: sitting out cannot make a rating more certain.
 */
GlickoStatus
glicko2_idle(const Glicko2Rating *player, double periods, double max_rd,
			 Glicko2Rating *result)
{
	double		phi = player->rd / GLICKO2_SCALE;
	double		rd = GLICKO2_SCALE * sqrt(phi * phi + periods * player->volatility * player->volatility);

	if (rd > max_rd)
		rd = fmax(player->rd, max_rd);
	result->rating = player->rating;
	result->rd = rd;
	result->volatility = player->volatility;
	return check_glicko2_result(result);
}

Glicko2Rating
glicko2_unrated(double max_rd)
{
	Glicko2Rating r = {GLICKO2_DEFAULT_RATING, fmin(GLICKO2_DEFAULT_RD, max_rd),
	GLICKO2_DEFAULT_VOLATILITY};

	return r;
}

/*
 * A close treats a player without games as idle (Step 6 capped, as
 * glicko2_idle), not as the aggregate's group without games (Step 6 alone).
 */
GlickoStatus
glicko2_close_player(const Glicko2Rating *player, const GlickoSums *sums,
					 double tau, double max_rd, Glicko2Rating *result)
{
	if (sums->games > 0)
		return glicko2_update(player, sums, tau, result, NULL);
	return glicko2_idle(player, 1.0, max_rd, result);
}

/*
 * Whether a rating after a period with games is one its data can justify.
 * Step 5 finds sigma' as the mode of a posterior whose prior on ln sigma'^2
 * is centred on ln sigma^2 with deviation tau: the data move it far only when
 * they are sharp and contradict the rating, and a volatility of 1 already
 * means a strength drifting a whole 174 points a period, a rating that
 * carries nothing from one period to the next.  Raised above that, it came
 * in every case seen from information counted many times over (one result
 * as 144 "independent" games of a 12v12 by 'individual' before its fix) or
 * from a streak of upsets no rating on this scale can follow (30 wins over a
 * player 1000 points better: 54 851, volatility 30), and a runaway volatility
 * grows period after period until ratings reach 10^29.  A volatility already
 * above 1 may stay there (rising by less than 1 %).  The RD is bounded with
 * it: RD' <= 173.7178 sqrt(phi^2 + sigma'^2).  A league that chose a tau
 * above 1 said its volatilities may move that far (tau is the scale of
 * Step 5's change of volatility: a league of sudden changes fits tau = 5 and
 * sees volatilities of 2 while its ratings catch up), so the bound is
 * max(1, tau).
 */
bool
glicko2_justified(const Glicko2Rating *pre, const Glicko2Rating *post, double tau)
{
	return !(post->volatility > glicko2_max_raised_volatility(tau) &&
			 post->volatility > 1.01 * pre->volatility);
}

/* Glicko-1: g(RD) = 1 / sqrt(1 + 3 q^2 RD^2 / pi^2), which is g_of_phi(q RD). */
double
glicko1_g(double opponent_rd)
{
	if (GLICKO1_Q * opponent_rd > 1e100)
		return g_of_phi(GLICKO1_Q * opponent_rd);
	return 1.0 / sqrt(1.0 + 3.0 * GLICKO1_Q * GLICKO1_Q * opponent_rd * opponent_rd / PI_SQUARED);
}

/* q g (r - r_j), the exponent of Glicko-1's E, as glicko2_z. */
static inline double
glicko1_z(double g, double rating, double opponent_rating)
{
	double		gap = rating - opponent_rating;

	if (isfinite(gap))
		return GLICKO1_Q * g * gap;
	return GLICKO1_Q * g * rating - GLICKO1_Q * g * opponent_rating;
}

/* Glicko-1: E = 1 / (1 + 10^(-g (r - r_j) / 400)). */
double
glicko1_expected(double rating, double opponent_rating, double opponent_rd)
{
	double		e,
				one_minus_e;

	logistic_pair(glicko1_z(glicko1_g(opponent_rd), rating, opponent_rating),
				  &e, &one_minus_e);
	return e;
}

GlickoTerms
glicko1_terms(double rating, double opponent_rating, double opponent_rd,
			  double score)
{
	double		g = glicko1_g(opponent_rd);

	return game_terms(g, glicko1_z(g, rating, opponent_rating), score);
}

void
glicko1_add_game(GlickoSums *sums, double rating, double opponent_rating,
				 double opponent_rd, double score)
{
	GlickoTerms terms = glicko1_terms(rating, opponent_rating, opponent_rd, score);

	glicko_add_terms(sums, &terms);
}

/*
 * Glicko-1's update: 1/d^2 = q^2 sum g^2 E (1 - E);
 * r' = r + q / (1/RD^2 + 1/d^2) sum g (s - E);  RD' = (1/RD^2 + 1/d^2)^(-1/2).
 * It needs no iteration, and with no information it leaves RD as it is.
 */
GlickoStatus
glicko1_update(const Glicko1Rating *player, const GlickoSums *sums,
			   Glicko1Rating *result)
{
	double		precision = 1.0 / (player->rd * player->rd) +
	GLICKO1_Q * GLICKO1_Q * sums->information;

	result->rating = player->rating + GLICKO1_Q / precision * sums->surprise;
	result->rd = 1.0 / sqrt(precision);
	if (!isfinite(result->rating) || !glicko_valid_positive(result->rd))
		return GLICKO_OUT_OF_RANGE;
	return GLICKO_OK;
}

/* Glicko-1 between periods: RD' = min(sqrt(RD^2 + c^2 t), max_rd), never lowered. */
GlickoStatus
glicko1_idle(const Glicko1Rating *player, double periods, double c,
			 double max_rd, Glicko1Rating *result)
{
	double		rd = sqrt(player->rd * player->rd + c * c * periods);

	if (rd > max_rd)
		rd = fmax(player->rd, max_rd);
	result->rating = player->rating;
	result->rd = rd;
	if (!isfinite(result->rating) || !glicko_valid_positive(result->rd))
		return GLICKO_OUT_OF_RANGE;
	return GLICKO_OK;
}

/*
 * The standard normal quantile, Wichura, "Algorithm AS 241: The percentage
 * points of the normal distribution", Applied Statistics 37 (1988) 477-484,
 * PPND16: rational approximations in three regions with the published
 * coefficients, relative error about 1e-16.  It is split in two so that
 * callers can hand over q = p - 1/2 or the tail probability min(p, 1 - p)
 * exactly, without the rounding of forming p first.
 */
static inline double
poly7(const double *c, double x)
{
	return ((((((c[7] * x + c[6]) * x + c[5]) * x + c[4]) * x + c[3]) * x + c[2]) * x + c[1]) * x + c[0];
}

/* The quantile of p = 1/2 + q, for |q| <= 0.425. */
static double
normal_quantile_central(double q)
{
	static const double a[8] = {
		3.3871328727963666080e0, 1.3314166789178437745e+2,
		1.9715909503065514427e+3, 1.3731693765509461125e+4,
		4.5921953931549871457e+4, 6.7265770927008700853e+4,
	3.3430575583588128105e+4, 2.5090809287301226727e+3};
	static const double b[8] = {
		1.0, 4.2313330701600911252e+1,
		6.8718700749205790830e+2, 5.3941960214247511077e+3,
		2.1213794301586595867e+4, 3.9307895800092710610e+4,
	2.8729085735721942674e+4, 5.2264952788528545610e+3};
	double		r = 0.180625 - q * q;

	return q * poly7(a, r) / poly7(b, r);
}

/* Minus the quantile of a tail probability 0 < p < 0.075 (the upper-tail z). */
static double
normal_quantile_tail(double p)
{
	static const double c[8] = {
		1.42343711074968357734e0, 4.63033784615654529590e0,
		5.76949722146069140550e0, 3.64784832476320460504e0,
		1.27045825245236838258e0, 2.41780725177450611770e-1,
	2.27238449892691845833e-2, 7.74545014278341407640e-4};
	static const double d[8] = {
		1.0, 2.05319162663775882187e0,
		1.67638483018380384940e0, 6.89767334985100004550e-1,
		1.48103976427480074590e-1, 1.51986665636164571966e-2,
	5.47593808499534494600e-4, 1.05075007164441684324e-9};
	static const double e[8] = {
		6.65790464350110377720e0, 5.46378491116411436990e0,
		1.78482653991729133580e0, 2.96560571828504891230e-1,
		2.65321895265761230930e-2, 1.24266094738807843860e-3,
	2.71155556874348757815e-5, 2.01033439929228813265e-7};
	static const double f[8] = {
		1.0, 5.99832206555887937690e-1,
		1.36929880922735805310e-1, 1.48753612908506148525e-2,
		7.86869131145613259100e-4, 1.84631831751005468180e-5,
	1.42151175831644588870e-7, 2.04426310338993978564e-15};
	double		r = sqrt(-log(p));

	if (r <= 5.0)
		return poly7(c, r - 1.6) / poly7(d, r - 1.6);
	return poly7(e, r - 5.0) / poly7(f, r - 5.0);
}

/* x with Phi(x) = p; NaN unless 0 < p < 1. */
double
glicko_normal_quantile(double p)
{
	double		q = p - 0.5;

	if (!(p > 0.0 && p < 1.0))
		return NAN;
	if (fabs(q) <= 0.425)
		return normal_quantile_central(q);
	return q < 0.0 ? -normal_quantile_tail(p) : normal_quantile_tail(1.0 - p);
}

/*
 * How many RDs either side of the rating a two-sided normal interval of the
 * given confidence c spans: z with Phi(z) = 1/2 + c/2.  c/2 and the tail
 * (1 - c)/2 are both exact in double arithmetic, so z keeps full precision
 * for a confidence near 0 as near 1.  NaN unless 0 <= c < 1.
 */
double
glicko_confidence_deviations(double confidence)
{
	if (!(confidence >= 0.0 && confidence < 1.0))
		return NAN;
	if (confidence / 2.0 <= 0.425)
		return normal_quantile_central(confidence / 2.0);
	return normal_quantile_tail((1.0 - confidence) / 2.0);
}

/* The interval [rating - k RD, rating + k RD]. */
GlickoStatus
glicko_interval(double rating, double rd, double deviations,
				double *lower, double *upper)
{
	*lower = rating - deviations * rd;
	*upper = rating + deviations * rd;
	if (!isfinite(*lower) || !isfinite(*upper))
		return GLICKO_OUT_OF_RANGE;
	return GLICKO_OK;
}

/* Step 2: the public scale to the Glicko-2 scale (the same arithmetic as glicko2_update). */
void
glicko2_to_scaled(const Glicko2Rating *r, Glicko2Scaled *out)
{
	out->mu = (r->rating - GLICKO2_CENTRE) / GLICKO2_SCALE;
	out->phi = r->rd / GLICKO2_SCALE;
	out->sigma = r->volatility;
}

/* Step 8: the Glicko-2 scale back to the public scale. */
GlickoStatus
glicko2_from_scaled(const Glicko2Scaled *s, Glicko2Rating *out)
{
	out->rating = GLICKO2_SCALE * s->mu + GLICKO2_CENTRE;
	out->rd = GLICKO2_SCALE * s->phi;
	out->volatility = s->sigma;
	return check_glicko2_result(out);
}
