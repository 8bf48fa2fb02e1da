/*
 * matchmaking_balance.c — SQL wrappers of the lobby mathematics
 * (core/matchmaking_math.c, core/team.c): glicko2_team_win_probability and
 * glicko2_balance, and what the queue (matchmaking_queue.c) shares with
 * them: the server's environment for the search, the team count's check and
 * glicko_mm_balance's errors (matchmaking.h).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/float.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

#include "core/matchmaking_math.h"
#include "matchmaking.h"
#include "rating.h"
#include "team_method.h"

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
const MmEnv glicko_mm_server_env = {poll_interrupts, palloc_zero, pfree_any};

/* ERROR unless teams is 2..MM_MAX_TEAMS and n players (named `players`) fill them. */
void
glicko_mm_check_teams(int n, int teams, const char *players)
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

/* ERROR for a failed glicko_mm_balance; bad_party as the caller numbers it. */
void
glicko_mm_report_balance(MmStatus status, int bad_party, int n, int teams)
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
		case MM_PARTIES_UNSETTLED:
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("no split keeping every party together was found in %ld steps", MM_FIT_STEPS),
					errdetail("%d players in %d teams: whether the parties fit was not settled.", n, teams),
					errhint("Split the lobby, or fewer parties."));
			break;
	}
}

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
		glicko2_datum_get(values[i], &(*out)[i], element);
		pfree(element);
	}
	return n;
}

/* A team's play shares (NULL: all 1): one per player, each in (0, 1]. */
static double *
share_array(FunctionCallInfo fcinfo, int arg, int n, const char *what, const char *team)
{
	Datum	   *values;
	bool	   *nulls;
	double	   *share;

	if (PG_ARGISNULL(arg))
		return NULL;
	if (array_elements(PG_GETARG_ARRAYTYPE_P(arg), FLOAT8OID, what, &values, &nulls) != n)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("%s must have one weight for each of the %d players of %s", what, n, team));
	share = palloc(sizeof(double) * n);
	for (int i = 0; i < n; i++)
	{
		share[i] = nulls[i] ? 0.0 : DatumGetFloat8(values[i]);
		if (nulls[i] || !glicko_team_share_ok(share[i]))
			ereport(ERROR,
					errcode(nulls[i] ? ERRCODE_NULL_VALUE_NOT_ALLOWED : ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("%s[%d] is %s, not in (0, 1]", what, i + 1,
						   nulls[i] ? "NULL" : float8out_internal(share[i])),
					errdetail("A weight is the share of the match the player played, in (0, 1]."));
	}
	return share;
}

/* A team's party labels ("any": an array of a type with equality), read. */
typedef struct PartyLabels
{
	Oid			type;			/* element type; InvalidOid: no labels */
	Datum	   *values;
	bool	   *nulls;
	FmgrInfo	eq;
	Oid			collation;
} PartyLabels;

static int *
party_labels(FunctionCallInfo fcinfo, int arg, int n, const char *what, const char *team,
			 PartyLabels *l)
{
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, arg);
	TypeCacheEntry *tc;
	int		   *party;

	l->type = InvalidOid;
	if (PG_ARGISNULL(arg))
		return NULL;
	l->type = OidIsValid(type) ? get_element_type(type) : InvalidOid;
	if (!OidIsValid(l->type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("%s must be an array, not %s", what,
					   OidIsValid(type) ? format_type_be(type) : "of unknown type"),
				errdetail("Element i is the party label of player i of %s (NULL: queued alone).", team));
	tc = lookup_type_cache(l->type, TYPECACHE_EQ_OPR_FINFO);
	if (!OidIsValid(tc->eq_opr_finfo.fn_oid))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("could not identify an equality operator for party type %s",
					   format_type_be(l->type)));
	fmgr_info(tc->eq_opr_finfo.fn_oid, &l->eq);
	l->collation = get_typcollation(l->type);
	if (array_elements(PG_GETARG_ARRAYTYPE_P(arg), l->type, what, &l->values, &l->nulls) != n)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("%s must have one label for each of the %d players of %s", what, n, team));
	/* Each player's party: the first player with his label (-1: alone). */
	party = palloc(sizeof(int) * n);
	for (int i = 0; i < n; i++)
	{
		party[i] = l->nulls[i] ? -1 : i;
		for (int j = 0; j < i && party[i] == i; j++)
			if (!l->nulls[j] &&
				DatumGetBool(FunctionCall2Coll(&l->eq, l->collation, l->values[i], l->values[j])))
				party[i] = party[j];
	}
	return party;
}

/* ERROR if a label is in both teams: a party plays on one side. */
static void
party_one_side(PartyLabels *a, int na, PartyLabels *b, int nb)
{
	if (!OidIsValid(a->type) || a->type != b->type)
		return;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++)
			if (!a->nulls[i] && !b->nulls[j] &&
				DatumGetBool(FunctionCall2Coll(&a->eq, a->collation, a->values[i], b->values[j])))
			{
				Oid			out;
				bool		varlena;

				getTypeOutputInfo(a->type, &out, &varlena);
				ereport(ERROR,
						errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						errmsg("party %s is in both teams (parties_a[%d], parties_b[%d])",
							   OidOutputFunctionCall(out, a->values[i]), i + 1, j + 1),
						errdetail("A party is players of one team who queued together."));
			}
}

/* glicko2_team_win_probability(team_a, team_b, method, weights_a, weights_b,
 * parties_a, parties_b, party_advantage, size_advantage): a beats b, by the
 * method's team model (src/core/team.c), each player counted by his play
 * share, the teams' party and size edges counted.  NULL teams or method:
 * NULL, as if strict.  A tenth argument (the internal _covaried form) adds
 * the players' covariances from a teammates store. */
PG_FUNCTION_INFO_V1(glicko2_team_win_probability_sql);
Datum
glicko2_team_win_probability_sql(PG_FUNCTION_ARGS)
{
	Glicko2Rating *a,
			   *b;
	int			na,
				nb;
	GlickoTeamMethod method;
	GlickoTeamAdvantage adv;
	PartyLabels la,
				lb;
	int		   *pa,
			   *pb;
	double		covariance = 0.0;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_NULL();
	na = rating_array(PG_GETARG_ARRAYTYPE_P(0), "team_a", &a);
	nb = rating_array(PG_GETARG_ARRAYTYPE_P(1), "team_b", &b);
	method = glicko2_team_method(PG_GETARG_TEXT_PP(2));
	if (na == 0 || nb == 0)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("%s has no players", na == 0 ? "team_a" : "team_b"));
	adv = glicko2_team_advantage(fcinfo, 7, 8, method);
	pa = party_labels(fcinfo, 5, na, "parties_a", "team_a", &la);
	pb = party_labels(fcinfo, 6, nb, "parties_b", "team_b", &lb);
	if (pa && pb)
		party_one_side(&la, na, &lb, nb);
	/* (glicko2_internal.glicko2_team_win_probability_covaried: argument 9) */
	if (PG_NARGS() > 9 && !PG_ARGISNULL(9))
	{
		covariance = PG_GETARG_FLOAT8(9);
		if (!isfinite(covariance))
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("covariance must be a finite number, not %g", covariance));
	}
	PG_RETURN_FLOAT8(glicko_team_probability_covaried(method,
													  a, share_array(fcinfo, 3, na, "weights_a", "team_a"),
													  pa, na,
													  b, share_array(fcinfo, 4, nb, "weights_b", "team_b"),
													  pb, nb, &adv, covariance,
													  palloc(sizeof(double) * 2 * ((size_t) na + nb)),
													  palloc(sizeof(int) * ((size_t) na + nb))));
}

/* A player's party number and position, to find each party's first member. */
typedef struct PartyMember
{
	int32		value;
	int			position;
} PartyMember;

static int
party_member_cmp(const void *a, const void *b)
{
	const PartyMember *x = a,
			   *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return (x->position > y->position) - (x->position < y->position);
}

/* glicko2_balance(ratings, teams, parties, method): the fairest split by the
 * method's team win probability, team per position. */
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
	GlickoTeamMethod method;
	GlickoTeamAdvantage adv;

	/* No lobby, no team count or no method: no split. */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1) || PG_ARGISNULL(3))
		PG_RETURN_NULL();
	method = glicko2_team_method(PG_GETARG_TEXT_PP(3));
	adv = glicko2_team_advantage(fcinfo, 4, 5, method);
	n = rating_array(PG_GETARG_ARRAYTYPE_P(0), "ratings", &players);
	teams = PG_GETARG_INT32(1);
	if (n > MM_MAX_PLAYERS)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("a lobby of %d players is larger than glicko2_balance splits (%d)",
					   n, MM_MAX_PLAYERS),
				errdetail("The search's time grows with players times teams; a lobby this large is not a game's."));
	glicko_mm_check_teams(n, teams, "players");

	if (!PG_ARGISNULL(2))
	{
		Datum	   *values;
		bool	   *nulls;
		int			np = array_elements(PG_GETARG_ARRAYTYPE_P(2), INT4OID, "parties",
										&values, &nulls);
		PartyMember *members;
		int			m = 0;

		if (np != n)
			ereport(ERROR,
					errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
					errmsg("parties has %d elements, ratings %d", np, n),
					errdetail("parties gives the party of each player in ratings, NULL for none."));

		/*
		 * Parties renumbered by first member (its position + 1); NULL is no
		 * party.  Sorted by (value, position): each member's first is the
		 * first of its run (O(n log n), a large lobby of lone parties too).
		 */
		members = palloc(sizeof(PartyMember) * n);
		party = palloc0(sizeof(int) * n);
		party_value = palloc0(sizeof(int) * (n + 1));
		for (int i = 0; i < n; i++)
			if (!nulls[i])
			{
				members[m].value = DatumGetInt32(values[i]);
				members[m++].position = i;
			}
		qsort(members, m, sizeof(PartyMember), party_member_cmp);
		for (int k = 0, first = 0; k < m; k++)
		{
			if (k == 0 || members[k].value != members[k - 1].value)
			{
				first = members[k].position;
				party_value[first + 1] = members[k].value;
			}
			party[members[k].position] = first + 1;
		}
		pfree(members);
	}

	team = palloc(sizeof(int) * n);
	status = glicko_mm_balance(players, party, n, teams, method, &adv, team, &exact, &bad_party,
							   &glicko_mm_server_env);
	glicko_mm_report_balance(status, party_value ? party_value[bad_party] : 0, n, teams);

	out = palloc(sizeof(Datum) * n);
	for (int i = 0; i < n; i++)
		out[i] = Int32GetDatum(team[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(out, n, INT4OID, sizeof(int32), true, TYPALIGN_INT));
}
