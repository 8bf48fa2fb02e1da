/*
 * match_math.c — the reduction of a team or free-for-all match to one-on-one
 * game sides.  Every side is rated from the pre-period ratings, so the sides
 * of a match are independent of each other and of the order they come in.
 */
#include "match_math.h"

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
 * 'individual': every player against every player of every other team, so
 * a player of team t has n - size(t) games.  'composite': every player
 * against each other team (Williams 2013), k - 1 games.  Bounded: the
 * cursor only moves forward, so a whole match takes at most n * max(n, k) steps.
 */
bool
glicko_match_next(const GlickoMatch *match, GlickoMatchCursor *cursor,
				  GlickoSide *side)
{
	int			others = match->method == GLICKO_MATCH_INDIVIDUAL ?
		match->n_players : match->n_teams;

	while (cursor->player < match->n_players)
	{
		int			my_team = match->team[cursor->player];

		while (++cursor->opponent < others)
		{
			int			their_team = match->method == GLICKO_MATCH_INDIVIDUAL ?
				match->team[cursor->opponent] : cursor->opponent;

			if (their_team == my_team)
				continue;
			side->player = cursor->player;
			side->opponent = cursor->opponent;
			side->score = glicko_place_score(match->place[my_team],
											 match->place[their_team]);
			return true;
		}
		cursor->player++;
		cursor->opponent = -1;
	}
	return false;
}
