/*
 * close_pass.h — a period close's computation in one pass (close_pass.c),
 * for the SQL functions that return or write its results (close_pass.c's
 * glicko2_close_ratings, close_write.c).
 */
#ifndef GLICKO2_CLOSE_PASS_H
#define GLICKO2_CLOSE_PASS_H

#include "postgres.h"

#include "fmgr.h"
#include "utils/array.h"

#include "core/glicko_math.h"
#include "core/league_math.h"

/* One player's outcome, in the order the pass first read the players. */
typedef struct CloseResult
{
	Datum		key;
	Glicko2Rating rating;		/* the new rating, if has_rating */
	int64		games;			/* game sides in the period */
	bool		has_rating;		/* false: unrated and idle, stays unrated */
	bool		is_new;			/* absent from the ratings query */
	bool		capped;			/* a floor or cap changed the rating */
} CloseResult;

typedef struct ClosePass ClosePass;

/* What a row of a pass's games query is (close_pass.c's comment). */
typedef enum GlickoGamesForm
{
	GAMES_FORM_GUESS = 0,		/* games or sides, by the second column's type */
	GAMES_FORM_GAMES,
	GAMES_FORM_SIDES,
	GAMES_FORM_TERMS
} GlickoGamesForm;

/* The arguments of the SQL functions that run a pass, checked. */
typedef struct ClosePassArgs
{
	char	   *ratings_sql;
	char	   *games_sql;
	double		tau;
	double		max_rd;			/* INFINITY: no cap */
	char	   *what;			/* names the games in errors */
	GlickoGamesForm form;
	GlickoCaps	caps;			/* floors and caps, every one off by default */
	ArrayType  *params;			/* text parameters of both queries */
} ClosePassArgs;

/* (ratings_query, games_query, tau, max_rd, what, form [, caps float8[]],
 * VARIADIC params): the internal forms take caps as
 * {min_rating, max_change, max_volatility}, a NULL element off. */
extern void glicko_close_pass_args(FunctionCallInfo fcinfo, ClosePassArgs *args);

/*
 * Run a close's pass: the pre-period ratings, the period's games, every bad
 * game an ERROR, every player's new rating.  Everything lives in a memory
 * context of its own under `parent` until glicko2_close_ratings frees it or its parent goes.
 */
extern ClosePass *glicko_close_pass_run(MemoryContext parent, Oid rating_type,
										const ClosePassArgs *args);

extern Oid	glicko_close_pass_key_type(const ClosePass *pass);
extern const CloseResult *glicko_close_pass_results(const ClosePass *pass, uint32 *n);

/*
 * One player's outcome from his pre-period rating (the unrated player's if
 * not rated) and his period's sums: the paper's update, or Step 6 capped at
 * max_rd without games, or no rating (unrated and idle); an ERROR naming
 * the player (key, of key_type) for a rating the games cannot justify; the
 * floors and caps applied.  Every close computes each player with it.
 * is_new is the caller's.
 */
extern void glicko_close_player_result(Oid key_type, Datum key, const Glicko2Rating *pre,
									   bool rated, const GlickoSums *sums, double tau,
									   double max_rd, const GlickoCaps *caps,
									   CloseResult *result);

/* The result of the player with this key (of the key type), or NULL. */
extern const CloseResult *glicko_close_pass_result_of(ClosePass *pass, Datum key);

#endif							/* GLICKO2_CLOSE_PASS_H */
