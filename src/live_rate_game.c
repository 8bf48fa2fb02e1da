/*
 * live_rate_game.c — glicko2_rate_game(ratings, player_id, opponent_id,
 * score, played_at, VARIADIC options): one game rated in the caller's
 * transaction, for a ratings table no row trigger can serve.  On Citus a
 * trigger runs on a shard and cannot lock an opponent's row on another
 * worker; this function runs where the game is written (the coordinator or
 * a worker) and names one player by the table's key in each statement, so
 * each is a router query to the shard holding that player, and the commit
 * is Citus's two-phase commit.  On a plain table it is the same statements.
 *
 * For each player in key order: lock his row by key (SELECT ... FOR NO KEY
 * UPDATE); if it is missing, add him as unrated (INSERT ... ON CONFLICT DO
 * NOTHING) and lock again.  A game so holds rows of keys below the one it
 * waits for, never above: two single-game transactions never wait in a
 * cycle, on one node or across nodes.  Then both players are rated by
 * glicko_live_rate_game (live_rows.c: the update glicko2_rate_games does)
 * and each row is written by key.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "live_game.h"
#include "live_rows.h"
#include "rating.h"
#include "write_check.h"

static const char *const option_names =
"period, tau, max_rd, player_column, rating_column, rated_at_column, "
"min_rating, max_change, max_volatility";

/* Tries at locking a player's row: a missing player is added once, then found. */
#define LOCK_TRIES 3

/* The statements on the ratings table, one player each (by key: $1). */
typedef struct RateGameSql
{
	const char *lock;			/* $1 -> rating, rated_at, locked */
	const char *insert;			/* $1, unrated $2, rated_at $3 */
	const char *write;			/* $1, rating $2, rated_at $3 */
	Oid			types[3];
} RateGameSql;

static void
build_sql(RateGameSql *q, const GlickoLiveRatings *rt, Oid key_type)
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
}

/* Lock one player's row; false if he has none. */
static bool
lock_row(const RateGameSql *q, const GlickoLiveRatings *rt, Oid key_type, Datum key,
		 GlickoLiveRow *row)
{
	int			ret = SPI_execute_with_args(q->lock, 1, (Oid *) q->types, &key, NULL, false, 0);
	bool		rating_null,
				rated_at_null;
	Datum		rating,
				rated_at;

	if (ret != SPI_OK_SELECT)
		elog(ERROR, "glicko2_rate_game: lock of a player failed: %s", SPI_result_code_string(ret));
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

/* Lock one player's row, adding him as unrated (rated_at: played_at) if missing. */
static void
lock_player(const RateGameSql *q, const GlickoLiveRatings *rt, Oid key_type, Datum key,
			TimestampTz played_at, GlickoLiveRow *row)
{
	uint64		added = 0;

	for (int tries = 0; !lock_row(q, rt, key_type, key, row); tries++)
	{
		Datum		args[3] = {key, glicko2_rating_datum(rt->rating_desc, &rt->unrated),
		TimestampTzGetDatum(played_at)};
		int			ret;

		/* missing after an insert that added nobody: a rule or trigger hid it */
		if (tries > 0 && added == 0)
			glicko2_require_written(rt->relid, 0, 1, "adding a new player of a game given to glicko2_rate_game");
		if (tries + 1 >= LOCK_TRIES)
			ereport(ERROR,
					errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					errmsg("could not lock the ratings row of player %s in %s",
						   glicko_live_key_text(key_type, key), get_rel_name(rt->relid)),
					errdetail("The player's row was deleted while he was being rated."),
					errhint("Retry the transaction."));
		ret = SPI_execute_with_args(q->insert, 3, (Oid *) q->types, args, NULL, false, 0);
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "glicko2_rate_game: insert of a new player failed: %s",
				 SPI_result_code_string(ret));
		added = SPI_processed;
	}
}

/* ERROR for a bad game, naming it; nothing has been written. */
static void
bad_game(FunctionCallInfo fcinfo, int sqlstate, const char *why)
{
	const char *v[4];

	for (int i = 0; i < 4; i++)
	{
		Oid			type = get_fn_expr_argtype(fcinfo->flinfo, i + 1);

		v[i] = PG_ARGISNULL(i + 1) ? "NULL" : glicko_live_key_text(type, PG_GETARG_DATUM(i + 1));
	}
	ereport(ERROR,
			errcode(sqlstate),
			errmsg("bad game given to glicko2_rate_game: %s: player_id %s, opponent_id %s, score %s, played_at %s",
				   why, v[0], v[1], v[2], v[3]),
			errdetail("The game is refused and nothing is rated."));
}

/*
 * glicko2_rate_game(ratings regclass, player_id anyelement, opponent_id
 * anyelement, score float8, played_at timestamptz, VARIADIC options text[]).
 */
PG_FUNCTION_INFO_V1(glicko2_rate_game);
Datum
glicko2_rate_game(PG_FUNCTION_ARGS)
{
	Oid			key_type = get_fn_expr_argtype(fcinfo->flinfo, 1);
	GlickoLiveOptions opt;
	GlickoLiveRatings rt;
	RateGameSql q;
	Datum		keys[2];
	double		score;
	TimestampTz played_at;
	GlickoLiveRow rows[2];
	int			first;
	TypeCacheEntry *tc;

	glicko_live_require_arg(fcinfo, 0, "ratings");
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		bad_game(fcinfo, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL player");
	if (PG_ARGISNULL(3))
		bad_game(fcinfo, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL score");
	if (PG_ARGISNULL(4))
		bad_game(fcinfo, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL time played");
	score = PG_GETARG_FLOAT8(3);
	if (!glicko_valid_score(score))
		bad_game(fcinfo, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "score outside [0, 1]");
	played_at = PG_GETARG_TIMESTAMPTZ(4);
	if (TIMESTAMP_NOT_FINITE(played_at))
		bad_game(fcinfo, ERRCODE_INVALID_PARAMETER_VALUE, "time played not finite");

	glicko_live_options_init(&opt);
	if (!PG_ARGISNULL(5))
	{
		Datum	   *items;
		bool	   *nulls;
		int			n;

		deconstruct_array(PG_GETARG_ARRAYTYPE_P(5), TEXTOID, -1, false, TYPALIGN_INT,
						  &items, &nulls, &n);
		for (int i = 0; i < n; i++)
		{
			char	   *name;
			const char *value;

			if (nulls[i])
				ereport(ERROR,
						errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						errmsg("glicko2_rate_game: an option is NULL"),
						errhint("Options are 'name=value': %s.", option_names));
			glicko_live_option_split(TextDatumGetCString(items[i]), "glicko2_rate_game",
									 option_names, &name, &value);
			if (!glicko_live_common_option(name, value, &opt, CurrentMemoryContext))
				glicko_live_unknown_option("glicko2_rate_game", name, option_names);
		}
	}

	glicko_live_check_ratings(&rt, &opt, PG_GETARG_OID(0), key_type, "player_id",
							  get_func_namespace(fcinfo->flinfo->fn_oid), CurrentMemoryContext);
	build_sql(&q, &rt, key_type);

	/* Key order: the btree order of the keys, in the ratings key's collation. */
	keys[0] = PG_GETARG_DATUM(1);
	keys[1] = PG_GETARG_DATUM(2);
	tc = lookup_type_cache(key_type, TYPECACHE_CMP_PROC_FINFO);
	if (!OidIsValid(tc->cmp_proc))
		elog(ERROR, "glicko2_rate_game: type %s has no comparison", format_type_be(key_type));
	first = DatumGetInt32(FunctionCall2Coll(&tc->cmp_proc_finfo, rt.key_collation,
											keys[0], keys[1]));
	if (first == 0)
		bad_game(fcinfo, ERRCODE_INVALID_PARAMETER_VALUE, "self-play");
	first = first < 0 ? 0 : 1;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "glicko2_rate_game: SPI_connect failed");
	lock_player(&q, &rt, key_type, keys[first], played_at, &rows[first]);
	lock_player(&q, &rt, key_type, keys[1 - first], played_at, &rows[1 - first]);

	glicko_live_rate_game(&opt, rows, score, played_at, "live rating of a game given to glicko2_rate_game");

	for (int i = 0; i < 2; i++)
	{
		int			p = i == 0 ? first : 1 - first;
		Datum		args[3] = {keys[p], glicko2_rating_datum(rt.rating_desc, &rows[p].rating),
		TimestampTzGetDatum(rows[p].rated_at)};
		int			ret = SPI_execute_with_args(q.write, 3, q.types, args, NULL, false, 0);

		if (ret < 0)
			elog(ERROR, "glicko2_rate_game: the write of a rating failed: %s",
				 SPI_result_code_string(ret));
		glicko2_require_written(rt.relid, ret == SPI_OK_UPDATE ? (int64) SPI_processed : 0, 1,
								"live rating of a game given to glicko2_rate_game");
	}
	SPI_finish();
	PG_RETURN_VOID();
}
