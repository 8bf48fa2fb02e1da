/*
 * teammates.c — one period of the team model with recurring teammates'
 * covariances (teammates.h; docs/matches.md, "Recurring teammates").
 *
 * On the Glicko-2 scale, for a player i with pairs, N = {i} + his pairs in
 * ascending player order:
 *   Sigma   = diag(phi_j^2 + t sigma_j^2) with the stored covariances / 173.7178^2
 *             (t = in->elapsed: Step 6's periods, 1 a close, 0 a live match)
 *   each team-pair game (t, u) of a match of a member of N, with
 *     c_k   = +a_k on t's members in N, -a_k on u's (a_k as team.c's),
 *     h     = 1 / sqrt(s^2 + 3 Phi_out^2 / pi^2), Phi_out^2 the a^2 phi^2 of
 *             the game's players outside N (g() of what is not modelled),
 *     E     = 1 / (1 + exp(-h D)), D = M_t - M_u as team.c's,
 *   adds lambda h^2 E (1 - E) c c' to J and lambda h (s - E) c to g;
 *   P = Sigma^-1 + J, Q = P^-1, delta = Q g (one Newton step, as Step 7 is);
 *   his effective sums: information 1/Q_ii - 1/Sigma_ii, surprise
 *   delta_i / Q_ii, so that Step 7 with his own phi* gives Q_ii and delta_i;
 *   each pair's correlation Q_ij / sqrt(Q_ii Q_jj), averaged over both
 *   players' solves.
 * With N = {i} this is the team model's terms exactly, and a player without
 * pairs gets them from team.c itself (the same bits as glicko2_match_sides).
 */
#include "teammates.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI_SQUARED (M_PI * M_PI)
#define NMAX (GLICKO_MATES_MAX_PAIRS + 1)

/* A match as kept for the neighbourhoods: its teams' totals and rows. */
typedef struct MatesMatch
{
	int			first_team;		/* teams first_team .. first_team + n_teams -
								 * 1 */
	int			n_teams;
	double		lambda;
} MatesMatch;

typedef struct MatesTeam
{
	int			first_row;		/* rows first_row .. end_row - 1 */
	int			end_row;
	int64_t		place;
	GlickoTeamTotals totals;
} MatesTeam;

typedef struct Candidate
{
	int			a;
	int			b;
	bool		stored;
	double		rank;			/* stored: |correlation|; new: matches
								 * together */
	double		covariance;
	double		correlation_sum;
	int			solves;
} Candidate;

static int
compare_int64(const void *x, const void *y)
{
	int64_t		a = *(const int64_t *) x,
				b = *(const int64_t *) y;

	return (a > b) - (a < b);
}

static int
compare_int(const void *x, const void *y)
{
	int			a = *(const int *) x,
				b = *(const int *) y;

	return (a > b) - (a < b);
}

/* Stored first, by rank descending, then by players. */
static int
compare_candidates(const void *x, const void *y)
{
	const Candidate *a = x,
			   *b = y;

	if (a->stored != b->stored)
		return a->stored ? -1 : 1;
	if (a->rank != b->rank)
		return a->rank > b->rank ? -1 : 1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

static int
compare_pairs(const void *x, const void *y)
{
	const GlickoMatesPair *a = x,
			   *b = y;
	double		ra = fabs(a->correlation),
				rb = fabs(b->correlation);

	if (ra != rb)
		return ra > rb ? -1 : 1;
	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

static inline int64_t
pair_key(int a, int b, int n)
{
	return a < b ? (int64_t) a * n + b : (int64_t) b * n + a;
}

/* The index of key in sorted keys[0..n-1], or -1. */
static int
find_key(const int64_t *keys, int n, int64_t key)
{
	int			lo = 0,
				hi = n - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (keys[mid] == key)
			return mid;
		if (keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* L L' = A (n x n, row-major); false if A is not positive definite. */
static bool
cholesky(const double *A, int n, double *L)
{
	for (int i = 0; i < n * n; i++)
		L[i] = 0.0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j <= i; j++)
		{
			double		s = A[i * n + j];

			for (int k = 0; k < j; k++)
				s -= L[i * n + k] * L[j * n + k];
			if (i == j)
			{
				if (!(s > 0.0) || !isfinite(s))
					return false;
				L[i * n + i] = sqrt(s);
			}
			else
				L[i * n + j] = s / L[j * n + j];
		}
	return true;
}

/* inv = A^-1 of a positive definite A; false if it is not. */
static bool
spd_inverse(const double *A, int n, double *inv)
{
	double		L[NMAX * NMAX],
				y[NMAX];

	if (!cholesky(A, n, L))
		return false;
	for (int c = 0; c < n; c++)
	{
		for (int i = 0; i < n; i++)
		{
			double		s = i == c ? 1.0 : 0.0;

			for (int k = 0; k < i; k++)
				s -= L[i * n + k] * y[k];
			y[i] = s / L[i * n + i];
		}
		for (int i = n - 1; i >= 0; i--)
		{
			double		s = y[i];

			for (int k = i + 1; k < n; k++)
				s -= L[k * n + i] * inv[k * n + c];
			inv[i * n + c] = s / L[i * n + i];
		}
	}
	return true;
}

/* The period's work, shared by the steps below. */
typedef struct Work
{
	const GlickoMatesPeriod *in;
	const GlickoMatesEnv *env;
	MatesMatch *matches;
	int			n_matches;
	MatesTeam  *teams;
	int			n_teams;
	double	   *row_a;			/* a_k of each row */
	double	   *row_x2;			/* (a_k phi_k)^2 of each row */
	int		   *row_team_of;	/* each row's team (index into teams) */
	int		   *player_start;	/* player p's matches:
								 * player_match[player_start[p] ..
								 * player_start[p + 1]) */
	int		   *player_match;
	int64_t    *stored_keys;	/* the store's pairs, sorted */
	double	   *stored_cov;		/* by stored_keys' order */
	Candidate  *pairs;			/* the pairs of the period */
	int			n_pair;
	int		   *degree;			/* per player: his pairs */
	int		   *partner_pair;	/* per player: GLICKO_MATES_MAX_PAIRS pair
								 * indexes */
	GlickoSums *sums;			/* per player: today's terms of his sides,
								 * summed */
	int		   *row_member;		/* a solve's: each row's member of N, -1 */
} Work;

/* The stored covariance of a and b on the Glicko-2 scale, or 0. */
static double
stored_covariance(const Work *w, int a, int b)
{
	int			k = find_key(w->stored_keys, w->in->n_pairs, pair_key(a, b, w->in->n_players));

	return k < 0 ? 0.0 : w->stored_cov[k] / (GLICKO2_SCALE * GLICKO2_SCALE);
}

/*
 * Reads the matches: each one's teams and today's terms (each player's
 * sides summed into w->sums as the close's pass sums them), the rows' a and
 * (a phi)^2.  Checks what the close refuses.
 */
static GlickoMatesStatus
read_matches(Work *w, GlickoMatesResult *out)
{
	const GlickoMatesPeriod *in = w->in;
	const GlickoMatesEnv *env = w->env;
	int		   *seen = env->alloc(sizeof(int) * (in->n_players > 0 ? in->n_players : 1));
	int			largest = 1;

	/* Sizes first: the largest match, the number of matches and teams. */
	for (int r = 0, start = 0; r <= in->n_rows; r++)
		if (r == in->n_rows || (r > 0 && in->row_match[r] != in->row_match[r - 1]))
		{
			if (r > start)
			{
				int			k = 0;

				for (int q = start; q < r; q++)
					if (q == start || in->row_team[q] != in->row_team[q - 1])
						k++;
				w->n_matches++;
				w->n_teams += k;
				largest = r - start > largest ? r - start : largest;
			}
			start = r;
		}
	w->matches = env->alloc(sizeof(MatesMatch) * (w->n_matches + 1));
	w->teams = env->alloc(sizeof(MatesTeam) * (w->n_teams + 1));
	w->row_a = env->alloc(sizeof(double) * (in->n_rows + 1));
	w->row_x2 = env->alloc(sizeof(double) * (in->n_rows + 1));
	w->row_team_of = env->alloc(sizeof(int) * (in->n_rows + 1));
	w->sums = env->alloc(sizeof(GlickoSums) * (in->n_players + 1));

	{
		int		   *team = env->alloc(sizeof(int) * largest);
		Glicko2Rating *rating = env->alloc(sizeof(Glicko2Rating) * largest);
		double	   *share = env->alloc(sizeof(double) * largest);
		int64_t    *place = env->alloc(sizeof(int64_t) * largest);
		int		   *party = env->alloc(sizeof(int) * largest);
		int		   *party_team = env->alloc(sizeof(int) * largest);
		double	   *doubles = env->alloc(sizeof(double) * glicko_team_work_doubles(largest, largest));
		int		   *ints = env->alloc(sizeof(int) * glicko_team_work_ints(largest, largest));
		int			m = 0,
					t = 0;

		for (int p = 0; p < in->n_players; p++)
			seen[p] = -1;
		for (int start = 0; start < in->n_rows;)
		{
			int			end = start + 1,
						k = 0;
			GlickoTeamMatch match;
			GlickoTeamWork work;
			GlickoTeamCursor cursor = {0, -1};
			GlickoTeamSide side;

			if ((m & 1023) == 0 && env->poll)
				env->poll();
			while (end < in->n_rows && in->row_match[end] == in->row_match[start])
				end++;
			for (int q = start; q < end; q++)
				party_team[q - start] = -1;
			for (int q = start; q < end; q++)
			{
				int			p = in->row_player[q];
				double		s = in->row_share ? in->row_share[q] : 1.0;

				out->bad_row = q;
				if (seen[p] == m)
					return GLICKO_MATES_TWICE;
				seen[p] = m;
				if (in->row_place[q] < 1)
					return GLICKO_MATES_BAD_PLACE;
				if (!glicko_team_share_ok(s))
					return GLICKO_MATES_BAD_SHARE;
				if (q > start && in->row_team[q] != in->row_team[q - 1])
					k++;
				else if (q > start && in->row_place[q] != in->row_place[q - 1])
					return GLICKO_MATES_TWO_PLACES;
				team[q - start] = k;
				party[q - start] = in->row_party ? in->row_party[q] : -1;
				if (party[q - start] >= end - start)
					return GLICKO_MATES_PARTY_TEAMS;
				if (party[q - start] >= 0)
				{
					if (party_team[party[q - start]] >= 0 && party_team[party[q - start]] != k)
						return GLICKO_MATES_PARTY_TEAMS;
					party_team[party[q - start]] = k;
				}
				rating[q - start] = in->rating[p];
				share[q - start] = s;
				place[k] = in->row_place[q];
				w->row_team_of[q] = t + k;
			}
			k++;
			if (k < 2)
				return GLICKO_MATES_ONE_TEAM;
			match.method = in->method;
			match.n_players = end - start;
			match.n_teams = k;
			match.team = team;
			match.rating = rating;
			match.share = in->row_share ? share : NULL;
			match.place = place;
			match.party = in->row_party ? party : NULL;
			match.advantage = in->advantage;
			glicko_team_prepare(&match, doubles, ints, &work);
			while (glicko_team_next(&work, &cursor, &side))
				glicko_add_terms(&w->sums[in->row_player[start + side.player]], &side.terms);
			w->matches[m].first_team = t;
			w->matches[m].n_teams = k;
			w->matches[m].lambda = work.lambda;
			for (int j = 0; j < k; j++)
			{
				MatesTeam  *mt = &w->teams[t + j];

				mt->place = place[j];
				mt->totals.w = work.w[j];
				mt->totals.strength = work.strength[j];
				mt->totals.strength_scaled = work.strength_scaled[j];
				mt->totals.edge = work.has_edge ? work.edge[j] : 0.0;
				mt->first_row = -1;
			}
			for (int q = start; q < end; q++)
			{
				MatesTeam  *mt = &w->teams[w->row_team_of[q]];

				if (mt->first_row < 0)
					mt->first_row = q;
				mt->end_row = q + 1;
				w->row_a[q] = work.a[q - start];
				w->row_x2[q] = work.x[q - start] * work.x[q - start];
			}
			t += k;
			m++;
			start = end;
		}
		env->release(team);
		env->release(rating);
		env->release(share);
		env->release(place);
		env->release(party);
		env->release(party_team);
		env->release(doubles);
		env->release(ints);
	}
	env->release(seen);

	/* Each player's matches. */
	w->player_start = env->alloc(sizeof(int) * (in->n_players + 1));
	w->player_match = env->alloc(sizeof(int) * (in->n_rows + 1));
	for (int q = 0; q < in->n_rows; q++)
		w->player_start[in->row_player[q] + 1]++;
	for (int p = 0; p < in->n_players; p++)
		w->player_start[p + 1] += w->player_start[p];
	{
		int		   *fill = env->alloc(sizeof(int) * (in->n_players + 1));

		memcpy(fill, w->player_start, sizeof(int) * in->n_players);
		for (int m = 0, q = 0; m < w->n_matches; m++)
		{
			const MatesMatch *mm = &w->matches[m];
			int			end = w->teams[mm->first_team + mm->n_teams - 1].end_row;

			for (; q < end; q++)
				w->player_match[fill[in->row_player[q]]++] = m;
		}
		env->release(fill);
	}
	return GLICKO_MATES_OK;
}

/* The pairs of the period: stored ones and recurring teammates, bounded. */
static GlickoMatesStatus
choose_pairs(Work *w, GlickoMatesResult *out)
{
	const GlickoMatesPeriod *in = w->in;
	const GlickoMatesEnv *env = w->env;
	int			n = in->n_players;
	size_t		n_together = 0;
	int64_t    *together;
	int			n_cand = 0;
	Candidate  *cand;

	/* The store, sorted by pair. */
	w->stored_keys = env->alloc(sizeof(int64_t) * (in->n_pairs + 1));
	w->stored_cov = env->alloc(sizeof(double) * (in->n_pairs + 1));
	{
		int64_t    *order = env->alloc(sizeof(int64_t) * 2 * (in->n_pairs + 1));

		for (int k = 0; k < in->n_pairs; k++)
		{
			out->bad_row = k;
			if (!(in->pair_a[k] < in->pair_b[k]) || in->pair_a[k] < 0 || in->pair_b[k] >= n ||
				!isfinite(in->pair_covariance[k]))
				return GLICKO_MATES_BAD_PAIR;
			order[2 * k] = pair_key(in->pair_a[k], in->pair_b[k], n);
			order[2 * k + 1] = k;
		}
		qsort(order, in->n_pairs, 2 * sizeof(int64_t), compare_int64);
		for (int k = 0; k < in->n_pairs; k++)
		{
			out->bad_row = (int) order[2 * k + 1];
			if (k > 0 && order[2 * k] == order[2 * k - 2])
				return GLICKO_MATES_BAD_PAIR;
			w->stored_keys[k] = order[2 * k];
			w->stored_cov[k] = in->pair_covariance[order[2 * k + 1]];
		}
		env->release(order);
	}

	/* Teammates of every team (of at most GLICKO_MATES_MAX_TEAM players). */
	for (int t = 0; t < w->n_teams; t++)
	{
		size_t		size = w->teams[t].end_row - w->teams[t].first_row;

		if (size <= GLICKO_MATES_MAX_TEAM)
			n_together += size * (size - 1) / 2;
	}
	together = env->alloc(sizeof(int64_t) * (n_together + 1));
	n_together = 0;
	for (int t = 0; t < w->n_teams; t++)
	{
		const MatesTeam *mt = &w->teams[t];

		if (mt->end_row - mt->first_row > GLICKO_MATES_MAX_TEAM)
			continue;
		for (int x = mt->first_row; x < mt->end_row; x++)
			for (int y = x + 1; y < mt->end_row; y++)
				together[n_together++] = pair_key(in->row_player[x], in->row_player[y], n);
	}
	qsort(together, n_together, sizeof(int64_t), compare_int64);

	/*
	 * (the new pairs counted first: every array here is zeroed, and sized for
	 * every pair of teammates it would be tens of megabytes)
	 */
	{
		size_t		n_new = 0;

		for (size_t k = 0, run; k < n_together; k = run)
		{
			for (run = k + 1; run < n_together && together[run] == together[k]; run++)
				;
			if (run - k >= (size_t) in->recur &&
				find_key(w->stored_keys, in->n_pairs, together[k]) < 0)
				n_new++;
		}
		cand = env->alloc(sizeof(Candidate) * (in->n_pairs + n_new + 1));
	}
	for (int k = 0; k < in->n_pairs; k++)
	{
		Candidate  *c = &cand[n_cand++];

		c->a = (int) (w->stored_keys[k] / n);
		c->b = (int) (w->stored_keys[k] % n);
		c->stored = true;
		c->covariance = w->stored_cov[k];
		c->rank = fabs(c->covariance) / (in->rating[c->a].rd * in->rating[c->b].rd);
	}
	for (size_t k = 0, run; k < n_together; k = run)
	{
		for (run = k + 1; run < n_together && together[run] == together[k]; run++)
			;
		if (run - k >= (size_t) in->recur &&
			find_key(w->stored_keys, in->n_pairs, together[k]) < 0)
		{
			Candidate  *c = &cand[n_cand++];

			c->a = (int) (together[k] / n);
			c->b = (int) (together[k] % n);
			c->stored = false;
			c->rank = (double) (run - k);
		}
	}
	env->release(together);
	qsort(cand, n_cand, sizeof(Candidate), compare_candidates);

	/* Greedy: a pair is kept while both players have room. */
	w->degree = env->alloc(sizeof(int) * (n + 1));
	w->partner_pair = env->alloc(sizeof(int) * GLICKO_MATES_MAX_PAIRS * (n + 1));
	/* (a pair takes room from two players: at most n * MAX_PAIRS / 2) */
	w->pairs = env->alloc(sizeof(Candidate) *
						  ((size_t) n_cand < (size_t) n * GLICKO_MATES_MAX_PAIRS / 2 + 1 ?
						   (size_t) n_cand + 1 : (size_t) n * GLICKO_MATES_MAX_PAIRS / 2 + 1));
	w->n_pair = 0;
	for (int k = 0; k < n_cand; k++)
	{
		const Candidate *c = &cand[k];

		if (w->degree[c->a] >= GLICKO_MATES_MAX_PAIRS || w->degree[c->b] >= GLICKO_MATES_MAX_PAIRS)
			continue;
		w->partner_pair[c->a * GLICKO_MATES_MAX_PAIRS + w->degree[c->a]++] = w->n_pair;
		w->partner_pair[c->b * GLICKO_MATES_MAX_PAIRS + w->degree[c->b]++] = w->n_pair;
		w->pairs[w->n_pair++] = *c;
	}
	env->release(cand);
	return GLICKO_MATES_OK;
}

/*
 * The terms of the game (t, u) for a strength of t's side (d/dmu of D = 1),
 * the variance of the players not modelled, out = sum a^2 phi^2, folded
 * into h as g() folds an opponent's: h = 1 / sqrt(s^2 + 3 out / pi^2), D as
 * team.c's team_z (the teams' edges included).
 */
static GlickoTerms
game_terms(const MatesTeam *tt, const MatesTeam *tu, double out)
{
	double		h = 1.0 / sqrt((tt->totals.w + tu->totals.w) / 2.0 + 3.0 * out / PI_SQUARED),
				gap = (tt->totals.strength - tu->totals.strength) -
	GLICKO2_CENTRE * (tt->totals.w - tu->totals.w) + (tt->totals.edge - tu->totals.edge),
				z;

	if (isfinite(gap))
		z = h * gap / GLICKO2_SCALE;
	else
		z = h * ((tt->totals.strength_scaled - tu->totals.strength_scaled) -
				 GLICKO2_CENTRE / GLICKO2_SCALE * (tt->totals.w - tu->totals.w) +
				 (tt->totals.edge - tu->totals.edge) / GLICKO2_SCALE);
	return glicko2_terms_gz(h, z, glicko_place_score(tt->place, tu->place));
}

/*
 * Player i's neighbourhood solve.  Returns false (today's terms stand) when
 * a number is out of range.
 */
static bool
solve(Work *w, int i, int *match_buf, GlickoTerms *effective, double *correlation)
{
	const GlickoMatesPeriod *in = w->in;
	int			N[NMAX],
				n = 1,
				me = 0,
				n_matches = 0;
	double		S[NMAX * NMAX],
				P[NMAX * NMAX],
				Q[NMAX * NMAX],
				g[NMAX] = {0},
				delta;

	/* N in ascending order. */
	N[0] = i;
	for (int d = 0; d < w->degree[i]; d++)
	{
		const Candidate *c = &w->pairs[w->partner_pair[i * GLICKO_MATES_MAX_PAIRS + d]];

		N[n++] = c->a == i ? c->b : c->a;
	}
	qsort(N, n, sizeof(int), compare_int);
	for (int k = 0; k < n; k++)
		if (N[k] == i)
			me = k;

	/* The prior; its covariances halved until it is positive definite. */
	for (int x = 0; x < n; x++)
	{
		const Glicko2Rating *r = &in->rating[N[x]];
		double		phi = r->rd / GLICKO2_SCALE;

		S[x * n + x] = phi * phi + in->elapsed * r->volatility * r->volatility;
		for (int y = x + 1; y < n; y++)
			S[x * n + y] = S[y * n + x] = stored_covariance(w, N[x], N[y]);
	}
	for (int tries = 0; !spd_inverse(S, n, P); tries++)
	{
		if (tries > 64)
			return false;
		for (int x = 0; x < n; x++)
			for (int y = 0; y < n; y++)
				if (x != y)
					S[x * n + y] = tries == 64 ? 0.0 : S[x * n + y] / 2.0;
	}

	/*
	 * Each member's games alone are today's terms (h folds everyone but him):
	 * his summed sides.  Only a match where two members play differs: there
	 * each game's individual terms are replaced by the rank-one term.
	 */
	for (int x = 0; x < n; x++)
	{
		P[x * n + x] += w->sums[N[x]].information;
		g[x] += w->sums[N[x]].surprise;
	}
	for (int k = 0; k < n; k++)
		for (int q = w->player_start[N[k]]; q < w->player_start[N[k] + 1]; q++)
			match_buf[n_matches++] = w->player_match[q];
	qsort(match_buf, n_matches, sizeof(int), compare_int);

	for (int k = 1; k < n_matches; k++)
	{
		const MatesMatch *mm = &w->matches[match_buf[k]];

		if (match_buf[k] != match_buf[k - 1] || (k > 1 && match_buf[k - 2] == match_buf[k]))
			continue;			/* (each match of two members or more, once) */
		/* (each row's member of N, -1 none: once a match, not once a game) */
		for (int q = w->teams[mm->first_team].first_row;
			 q < w->teams[mm->first_team + mm->n_teams - 1].end_row; q++)
		{
			w->row_member[q] = -1;
			for (int y = 0; y < n; y++)
				if (N[y] == in->row_player[q])
					w->row_member[q] = y;
		}
		for (int t = mm->first_team; t < mm->first_team + mm->n_teams; t++)
			for (int u = t + 1; u < mm->first_team + mm->n_teams; u++)
			{
				const MatesTeam *tt = &w->teams[t],
						   *tu = &w->teams[u];
				double		c[NMAX] = {0},
							x2[NMAX] = {0},
							out = 0.0;
				bool		in_n = false;
				GlickoTerms terms;

				for (int side = 0; side < 2; side++)
				{
					const MatesTeam *team = side == 0 ? tt : tu;

					for (int q = team->first_row; q < team->end_row; q++)
					{
						int			x = w->row_member[q];

						if (x < 0)
							out += w->row_x2[q];
						else
						{
							c[x] += side == 0 ? w->row_a[q] : -w->row_a[q];
							x2[x] = w->row_x2[q];
							in_n = true;
						}
					}
				}
				if (!in_n)
					continue;
				terms = game_terms(tt, tu, out);
				for (int x = 0; x < n; x++)
				{
					double		rest = out;
					GlickoTerms own;

					g[x] += mm->lambda * terms.surprise * c[x];
					for (int y = 0; y < n; y++)
						P[x * n + y] += mm->lambda * terms.information * c[x] * c[y];
					if (c[x] == 0.0)
						continue;
					/* his individual terms of this game, already in his sums */
					for (int y = 0; y < n; y++)
						if (y != x)
							rest += x2[y];
					own = game_terms(tt, tu, rest);
					g[x] -= mm->lambda * own.surprise * c[x];
					P[x * n + x] -= mm->lambda * own.information * c[x] * c[x];
				}
			}
	}
	if (!spd_inverse(P, n, Q))
		return false;
	delta = 0.0;
	for (int k = 0; k < n; k++)
		delta += Q[me * n + k] * g[k];
	effective->information = 1.0 / Q[me * n + me] - 1.0 / S[me * n + me];
	effective->surprise = delta / Q[me * n + me];
	if (!isfinite(effective->information) || !isfinite(effective->surprise))
		return false;
	if (effective->information < 0.0)
		effective->information = 0.0;
	/* The correlation with each partner, in his order of pairs. */
	for (int d = 0; d < w->degree[i]; d++)
	{
		const Candidate *c = &w->pairs[w->partner_pair[i * GLICKO_MATES_MAX_PAIRS + d]];
		int			j = c->a == i ? c->b : c->a;

		for (int k = 0; k < n; k++)
			if (N[k] == j)
				correlation[d] = Q[me * n + k] / sqrt(Q[me * n + me] * Q[k * n + k]);
		if (!isfinite(correlation[d]))
			return false;
	}
	return true;
}

GlickoMatesStatus
glicko_mates_period(const GlickoMatesPeriod *in, const GlickoMatesEnv *env,
					GlickoMatesResult *out)
{
	Work		w;
	GlickoMatesStatus status;
	GlickoTerms *effective;
	bool	   *joint;
	int		   *match_buf;
	int			largest = 1;

	memset(&w, 0, sizeof(w));
	memset(out, 0, sizeof(*out));
	w.in = in;
	w.env = env;
	if ((status = read_matches(&w, out)) != GLICKO_MATES_OK)
		return status;
	if ((status = choose_pairs(&w, out)) != GLICKO_MATES_OK)
		return status;
	out->bad_row = -1;

	/* The neighbourhoods. */
	effective = env->alloc(sizeof(GlickoTerms) * (in->n_players + 1));
	joint = env->alloc(sizeof(bool) * (in->n_players + 1));
	for (int p = 0; p < in->n_players; p++)
	{
		int			total = 0;

		if (w.degree[p] == 0)
			continue;
		total += w.player_start[p + 1] - w.player_start[p];
		for (int d = 0; d < w.degree[p]; d++)
		{
			const Candidate *c = &w.pairs[w.partner_pair[p * GLICKO_MATES_MAX_PAIRS + d]];
			int			j = c->a == p ? c->b : c->a;

			total += w.player_start[j + 1] - w.player_start[j];
		}
		largest = total > largest ? total : largest;
	}
	match_buf = env->alloc(sizeof(int) * largest);
	w.row_member = env->alloc(sizeof(int) * (in->n_rows + 1));
	for (int p = 0; p < in->n_players; p++)
	{
		double		correlation[NMAX];

		if ((p & 255) == 0 && env->poll)
			env->poll();
		if (w.degree[p] == 0 || w.player_start[p + 1] == w.player_start[p])
			continue;
		if (!solve(&w, p, match_buf, &effective[p], correlation))
			continue;
		joint[p] = true;
		out->joint++;
		for (int d = 0; d < w.degree[p]; d++)
		{
			Candidate  *c = &w.pairs[w.partner_pair[p * GLICKO_MATES_MAX_PAIRS + d]];

			c->correlation_sum += correlation[d];
			c->solves++;
		}
	}
	env->release(match_buf);
	env->release(w.row_member);

	/*
	 * The terms, one row a player with games: today's sums (the double the
	 * pass's double-double sum of his sides rounds to, which one row gives it
	 * again), or the effective sums of his neighbourhood.
	 */
	out->terms = env->alloc(sizeof(GlickoMatesTerm) * (in->n_players + 1));
	out->n_terms = 0;
	for (int p = 0; p < in->n_players; p++)
		if (w.sums[p].games > 0)
		{
			out->terms[out->n_terms].player = p;
			if (joint[p])
				out->terms[out->n_terms].terms = effective[p];
			else
			{
				out->terms[out->n_terms].terms.information = w.sums[p].information;
				out->terms[out->n_terms].terms.surprise = w.sums[p].surprise;
			}
			out->n_terms++;
		}

	/* The store after the period. */
	out->pairs = env->alloc(sizeof(GlickoMatesPair) * (w.n_pair + 1));
	out->n_pairs = 0;
	for (int k = 0; k < w.n_pair; k++)
	{
		const Candidate *c = &w.pairs[k];
		double		rho;

		if (c->solves > 0)
			rho = c->correlation_sum / c->solves;
		else if (c->stored && w.player_start[c->a + 1] == w.player_start[c->a] &&
				 w.player_start[c->b + 1] == w.player_start[c->b])
		{
			/* both idle: the covariance kept, the RDs grown by Step 6 */
			Glicko2Rating ra,
						rb;

			if (glicko2_idle(&in->rating[c->a], in->elapsed, in->max_rd, &ra) != GLICKO_OK ||
				glicko2_idle(&in->rating[c->b], in->elapsed, in->max_rd, &rb) != GLICKO_OK)
				continue;
			rho = c->covariance / (ra.rd * rb.rd);
		}
		else
			continue;
		if (!(fabs(rho) >= GLICKO_MATES_PRUNE) || !(fabs(rho) < 1.0))
			continue;
		out->pairs[out->n_pairs].a = c->a;
		out->pairs[out->n_pairs].b = c->b;
		out->pairs[out->n_pairs].correlation = rho;
		out->n_pairs++;
	}
	qsort(out->pairs, out->n_pairs, sizeof(GlickoMatesPair), compare_pairs);
	{
		int			kept = 0;

		memset(w.degree, 0, sizeof(int) * in->n_players);
		for (int k = 0; k < out->n_pairs; k++)
		{
			GlickoMatesPair *p = &out->pairs[k];

			if (w.degree[p->a] >= GLICKO_MATES_MAX_PAIRS || w.degree[p->b] >= GLICKO_MATES_MAX_PAIRS)
				continue;
			w.degree[p->a]++;
			w.degree[p->b]++;
			out->pairs[kept++] = *p;
		}
		out->n_pairs = kept;
	}

	env->release(effective);
	env->release(joint);
	env->release(w.matches);
	env->release(w.teams);
	env->release(w.row_a);
	env->release(w.row_x2);
	env->release(w.row_team_of);
	env->release(w.player_start);
	env->release(w.player_match);
	env->release(w.stored_keys);
	env->release(w.stored_cov);
	env->release(w.pairs);
	env->release(w.degree);
	env->release(w.partner_pair);
	env->release(w.sums);
	return GLICKO_MATES_OK;
}
