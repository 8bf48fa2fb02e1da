/*
 * live_keyed.c — the one-row statements by key on a ratings table
 * (live_keyed.h): the rows glicko2_rate_game and glicko2_rate_match lock,
 * add and write, one player per statement.  Callers lock their players in
 * key order, so a transaction holds rows of keys below the one it waits
 * for, never above: two such transactions never wait in a cycle, on one
 * node or across nodes.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "live_keyed.h"
#include "rating.h"
#include "write_check.h"

/* Tries at locking a player's row: a missing player is added once, then found. */
#define LOCK_TRIES 3

void
glicko_keyed_sql(GlickoKeyedSql *q, const GlickoLiveRatings *rt, Oid key_type, const char *what)
{
	q->lock = psprintf("SELECT r.%s, r.%s FROM %s r WHERE r.%s %s CAST($1 AS %s)"
					   " FOR NO KEY UPDATE OF r",
					   rt->rating, rt->rated_at, rt->name, rt->key, rt->eq, rt->key_type_name);
	q->insert = psprintf("INSERT INTO %s AS r (%s, %s, %s) VALUES (CAST($1 AS %s), $2, $3)"
						 " ON CONFLICT (%s) DO NOTHING",
						 rt->name, rt->key, rt->rating, rt->rated_at, rt->key_type_name, rt->key);
	q->write = psprintf("UPDATE %s r SET %s = $2, %s = $3 WHERE r.%s %s CAST($1 AS %s)",
						rt->name, rt->rating, rt->rated_at, rt->key, rt->eq, rt->key_type_name);
	q->types[0] = key_type;
	q->types[1] = rt->rating_type;
	q->types[2] = TIMESTAMPTZOID;
	q->what = what;
}

/* Lock one player's row; false if he has none. */
static bool
lock_row(const GlickoKeyedSql *q, const GlickoLiveRatings *rt, Oid key_type, Datum key,
		 GlickoLiveRow *row)
{
	int			ret = SPI_execute_with_args(q->lock, 1, (Oid *) q->types, &key, NULL, false, 0);
	bool		rating_null,
				rated_at_null;
	Datum		rating,
				rated_at;

	if (ret != SPI_OK_SELECT)
		elog(ERROR, "live rating of %s: lock of a player failed: %s", q->what,
			 SPI_result_code_string(ret));
	memset(row, 0, sizeof(*row));
	if (SPI_processed == 0)
		return false;
	if (SPI_processed > 1)
		ereport(ERROR,
				errcode(ERRCODE_UNIQUE_VIOLATION),
				errmsg("player %s has more than one row in %s",
					   glicko_live_key_text(key_type, key), get_rel_name(rt->relid)),
				errdetail("The unique key of an inheritance parent does not cover its children."));
	rating = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &rating_null);
	rated_at = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2, &rated_at_null);
	glicko_live_read_rating(row, rating, rating_null, rated_at, rated_at_null, rt, key_type, key);
	return true;
}

void
glicko_keyed_lock(const GlickoKeyedSql *q, const GlickoLiveRatings *rt, Oid key_type, Datum key,
				  TimestampTz at, GlickoLiveRow *row)
{
	uint64		added = 0;

	for (int tries = 0; !lock_row(q, rt, key_type, key, row); tries++)
	{
		Datum		args[3] = {key, glicko2_rating_datum(rt->rating_desc, &rt->unrated),
		TimestampTzGetDatum(at)};
		int			ret;

		/* missing after an insert that added nobody: a rule or trigger hid it */
		if (tries > 0 && added == 0)
			glicko2_require_written(rt->relid, 0, 1, psprintf("adding a new player of %s", q->what));
		if (tries + 1 >= LOCK_TRIES)
			ereport(ERROR,
					errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					errmsg("could not lock the ratings row of player %s in %s",
						   glicko_live_key_text(key_type, key), get_rel_name(rt->relid)),
					errdetail("The player's row was deleted while he was being rated."),
					errhint("Retry the transaction."));
		ret = SPI_execute_with_args(q->insert, 3, (Oid *) q->types, args, NULL, false, 0);
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "live rating of %s: insert of a new player failed: %s", q->what,
				 SPI_result_code_string(ret));
		added = SPI_processed;
	}
}

void
glicko_keyed_write(const GlickoKeyedSql *q, const GlickoLiveRatings *rt, Datum key,
				   const GlickoLiveRow *row)
{
	Datum		args[3] = {key, glicko2_rating_datum(rt->rating_desc, &row->rating),
	TimestampTzGetDatum(row->rated_at)};
	int			ret = SPI_execute_with_args(q->write, 3, (Oid *) q->types, args, NULL, false, 0);

	if (ret < 0)
		elog(ERROR, "live rating of %s: the write of a rating failed: %s", q->what,
			 SPI_result_code_string(ret));
	glicko2_require_written(rt->relid, ret == SPI_OK_UPDATE ? (int64) SPI_processed : 0, 1,
							psprintf("live rating of %s", q->what));
}
