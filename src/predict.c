/*
 * predict.c — predictions from ratings: the paper's g and E, and the win
 * probability that counts both players' uncertainty.
 */
#include "postgres.h"

#include "fmgr.h"

#include "rating.h"

/* glicko2_g(rd): the paper's g(phi) for an opponent's RD (public scale). */
PG_FUNCTION_INFO_V1(glicko2_g_sql);
Datum
glicko2_g_sql(PG_FUNCTION_ARGS)
{
	double		rd = PG_GETARG_FLOAT8(0);

	glicko_check_positive(rd, "rd");
	PG_RETURN_FLOAT8(glicko2_g(rd));
}

/* glicko2_expected(player, opponent): the paper's E(mu, mu_j, phi_j). */
PG_FUNCTION_INFO_V1(glicko2_expected_sql);
Datum
glicko2_expected_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating player,
				opponent;

	glicko2_datum_get(PG_GETARG_DATUM(0), &player, "player");
	glicko2_datum_get(PG_GETARG_DATUM(1), &opponent, "opponent");
	PG_RETURN_FLOAT8(glicko2_expected(player.rating, opponent.rating, opponent.rd));
}

/* glicko2_win_probability(a, b): a's predicted score against b, both RDs counted. */
PG_FUNCTION_INFO_V1(glicko2_win_probability_sql);
Datum
glicko2_win_probability_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating a,
				b;

	glicko2_datum_get(PG_GETARG_DATUM(0), &a, "a");
	glicko2_datum_get(PG_GETARG_DATUM(1), &b, "b");
	PG_RETURN_FLOAT8(glicko2_win_probability(&a, &b));
}

/*
 * glicko2_win_probability(a, b, advantage): the same with a's rating
 * counting `advantage` points more (home, first move; negative away).
 */
PG_FUNCTION_INFO_V1(glicko2_win_probability_advantage_sql);
Datum
glicko2_win_probability_advantage_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating a,
				b;
	double		advantage = PG_GETARG_FLOAT8(2);

	glicko2_datum_get(PG_GETARG_DATUM(0), &a, "a");
	glicko2_datum_get(PG_GETARG_DATUM(1), &b, "b");
	glicko_check_finite(advantage, "advantage");
	PG_RETURN_FLOAT8(glicko2_win_probability_advantage(&a, &b, advantage));
}
