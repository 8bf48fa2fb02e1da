/*
 * matches.c — glicko2_match_sides: the one-on-one game sides a team or
 * free-for-all match becomes.  glicko2_close_matches rates a period from
 * exactly these rows, and analysts can feed them to glicko2_period or
 * glicko2_explain in a GROUP BY of their own.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_collation.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include "match_math.h"
#include "rating.h"

/* Checking a match compares every pair of its players. */
#define MAX_MATCH_PLAYERS 10000

/* One match being returned row by row (in the SRF's multi-call context). */
typedef struct MatchSides
{
	GlickoMatch match;
	GlickoMatchCursor cursor;
	Datum	   *players;
	Datum	   *teams;
	Datum	   *ratings;
	bool	   *rating_nulls;
	int		   *team_of;
	int64	   *team_place;
	int		   *team_first;		/* a player of each team, for its key */
	Datum	   *composites;		/* composite method: each team's composite */
	TupleDesc	tupdesc;
} MatchSides;

/* A 1-D array argument's elements, or an error naming the argument. */
static int
array_elements(ArrayType *a, const char *what, Datum **values, bool **nulls)
{
	Oid			elemtype = ARR_ELEMTYPE(a);
	int16		typlen;
	bool		typbyval;
	char		typalign;
	int			n;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("%s must be a one-dimensional array", what));
	get_typlenbyvalalign(elemtype, &typlen, &typbyval, &typalign);
	deconstruct_array(a, elemtype, typlen, typbyval, typalign, values, nulls, &n);
	return n;
}

/* The equality function of an element type, or an error. */
static FmgrInfo *
equality_of(Oid elemtype, const char *what)
{
	TypeCacheEntry *tc = lookup_type_cache(elemtype, TYPECACHE_EQ_OPR_FINFO);

	if (!OidIsValid(tc->eq_opr_finfo.fn_oid))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("could not identify an equality operator for %s type %s",
					   what, format_type_be(elemtype)));
	return &tc->eq_opr_finfo;
}

static inline bool
keys_equal(FmgrInfo *eq, Oid collation, Datum a, Datum b)
{
	return DatumGetBool(FunctionCall2Coll(eq, collation, a, b));
}

static char *
key_text(Oid type, Datum d)
{
	Oid			out;
	bool		varlena;

	getTypeOutputInfo(type, &out, &varlena);
	return OidOutputFunctionCall(out, d);
}

static GlickoMatchMethod
method_of(text *method)
{
	char	   *m = text_to_cstring(method);

	if (strcmp(m, "individual") == 0)
		return GLICKO_MATCH_INDIVIDUAL;
	if (strcmp(m, "composite") == 0)
		return GLICKO_MATCH_COMPOSITE;
	ereport(ERROR,
			errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			errmsg("method must be 'individual' or 'composite', not '%s'", m));
	pg_unreachable();
}

/*
 * Read and check one match: every player once, on one team, every team with
 * one place, at least two teams.  Each error names the player.
 */
static MatchSides *
read_match(FunctionCallInfo fcinfo)
{
	MatchSides *ms = palloc0(sizeof(MatchSides));
	ArrayType  *player_array,
			   *team_array;
	Oid			player_type,
				team_type,
				collation = OidIsValid(PG_GET_COLLATION()) ? PG_GET_COLLATION() : DEFAULT_COLLATION_OID;
	FmgrInfo   *player_eq,
			   *team_eq;
	bool	   *player_nulls,
			   *team_nulls,
			   *place_nulls;
	Datum	   *places;
	int			n,
				k = 0;

	for (int i = 0; i < 5; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s must not be NULL",
						   (const char *[]) {"players", "teams", "places", "ratings", "method"}[i]));
	ms->match.method = method_of(PG_GETARG_TEXT_PP(4));

	player_array = PG_GETARG_ARRAYTYPE_P(0);
	team_array = PG_GETARG_ARRAYTYPE_P(1);
	player_type = ARR_ELEMTYPE(player_array);
	team_type = ARR_ELEMTYPE(team_array);
	n = array_elements(player_array, "players", &ms->players, &player_nulls);
	if (array_elements(team_array, "teams", &ms->teams, &team_nulls) != n ||
		array_elements(PG_GETARG_ARRAYTYPE_P(2), "places", &places, &place_nulls) != n ||
		array_elements(PG_GETARG_ARRAYTYPE_P(3), "ratings", &ms->ratings, &ms->rating_nulls) != n)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("players, teams, places and ratings must have the same length"),
				errdetail("Element i of each array describes the match's player i."));
	if (n > MAX_MATCH_PLAYERS)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("a match has %d players, more than the %d allowed", n, MAX_MATCH_PLAYERS));
	player_eq = equality_of(player_type, "player");
	team_eq = equality_of(team_type, "team");

	ms->team_of = palloc(sizeof(int) * Max(n, 1));
	ms->team_place = palloc(sizeof(int64) * Max(n, 1));
	ms->team_first = palloc(sizeof(int) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		int64		place;
		int			t;

		CHECK_FOR_INTERRUPTS();
		if (player_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("player %d of the match is NULL", i + 1));
		if (team_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("team of player %s is NULL", key_text(player_type, ms->players[i])));
		if (place_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("place of player %s is NULL", key_text(player_type, ms->players[i])));
		place = DatumGetInt64(places[i]);
		if (place < 1)
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("place of player %s is " INT64_FORMAT ", not a place (1 is first)",
						   key_text(player_type, ms->players[i]), place));
		if (!ms->rating_nulls[i])
		{
			Glicko2Rating r;

			datum_get_glicko2(ms->ratings[i], &r,
							  psprintf("rating of player %s", key_text(player_type, ms->players[i])));
		}
		for (int j = 0; j < i; j++)
			if (keys_equal(player_eq, collation, ms->players[i], ms->players[j]))
			{
				bool		same_team = keys_equal(team_eq, collation, ms->teams[i], ms->teams[j]);

				ereport(ERROR,
						errcode(ERRCODE_UNIQUE_VIOLATION),
						same_team ?
						errmsg("player %s is twice in the match", key_text(player_type, ms->players[i])) :
						errmsg("player %s is on two teams of the match, %s and %s",
							   key_text(player_type, ms->players[i]),
							   key_text(team_type, ms->teams[j]), key_text(team_type, ms->teams[i])),
						errdetail("A match has one row per player."));
			}
		for (t = 0; t < k; t++)
			if (keys_equal(team_eq, collation, ms->teams[i], ms->teams[ms->team_first[t]]))
				break;
		if (t == k)
		{
			ms->team_first[k] = i;
			ms->team_place[k] = place;
			k++;
		}
		else if (ms->team_place[t] != place)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("team %s has two places, " INT64_FORMAT " (player %s) and " INT64_FORMAT " (player %s)",
						   key_text(team_type, ms->teams[i]),
						   ms->team_place[t], key_text(player_type, ms->players[ms->team_first[t]]),
						   place, key_text(player_type, ms->players[i])),
					errdetail("A team finishes in one place; every player of a team has its place."));
		ms->team_of[i] = t;
	}
	if (k < 2)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				n == 0 ? errmsg("a match has no players") :
				errmsg("a match needs at least two teams; every player is on team %s",
					   key_text(team_type, ms->teams[0])));

	ms->match.n_players = n;
	ms->match.team = ms->team_of;
	ms->match.n_teams = k;
	ms->match.place = ms->team_place;
	ms->cursor.player = 0;
	ms->cursor.opponent = -1;
	return ms;
}

/* Composite method: each team's composite player, NULL ratings unrated. */
static void
make_composites(MatchSides *ms, Oid rating_type)
{
	TupleDesc	rating_desc = BlessTupleDesc(lookup_rowtype_tupdesc_copy(rating_type, -1));
	Glicko2Rating *members = palloc(sizeof(Glicko2Rating) * ms->match.n_players);

	ms->composites = palloc(sizeof(Datum) * ms->match.n_teams);
	for (int t = 0; t < ms->match.n_teams; t++)
	{
		Glicko2Rating c;
		Datum		values[3];
		bool		nulls[3] = {false, false, false};
		int			m = 0;

		for (int i = 0; i < ms->match.n_players; i++)
		{
			if (ms->team_of[i] != t)
				continue;
			if (ms->rating_nulls[i])
			{
				members[m].rating = GLICKO2_DEFAULT_RATING;
				members[m].rd = GLICKO2_DEFAULT_RD;
				members[m].volatility = GLICKO2_DEFAULT_VOLATILITY;
			}
			else
				datum_get_glicko2(ms->ratings[i], &members[m], "rating");
			m++;
		}
		glicko_team_composite(members, m, &c);
		values[0] = Float8GetDatum(c.rating);
		values[1] = Float8GetDatum(c.rd);
		values[2] = Float8GetDatum(c.volatility);
		ms->composites[t] = HeapTupleGetDatum(heap_form_tuple(rating_desc, values, nulls));
	}
}

/*
 * glicko2_match_sides(players, teams, places, ratings, method): one row per
 * game side of one match, (player, team, rating, opponent, opponent_team,
 * opponent_rating, score), in player order.
 */
PG_FUNCTION_INFO_V1(glicko2_match_sides_sql);
Datum
glicko2_match_sides_sql(PG_FUNCTION_ARGS)
{
	FuncCallContext *fctx;
	MatchSides *ms;
	GlickoSide	side;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		TupleDesc	tupdesc;

		fctx = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(fctx->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "glicko2_match_sides called in a context that cannot accept a record");
		ms = read_match(fcinfo);
		ms->tupdesc = BlessTupleDesc(tupdesc);
		if (ms->match.method == GLICKO_MATCH_COMPOSITE)
			make_composites(ms, TupleDescAttr(tupdesc, 5)->atttypid);
		fctx->user_fctx = ms;
		MemoryContextSwitchTo(old);
	}
	fctx = SRF_PERCALL_SETUP();
	ms = (MatchSides *) fctx->user_fctx;

	if (glicko_match_next(&ms->match, &ms->cursor, &side))
	{
		int			p = side.player;
		int			o = side.opponent;
		bool		individual = ms->match.method == GLICKO_MATCH_INDIVIDUAL;
		Datum		values[7];
		bool		nulls[7] = {false, false, ms->rating_nulls[p], !individual, false,
		individual && ms->rating_nulls[o], false};

		values[0] = ms->players[p];
		values[1] = ms->teams[p];
		values[2] = ms->ratings[p];
		values[3] = individual ? ms->players[o] : (Datum) 0;
		values[4] = individual ? ms->teams[o] : ms->teams[ms->team_first[o]];
		values[5] = individual ? ms->ratings[o] : ms->composites[o];
		values[6] = Float8GetDatum(side.score);
		SRF_RETURN_NEXT(fctx, HeapTupleGetDatum(heap_form_tuple(ms->tupdesc, values, nulls)));
	}
	SRF_RETURN_DONE(fctx);
}
