/*
 * idle.c — glicko2_idle and glicko1_idle: a rating between periods without
 * games (the paper's Step 6 alone; Glicko-1's RD growth by c).
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"

#include "rating.h"

/* glicko2_idle(r, periods, max_rd): phi' = sqrt(phi^2 + t sigma^2), capped. */
PG_FUNCTION_INFO_V1(glicko2_idle_sql);
Datum
glicko2_idle_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating r,
				result;
	double		periods;
	double		max_rd;
	GlickoStatus status;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	glicko2_datum_get(PG_GETARG_DATUM(0), &r, "rating");
	periods = PG_GETARG_FLOAT8(1);
	glicko_check_nonnegative(periods, "periods");
	max_rd = glicko_arg_max_rd(fcinfo, 2);

	status = glicko2_idle(&r, periods, max_rd, &result);
	if (status != GLICKO_OK)
		glicko_report_status(status, "glicko2_idle");
	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &result));
}

/* glicko1_idle(r, periods, c, max_rd): RD' = sqrt(RD^2 + c^2 t), capped. */
PG_FUNCTION_INFO_V1(glicko1_idle_sql);
Datum
glicko1_idle_sql(PG_FUNCTION_ARGS)
{
	Glicko1Rating r,
				result;
	double		periods;
	double		c;
	double		max_rd;
	GlickoStatus status;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	glicko1_datum_get(PG_GETARG_DATUM(0), &r, "rating");
	periods = PG_GETARG_FLOAT8(1);
	glicko_check_nonnegative(periods, "periods");
	c = PG_GETARG_FLOAT8(2);
	glicko_check_nonnegative(c, "c");
	max_rd = glicko_arg_max_rd(fcinfo, 3);

	status = glicko1_idle(&r, periods, c, max_rd, &result);
	if (status != GLICKO_OK)
		glicko_report_status(status, "glicko1_idle");
	PG_RETURN_DATUM(glicko1_get_datum(fcinfo, &result));
}
