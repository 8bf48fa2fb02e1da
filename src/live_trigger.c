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

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "storage/itemptr.h"
#include "utils/builtins.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"
#include "utils/varlena.h"

#include "live_game.h"
#include "rating.h"
#include "write_check.h"

/* Trigger options, 'name=value' after the ratings table (strings in the entry's cxt). */
typedef struct LiveOptions
{
	double		period_usecs;
	double		tau;
	double		max_rd;			/* INFINITY: no cap */
	char	   *player_column;	/* of ratings */
	char	   *rating_column;
	char	   *rated_at_column;
	char	   *game_player_column; /* of games */
	char	   *opponent_column;
	char	   *score_column;
	char	   *played_at_column;
} LiveOptions;

/* What one trigger (by its OID) needs, built on first use and kept. */
typedef struct LiveTrigger
{
	Oid			trigger_oid;	/* hash key */
	bool		valid;			/* false after DDL on either table */
	int			active;			/* games being rated with it (nested) */
	MemoryContext cxt;			/* what a build allocates; reset by the next */
	Oid			games_relid;
	Oid			ratings_relid;
	LiveOptions opt;
	AttrNumber	player_attnum;	/* in games */
	AttrNumber	opponent_attnum;
	AttrNumber	score_attnum;
	AttrNumber	played_at_attnum;
	Oid			key_type;		/* of the games' player columns */
	Oid			key_collation;
	Oid			score_type;
	FmgrInfo	key_eq;			/* equality of key_type */
	Oid			rating_type;	/* the extension's glicko2_rating */
	TupleDesc	rating_desc;	/* its descriptor, blessed */
	SPIPlanPtr	lock_plan;		/* ($1, $2) -> (is_player, rating, rated_at, ctid, tableoid) */
	SPIPlanPtr	insert_plan;	/* ($1, $2, unrated, played_at) */
	SPIPlanPtr	update_plan;	/* (tableoid, ctid, rating, rated_at) of both */
} LiveTrigger;

static HTAB *live_triggers = NULL;

/* DDL on a games or ratings table: rebuild its triggers' entries. */
static void
live_relcache_callback(Datum arg, Oid relid)
{
	HASH_SEQ_STATUS status;
	LiveTrigger *t;

	hash_seq_init(&status, live_triggers);
	while ((t = hash_seq_search(&status)) != NULL)
		if (relid == InvalidOid || t->games_relid == relid || t->ratings_relid == relid)
			t->valid = false;
}

static void
free_plans(LiveTrigger *t)
{
	if (t->lock_plan)
		SPI_freeplan(t->lock_plan);
	if (t->insert_plan)
		SPI_freeplan(t->insert_plan);
	if (t->update_plan)
		SPI_freeplan(t->update_plan);
	t->lock_plan = t->insert_plan = t->update_plan = NULL;
}

static const char *const option_names =
	"period, tau, max_rd, player_column, rating_column, rated_at_column, "
	"game_player_column, opponent_column, score_column, played_at_column";

/* One 'name=value' trigger argument into opt (strings allocated in cxt). */
static void
parse_option(const char *arg, LiveOptions *opt, const char *trigger_name,
			 MemoryContext cxt)
{
	const char *eq = strchr(arg, '=');
	char	   *name;
	const char *value;

	if (eq == NULL)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("trigger %s: argument \"%s\" is not name=value", trigger_name, arg),
				errhint("The first argument names the ratings table; the others are options: %s.",
						option_names));
	name = pnstrdup(arg, eq - arg);
	value = eq + 1;

	if (strcmp(name, "period") == 0)
		opt->period_usecs = live_period_usecs(DatumGetIntervalP(
			DirectFunctionCall3(interval_in, CStringGetDatum(value),
								ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1))));
	else if (strcmp(name, "tau") == 0)
	{
		opt->tau = DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(value)));
		check_positive(opt->tau, "tau");
	}
	else if (strcmp(name, "max_rd") == 0)
	{
		if (pg_strcasecmp(value, "none") == 0)
			opt->max_rd = INFINITY;
		else
		{
			opt->max_rd = DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(value)));
			check_positive(opt->max_rd, "max_rd");
		}
	}
	else
	{
		char	  **slot =
			strcmp(name, "player_column") == 0 ? &opt->player_column :
			strcmp(name, "rating_column") == 0 ? &opt->rating_column :
			strcmp(name, "rated_at_column") == 0 ? &opt->rated_at_column :
			strcmp(name, "game_player_column") == 0 ? &opt->game_player_column :
			strcmp(name, "opponent_column") == 0 ? &opt->opponent_column :
			strcmp(name, "score_column") == 0 ? &opt->score_column :
			strcmp(name, "played_at_column") == 0 ? &opt->played_at_column : NULL;

		if (slot == NULL)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("trigger %s: unknown option \"%s\"", trigger_name, name),
					errhint("Options are %s.", option_names));
		*slot = MemoryContextStrdup(cxt, value);
	}
}

/* The attnum of a column, or an error naming it and the option that names it. */
static AttrNumber
column_attnum(Oid relid, const char *column, const char *option)
{
	AttrNumber	attnum = get_attnum(relid, column);

	if (attnum == InvalidAttrNumber || attnum < 0)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_COLUMN),
				errmsg("column \"%s\" of relation %s does not exist",
					   column, get_rel_name(relid)),
				errhint("Name the column with the trigger argument '%s=...'.", option));
	return attnum;
}

/* ERROR unless the column has the type wanted. */
static void
require_type(Oid relid, AttrNumber attnum, Oid want, const char *want_name)
{
	Oid			type = get_atttype(relid, attnum);

	if (type != want)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is %s, not %s",
					   get_attname(relid, attnum, false), get_rel_name(relid),
					   format_type_be(type), want_name));
}

static bool
is_integer_type(Oid type)
{
	return type == INT2OID || type == INT4OID || type == INT8OID;
}

/* OPERATOR(schema.=) for the type's default equality, for generated SQL. */
static char *
qualified_equality(Oid type, const char *what)
{
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_EQ_OPR | TYPECACHE_LT_OPR);
	HeapTuple	tup;
	Form_pg_operator op;
	char	   *result;

	if (!OidIsValid(tc->eq_opr) || !OidIsValid(tc->lt_opr))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("%s type %s has no default btree operator class", what,
					   format_type_be(type)),
				errdetail("Players are looked up by key and locked in key order."));
	tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(tc->eq_opr));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for operator %u", tc->eq_opr);
	op = (Form_pg_operator) GETSTRUCT(tup);
	result = psprintf("OPERATOR(%s.%s)",
					  quote_identifier(get_namespace_name(op->oprnamespace)),
					  NameStr(op->oprname));
	ReleaseSysCache(tup);
	return result;
}

/* ERROR unless the ratings key has a unique index of its own (ON CONFLICT needs it). */
static void
require_unique_key(Oid relid, AttrNumber attnum, const char *column)
{
	Datum		args[2] = {ObjectIdGetDatum(relid), Int16GetDatum(attnum)};
	Oid			types[2] = {OIDOID, INT2OID};
	bool		isnull;
	int			ret;

	ret = SPI_execute_with_args(
		"SELECT EXISTS (SELECT FROM pg_catalog.pg_index i"
		" WHERE i.indrelid OPERATOR(pg_catalog.=) $1 AND i.indisunique AND i.indimmediate"
		" AND i.indnatts OPERATOR(pg_catalog.=) 1 AND i.indkey[0] OPERATOR(pg_catalog.=) $2"
		" AND i.indpred IS NULL AND i.indexprs IS NULL)",
		2, types, args, NULL, true, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the indexes of relation %u", relid);
	if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
				errmsg("column \"%s\" of %s is not a unique key", column, get_rel_name(relid)),
				errdetail("Each player must have exactly one row in the ratings table, found by a unique index of its own."),
				errhint("ALTER TABLE %s ADD PRIMARY KEY (%s);",
						quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
												   get_rel_name(relid)),
						quote_identifier(column)));
}

static SPIPlanPtr
prepare_kept(const char *sql, int nargs, Oid *types)
{
	SPIPlanPtr	plan = SPI_prepare(sql, nargs, types);

	if (plan == NULL)
		elog(ERROR, "SPI_prepare failed for \"%s\": %s", sql, SPI_result_code_string(SPI_result));
	if (SPI_keepplan(plan) != 0)
		elog(ERROR, "SPI_keepplan failed");
	return plan;
}

/*
 * Resolve the trigger's arguments, check both tables, prepare the three
 * statements.  Runs inside the caller's SPI connection.
 */
static void
build_trigger(LiveTrigger *t, TriggerData *trigdata, Oid extension_namespace)
{
	Trigger    *trigger = trigdata->tg_trigger;
	Relation	games = trigdata->tg_relation;
	LiveOptions *opt = &t->opt;
	List	   *names;
	RangeVar   *rv;
	const char *ratings_name;
	const char *eq;
	AttrNumber	key_attnum,
				rating_attnum,
				rated_at_attnum;
	Oid			ratings_key_type;
	Oid			types[8];
	const char *k,
			   *r,
			   *a;

	free_plans(t);
	t->valid = false;
	if (t->cxt == NULL)
		t->cxt = AllocSetContextCreate(TopMemoryContext, "glicko2 live trigger",
									   ALLOCSET_SMALL_SIZES);
	MemoryContextReset(t->cxt);
	t->rating_desc = NULL;
	memset(opt, 0, sizeof(*opt));
	opt->period_usecs = (double) USECS_PER_DAY;
	opt->tau = GLICKO2_DEFAULT_TAU;
	opt->max_rd = GLICKO2_DEFAULT_RD;

	if (trigger->tgnargs < 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("trigger %s on %s names no ratings table", trigger->tgname,
					   RelationGetRelationName(games)),
				errhint("EXECUTE FUNCTION glicko2_rate_games('ratings' [, 'period=1 day', 'tau=0.5', 'max_rd=350', ...])."));
	for (int i = 1; i < trigger->tgnargs; i++)
		parse_option(trigger->tgargs[i], opt, trigger->tgname, t->cxt);
#define DEFAULT_COLUMN(field, name) \
	if (opt->field == NULL) opt->field = MemoryContextStrdup(t->cxt, name)
	DEFAULT_COLUMN(player_column, "player_id");
	DEFAULT_COLUMN(rating_column, "rating");
	DEFAULT_COLUMN(rated_at_column, "rated_at");
	DEFAULT_COLUMN(game_player_column, "player_id");
	DEFAULT_COLUMN(opponent_column, "opponent_id");
	DEFAULT_COLUMN(score_column, "score");
	DEFAULT_COLUMN(played_at_column, "played_at");
#undef DEFAULT_COLUMN

	/* The ratings table; unqualified: in the games table's schema. */
	ratings_name = trigger->tgargs[0];
	names = textToQualifiedNameList(cstring_to_text(ratings_name));
	rv = makeRangeVarFromNameList(names);
	if (rv->schemaname == NULL)
		rv->schemaname = get_namespace_name(RelationGetNamespace(games));
	t->ratings_relid = RangeVarGetRelid(rv, NoLock, true);
	if (!OidIsValid(t->ratings_relid))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("ratings table %s named by trigger %s on %s does not exist",
					   ratings_name, trigger->tgname, RelationGetRelationName(games)));
	t->games_relid = RelationGetRelid(games);

	/* The games' columns. */
	t->player_attnum = column_attnum(t->games_relid, opt->game_player_column, "game_player_column");
	t->opponent_attnum = column_attnum(t->games_relid, opt->opponent_column, "opponent_column");
	t->score_attnum = column_attnum(t->games_relid, opt->score_column, "score_column");
	t->played_at_attnum = column_attnum(t->games_relid, opt->played_at_column, "played_at_column");
	t->key_type = get_atttype(t->games_relid, t->player_attnum);
	require_type(t->games_relid, t->opponent_attnum, t->key_type, format_type_be(t->key_type));
	t->key_collation = TupleDescAttr(RelationGetDescr(games), t->player_attnum - 1)->attcollation;
	t->score_type = get_atttype(t->games_relid, t->score_attnum);
	if (t->score_type != FLOAT8OID && t->score_type != FLOAT4OID &&
		t->score_type != NUMERICOID && !is_integer_type(t->score_type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is %s, not a number", opt->score_column,
					   RelationGetRelationName(games), format_type_be(t->score_type)));
	require_type(t->games_relid, t->played_at_attnum, TIMESTAMPTZOID, "timestamptz");
	qualified_equality(t->key_type, "games player");	/* checks it has one */
	fmgr_info_cxt(lookup_type_cache(t->key_type, TYPECACHE_EQ_OPR_FINFO)->eq_opr_finfo.fn_oid,
				  &t->key_eq, t->cxt);

	/* The ratings table's columns. */
	t->rating_type = glicko2_rating_type(extension_namespace);
	key_attnum = column_attnum(t->ratings_relid, opt->player_column, "player_column");
	rating_attnum = column_attnum(t->ratings_relid, opt->rating_column, "rating_column");
	rated_at_attnum = column_attnum(t->ratings_relid, opt->rated_at_column, "rated_at_column");
	require_type(t->ratings_relid, rating_attnum, t->rating_type, "glicko2_rating");
	{
		MemoryContext old = MemoryContextSwitchTo(t->cxt);

		t->rating_desc = BlessTupleDesc(lookup_rowtype_tupdesc_copy(t->rating_type, -1));
		MemoryContextSwitchTo(old);
	}
	require_type(t->ratings_relid, rated_at_attnum, TIMESTAMPTZOID, "timestamptz");
	ratings_key_type = get_atttype(t->ratings_relid, key_attnum);
	if (ratings_key_type != t->key_type &&
		!(is_integer_type(ratings_key_type) && is_integer_type(t->key_type)))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is %s, but player column \"%s\" of %s is %s",
					   opt->game_player_column, RelationGetRelationName(games),
					   format_type_be(t->key_type), opt->player_column,
					   get_rel_name(t->ratings_relid), format_type_be(ratings_key_type)));
	require_unique_key(t->ratings_relid, key_attnum, opt->player_column);

	/* The statements, every name quoted, the equality operator qualified. */
	eq = qualified_equality(ratings_key_type, "ratings player");
	k = quote_identifier(opt->player_column);
	r = quote_identifier(opt->rating_column);
	a = quote_identifier(opt->rated_at_column);
	ratings_name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(t->ratings_relid)),
											  get_rel_name(t->ratings_relid));
	types[0] = types[1] = types[3] = t->key_type;
	/*
	 * Both rows, locked in key order, or none while a player is missing: a
	 * game that locked one player and then waited to add the other could
	 * deadlock with a game adding that player (test/specs/live_new_players).
	 */
	t->lock_plan = prepare_kept(psprintf(
		"SELECT r.%1$s %2$s CAST($1 AS %4$s), r.%5$s, r.%6$s, r.ctid, r.tableoid FROM %3$s r"
		" WHERE r.%1$s %2$s ANY (ARRAY[CAST($1 AS %4$s), CAST($2 AS %4$s)])"
		" AND EXISTS (SELECT FROM %3$s x WHERE x.%1$s %2$s CAST($1 AS %4$s))"
		" AND EXISTS (SELECT FROM %3$s x WHERE x.%1$s %2$s CAST($2 AS %4$s))"
		" ORDER BY r.%1$s FOR NO KEY UPDATE OF r",
		k, eq, ratings_name, format_type_be_qualified(ratings_key_type), r, a),
		2, types);
	types[2] = t->rating_type;
	types[3] = TIMESTAMPTZOID;
	/*
	 * (NOT EXISTS: the unique key of an inheritance parent does not see its
	 * children's rows, so ON CONFLICT alone would add a child's player again)
	 */
	t->insert_plan = prepare_kept(psprintf(
		"INSERT INTO %3$s AS r (%1$s, %4$s, %5$s)"
		" SELECT v.k, $3, $4 FROM (VALUES (CAST($1 AS %2$s)), (CAST($2 AS %2$s))) v(k)"
		" WHERE NOT EXISTS (SELECT FROM %3$s x WHERE x.%1$s %6$s v.k)"
		" ORDER BY v.k ON CONFLICT (%1$s) DO NOTHING",
		k, format_type_be_qualified(ratings_key_type), ratings_name, r, a, eq),
		4, types);
	/*
	 * The rows locked above, by table and TID (a TID scan, no index descent;
	 * in each partition or child of the ratings table, the table filters).
	 */
	types[0] = types[4] = OIDOID;
	types[1] = types[5] = TIDOID;
	types[2] = types[6] = t->rating_type;
	types[3] = types[7] = TIMESTAMPTZOID;
	t->update_plan = prepare_kept(psprintf(
		"UPDATE %1$s r SET %2$s = v.rating, %3$s = v.rated_at"
		" FROM (VALUES ($1, $2, $3, $4), ($5, $6, $7, $8)) v(tableoid, tid, rating, rated_at)"
		" WHERE r.ctid OPERATOR(pg_catalog.=) v.tid AND r.tableoid OPERATOR(pg_catalog.=) v.tableoid",
		ratings_name, r, a),
		8, types);
	t->valid = true;
}

/*
 * Free the plans and memory of other invalidated entries: they are rebuilt
 * if used again, and a dropped trigger (a temporary games table's, say)
 * then keeps only its small hash entry.
 */
static void
release_invalid(LiveTrigger *keep)
{
	HASH_SEQ_STATUS status;
	LiveTrigger *t;

	hash_seq_init(&status, live_triggers);
	while ((t = hash_seq_search(&status)) != NULL)
		if (t != keep && !t->valid && t->active == 0 && t->cxt != NULL)
		{
			free_plans(t);
			MemoryContextDelete(t->cxt);
			t->cxt = NULL;
			t->rating_desc = NULL;
		}
}

/* The trigger's entry, built or rebuilt as needed. */
static LiveTrigger *
get_trigger(TriggerData *trigdata, Oid extension_namespace)
{
	Oid			oid = trigdata->tg_trigger->tgoid;
	LiveTrigger *t;
	bool		found;

	if (live_triggers == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(Oid);
		ctl.entrysize = sizeof(LiveTrigger);
		live_triggers = hash_create("glicko2 live triggers", 16, &ctl,
									HASH_ELEM | HASH_BLOBS);
		CacheRegisterRelcacheCallback(live_relcache_callback, (Datum) 0);
	}
	t = hash_search(live_triggers, &oid, HASH_ENTER, &found);
	if (!found)
	{
		memset((char *) t + sizeof(Oid), 0, sizeof(LiveTrigger) - sizeof(Oid));
		t->valid = false;
	}
	/*
	 * (not while a game it rates is under way: a nested call uses the same
	 * statements, which the plan cache revalidates, and the columns of the
	 * games table cannot change while it is being written)
	 */
	if ((!t->valid || t->games_relid != RelationGetRelid(trigdata->tg_relation)) &&
		t->active == 0)
	{
		release_invalid(t);
		build_trigger(t, trigdata, extension_namespace);
	}
	return t;
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
				   t->opt.game_player_column, game_value(tuple, desc, t->player_attnum),
				   t->opt.opponent_column, game_value(tuple, desc, t->opponent_attnum),
				   t->opt.score_column, game_value(tuple, desc, t->score_attnum),
				   t->opt.played_at_column, game_value(tuple, desc, t->played_at_attnum)),
			errdetail("The game is refused and nothing is rated."));
}

static const Glicko2Rating unrated = {
	GLICKO2_DEFAULT_RATING, GLICKO2_DEFAULT_RD, GLICKO2_DEFAULT_VOLATILITY
};

/* A player's locked row: rating (NULL: unrated) and rated_at (NULL: unknown). */
typedef struct LockedRow
{
	bool		found;
	Glicko2Rating rating;
	double		idle_periods;
	TimestampTz rated_at;
	bool		rated_at_null;
	ItemPointerData tid;		/* the locked version: FOR NO KEY UPDATE
								 * returns the latest one */
	Oid			tableoid;		/* the table (partition, child) holding it */
} LockedRow;

/* For errors in a stored rating: which player's row it is. */
typedef struct RowContext
{
	LiveTrigger *t;
	Datum		key;
} RowContext;

static void
row_error_context(void *arg)
{
	RowContext *c = (RowContext *) arg;
	Oid			output;
	bool		isvarlena;

	getTypeOutputInfo(c->t->key_type, &output, &isvarlena);
	errcontext("ratings row of player %s in %s", OidOutputFunctionCall(output, c->key),
			   get_rel_name(c->t->ratings_relid));
}

/*
 * Lock both players' rows in key order; false if one is missing.  Each
 * rating is grown to played_at: its idle periods are counted from rated_at
 * (none for an unrated player (NULL rating), an unknown rated_at, or a
 * played_at before rated_at: a rating's time never runs backwards).
 */
static bool
lock_players(LiveTrigger *t, Datum *keys, TimestampTz played_at, LockedRow *rows)
{
	int			ret = SPI_execute_plan(t->lock_plan, keys, NULL, false, 0);
	TupleDesc	desc;

	if (ret != SPI_OK_SELECT)
		elog(ERROR, "glicko2_rate_games: lock of players failed: %s", SPI_result_code_string(ret));
	rows[0].found = rows[1].found = false;
	desc = SPI_tuptable->tupdesc;
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		HeapTuple	tup = SPI_tuptable->vals[i];
		bool		isnull;		/* the key and ctid are never NULL */
		bool		is_player = DatumGetBool(SPI_getbinval(tup, desc, 1, &isnull));
		LockedRow  *row = &rows[is_player ? 0 : 1];
		bool		rating_null;
		Datum		rating = SPI_getbinval(tup, desc, 2, &rating_null);

		/* (a unique index of a partitioned table spans its partitions, one
		 * of an inheritance parent only the parent's own rows) */
		if (row->found)
		{
			Oid			output;
			bool		isvarlena;

			getTypeOutputInfo(t->key_type, &output, &isvarlena);
			ereport(ERROR,
					errcode(ERRCODE_UNIQUE_VIOLATION),
					errmsg("player %s has more than one row in %s",
						   OidOutputFunctionCall(output, keys[is_player ? 0 : 1]),
						   get_rel_name(t->ratings_relid)),
					errdetail("Rows of %s and %s hold the same player; the unique key of an inheritance parent does not cover its children.",
							  get_rel_name(row->tableoid),
							  get_rel_name(DatumGetObjectId(SPI_getbinval(tup, desc, 5, &isnull)))),
					errhint("Keep each player in one table of the hierarchy, or use a partitioned table, whose unique key spans its partitions."));
		}
		row->found = true;
		row->idle_periods = 0.0;
		row->tid = *(ItemPointer) DatumGetPointer(SPI_getbinval(tup, desc, 4, &isnull));
		row->tableoid = DatumGetObjectId(SPI_getbinval(tup, desc, 5, &isnull));
		row->rated_at = DatumGetTimestampTz(SPI_getbinval(tup, desc, 3, &row->rated_at_null));
		if (!row->rated_at_null)
			live_check_timestamp(row->rated_at, "rated_at");
		if (rating_null)
			row->rating = unrated;
		else
		{
			RowContext	c = {t, keys[is_player ? 0 : 1]};
			ErrorContextCallback callback = {error_context_stack, row_error_context, &c};

			error_context_stack = &callback;
			datum_get_glicko2(rating, &row->rating, "rating");
			error_context_stack = callback.previous;
			if (!row->rated_at_null)
				row->idle_periods = live_elapsed_periods(row->rated_at, played_at,
														 t->opt.period_usecs);
		}
	}
	return rows[0].found && rows[1].found;
}

/* Tries at locking both rows: a missing player is added once, then found. */
#define LOCK_TRIES 3

static void rate_game(LiveTrigger *t, TriggerData *trigdata);

/* glicko2_rate_games(): AFTER INSERT ... FOR EACH ROW on a games table. */
PG_FUNCTION_INFO_V1(glicko2_rate_games);
Datum
glicko2_rate_games(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	LiveTrigger *t;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_AFTER(trigdata->tg_event) ||
		!TRIGGER_FIRED_FOR_ROW(trigdata->tg_event) ||
		!TRIGGER_FIRED_BY_INSERT(trigdata->tg_event))
		ereport(ERROR,
				errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				errmsg("glicko2_rate_games must be an AFTER INSERT ... FOR EACH ROW trigger"));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "glicko2_rate_games: SPI_connect failed");
	t = get_trigger(trigdata, get_func_namespace(fcinfo->flinfo->fn_oid));
	/*
	 * While it runs, its statements stay: a trigger of the ratings table can
	 * invalidate them and write a game of another league, whose live trigger
	 * would otherwise free them (release_invalid) under this one.
	 */
	t->active++;
	PG_TRY();
	{
		rate_game(t, trigdata);
	}
	PG_FINALLY();
	{
		t->active--;
	}
	PG_END_TRY();
	SPI_finish();
	return PointerGetDatum(NULL);
}

/* One game rated (glicko2_rate_games), inside its SPI connection. */
static void
rate_game(LiveTrigger *t, TriggerData *trigdata)
{
	HeapTuple	game;
	TupleDesc	desc;
	Datum		keys[2];
	Datum		values[8];
	bool		isnull[4];
	double		score;
	TimestampTz played_at;
	LockedRow	rows[2];
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
	score = score_as_float8(t->score_type, values[0]);
	if (!glicko_valid_score(score))
		bad_game(t, trigdata, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "score outside [0, 1]");
	if (TIMESTAMP_NOT_FINITE(played_at))
		bad_game(t, trigdata, ERRCODE_INVALID_PARAMETER_VALUE, "time played not finite");

	/* Both rows locked in key order; missing players added as unrated. */
	while (!lock_players(t, keys, played_at, rows))
	{
		/*
		 * Still missing after an insert that added nobody: not a concurrent
		 * insert (the lock would see it now) but a trigger, rule or policy
		 * of the ratings table that dropped or hid the row.
		 */
		if (tries > 0 && added == 0)
			glicko2_require_written(t->ratings_relid, 0, 1,
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
		values[2] = glicko2_rating_datum(t->rating_desc, &unrated);
		values[3] = TimestampTzGetDatum(played_at);
		ret = SPI_execute_plan(t->insert_plan, values, NULL, false, 0);
		if (ret != SPI_OK_INSERT)
			elog(ERROR, "glicko2_rate_games: insert of new players failed: %s",
				 SPI_result_code_string(ret));
		added = SPI_processed;
	}

	status = glicko2_live_game(&rows[0].rating, rows[0].idle_periods,
							   &rows[1].rating, rows[1].idle_periods,
							   score, t->opt.tau, t->opt.max_rd,
							   &new_player, &new_opponent);
	if (status != GLICKO_OK)
		report_glicko_status(status, psprintf("live rating of a game written to %s",
											  RelationGetRelationName(trigdata->tg_relation)));

	/* Both rows written; rated_at never moves back. */
	for (int i = 0; i < 2; i++)
	{
		values[4 * i] = ObjectIdGetDatum(rows[i].tableoid);
		values[4 * i + 1] = PointerGetDatum(&rows[i].tid);
		values[4 * i + 2] = glicko2_rating_datum(t->rating_desc, i == 0 ? &new_player : &new_opponent);
		values[4 * i + 3] = TimestampTzGetDatum(rows[i].rated_at_null ? played_at :
												Max(rows[i].rated_at, played_at));
	}
	ret = SPI_execute_plan(t->update_plan, values, NULL, false, 0);
	glicko2_require_written(t->ratings_relid, ret == SPI_OK_UPDATE ? (int64) SPI_processed : 0, 2,
							psprintf("live rating of a game written to %s",
									 RelationGetRelationName(trigdata->tg_relation)));
}
