/*
 * team_method.h — a team function's method argument read as the enum of
 * core/team.h (team_method.c): matches, the live matches trigger and
 * matchmaking each parse it here, none through another.
 */
#ifndef GLICKO2_TEAM_METHOD_H
#define GLICKO2_TEAM_METHOD_H

#include "postgres.h"

#include "fmgr.h"

#include "core/team.h"

/* 'sum', 'mean', 'individual' or 'composite', or an ERROR naming it. */
extern GlickoTeamMethod glicko2_team_method(text *method);

/* The advantages of arguments party_arg and size_arg: not NULL, finite, zero
 * unless 'sum' or 'mean'; or an ERROR naming them. */
extern GlickoTeamAdvantage glicko2_team_advantage(FunctionCallInfo fcinfo, int party_arg,
												  int size_arg, GlickoTeamMethod method);
extern void glicko2_team_advantage_check(const GlickoTeamAdvantage *adv, GlickoTeamMethod method);

#endif							/* GLICKO2_TEAM_METHOD_H */
