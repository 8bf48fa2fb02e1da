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
#include "live_keyed.h"
#include "live_rows.h"

static const char *const option_names =
"period, tau, max_rd, player_column, rating_column, rated_at_column, "
"min_rating, max_change, max_volatility";

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
	GlickoKeyedSql q;
	Datum		keys[2];
	double		score;
	TimestampTz played_at;
	GlickoLiveRow rows[2];
	int			first;
	TypeCacheEntry *tc;
	char	  **args;
	int			n_args;

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
	args = glicko_live_option_args(fcinfo, 5, "glicko2_rate_game", option_names, &n_args);
	for (int i = 0; i < n_args; i++)
	{
		char	   *name;
		const char *value;

		glicko_live_option_split(args[i], "glicko2_rate_game", option_names, &name, &value);
		if (!glicko_live_common_option(name, value, &opt, CurrentMemoryContext))
			glicko_live_unknown_option("glicko2_rate_game", name, option_names);
	}

	glicko_live_check_ratings(&rt, &opt, PG_GETARG_OID(0), key_type, "player_id",
							  get_func_namespace(fcinfo->flinfo->fn_oid), CurrentMemoryContext);
	glicko_keyed_sql(&q, &rt, key_type, "a game given to glicko2_rate_game");

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
	glicko_keyed_lock(&q, &rt, key_type, keys[first], played_at, &rows[first]);
	glicko_keyed_lock(&q, &rt, key_type, keys[1 - first], played_at, &rows[1 - first]);

	glicko_live_rate_game(&opt, rows, score, played_at, "live rating of a game given to glicko2_rate_game");

	for (int i = 0; i < 2; i++)
	{
		int			p = i == 0 ? first : 1 - first;

		glicko_keyed_write(&q, &rt, keys[p], &rows[p]);
	}
	SPI_finish();
	PG_RETURN_VOID();
}
