/*
 * team_method.c — the one parser of the team functions' method argument
 * ('sum', 'mean', 'individual', 'composite'; core/team.h has the enum),
 * shared by glicko2_match_sides, the live matches trigger's options,
 * glicko2_team_win_probability, glicko2_balance and the queue's planner.
 */
#include "postgres.h"

#include "utils/builtins.h"

#include "team_method.h"

GlickoTeamMethod
glicko2_team_method(text *method)
{
	char	   *m = text_to_cstring(method);

	if (strcmp(m, "sum") == 0)
		return GLICKO_TEAM_SUM;
	if (strcmp(m, "mean") == 0)
		return GLICKO_TEAM_MEAN;
	if (strcmp(m, "individual") == 0)
		return GLICKO_TEAM_INDIVIDUAL;
	if (strcmp(m, "composite") == 0)
		return GLICKO_TEAM_COMPOSITE;
	ereport(ERROR,
			errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("method must be 'sum', 'mean', 'individual' or 'composite', not '%s'", m));
	pg_unreachable();
}
