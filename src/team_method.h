/*
 * team_method.h — a team function's method argument read as the enum of
 * core/team.h (team_method.c): matches, the live matches trigger and
 * matchmaking each parse it here, none through another.
 */
#ifndef GLICKO2_TEAM_METHOD_H
#define GLICKO2_TEAM_METHOD_H

#include "postgres.h"

#include "core/team.h"

/* 'sum', 'mean', 'individual' or 'composite', or an ERROR naming it. */
extern GlickoTeamMethod glicko2_team_method(text *method);

#endif							/* GLICKO2_TEAM_METHOD_H */
