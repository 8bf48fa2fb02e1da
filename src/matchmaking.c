/*
 * matchmaking.c — SQL wrappers of matchmaking_math.c: team win probability,
 * lobby balance, and the plan glicko2_pair and glicko2_lobbies (in
 * sql/matchmaking.sql) make from the rows they lock in a queue.
 */
#include "postgres.h"

#include <limits.h>

#include "access/relation.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "matchmaking_math.h"
#include "rating.h"

static void
poll_interrupts(void)
{
	CHECK_FOR_INTERRUPTS();
}

static void *
palloc_zero(size_t size)
{
	return palloc0(size ? size : 1);
}

static void
pfree_any(void *p)
{
	pfree(p);
}

/* Memory from the function's context: a cancelled search leaves nothing behind. */
static const MmEnv server_env = {poll_interrupts, palloc_zero, pfree_any};

/* The elements of a one-dimensional array argument; nulls may be NULL. */
static int
array_elements(ArrayType *a, Oid type, const char *what, Datum **values, bool **nulls)
{
	int16		typlen;
	bool		typbyval;
	char		typalign;
	int			n;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("%s must be a one-dimensional array, not %d-dimensional", what, ARR_NDIM(a)));
	get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
	deconstruct_array(a, type, typlen, typbyval, typalign, values, nulls, &n);
	return n;
}

/* A glicko2_rating[] argument: every element present and valid. */
static int
rating_array(ArrayType *a, const char *what, Glicko2Rating **out)
{
	Datum	   *values;
	bool	   *nulls;
	int			n = array_elements(a, ARR_ELEMTYPE(a), what, &values, &nulls);

	*out = palloc(sizeof(Glicko2Rating) * (n ? n : 1));
	for (int i = 0; i < n; i++)
	{
		char	   *element = psprintf("%s[%d]", what, i + 1);

		if (nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s is NULL", element),
					errhint("Give every player a rating: glicko2_rating() is the unrated player."));
		datum_get_glicko2(values[i], &(*out)[i], element);
		pfree(element);
	}
	return n;
}

/* glicko2_team_win_probability(team_a, team_b): a beats b, composite teams. */
PG_FUNCTION_INFO_V1(glicko2_team_win_probability_sql);
Datum
glicko2_team_win_probability_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating *a,
			   *b;
	int			na = rating_array(PG_GETARG_ARRAYTYPE_P(0), "team_a", &a),
				nb = rating_array(PG_GETARG_ARRAYTYPE_P(1), "team_b", &b);

	if (na == 0 || nb == 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s has no players", na == 0 ? "team_a" : "team_b"));
	PG_RETURN_FLOAT8(glicko_team_win_probability(a, na, b, nb));
}

static void
check_teams(int n, int teams, const char *players)
{
	if (teams < 2 || teams > MM_MAX_TEAMS)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("teams must be between 2 and %d, not %d", MM_MAX_TEAMS, teams));
	if (n < teams)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("a lobby of %d %s does not fill %d teams", n, players, teams),
				errdetail("Every team needs at least one player."));
}

static void
report_balance(MmStatus status, int bad_party, int n, int teams)
{
	switch (status)
	{
		case MM_OK:
			return;
		case MM_TOO_FEW_PLAYERS:
			elog(ERROR, "lobby and teams not checked before balancing");
			break;
		case MM_PARTY_TOO_LARGE:
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("party %d is larger than a team", bad_party),
					errdetail("%d players in %d teams make teams of at most %d.",
							  n, teams, (n + teams - 1) / teams));
			break;
		case MM_PARTIES_DO_NOT_FIT:
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("the parties do not fit into the teams"),
					errdetail("No split into teams of equal size keeps every party together."));
			break;
	}
}

/* glicko2_balance(ratings, teams, parties): the fairest split, team per position. */
PG_FUNCTION_INFO_V1(glicko2_balance_sql);
Datum
glicko2_balance_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating *players;
	int			n,
				teams,
			   *party = NULL,
			   *party_value = NULL,
			   *team,
				bad_party = 0;
	bool		exact;
	Datum	   *out;
	MmStatus	status;

	/* No lobby or no team count: no split. */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		PG_RETURN_NULL();
	n = rating_array(PG_GETARG_ARRAYTYPE_P(0), "ratings", &players);
	teams = PG_GETARG_INT32(1);
	check_teams(n, teams, "players");

	if (!PG_ARGISNULL(2))
	{
		Datum	   *values;
		bool	   *nulls;
		int			np = array_elements(PG_GETARG_ARRAYTYPE_P(2), INT4OID, "parties",
										&values, &nulls);

		if (np != n)
			ereport(ERROR,
					errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
					errmsg("parties has %d elements, ratings %d", np, n),
					errdetail("parties gives the party of each player in ratings, NULL for none."));
		/* Parties renumbered 1, 2, ... by first member; NULL is no party. */
		party = palloc0(sizeof(int) * n);
		party_value = palloc0(sizeof(int) * (n + 1));
		for (int i = 0; i < n; i++)
		{
			if (nulls[i])
				continue;
			for (int j = 0; j < i && party[i] == 0; j++)
				if (!nulls[j] && DatumGetInt32(values[j]) == DatumGetInt32(values[i]))
					party[i] = party[j];
			if (party[i] == 0)
			{
				party[i] = i + 1;
				party_value[i + 1] = DatumGetInt32(values[i]);
			}
		}
	}

	team = palloc(sizeof(int) * n);
	status = mm_balance(players, party, n, teams, team, &exact, &bad_party, &server_env);
	report_balance(status, party_value ? party_value[bad_party] : 0, n, teams);

	out = palloc(sizeof(Datum) * n);
	for (int i = 0; i < n; i++)
		out[i] = Int32GetDatum(team[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(out, n, INT4OID, sizeof(int32), true, TYPALIGN_INT));
}

typedef struct IdPosition
{
	const char *id;
	int			position;
} IdPosition;

static int
id_cmp(const void *a, const void *b)
{
	const IdPosition *x = a,
			   *y = b;
	int			c = strcmp(x->id, y->id);

	return c ? c : (x->position > y->position) - (x->position < y->position);
}

typedef struct RatedPosition
{
	double		rating;
	int			position;
} RatedPosition;

static int
rating_cmp(const void *a, const void *b)
{
	const RatedPosition *x = a,
			   *y = b;

	if (x->rating != y->rating)
		return x->rating < y->rating ? -1 : 1;
	return (x->position > y->position) - (x->position < y->position);
}

/*
 * The games of a pool: each player tolerates max_gap + widen * seconds
 * waited (max_gap infinite: no limit); games are runs of teams * team_size
 * players in rating order (mm_group_runs), each split by mm_balance with its
 * best player first, so that player's team is team 1.  game[i] and team[i]
 * get each player's game (1, 2, ... in rating order) and team, both 0 for a
 * player left waiting.  Returns the number of players placed.
 */
static int
plan_games(const Glicko2Rating *players, const double *waited, int n,
		   int team_size, int teams, double max_gap, double widen,
		   int *game, int *team)
{
	int			size = team_size * teams,
				games,
			   *first,
			   *lobby_team;
	RatedPosition *order;
	double	   *sorted_rating,
			   *tolerance,
			   *work;
	Glicko2Rating *lobby;

	for (int i = 0; i < n; i++)
		game[i] = team[i] = 0;
	if (size > n)
		return 0;				/* not one game's worth of players */
	order = palloc(sizeof(RatedPosition) * (n ? n : 1));
	sorted_rating = palloc(sizeof(double) * n);
	tolerance = palloc(sizeof(double) * n);
	work = palloc(sizeof(double) * 4 * (n + 1));
	lobby = palloc(sizeof(Glicko2Rating) * size);
	for (int i = 0; i < n; i++)
	{
		order[i].rating = players[i].rating;
		order[i].position = i;
	}
	qsort(order, n, sizeof(RatedPosition), rating_cmp);
	for (int i = 0; i < n; i++)
	{
		double		w = waited[order[i].position];

		sorted_rating[i] = order[i].rating;
		tolerance[i] = max_gap + widen * (w > 0.0 ? w : 0.0);
	}
	first = palloc(sizeof(int) * (n / size + 1));
	games = mm_group_runs(sorted_rating, tolerance, n, size, first, work, &server_env);

	lobby_team = palloc(sizeof(int) * size);
	for (int g = 0; g < games; g++)
	{
		bool		exact;
		int			bad_party;

		/* Best first: team 1 is the team of the game's highest rated. */
		for (int k = 0; k < size; k++)
		{
			lobby[k] = players[order[first[g] + size - 1 - k].position];
			lobby_team[k] = k + 1;	/* teams of one: nothing to balance */
		}
		if (team_size > 1)
			report_balance(mm_balance(lobby, NULL, size, teams, lobby_team, &exact,
									  &bad_party, &server_env), 0, size, teams);
		for (int k = 0; k < size; k++)
		{
			int			position = order[first[g] + size - 1 - k].position;

			game[position] = g + 1;
			team[position] = lobby_team[k];
		}
	}
	return games * size;
}

/* Is column attnum of relid alone a unique key (a unique index on it, no predicate)? */
static bool
unique_column(Oid relid, AttrNumber attnum)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	List	   *indexes = RelationGetIndexList(rel);
	ListCell   *lc;
	bool		unique = false;

	foreach(lc, indexes)
	{
		HeapTuple	tuple = SearchSysCache1(INDEXRELID, ObjectIdGetDatum(lfirst_oid(lc)));
		Form_pg_index index;

		if (!HeapTupleIsValid(tuple))
			continue;
		index = (Form_pg_index) GETSTRUCT(tuple);
		if (index->indisunique && index->indisvalid && index->indnkeyatts == 1 &&
			index->indkey.values[0] == attnum &&
			heap_attisnull(tuple, Anum_pg_index_indpred, NULL))
			unique = true;
		ReleaseSysCache(tuple);
	}
	list_free(indexes);
	relation_close(rel, AccessShareLock);
	return unique;
}

/* The number of a queue column, or an error naming it and its argument. */
static AttrNumber
queue_column(Oid relid, const char *relname, const char *column,
			 const char *argument, Oid want_type, const char *want)
{
	AttrNumber	attnum = get_attnum(relid, column);

	if (attnum == InvalidAttrNumber)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_COLUMN),
				errmsg("column \"%s\" of relation %s does not exist", column, relname),
				errhint("Name the column with %s => '...'.", argument));
	if (OidIsValid(want_type) && get_atttype(relid, attnum) != want_type)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is not a %s", column, relname, want));
	return attnum;
}

/* The players taken from a queue, and their games. */
typedef struct TakenQueue
{
	int			n;				/* rows read and locked */
	char	  **ids;
	Glicko2Rating *players;
	Datum	   *ratings;		/* as read, for the result */
	TimestampTz *queued;
	TimestampTz now;
	int		   *game;			/* 1, 2, ... or 0: left waiting */
	int		   *team;
	int			placed;
} TakenQueue;

/* Materialize mode: the result's descriptor and tuplestore, in query memory. */
static Tuplestorestate *
start_result(FunctionCallInfo fcinfo, TupleDesc *desc, const char *function)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext old;
	Tuplestorestate *store;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("%s must be called where a set is accepted", function));
	if (get_call_result_type(fcinfo, NULL, desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "%s has no row type", function);
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	*desc = CreateTupleDescCopy(*desc);
	store = tuplestore_begin_heap(rsinfo->allowedModes & SFRM_Materialize_Random, false, work_mem);
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = store;
	rsinfo->setDesc = *desc;
	MemoryContextSwitchTo(old);
	return store;
}

/* Arguments that must not be NULL (names[i] NULL: may be). */
static void
check_not_null(FunctionCallInfo fcinfo, const char *const *names, int n)
{
	for (int a = 0; a < n; a++)
		if (names[a] && PG_ARGISNULL(a))
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s must not be NULL", names[a]));
}

/*
 * Lock the queue rows no other transaction holds (FOR UPDATE SKIP LOCKED),
 * plan games of teams x team_size with them (plan_games), delete the players
 * placed: all in the caller's transaction.  Leaves SPI connected (q points
 * into SPI memory): the caller copies what it returns, then SPI_finish().
 */
static void
take_queue(Oid relid, int team_size, int teams, double max_gap, double widen,
		   const char *player_column, const char *rating_column,
		   const char *queued_column, Oid rating_type, TakenQueue *q)
{
	char	   *relname,
			   *qualified,
			   *sql;
	AttrNumber	player_attnum;
	bool		unique;
	SPITupleTable *rows;
	ItemPointerData *tids;
	double	   *waited;
	int			n;

	if (team_size < 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("team_size must be at least 1, not %d", team_size));
	check_teams(INT_MAX, teams, "players");	/* the number of teams alone */
	if (team_size > INT_MAX / teams)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("a lobby of %d teams of %d is too large", teams, team_size));
	if (!(max_gap >= 0.0))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("max_gap must be at least 0, not %s", float8out_internal(max_gap)),
				errhint("NULL means no limit."));
	check_nonnegative(widen, "widen");

	/* The columns, each error naming the column and the argument naming it. */
	if (get_rel_name(relid) == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation with OID %u does not exist", relid));
	relname = DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(relid)));
	/* Rows are deleted by ctid, which names a row only within one table:
	 * plain tables only, read and deleted with ONLY (no inheritance children). */
	if (get_rel_relkind(relid) != RELKIND_RELATION)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("queue %s is not a table", relname),
				errdetail("Players are taken off the queue by their row's ctid, which only a plain table has, one per table."));
	qualified = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
										   get_rel_name(relid));
	player_attnum = queue_column(relid, relname, player_column, "player_column", InvalidOid, NULL);
	queue_column(relid, relname, rating_column, "rating_column", rating_type, "glicko2_rating");
	queue_column(relid, relname, queued_column, "queued_column", TIMESTAMPTZOID, "timestamptz");
	unique = unique_column(relid, player_attnum);

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* Everything qualified: the caller's search_path cannot change what runs. */
	sql = psprintf("SELECT ctid, %s::pg_catalog.text, %s, %s FROM ONLY %s FOR UPDATE SKIP LOCKED",
				   quote_identifier(player_column), quote_identifier(rating_column),
				   quote_identifier(queued_column), qualified);
	if (SPI_execute(sql, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "reading queue %s failed", relname);
	rows = SPI_tuptable;
	if (SPI_processed > (uint64) (MaxAllocSize / sizeof(double) / 4 - 1))
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("queue %s has too many players (" UINT64_FORMAT ")", relname, SPI_processed));
	n = q->n = (int) SPI_processed;
	q->now = GetCurrentTransactionStartTimestamp();

	/* Every row: a player, once, a valid rating and a time queued. */
	tids = palloc(sizeof(ItemPointerData) * (n ? n : 1));
	q->ids = palloc(sizeof(char *) * (n ? n : 1));
	q->players = palloc(sizeof(Glicko2Rating) * (n ? n : 1));
	q->ratings = palloc(sizeof(Datum) * (n ? n : 1));
	q->queued = palloc(sizeof(TimestampTz) * (n ? n : 1));
	waited = palloc(sizeof(double) * (n ? n : 1));
	for (int i = 0; i < n; i++)
	{
		HeapTuple	row = rows->vals[i];
		bool		isnull;
		Datum		d;
		char		what[NAMEDATALEN + 32];

		if ((i & 0xffff) == 0)
			CHECK_FOR_INTERRUPTS();
		tids[i] = *(ItemPointer) DatumGetPointer(SPI_getbinval(row, rows->tupdesc, 1, &isnull));
		d = SPI_getbinval(row, rows->tupdesc, 2, &isnull);
		if (isnull)
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("a row of %s has a NULL %s", relname, player_column));
		q->ids[i] = TextDatumGetCString(d);

		q->ratings[i] = SPI_getbinval(row, rows->tupdesc, 3, &isnull);
		if (isnull)
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("player %s has a NULL rating", q->ids[i]),
					errhint("Queue an unrated player with glicko2_rating()."));
		/* "the rating of player 42 has invalid rd 0"; long ids end in "..." */
		if (snprintf(what, sizeof(what), "the rating of player %s", q->ids[i]) >= (int) sizeof(what))
			strcpy(what + sizeof(what) - 4, "...");
		datum_get_glicko2(q->ratings[i], &q->players[i], what);

		d = SPI_getbinval(row, rows->tupdesc, 4, &isnull);
		if (isnull)
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("player %s has a NULL time queued", q->ids[i]));
		q->queued[i] = DatumGetTimestampTz(d);
		waited[i] = (double) (q->now - q->queued[i]) / USECS_PER_SEC;
	}
	/* A unique index already keeps a player from being queued twice. */
	if (!unique)
	{
		IdPosition *by_id = palloc(sizeof(IdPosition) * (n ? n : 1));

		for (int i = 0; i < n; i++)
		{
			by_id[i].id = q->ids[i];
			by_id[i].position = i;
		}
		qsort(by_id, n, sizeof(IdPosition), id_cmp);
		for (int i = 1; i < n; i++)
			if (strcmp(by_id[i].id, by_id[i - 1].id) == 0)
				ereport(ERROR,
						errcode(ERRCODE_UNIQUE_VIOLATION),
						errmsg("player %s is in the queue twice", by_id[i].id),
						errhint("Give the queue a unique key on its player column."));
	}

	q->game = palloc(sizeof(int) * (n ? n : 1));
	q->team = palloc(sizeof(int) * (n ? n : 1));
	q->placed = plan_games(q->players, waited, n, team_size, teams, max_gap, widen,
						   q->game, q->team);

	/* Take the placed players off the queue: all of them, or an error. */
	if (q->placed > 0)
	{
		Datum	   *taken = palloc(sizeof(Datum) * q->placed);
		Oid			argtype = TIDARRAYOID;
		Datum		arg;
		SPIPlanPtr	plan;
		int			k = 0;

		for (int i = 0; i < n; i++)
			if (q->game[i] > 0)
				taken[k++] = PointerGetDatum(&tids[i]);
		arg = PointerGetDatum(construct_array(taken, q->placed, TIDOID, sizeof(ItemPointerData),
											  false, TYPALIGN_SHORT));
		/* A generic plan: planned with the array's 100 000 TIDs in view, the
		 * planner would estimate the selectivity of each (scalararraysel). */
		sql = psprintf("DELETE FROM ONLY %s WHERE ctid OPERATOR(pg_catalog.=) ANY ($1)", qualified);
		plan = SPI_prepare(sql, 1, &argtype);
		if (plan == NULL)
			elog(ERROR, "preparing the delete from queue %s failed", relname);
		if (SPI_execute_plan(plan, &arg, NULL, false, 0) != SPI_OK_DELETE)
			elog(ERROR, "deleting from queue %s failed", relname);
		if (SPI_processed != (uint64) q->placed)
			ereport(ERROR,
					errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					errmsg("deleted " UINT64_FORMAT " of the %d players taken from %s",
						   SPI_processed, q->placed, relname),
					errdetail("A rule or trigger on the queue changed the delete; nothing was taken."));
	}
}

static Datum
waited_datum(const TakenQueue *q, int i)
{
	return DirectFunctionCall2(timestamp_mi, TimestampTzGetDatum(q->now),
							   TimestampTzGetDatum(q->queued[i]));
}

/*
 * glicko2_pair(queue, max_gap, widen, player_column, rating_column,
 * queued_column): one-on-one games from a queue, one row a pair, the higher
 * rated first; the pairs are deleted from the queue.
 */
PG_FUNCTION_INFO_V1(glicko2_pair_sql);
Datum
glicko2_pair_sql(PG_FUNCTION_ARGS)
{
	static const char *const names[] = {"queue", NULL, "widen", "player_column",
	"rating_column", "queued_column"};
	TupleDesc	desc;
	Tuplestorestate *store;
	TakenQueue	q;
	int		   *first,
			   *second;

	check_not_null(fcinfo, names, 6);
	store = start_result(fcinfo, &desc, "glicko2_pair");
	take_queue(PG_GETARG_OID(0), 1, 2, PG_ARGISNULL(1) ? INFINITY : PG_GETARG_FLOAT8(1),
			   PG_GETARG_FLOAT8(2), NameStr(*PG_GETARG_NAME(3)), NameStr(*PG_GETARG_NAME(4)),
			   NameStr(*PG_GETARG_NAME(5)), TupleDescAttr(desc, 4)->atttypid, &q);

	/* Team 1 is the higher rated of each pair. */
	first = palloc0(sizeof(int) * (q.placed / 2 + 1));
	second = palloc0(sizeof(int) * (q.placed / 2 + 1));
	for (int i = 0; i < q.n; i++)
		if (q.game[i] > 0)
			(q.team[i] == 1 ? first : second)[q.game[i] - 1] = i;
	for (int g = 0; g < q.placed / 2; g++)
	{
		int			a = first[g],
					b = second[g];
		Datum		values[8];
		bool		nulls[8] = {false, false, false, false, false, false, false, false};

		values[0] = CStringGetTextDatum(q.ids[a]);
		values[1] = CStringGetTextDatum(q.ids[b]);
		values[2] = Float8GetDatum(glicko2_win_probability(&q.players[a], &q.players[b]));
		values[3] = Float8GetDatum(q.players[a].rating - q.players[b].rating);
		values[4] = q.ratings[a];
		values[5] = q.ratings[b];
		values[6] = waited_datum(&q, a);
		values[7] = waited_datum(&q, b);
		tuplestore_putvalues(store, desc, values, nulls);
	}
	SPI_finish();
	PG_RETURN_NULL();
}

/* Lobby members in result order: lobby, team, best first, then by player. */
typedef struct Member
{
	const TakenQueue *q;
	int			i;
} Member;

static int
member_cmp(const void *a, const void *b)
{
	const Member *x = a,
			   *y = b;
	const TakenQueue *q = x->q;

	if (q->game[x->i] != q->game[y->i])
		return q->game[x->i] < q->game[y->i] ? -1 : 1;
	if (q->team[x->i] != q->team[y->i])
		return q->team[x->i] < q->team[y->i] ? -1 : 1;
	if (q->players[x->i].rating != q->players[y->i].rating)
		return q->players[x->i].rating > q->players[y->i].rating ? -1 : 1;
	return strcmp(q->ids[x->i], q->ids[y->i]);
}

/*
 * glicko2_lobbies(queue, team_size, teams, max_gap, widen, player_column,
 * rating_column, queued_column): lobbies of teams x team_size from a queue,
 * one row a player, with the team's chance against the lobby's other
 * players; the players placed are deleted from the queue.
 */
PG_FUNCTION_INFO_V1(glicko2_lobbies_sql);
Datum
glicko2_lobbies_sql(PG_FUNCTION_ARGS)
{
	static const char *const names[] = {"queue", "team_size", "teams", NULL, "widen",
	"player_column", "rating_column", "queued_column"};
	TupleDesc	desc;
	Tuplestorestate *store;
	TakenQueue	q;
	Member	   *members;
	Glicko2Rating *side,
			   *rest;
	double	   *chance;
	int			teams,
				size,
				k = 0;

	check_not_null(fcinfo, names, 8);
	store = start_result(fcinfo, &desc, "glicko2_lobbies");
	teams = PG_GETARG_INT32(2);
	take_queue(PG_GETARG_OID(0), PG_GETARG_INT32(1), teams,
			   PG_ARGISNULL(3) ? INFINITY : PG_GETARG_FLOAT8(3), PG_GETARG_FLOAT8(4),
			   NameStr(*PG_GETARG_NAME(5)), NameStr(*PG_GETARG_NAME(6)),
			   NameStr(*PG_GETARG_NAME(7)), TupleDescAttr(desc, 3)->atttypid, &q);
	size = PG_GETARG_INT32(1) * teams;

	members = palloc(sizeof(Member) * (q.placed ? q.placed : 1));
	for (int i = 0; i < q.n; i++)
		if (q.game[i] > 0)
		{
			members[k].q = &q;
			members[k++].i = i;
		}
	qsort(members, k, sizeof(Member), member_cmp);

	/* Each lobby's teams: the team's composite against the others'. */
	side = palloc(sizeof(Glicko2Rating) * (k > 0 ? size : 1));	/* a lobby fits the queue */
	rest = palloc(sizeof(Glicko2Rating) * (k > 0 ? size : 1));
	chance = palloc(sizeof(double) * teams);
	for (int start = 0; start < k; start += size)
	{
		for (int t = 1; t <= teams; t++)
		{
			int			ns = 0,
						nr = 0;

			for (int m = start; m < start + size; m++)
			{
				int			i = members[m].i;

				if (q.team[i] == t)
					side[ns++] = q.players[i];
				else
					rest[nr++] = q.players[i];
			}
			chance[t - 1] = glicko_team_win_probability(side, ns, rest, nr);
		}
		for (int m = start; m < start + size; m++)
		{
			int			i = members[m].i;
			Datum		values[6];
			bool		nulls[6] = {false, false, false, false, false, false};

			values[0] = Int32GetDatum(q.game[i]);
			values[1] = Int32GetDatum(q.team[i]);
			values[2] = CStringGetTextDatum(q.ids[i]);
			values[3] = q.ratings[i];
			values[4] = Float8GetDatum(chance[q.team[i] - 1]);
			values[5] = waited_datum(&q, i);
			tuplestore_putvalues(store, desc, values, nulls);
		}
	}
	SPI_finish();
	PG_RETURN_NULL();
}
