/*
 * leaderboard.c — who a leaderboard shows: glicko2_provisional (a rating
 * still being established) and glicko2_rankable (fit to be ranked now: RD,
 * grown to now as glicko2_rating_at grows it, at most a threshold, so a
 * player who stopped playing drops off by himself).  lichess's thresholds
 * are the defaults: provisional at RD >= 110, rankable at RD <= 75
 * (docs/league.md).
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/timestamp.h"

#include "live_game.h"
#include "rating.h"

/* Argument n as an RD threshold: positive and finite, not NULL. */
static double
arg_threshold(FunctionCallInfo fcinfo, int n, const char *what)
{
	double		rd;

	glicko_live_require_arg(fcinfo, n, what);
	rd = PG_GETARG_FLOAT8(n);
	glicko_check_positive(rd, what);
	return rd;
}

/* glicko2_provisional(r, rd): RD at least rd.  STRICT. */
PG_FUNCTION_INFO_V1(glicko2_provisional_sql);
Datum
glicko2_provisional_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r;
	double		rd = arg_threshold(fcinfo, 1, "rd");

	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "r");
	PG_RETURN_BOOL(r.rd >= rd);
}

/*
 * glicko2_rankable(r, rated_at, at, rd, period, max_rd): RD grown from
 * rated_at to at (glicko2_rating_at) at most rd.  NULL r or at: NULL;
 * NULL rated_at: the RD as stored; NULL max_rd: no cap.
 */
PG_FUNCTION_INFO_V1(glicko2_rankable_sql);
Datum
glicko2_rankable_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r,
				now;
	double		rd,
				max_rd;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "r");
	rd = arg_threshold(fcinfo, 3, "rd");
	glicko_live_require_arg(fcinfo, 4, "period");
	max_rd = glicko_arg_max_rd(fcinfo, 5);
	glicko_live_rating_at(&r, PG_ARGISNULL(1), PG_ARGISNULL(1) ? 0 : PG_GETARG_TIMESTAMPTZ(1),
						  PG_GETARG_TIMESTAMPTZ(2), PG_GETARG_INTERVAL_P(4), max_rd,
						  &now, "glicko2_rankable");
	PG_RETURN_BOOL(now.rd <= rd);
}
