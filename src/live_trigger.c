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
 * spans several).  The three statements are the matches trigger's too
 * (live_rows.c builds and runs them), prepared once per trigger and kept.
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

static const char *const option_names =
"period, tau, max_rd, player_column, rating_column, rated_at_column, "
"game_player_column, opponent_column, score_column, played_at_column, "
"min_rating, max_change, max_volatility";

/* One 'name=value' trigger argument (strings allocated in cxt). */
static void
parse_option(const char *arg, LiveTrigger *t, const char *trigger_name, MemoryContext cxt)
{
	char	   *name;
	const char *value;
	char	  **slot;

	glicko_live_option_split(arg, psprintf("trigger %s", trigger_name), option_names,
							 &name, &value);
	if (glicko_live_common_option(name, value, &t->opt, cxt))
		return;
	slot = strcmp(name, "game_player_column") == 0 ? &t->game.game_player_column :
		strcmp(name, "opponent_column") == 0 ? &t->game.opponent_column :
		strcmp(name, "score_column") == 0 ? &t->game.score_column :
		strcmp(name, "played_at_column") == 0 ? &t->game.played_at_column : NULL;
	if (slot == NULL)
		glicko_live_unknown_option(psprintf("trigger %s", trigger_name), name, option_names);
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

	/* Its statements: the live triggers' own (live_rows.c), of two players. */
	glicko_live_prepare_rows(e, rt, t->key_type, 2, NULL, 0, NULL);
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
	Datum		score_datum;
	Datum		first_at[2];
	bool		isnull[4];
	double		score;
	TimestampTz played_at;
	GlickoLiveRow rows[2];
	const char *what;

	/* The game, checked before anything is written. */
	game = trigdata->tg_trigtuple;
	desc = RelationGetDescr(trigdata->tg_relation);
	keys[0] = heap_getattr(game, t->player_attnum, desc, &isnull[0]);
	keys[1] = heap_getattr(game, t->opponent_attnum, desc, &isnull[1]);
	score_datum = heap_getattr(game, t->score_attnum, desc, &isnull[2]);
	played_at = DatumGetTimestampTz(heap_getattr(game, t->played_at_attnum, desc, &isnull[3]));
	if (isnull[0] || isnull[1])
		bad_game(t, trigdata, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL player");
	if (isnull[2])
		bad_game(t, trigdata, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL score");
	if (isnull[3])
		bad_game(t, trigdata, ERRCODE_NULL_VALUE_NOT_ALLOWED, "NULL time played");
	if (DatumGetBool(FunctionCall2Coll(&t->key_eq, t->key_collation, keys[0], keys[1])))
		bad_game(t, trigdata, ERRCODE_INVALID_PARAMETER_VALUE, "self-play");
	score = glicko_score_as_float8(t->score_type, score_datum);
	if (!glicko_valid_score(score))
		bad_game(t, trigdata, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "score outside [0, 1]");
	if (TIMESTAMP_NOT_FINITE(played_at))
		bad_game(t, trigdata, ERRCODE_INVALID_PARAMETER_VALUE, "time played not finite");

	/* Both rows locked in key order; missing players added as unrated. */
	first_at[0] = first_at[1] = TimestampTzGetDatum(played_at);
	glicko_live_lock_players(e, &t->ratings, t->key_type, 2, keys, first_at, rows,
							 "a game", RelationGetRelationName(trigdata->tg_relation));

	what = psprintf("live rating of a game written to %s",
					RelationGetRelationName(trigdata->tg_relation));
	glicko_live_rate_game(&t->opt, rows, score, played_at, what);

	/* Both rows written; rated_at never moves back. */
	glicko2_require_written(e->ratings_relid,
							glicko_live_write_rows(e, &t->ratings, 2, rows, NULL, 0), 2, what);
}
