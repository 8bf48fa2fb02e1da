/*
 * matchmaking_math.h — splitting a lobby into fair teams and grouping a
 * waiting pool into games, with no PostgreSQL in sight (test/unit).
 *
 * Fairness is the win probability of a team model (team.h): 'sum' and
 * 'mean' glicko_team_model_probability from running sums of each team;
 * 'composite' and 'individual' Williams's composite (a team is the means of
 * its players' rating and RD), as glicko_team_probability.
 */
#ifndef MATCHMAKING_MATH_H
#define MATCHMAKING_MATH_H

#include <stdbool.h>
#include <stddef.h>

#include "glicko_math.h"
#include "team.h"

/* Lobbies this size or smaller are always split by exhaustive search. */
#define MM_EXACT_PLAYERS 16
/* Larger lobbies too when they have at most this many distinct splits. */
#define MM_EXACT_SPLITS 2000000.0
/* Improving swaps of the heuristic: rounds at most per start, and team pair
 * costs at most (rounds x units^2 / 2 x teams^2 / 2) for one lobby, over all
 * its starts: about a second of work at most (a pair cost is a few tens of
 * nanoseconds), so every lobby's time is bounded; lobbies of up to about 64
 * units in a few teams never reach it. */
#define MM_MAX_SWAP_ROUNDS 10000
#define MM_SWAP_BUDGET 1e7
/* Steps of the heuristic's search for a split that keeps every party
 * together, when greedy placement finds none (a step places or moves one
 * party and looks at every team: a few tenths of a second at 64 teams; the
 * lobbies of test/unit take a few dozen). */
#define MM_FIT_STEPS 2000000L
/* Random starts of the heuristic after the greedy one. */
#define MM_RESTARTS 32
/* Teams in one lobby (the search keeps per-team arrays on the stack). */
#define MM_MAX_TEAMS 64
/* Players in one lobby: the greedy placement costs players x teams, so this
 * keeps the largest lobby in 64 teams to a fraction of a second (10^6 players
 * took 1.7 s); no game has a lobby anywhere near it. */
#define MM_MAX_PLAYERS 100000

typedef enum MmStatus
{
	MM_OK = 0,
	MM_TOO_FEW_PLAYERS,			/* fewer players than teams */
	MM_PARTY_TOO_LARGE,			/* a party does not fit in the largest team */
	MM_PARTIES_DO_NOT_FIT,		/* no split keeps every party together */
	MM_PARTIES_UNSETTLED		/* the search for one gave up (MM_FIT_STEPS) */
} MmStatus;

/*
 * What the caller provides: poll is called every few thousand search steps
 * (CHECK_FOR_INTERRUPTS in the server; may be NULL) and may not return;
 * alloc (zeroed memory, never NULL) and release, so that the server's memory
 * contexts own what a cancelled search leaves behind.
 */
typedef struct MmEnv
{
	void		(*poll) (void);
	void	   *(*alloc) (size_t size);
	void		(*release) (void *p);
} MmEnv;

/*
 * The unfairness of a split: for two teams |p - 1/2|, p the first team's
 * win probability by the method; for more, the largest |p - 1/2| over every
 * pair of teams (the most lopsided meeting the split allows).  With adv
 * ('sum', 'mean'; NULL: none) each team's edge counts (team.h): a member of
 * a party of two or more in his team (party as below) adds adv->party, each
 * member beyond one adv->size.
 */
extern double glicko_mm_split_cost(const Glicko2Rating *players, int n,
								   const int *team, int teams,
								   GlickoTeamMethod method, const int *party,
								   const GlickoTeamAdvantage *adv);

/*
 * Split n players into `teams` teams whose sizes differ by at most one, the
 * players with the same party number (party[i] > 0; 0 is no party, party may
 * be NULL) in the same team.  team[i] gets the team of player i, numbered
 * from 1 in the order of each team's first player.  Exact (smallest
 * glicko_mm_split_cost, first in the search's order among equals) when n <=
 * MM_EXACT_PLAYERS or there are at most MM_EXACT_SPLITS splits; otherwise
 * glicko_mm_balance_heuristic.  *exact says which; *bad_party names the party of a
 * MM_PARTY_TOO_LARGE.  adv: the teams' edges as in glicko_mm_split_cost.
 */
extern MmStatus glicko_mm_balance(const Glicko2Rating *players, const int *party,
								  int n, int teams, GlickoTeamMethod method,
								  const GlickoTeamAdvantage *adv,
								  int *team, bool *exact, int *bad_party,
								  const MmEnv *env);

/* The two searches, callable on their own (tests measure the gap). */
extern MmStatus glicko_mm_balance_exact(const Glicko2Rating *players, const int *party,
										int n, int teams, GlickoTeamMethod method,
										const GlickoTeamAdvantage *adv,
										int *team, int *bad_party, const MmEnv *env);
extern MmStatus glicko_mm_balance_heuristic(const Glicko2Rating *players, const int *party,
											int n, int teams, GlickoTeamMethod method,
											const GlickoTeamAdvantage *adv,
											int *team, int *bad_party, const MmEnv *env);

/*
 * order[k] gets the position of the k-th player in rating order, ties in
 * position order (-0 equal to +0); ratings finite.  A stable LSD radix sort
 * on the ratings' bits: a queue of 100 000 in about 3 ms, where qsort with a
 * comparison function takes about 18.
 */
extern void glicko_mm_sort_by_rating(const double *rating, int n, int *order,
									 const MmEnv *env);

/*
 * Group a pool sorted by rating (rating[] nondecreasing) into games of
 * `size` players that are consecutive in that order.  A run i..j may be a
 * game when rating[j] - rating[i] <= tolerance[k] for every player k rated
 * from rating[i] to rating[j] inclusive, in the run or not (each player's
 * tolerance is how far apart a game may be while they wait).
 * Chosen: the most games, then the smallest sum of (rating[j] - rating[i])^2.
 * For size 2 this is optimal over every matching of the pool (the proof is
 * in matchmaking_math.c).  first[g] gets the position of game g's first
 * player; returns the number of games.  work needs 4 (n + 1) doubles.
 */
extern int	glicko_mm_group_runs(const double *rating, const double *tolerance,
								 int n, int size, int *first, double *work,
								 const MmEnv *env);

#endif							/* MATCHMAKING_MATH_H */
