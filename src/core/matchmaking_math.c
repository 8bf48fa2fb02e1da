/*
 * matchmaking_math.c — fair teams for a lobby (exhaustive search with
 * symmetry breaking and bounds, or greedy, improving swaps and seeded random
 * restarts beyond it), and games from a waiting pool (a dynamic programme
 * over the rating order).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "matchmaking_math.h"

#define POLL_EVERY 4096

/* A lobby's units: a party, or one player without a party. */
typedef struct Units
{
	int			count;
	int		   *size;
	int		   *party;			/* party number, 0 for a lone player */
	double	   *rating_sum;
	double	   *rd_sum;
	double	   *scaled_sum;		/* sum r / 173.7178 */
	double	   *u_sum;			/* sum 3 (phi / scale)^2 */
	int		   *unit_of;		/* unit of each player */
	int		   *order;			/* units largest first, then by first player */
} Units;

/*
 * Running sums of each team: the composite is the means of rating and RD;
 * the team model's totals are the sums ('sum', a_i = 1) or the sums over
 * the team's size, its uncertainty over the size squared ('mean', a_i =
 * 1 / size).
 */
typedef struct Teams
{
	GlickoTeamMethod method;
	double		scale;			/* of u_sum: 1, or the lobby's largest phi
								 * beyond 1e100 */
	int			count;
	int			cap[MM_MAX_TEAMS];
	int			fill[MM_MAX_TEAMS];
	double		rating_sum[MM_MAX_TEAMS];
	double		rd_sum[MM_MAX_TEAMS];
	double		scaled_sum[MM_MAX_TEAMS];
	double		u_sum[MM_MAX_TEAMS];
	GlickoTeamAdvantage adv;	/* the team model's edges */
	bool		has_edge;
	int			party_members[MM_MAX_TEAMS];	/* players in units of two or
												 * more */
} Teams;

/* Team e's totals in the team model, and its sum of 3 (a phi / scale)^2. */
static void
model_totals(const Teams *t, int e, GlickoTeamTotals *out, double *u)
{
	double		size = t->fill[e];

	out->edge = 0.0;
	if (t->method == GLICKO_TEAM_MEAN)
	{
		out->w = 1.0;
		out->strength = t->rating_sum[e] / size;
		out->strength_scaled = t->scaled_sum[e] / size;
		*u = t->u_sum[e] / (size * size);
		if (t->has_edge)
			out->edge = glicko_team_edge(&t->adv, t->party_members[e] / size, size);
	}
	else
	{
		out->w = size;
		out->strength = t->rating_sum[e];
		out->strength_scaled = t->scaled_sum[e];
		*u = t->u_sum[e];
		if (t->has_edge)
			out->edge = glicko_team_edge(&t->adv, t->party_members[e], size);
	}
}

/* |p - 1/2|, p team a's win probability by the method (team.h's). */
static double
pair_cost(const Teams *t, int a, int b)
{
	if (t->method == GLICKO_TEAM_SUM || t->method == GLICKO_TEAM_MEAN)
	{
		GlickoTeamTotals ta,
					tb;
		double		ua,
					ub;

		model_totals(t, a, &ta, &ua);
		model_totals(t, b, &tb, &ub);
		return fabs(glicko_team_model_probability(&ta, &tb, ua + ub, t->scale) - 0.5);
	}
	else
	{
		/* 'composite', 'individual': the composites of the teams' means. */
		Glicko2Rating ca = {t->rating_sum[a] / t->fill[a], t->rd_sum[a] / t->fill[a], 0},
					cb = {t->rating_sum[b] / t->fill[b], t->rd_sum[b] / t->fill[b], 0};

		return fabs(glicko2_win_probability(&ca, &cb) - 0.5);
	}
}

/* The scale of the u sums: 1, or the largest phi where a square could overflow. */
static double
lobby_scale(const Glicko2Rating *players, int n)
{
	double		largest = 0.0;

	for (int i = 0; i < n; i++)
		largest = fmax(largest, players[i].rd / GLICKO2_SCALE);
	return largest <= GLICKO_TEAM_LARGE_PHI ? 1.0 : largest;
}

/* A player's 3 (phi / scale)^2. */
static inline double
player_u(const Glicko2Rating *p, double scale)
{
	double		x = (p->rd / GLICKO2_SCALE) / scale;

	return 3.0 * x * x;
}

/* The cost of a complete split: the most lopsided pair of teams. */
static double
teams_cost(const Teams *t)
{
	double		worst = 0.0;

	for (int a = 0; a < t->count; a++)
		for (int b = a + 1; b < t->count; b++)
		{
			double		c = pair_cost(t, a, b);

			if (c > worst)
				worst = c;
		}
	return worst;
}

/* Sizes differ by at most one: the first n % teams teams take one more.
 * adv NULL: no edges. */
static void
teams_init(Teams *t, int n, int teams, GlickoTeamMethod method, double scale,
		   const GlickoTeamAdvantage *adv)
{
	GlickoTeamAdvantage a = {0.0, 0.0};

	if (adv)
		a = *adv;				/* (before the memset: adv may be &t->adv) */
	memset(t, 0, sizeof(*t));
	t->method = method;
	t->scale = scale;
	t->adv = a;
	t->has_edge = (method == GLICKO_TEAM_SUM || method == GLICKO_TEAM_MEAN) &&
		(a.party != 0.0 || a.size != 0.0);
	t->count = teams;
	for (int i = 0; i < teams; i++)
		t->cap[i] = n / teams + (i < n % teams ? 1 : 0);
}

/* Unit k joins team e (sign 1) or leaves it (sign -1). */
static inline void
team_add(Teams *t, const Units *u, int k, int e, int sign)
{
	t->fill[e] += sign * u->size[k];
	t->party_members[e] += sign * (u->size[k] >= 2 ? u->size[k] : 0);
	t->rating_sum[e] += sign * u->rating_sum[k];
	t->rd_sum[e] += sign * u->rd_sum[k];
	t->scaled_sum[e] += sign * u->scaled_sum[k];
	t->u_sum[e] += sign * u->u_sum[k];
}

double
glicko_mm_split_cost(const Glicko2Rating *players, int n, const int *team, int teams,
					 GlickoTeamMethod method, const int *party, const GlickoTeamAdvantage *adv)
{
	Teams		t;

	teams_init(&t, n, teams, method, lobby_scale(players, n), adv);
	for (int i = 0; i < n; i++)
	{
		int			k = team[i] - 1;

		/* (a member of a party of two or more in his team) */
		for (int j = 0; party && party[i] > 0 && j < n; j++)
			if (j != i && party[j] == party[i] && team[j] == team[i])
			{
				t.party_members[k]++;
				break;
			}
		t.fill[k]++;
		t.rating_sum[k] += players[i].rating;
		t.rd_sum[k] += players[i].rd;
		t.scaled_sum[k] += players[i].rating / GLICKO2_SCALE;
		t.u_sum[k] += player_u(&players[i], t.scale);
	}
	return teams_cost(&t);
}

static void
units_free(Units *u, const MmEnv *env)
{
	env->release(u->size);
	env->release(u->party);
	env->release(u->rating_sum);
	env->release(u->rd_sum);
	env->release(u->scaled_sum);
	env->release(u->u_sum);
	env->release(u->unit_of);
	env->release(u->order);
}

typedef struct PartyMember
{
	int			party;
	int			player;
} PartyMember;

static int
party_member_cmp(const void *a, const void *b)
{
	const PartyMember *x = a,
			   *y = b;

	if (x->party != y->party)
		return x->party < y->party ? -1 : 1;
	return x->player < y->player ? -1 : x->player > y->player;
}

/* A unit's sort key: size, then (if by_rating) rating sum, then its number. */
typedef struct UnitKey
{
	int			size;
	double		rating_sum;
	int			unit;
} UnitKey;

static int
unit_key_cmp(const void *a, const void *b)
{
	const UnitKey *x = a,
			   *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	if (x->rating_sum != y->rating_sum)
		return x->rating_sum > y->rating_sum ? -1 : 1;
	return (x->unit > y->unit) - (x->unit < y->unit);
}

/*
 * u->order: units largest first, among equals (if by_rating) the highest
 * rated first, then by number (first player): what a stable insertion sort
 * gave, in O(n log n) (an insertion sort of a million units ran for
 * minutes).
 */
static void
units_order(Units *u, bool by_rating, const MmEnv *env)
{
	UnitKey    *keys = env->alloc(sizeof(UnitKey) * (u->count ? u->count : 1));

	for (int k = 0; k < u->count; k++)
	{
		keys[k].size = u->size[k];
		keys[k].rating_sum = by_rating ? u->rating_sum[k] : 0.0;
		keys[k].unit = k;
	}
	if (env->poll)
		env->poll();
	qsort(keys, u->count, sizeof(UnitKey), unit_key_cmp);
	for (int k = 0; k < u->count; k++)
		u->order[k] = keys[k].unit;
	env->release(keys);
}

/* Gather parties into units; false (and *bad_party) if one exceeds max_size. */
static bool
units_build(Units *u, const Glicko2Rating *players, const int *party, int n,
			int max_size, double scale, int *bad_party, const MmEnv *env)
{
	PartyMember *members = env->alloc(sizeof(PartyMember) * n);
	int		   *leader = env->alloc(sizeof(int) * n);
	int			m = 0;
	bool		ok = true;

	u->count = 0;
	u->size = env->alloc(sizeof(int) * n);
	u->party = env->alloc(sizeof(int) * n);
	u->rating_sum = env->alloc(sizeof(double) * n);
	u->rd_sum = env->alloc(sizeof(double) * n);
	u->scaled_sum = env->alloc(sizeof(double) * n);
	u->u_sum = env->alloc(sizeof(double) * n);
	u->unit_of = env->alloc(sizeof(int) * n);
	u->order = env->alloc(sizeof(int) * n);

	/* Each player's leader: the first player of the same party, or itself. */
	for (int i = 0; i < n; i++)
	{
		leader[i] = i;
		if (party && party[i] > 0)
		{
			members[m].party = party[i];
			members[m++].player = i;
		}
	}
	qsort(members, m, sizeof(PartyMember), party_member_cmp);
	for (int j = 1; j < m; j++)
		if (members[j].party == members[j - 1].party)
			leader[members[j].player] = leader[members[j - 1].player];

	for (int i = 0; i < n && ok; i++)
	{
		int			k;

		if (leader[i] == i)
		{
			k = u->count++;
			u->party[k] = party ? party[i] : 0;
		}
		else
			k = u->unit_of[leader[i]];
		u->unit_of[i] = k;
		u->size[k]++;
		u->rating_sum[k] += players[i].rating;
		u->rd_sum[k] += players[i].rd;
		u->scaled_sum[k] += players[i].rating / GLICKO2_SCALE;
		u->u_sum[k] += player_u(&players[i], scale);
		if (u->size[k] > max_size)
		{
			*bad_party = u->party[k];
			ok = false;
		}
	}
	env->release(members);
	env->release(leader);
	if (!ok)
		return false;
	/* Largest first (they are the hardest to place), then by first player. */
	units_order(u, false, env);
	return true;
}

/* Players' teams from units' teams, renumbered from 1 by first player. */
static void
write_teams(const Units *u, const int *unit_team, int n, int teams, int *team)
{
	int			number[MM_MAX_TEAMS];
	int			next = 1;

	for (int k = 0; k < teams; k++)
		number[k] = 0;
	for (int i = 0; i < n; i++)
	{
		int			k = unit_team[u->unit_of[i]];

		if (number[k] == 0)
			number[k] = next++;
		team[i] = number[k];
	}
}

static MmStatus
check_lobby(int n, int teams)
{
	if (teams < 2 || teams > MM_MAX_TEAMS || n < teams)
		return MM_TOO_FEW_PLAYERS;
	return MM_OK;
}

/* What both methods start from: the lobby checked, empty teams, the units. */
static MmStatus
lobby_start(const Glicko2Rating *players, const int *party, int n, int teams,
			GlickoTeamMethod method, const GlickoTeamAdvantage *adv, Units *u, Teams *t,
			int *bad_party, const MmEnv *env)
{
	MmStatus	status = check_lobby(n, teams);

	if (status != MM_OK)
		return status;
	teams_init(t, n, teams, method, lobby_scale(players, n), adv);
	if (!units_build(u, players, party, n, t->cap[0], t->scale, bad_party, env))
	{
		units_free(u, env);
		return MM_PARTY_TOO_LARGE;
	}
	return MM_OK;
}

/* The number of splits ignoring parties: n! / prod(size!) / prod(equal teams!). */
static double
split_count(int n, int teams)
{
	double		count = 1.0;
	int			big = n % teams,
				small = teams - big,
				left = n;

	for (int k = 0; k < teams; k++)
	{
		int			size = n / teams + (k < big ? 1 : 0);

		for (int i = 0; i < size; i++)	/* C(left, size) */
			count = count * (left - i) / (i + 1);
		left -= size;
	}
	for (int i = 2; i <= big; i++)
		count /= i;
	for (int i = 2; i <= small; i++)
		count /= i;
	return count;
}

/*
 * Exhaustive search over the units, largest first.  Symmetry: a unit goes
 * into an empty team only if no earlier team of the same size is empty, so
 * each split is visited once, not once per renumbering of its teams.  Bound:
 * a full team's sums are final, so the worst pair among full teams is a
 * lower bound on the split's cost; a branch whose bound reaches the best
 * cost so far cannot do better and is cut (ties keep the first split found).
 */
MmStatus
glicko_mm_balance_exact(const Glicko2Rating *players, const int *party, int n,
						int teams, GlickoTeamMethod method, const GlickoTeamAdvantage *adv,
						int *team, int *bad_party, const MmEnv *env)
{
	Units		u;
	Teams		t;
	MmStatus	status = lobby_start(players, party, n, teams, method, adv, &u, &t, bad_party, env);
	int		   *choice,
			   *best_team,
			   *unit_team;
	double	   *bound,
			   *saved_rating,
			   *saved_rd,
			   *saved_scaled,
			   *saved_u;
	double		best = INFINITY;
	long		steps = 0;
	int			level = 0;

	if (status != MM_OK)
		return status;
	choice = env->alloc(sizeof(int) * u.count);
	best_team = env->alloc(sizeof(int) * u.count);
	unit_team = env->alloc(sizeof(int) * u.count);
	bound = env->alloc(sizeof(double) * (u.count + 1));
	saved_rating = env->alloc(sizeof(double) * u.count);
	saved_rd = env->alloc(sizeof(double) * u.count);
	saved_scaled = env->alloc(sizeof(double) * u.count);
	saved_u = env->alloc(sizeof(double) * u.count);

	bound[0] = 0.0;
	choice[0] = -1;
	while (level >= 0)
	{
		int			k = u.order[level];
		int			next;

		if (env->poll && ++steps % POLL_EVERY == 0)
			env->poll();
		/* Take the unit back out of the team it was tried in. */
		if (choice[level] >= 0)
		{
			int			c = choice[level];

			t.fill[c] -= u.size[k];
			t.party_members[c] -= u.size[k] >= 2 ? u.size[k] : 0;
			t.rating_sum[c] = saved_rating[level];
			t.rd_sum[c] = saved_rd[level];
			t.scaled_sum[c] = saved_scaled[level];
			t.u_sum[c] = saved_u[level];
		}
		for (next = choice[level] + 1; next < teams; next++)
		{
			bool		symmetric = false;

			if (t.fill[next] + u.size[k] > t.cap[next])
				continue;
			if (t.fill[next] == 0)
				for (int e = 0; e < next && !symmetric; e++)
					symmetric = t.fill[e] == 0 && t.cap[e] == t.cap[next];
			if (!symmetric)
				break;
		}
		if (next >= teams)
		{
			level--;
			continue;
		}
		choice[level] = next;
		saved_rating[level] = t.rating_sum[next];
		saved_rd[level] = t.rd_sum[next];
		saved_scaled[level] = t.scaled_sum[next];
		saved_u[level] = t.u_sum[next];
		team_add(&t, &u, k, next, 1);

		bound[level + 1] = bound[level];
		if (t.fill[next] == t.cap[next])
			for (int e = 0; e < teams; e++)
				if (e != next && t.fill[e] == t.cap[e])
				{
					double		c = pair_cost(&t, next, e);

					if (c > bound[level + 1])
						bound[level + 1] = c;
				}
		if (bound[level + 1] >= best)
			continue;			/* cut: try the next team at this level */
		if (level == u.count - 1)
		{
			/* Every team is full: the bound is the split's cost. */
			best = bound[level + 1];
			for (int e = 0; e < u.count; e++)
				best_team[u.order[e]] = choice[e];
			continue;
		}
		level++;
		choice[level] = -1;
	}

	if (best == INFINITY)
		status = MM_PARTIES_DO_NOT_FIT;
	else
	{
		memcpy(unit_team, best_team, sizeof(int) * u.count);
		write_teams(&u, unit_team, n, teams, team);
	}
	env->release(choice);
	env->release(best_team);
	env->release(unit_team);
	env->release(bound);
	env->release(saved_rating);
	env->release(saved_rd);
	env->release(saved_scaled);
	env->release(saved_u);
	units_free(&u, env);
	return status;
}

static void
move_unit(Teams *t, const Units *u, int k, int from, int to)
{
	team_add(t, u, k, from, -1);
	team_add(t, u, k, to, 1);
}

/* Place units largest first; worst_fit: into the roomiest team, else the
 * team with the lowest mean rating so far.  False if a unit fits nowhere. */
static bool
greedy_place(Teams *t, const Units *u, int *unit_team, bool worst_fit, const MmEnv *env)
{
	for (int i = 0; i < u->count; i++)
	{
		int			k = u->order[i],
					pick = -1;

		if (env->poll && i % POLL_EVERY == 0)
			env->poll();

		for (int e = 0; e < t->count; e++)
		{
			if (t->fill[e] + u->size[k] > t->cap[e])
				continue;
			if (pick < 0)
				pick = e;
			else if (worst_fit ? t->cap[e] - t->fill[e] > t->cap[pick] - t->fill[pick]
					 : t->rating_sum[e] * t->cap[pick] < t->rating_sum[pick] * t->cap[e])
				pick = e;
		}
		if (pick < 0)
			return false;
		unit_team[k] = pick;
		team_add(t, u, k, pick, 1);
	}
	return true;
}

/*
 * Best improving swaps of two equal-sized units between teams until none
 * lowers the cost (or MM_MAX_SWAP_ROUNDS); returns the cost reached.  A
 * round costs about count^2 / 2 trials of teams^2 / 2 pair costs each, and
 * starts only if *budget (pair costs left for the lobby) covers it: the
 * search is bounded by MM_SWAP_BUDGET whatever the lobby (a huge one keeps
 * its greedy split).
 */
static double
improve_by_swaps(Teams *t, const Units *u, int *unit_team, double *budget,
				 const MmEnv *env)
{
	double		cost = teams_cost(t);
	double		round_cost = (double) u->count * (u->count - 1) / 2.0 *
	((double) t->count * (t->count - 1) / 2.0);
	long		trials = 0;

	for (int round = 0; round < MM_MAX_SWAP_ROUNDS && cost > 0.0 && round_cost <= *budget; round++)
	{
		int			best_a = -1,
					best_b = -1;
		double		best = cost;

		*budget -= round_cost;
		for (int a = 0; a < u->count; a++)
			for (int b = a + 1; b < u->count; b++)
			{
				int			ta = unit_team[a],
							tb = unit_team[b];
				double		c;

				if (env->poll && ++trials % POLL_EVERY == 0)
					env->poll();
				if (ta == tb || u->size[a] != u->size[b])
					continue;
				move_unit(t, u, a, ta, tb);
				move_unit(t, u, b, tb, ta);
				c = teams_cost(t);
				move_unit(t, u, b, ta, tb);
				move_unit(t, u, a, tb, ta);
				if (c < best)
				{
					best = c;
					best_a = a;
					best_b = b;
				}
			}
		if (best_a < 0)
			break;
		move_unit(t, u, best_a, unit_team[best_a], unit_team[best_b]);
		move_unit(t, u, best_b, unit_team[best_b], unit_team[best_a]);
		{
			int			x = unit_team[best_a];

			unit_team[best_a] = unit_team[best_b];
			unit_team[best_b] = x;
		}
		cost = teams_cost(t);
	}
	return cost;
}

/*
 * A split keeping every party together when greedy placement found none:
 * an exact search over the multiset of party sizes (parties of one size are
 * interchangeable, so only how many of each size a team takes matters),
 * team by team.  Each team takes a pattern, a count of each size at most its
 * size in all, largest sizes first and most first; the room a pattern leaves
 * is lone players', so the patterns together may leave no more room than
 * there are lone players.  Teams of one size are interchangeable: each takes
 * a pattern no greater (in that order) than the previous one's.  A state
 * that failed, (team, parties left, that bound), is remembered, and not
 * searched again under the same bound or a smaller one.
 * FIT_UNKNOWN after MM_FIT_STEPS patterns.
 */
typedef enum
{
	FIT_FOUND, FIT_NONE, FIT_UNKNOWN
} FitResult;

typedef struct Fit
{
	int			teams;
	const int  *cap;
	int			sizes;			/* distinct party sizes, largest first */
	int		   *size;
	int		   *left;			/* parties of each size not yet placed */
	int		   *take;			/* take[j * sizes + s]: team j's count of size
								 * s */
	int			slack;			/* lone players not yet placed */
	long		steps;
	/* failed states: (team, left[]) in keys, an open-addressing index */
	int		   *keys;
	int			n_keys,
				max_keys;
	int		   *slot;			/* 1 + key number, 0 empty */
	uint32_t	slot_mask;
	const MmEnv *env;
} Fit;

static uint32_t
fit_hash(const Fit *f, int team)
{
	uint32_t	h = 2166136261u ^ (uint32_t) team;

	for (int s = 0; s < f->sizes; s++)
		h = (h ^ (uint32_t) f->left[s]) * 16777619u;
	return h;
}

/* Is pattern a at least pattern b (in the search's order)? */
static bool
pattern_at_least(const int *a, const int *b, int d)
{
	for (int s = 0; s < d; s++)
		if (a[s] != b[s])
			return a[s] > b[s];
	return true;
}

/*
 * Has (team, left) failed before, with no bound on its pattern or a bound at
 * least prev (NULL: none)?  With add: remember that it has, under prev.  A
 * key is team, left[], whether bounded, the bound.
 */
static bool
fit_failed(Fit *f, int team, const int *prev, bool add)
{
	int			d = f->sizes,
				width = 2 * d + 2;

	for (uint32_t i = fit_hash(f, team) & f->slot_mask;; i = (i + 1) & f->slot_mask)
	{
		int		   *key;

		if (f->slot[i] == 0)
		{
			if (add && f->n_keys < f->max_keys)
			{
				key = &f->keys[f->n_keys * width];
				key[0] = team;
				memcpy(key + 1, f->left, sizeof(int) * d);
				key[d + 1] = prev != NULL;
				if (prev)
					memcpy(key + d + 2, prev, sizeof(int) * d);
				f->slot[i] = ++f->n_keys;
			}
			return false;
		}
		key = &f->keys[(f->slot[i] - 1) * width];
		if (!add && key[0] == team && memcmp(key + 1, f->left, sizeof(int) * d) == 0 &&
			(key[d + 1] == 0 || (prev != NULL && pattern_at_least(key + d + 2, prev, d))))
			return true;
	}
}

static FitResult
fit_team(Fit *f, int j)
{
	int		   *x,
			   *prev;
	int			d = f->sizes,
				s;
	FitResult	result = FIT_NONE;

	if (j == f->teams)
		return FIT_FOUND;		/* (every party placed: the rooms left sum to
								 * slack) */
	x = &f->take[j * d];
	prev = j > 0 && f->cap[j] == f->cap[j - 1] ? &f->take[(j - 1) * d] : NULL;
	if (fit_failed(f, j, prev, false))
		return FIT_NONE;
	/* The patterns, most of the largest size first: an odometer over x[]. */
	{
		int		   *rest = f->env->alloc(sizeof(int) * (d + 1));	/* room before size s */
		int		   *after = f->env->alloc(sizeof(int) * (d + 1));	/* what sizes s.. can
																	 * fill */

		after[d] = 0;
		for (s = d - 1; s >= 0; s--)
			after[s] = after[s + 1] + f->left[s] * f->size[s];
		rest[0] = f->cap[j];
		s = 0;
		for (;;)
		{
			bool		greater = false,
						decided = prev == NULL;

			/* Fill sizes s.. as much as each allows. */
			for (; s < d; s++)
			{
				x[s] = rest[s] / f->size[s];
				if (x[s] > f->left[s])
					x[s] = f->left[s];
				rest[s + 1] = rest[s] - x[s] * f->size[s];
			}
			if (++f->steps > MM_FIT_STEPS)
			{
				result = FIT_UNKNOWN;
				break;
			}
			if (f->env->poll && f->steps % POLL_EVERY == 0)
				f->env->poll();
			/* (no greater than the previous team's pattern, if alike) */
			for (int t = 0; !decided && t < d; t++)
				if (x[t] != prev[t])
				{
					greater = x[t] > prev[t];
					decided = true;
				}
			if (!greater && rest[d] <= f->slack)
			{
				FitResult	r;

				for (int t = 0; t < d; t++)
					f->left[t] -= x[t];
				f->slack -= rest[d];
				r = fit_team(f, j + 1);
				for (int t = 0; t < d; t++)
					f->left[t] += x[t];
				f->slack += rest[d];
				if (r != FIT_NONE)
				{
					result = r;
					break;
				}
			}

			/*
			 * The next pattern: one fewer of the last size that can spare
			 * one, while the sizes after it could still fill the room to
			 * slack.
			 */
			for (s = d - 1; s >= 0; s--)
				if (x[s] > 0 && rest[s] - (x[s] - 1) * f->size[s] -
					(after[s + 1] < rest[s] ? after[s + 1] : rest[s]) <= f->slack)
					break;
			if (s < 0)
				break;
			x[s]--;
			rest[s + 1] = rest[s] - x[s] * f->size[s];
			s++;
		}
		f->env->release(rest);
		f->env->release(after);
	}
	if (result == FIT_NONE)
		(void) fit_failed(f, j, prev, true);
	return result;
}

static FitResult
fit_parties(Teams *t, const Units *u, int *unit_team, const MmEnv *env)
{
	Fit			f;
	int		   *size_of = env->alloc(sizeof(int) * (u->count ? u->count : 1));
	int			singles = 0;
	FitResult	result;

	memset(&f, 0, sizeof(f));
	f.teams = t->count;
	f.cap = t->cap;
	f.env = env;
	f.size = env->alloc(sizeof(int) * (u->count ? u->count : 1));
	f.left = env->alloc(sizeof(int) * (u->count ? u->count : 1));
	/* The distinct sizes of 2 or more, largest first (u->order is). */
	for (int j = 0; j < u->count; j++)
	{
		int			k = u->order[j];

		if (u->size[k] < 2)
		{
			singles++;
			continue;
		}
		if (f.sizes == 0 || f.size[f.sizes - 1] != u->size[k])
			f.size[f.sizes++] = u->size[k];
		f.left[f.sizes - 1]++;
		size_of[k] = f.sizes - 1;
	}
	f.slack = singles;
	f.take = env->alloc(sizeof(int) * (size_t) f.teams * (f.sizes ? f.sizes : 1));

	/*
	 * At most 8 MB of failed states (then no more are kept), a quarter of the
	 * index used.
	 */
	f.max_keys = (int) ((8L << 20) / ((long) sizeof(int) * (2 * f.sizes + 2)));
	if (f.max_keys > 1 << 16)
		f.max_keys = 1 << 16;
	f.slot_mask = 1;
	while (f.slot_mask < (uint32_t) f.max_keys * 4)
		f.slot_mask <<= 1;
	f.slot = env->alloc(sizeof(int) * f.slot_mask);
	f.slot_mask--;
	f.keys = env->alloc(sizeof(int) * (size_t) f.max_keys * (2 * f.sizes + 2));

	result = fit_team(&f, 0);
	if (result == FIT_FOUND)
	{
		/*
		 * Each team's count of each size, then the lone players where room is
		 * left.
		 */
		for (int j = 0; j < u->count; j++)
		{
			int			k = u->order[j],
						e = 0;

			if (u->size[k] < 2)
				continue;
			while (f.take[e * f.sizes + size_of[k]] == 0)
				e++;
			f.take[e * f.sizes + size_of[k]]--;
			unit_team[k] = e;
			team_add(t, u, k, e, 1);
		}
		for (int k = 0, e = 0; k < u->count; k++)
			if (u->size[k] == 1)
			{
				while (t->fill[e] == t->cap[e])
					e++;
				unit_team[k] = e;
				team_add(t, u, k, e, 1);
			}
	}
	env->release(f.keys);
	env->release(f.slot);
	env->release(f.take);
	env->release(f.left);
	env->release(f.size);
	env->release(size_of);
	return result;
}

/*
 * Beyond the exact limit: units placed greedily (highest rated first, each
 * into the team with the lowest rating sum per place), improved by swaps
 * (improve_by_swaps); then MM_RESTARTS more starts from random splits (a
 * fixed generator: the same lobby gives the same split; fewer starts beyond
 * 64 units), each improved the same way; the best split found wins.
 */
MmStatus
glicko_mm_balance_heuristic(const Glicko2Rating *players, const int *party, int n,
							int teams, GlickoTeamMethod method, const GlickoTeamAdvantage *adv,
							int *team, int *bad_party, const MmEnv *env)
{
	Units		u;
	Teams		t;
	MmStatus	status = lobby_start(players, party, n, teams, method, adv, &u, &t, bad_party, env);
	int		   *unit_team,
			   *best_team;
	double		best;
	uint64_t	state = 0x9E3779B97F4A7C15ULL;
	int			restarts;
	double		budget = MM_SWAP_BUDGET;

	if (status != MM_OK)
		return status;
	/* Among units of one size, the highest rated first. */
	units_order(&u, true, env);
	unit_team = env->alloc(sizeof(int) * u.count);
	best_team = env->alloc(sizeof(int) * u.count);
	if (!greedy_place(&t, &u, unit_team, false, env))
	{
		teams_init(&t, n, teams, t.method, t.scale, &t.adv);
		if (!greedy_place(&t, &u, unit_team, true, env))
		{
			FitResult	fit;

			/*
			 * Greedy placement can miss a split that keeps every party
			 * together: search.
			 */
			teams_init(&t, n, teams, t.method, t.scale, &t.adv);
			fit = fit_parties(&t, &u, unit_team, env);
			if (fit != FIT_FOUND)
			{
				env->release(unit_team);
				env->release(best_team);
				units_free(&u, env);
				return fit == FIT_NONE ? MM_PARTIES_DO_NOT_FIT : MM_PARTIES_UNSETTLED;
			}
		}
	}
	best = improve_by_swaps(&t, &u, unit_team, &budget, env);
	memcpy(best_team, unit_team, sizeof(int) * u.count);

	/*
	 * Each start costs about count^2 swap trials a round: fewer beyond 64
	 * units.
	 */
	restarts = u.count <= 64 ? MM_RESTARTS : MM_RESTARTS * 64 * 64 / (u.count * u.count);
	for (int restart = 0; restart < restarts && best > 0.0; restart++)
	{
		bool		placed = true;

		/*
		 * A random split: largest units first, each into a random team with
		 * room.
		 */
		teams_init(&t, n, teams, t.method, t.scale, &t.adv);
		for (int i = 0; i < u.count && placed; i++)
		{
			int			k = u.order[i],
						room = 0,
						pick;

			for (int e = 0; e < teams; e++)
				room += t.fill[e] + u.size[k] <= t.cap[e];
			if (room == 0)
			{
				placed = false;
				break;
			}
			state ^= state << 13;
			state ^= state >> 7;
			state ^= state << 17;
			pick = (int) (state % (uint64_t) room);
			for (int e = 0; e < teams; e++)
				if (t.fill[e] + u.size[k] <= t.cap[e] && pick-- == 0)
				{
					unit_team[k] = e;
					team_add(&t, &u, k, e, 1);
					break;
				}
		}
		if (!placed)
			continue;
		{
			double		c = improve_by_swaps(&t, &u, unit_team, &budget, env);

			if (c < best)
			{
				best = c;
				memcpy(best_team, unit_team, sizeof(int) * u.count);
			}
		}
	}
	write_teams(&u, best_team, n, teams, team);
	env->release(unit_team);
	env->release(best_team);
	units_free(&u, env);
	return MM_OK;
}

MmStatus
glicko_mm_balance(const Glicko2Rating *players, const int *party, int n, int teams,
				  GlickoTeamMethod method, const GlickoTeamAdvantage *adv, int *team,
				  bool *exact, int *bad_party, const MmEnv *env)
{
	MmStatus	status = check_lobby(n, teams);

	if (status != MM_OK)
		return status;
	*exact = n <= MM_EXACT_PLAYERS || split_count(n, teams) <= MM_EXACT_SPLITS;
	if (*exact)
		return glicko_mm_balance_exact(players, party, n, teams, method, adv, team, bad_party, env);
	return glicko_mm_balance_heuristic(players, party, n, teams, method, adv, team, bad_party, env);
}

/* A double's order as an unsigned integer's: flip every bit of a negative
 * number, only the sign bit of a positive one (+0 for -0, so they tie). */
static uint64_t
rating_key(double x)
{
	uint64_t	bits;

	if (x == 0.0)
		x = 0.0;
	memcpy(&bits, &x, sizeof(bits));
	return (bits >> 63) ? ~bits : bits | ((uint64_t) 1 << 63);
}

void
glicko_mm_sort_by_rating(const double *rating, int n, int *order, const MmEnv *env)
{
	uint64_t   *key = env->alloc(sizeof(uint64_t) * n),
			   *key_to = env->alloc(sizeof(uint64_t) * n);
	int		   *order_to = env->alloc(sizeof(int) * n),
			   *from = order;

	for (int i = 0; i < n; i++)
	{
		key[i] = rating_key(rating[i]);
		order[i] = i;
	}

	/*
	 * A byte a pass, least significant first; each pass is stable, so equal
	 * keys keep the position order they started in.
	 */
	for (int shift = 0; shift < 64; shift += 8)
	{
		int			start[257] = {0};
		uint64_t   *swap_key;
		int		   *swap_order;

		if (env->poll)
			env->poll();
		for (int i = 0; i < n; i++)
			start[((key[i] >> shift) & 0xff) + 1]++;
		if (n == 0 || start[((key[0] >> shift) & 0xff) + 1] == n)
			continue;			/* every key has this byte: nothing moves */
		for (int b = 0; b < 256; b++)
			start[b + 1] += start[b];
		for (int i = 0; i < n; i++)
		{
			int			to = start[(key[i] >> shift) & 0xff]++;

			key_to[to] = key[i];
			order_to[to] = from[i];
		}
		swap_key = key, key = key_to, key_to = swap_key;
		swap_order = from, from = order_to, order_to = swap_order;
	}
	if (from != order)
	{
		memcpy(order, from, sizeof(int) * n);
		order_to = from;
	}
	env->release(key);
	env->release(key_to);
	env->release(order_to);
}

/*
 * Why consecutive pairs are optimal (size 2).  Let f(d) = d^2: increasing,
 * and superadditive (f(x) + f(y) <= f(x + y)).  Call a pair i < j (positions
 * in rating order) allowed when its gap is within the tolerance of everyone
 * rated from rating[i] to rating[j], both included (ties too, so the rule
 * does not depend on how ties are ordered); then every pair inside an
 * allowed pair is allowed.  Take an
 * optimal matching (most pairs, then least sum of f(gap)) and, while it has
 *  - crossing pairs a < b < c < d matched (a,c), (b,d): use (a,b), (c,d);
 *    both gaps shrink, f is increasing;
 *  - nested pairs (a,d), (b,c): use (a,b), (c,d); f(b-a) + f(d-c) <=
 *    f((b-a) + (d-c)) <= f(d-a) <= f(d-a) + f(c-b);
 *  - a pair (a,c) around an unmatched b: use (a,b); its gap is smaller;
 * each step keeps the number of pairs, does not raise the cost, keeps every
 * pair allowed (each new pair lies inside an old one) and strictly shrinks
 * the sum of the pairs' position spans, so it ends, in a matching of the
 * same cost whose pairs are neighbours in rating order.  The programme below
 * finds the best such matching exactly: best(i) over the first i players is
 * best(i - 1) (player i - 1 waits) or best(i - 2) plus the pair (i-2, i-1).
 * For size > 2 the same programme is exact among groupings into consecutive
 * runs (not proved optimal over every grouping).
 */
int
glicko_mm_group_runs(const double *rating, const double *tolerance, int n, int size,
					 int *first, double *work, const MmEnv *env)
{
	double	   *games = work,
			   *cost = work + (n + 1),
			   *take = work + 2 * (n + 1),
			   *tied = work + 3 * (n + 1);
	int			count = 0;

	/* tied[k]: the least tolerance among the players rated exactly rating[k]. */
	for (int k = 0; k < n;)
	{
		int			end = k;
		double		least = tolerance[k];

		while (end + 1 < n && rating[end + 1] == rating[k])
			if (tolerance[++end] < least)
				least = tolerance[end];
		for (; k <= end; k++)
			tied[k] = least;
	}

	games[0] = 0.0;
	cost[0] = 0.0;
	take[0] = 0.0;
	for (int i = 1; i <= n; i++)
	{
		games[i] = games[i - 1];
		cost[i] = cost[i - 1];
		take[i] = 0.0;
		if (env->poll && i % (POLL_EVERY * 16) == 0)
			env->poll();
		if (i >= size)
		{
			int			lo = i - size;
			double		spread = rating[i - 1] - rating[lo],
						limit = fmin(tied[lo], tied[i - 1]);
			double		g,
						c;

			for (int k = lo + 1; k < i - 1; k++)
				if (tolerance[k] < limit)
					limit = tolerance[k];
			if (!(spread <= limit))
				continue;
			g = games[lo] + 1.0;
			c = cost[lo] + spread * spread;
			if (g > games[i] || (g == games[i] && c < cost[i]))
			{
				games[i] = g;
				cost[i] = c;
				take[i] = 1.0;
			}
		}
	}
	for (int i = n; i > 0;)
	{
		if (take[i] != 0.0)
		{
			first[count++] = i - size;
			i -= size;
		}
		else
			i--;
	}
	/* Backtracking found them last first. */
	for (int a = 0, b = count - 1; a < b; a++, b--)
	{
		int			x = first[a];

		first[a] = first[b];
		first[b] = x;
	}
	return count;
}
