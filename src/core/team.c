/*
 * team.c — a match's terms of each player's Step 3/4 sums (team.h; the
 * mathematics is derived in docs/matches.md).
 *
 * 'sum' and 'mean', for player i of team t against team u:
 *   D      = M_t - M_u,  M = sum a_j mu_j
 *   s^2    = (sum_t a_j + sum_u a_j) / 2         (the teams' performance noise)
 *   h_i    = 1 / sqrt(s^2 + 3 Phi_i^2 / pi^2),   Phi_i^2 = sum over both teams
 *            but i of a_j^2 phi_j^2
 *   E_i    = 1 / (1 + exp(-h_i D)),  D with the teams' edges (team.h) when
 *            an advantage is not zero: + (edge_t - edge_u) / 173.7178
 *   information += lambda (a_i h_i)^2 E_i (1 - E_i),  surprise += lambda a_i h_i (s - E_i)
 * One player a side with share 1 is the paper's arithmetic, operation for
 * operation: a = 1, s^2 = (1 + 1) / 2 = 1, Phi^2 the opponent's 3 phi phi,
 * so h = g(phi) and h D is glicko2_z, and lambda_2 = 1.
 *
 * Every sum over players adds its values in ascending order (sorted_sum),
 * so no term depends on the order the players or teams are given in.
 */
#include "team.h"

#include <math.h>
#include <stdlib.h>

#define PI_SQUARED (M_PI * M_PI)

size_t
glicko_team_work_doubles(int n_players, int n_teams)
{
	return (size_t) n_players * 5 + (size_t) n_teams * 9;
}

size_t
glicko_team_work_ints(int n_players, int n_teams)
{
	return (size_t) n_players * 2 + (size_t) n_teams + 1;
}

double
glicko_place_score(int64_t place, int64_t other_place)
{
	if (place < other_place)
		return 1.0;
	if (place > other_place)
		return 0.0;
	return 0.5;
}

/*
 * lambda_m: the Plackett-Luce Fisher information of one ranking of m equal
 * teams about one team, (m - H_m) / m, over that of its m - 1 independent
 * pairwise logistic games, (m - 1) / 4.  (Stage r of the ranking picks one
 * of the r teams left, information (1/r)(1 - 1/r), and a team is still in at
 * stage r with probability r/m.)  lambda_2 = 4 * 0.5 / 2 = 1 exactly.
 */
double
glicko_team_lambda(int m)
{
	double		harmonic = 0.0;

	if (m <= 2)
		return 1.0;
	for (int r = 1; r <= m; r++)
		harmonic += 1.0 / r;
	return 4.0 * (m - harmonic) / ((double) m * (m - 1));
}

static int
compare_doubles(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

/*
 * The sum of v[0..n-1] in ascending order (v is reordered): the same bits
 * whatever order the values came in.  Teams are small: insertion sort.
 */
static double
sorted_sum(double *v, int n)
{
	double		sum = 0.0;

	if (n > 32)
		qsort(v, n, sizeof(double), compare_doubles);
	else
		for (int i = 1; i < n; i++)
		{
			double		x = v[i];
			int			j = i;

			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	if (n > 0)
		sum = v[0];
	for (int i = 1; i < n; i++)
		sum += v[i];
	return sum;
}

/* The sum over the members of team t of values[j] (in the work's scratch). */
static double
team_sum(const GlickoTeamWork *w, int t, const double *values, int skip)
{
	int			n = 0;

	for (int k = w->team_start[t]; k < w->team_start[t + 1]; k++)
	{
		int			j = w->members[k];

		if (j != skip)
			w->scratch[n++] = values[j];
	}
	return sorted_sum(w->scratch, n);
}

/*
 * The sum of a over the players of one team (who[0..n-1], or 0..n-1 when who
 * is NULL) whose party label two or more of them share (party[i] >= 0; its
 * labels index party_size).  tmp: n doubles.
 */
static double
party_weight(const int *party, const double *a, const int *who, int n,
			 int *party_size, double *tmp)
{
	int			members = 0;

	if (party == NULL)
		return 0.0;
	for (int k = 0; k < n; k++)
	{
		int			i = who ? who[k] : k;

		if (party[i] >= 0)
			party_size[party[i]] = 0;
	}
	for (int k = 0; k < n; k++)
	{
		int			i = who ? who[k] : k;

		if (party[i] >= 0)
			party_size[party[i]]++;
	}
	for (int k = 0; k < n; k++)
	{
		int			i = who ? who[k] : k;

		if (party[i] >= 0 && party_size[party[i]] >= 2)
			tmp[members++] = a[i];
	}
	return sorted_sum(tmp, members);
}

/* Each team's edge (team.h). */
static void
team_edges(GlickoTeamWork *w)
{
	const GlickoTeamMatch *match = w->match;

	for (int t = 0; t < match->n_teams; t++)
		w->edge[t] = glicko_team_edge(&match->advantage,
									  party_weight(match->party, w->a, &w->members[w->team_start[t]],
												   w->team_start[t + 1] - w->team_start[t],
												   w->party_size, w->scratch),
									  w->share_sum[t]);
}

void
glicko_team_prepare(const GlickoTeamMatch *match, double *doubles, int *ints,
					GlickoTeamWork *w)
{
	int			n = match->n_players,
				k = match->n_teams;
	bool		team_model = match->method == GLICKO_TEAM_SUM ||
	match->method == GLICKO_TEAM_MEAN;

	w->match = match;
	w->a = doubles;
	w->x = w->a + n;
	w->u = w->x + n;
	w->u_rest = w->u + n;
	w->scratch = w->u_rest + n;
	w->w = w->scratch + n;
	w->strength = w->w + k;
	w->strength_scaled = w->strength + k;
	w->u_sum = w->strength_scaled + k;
	w->share_sum = w->u_sum + k;
	w->edge = w->share_sum + k;
	w->composite = (Glicko2Rating *) (w->edge + k); /* 3 doubles a team */
	w->team_start = ints;
	w->members = ints + k + 1;
	w->party_size = w->members + n;
	w->lambda = match->method == GLICKO_TEAM_COMPOSITE ? 1.0 : glicko_team_lambda(k);
	w->large_phi = false;
	w->has_edge = team_model &&
		(match->advantage.party != 0.0 || match->advantage.size != 0.0);

	/* Players by team (a counting sort, stable). */
	for (int t = 0; t <= k; t++)
		w->team_start[t] = 0;
	for (int i = 0; i < n; i++)
		w->team_start[match->team[i] + 1]++;
	for (int t = 0; t < k; t++)
		w->team_start[t + 1] += w->team_start[t];
	for (int i = 0; i < n; i++)
		w->members[w->team_start[match->team[i]]++] = i;
	for (int t = k; t > 0; t--)
		w->team_start[t] = w->team_start[t - 1];
	w->team_start[0] = 0;

	/* Play shares by team. */
	for (int i = 0; i < n; i++)
		w->a[i] = match->share ? match->share[i] : 1.0;
	for (int t = 0; t < k; t++)
		w->share_sum[t] = team_sum(w, t, w->a, -1);

	if (match->method == GLICKO_TEAM_COMPOSITE)
		for (int t = 0; t < k; t++)
			glicko_team_composite_of(match->rating, match->share,
									 &w->members[w->team_start[t]],
									 w->team_start[t + 1] - w->team_start[t],
									 &w->composite[t]);
	if (!team_model)
		return;

	/* Member weights, then each team's strength and uncertainty. */
	if (match->method == GLICKO_TEAM_MEAN)
		for (int i = 0; i < n; i++)
			w->a[i] = w->a[i] / w->share_sum[match->team[i]];
	for (int i = 0; i < n; i++)
	{
		w->x[i] = w->a[i] * (match->rating[i].rd / GLICKO2_SCALE);
		w->u[i] = 3.0 * w->x[i] * w->x[i];
		if (w->x[i] > GLICKO_TEAM_LARGE_PHI)
			w->large_phi = true;
	}
	for (int t = 0; t < k; t++)
	{
		w->w[t] = team_sum(w, t, w->a, -1);
		w->u_sum[t] = team_sum(w, t, w->u, -1);
		for (int m = w->team_start[t]; m < w->team_start[t + 1]; m++)
		{
			int			i = w->members[m];

			w->scratch[m] = w->a[i] * match->rating[i].rating;
		}
		w->strength[t] = sorted_sum(&w->scratch[w->team_start[t]],
									w->team_start[t + 1] - w->team_start[t]);
		for (int m = w->team_start[t]; m < w->team_start[t + 1]; m++)
		{
			int			i = w->members[m];

			w->scratch[m] = w->a[i] * (match->rating[i].rating / GLICKO2_SCALE);
		}
		w->strength_scaled[t] = sorted_sum(&w->scratch[w->team_start[t]],
										   w->team_start[t + 1] - w->team_start[t]);
	}
	for (int i = 0; i < n; i++)
		w->u_rest[i] = team_sum(w, match->team[i], w->u, i);
	if (w->has_edge)
		team_edges(w);
}

/*
 * h = 1 / sqrt(s^2 + 3 Phi^2 / pi^2).  With a member's a phi beyond 1e100,
 * where its square could overflow and s^2 is negligible, h = pi / (sqrt(3)
 * Phi) from squares taken relative to the largest, as g_of_phi does for one
 * player (and with his arithmetic for one player: pi / sqrt(3) / phi).
 */
static double
team_h(const GlickoTeamWork *w, int player, int t, int u, double s2)
{
	double		largest = 0.0;
	int			n = 0;

	if (w->large_phi)
		for (int side = 0; side < 2; side++)
		{
			int			team = side == 0 ? t : u;

			for (int m = w->team_start[team]; m < w->team_start[team + 1]; m++)
				if (w->members[m] != player)
					largest = fmax(largest, w->x[w->members[m]]);
		}
	if (largest <= GLICKO_TEAM_LARGE_PHI)
		return 1.0 / sqrt(s2 + (w->u_rest[player] + w->u_sum[u]) / PI_SQUARED);
	for (int side = 0; side < 2; side++)
	{
		int			team = side == 0 ? t : u;

		for (int m = w->team_start[team]; m < w->team_start[team + 1]; m++)
		{
			int			j = w->members[m];

			if (j != player)
			{
				double		r = w->x[j] / largest;

				w->scratch[n++] = 3.0 * r * r;
			}
		}
	}
	return M_PI / sqrt(sorted_sum(w->scratch, n)) / largest;
}

/*
 * h times the teams' difference of strength on the Glicko-2 scale, the
 * exponent of E.  In rating points first, (A_t - A_u) - 1500 (W_t - W_u),
 * which for one player a side is r - r_j exactly (glicko2_z's operations);
 * where that overflows, from the scaled strengths.
 */
static double
team_z(const GlickoTeamWork *w, double h, int t, int u)
{
	double		gap = (w->strength[t] - w->strength[u]) -
	GLICKO2_CENTRE * (w->w[t] - w->w[u]);
	double		scaled;

	if (w->has_edge)
		gap += w->edge[t] - w->edge[u];
	if (isfinite(gap))
		return h * gap / GLICKO2_SCALE;
	scaled = (w->strength_scaled[t] - w->strength_scaled[u]) -
		GLICKO2_CENTRE / GLICKO2_SCALE * (w->w[t] - w->w[u]);
	if (w->has_edge)
		scaled += (w->edge[t] - w->edge[u]) / GLICKO2_SCALE;
	return h * scaled;
}

static inline GlickoTerms
weighted(GlickoTerms g, double weight)
{
	g.information *= weight;
	g.surprise *= weight;
	return g;
}

/* The side of player i against opponent o (a team, or a player). */
static void
side_terms(const GlickoTeamWork *w, int i, int o, GlickoTeamSide *side)
{
	const GlickoTeamMatch *m = w->match;
	int			t = m->team[i];
	const Glicko2Rating *me = &m->rating[i];

	side->player = i;
	side->opponent = o;
	switch (m->method)
	{
		case GLICKO_TEAM_SUM:
		case GLICKO_TEAM_MEAN:
			{
				double		s2 = (w->w[t] + w->w[o]) / 2.0;
				double		h = team_h(w, i, t, o, s2);
				double		z = team_z(w, h, t, o);

				side->score = glicko_place_score(m->place[t], m->place[o]);
				side->weight = w->lambda;
				side->terms = weighted(glicko2_terms_gz(w->a[i] * h, z, side->score),
									   w->lambda);
				side->expected = glicko_logistic(z);
				break;
			}
		case GLICKO_TEAM_INDIVIDUAL:
			{
				/* The k players of team u share one game: each p_j / sum_u p. */
				const Glicko2Rating *them = &m->rating[o];
				int			u = m->team[o];
				double		p_i = m->share ? m->share[i] : 1.0;
				double		p_o = m->share ? m->share[o] : 1.0;

				side->score = glicko_place_score(m->place[t], m->place[u]);
				side->weight = w->lambda * (p_i * (p_o / w->share_sum[u]));
				side->terms = weighted(glicko2_terms(me->rating, them->rating, them->rd,
													 side->score), side->weight);
				side->expected = glicko2_expected(me->rating, them->rating, them->rd);
				break;
			}
		case GLICKO_TEAM_COMPOSITE:
			{
				const Glicko2Rating *them = &w->composite[o];

				side->score = glicko_place_score(m->place[t], m->place[o]);
				side->weight = m->share ? m->share[i] : 1.0;
				side->terms = weighted(glicko2_terms(me->rating, them->rating, them->rd,
													 side->score), side->weight);
				side->expected = glicko2_expected(me->rating, them->rating, them->rd);
				break;
			}
	}
}

/*
 * Bounded: the cursor only moves forward, so a whole match takes at most
 * n * max(n, k) steps.
 */
bool
glicko_team_next(const GlickoTeamWork *w, GlickoTeamCursor *cursor,
				 GlickoTeamSide *side)
{
	const GlickoTeamMatch *m = w->match;
	bool		by_player = m->method == GLICKO_TEAM_INDIVIDUAL;
	int			others = by_player ? m->n_players : m->n_teams;

	while (cursor->player < m->n_players)
	{
		int			my_team = m->team[cursor->player];

		while (++cursor->opponent < others)
		{
			int			their_team = by_player ? m->team[cursor->opponent] : cursor->opponent;

			if (their_team == my_team)
				continue;
			side_terms(w, cursor->player, cursor->opponent, side);
			return true;
		}
		cursor->player++;
		cursor->opponent = -1;
	}
	return false;
}

/* a[i] = p_i ('sum') or p_i / sum p ('mean'), the team's totals (as
 * glicko_team_prepare's, its edge too when adv is given: party numbers are
 * counted in party_size, n ints) and its largest a phi. */
static void
team_totals(GlickoTeamMethod method, const Glicko2Rating *r, const double *share,
			const int *party, int n, const GlickoTeamAdvantage *adv,
			double *a, double *tmp, int *party_size, GlickoTeamTotals *out, double *largest)
{
	double		share_sum;

	for (int i = 0; i < n; i++)
		tmp[i] = share ? share[i] : 1.0;
	share_sum = sorted_sum(tmp, n);
	*largest = 0.0;
	for (int i = 0; i < n; i++)
	{
		a[i] = share ? share[i] : 1.0;
		if (method == GLICKO_TEAM_MEAN)
			a[i] = a[i] / share_sum;
		*largest = fmax(*largest, a[i] * (r[i].rd / GLICKO2_SCALE));
	}
	for (int i = 0; i < n; i++)
		tmp[i] = a[i];
	out->w = sorted_sum(tmp, n);
	for (int i = 0; i < n; i++)
		tmp[i] = a[i] * r[i].rating;
	out->strength = sorted_sum(tmp, n);
	for (int i = 0; i < n; i++)
		tmp[i] = a[i] * (r[i].rating / GLICKO2_SCALE);
	out->strength_scaled = sorted_sum(tmp, n);
	out->edge = adv ? glicko_team_edge(adv, party_weight(party, a, NULL, n, party_size, tmp),
									   share_sum) : 0.0;
}

/* 3 (a phi / scale)^2 of every player of both teams, added in ascending order. */
static double
both_u(const Glicko2Rating *ra, const double *aa, int na,
	   const Glicko2Rating *rb, const double *ab, int nb, double scale, double *tmp)
{
	for (int i = 0; i < na + nb; i++)
	{
		double		x = i < na ? aa[i] * (ra[i].rd / GLICKO2_SCALE) :
		ab[i - na] * (rb[i - na].rd / GLICKO2_SCALE);

		x = x / scale;
		tmp[i] = 3.0 * x * x;
	}
	return sorted_sum(tmp, na + nb);
}

double
glicko_team_probability(GlickoTeamMethod method,
						const Glicko2Rating *a, const double *a_share, int na,
						const Glicko2Rating *b, const double *b_share, int nb,
						double *scratch)
{
	return glicko_team_probability_edged(method, a, a_share, NULL, na, b, b_share, NULL, nb,
										 NULL, scratch, NULL);
}

/*
 * P(a beats b) = 1 / (1 + exp(-(M_a - M_b) / sqrt(s^2 + 3 (V_a + V_b) / pi^2))),
 * both teams' uncertainty counted, as glicko2_win_probability for players;
 * M with the teams' edges when an advantage is not zero.  Party numbers
 * index int_scratch (na + nb ints): a's and b's are each their team's own.
 */
double
glicko_team_probability_edged(GlickoTeamMethod method,
							  const Glicko2Rating *a, const double *a_share,
							  const int *a_party, int na,
							  const Glicko2Rating *b, const double *b_share,
							  const int *b_party, int nb,
							  const GlickoTeamAdvantage *adv,
							  double *scratch, int *int_scratch)
{
	return glicko_team_probability_covaried(method, a, a_share, a_party, na, b, b_share,
											b_party, nb, adv, 0.0, scratch, int_scratch);
}

/*
 * The same with covariances between the players (a teammates store,
 * docs/matches.md): covariance is sum over k != l of c_k c_l Sigma_kl on the
 * Glicko-2 scale (c = +a on a's players, -a on b's), added to V_a + V_b.
 * 0: glicko_team_probability_edged, the same bits.
 */
double
glicko_team_probability_covaried(GlickoTeamMethod method,
								 const Glicko2Rating *a, const double *a_share,
								 const int *a_party, int na,
								 const Glicko2Rating *b, const double *b_share,
								 const int *b_party, int nb,
								 const GlickoTeamAdvantage *adv, double covariance,
								 double *scratch, int *int_scratch)
{
	GlickoTeamTotals ta,
				tb;
	double	   *aa = scratch,
			   *ab = scratch + na,
			   *tmp = scratch + na + nb;
	double		largest_a,
				largest_b,
				scale,
				u;

	if (method == GLICKO_TEAM_INDIVIDUAL || method == GLICKO_TEAM_COMPOSITE)
	{
		Glicko2Rating ca,
					cb;

		glicko_team_composite_of(a, a_share, NULL, na, &ca);
		glicko_team_composite_of(b, b_share, NULL, nb, &cb);
		return glicko2_win_probability(&ca, &cb);
	}
	if (na == 1 && nb == 1 && (a_share == NULL || a_share[0] == 1.0) &&
		(b_share == NULL || b_share[0] == 1.0) && covariance == 0.0)
		return glicko2_win_probability(&a[0], &b[0]);

	if (adv != NULL && adv->party == 0.0 && adv->size == 0.0)
		adv = NULL;
	team_totals(method, a, a_share, a_party, na, adv, aa, tmp, int_scratch, &ta, &largest_a);
	team_totals(method, b, b_share, b_party, nb, adv, ab, tmp, int_scratch, &tb, &largest_b);
	scale = fmax(largest_a, largest_b) <= GLICKO_TEAM_LARGE_PHI ? 1.0 :
		fmax(largest_a, largest_b);
	u = both_u(a, aa, na, b, ab, nb, scale, tmp);
	if (covariance != 0.0)
		u = fmax(u + 3.0 * (covariance / scale) / scale, 0.0);
	return glicko_team_model_probability(&ta, &tb, u, scale);
}

/*
 * The team model's P from the teams' totals.  h = 1 / sqrt(s^2 + u / pi^2),
 * or, scaled (a phi beyond 1e100, s^2 negligible), pi / sqrt(u) / scale;
 * the gap in rating points, (A_a - A_b) - 1500 (W_a - W_b), or where that
 * overflows from the scaled strengths.
 */
double
glicko_team_model_probability(const GlickoTeamTotals *a, const GlickoTeamTotals *b,
							  double u, double scale)
{
	double		s2 = (a->w + b->w) / 2.0,
				h,
				gap,
				scaled;

	if (scale <= GLICKO_TEAM_LARGE_PHI)
		h = 1.0 / sqrt(s2 + u / PI_SQUARED);
	else
		h = M_PI / sqrt(u) / scale;

	gap = (a->strength - b->strength) - GLICKO2_CENTRE * (a->w - b->w);
	if (a->edge != 0.0 || b->edge != 0.0)
		gap += a->edge - b->edge;
	if (isfinite(gap))
		return glicko_logistic(h * gap / GLICKO2_SCALE);
	scaled = (a->strength_scaled - b->strength_scaled) -
		GLICKO2_CENTRE / GLICKO2_SCALE * (a->w - b->w);
	if (a->edge != 0.0 || b->edge != 0.0)
		scaled += (a->edge - b->edge) / GLICKO2_SCALE;
	return glicko_logistic(h * scaled);
}
