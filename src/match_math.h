/*
 * match_math.h — a team or free-for-all match as the one-on-one game sides
 * it is rated from (README, "Team and free-for-all matches").
 *
 * Plain C99, nothing of PostgreSQL, like glicko_math.h.  Players and teams
 * are numbered 0..n-1 and 0..k-1 by the caller; a team's place is its
 * finishing position (1 = first; equal places are ties).
 */
#ifndef MATCH_MATH_H
#define MATCH_MATH_H

#include <stdbool.h>
#include <stdint.h>

typedef enum GlickoMatchMethod
{
	GLICKO_MATCH_INDIVIDUAL,	/* one game against every player of every other team */
	GLICKO_MATCH_COMPOSITE		/* one game against every other team as a composite player */
} GlickoMatchMethod;

typedef struct GlickoMatch
{
	GlickoMatchMethod method;
	int			n_players;
	const int  *team;			/* team of each player, 0..n_teams-1 */
	int			n_teams;
	const int64_t *place;		/* place of each team */
} GlickoMatch;

/* One game side: player against a player (individual) or a team (composite). */
typedef struct GlickoSide
{
	int			player;
	int			opponent;		/* a player (individual) or a team (composite) */
	double		score;			/* player's result: 1, 0 or 0.5 */
} GlickoSide;

/* Where an iteration over a match's sides stands; start at {0, -1}. */
typedef struct GlickoMatchCursor
{
	int			player;
	int			opponent;
} GlickoMatchCursor;

/* A team's result against another from their places: 1 better, 0 worse, 0.5 tied. */
extern double glicko_place_score(int64_t place, int64_t other_place);

/* The next side of the match after *cursor, in player order then opponent
 * order; false when there is none. */
extern bool glicko_match_next(const GlickoMatch *match, GlickoMatchCursor *cursor,
							  GlickoSide *side);

#endif							/* MATCH_MATH_H */
