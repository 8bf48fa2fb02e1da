/*
 * matchmaking.c — SQL wrappers of matchmaking_math.c: team win probability,
 * lobby balance, and the plan glicko2_pair and glicko2_lobbies (in
 * sql/matchmaking.sql) make from the rows they lock in a queue.
 */
#include "postgres.h"

#include <limits.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

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
 * glicko2_queue_plan(ids, ratings, queued, team_size, teams, max_gap, widen):
 * the games of glicko2_pair and glicko2_lobbies.  Each player's tolerance is
 * max_gap + widen * seconds waited (max_gap NULL: no limit); games are runs
 * of teams * team_size players in rating order (mm_group_runs), each split by
 * mm_balance with its best player first, so that player's team is team 1.
 * Returns an n x 2 int[]: each position's game (1, 2, ... in rating order)
 * and team, both 0 for a player left waiting.
 */
PG_FUNCTION_INFO_V1(glicko2_queue_plan_sql);
Datum
glicko2_queue_plan_sql(PG_FUNCTION_ARGS)
{
	Datum	   *ids,
			   *ratings,
			   *queued;
	bool	   *id_nulls,
			   *rating_nulls,
			   *queued_nulls;
	int			n,
				team_size = PG_GETARG_INT32(3),
				teams = PG_GETARG_INT32(4),
				size,
				games,
			   *first,
			   *game_team,
			   *out_game,
			   *out_team;
	double		max_gap = PG_ARGISNULL(5) ? INFINITY : PG_GETARG_FLOAT8(5),
				widen = PG_GETARG_FLOAT8(6);
	TimestampTz now = GetCurrentTransactionStartTimestamp();
	Glicko2Rating *players,
			   *lobby;
	RatedPosition *order;
	IdPosition *by_id;
	char	  **id_text;
	double	   *sorted_rating,
			   *tolerance,
			   *work;
	Datum	   *out;
	int			dims[2],
				lbs[2] = {1, 1};

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2) ||
		PG_ARGISNULL(3) || PG_ARGISNULL(4) || PG_ARGISNULL(6))
		elog(ERROR, "glicko2_queue_plan called with NULL arguments");
	if (team_size < 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("team_size must be at least 1, not %d", team_size));
	check_teams(INT_MAX, teams, "players");	/* the number of teams alone */
	if (team_size > INT_MAX / teams)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("a lobby of %d teams of %d is too large", teams, team_size));
	size = teams * team_size;
	if (!(max_gap >= 0.0) || isnan(max_gap))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("max_gap must be at least 0, not %s", float8out_internal(max_gap)),
				errhint("NULL means no limit."));
	check_nonnegative(widen, "widen");

	n = array_elements(PG_GETARG_ARRAYTYPE_P(0), TEXTOID, "ids", &ids, &id_nulls);
	if (array_elements(PG_GETARG_ARRAYTYPE_P(1), ARR_ELEMTYPE(PG_GETARG_ARRAYTYPE_P(1)),
					   "ratings", &ratings, &rating_nulls) != n ||
		array_elements(PG_GETARG_ARRAYTYPE_P(2), TIMESTAMPTZOID, "queued",
					   &queued, &queued_nulls) != n)
		elog(ERROR, "glicko2_queue_plan called with arrays of different lengths");

	/* Every row: a player id, once, a valid rating and a time queued. */
	by_id = palloc(sizeof(IdPosition) * (n ? n : 1));
	id_text = palloc(sizeof(char *) * (n ? n : 1));
	for (int i = 0; i < n; i++)
	{
		if (id_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("a queue row has a NULL player"));
		id_text[i] = TextDatumGetCString(ids[i]);
		by_id[i].id = id_text[i];
		by_id[i].position = i;
	}
	qsort(by_id, n, sizeof(IdPosition), id_cmp);
	for (int i = 1; i < n; i++)
		if (strcmp(by_id[i].id, by_id[i - 1].id) == 0)
			ereport(ERROR,
					errcode(ERRCODE_UNIQUE_VIOLATION),
					errmsg("player %s is in the queue twice", by_id[i].id),
					errhint("Give the queue a unique key on its player column."));

	players = palloc(sizeof(Glicko2Rating) * (n ? n : 1));
	order = palloc(sizeof(RatedPosition) * (n ? n : 1));
	tolerance = palloc(sizeof(double) * (n ? n : 1));
	sorted_rating = palloc(sizeof(double) * (n ? n : 1));
	for (int i = 0; i < n; i++)
	{
		char		what[NAMEDATALEN + 32];

		if (rating_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("player %s has a NULL rating", id_text[i]),
					errhint("Queue an unrated player with glicko2_rating()."));
		if (queued_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("player %s has a NULL time queued", id_text[i]));
		/* "the rating of player 42 has invalid rd 0": ids longer than that end in "..." */
		if (snprintf(what, sizeof(what), "the rating of player %s", id_text[i]) >= (int) sizeof(what))
			strcpy(what + sizeof(what) - 4, "...");
		datum_get_glicko2(ratings[i], &players[i], what);
		order[i].rating = players[i].rating;
		order[i].position = i;
	}

	/* Rating order; the seconds each has waited make the tolerance. */
	qsort(order, n, sizeof(RatedPosition), rating_cmp);
	for (int i = 0; i < n; i++)
	{
		double		waited = (double) (now - DatumGetTimestampTz(queued[order[i].position])) / USECS_PER_SEC;

		sorted_rating[i] = order[i].rating;
		tolerance[i] = max_gap + widen * (waited > 0.0 ? waited : 0.0);
	}

	first = palloc(sizeof(int) * (n / size + 1));
	work = palloc(sizeof(double) * 4 * (n + 1));
	games = mm_group_runs(sorted_rating, tolerance, n, size, first, work, &server_env);

	out_game = palloc0(sizeof(int) * (n ? n : 1));
	out_team = palloc0(sizeof(int) * (n ? n : 1));
	lobby = palloc(sizeof(Glicko2Rating) * size);
	game_team = palloc(sizeof(int) * size);
	for (int g = 0; g < games; g++)
	{
		bool		exact;
		int			bad_party;

		/* Best first: team 1 is the team of the game's highest rated. */
		for (int k = 0; k < size; k++)
			lobby[k] = players[order[first[g] + size - 1 - k].position];
		report_balance(mm_balance(lobby, NULL, size, teams, game_team, &exact,
								  &bad_party, &server_env), 0, size, teams);
		for (int k = 0; k < size; k++)
		{
			int			position = order[first[g] + size - 1 - k].position;

			out_game[position] = g + 1;
			out_team[position] = game_team[k];
		}
	}

	out = palloc(sizeof(Datum) * 2 * (n ? n : 1));
	for (int i = 0; i < n; i++)
	{
		out[2 * i] = Int32GetDatum(out_game[i]);
		out[2 * i + 1] = Int32GetDatum(out_team[i]);
	}
	if (n == 0)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(INT4OID));
	dims[0] = n;
	dims[1] = 2;
	PG_RETURN_ARRAYTYPE_P(construct_md_array(out, NULL, 2, dims, lbs, INT4OID,
											 sizeof(int32), true, TYPALIGN_INT));
}
