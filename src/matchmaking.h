/*
 * matchmaking.h — what the lobby balance (matchmaking_balance.c) and the
 * queue (matchmaking_queue.c) share.
 */
#ifndef GLICKO2_MATCHMAKING_H
#define GLICKO2_MATCHMAKING_H

#include "core/matchmaking_math.h"

/* The search's environment in the server: interrupts polled, memory from the
 * function's context (a cancelled search leaves nothing behind). */
extern const MmEnv glicko_mm_server_env;

/* ERROR unless teams is 2..MM_MAX_TEAMS and n players (named `players`) fill them. */
extern void glicko_mm_check_teams(int n, int teams, const char *players);

/* ERROR for a failed glicko_mm_balance (bad_party as the caller numbers parties). */
extern void glicko_mm_report_balance(MmStatus status, int bad_party, int n, int teams);

#endif							/* GLICKO2_MATCHMAKING_H */
