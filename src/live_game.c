/*
 * live_game.c — live ratings: one game rated as it is written (glicko2_game),
 * a rating as of a time (glicko2_rating_at), and the trigger that rates
 * each game inserted into a games table (glicko2_rate_games, in
 * live_trigger.c).  The mathematics is glicko_math.c's glicko2_single_game,
 * glicko2_grown and glicko2_live_game.
 */
#include "postgres.h"

#include "common/int.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/timestamp.h"

#include "live_game.h"
#include "rating.h"

/*
 * The length of a period in microseconds, from an interval: a day is 24
 * hours and a month 30 days (as EXTRACT(epoch FROM interval)), so the
 * length does not depend on the time zone or the calendar.
 */
double
glicko_live_period_usecs(const Interval *period)
{
	double		usecs;

	if (!glicko_interval_is_finite(period))
		usecs = NAN;
	else
		usecs = (double) period->time +
			((double) period->month * DAYS_PER_MONTH + (double) period->day) * USECS_PER_DAY;
	if (!(usecs > 0.0 && isfinite(usecs)))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("period must be a positive finite interval, not %s",
					   DatumGetCString(DirectFunctionCall1(interval_out,
														   IntervalPGetDatum(period)))),
				errhint("A period of '1 day' grows RD by one rating period's Step 6 per day."));
	return usecs;
}

/* ERROR unless ts is a finite timestamp; `what` names it. */
void
glicko_live_check_timestamp(TimestampTz ts, const char *what)
{
	if (TIMESTAMP_NOT_FINITE(ts))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s must be a finite timestamp, not %s",
					   what, timestamptz_to_str(ts)));
}

/*
 * Periods from `from` to `to`, fractional; 0 when `to` is not after
 * `from`: time never runs backwards for a rating (a game played before
 * its player's last rating gets no growth, and a rating read as of a time
 * before it was rated is the rating as stored).
 */
double
glicko_live_elapsed_periods(TimestampTz from, TimestampTz to, double period_usecs)
{
	int64		usecs;

	if (to <= from)
		return 0.0;
	if (pg_sub_s64_overflow(to, from, &usecs))
		return (double) to / period_usecs - (double) from / period_usecs;
	return (double) usecs / period_usecs;
}

/* An argument that must not be NULL, by name. */
void
glicko_live_require_arg(FunctionCallInfo fcinfo, int n, const char *what)
{
	if (PG_ARGISNULL(n))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("%s must not be NULL", what));
}

/*
 * glicko2_game(player, opponent, score, tau, elapsed_periods): the paper's
 * update of player for one game, Step 6 over elapsed_periods periods.
 * NULL ratings are unrated players; a NULL score is an error (there is no
 * game to rate).
 */
PG_FUNCTION_INFO_V1(glicko2_game_sql);
Datum
glicko2_game_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating player,
				opponent,
				result;
	double		score,
				tau,
				elapsed;
	GlickoStatus status;

	glicko2_arg_or_unrated(fcinfo, 0, &player, "player");
	glicko2_arg_or_unrated(fcinfo, 1, &opponent, "opponent");
	glicko_live_require_arg(fcinfo, 2, "score");
	score = PG_GETARG_FLOAT8(2);
	glicko_check_score(score);
	glicko_live_require_arg(fcinfo, 3, "tau");
	tau = PG_GETARG_FLOAT8(3);
	glicko_check_positive(tau, "tau");
	glicko_live_require_arg(fcinfo, 4, "elapsed_periods");
	elapsed = PG_GETARG_FLOAT8(4);
	glicko_check_nonnegative(elapsed, "elapsed_periods");

	status = glicko2_single_game(&player, &opponent, score, tau, elapsed, &result);
	if (status != GLICKO_OK)
		glicko_report_status(status, psprintf("glicko2_game of player %s",
											  glicko2_to_cstring(&player)));
	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &result));
}

/*
 * r as of time at: its RD grown by Step 6 for the periods from rated_at to
 * at, capped at max_rd (INFINITY: no cap); rated_at NULL (never rated live):
 * r as it is.  The one definition glicko2_rating_at and glicko2_rankable
 * read a rating through; `fn` names the caller in errors.
 */
void
glicko_live_rating_at(const Glicko2Rating *r, bool rated_at_null, TimestampTz rated_at,
					  TimestampTz at, const Interval *period, double max_rd,
					  Glicko2Rating *result, const char *fn)
{
	double		period_usecs = glicko_live_period_usecs(period);
	GlickoStatus status;

	glicko_live_check_timestamp(at, "at");
	if (rated_at_null)
	{
		*result = *r;
		return;
	}
	glicko_live_check_timestamp(rated_at, "rated_at");
	status = glicko2_grown(r, glicko_live_elapsed_periods(rated_at, at, period_usecs),
						   max_rd, result);
	if (status != GLICKO_OK)
		glicko_report_status(status, psprintf("%s of %s", fn, glicko2_to_cstring(r)));
}

/*
 * glicko2_rating_at(r, rated_at, at, period, max_rd): r with its RD grown
 * for the periods from rated_at to at, nothing written.  NULL r or at:
 * NULL; NULL rated_at (never rated live): r as it is; NULL max_rd: no cap.
 */
PG_FUNCTION_INFO_V1(glicko2_rating_at_sql);
Datum
glicko2_rating_at_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r,
				result;
	double		max_rd;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "r");
	glicko_live_require_arg(fcinfo, 3, "period");
	max_rd = glicko_arg_max_rd(fcinfo, 4);
	glicko_live_rating_at(&r, PG_ARGISNULL(1), PG_ARGISNULL(1) ? 0 : PG_GETARG_TIMESTAMPTZ(1),
						  PG_GETARG_TIMESTAMPTZ(2), PG_GETARG_INTERVAL_P(3), max_rd,
						  &result, "glicko2_rating_at");
	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &result));
}
