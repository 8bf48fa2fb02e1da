/*
 * team.h — one team or free-for-all match as each player's terms of the
 * paper's Step 3/4 sums, by one of four methods (docs/matches.md derives
 * them):
 *   'sum', 'mean'   the team model: a team's strength is sum a_i mu_i
 *                   (a_i = the player's play share, or that share over the
 *                   team's), every pair of teams one game whose E comes from
 *                   the teams, each player credited with d(team)/d(mu_i) of it;
 *   'individual'    one game against every player of every other team,
 *                   the k players of a team sharing one game's weight;
 *   'composite'     one game against every other team as one player of the
 *                   team's mean rating, RD and volatility (Williams 2013).
 * In a match of m > 2 teams each pairwise game of 'sum', 'mean' and
 * 'individual' is weighted by lambda_m (glicko_team_lambda).
 *
 * Plain C99 with libm, nothing of PostgreSQL.  Players are numbered
 * 0..n-1 and teams 0..k-1 by the caller; ratings are on the public scale,
 * checked by the caller, an unrated player given the defaults.  Whatever the
 * order of the players and of the teams, every term has the same bits: the
 * sums over players add their values in ascending order.  A one-on-one game
 * (one player a side, share 1) gives the paper's terms bit for bit.
 */
#ifndef GLICKO_TEAM_H
#define GLICKO_TEAM_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glicko_math.h"

typedef enum GlickoTeamMethod
{
	GLICKO_TEAM_SUM,
	GLICKO_TEAM_MEAN,
	GLICKO_TEAM_INDIVIDUAL,
	GLICKO_TEAM_COMPOSITE
} GlickoTeamMethod;

/*
 * The most players one match may have: 'individual' and a free-for-all's
 * pairwise games cost n^2 sides.  glicko2_match_sides (every close of
 * matches) and the live trigger glicko2_rate_matches refuse more (54000).
 */
#define GLICKO_TEAM_MAX_PLAYERS 10000

/* A play share, the part of a match a player played: in (0, 1] (false for NaN). */
static inline bool
glicko_team_share_ok(double share)
{
	return share > 0.0 && share <= 1.0;
}

/*
 * A team's edges in the team model, in rating points (docs/matches.md): a
 * member of a premade party (two or more players of one team queued
 * together) adds party * a_i to his team's strength, and the team adds
 * size * (sum of its play shares - 1).  Zero: today's terms, bit for bit.
 * 'individual' and 'composite' take none (their callers refuse them).
 */
typedef struct GlickoTeamAdvantage
{
	double		party;
	double		size;
} GlickoTeamAdvantage;

/* Both advantages finite (false for NaN). */
static inline bool
glicko_team_advantage_ok(const GlickoTeamAdvantage *adv)
{
	return isfinite(adv->party) && isfinite(adv->size);
}

/* A match as the caller gives it. */
typedef struct GlickoTeamMatch
{
	GlickoTeamMethod method;
	int			n_players;
	int			n_teams;		/* >= 2 */
	const int  *team;			/* team of each player, 0..n_teams-1, none
								 * empty */
	const Glicko2Rating *rating;	/* each player's pre-period rating */
	const double *share;		/* each player's play share in (0, 1]; NULL:
								 * all 1 */
	const int64_t *place;		/* each team's place (1 first, equal places
								 * tie) */
	const int  *party;			/* each player's party, 0..n_players-1, its
								 * players all of one team, or -1 alone; NULL:
								 * everyone alone */
	GlickoTeamAdvantage advantage;	/* 'sum', 'mean' only */
} GlickoTeamMatch;

/*
 * What a match needs besides its input, in memory the caller provides
 * (glicko_team_work_doubles and _ints elements) and glicko_team_prepare fills.
 */
typedef struct GlickoTeamWork
{
	const GlickoTeamMatch *match;
	double		lambda;
	bool		large_phi;		/* some a_i phi_i beyond 1e100: scaled sums */
	bool		has_edge;		/* a non-zero advantage: edge[] enters E */
	int		   *members;		/* players by team */
	int		   *team_start;		/* members of t: members[team_start[t] ..
								 * team_start[t + 1]) */
	double	   *a;				/* per player: weight in the team strength */
	double	   *x;				/* per player: a_i phi_i */
	double	   *u;				/* per player: 3 x_i^2 */
	double	   *u_rest;			/* per player: the team's sum of u without his
								 * own */
	double	   *w;				/* per team: sum a_i */
	double	   *strength;		/* per team: sum a_i r_i (public scale) */
	double	   *strength_scaled;	/* per team: sum a_i (r_i / 173.7178) */
	double	   *u_sum;			/* per team: sum u_i */
	double	   *share_sum;		/* per team: sum of play shares */
	double	   *edge;			/* per team: its party and size edges (points) */
	int		   *party_size;		/* per party: its players */
	Glicko2Rating *composite;	/* per team ('composite') */
	double	   *scratch;		/* n_players */
} GlickoTeamWork;

/* One game side of a match: a player's terms against one opposing team
 * (or, 'individual', one opposing player). */
typedef struct GlickoTeamSide
{
	int			player;
	int			opponent;		/* a team, or ('individual') a player */
	double		score;			/* the player's team's result: 1, 0.5 or 0 */
	double		expected;		/* E of the game as the player's terms see it */
	double		weight;			/* the factor on the game's terms */
	GlickoTerms terms;			/* what the player adds to his Step 3/4 sums */
} GlickoTeamSide;

/* Where an iteration over a match's sides stands; start at {0, -1}. */
typedef struct GlickoTeamCursor
{
	int			player;
	int			opponent;
} GlickoTeamCursor;

extern size_t glicko_team_work_doubles(int n_players, int n_teams);
extern size_t glicko_team_work_ints(int n_players, int n_teams);
extern void glicko_team_prepare(const GlickoTeamMatch *match, double *doubles,
								int *ints, GlickoTeamWork *work);

/* The next side after *cursor, in player order then opponent order; false at the end. */
extern bool glicko_team_next(const GlickoTeamWork *work, GlickoTeamCursor *cursor,
							 GlickoTeamSide *side);

/* lambda_m = 4 (m - H_m) / (m (m - 1)), the weight of one of the m (m - 1) / 2
 * pairwise games of one ranking of m teams; lambda_2 = 1. */
extern double glicko_team_lambda(int m);

/* A team's result against another from their places: 1 better, 0 worse, 0.5 tied. */
extern double glicko_place_score(int64_t place, int64_t other_place);

/*
 * Team a beats team b ('sum', 'mean': the team model with both teams'
 * uncertainty; 'individual', 'composite': glicko2_win_probability of the
 * composites, each player counted by his share).  shares NULL: all 1, the
 * same bits as shares of 1.  Teams of one with share 1 give
 * glicko2_win_probability; p(a, b) + p(b, a) = 1.  scratch: 2 (na + nb)
 * doubles.
 */
extern double glicko_team_probability(GlickoTeamMethod method,
									  const Glicko2Rating *a, const double *a_share, int na,
									  const Glicko2Rating *b, const double *b_share, int nb,
									  double *scratch);

/*
 * The same with the teams' edges ('sum', 'mean'; adv NULL or zero: the same
 * bits): a_party and b_party each player's party within his team (-1 alone;
 * NULL: everyone alone).  scratch: 2 (na + nb) doubles and na + nb ints.
 */
extern double glicko_team_probability_edged(GlickoTeamMethod method,
											const Glicko2Rating *a, const double *a_share,
											const int *a_party, int na,
											const Glicko2Rating *b, const double *b_share,
											const int *b_party, int nb,
											const GlickoTeamAdvantage *adv,
											double *scratch, int *int_scratch);

/* The same with the players' covariances: covariance = sum over k != l of
 * c_k c_l Sigma_kl on the Glicko-2 scale (c = +a_i on a's players, -a_i on
 * b's), added to V_a + V_b (a teammates store); 0: the same bits. */
extern double glicko_team_probability_covaried(GlickoTeamMethod method,
											   const Glicko2Rating *a, const double *a_share,
											   const int *a_party, int na,
											   const Glicko2Rating *b, const double *b_share,
											   const int *b_party, int nb,
											   const GlickoTeamAdvantage *adv, double covariance,
											   double *scratch, int *int_scratch);

/* A team's edge in points: party * party_weight + size * (share_sum - 1),
 * party_weight the sum of a_i over members of parties of two or more. */
static inline double
glicko_team_edge(const GlickoTeamAdvantage *adv, double party_weight, double share_sum)
{
	return adv->party * party_weight + adv->size * (share_sum - 1.0);
}

/* Beyond this an a_i phi_i's square could overflow: sums of squares are
 * taken relative to the largest (as g_of_phi does for one player). */
#define GLICKO_TEAM_LARGE_PHI 1e100

/* A team's totals in the team model ('sum', 'mean'). */
typedef struct GlickoTeamTotals
{
	double		edge;			/* the party and size edges (points), 0
								 * without */
	double		w;				/* sum a_i */
	double		strength;		/* sum a_i r_i (public scale) */
	double		strength_scaled;	/* sum a_i (r_i / 173.7178) */
} GlickoTeamTotals;

/*
 * The team model's P(a beats b) from the teams' totals, for who keeps them
 * (the lobby search) and for glicko_team_probability: u is the sum over
 * both teams of 3 (a_i phi_i / scale)^2, scale 1 or, when some a_i phi_i
 * exceeds GLICKO_TEAM_LARGE_PHI, one at least as large as each.
 */
extern double glicko_team_model_probability(const GlickoTeamTotals *a,
											const GlickoTeamTotals *b,
											double u, double scale);

#endif							/* GLICKO_TEAM_H */
