/*
 * live_trigger.c — glicko2_rate_games(), the live rating trigger: attached
 * AFTER INSERT ... FOR EACH ROW to a games table, it rates both players of
 * each game in the inserting transaction.
 *
 * Per game: lock both players' ratings rows in key order (one SELECT ...
 * ORDER BY key FOR NO KEY UPDATE, so two games of the same players written at once
 * wait for each other and never deadlock); if a player is missing, lock
 * neither, add the missing player as unrated (INSERT ... ON CONFLICT DO
 * NOTHING, in key order, holding no row lock) and lock again; grow
 * each RD for the periods since its rated_at, rate the game for both from
 * both pre-game ratings (glicko2_live_game), and write both rows (one
 * UPDATE of the locked row versions by table and TID: a TID alone names a
 * row only within one table, and a partitioned or inheritance ratings table
 * spans several).  The three statements are prepared once per trigger and
 * kept.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "live_game.h"
#include "live_rows.h"
#include "relation.h"
#include "rating.h"
#include "write_check.h"

/* The games' own options, after the common ones. */
typedef struct GameOptions
{
	char	   *game_player_column;
	char	   *opponent_column;
	char	   *score_column;
	char	   *played_at_column;
} GameOptions;

/* What one trigger needs (its entry's state, built on first use and kept). */
typedef struct LiveTrigger
{
	GlickoLiveOptions opt;
	GameOptions game;
	GlickoLiveRatings ratings;
	AttrNumber	player_attnum;	/* in games */
	AttrNumber	opponent_attnum;
	AttrNumber	score_attnum;
	AttrNumber	played_at_attnum;
	Oid			key_type;		/* of the games' player columns */
	Oid			key_collation;
	Oid			score_type;
	FmgrInfo	key_eq;			/* equality of key_type */
} LiveTrigger;

/* The entry's statements. */
enum
{
	LOCK_PLAN,					/* ($1, $2) -> (is_player, rating, rated_at, ctid, tableoid) */
	INSERT_PLAN,				/* ($1, $2, unrated, played_at) */
	UPDATE_PLAN					/* (tableoid, ctid, rating, rated_at) of both */
};

static const char *const option_names =
	"period, tau, max_rd, player_column, rating_column, rated_at_column, "
	"game_player_column, opponent_column, score_column, played_at_column";

/* One 'name=value' trigger argument (strings allocated in cxt). */
static void
parse_option(const char *arg, LiveTrigger *t, const char *trigger_name, MemoryContext cxt)
{
	char	   *name;
	const char *value;
	char	  **slot;

	glicko_live_option_split(arg, trigger_name, option_names, &name, &value);
	if (glicko_live_common_option(name, value, &t->opt, cxt))
		return;
	slot = strcmp(name, "game_player_column") == 0 ? &t->game.game_player_column :
		strcmp(name, "opponent_column") == 0 ? &t->game.opponent_column :
		strcmp(name, "score_column") == 0 ? &t->game.score_column :
		strcmp(name, "played_at_column") == 0 ? &t->game.played_at_column : NULL;
	if (slot == NULL)
		glicko_live_unknown_option(trigger_name, name, option_names);
	*slot = MemoryContextStrdup(cxt, value);
}

/*
 * Resolve the trigger's arguments, check both tables, prepare the three
 * statements.  Runs inside the caller's SPI connection.
 */
static void
build_trigger(GlickoLiveEntry *e, TriggerData *trigdata, Oid extension_namespace)
{
	Trigger    *trigger = trigdata->tg_trigger;
	Relation	games = trigdata->tg_relation;
	LiveTrigger *t = MemoryContextAllocZero(e->cxt, sizeof(LiveTrigger));
	GlickoLiveOptions *opt = &t->opt;
	GameOptions *g = &t->game;
	const GlickoLiveRatings *rt = &t->ratings;
	Oid			types[8];

	glicko_live_options_init(opt);
	if (trigger->tgnargs < 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("trigger %s on %s names no ratings table", trigger->tgname,
					   RelationGetRelationName(games)),
				errhint("EXECUTE FUNCTION glicko2_rate_games('ratings' [, 'period=1 day', 'tau=0.5', 'max_rd=350', ...])."));
	for (int i = 1; i < trigger->tgnargs; i++)
		parse_option(trigger->tgargs[i], t, trigger->tgname, e->cxt);
#define DEFAULT_COLUMN(field, name) \
	if (field == NULL) field = MemoryContextStrdup(e->cxt, name)
	DEFAULT_COLUMN(opt->player_column, "player_id");
	DEFAULT_COLUMN(opt->rating_column, "rating");
	DEFAULT_COLUMN(opt->rated_at_column, "rated_at");
	DEFAULT_COLUMN(g->game_player_column, "player_id");
	DEFAULT_COLUMN(g->opponent_column, "opponent_id");
	DEFAULT_COLUMN(g->score_column, "score");
	DEFAULT_COLUMN(g->played_at_column, "played_at");
#undef DEFAULT_COLUMN

	/* The games' columns. */
	t->player_attnum = glicko_live_column_attnum(e->table_relid, g->game_player_column, "game_player_column");
	t->opponent_attnum = glicko_live_column_attnum(e->table_relid, g->opponent_column, "opponent_column");
	t->score_attnum = glicko_live_column_attnum(e->table_relid, g->score_column, "score_column");
	t->played_at_attnum = glicko_live_column_attnum(e->table_relid, g->played_at_column, "played_at_column");
	t->key_type = get_atttype(e->table_relid, t->player_attnum);
	glicko_live_require_type(e->table_relid, t->opponent_attnum, t->key_type, format_type_be(t->key_type));
	t->key_collation = TupleDescAttr(RelationGetDescr(games), t->player_attnum - 1)->attcollation;
	t->score_type = get_atttype(e->table_relid, t->score_attnum);
	glicko_require_number(t->score_type, g->score_column, RelationGetRelationName(games));
	glicko_live_require_type(e->table_relid, t->played_at_attnum, TIMESTAMPTZOID, "timestamptz");
	glicko_live_qualified_equality(t->key_type, "games player");	/* checks it has one */
	fmgr_info_cxt(lookup_type_cache(t->key_type, TYPECACHE_EQ_OPR_FINFO)->eq_opr_finfo.fn_oid,
				  &t->key_eq, e->cxt);

	glicko_live_open_ratings(&t->ratings, opt, trigdata, t->key_type, g->game_player_column,
							 extension_namespace, e->cxt);
	e->ratings_relid = rt->relid;

	/* The statements, every name quoted, the equality operator qualified. */
	types[0] = types[1] = t->key_type;
	/*
	 * Both rows, locked in key order, or none while a player is missing: a
	 * game that locked one player and then waited to add the other could
	 * deadlock with a game adding that player (test/specs/live_new_players).
	 */
	e->plans[LOCK_PLAN] = glicko_live_prepare(psprintf(
		"SELECT r.%1$s %2$s CAST($1 AS %4$s), r.%5$s, r.%6$s, r.ctid, r.tableoid FROM %3$s r"
		" WHERE r.%1$s %2$s ANY (ARRAY[CAST($1 AS %4$s), CAST($2 AS %4$s)])"
		" AND EXISTS (SELECT FROM %3$s x WHERE x.%1$s %2$s CAST($1 AS %4$s))"
		" AND EXISTS (SELECT FROM %3$s x WHERE x.%1$s %2$s CAST($2 AS %4$s))"
		" ORDER BY r.%1$s FOR NO KEY UPDATE OF r",
		rt->key, rt->eq, rt->name, rt->key_type_name, rt->rating, rt->rated_at),
		2, types);
	types[2] = rt->rating_type;
	types[3] = TIMESTAMPTZOID;
	/*
	 * (NOT EXISTS: the unique key of an inheritance parent does not see its
	 * children's rows, so ON CONFLICT alone would add a child's player again)
	 */
	e->plans[INSERT_PLAN] = glicko_live_prepare(psprintf(
		"INSERT INTO %3$s AS r (%1$s, %4$s, %5$s)"
		" SELECT v.k, $3, $4 FROM (VALUES (CAST($1 AS %2$s)), (CAST($2 AS %2$s))) v(k)"
		" WHERE NOT EXISTS (SELECT FROM %3$s x WHERE x.%1$s %6$s v.k)"
		" ORDER BY v.k ON CONFLICT (%1$s) DO NOTHING",
		rt->key, rt->key_type_name, rt->name, rt->rating, rt->rated_at, rt->eq),
		4, types);
	/*
	 * The rows locked above, by table and TID (a TID scan, no index descent;
	 * in each partition or child of the ratings table, the table filters).
	 */
	types[0] = types[4] = OIDOID;
	types[1] = types[5] = TIDOID;
	types[2] = types[6] = rt->rating_type;
	types[3] = types[7] = TIMESTAMPTZOID;
	e->plans[UPDATE_PLAN] = glicko_live_prepare(psprintf(
		"UPDATE %1$s r SET %2$s = v.rating, %3$s = v.rated_at"
		" FROM (VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)) v(tableoid, tid, rating, rated_at)"
		" WHERE r.ctid OPERATOR(pg_catalog.=) v.tid AND r.tableoid OPERATOR(pg_catalog.=) v.tableoid",
		rt->name, rt->rating, rt->rated_at),
		8, types);
	e->state = t;
}

/* A column of the game as text for messages ("NULL" if NULL). */
static char *
game_value(HeapTuple tuple, TupleDesc desc, AttrNumber attnum)
{
	char	   *s = SPI_getvalue(tuple, desc, attnum);

	return s ? s : "NULL";
}

static void
bad_game(LiveTrigger *t, TriggerData *trigdata, int sqlstate, const char *why)
{
	HeapTuple	tuple = trigdata->tg_trigtuple;
	TupleDesc	desc = RelationGetDescr(trigdata->tg_relation);

	ereport(ERROR,
			errcode(sqlstate),
			errmsg("bad game written to %s: %s: %s %s, %s %s, %s %s, %s %s",
				   RelationGetRelationName(trigdata->tg_relation), why,
				   t->game.game_player_column, game_value(tuple, desc, t->player_attnum),
				   t->game.opponent_column, game_value(tuple, desc, t->opponent_attnum),
				   t->game.score_column, game_value(tuple, desc, t->score_attnum),
				   t->game.played_at_column, game_value(tuple, desc, t->played_at_attnum)),
			errdetail("The game is refused and nothing is rated."));
}

/*
 * Lock both players' rows in key order; false if one is missing.
 */
static bool
lock_players(GlickoLiveEntry *e, LiveTrigger *t, Datum *keys, GlickoLiveRow *rows)
{
	int			ret = SPI_execute_plan(e->plans[LOCK_PLAN], keys, NULL, false, 0);
	TupleDesc	desc;

	if (ret != SPI_OK_SELECT)
		elog(ERROR, "glicko2_rate_games: lock of players failed: %s", SPI_result_code_string(ret));
	rows[0].found = rows[1].found = false;
	desc = SPI_tuptable->tupdesc;
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;		/* the key is never NULL */
		int			which = DatumGetBool(SPI_getbinval(tup, desc, 1, &isnull)) ? 0 : 1;

		glicko_live_read_row(&rows[which], tup, desc, 2, &t->ratings, t->key_type, keys[which]);
	}
	return rows[0].found && rows[1].found;
}

/* Tries at locking both rows: a missing player is added once, then found. */
#define LOCK_TRIES 3

static void rate_game(GlickoLiveEntry *e, TriggerData *trigdata);

/* glicko2_rate_games(): AFTER INSERT ... FOR EACH ROW on a games table. */
PG_FUNCTION_INFO_V1(glicko2_rate_games);
Datum
glicko2_rate_games(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	GlickoLiveEntry *e;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_AFTER(trigdata->tg_event) ||
		!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) ||
		!TRIGGER_FIRED_BY_INSERT(trigdata->tg_event))
		ereport(ERROR,
				errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				errmsg("glicko2_rate_games must be an AFTER INSERT ... FOR EACH ROW trigger"));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "glicko2_rate_games: SPI_connect failed");
	e = glicko_live_entry(trigdata, get_func_namespace(fcinfo->flinfo->fn_oid), build_trigger);
	/*
	 * While it runs, its statements stay: a trigger of the ratings table can
	 * invalidate them and write a game of another league, whose live trigger
	 * would otherwise free them (release_invalid) under this one.
	 */
	e->active++;
	PG_TRY();
	{
		rate_game(e, trigdata);
	}
	PG_FINALLY();
	{
		e->active--;
	}
	PG_END_TRY();
	SPI_finish();
	return PointerGetDatum(NULL);
}

/* One game rated (glicko2_rate_games), inside its SPI connection. */
static void
rate_game(GlickoLiveEntry *e, TriggerData *trigdata)
{
	LiveTrigger *t = e->state;
	HeapTuple	game;
	TupleDesc	desc;
	Datum		keys[2];
	Datum		values[8];
	bool		isnull[4];
	double		score;
	TimestampTz played_at;
	GlickoLiveRow rows[2];
	Glicko2Rating new_player,
				new_opponent;
	GlickoStatus status;
	int			tries = 0;
	uint64		added = 0;
	int			ret;

	/* The game, checked before anything is written. */
	game = trigdata->tg_trigtuple;
	desc = RelationGetDescr(trigdata->tg_relation);
	keys[0] = heap_getattr(game, t->player_attnum, desc, &isnull[0]);
	keys[1] = heap_getattr(game, t->opponent_attnum, desc, &isnull[1]);
	values[0] = heap_getattr(game, t->score_attnum, desc, &isnull[2]);
	played_at = DatumGetTimestampTz(heap_getattr(game, t->played_at_attnum, desc, &isnull[3]));
	if (isnull[0] || isnull[1])
		bad_game(t, trigdata, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL player");
	if (isnull[2])
		bad_game(t, trigdata, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL score");
	if (isnull[3])
		bad_game(t, trigdata, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL time played");
	if (DatumGetBool(FunctionCall2Coll(&t->key_eq, t->key_collation, keys[0], keys[1])))
		bad_game(t, trigdata, ERRCODE_INVALID_PARAMETER_VALUE, "self-play");
	score = glicko_score_as_float8(t->score_type, values[0]);
	if (!glicko_valid_score(score))
		bad_game(t, trigdata, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "score outside [0, 1]");
	if (TIMESTAMP_NOT_FINITE(played_at))
		bad_game(t, trigdata, ERRCODE_INVALID_PARAMETER_VALUE, "time played not finite");

	/* Both rows locked in key order; missing players added as unrated. */
	while (!lock_players(e, t, keys, rows))
	{
		/*
		 * Still missing after an insert that added nobody: not a concurrent
		 * insert (the lock would see it now) but a trigger, rule or policy
		 * of the ratings table that dropped or hid the row.
		 */
		if (tries > 0 && added == 0)
			glicko2_require_written(e->ratings_relid, 0, 1,
									psprintf("adding a new player of a game written to %s",
											 RelationGetRelationName(trigdata->tg_relation)));
		if (++tries >= LOCK_TRIES)
			ereport(ERROR,
					errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					errmsg("could not lock the ratings rows of both players of a game written to %s",
						   RelationGetRelationName(trigdata->tg_relation)),
					errdetail("A player's row was deleted while the game was being rated."),
					errhint("Retry the transaction."));
		values[0] = keys[0];
		values[1] = keys[1];
		values[2] = glicko2_rating_datum(t->ratings.rating_desc, &t->ratings.unrated);
		values[3] = TimestampTzGetDatum(played_at);
		ret = SPI_execute_plan(e->plans[INSERT_PLAN], values, NULL, false, 0);
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "glicko2_rate_games: insert of new players failed: %s",
				 SPI_result_code_string(ret));
		added = SPI_processed;
	}

	status = glicko2_live_game(&rows[0].rating, glicko_live_idle(&rows[0], played_at, t->opt.period_usecs),
							   &rows[1].rating, glicko_live_idle(&rows[1], played_at, t->opt.period_usecs),
							   score, t->opt.tau, t->opt.max_rd,
							   &new_player, &new_opponent);
	if (status != GLICKO_OK)
		glicko_report_status(status, psprintf("live rating of a game written to %s",
											  RelationGetRelationName(trigdata->tg_relation)));

	/* Both rows written; rated_at never moves back. */
	for (int i = 0; i < 2; i++)
	{
		values[4 * i] = ObjectIdGetDatum(rows[i].tableoid);
		values[4 * i + 1] = PointerGetDatum(&rows[i].tid);
		values[4 * i + 2] = glicko2_rating_datum(t->ratings.rating_desc, i == 0 ? &new_player : &new_opponent);
		values[4 * i + 3] = TimestampTzGetDatum(glicko_live_rated_at(&rows[i], played_at));
	}
	ret = SPI_execute_plan(e->plans[UPDATE_PLAN], values, NULL, false, 0);
	glicko2_require_written(e->ratings_relid, ret == SPI_OK_UPDATE ? (int64) SPI_processed : 0, 2,
							psprintf("live rating of a game written to %s",
									 RelationGetRelationName(trigdata->tg_relation)));
}
