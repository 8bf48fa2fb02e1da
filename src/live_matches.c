/*
 * live_matches.c — glicko2_rate_matches(), live team and free-for-all
 * matches: attached AFTER INSERT ... REFERENCING NEW TABLE ... FOR EACH
 * STATEMENT to a matches table (one row per player per match), it rates
 * every match the statement inserted, in the inserting transaction.
 *
 * Per statement: read and check every row (a bad match refuses the whole
 * statement before anything is read or locked); lock every player's ratings
 * row in key order in one SELECT ... FOR NO KEY UPDATE, or none while a
 * player is missing (missing players are then added as unrated, in key
 * order, holding no row lock, and the lock is tried again: as
 * glicko2_rate_games); take a lock on each match id (after the players, in
 * hash order: two statements never wait for each other in a cycle); rate
 * the matches in match order (played_at, then match id), each from its
 * players' ratings as the matches before it left them, RD grown for the
 * time since rated_at, the match's terms by the team model (src/core/team.c)
 * and each player's update at t = 0; then one statement refuses a match id
 * that already has rows from another statement or else writes every
 * player's row once (by table and TID).
 *
 * A statement fires only the statement triggers of the table it names: a
 * partition or inheritance child carries a trigger like its parent's
 * (glicko2_live_new_children gives it one), which rates the rows written
 * straight to it, and glicko_live_entry refuses a trigger while a table
 * below its own has none.
 */
#include "postgres.h"

#include "access/hash.h"
#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"

#include "core/team.h"
#include "live_matches.h"
#include "live_rows.h"
#include "live_teammates.h"
#include "relation.h"
#include "rating.h"
#include "team_method.h"
#include "write_check.h"

static const char *const column_options[MATCH_N_COLUMNS] = {
	"match_column", "match_player_column", "team_column", "place_column",
	"played_at_column", "weight_column"
};
static const char *const column_defaults[MATCH_N_COLUMNS] = {
	"match_id", "player_id", "team", "place", "played_at", NULL
};

/*
 * Besides the live triggers' statements (live_rows.c), whose write takes
 * the match ids[] and their rows[] and writes nothing if a match has other
 * rows: (match ids[], rows[]) -> the first match with other rows.
 */
#define SPLIT_PLAN GLICKO_LIVE_OWN

const char *const glicko_match_option_names =
"period, tau, max_rd, method, player_column, rating_column, rated_at_column, "
"match_column, match_player_column, team_column, place_column, played_at_column, "
"weight_column, party_column, party_advantage, size_advantage, "
"min_rating, max_change, max_volatility, teammates";

void
glicko_match_setup_init(GlickoMatchSetup *t, const char **names)
{
	glicko_live_options_init(&t->opt);
	t->method = GLICKO_TEAM_SUM;
	memcpy(names, column_defaults, sizeof(column_defaults));
}

void
glicko_match_option(const char *arg, GlickoMatchSetup *t, const char **names, const char *who,
					MemoryContext cxt)
{
	char	   *name;
	const char *value;

	glicko_live_option_split(arg, who, glicko_match_option_names, &name, &value);
	if (glicko_live_common_option(name, value, &t->opt, cxt))
		return;
	if (strcmp(name, "method") == 0)
	{
		t->method = glicko2_team_method(cstring_to_text(value));
		return;
	}
	if (strcmp(name, "teammates") == 0)
	{
		t->teammates = MemoryContextStrdup(cxt, value);
		return;
	}
	if (strcmp(name, "party_column") == 0)
	{
		t->party_column = MemoryContextStrdup(cxt, value);
		return;
	}
	if (strcmp(name, "party_advantage") == 0 || strcmp(name, "size_advantage") == 0)
	{
		double		x = DatumGetFloat8(DirectFunctionCall1(float8in, CStringGetDatum(value)));

		*(name[0] == 'p' ? &t->advantage.party : &t->advantage.size) = x;
		return;
	}
	for (int c = 0; c < MATCH_N_COLUMNS; c++)
		if (strcmp(name, column_options[c]) == 0)
		{
			names[c] = MemoryContextStrdup(cxt, value);
			return;
		}
	glicko_live_unknown_option(who, name, glicko_match_option_names);
}

/* The column's attnum, type, collation and (if ordered) comparison. */
static void
resolve_column(GlickoMatchSetup *t, int c, Relation matches, const char *name, bool ordered,
			   MemoryContext cxt)
{
	GlickoMatchColumn *col = &t->col[c];
	Oid			relid = RelationGetRelid(matches);

	col->name = name;
	col->attnum = glicko_live_column_attnum(relid, name, column_options[c]);
	col->type = get_atttype(relid, col->attnum);
	col->collation = TupleDescAttr(RelationGetDescr(matches), col->attnum - 1)->attcollation;
	if (ordered)
	{
		TypeCacheEntry *tc = lookup_type_cache(col->type, TYPECACHE_CMP_PROC_FINFO);

		if (!OidIsValid(tc->cmp_proc_finfo.fn_oid))
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_FUNCTION),
					errmsg("column \"%s\" of %s is of type %s, which has no default btree operator class",
						   name, RelationGetRelationName(matches), format_type_be(col->type)),
					errdetail("Matches, players and teams are grouped and ordered by their keys."));
		fmgr_info_cxt(tc->cmp_proc_finfo.fn_oid, &col->cmp, cxt);
	}
}

/* ERROR unless the matches table has an index led by the match column. */
static void
require_match_index(Oid relid, const GlickoMatchColumn *col)
{
	Datum		args[2] = {ObjectIdGetDatum(relid), Int16GetDatum(col->attnum)};
	Oid			types[2] = {OIDOID, INT2OID};
	bool		isnull;
	int			ret;

	ret = SPI_execute_with_args(
								"SELECT EXISTS (SELECT FROM pg_catalog.pg_index i"
								" WHERE i.indrelid OPERATOR(pg_catalog.=) $1"
								" AND i.indkey[0] OPERATOR(pg_catalog.=) $2 AND i.indpred IS NULL)",
								2, types, args, NULL, true, 1);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the indexes of relation %u", relid);
	if (!DatumGetBool(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull)))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_COLUMN_REFERENCE),
				errmsg("matches table %s has no index on column \"%s\"", get_rel_name(relid), col->name),
				errdetail("Each inserted match is looked up by its id, to refuse a match whose rows arrive in two statements."),
				errhint("ALTER TABLE %s ADD PRIMARY KEY (%s, ...), or CREATE INDEX ON %s (%s);",
						get_rel_name(relid), quote_identifier(col->name),
						get_rel_name(relid), quote_identifier(col->name)));
}

void
glicko_match_columns(GlickoMatchSetup *t, Relation matches, const char **names, MemoryContext cxt)
{
	Oid			relid = RelationGetRelid(matches);
	Oid			place_type;

	glicko2_team_advantage_check(&t->advantage, t->method);

	/*
	 * The play shares: weight_column, or else a column named weight (as
	 * glicko2_close_matches).
	 */
	if (names[MATCH_COL_WEIGHT] == NULL && get_attnum(relid, "weight") > 0)
		names[MATCH_COL_WEIGHT] = "weight";
	t->has_weight = names[MATCH_COL_WEIGHT] != NULL;

	/* The matches' columns. */
	resolve_column(t, MATCH_COL_MATCH, matches, names[MATCH_COL_MATCH], true, cxt);
	resolve_column(t, MATCH_COL_PLAYER, matches, names[MATCH_COL_PLAYER], true, cxt);
	resolve_column(t, MATCH_COL_TEAM, matches, names[MATCH_COL_TEAM], true, cxt);
	resolve_column(t, MATCH_COL_PLACE, matches, names[MATCH_COL_PLACE], false, cxt);
	resolve_column(t, MATCH_COL_PLAYED_AT, matches, names[MATCH_COL_PLAYED_AT], false, cxt);
	place_type = t->col[MATCH_COL_PLACE].type;
	if (!glicko_is_integer_type(place_type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is %s, not an integer", names[MATCH_COL_PLACE],
					   RelationGetRelationName(matches), format_type_be(place_type)));
	glicko_live_require_type(relid, t->col[MATCH_COL_PLAYED_AT].attnum, TIMESTAMPTZOID, "timestamptz");
	if (t->has_weight)
	{
		resolve_column(t, MATCH_COL_WEIGHT, matches, names[MATCH_COL_WEIGHT], false, cxt);
		glicko_require_number(t->col[MATCH_COL_WEIGHT].type, names[MATCH_COL_WEIGHT],
							  RelationGetRelationName(matches));
	}
	if (t->party_column)
	{
		t->party_attnum = glicko_live_column_attnum(relid, t->party_column, "party_column");
		t->party_type = get_atttype(relid, t->party_attnum);
		glicko_party_type_check(relid, t->party_column, t->party_type);
		t->party_collation = TupleDescAttr(RelationGetDescr(matches), t->party_attnum - 1)->attcollation;
		fmgr_info_cxt(lookup_type_cache(t->party_type, TYPECACHE_EQ_OPR_FINFO)->eq_opr_finfo.fn_oid,
					  &t->party_eq, cxt);
	}
	require_match_index(relid, &t->col[MATCH_COL_MATCH]);
	t->key_array_type = get_array_type(t->col[MATCH_COL_PLAYER].type);
	t->match_array_type = get_array_type(t->col[MATCH_COL_MATCH].type);
	if (!OidIsValid(t->key_array_type) || !OidIsValid(t->match_array_type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("the player and match columns of %s need types with array types",
					   RelationGetRelationName(matches)));
}

/*
 * Resolve the trigger's arguments, check both tables, prepare the four
 * statements.  Runs inside the caller's SPI connection.
 */
static void
build_trigger(GlickoLiveEntry *e, TriggerData *trigdata, Oid extension_namespace)
{
	Trigger    *trigger = trigdata->tg_trigger;
	Relation	matches = trigdata->tg_relation;
	GlickoMatchSetup *t = MemoryContextAllocZero(e->cxt, sizeof(GlickoMatchSetup));
	const GlickoLiveRatings *rt = &t->ratings;
	const char *names[MATCH_N_COLUMNS];
	const char *matches_name;
	char	   *other;
	Oid			types[2];

	glicko_match_setup_init(t, names);
	if (trigger->tgnargs < 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("trigger %s on %s names no ratings table", trigger->tgname,
					   RelationGetRelationName(matches)),
				errhint("EXECUTE FUNCTION glicko2_rate_matches('ratings' [, 'method=sum', 'period=1 day', 'tau=0.5', 'max_rd=350', ...])."));
	for (int i = 1; i < trigger->tgnargs; i++)
		glicko_match_option(trigger->tgargs[i], t, names, psprintf("trigger %s", trigger->tgname),
							e->cxt);
	glicko_match_columns(t, matches, names, e->cxt);

	/*
	 * Match ids are counted and locked in the topmost table of the triggers
	 * like this one: a match written to a partition and the same match id
	 * written through its partitioned table are one match.
	 */
	t->lock_space = (uint32) e->top_relid;

	glicko_live_open_ratings(&t->ratings, &t->opt, trigdata, t->col[MATCH_COL_PLAYER].type,
							 names[MATCH_COL_PLAYER], extension_namespace, e->cxt);
	e->ratings_relid = rt->relid;

	/*
	 * The players' rows are written unless a match id has rows besides this
	 * statement's: the check is a one-time filter of the write, run after the
	 * match ids are locked, so its snapshot sees any other writer of them
	 * that committed.  Only when fewer rows are written does SPLIT_PLAN name
	 * the first such match (by position).
	 */
	matches_name = quote_qualified_identifier(get_namespace_name(get_rel_namespace(e->top_relid)),
											  get_rel_name(e->top_relid));
	other = psprintf("SELECT v.i FROM ROWS FROM (pg_catalog.unnest($%%1$d), pg_catalog.unnest($%%2$d))"
					 " WITH ORDINALITY v(id, n, i)"
					 " WHERE (SELECT pg_catalog.count(*) FROM %s m WHERE m.%s %s v.id)"
					 " OPERATOR(pg_catalog.<>) v.n",
					 matches_name, quote_identifier(names[MATCH_COL_MATCH]),
					 glicko_live_qualified_equality(t->col[MATCH_COL_MATCH].type, "match"));
	types[0] = t->match_array_type;
	types[1] = INT8ARRAYOID;
	glicko_live_prepare_rows(e, rt, t->col[MATCH_COL_PLAYER].type, 0,
							 psprintf("NOT EXISTS (%s)", psprintf(other, 5, 6)), 2, types);
	e->plans[SPLIT_PLAN] = glicko_live_prepare(psprintf("%s ORDER BY v.i LIMIT 1",
														psprintf(other, 1, 2)),
											   2, types);
	if (t->teammates)
		glicko_live_mates_open(&t->mates, e, t->teammates, matches, rt, t->method, SPLIT_PLAN + 1,
							   e->cxt);
	e->state = t;
}



typedef struct SortContext
{
	const GlickoMatchSetup *t;
	int			by[3];			/* columns, -1 after the last */
} SortContext;

static int
compare_datums(const GlickoMatchColumn *col, Datum a, Datum b)
{
	return DatumGetInt32(FunctionCall2Coll((FmgrInfo *) &col->cmp, col->collation, a, b));
}

static Datum
row_value(const GlickoMatchRow *r, int c)
{
	return c == MATCH_COL_MATCH ? r->match : c == MATCH_COL_PLAYER ? r->player : r->team;
}

/* Rows by match (played_at, then id), then the columns of by[]. */
static int
compare_rows(const void *a, const void *b, void *arg)
{
	const GlickoMatchRow *x = a,
			   *y = b;
	const SortContext *s = arg;

	for (int i = 0; i < 3 && s->by[i] >= 0; i++)
	{
		int			c = s->by[i];
		int			r;

		if (c == MATCH_COL_PLAYED_AT)
			r = x->played_at < y->played_at ? -1 : x->played_at > y->played_at ? 1 : 0;
		else
			r = compare_datums(&s->t->col[c], row_value(x, c), row_value(y, c));
		if (r != 0)
			return r;
	}
	return 0;
}

static void
sort_rows(const GlickoMatchSetup *t, GlickoMatchRow *rows, int n, int c0, int c1, int c2)
{
	SortContext s = {t, {c0, c1, c2}};

	qsort_arg(rows, n, sizeof(GlickoMatchRow), compare_rows, &s);
}

static char *
value_text(const GlickoMatchSetup *t, int c, Datum d)
{
	return glicko_live_key_text(t->col[c].type, d);
}

/* A bad match: the whole statement is refused. */
static void
bad_match(const GlickoMatchSetup *t, const char *table, int sqlstate, const GlickoMatchRow *r,
		  const char *why)
{
	ereport(ERROR,
			errcode(sqlstate),
			errmsg("bad match written to %s: %s %s: %s",
				   table, t->col[MATCH_COL_MATCH].name,
				   value_text(t, MATCH_COL_MATCH, r->match), why),
			errdetail("The statement's matches are refused and none of them is rated."));
}

/* Copy a by-reference value out of the slot's tuple. */
static Datum
copy_value(const GlickoMatchColumn *col, Datum d)
{
	int16		typlen;
	bool		typbyval;

	get_typlenbyval(col->type, &typlen, &typbyval);
	return datumCopy(d, typbyval, typlen);
}

void
glicko_match_read_row(const GlickoMatchSetup *t, const char *table, TupleTableSlot *slot,
					  const AttrNumber *attnums, GlickoMatchRow *r)
{
	bool		null[MATCH_N_COLUMNS] = {false};
	Datum		v[MATCH_N_COLUMNS];

	for (int c = 0; c < MATCH_N_COLUMNS; c++)
		if (c != MATCH_COL_WEIGHT || t->has_weight)
			v[c] = slot_getattr(slot, attnums[c], &null[c]);
	memset(r, 0, sizeof(*r));
	if (null[MATCH_COL_MATCH])
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("bad match written to %s: NULL %s (%s %s)",
					   table, t->col[MATCH_COL_MATCH].name,
					   t->col[MATCH_COL_PLAYER].name,
					   null[MATCH_COL_PLAYER] ? "NULL" : value_text(t, MATCH_COL_PLAYER, v[MATCH_COL_PLAYER])),
				errdetail("The statement's matches are refused and none of them is rated."));
	r->match = copy_value(&t->col[MATCH_COL_MATCH], v[MATCH_COL_MATCH]);
	if (null[MATCH_COL_PLAYER])
		bad_match(t, table, ERRCODE_NULL_VALUE_NOT_ALLOWED, r,
				  psprintf("NULL %s", t->col[MATCH_COL_PLAYER].name));
	r->player = copy_value(&t->col[MATCH_COL_PLAYER], v[MATCH_COL_PLAYER]);
	for (int c = MATCH_COL_TEAM; c < MATCH_N_COLUMNS; c++)
		if (null[c])
			bad_match(t, table, ERRCODE_NULL_VALUE_NOT_ALLOWED, r,
					  psprintf("NULL %s of %s %s", t->col[c].name, t->col[MATCH_COL_PLAYER].name,
							   value_text(t, MATCH_COL_PLAYER, r->player)));
	r->team = copy_value(&t->col[MATCH_COL_TEAM], v[MATCH_COL_TEAM]);
	r->place = t->col[MATCH_COL_PLACE].type == INT2OID ? DatumGetInt16(v[MATCH_COL_PLACE]) :
		t->col[MATCH_COL_PLACE].type == INT4OID ? DatumGetInt32(v[MATCH_COL_PLACE]) :
		DatumGetInt64(v[MATCH_COL_PLACE]);
	if (r->place < 1)
		bad_match(t, table, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, r,
				  psprintf("%s " INT64_FORMAT " of %s %s is not a place (1 is first)",
						   t->col[MATCH_COL_PLACE].name, r->place, t->col[MATCH_COL_PLAYER].name,
						   value_text(t, MATCH_COL_PLAYER, r->player)));
	r->played_at = DatumGetTimestampTz(v[MATCH_COL_PLAYED_AT]);
	if (TIMESTAMP_NOT_FINITE(r->played_at))
		bad_match(t, table, ERRCODE_INVALID_PARAMETER_VALUE, r,
				  psprintf("%s is not finite", t->col[MATCH_COL_PLAYED_AT].name));
	r->party_null = true;
	if (t->party_column)
	{
		Datum		party = slot_getattr(slot, attnums[MATCH_N_COLUMNS], &r->party_null);

		if (!r->party_null)
			r->party = datumCopy(party, get_typbyval(t->party_type), get_typlen(t->party_type));
	}
	r->share = t->has_weight ? glicko_score_as_float8(t->col[MATCH_COL_WEIGHT].type, v[MATCH_COL_WEIGHT]) : 1.0;
	if (!glicko_team_share_ok(r->share))
		bad_match(t, table, ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, r,
				  psprintf("%s %s of %s %s is not in (0, 1]", t->col[MATCH_COL_WEIGHT].name,
						   float8out_internal(r->share), t->col[MATCH_COL_PLAYER].name,
						   value_text(t, MATCH_COL_PLAYER, r->player)));
}

/* Every row of the statement, checked one by one. */
static GlickoMatchRow *
read_rows(const GlickoMatchSetup *t, TriggerData *trigdata, int *n_rows)
{
	Relation	matches = trigdata->tg_relation;
	Tuplestorestate *store = trigdata->tg_newtable;
	TupleTableSlot *slot = MakeSingleTupleTableSlot(RelationGetDescr(matches), &TTSOpsMinimalTuple);
	AttrNumber	attnums[MATCH_N_COLUMNS + 1];
	int			size = 64;
	int			n = 0;
	GlickoMatchRow *rows = palloc(sizeof(GlickoMatchRow) * size);

	for (int c = 0; c < MATCH_N_COLUMNS; c++)
		attnums[c] = t->col[c].attnum;
	attnums[MATCH_N_COLUMNS] = t->party_attnum;
	tuplestore_rescan(store);
	while (tuplestore_gettupleslot(store, true, false, slot))
	{
		CHECK_FOR_INTERRUPTS();
		if (n == size)
		{
			if (size >= (int) (MaxAllocSize / sizeof(GlickoMatchRow) / 2))
				ereport(ERROR,
						errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						errmsg("too many match rows in one statement for %s",
							   RelationGetRelationName(matches)));
			size *= 2;
			rows = repalloc(rows, sizeof(GlickoMatchRow) * size);
		}
		glicko_match_read_row(t, RelationGetRelationName(matches), slot, attnums, &rows[n++]);
	}
	ExecDropSingleTupleTableSlot(slot);
	*n_rows = n;
	return rows;
}

/*
 * The party of row r of the match starting at row `first`: the number
 * (within the match) of the first row with its label, or -1 alone.  A label
 * on two teams of the match refuses the statement.
 */
static int
party_of(const GlickoMatchSetup *t, const char *table, const GlickoMatchRow *rows, int first, int r)
{
	if (rows[r].party_null)
		return -1;
	for (int j = first; j < r; j++)
		if (!rows[j].party_null &&
			DatumGetBool(FunctionCall2Coll((FmgrInfo *) &t->party_eq, t->party_collation,
										   rows[r].party, rows[j].party)))
		{
			if (rows[j].team_no != rows[r].team_no)
				bad_match(t, table, ERRCODE_INVALID_PARAMETER_VALUE, &rows[r],
						  psprintf("party %s is on two teams, %s %s (%s %s) and %s %s (%s %s)",
								   glicko_live_key_text(t->party_type, rows[r].party),
								   t->col[MATCH_COL_TEAM].name, value_text(t, MATCH_COL_TEAM, rows[j].team),
								   t->col[MATCH_COL_PLAYER].name, value_text(t, MATCH_COL_PLAYER, rows[j].player),
								   t->col[MATCH_COL_TEAM].name, value_text(t, MATCH_COL_TEAM, rows[r].team),
								   t->col[MATCH_COL_PLAYER].name, value_text(t, MATCH_COL_PLAYER, rows[r].player)));
			return rows[j].party_no;
		}
	return r - first;
}

/*
 * Each match's rows by team then player, checked: one time played, every
 * player once, every team one place, at least two teams.
 */
GlickoMatch *
glicko_match_group(const GlickoMatchSetup *t, const char *table, GlickoMatchRow *rows, int n_rows, int *n_matches)
{
	GlickoMatch *m = palloc(sizeof(GlickoMatch) * n_rows);
	int			k = 0;

	/* By match id, then player: a player twice is two adjacent rows. */
	sort_rows(t, rows, n_rows, MATCH_COL_MATCH, MATCH_COL_PLAYER, -1);
	for (int i = 0; i < n_rows; i++)
	{
		if (i > 0 && compare_datums(&t->col[MATCH_COL_MATCH], rows[i - 1].match, rows[i].match) == 0)
		{
			if (compare_datums(&t->col[MATCH_COL_PLAYER], rows[i - 1].player, rows[i].player) == 0)
				bad_match(t, table, ERRCODE_UNIQUE_VIOLATION, &rows[i],
						  psprintf("%s %s is in it twice", t->col[MATCH_COL_PLAYER].name,
								   value_text(t, MATCH_COL_PLAYER, rows[i].player)));
			if (rows[i - 1].played_at != rows[i].played_at)
			{
				/* (timestamptz_to_str returns a static buffer) */
				char	   *one = pstrdup(timestamptz_to_str(rows[i - 1].played_at));

				bad_match(t, table, ERRCODE_INVALID_PARAMETER_VALUE, &rows[i],
						  psprintf("its rows have two times played, %s and %s",
								   one, timestamptz_to_str(rows[i].played_at)));
			}
		}
	}
	/* Match order, each match's rows by team then player. */
	sort_rows(t, rows, n_rows, MATCH_COL_PLAYED_AT, MATCH_COL_MATCH, MATCH_COL_TEAM);
	for (int i = 0; i < n_rows;)
	{
		int			j = i + 1;

		while (j < n_rows && compare_datums(&t->col[MATCH_COL_MATCH], rows[i].match, rows[j].match) == 0)
			j++;

		/*
		 * (ties in the sort above leave a team's players in any order:
		 * unimportant)
		 */
		m[k].first = i;
		m[k].n = j - i;
		if (m[k].n > GLICKO_TEAM_MAX_PLAYERS)
			bad_match(t, table, ERRCODE_PROGRAM_LIMIT_EXCEEDED, &rows[i],
					  psprintf("it has %d players, more than the %d allowed", m[k].n, GLICKO_TEAM_MAX_PLAYERS));
		m[k].n_teams = 0;
		for (int r = i; r < j; r++)
		{
			if (r == i || compare_datums(&t->col[MATCH_COL_TEAM], rows[r - 1].team, rows[r].team) != 0)
				m[k].n_teams++;
			else if (rows[r - 1].place != rows[r].place)
				bad_match(t, table, ERRCODE_INVALID_PARAMETER_VALUE, &rows[r],
						  psprintf("%s %s has two places, " INT64_FORMAT " (%s %s) and " INT64_FORMAT " (%s %s)",
								   t->col[MATCH_COL_TEAM].name, value_text(t, MATCH_COL_TEAM, rows[r].team),
								   rows[r - 1].place, t->col[MATCH_COL_PLAYER].name,
								   value_text(t, MATCH_COL_PLAYER, rows[r - 1].player),
								   rows[r].place, t->col[MATCH_COL_PLAYER].name,
								   value_text(t, MATCH_COL_PLAYER, rows[r].player)));
			rows[r].team_no = m[k].n_teams - 1;
			rows[r].party_no = party_of(t, table, rows, i, r);
		}
		if (m[k].n_teams < 2)
			bad_match(t, table, ERRCODE_INVALID_PARAMETER_VALUE, &rows[i],
					  psprintf("it has one team only (%s %s)", t->col[MATCH_COL_TEAM].name,
							   value_text(t, MATCH_COL_TEAM, rows[i].team)));
		k++;
		i = j;
	}
	*n_matches = k;
	return m;
}

static int
compare_row_pointers(const void *a, const void *b, void *arg)
{
	return compare_rows(*(GlickoMatchRow *const *) a, *(GlickoMatchRow *const *) b, arg);
}

Datum *
glicko_match_number_players(const GlickoMatchSetup *t, GlickoMatchRow *rows, int n_rows, int *n_keys)
{
	GlickoMatchRow **by_key = palloc(sizeof(GlickoMatchRow *) * n_rows);
	Datum	   *keys = palloc(sizeof(Datum) * n_rows);
	int			k = 0;
	SortContext s = {t, {MATCH_COL_PLAYER, -1, -1}};

	for (int i = 0; i < n_rows; i++)
		by_key[i] = &rows[i];
	/* (sorting pointers: compare_rows sees the rows) */
	qsort_arg(by_key, n_rows, sizeof(GlickoMatchRow *), compare_row_pointers, &s);
	for (int i = 0; i < n_rows; i++)
	{
		if (i == 0 || compare_datums(&t->col[MATCH_COL_PLAYER], keys[k - 1], by_key[i]->player) != 0)
			keys[k++] = by_key[i]->player;
		by_key[i]->key = k - 1;
	}
	*n_keys = k;
	return keys;
}

/*
 * A match id's lock: the matches table and a hash of the id; a bucket's: the
 * matches table and the bucket.  The advisory lock tags' fourth fields,
 * apart from pg_advisory_lock's 1 and 2.
 */
#define MATCH_LOCK_SPACE 0x6732
#define MATCH_BUCKET_SPACE 0x6733

/*
 * The match ids' locks are bounded: a transaction locks each match id it
 * writes (the id's hash) only up to MATCH_FINE_LOCKS of them, under a shared
 * lock on the id's bucket (hash % MATCH_BUCKETS); beyond that a statement
 * locks the buckets of its ids exclusively.  So a transaction holds at most
 * MATCH_FINE_LOCKS + MATCH_BUCKETS of these locks per matches table, however
 * many matches it writes (one lock per id exhausted the shared lock table:
 * 15 000 matches at the default max_locks_per_transaction).
 */
#define MATCH_BUCKETS 64
#define MATCH_FINE_LOCKS 32

/* A match id's lock to take. */
typedef struct MatchLock
{
	uint32		hash;
	int			match;			/* its match's number */
} MatchLock;

static int
compare_locks(const void *a, const void *b)
{
	uint32		x = ((const MatchLock *) a)->hash,
				y = ((const MatchLock *) b)->hash,
				bx = x % MATCH_BUCKETS,
				by = y % MATCH_BUCKETS;

	if (bx != by)
		return bx < by ? -1 : 1;
	return x < y ? -1 : x > y ? 1 : 0;
}

/* How many ids the current transaction has locked one by one. */
static TransactionId fine_xid = InvalidTransactionId;
static int	fine_locks = 0;

/* Take one lock; true if it had to wait for another transaction. */
static bool
match_lock(const GlickoMatchSetup *t, uint32 key, uint16 space, LOCKMODE mode)
{
	LOCKTAG		tag;

	SET_LOCKTAG_ADVISORY(tag, MyDatabaseId, t->lock_space, key, space);
	if (LockAcquire(&tag, mode, false, true) != LOCKACQUIRE_NOT_AVAIL)
		return false;
	(void) LockAcquire(&tag, mode, false, false);
	return true;
}

/*
 * Lock each match id (taken after every player's row, buckets in order then
 * ids in hash order, so statements never wait for each other in a cycle):
 * two transactions writing rows of one match id at once, even with no
 * player in common, run one after the other, and the second sees the
 * first's rows.  Either way they conflict: the same id's lock, or its
 * bucket, exclusive on one side at least.  At REPEATABLE READ and above the
 * second's snapshot cannot see them: it fails with a serialization failure
 * instead (also when it waited for a bucket only).
 */
static void
lock_matches(const GlickoMatchSetup *t, Relation matches, const GlickoMatchRow *rows, const GlickoMatch *m,
			 int n_matches)
{
	const GlickoMatchColumn *col = &t->col[MATCH_COL_MATCH];
	TypeCacheEntry *tc = lookup_type_cache(col->type, TYPECACHE_HASH_PROC_FINFO);
	MatchLock  *locks = palloc(sizeof(MatchLock) * n_matches);
	int			n_hashes = 0;
	bool		fine;
	int			waited = -1;

	for (int i = 0; i < n_matches; i++)
	{
		Datum		id = rows[m[i].first].match;

		if (OidIsValid(tc->hash_proc_finfo.fn_oid))
			locks[i].hash = DatumGetUInt32(FunctionCall1Coll(&tc->hash_proc_finfo, col->collation, id));
		else
		{
			char	   *text = value_text(t, MATCH_COL_MATCH, id);

			locks[i].hash = DatumGetUInt32(hash_any((unsigned char *) text, strlen(text)));
		}
		locks[i].match = i;
	}
	/* (bucket order, then hash order within a bucket) */
	qsort(locks, n_matches, sizeof(MatchLock), compare_locks);
	for (int i = 0; i < n_matches; i++)
		if (i == 0 || locks[i].hash != locks[i - 1].hash)
			n_hashes++;
	if (fine_xid != GetTopTransactionId())
	{
		fine_xid = GetTopTransactionId();
		fine_locks = 0;
	}
	fine = fine_locks + n_hashes <= MATCH_FINE_LOCKS;
	if (fine)
		fine_locks += n_hashes;
	for (int i = 0; i < n_matches; i++)
		if ((i == 0 || locks[i].hash % MATCH_BUCKETS != locks[i - 1].hash % MATCH_BUCKETS) &&
			match_lock(t, locks[i].hash % MATCH_BUCKETS, MATCH_BUCKET_SPACE,
					   fine ? ShareLock : ExclusiveLock) && waited < 0)
			waited = i;
	for (int i = 0; fine && i < n_matches; i++)
		if ((i == 0 || locks[i].hash != locks[i - 1].hash) &&
			match_lock(t, locks[i].hash, MATCH_LOCK_SPACE, ExclusiveLock) && waited < 0)
			waited = i;
	if (waited >= 0 && IsolationUsesXactSnapshot())
		ereport(ERROR,
				errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				errmsg("could not serialize access: %s %s of %s was being written by another transaction",
					   col->name, value_text(t, MATCH_COL_MATCH, rows[m[locks[waited].match].first].match),
					   RelationGetRelationName(matches)),
				errdetail("This transaction's snapshot may not see that transaction's rows of the match."),
				errhint("Retry the transaction."));
}

void
glicko_match_rate(const GlickoMatchSetup *t, const char *table, const GlickoMatchRow *rows, const GlickoMatch *m,
				  int n_matches, GlickoLiveRow *locked, GlickoLiveStore *store)
{
	int			most = 0;
	Glicko2Rating *pre;
	double	   *share;
	int		   *team;
	int		   *party;
	int64	   *place;
	int		   *player;
	GlickoSums *sums;

	for (int i = 0; i < n_matches; i++)
		most = Max(most, m[i].n);
	pre = palloc(sizeof(Glicko2Rating) * most);
	share = palloc(sizeof(double) * most);
	team = palloc(sizeof(int) * most);
	party = palloc(sizeof(int) * most);
	place = palloc(sizeof(int64) * most);
	player = palloc(sizeof(int) * most);
	sums = palloc(sizeof(GlickoSums) * most);

	for (int i = 0; i < n_matches; i++)
	{
		const GlickoMatchRow *mr = &rows[m[i].first];
		TimestampTz at = mr[0].played_at;
		GlickoTeamMatch match = {t->method, m[i].n, m[i].n_teams, team, pre,
		t->has_weight ? share : NULL, place, t->party_column ? party : NULL, t->advantage};
		GlickoTeamWork work;
		GlickoTeamCursor cursor = {0, -1};
		GlickoTeamSide side;
		GlickoStatus status = GLICKO_OK;

		CHECK_FOR_INTERRUPTS();
		for (int p = 0; p < m[i].n && status == GLICKO_OK; p++)
		{
			const GlickoLiveRow *lr = &locked[mr[p].key];

			status = glicko2_grown(&lr->rating, glicko_live_idle(lr, at, t->opt.period_usecs),
								   t->opt.max_rd, &pre[p]);
			team[p] = mr[p].team_no;
			party[p] = mr[p].party_no;
			share[p] = mr[p].share;
			place[mr[p].team_no] = mr[p].place;
			player[p] = mr[p].key;
			memset(&sums[p], 0, sizeof(GlickoSums));
		}
		if (status == GLICKO_OK && store)
			glicko_live_mates_match(store, &match, player, at, locked, &t->opt, sums,
									psprintf("live rating of %s %s written to %s",
											 t->col[MATCH_COL_MATCH].name,
											 value_text(t, MATCH_COL_MATCH, mr[0].match),
											 table));
		else if (status == GLICKO_OK)
		{
			glicko_team_prepare(&match,
								palloc(sizeof(double) * glicko_team_work_doubles(m[i].n, m[i].n_teams)),
								palloc(sizeof(int) * glicko_team_work_ints(m[i].n, m[i].n_teams)),
								&work);
			while (glicko_team_next(&work, &cursor, &side))
				glicko_add_terms(&sums[side.player], &side.terms);
		}
		for (int p = 0; p < m[i].n && status == GLICKO_OK; p++)
		{
			GlickoLiveRow *lr = &locked[mr[p].key];

			status = glicko2_update_elapsed(&pre[p], &sums[p], t->opt.tau, 0.0, &lr->rating, NULL);
			(void) glicko2_apply_caps(&pre[p], &lr->rating, &t->opt.caps);
			lr->unrated = false;
			lr->rated_at = glicko_live_rated_at(lr, at);
			lr->rated_at_null = false;
		}
		if (status == GLICKO_OK && store)
			glicko_live_mates_after(store, locked);
		if (status != GLICKO_OK)
			glicko_report_status(status, psprintf("live rating of %s %s written to %s",
												  t->col[MATCH_COL_MATCH].name,
												  value_text(t, MATCH_COL_MATCH, mr[0].match),
												  table));
	}
}

/* The statement's matches rated (glicko2_rate_matches), inside its SPI connection. */
static void
rate_statement(GlickoLiveEntry *e, TriggerData *trigdata)
{
	const GlickoMatchSetup *t = e->state;
	Relation	matches = trigdata->tg_relation;
	GlickoMatchRow *rows;
	GlickoMatch *m;
	Datum	   *keys;
	GlickoLiveRow *locked;
	GlickoLiveStore *store = NULL;
	Datum	   *first_at;
	Datum	   *ids;
	Datum	   *counts;
	Datum		other;
	bool		other_null;
	int64		written;
	Datum		args[2];
	int			n_rows,
				n_matches,
				n_keys;
	int			ret;

	/* Every match checked before anything is read or locked. */
	rows = read_rows(t, trigdata, &n_rows);
	if (n_rows == 0)
		return;
	m = glicko_match_group(t, RelationGetRelationName(matches), rows, n_rows, &n_matches);
	keys = glicko_match_number_players(t, rows, n_rows, &n_keys);

	/* Every row locked in key order; missing players added as unrated. */
	locked = palloc(sizeof(GlickoLiveRow) * n_keys);
	first_at = palloc(sizeof(Datum) * n_keys);
	for (int i = n_rows - 1; i >= 0; i--)	/* (rows are in match order) */
		first_at[rows[i].key] = TimestampTzGetDatum(rows[i].played_at);
	glicko_live_lock_players(e, &t->ratings, t->col[MATCH_COL_PLAYER].type, n_keys, keys, first_at,
							 locked, "a match", RelationGetRelationName(matches));

	/* Each match once, after every player's row lock. */
	lock_matches(t, matches, rows, m, n_matches);

	/* The store's pairs of every player, after the match ids. */
	if (t->teammates)
		store = glicko_live_mates_read(&t->mates, e, &t->ratings, t->col[MATCH_COL_PLAYER].type, n_keys, keys);

	glicko_match_rate(t, RelationGetRelationName(matches), rows, m, n_matches, locked, store);

	/*
	 * Every player's row written once (rated_at never moves back), unless a
	 * match id has rows written by another statement.
	 */
	ids = palloc(sizeof(Datum) * n_matches);
	counts = palloc(sizeof(Datum) * n_matches);
	for (int i = 0; i < n_matches; i++)
	{
		ids[i] = rows[m[i].first].match;
		counts[i] = Int64GetDatum(m[i].n);
	}
	args[0] = glicko_live_array(ids, n_matches, t->col[MATCH_COL_MATCH].type);
	args[1] = glicko_live_array(counts, n_matches, INT8OID);
	written = glicko_live_write_rows(e, &t->ratings, n_keys, locked, args, 2);
	if (written != n_keys)
	{
		/*
		 * A split match, or rows the ratings table's triggers, rules or
		 * policies kept.
		 */
		ret = SPI_execute_plan(e->plans[SPLIT_PLAN], args, NULL, false, 1);
		if (ret != SPI_OK_SELECT)
			elog(ERROR, "glicko2_rate_matches: the check of the matches failed: %s",
				 SPI_result_code_string(ret));
		if (SPI_processed > 0)
		{
			other = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &other_null);
			ereport(ERROR,
					errcode(ERRCODE_UNIQUE_VIOLATION),
					errmsg("bad match written to %s: %s %s: it has rows written by another statement",
						   RelationGetRelationName(matches), t->col[MATCH_COL_MATCH].name,
						   value_text(t, MATCH_COL_MATCH, ids[DatumGetInt64(other) - 1])),
					errdetail("A match is rated once, from the rows of the statement that writes it; the statement's matches are refused and none of them is rated."),
					errhint("Write all the rows of a match in one INSERT, and each match once."));
		}
	}
	glicko2_require_written(e->ratings_relid, written, n_keys,
							psprintf("live rating of the matches written to %s",
									 RelationGetRelationName(matches)));
	if (store)
		glicko_live_mates_write(&t->mates, e, &t->ratings, store, t->col[MATCH_COL_PLAYER].type, keys,
								psprintf("the matches written to %s", RelationGetRelationName(matches)));
}

/* glicko2_rate_matches(): AFTER INSERT ... REFERENCING NEW TABLE ... FOR EACH STATEMENT. */
PG_FUNCTION_INFO_V1(glicko2_rate_matches);
Datum
glicko2_rate_matches(PG_FUNCTION_ARGS)
{
	TriggerData *trigdata = (TriggerData *) fcinfo->context;
	GlickoLiveEntry *e;

	if (!CALLED_AS_TRIGGER(fcinfo) || !TRIGGER_FIRED_AFTER(trigdata->tg_event) ||
		!TRIGGER_FIRED_FOR_STATEMENT(trigdata->tg_event) ||
		!TRIGGER_FIRED_BY_INSERT(trigdata->tg_event) || trigdata->tg_newtable == NULL)
		ereport(ERROR,
				errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
				errmsg("glicko2_rate_matches must be an AFTER INSERT ... REFERENCING NEW TABLE AS ... FOR EACH STATEMENT trigger"));

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "glicko2_rate_matches: SPI_connect failed");
	e = glicko_live_entry(trigdata, get_func_namespace(fcinfo->flinfo->fn_oid), build_trigger);
	/* (its statements stay while it runs: see glicko_live_entry) */
	e->active++;
	PG_TRY();
	{
		rate_statement(e, trigdata);
	}
	PG_FINALLY();
	{
		e->active--;
	}
	PG_END_TRY();
	SPI_finish();
	return PointerGetDatum(NULL);
}
