/*
 * team_method.c — the one parser of the team functions' method argument
 * ('sum', 'mean', 'individual', 'composite'; core/team.h has the enum),
 * shared by glicko2_match_sides, the live matches trigger's options,
 * glicko2_team_win_probability, glicko2_balance and the queue's planner;
 * and the one check of their party and size advantages.
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"

#include "rating.h"

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

/*
 * The party and size advantages of a team function's arguments party_arg
 * and size_arg, checked: not NULL, finite, zero unless the method is the
 * team model's ('individual' and 'composite' rate a player against one
 * opponent, not a team's strength, so a team's edge has no place in them).
 */
GlickoTeamAdvantage
glicko2_team_advantage(FunctionCallInfo fcinfo, int party_arg, int size_arg,
					   GlickoTeamMethod method)
{
	GlickoTeamAdvantage adv;

	if (PG_ARGISNULL(party_arg) || PG_ARGISNULL(size_arg))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("party_advantage and size_advantage must not be NULL"),
				errhint("No advantage is 0."));
	adv.party = PG_GETARG_FLOAT8(party_arg);
	adv.size = PG_GETARG_FLOAT8(size_arg);
	glicko2_team_advantage_check(&adv, method);
	return adv;
}

/* The advantages finite, zero with 'individual' and 'composite'. */
void
glicko2_team_advantage_check(const GlickoTeamAdvantage *adv, GlickoTeamMethod method)
{
	glicko_check_finite(adv->party, "party_advantage");
	glicko_check_finite(adv->size, "size_advantage");
	if ((adv->party != 0.0 || adv->size != 0.0) &&
		(method == GLICKO_TEAM_INDIVIDUAL || method == GLICKO_TEAM_COMPOSITE))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("party_advantage and size_advantage need the method 'sum' or 'mean', not '%s'",
					   method == GLICKO_TEAM_INDIVIDUAL ? "individual" : "composite"),
				errdetail("An advantage is points of a team's strength; 'individual' and 'composite' rate each player against one opponent."));
}

/* glicko2_advantages_check(method, party_advantage, size_advantage): the
 * checks of glicko2_team_advantage for the closes' and fits' PL/pgSQL. */
PG_FUNCTION_INFO_V1(glicko2_advantages_check_sql);
Datum
glicko2_advantages_check_sql(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("method must not be NULL"));
	glicko2_team_advantage(fcinfo, 1, 2, glicko2_team_method(PG_GETARG_TEXT_PP(0)));
	PG_RETURN_VOID();
}
