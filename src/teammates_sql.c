/*
 * teammates_sql.c — the SQL side of the store of teammates' covariances
 * (src/core/teammates.c computes; docs/matches.md, "Recurring teammates"):
 * glicko2_teammates_terms, which glicko2_close_matches calls with a period's
 * rows numbered (players in key order, matches, teams) and the store.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/tuplestore.h"

#include "core/teammates.h"
#include "matchmaking.h"
#include "rating.h"
#include "team_method.h"

PG_FUNCTION_INFO_V1(glicko2_teammates_terms);

static void
one_dimension(ArrayType *a, const char *what)
{
	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("%s must have one dimension, not %d", what, ARR_NDIM(a)));
}

static void
lengths_differ(const char *what)
{
	ereport(ERROR,
			errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
			errmsg("the %s arrays of glicko2_teammates_terms differ in length", what));
}

/* An int4, int8 or float8 array argument's elements, none NULL. */
static int
plain_elements(ArrayType *a, Oid type, const char *what, Datum **values)
{
	bool	   *nulls;
	int			n;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	if (ARR_ELEMTYPE(a) != type)
		elog(ERROR, "%s: an array of type %u expected", what, type);
	one_dimension(a, what);
	get_typlenbyvalalign(type, &typlen, &typbyval, &typalign);
	deconstruct_array(a, type, typlen, typbyval, typalign, values, &nulls, &n);
	for (int i = 0; i < n; i++)
		if (nulls[i])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s has a NULL element", what));
	return n;
}

/* Row order for the core: by match, team, player. */
typedef struct RowOrder
{
	int			match;
	int			team;
	int			player;
	int			row;
} RowOrder;

/* A row's party, for numbering the parties of a match from 0. */
typedef struct RowParty
{
	int			party;
	int			row;
} RowParty;

static int
compare_parties(const void *x, const void *y)
{
	const RowParty *a = x,
			   *b = y;

	if (a->party != b->party)
		return a->party < b->party ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

static int
compare_rows(const void *x, const void *y)
{
	const RowOrder *a = x,
			   *b = y;

	if (a->match != b->match)
		return a->match < b->match ? -1 : 1;
	if (a->team != b->team)
		return a->team < b->team ? -1 : 1;
	if (a->player != b->player)
		return a->player < b->player ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

/*
 * glicko2_teammates_terms(method, max_rd, ratings by player number (NULL:
 * unrated), row_match, row_team, row_player, row_place, row_weight (NULL:
 * all 1), row_party (any numbers, -1 alone; NULL: none), party_advantage,
 * size_advantage, pair_a,
 * pair_b, pair_covariance) -> (player, information,
 * surprise, partner, correlation): the period's terms of each player's
 * sums (partner NULL), then the store after it (player < partner,
 * information and surprise NULL).  Players are numbered from 0.
 */
Datum
glicko2_teammates_terms(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	static const char *const names[] = {"method", "max_rd", "ratings", "row_match", "row_team",
		"row_player", "row_place", "row_weight", "row_party", "party_advantage", "size_advantage",
	"pair_a", "pair_b", "pair_covariance"};
	GlickoMatesPeriod in;
	GlickoMatesResult out;
	GlickoMatesStatus status;
	Datum	   *values[9];
	int		   *row_party = NULL;
	bool	   *rating_nulls;
	Datum	   *rating_datums;
	int			n_rows,
				n_pairs;
	Glicko2Rating *rating;
	Glicko2Rating unrated;
	RowOrder   *order;
	int		   *row_match,
			   *row_team,
			   *row_player,
			   *pair_a,
			   *pair_b;
	int64	   *row_place;
	double	   *row_share = NULL,
			   *pair_cov;
	Tuplestorestate *store;
	TupleDesc	desc;
	MemoryContext old;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		!(rsinfo->allowedModes & SFRM_Materialize))
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("glicko2_teammates_terms called in a context that cannot accept a set"));
	for (int i = 0; i < 14; i++)
		if (PG_ARGISNULL(i) && i != 1 && i != 7 && i != 8)
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s must not be NULL", names[i]));
	in.method = glicko2_team_method(PG_GETARG_TEXT_PP(0));
	if (in.method != GLICKO_TEAM_SUM && in.method != GLICKO_TEAM_MEAN)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("a teammates store needs the method 'sum' or 'mean'"));
	in.max_rd = glicko_arg_max_rd(fcinfo, 1);
	in.elapsed = 1.0;
	in.recur = GLICKO_MATES_RECUR;
	in.advantage = glicko2_team_advantage(fcinfo, 9, 10, in.method);
	unrated = glicko2_unrated(in.max_rd);

	{
		ArrayType  *a = PG_GETARG_ARRAYTYPE_P(2);
		int16		typlen;
		bool		typbyval;
		char		typalign;

		one_dimension(a, "ratings");
		get_typlenbyvalalign(ARR_ELEMTYPE(a), &typlen, &typbyval, &typalign);
		deconstruct_array(a, ARR_ELEMTYPE(a), typlen, typbyval, typalign,
						  &rating_datums, &rating_nulls, &in.n_players);
		rating = palloc(sizeof(Glicko2Rating) * (in.n_players + 1));
		for (int p = 0; p < in.n_players; p++)
		{
			if (rating_nulls[p])
				rating[p] = unrated;
			else
				glicko2_datum_get(rating_datums[p], &rating[p], "rating");
		}
		in.rating = rating;
	}
	n_rows = plain_elements(PG_GETARG_ARRAYTYPE_P(3), INT4OID, "row_match", &values[0]);
	if (plain_elements(PG_GETARG_ARRAYTYPE_P(4), INT4OID, "row_team", &values[1]) != n_rows ||
		plain_elements(PG_GETARG_ARRAYTYPE_P(5), INT4OID, "row_player", &values[2]) != n_rows ||
		plain_elements(PG_GETARG_ARRAYTYPE_P(6), INT8OID, "row_place", &values[3]) != n_rows ||
		(!PG_ARGISNULL(7) &&
		 plain_elements(PG_GETARG_ARRAYTYPE_P(7), FLOAT8OID, "row_weight", &values[4]) != n_rows) ||
		(!PG_ARGISNULL(8) &&
		 plain_elements(PG_GETARG_ARRAYTYPE_P(8), INT4OID, "row_party", &values[8]) != n_rows))
		lengths_differ("row");
	n_pairs = plain_elements(PG_GETARG_ARRAYTYPE_P(11), INT4OID, "pair_a", &values[5]);
	if (plain_elements(PG_GETARG_ARRAYTYPE_P(12), INT4OID, "pair_b", &values[6]) != n_pairs ||
		plain_elements(PG_GETARG_ARRAYTYPE_P(13), FLOAT8OID, "pair_covariance", &values[7]) != n_pairs)
		lengths_differ("pair");

	/* The rows by match, team and player (the core reads them so). */
	order = palloc(sizeof(RowOrder) * (n_rows + 1));
	for (int r = 0; r < n_rows; r++)
	{
		order[r].match = DatumGetInt32(values[0][r]);
		order[r].team = DatumGetInt32(values[1][r]);
		order[r].player = DatumGetInt32(values[2][r]);
		order[r].row = r;
		if (order[r].player < 0 || order[r].player >= in.n_players)
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("row %d of glicko2_teammates_terms names player %d, not one of its %d ratings",
						   r + 1, order[r].player, in.n_players));
	}
	qsort(order, n_rows, sizeof(RowOrder), compare_rows);
	row_match = palloc(sizeof(int) * (n_rows + 1));
	row_team = palloc(sizeof(int) * (n_rows + 1));
	row_player = palloc(sizeof(int) * (n_rows + 1));
	row_place = palloc(sizeof(int64) * (n_rows + 1));
	if (!PG_ARGISNULL(7))
		row_share = palloc(sizeof(double) * (n_rows + 1));
	if (!PG_ARGISNULL(8))
		row_party = palloc(sizeof(int) * (n_rows + 1));
	for (int r = 0; r < n_rows; r++)
	{
		row_match[r] = order[r].match;
		row_team[r] = order[r].team;
		row_player[r] = order[r].player;
		row_place[r] = DatumGetInt64(values[3][order[r].row]);
		if (row_share)
			row_share[r] = DatumGetFloat8(values[4][order[r].row]);
		if (row_party)
			row_party[r] = DatumGetInt32(values[8][order[r].row]);
	}
	/* Parties numbered from 0 within each match, as the core reads them. */
	if (row_party)
	{
		RowParty   *rp = palloc(sizeof(RowParty) * (n_rows + 1));

		for (int start = 0, end; start < n_rows; start = end)
		{
			int			n = 0,
						next = 0;

			for (end = start; end < n_rows && row_match[end] == row_match[start]; end++)
				if (row_party[end] >= 0)
				{
					rp[n].party = row_party[end];
					rp[n++].row = end;
				}
			qsort(rp, n, sizeof(RowParty), compare_parties);
			for (int k = 0; k < n; k++)
			{
				if (k > 0 && rp[k].party != rp[k - 1].party)
					next++;
				row_party[rp[k].row] = next;
			}
		}
		pfree(rp);
	}
	pair_a = palloc(sizeof(int) * (n_pairs + 1));
	pair_b = palloc(sizeof(int) * (n_pairs + 1));
	pair_cov = palloc(sizeof(double) * (n_pairs + 1));
	for (int k = 0; k < n_pairs; k++)
	{
		pair_a[k] = DatumGetInt32(values[5][k]);
		pair_b[k] = DatumGetInt32(values[6][k]);
		pair_cov[k] = DatumGetFloat8(values[7][k]);
	}
	in.n_rows = n_rows;
	in.row_match = row_match;
	in.row_team = row_team;
	in.row_player = row_player;
	in.row_place = row_place;
	in.row_share = row_share;
	in.row_party = row_party;
	in.n_pairs = n_pairs;
	in.pair_a = pair_a;
	in.pair_b = pair_b;
	in.pair_covariance = pair_cov;

	status = glicko_mates_period(&in, &glicko_mm_server_env, &out);
	switch (status)
	{
		case GLICKO_MATES_OK:
			break;
		case GLICKO_MATES_TWICE:
			ereport(ERROR,
					errcode(ERRCODE_UNIQUE_VIOLATION),
					errmsg("player %d twice in match %d", row_player[out.bad_row], row_match[out.bad_row]));
			break;
		case GLICKO_MATES_TWO_PLACES:
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("team %d of match %d has two places", row_team[out.bad_row], row_match[out.bad_row]));
			break;
		case GLICKO_MATES_ONE_TEAM:
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("match %d has one team only", row_match[out.bad_row]));
			break;
		case GLICKO_MATES_BAD_PLACE:
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("place %lld below 1 in match %d", (long long) row_place[out.bad_row],
						   row_match[out.bad_row]));
			break;
		case GLICKO_MATES_BAD_SHARE:
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("weight %g not in (0, 1] in match %d", row_share[out.bad_row],
						   row_match[out.bad_row]));
			break;
		case GLICKO_MATES_PARTY_TEAMS:
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("a party on two teams of match %d", row_match[out.bad_row]));
			break;
		case GLICKO_MATES_BAD_PAIR:
			ereport(ERROR,
					errcode(ERRCODE_DATA_EXCEPTION),
					errmsg("bad pair in the teammates store: players %d and %d, covariance %g",
						   pair_a[out.bad_row], pair_b[out.bad_row], pair_cov[out.bad_row]),
					errdetail("A pair names two different players once, the smaller first, with a finite covariance."));
			break;
	}

	old = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	store = tuplestore_begin_heap(true, false, work_mem);
	desc = CreateTemplateTupleDesc(5);
	TupleDescInitEntry(desc, 1, "player", INT4OID, -1, 0);
	TupleDescInitEntry(desc, 2, "information", FLOAT8OID, -1, 0);
	TupleDescInitEntry(desc, 3, "surprise", FLOAT8OID, -1, 0);
	TupleDescInitEntry(desc, 4, "partner", INT4OID, -1, 0);
	TupleDescInitEntry(desc, 5, "correlation", FLOAT8OID, -1, 0);
	rsinfo->setDesc = desc;
	MemoryContextSwitchTo(old);
	for (int k = 0; k < out.n_terms; k++)
	{
		Datum		v[5] = {Int32GetDatum(out.terms[k].player),
			Float8GetDatum(out.terms[k].terms.information),
		Float8GetDatum(out.terms[k].terms.surprise), 0, 0};
		bool		nulls[5] = {false, false, false, true, true};

		tuplestore_putvalues(store, desc, v, nulls);
	}
	for (int k = 0; k < out.n_pairs; k++)
	{
		Datum		v[5] = {Int32GetDatum(out.pairs[k].a), 0, 0, Int32GetDatum(out.pairs[k].b),
		Float8GetDatum(out.pairs[k].correlation)};
		bool		nulls[5] = {false, true, true, false, false};

		tuplestore_putvalues(store, desc, v, nulls);
	}
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = store;
	return (Datum) 0;
}
