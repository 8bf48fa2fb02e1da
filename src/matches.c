/*
 * matches.c — glicko2_match_sides: the game sides a team or free-for-all
 * match becomes, each with the terms it adds to its player's Step 3/4 sums
 * (src/core/team.c computes them).  glicko2_close_matches rates a period
 * from exactly these terms; analysts can read E, the terms and the weights,
 * and feed the 'individual' and 'composite' sides to glicko2_period in a
 * GROUP BY of their own.
 *
 * A close calls it once per match (hundreds of thousands of times), so what
 * does not depend on the match is looked up once per call site (fn_extra),
 * the rows go straight into a tuplestore (materialize mode), and keys are
 * turned into text only for an error message.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"

#include "rating.h"
#include "team_method.h"

/* One array argument's element type. */
typedef struct ElementType
{
	Oid			type;
	int16		typlen;
	bool		typbyval;
	char		typalign;
} ElementType;

/* What one call site needs whatever the match (in fn_mcxt). */
typedef struct MatchSidesCache
{
	ElementType elem[5];		/* players, teams, places, ratings, weights */
	FmgrInfo	player_eq;
	FmgrInfo	team_eq;
	ElementType party_elem;		/* of the parties argument, when given */
	FmgrInfo	party_eq;
	Oid			party_collation;
	Oid			collation;
	TupleDesc	out_desc;		/* the result rows */
	TupleDesc	rating_desc;	/* glicko2_rating, for composites */
} MatchSidesCache;

/* One match, read and checked. */
typedef struct Match
{
	GlickoTeamMatch match;
	Datum	   *players;
	Datum	   *teams;
	Datum	   *ratings;
	bool	   *rating_nulls;
	Glicko2Rating *rating;		/* NULL-rated: glicko2_unrated(max_rd) */
	double	   *share;			/* NULL: no weights */
	int		   *team_of;
	int64	   *team_place;
	int		   *team_first;		/* a player of each team, for its key */
	int		   *party;			/* NULL: no parties */
} Match;

static const char *const argument_names[] = {"players", "teams", "places", "ratings", "method"};

static void
set_element_type(ElementType *e, Oid type)
{
	e->type = type;
	get_typlenbyvalalign(type, &e->typlen, &e->typbyval, &e->typalign);
}

/* The equality function of an element type, or an error. */
static void
equality_of(Oid elemtype, const char *what, FmgrInfo *out, MemoryContext mcxt)
{
	TypeCacheEntry *tc = lookup_type_cache(elemtype, TYPECACHE_EQ_OPR_FINFO);

	if (!OidIsValid(tc->eq_opr_finfo.fn_oid))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("could not identify an equality operator for %s type %s",
					   what, format_type_be(elemtype)));
	fmgr_info_copy(out, &tc->eq_opr_finfo, mcxt);
}

/*
 * The parties argument's element type and equality ("any": an array of any
 * type with an equality), looked up when it changes.
 */
static void
party_type_of(FunctionCallInfo fcinfo, MatchSidesCache *c, int argno)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, argno);
	Oid			elem = OidIsValid(type) ? get_element_type(type) : InvalidOid;

	if (OidIsValid(c->party_elem.type) && c->party_elem.type == elem)
		return;
	if (!OidIsValid(elem))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("parties must be an array, not %s",
					   OidIsValid(type) ? format_type_be(type) : "of unknown type"),
				errdetail("Element i is player i's party label (NULL: queued alone)."));
	equality_of(elem, "party", &c->party_eq, fcinfo->flinfo->fn_mcxt);
	set_element_type(&c->party_elem, elem);
	c->party_collation = get_typcollation(elem);
}

/* The call site's cache, built on its first call (or if the types change). */
static MatchSidesCache *
cache_of(FunctionCallInfo fcinfo, ArrayType *const *arrays)
{
	MatchSidesCache *c = (MatchSidesCache *) fcinfo->flinfo->fn_extra;
	MemoryContext old;
	TupleDesc	desc;

	if (c != NULL &&
		c->elem[0].type == ARR_ELEMTYPE(arrays[0]) && c->elem[1].type == ARR_ELEMTYPE(arrays[1]))
		return c;

	old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	c = palloc0(sizeof(MatchSidesCache));
	for (int i = 0; i < 4; i++)
		set_element_type(&c->elem[i], ARR_ELEMTYPE(arrays[i]));
	set_element_type(&c->elem[4], FLOAT8OID);
	equality_of(c->elem[0].type, "player", &c->player_eq, fcinfo->flinfo->fn_mcxt);
	equality_of(c->elem[1].type, "team", &c->team_eq, fcinfo->flinfo->fn_mcxt);
	c->collation = OidIsValid(PG_GET_COLLATION()) ? PG_GET_COLLATION() : DEFAULT_COLLATION_OID;
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "glicko2_match_sides called in a context that cannot accept a record");
	c->out_desc = BlessTupleDesc(CreateTupleDescCopy(desc));
	c->rating_desc = BlessTupleDesc(lookup_rowtype_tupdesc_copy(TupleDescAttr(desc, 5)->atttypid, -1));
	MemoryContextSwitchTo(old);
	fcinfo->flinfo->fn_extra = c;
	return c;
}

/* A 1-D array argument's elements, or an error naming the argument. */
static int
array_elements(ArrayType *a, const ElementType *e, const char *what, Datum **values, bool **nulls)
{
	int			n;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("%s must be a one-dimensional array", what));
	deconstruct_array(a, e->type, e->typlen, e->typbyval, e->typalign, values, nulls, &n);
	return n;
}

static char *
key_text(Oid type, Datum d)
{
	Oid			out;
	bool		varlena;

	getTypeOutputInfo(type, &out, &varlena);
	return OidOutputFunctionCall(out, d);
}

static inline bool
keys_equal(FmgrInfo *eq, Oid collation, Datum a, Datum b)
{
	return DatumGetBool(FunctionCall2Coll(eq, collation, a, b));
}

/*
 * Player i's party: the number of the first player before him with his
 * label, or i; -1 alone (NULL).  A label on two teams is refused: a party
 * queued together plays on one side.
 */
static int
party_of(MatchSidesCache *c, const Match *m, const Datum *parties, const bool *nulls, int i)
{
	if (nulls[i])
		return -1;
	for (int j = 0; j < i; j++)
		if (!nulls[j] && keys_equal(&c->party_eq, c->party_collation, parties[i], parties[j]))
		{
			if (m->team_of[j] != m->team_of[i])
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("party %s is on two teams of the match, %s (player %s) and %s (player %s)",
							   key_text(c->party_elem.type, parties[i]),
							   key_text(c->elem[1].type, m->teams[j]),
							   key_text(c->elem[0].type, m->players[j]),
							   key_text(c->elem[1].type, m->teams[i]),
							   key_text(c->elem[0].type, m->players[i])),
						errdetail("A party is players of one team who queued together."));
			return m->party[j];
		}
	return i;
}

/*
 * Read and check one match: every player once, on one team, every team with
 * one place, at least two teams, valid ratings (a NULL one is `unrated`),
 * weights (if given) in (0, 1].  Each error names the player.
 */
static void
read_match(FunctionCallInfo fcinfo, MatchSidesCache *c, ArrayType *const *arrays,
		   const Glicko2Rating *unrated, Match *m)
{
	Datum	   *parties = NULL;
	bool	   *party_nulls = NULL;
	Datum	   *weights = NULL;
	bool	   *weight_nulls = NULL;
	Oid			player_type = c->elem[0].type,
				team_type = c->elem[1].type;
	bool	   *player_nulls,
			   *team_nulls,
			   *place_nulls;
	Datum	   *places;
	int			n,
				k = 0;

	n = array_elements(arrays[0], &c->elem[0], "players", &m->players, &player_nulls);
	if (array_elements(arrays[1], &c->elem[1], "teams", &m->teams, &team_nulls) != n ||
		array_elements(arrays[2], &c->elem[2], "places", &places, &place_nulls) != n ||
		array_elements(arrays[3], &c->elem[3], "ratings", &m->ratings, &m->rating_nulls) != n)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("players, teams, places and ratings must have the same length"),
				errdetail("Element i of each array describes the match's player i."));
	if (arrays[4] != NULL &&
		array_elements(arrays[4], &c->elem[4], "weights", &weights, &weight_nulls) != n)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("weights must have one element per player"),
				errdetail("Element i of each array describes the match's player i."));
	if (arrays[5] != NULL &&
		array_elements(arrays[5], &c->party_elem, "parties", &parties, &party_nulls) != n)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("parties must have one element per player"),
				errdetail("Element i of each array describes the match's player i."));
	if (n > GLICKO_TEAM_MAX_PLAYERS)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("a match has %d players, more than the %d allowed", n, GLICKO_TEAM_MAX_PLAYERS));

	m->rating = palloc(sizeof(Glicko2Rating) * Max(n, 1));
	m->share = weights ? palloc(sizeof(double) * Max(n, 1)) : NULL;
	m->team_of = palloc(sizeof(int) * Max(n, 1));
	m->team_place = palloc(sizeof(int64) * Max(n, 1));
	m->team_first = palloc(sizeof(int) * Max(n, 1));
	m->party = parties ? palloc(sizeof(int) * Max(n, 1)) : NULL;
	for (int i = 0; i < n; i++)
	{
		int64		place;
		int			t;

		if (player_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("player %d of the match is NULL", i + 1));
		if (team_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("team of player %s is NULL", key_text(player_type, m->players[i])));
		if (place_nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("place of player %s is NULL", key_text(player_type, m->players[i])));
		place = DatumGetInt64(places[i]);
		if (place < 1)
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("place of player %s is " INT64_FORMAT ", not a place (1 is first)",
						   key_text(player_type, m->players[i]), place));
		if (weights)
		{
			if (weight_nulls[i])
				ereport(ERROR,
						errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						errmsg("weight of player %s is NULL", key_text(player_type, m->players[i])),
						errdetail("A weight is the share of the match the player played, in (0, 1]."));
			m->share[i] = DatumGetFloat8(weights[i]);
			if (!glicko_team_share_ok(m->share[i]))
				ereport(ERROR,
						errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
						errmsg("weight of player %s is %s, not in (0, 1]",
							   key_text(player_type, m->players[i]),
							   float8out_internal(m->share[i])),
						errdetail("A weight is the share of the match the player played, in (0, 1]."));
		}
		if (m->rating_nulls[i])
			m->rating[i] = *unrated;
		else
		{
			glicko2_datum_get_fields(m->ratings[i], &m->rating[i], "player rating");
			if (!glicko2_valid(&m->rating[i]))
				glicko2_check(&m->rating[i], psprintf("rating of player %s", key_text(player_type, m->players[i])));
		}
		for (int j = 0; j < i; j++)
			if (keys_equal(&c->player_eq, c->collation, m->players[i], m->players[j]))
			{
				bool		same_team = keys_equal(&c->team_eq, c->collation, m->teams[i], m->teams[j]);

				ereport(ERROR,
						errcode(ERRCODE_UNIQUE_VIOLATION),
						same_team ?
						errmsg("player %s is twice in the match", key_text(player_type, m->players[i])) :
						errmsg("player %s is on two teams of the match, %s and %s",
							   key_text(player_type, m->players[i]),
							   key_text(team_type, m->teams[j]), key_text(team_type, m->teams[i])),
						errdetail("A match has one row per player."));
			}
		for (t = 0; t < k; t++)
			if (keys_equal(&c->team_eq, c->collation, m->teams[i], m->teams[m->team_first[t]]))
				break;
		if (t == k)
		{
			m->team_first[k] = i;
			m->team_place[k] = place;
			k++;
		}
		else if (m->team_place[t] != place)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("team %s has two places, " INT64_FORMAT " (player %s) and " INT64_FORMAT " (player %s)",
						   key_text(team_type, m->teams[i]),
						   m->team_place[t], key_text(player_type, m->players[m->team_first[t]]),
						   place, key_text(player_type, m->players[i])),
					errdetail("A team finishes in one place; every player of a team has its place."));
		m->team_of[i] = t;
		if (parties)
			m->party[i] = party_of(c, m, parties, party_nulls, i);
	}
	if (k < 2)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				n == 0 ? errmsg("a match has no players") :
				errmsg("a match needs at least two teams; every player is on team %s",
					   key_text(team_type, m->teams[0])));

	m->match.n_players = n;
	m->match.team = m->team_of;
	m->match.n_teams = k;
	m->match.place = m->team_place;
	m->match.rating = m->rating;
	m->match.share = m->share;
	m->match.party = m->party;
}

/*
 * glicko2_match_sides(players, teams, places, ratings, method, weights,
 * max_rd, parties, party_advantage, size_advantage): one row per game side of one match, (player, team, rating,
 * opponent, opponent_team, opponent_rating, score, expected, information,
 * surprise, weight), in player order; a NULL rating is the unrated player of
 * a league capped at max_rd (NULL: no cap), as the closes start him.
 */
PG_FUNCTION_INFO_V1(glicko2_match_sides_sql);
Datum
glicko2_match_sides_sql(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ArrayType  *arrays[6];
	MatchSidesCache *c;
	Match		m;
	GlickoTeamWork work;
	Datum	   *composites = NULL;
	GlickoTeamCursor cursor = {0, -1};
	GlickoTeamSide side;
	Tuplestorestate *store;
	MemoryContext old;
	Glicko2Rating unrated;		/* a NULL rating */
	bool		individual,
				composite;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("glicko2_match_sides called in a context that cannot accept a set"));
	for (int i = 0; i < 5; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s must not be NULL", argument_names[i]));
	m.match.method = glicko2_team_method(PG_GETARG_TEXT_PP(4));
	individual = m.match.method == GLICKO_TEAM_INDIVIDUAL;
	composite = m.match.method == GLICKO_TEAM_COMPOSITE;
	for (int i = 0; i < 4; i++)
		arrays[i] = PG_GETARG_ARRAYTYPE_P(i);
	arrays[4] = PG_ARGISNULL(5) ? NULL : PG_GETARG_ARRAYTYPE_P(5);
	arrays[5] = PG_ARGISNULL(7) ? NULL : PG_GETARG_ARRAYTYPE_P(7);
	unrated = glicko2_unrated(glicko_arg_max_rd(fcinfo, 6));
	m.match.advantage = glicko2_team_advantage(fcinfo, 8, 9, m.match.method);
	c = cache_of(fcinfo, arrays);
	if (arrays[5] != NULL)
		party_type_of(fcinfo, c, 7);
	read_match(fcinfo, c, arrays, &unrated, &m);
	glicko_team_prepare(&m.match,
						palloc(sizeof(double) * glicko_team_work_doubles(m.match.n_players, m.match.n_teams)),
						palloc(sizeof(int) * glicko_team_work_ints(m.match.n_players, m.match.n_teams)),
						&work);
	if (composite)
	{
		composites = palloc(sizeof(Datum) * m.match.n_teams);
		for (int t = 0; t < m.match.n_teams; t++)
			composites[t] = glicko2_rating_datum(c->rating_desc, &work.composite[t]);
	}

	/* (the executor frees setDesc after each call: it gets a copy) */
	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	store = tuplestore_begin_heap(true, false, work_mem);
	rsinfo->setDesc = CreateTupleDescCopy(c->out_desc);
	MemoryContextSwitchTo(old);
	while (glicko_team_next(&work, &cursor, &side))
	{
		int			p = side.player;
		int			o = side.opponent;
		Datum		values[11];
		bool		nulls[11] = {false, false, m.rating_nulls[p], !individual, false,
		individual ? m.rating_nulls[o] : !composite, false, false, false, false, false};

		CHECK_FOR_INTERRUPTS();
		values[0] = m.players[p];
		values[1] = m.teams[p];
		values[2] = m.ratings[p];
		values[3] = individual ? m.players[o] : (Datum) 0;
		values[4] = individual ? m.teams[o] : m.teams[m.team_first[o]];
		values[5] = individual ? m.ratings[o] : composite ? composites[o] : (Datum) 0;
		values[6] = Float8GetDatum(side.score);
		values[7] = Float8GetDatum(side.expected);
		values[8] = Float8GetDatum(side.terms.information);
		values[9] = Float8GetDatum(side.terms.surprise);
		values[10] = Float8GetDatum(side.weight);
		tuplestore_putvalues(store, c->out_desc, values, nulls);
	}
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = store;
	return (Datum) 0;
}
