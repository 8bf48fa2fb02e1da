/*
 * teammates.h — the team model ('sum', 'mean') with the covariances of
 * recurring teammates carried from period to period (docs/matches.md,
 * "Recurring teammates", derives it).  One period of a league:
 *   - the pairs modelled jointly: the stored pairs and every pair of
 *     teammates in at least `recur` matches of the period (a close:
 *     GLICKO_MATES_RECUR; a live match, a period of its own: 1), at
 *     most GLICKO_MATES_MAX_PAIRS a player (stored pairs first, by
 *     |correlation|; then new ones by matches together);
 *   - a player with games and pairs: one Newton step over his neighbourhood
 *     (him and his pairs), prior diag(phi^2 + t sigma^2) with the stored
 *     covariances, every team-pair game of a member a rank-one information
 *     term; his effective Step 3/4 sums are what that step gives him;
 *   - a player without pairs: today's terms (src/core/team.c), summed as the
 *     close's pass sums them (double-double), so the same bits;
 *   - the pairs' new correlations, pruned below GLICKO_MATES_PRUNE and bounded.
 *
 * Plain C99 with libm, nothing of PostgreSQL.  Players are numbered
 * 0..n-1 by the caller (in key order, so that the bits do not depend on the
 * order of rows); rows come sorted by match and team.  Every loop is bounded
 * by the input's size; env->poll is called between players and matches.
 */
#ifndef GLICKO_TEAMMATES_H
#define GLICKO_TEAMMATES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "glicko_math.h"
#include "matchmaking_math.h"
#include "team.h"

/* Pairs kept per player, matches together that make a pair recur, the
 * smallest |correlation| kept, the largest team whose pairs are counted. */
#define GLICKO_MATES_MAX_PAIRS 4
#define GLICKO_MATES_RECUR 2
#define GLICKO_MATES_PRUNE 0.02
#define GLICKO_MATES_MAX_TEAM 32

typedef enum GlickoMatesStatus
{
	GLICKO_MATES_OK = 0,
	GLICKO_MATES_TWICE,			/* a player twice in a match */
	GLICKO_MATES_TWO_PLACES,	/* a team whose rows have different places */
	GLICKO_MATES_ONE_TEAM,		/* a match of one team */
	GLICKO_MATES_BAD_PLACE,		/* a place below 1 */
	GLICKO_MATES_BAD_SHARE,		/* a share outside (0, 1] */
	GLICKO_MATES_PARTY_TEAMS,	/* a party on two teams of a match */
	GLICKO_MATES_BAD_PAIR		/* a stored pair not a < b, or its covariance
								 * not finite */
} GlickoMatesStatus;

/* Memory and interrupts come from the caller as for the lobby search
 * (matchmaking_math.h): alloc never returns NULL (zeroed), poll may not return. */
typedef MmEnv GlickoMatesEnv;

typedef struct GlickoMatesPeriod
{
	GlickoTeamMethod method;	/* GLICKO_TEAM_SUM or GLICKO_TEAM_MEAN */
	double		max_rd;			/* idle players' cap (INFINITY: none) */
	double		elapsed;		/* Step 6's periods in the prior: 1 a close, 0
								 * a live match (glicko2_update_elapsed's t) */
	int			recur;			/* matches together that make a new pair:
								 * GLICKO_MATES_RECUR a close, 1 a live match */
	int			n_players;
	const Glicko2Rating *rating;	/* by player: pre-period (unrated: the
									 * caller's default) */
	int			n_rows;
	const int  *row_match;		/* rows sorted by match, then team */
	const int  *row_team;		/* a team's rows are consecutive */
	const int  *row_player;
	const int64_t *row_place;
	const double *row_share;	/* NULL: all 1 */
	const int  *row_party;		/* each row's party within its match, 0 up, -1
								 * alone; NULL: everyone alone */
	GlickoTeamAdvantage advantage;	/* the party and size edges (team.h) */
	int			n_pairs;		/* the store: pairs a < b, covariance in
								 * points^2 */
	const int  *pair_a;
	const int  *pair_b;
	const double *pair_covariance;
} GlickoMatesPeriod;

typedef struct GlickoMatesTerm
{
	int			player;
	GlickoTerms terms;
} GlickoMatesTerm;

typedef struct GlickoMatesPair
{
	int			a;
	int			b;
	double		correlation;
} GlickoMatesPair;

typedef struct GlickoMatesResult
{
	GlickoMatesTerm *terms;		/* each player with games: his Step 3/4 sums */
	int			n_terms;
	GlickoMatesPair *pairs;		/* the store after the period (a < b) */
	int			n_pairs;
	int			joint;			/* players rated over a neighbourhood */
	int			bad_row;		/* a row (or stored pair) of what was refused */
} GlickoMatesResult;

extern GlickoMatesStatus glicko_mates_period(const GlickoMatesPeriod *in,
											 const GlickoMatesEnv *env,
											 GlickoMatesResult *out);

#endif							/* GLICKO_TEAMMATES_H */
