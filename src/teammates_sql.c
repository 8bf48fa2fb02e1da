/*
 * teammates_sql.c — the SQL side of the store of teammates' covariances
 * (src/core/teammates.c computes; docs/matches.md, "Recurring teammates"):
 *   glicko2_teammates_close_terms, which glicko2_close_matches calls: it
 *     reads a period's rows and the store itself (the queries it is given,
 *     straight from the executor), numbers players, matches and teams in
 *     their keys' order and reads the players' ratings;
 *   glicko2_teammates_terms, the same on rows given as arrays and already
 *     numbered (players from 0 in key order, ratings by number), which
 *     glicko2_fit_matches calls.
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/itemptr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/sortsupport.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"

#include "core/teammates.h"
#include "executor_rows.h"
#include "matchmaking.h"
#include "rating.h"
#include "team_method.h"

PG_FUNCTION_INFO_V1(glicko2_teammates_terms);
PG_FUNCTION_INFO_V1(glicko2_teammates_close_terms);

/*
 * Both functions' settings: the method ('sum' or 'mean'), max_rd (NULL: no
 * cap), a close's Step 6 and recurrence, the advantages of arguments
 * party_arg and size_arg.
 */
static void
period_settings(FunctionCallInfo fcinfo, int party_arg, int size_arg, GlickoMatesPeriod *in)
{
	if (PG_ARGISNULL(0))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("method must not be NULL"));
	in->method = glicko2_team_method(PG_GETARG_TEXT_PP(0));
	if (in->method != GLICKO_TEAM_SUM && in->method != GLICKO_TEAM_MEAN)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("a teammates store needs the method 'sum' or 'mean'"));
	in->max_rd = glicko_arg_max_rd(fcinfo, 1);
	in->elapsed = 1.0;
	in->recur = GLICKO_MATES_RECUR;
	in->advantage = glicko2_team_advantage(fcinfo, party_arg, size_arg, in->method);
}

/* What a refused row or stored pair is called, for the messages. */
typedef struct Refused
{
	const char *player;
	const char *match;
	const char *team;
	const char *pair_a;
	const char *pair_b;
} Refused;

/*
 * The core's period, or its refusal as an ERROR: the names of the refused
 * row (or pair) come from name(), called only then.
 */
static void
run_period(const GlickoMatesPeriod *in, GlickoMatesResult *out,
		   void (*name) (const void *arg, int row, bool pair, Refused *r), const void *arg)
{
	GlickoMatesStatus status = glicko_mates_period(in, &glicko_mm_server_env, out);
	Refused		r;

	if (status == GLICKO_MATES_OK)
		return;
	name(arg, out->bad_row, status == GLICKO_MATES_BAD_PAIR, &r);
	switch (status)
	{
		case GLICKO_MATES_OK:
			break;
		case GLICKO_MATES_TWICE:
			ereport(ERROR,
					errcode(ERRCODE_UNIQUE_VIOLATION),
					errmsg("player %s twice in match %s", r.player, r.match));
			break;
		case GLICKO_MATES_TWO_PLACES:
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("team %s of match %s has two places", r.team, r.match));
			break;
		case GLICKO_MATES_ONE_TEAM:
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("match %s has one team only", r.match));
			break;
		case GLICKO_MATES_BAD_PLACE:
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("place %lld below 1 in match %s", (long long) in->row_place[out->bad_row],
						   r.match));
			break;
		case GLICKO_MATES_BAD_SHARE:
			ereport(ERROR,
					errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					errmsg("weight %g not in (0, 1] in match %s", in->row_share[out->bad_row], r.match));
			break;
		case GLICKO_MATES_PARTY_TEAMS:
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("a party on two teams of match %s", r.match));
			break;
		case GLICKO_MATES_BAD_PAIR:
			ereport(ERROR,
					errcode(ERRCODE_DATA_EXCEPTION),
					errmsg("bad pair in the teammates store: players %s and %s, covariance %g",
						   r.pair_a, r.pair_b, in->pair_covariance[out->bad_row]),
					errdetail("A pair names two different players once, the smaller first, with a finite covariance."));
			break;
	}
}

/* A stored pair's key in the core's numbers, and its place in the input. */
typedef struct PairKey
{
	int64		key;
	int			k;
} PairKey;

static int
compare_pair_keys(const void *x, const void *y)
{
	const PairKey *a = x,
			   *b = y;

	return (a->key > b->key) - (a->key < b->key);
}

/*
 * Where the pairs kept were among the pairs read (their index; -1: a new
 * pair), for the store's rewrite in place, and the pairs read and not kept.
 */
static int *
stored_positions(const GlickoMatesPeriod *in, const GlickoMatesResult *out, int **dropped,
				 int *n_dropped)
{
	PairKey    *read = palloc(sizeof(PairKey) * (in->n_pairs + 1));
	bool	   *kept = palloc0(sizeof(bool) * (in->n_pairs + 1));
	int		   *position = palloc(sizeof(int) * (out->n_pairs + 1));
	int64		n = in->n_players;

	for (int k = 0; k < in->n_pairs; k++)
		read[k] = (PairKey)
	{
		in->pair_a[k] * n + in->pair_b[k], k
	};
	qsort(read, in->n_pairs, sizeof(PairKey), compare_pair_keys);
	for (int k = 0; k < out->n_pairs; k++)
	{
		PairKey		key = {out->pairs[k].a * n + out->pairs[k].b, 0};
		PairKey    *found = bsearch(&key, read, in->n_pairs, sizeof(PairKey), compare_pair_keys);

		position[k] = found ? found->k : -1;
		if (found)
			kept[found->k] = true;
	}
	*dropped = palloc(sizeof(int) * (in->n_pairs + 1));
	*n_dropped = 0;
	for (int k = 0; k < in->n_pairs; k++)
		if (!kept[k])
			(*dropped)[(*n_dropped)++] = k;
	pfree(read);
	pfree(kept);
	return position;
}

/*
 * The results as the set: each player's terms (partner NULL), then the
 * pairs kept (information and surprise NULL); players as key[number] (key
 * NULL: the numbers).  With the stored pairs' rows (rel, tid: NULL the
 * numbered form), two more columns: a kept pair's row (NULL: new), then
 * each pair read and not kept with its row, its correlation NULL.
 */
static void
put_results(FunctionCallInfo fcinfo, const GlickoMatesPeriod *in, const GlickoMatesResult *out,
			const Datum *key, const Oid *rel, const ItemPointerData *tid)
{
	TupleDesc	desc;
	Tuplestorestate *store = glicko_materialized_result(fcinfo, &desc, "glicko2_teammates_terms");
	int		   *position = NULL,
			   *dropped = NULL,
				n_dropped = 0;

	if (rel)
		position = stored_positions(in, out, &dropped, &n_dropped);
	for (int k = 0; k < out->n_terms; k++)
	{
		int			p = out->terms[k].player;
		Datum		v[7] = {key ? key[p] : Int32GetDatum(p),
			Float8GetDatum(out->terms[k].terms.information),
		Float8GetDatum(out->terms[k].terms.surprise), 0, 0, 0, 0};
		bool		nulls[7] = {false, false, false, true, true, true, true};

		tuplestore_putvalues(store, desc, v, nulls);
	}
	for (int k = 0; k < out->n_pairs + n_dropped; k++)
	{
		bool		kept = k < out->n_pairs;
		int			a = kept ? out->pairs[k].a : in->pair_a[dropped[k - out->n_pairs]],
					b = kept ? out->pairs[k].b : in->pair_b[dropped[k - out->n_pairs]],
					at = !position ? -1 : kept ? position[k] : dropped[k - out->n_pairs];
		Datum		v[7] = {key ? key[a] : Int32GetDatum(a), 0, 0, key ? key[b] : Int32GetDatum(b),
			kept ? Float8GetDatum(out->pairs[k].correlation) : 0,
			at < 0 ? 0 : ObjectIdGetDatum(rel[at]),
		at < 0 ? 0 : PointerGetDatum(&tid[at])};
		bool		nulls[7] = {false, true, true, false, !kept, at < 0, at < 0};

		tuplestore_putvalues(store, desc, v, nulls);
	}
}

/* ---- glicko2_teammates_terms: rows as arrays, numbered ---- */

#define ARG_RATINGS 2
#define ARG_MATCH 3
#define ARG_TEAM 4
#define ARG_PLAYER 5
#define ARG_PLACE 6
#define ARG_WEIGHT 7
#define ARG_PARTY 8
#define ARG_PAIR_A 11
#define ARG_PAIR_B 12
#define ARG_COVARIANCE 13
#define N_ARGS 14

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

/* An array argument's elements (of any type); nulls NULL: none may be. */
static int
array_elements(ArrayType *a, const char *what, Datum **values, bool **nulls)
{
	bool	   *isnull;
	int			n;
	int16		typlen;
	bool		typbyval;
	char		typalign;

	one_dimension(a, what);
	get_typlenbyvalalign(ARR_ELEMTYPE(a), &typlen, &typbyval, &typalign);
	deconstruct_array(a, ARR_ELEMTYPE(a), typlen, typbyval, typalign, values, &isnull, &n);
	if (nulls)
		*nulls = isnull;
	else
		for (int i = 0; i < n; i++)
			if (isnull[i])
				ereport(ERROR,
						errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
						errmsg("%s has a NULL element", what));
	return n;
}

/* An int4, int8 or float8 array argument's elements, none NULL. */
static int
plain_elements(ArrayType *a, Oid type, const char *what, Datum **values)
{
	if (ARR_ELEMTYPE(a) != type)
		elog(ERROR, "%s: an array of type %u expected", what, type);
	return array_elements(a, what, values, NULL);
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

/* The numbered function's rows and pairs, named by their numbers. */
typedef struct Numbered
{
	const GlickoMatesPeriod *in;
} Numbered;

static void
name_numbered(const void *arg, int row, bool pair, Refused *r)
{
	const GlickoMatesPeriod *in = ((const Numbered *) arg)->in;

	memset(r, 0, sizeof(*r));
	if (pair)
	{
		r->pair_a = psprintf("%d", in->pair_a[row]);
		r->pair_b = psprintf("%d", in->pair_b[row]);
		return;
	}
	r->player = psprintf("%d", in->row_player[row]);
	r->match = psprintf("%d", in->row_match[row]);
	r->team = psprintf("%d", in->row_team[row]);
}

/*
 * glicko2_teammates_terms(method, max_rd, ratings by player number (NULL:
 * unrated), row_match, row_team, row_player, row_place, row_weight (NULL:
 * all 1), row_party (any numbers, -1 alone; NULL: none), party_advantage,
 * size_advantage, pair_a, pair_b, pair_covariance) -> (player, information,
 * surprise, partner, correlation): the period's terms of each player's
 * sums (partner NULL), then the store after it (player < partner,
 * information and surprise NULL).  Players are numbered from 0.
 */
Datum
glicko2_teammates_terms(PG_FUNCTION_ARGS)
{
	GlickoMatesPeriod in;
	GlickoMatesResult out;
	Numbered	names = {&in};
	Datum	   *values[6],
			   *place,
			   *share,
			   *covariance;
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

	for (int i = 0; i < N_ARGS; i++)
		if (PG_ARGISNULL(i) && i != 1 && i != ARG_WEIGHT && i != ARG_PARTY)
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("argument %d of glicko2_teammates_terms must not be NULL", i + 1));
	n_rows = plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_MATCH), INT4OID, "row_match", &values[0]);
	if (plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_TEAM), INT4OID, "row_team", &values[1]) != n_rows ||
		plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_PLAYER), INT4OID, "row_player", &values[2]) != n_rows ||
		(!PG_ARGISNULL(ARG_PARTY) &&
		 plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_PARTY), INT4OID, "row_party", &values[3]) != n_rows))
		lengths_differ("row");
	n_pairs = plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_PAIR_A), INT4OID, "pair_a", &values[4]);
	if (plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_PAIR_B), INT4OID, "pair_b", &values[5]) != n_pairs)
		lengths_differ("pair");
	period_settings(fcinfo, 9, 10, &in);
	share = NULL;
	if (plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_PLACE), INT8OID, "row_place", &place) != n_rows ||
		(!PG_ARGISNULL(ARG_WEIGHT) &&
		 plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_WEIGHT), FLOAT8OID, "row_weight", &share) != n_rows))
		lengths_differ("row");
	if (plain_elements(PG_GETARG_ARRAYTYPE_P(ARG_COVARIANCE), FLOAT8OID, "pair_covariance",
					   &covariance) != n_pairs)
		lengths_differ("pair");
	in.n_rows = n_rows;
	in.n_pairs = n_pairs;
	unrated = glicko2_unrated(in.max_rd);

	in.n_players = array_elements(PG_GETARG_ARRAYTYPE_P(ARG_RATINGS), "ratings", &rating_datums,
								  &rating_nulls);
	rating = palloc(sizeof(Glicko2Rating) * (in.n_players + 1));
	for (int p = 0; p < in.n_players; p++)
	{
		if (rating_nulls[p])
			rating[p] = unrated;
		else
			glicko2_datum_get(rating_datums[p], &rating[p], "rating");
	}
	in.rating = rating;

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
	if (share)
		row_share = palloc(sizeof(double) * (n_rows + 1));
	if (!PG_ARGISNULL(ARG_PARTY))
		row_party = palloc(sizeof(int) * (n_rows + 1));
	for (int r = 0; r < n_rows; r++)
	{
		row_match[r] = order[r].match;
		row_team[r] = order[r].team;
		row_player[r] = order[r].player;
		row_place[r] = DatumGetInt64(place[order[r].row]);
		if (row_share)
			row_share[r] = DatumGetFloat8(share[order[r].row]);
		if (row_party)
			row_party[r] = DatumGetInt32(values[3][order[r].row]);
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
		pair_a[k] = DatumGetInt32(values[4][k]);
		pair_b[k] = DatumGetInt32(values[5][k]);
		pair_cov[k] = DatumGetFloat8(covariance[k]);
	}
	in.row_match = row_match;
	in.row_team = row_team;
	in.row_player = row_player;
	in.row_place = row_place;
	in.row_share = row_share;
	in.row_party = row_party;
	in.pair_a = pair_a;
	in.pair_b = pair_b;
	in.pair_covariance = pair_cov;

	run_period(&in, &out, name_numbered, &names);
	put_results(fcinfo, &in, &out, NULL, NULL, NULL);
	return (Datum) 0;
}

/* ---- glicko2_teammates_close_terms: the period's rows and the store read here ---- */

/*
 * Hashing a key type to number its keys: the integer types by value, any
 * other by its hash and equality functions; NULL where it has none (its
 * keys are then sorted).
 */
typedef struct KeyHash
{
	bool		integer;
	FmgrInfo   *hash;
	FmgrInfo   *eq;
	Oid			collation;
} KeyHash;

static KeyHash *
key_hash_of(Oid type, Oid collation)
{
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_HASH_PROC_FINFO | TYPECACHE_EQ_OPR_FINFO);
	KeyHash    *h = palloc0(sizeof(KeyHash));

	if (type == INT2OID || type == INT4OID || type == INT8OID)
		h->integer = true;
	else if (!OidIsValid(tc->hash_proc_finfo.fn_oid) || !OidIsValid(tc->eq_opr_finfo.fn_oid))
		return NULL;
	h->hash = &tc->hash_proc_finfo;
	h->eq = &tc->eq_opr_finfo;
	h->collation = collation;
	return h;
}

static inline uint32
key_hash(const KeyHash *h, Datum d)
{
	if (h->integer)
		return hash_bytes_uint32((uint32) d) ^ hash_bytes_uint32((uint32) ((uint64) d >> 32));
	return DatumGetUInt32(FunctionCall1Coll(h->hash, h->collation, d));
}

static inline bool
key_equal(const KeyHash *h, Datum a, Datum b)
{
	if (h->integer)
		return a == b;
	return DatumGetBool(FunctionCall2Coll(h->eq, h->collation, a, b));
}

typedef struct KeyRank
{
	const Datum *key;
	const int  *first;			/* per id: a key's index */
	SortSupport order;
} KeyRank;

static int
compare_ids(const void *x, const void *y, void *arg)
{
	const KeyRank *k = arg;
	int			a = *(const int *) x,
				b = *(const int *) y;
	int			c = ApplySortComparator(k->key[k->first[a]], false, k->key[k->first[b]], false, k->order);

	return c != 0 ? c : (a > b) - (a < b);
}

/*
 * Numbers key[0 .. n - 1] from 0 in their order, equal keys alike:
 * number[i] is key[i]'s; returns how many there are, the distinct keys in
 * order in *distinct.  Each key is hashed once (h; NULL: all are sorted)
 * and only the distinct ones are sorted.
 */
static int
number_keys(const Datum *key, int n, SortSupport order, const KeyHash *h, int *number,
			Datum **distinct)
{
	int		   *first = palloc(sizeof(int) * (n + 1));	/* per id: a key's index */
	int		   *rank;
	int			n_ids = 0;
	KeyRank		k = {key, NULL, order};

	k.first = first;
	if (h == NULL)
		for (int i = 0; i < n; i++)
			first[n_ids++] = i;
	else
	{
		uint32		size = 1024;
		int		   *bucket = palloc(sizeof(int) * size);
		uint32	   *hashes = palloc(sizeof(uint32) * (n + 1));	/* per id */

		memset(bucket, -1, sizeof(int) * size);
		for (int i = 0; i < n; i++)
		{
			uint32		hv = key_hash(h, key[i]),
						b = hv & (size - 1);

			while (bucket[b] >= 0 &&
				   (hashes[bucket[b]] != hv || !key_equal(h, key[first[bucket[b]]], key[i])))
				b = (b + 1) & (size - 1);
			if (bucket[b] < 0)
			{
				hashes[n_ids] = hv;
				first[n_ids] = i;
				bucket[b] = n_ids++;
				if ((uint32) n_ids * 2 > size)
				{
					/* (twice the size, every id placed again) */
					pfree(bucket);
					size *= 2;
					bucket = palloc(sizeof(int) * size);
					memset(bucket, -1, sizeof(int) * size);
					for (int id = 0; id < n_ids; id++)
					{
						uint32		c = hashes[id] & (size - 1);

						while (bucket[c] >= 0)
							c = (c + 1) & (size - 1);
						bucket[c] = id;
					}
					b = hv & (size - 1);
					while (bucket[b] != n_ids - 1)
						b = (b + 1) & (size - 1);
				}
			}
			number[i] = bucket[b];
			if ((i & 65535) == 0)
				CHECK_FOR_INTERRUPTS();
		}
		pfree(bucket);
		pfree(hashes);
	}

	/* The ids in key order (without a hash: every key, equal ones adjacent). */
	{
		int		   *by_key = palloc(sizeof(int) * (n_ids + 1));
		int			n_distinct = 0;

		for (int id = 0; id < n_ids; id++)
			by_key[id] = id;
		qsort_arg(by_key, n_ids, sizeof(int), compare_ids, &k);
		rank = palloc(sizeof(int) * (n_ids + 1));
		*distinct = palloc(sizeof(Datum) * (n_ids + 1));
		for (int j = 0; j < n_ids; j++)
		{
			Datum		d = key[first[by_key[j]]];

			if (j == 0 || ApplySortComparator((*distinct)[n_distinct - 1], false, d, false, order) != 0)
				(*distinct)[n_distinct++] = d;
			rank[by_key[j]] = n_distinct - 1;
		}
		pfree(by_key);
		for (int i = 0; i < n; i++)
			number[i] = rank[h ? number[i] : i];
		pfree(rank);
		pfree(first);
		return n_distinct;
	}
}

/* A row of a match in the core's order: team key, player number. */
typedef struct KeyedRow
{
	Datum		team;
	int			player;
	int			row;
} KeyedRow;

static int
compare_keyed_rows(const void *x, const void *y, void *arg)
{
	const KeyedRow *a = x,
			   *b = y;
	int			c = ApplySortComparator(a->team, false, b->team, false, (SortSupport) arg);

	if (c == 0)
		c = (a->player > b->player) - (a->player < b->player);
	return c != 0 ? c : (a->row > b->row) - (a->row < b->row);
}

/* The keyed function's rows and pairs, named by their keys. */
typedef struct Keyed
{
	const GlickoMatesPeriod *in;
	const Datum *player;		/* by number */
	Oid			player_type;
	const int  *row;			/* by row in the core's order: the row read */
	const Datum *match;			/* by row read */
	Oid			match_type;
	const Datum *team;
	Oid			team_type;
} Keyed;

static const char *
key_text(Oid type, Datum d)
{
	Oid			out;
	bool		varlena;

	getTypeOutputInfo(type, &out, &varlena);
	return OidOutputFunctionCall(out, d);
}

static void
name_keyed(const void *arg, int row, bool pair, Refused *r)
{
	const Keyed *k = arg;

	memset(r, 0, sizeof(*r));
	if (pair)
	{
		r->pair_a = key_text(k->player_type, k->player[k->in->pair_a[row]]);
		r->pair_b = key_text(k->player_type, k->player[k->in->pair_b[row]]);
		return;
	}
	r->player = key_text(k->player_type, k->player[k->in->row_player[row]]);
	r->match = key_text(k->match_type, k->match[k->row[row]]);
	r->team = key_text(k->team_type, k->team[k->row[row]]);
}

/*
 * The ratings of the players, key[0 .. n - 1], by the query ratings_sql:
 * its one row's one column the array of their ratings ($1 the array of the
 * keys, NULL an unrated player's), in their order.
 */
static Glicko2Rating *
read_ratings(const char *ratings_sql, Oid key_type, const Datum *key, int n, double max_rd)
{
	Glicko2Rating *rating = palloc(sizeof(Glicko2Rating) * (n + 1));
	Glicko2Rating unrated = glicko2_unrated(max_rd);
	Oid			array_type = get_array_type(key_type);
	int16		typlen;
	bool		typbyval;
	char		typalign;
	Datum		keys;
	bool		isnull;
	int			ret,
				n_read = 0;

	if (!OidIsValid(array_type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("the player key type %s has no array type", format_type_be(key_type)));
	get_typlenbyvalalign(key_type, &typlen, &typbyval, &typalign);
	keys = PointerGetDatum(construct_array((Datum *) key, n, key_type, typlen, typbyval, typalign));
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "glicko2_teammates_close_terms: SPI_connect failed");
	ret = SPI_execute_with_args(ratings_sql, 1, &array_type, &keys, NULL, true, 2);
	if (ret != SPI_OK_SELECT || SPI_processed != 1 || SPI_tuptable->tupdesc->natts != 1 ||
		SPI_gettypeid(SPI_tuptable->tupdesc, 1) != get_array_type(glicko2_extension_rating_type()))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("the ratings query of glicko2_teammates_close_terms must give one row of one glicko2_rating[]"));
	{
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		if (!isnull)
		{
			Datum	   *values;
			bool	   *nulls;

			n_read = array_elements(DatumGetArrayTypeP(d), "ratings", &values, &nulls);
			for (int p = 0; p < n_read && p < n; p++)
			{
				if (nulls[p])
					rating[p] = unrated;
				else
					glicko2_datum_get(values[p], &rating[p], "rating");
			}
		}
	}
	if (n_read != n)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("the ratings query of glicko2_teammates_close_terms gave %d ratings for %d players",
					   n_read, n));
	SPI_finish();
	return rating;
}

/*
 * The order of a key type (its default btree class) in a collation, as
 * SQL's ORDER BY of the column orders it.
 */
static void
key_order(Oid type, Oid collation, const char *what, SortSupport ssup)
{
	TypeCacheEntry *tc = lookup_type_cache(type, TYPECACHE_LT_OPR);

	if (!OidIsValid(tc->lt_opr))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("could not identify an ordering operator for %s type %s", what, format_type_be(type)),
				errdetail("A close with a teammates store numbers players, matches and teams in their keys' order."));
	memset(ssup, 0, sizeof(SortSupportData));
	ssup->ssup_cxt = CurrentMemoryContext;
	ssup->ssup_collation = collation;
	PrepareSortSupportFromOrderingOp(tc->lt_opr, ssup);
}

#define MAX_COLUMNS 6

/*
 * A query's rows, read column by column straight from the executor (no
 * array built in SQL, no tuple copied): each column's values (by-reference
 * ones copied into cxt) and NULLs, its type and collation.
 */
typedef struct Columns
{
	DestReceiver receiver;		/* (first: the executor calls it) */
	MemoryContext cxt;
	int			n_columns;
	int			read_columns;	/* the query's, once it starts */
	int			n;
	int			capacity;
	Oid			type[MAX_COLUMNS];
	Oid			collation[MAX_COLUMNS];
	bool		byval[MAX_COLUMNS];
	int16		typlen[MAX_COLUMNS];
	Datum	   *value[MAX_COLUMNS];
	bool	   *isnull[MAX_COLUMNS];
} Columns;

static void
columns_startup(DestReceiver *self, int operation, TupleDesc desc)
{
	Columns    *c = (Columns *) self;

	if (desc->natts != c->n_columns)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("a query of glicko2_teammates_close_terms gives %d columns, not %d",
					   desc->natts, c->n_columns));
	c->read_columns = desc->natts;
	for (int i = 0; i < c->n_columns; i++)
	{
		c->type[i] = TupleDescAttr(desc, i)->atttypid;
		c->collation[i] = TupleDescAttr(desc, i)->attcollation;
		get_typlenbyval(c->type[i], &c->typlen[i], &c->byval[i]);
	}
}

static bool
columns_receive(TupleTableSlot *slot, DestReceiver *self)
{
	Columns    *c = (Columns *) self;
	MemoryContext old = MemoryContextSwitchTo(c->cxt);

	slot_getallattrs(slot);
	if (c->n == c->capacity)
	{
		c->capacity *= 2;
		for (int i = 0; i < c->n_columns; i++)
		{
			c->value[i] = repalloc_huge(c->value[i], sizeof(Datum) * c->capacity);
			c->isnull[i] = repalloc_huge(c->isnull[i], sizeof(bool) * c->capacity);
		}
	}
	for (int i = 0; i < c->n_columns; i++)
	{
		bool		isnull = slot->tts_isnull[i];

		c->isnull[i][c->n] = isnull;
		c->value[i][c->n] = isnull ? (Datum) 0 :
			c->byval[i] ? slot->tts_values[i] : datumCopy(slot->tts_values[i], false, c->typlen[i]);
	}
	c->n++;
	MemoryContextSwitchTo(old);
	return true;
}

/* Reads the rows of sql ($1 the text param if it is not NULL) into c. */
static void
read_columns(Columns *c, const char *sql, int n_columns, int64 expected, const text *param)
{
	SPIExecuteOptions options;

	memset(c, 0, sizeof(Columns));
	c->cxt = CurrentMemoryContext;
	c->n_columns = n_columns;
	c->capacity = (int) Max(Min(expected, (int64) 1 << 26), 1024);
	for (int i = 0; i < n_columns; i++)
	{
		c->value[i] = palloc_extended(sizeof(Datum) * c->capacity, MCXT_ALLOC_HUGE);
		c->isnull[i] = palloc_extended(sizeof(bool) * c->capacity, MCXT_ALLOC_HUGE);
	}
	glicko_rows_receiver_init(&c->receiver, columns_receive);
	c->receiver.rStartup = columns_startup;
	memset(&options, 0, sizeof(options));
	if (param)
	{
		options.params = makeParamList(1);
		options.params->numParams = 1;
		options.params->params[0].value = PointerGetDatum(param);
		options.params->params[0].isnull = false;
		options.params->params[0].pflags = PARAM_FLAG_CONST;
		options.params->params[0].ptype = TEXTOID;
	}
	/* read_only: the statement's own snapshot */
	options.read_only = true;
	options.dest = &c->receiver;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "glicko2_teammates_close_terms: SPI_connect failed");
	if (SPI_execute_extended(sql, &options) < 0 || c->n_columns != c->read_columns)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("a query of glicko2_teammates_close_terms is not one SELECT of %d columns", n_columns));
	SPI_finish();
}

/* A column's type, or an internal error (the callers build the queries). */
static void
column_type(const Columns *c, int i, Oid type)
{
	if (c->type[i] != type)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column %d of a query of glicko2_teammates_close_terms is %s, not %s", i + 1,
					   format_type_be(c->type[i]), format_type_be(type)));
}

/* ERROR unless no value of column i is NULL. */
static void
no_nulls(const Columns *c, int i, const char *what)
{
	for (int r = 0; r < c->n; r++)
		if (c->isnull[i][r])
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("a NULL %s", what));
}

/* Does column i have a value that is not NULL? */
static bool
any_value(const Columns *c, int i)
{
	for (int r = 0; r < c->n; r++)
		if (!c->isnull[i][r])
			return true;
	return false;
}

/*
 * glicko2_teammates_close_terms(method, max_rd, key, rows_sql, period,
 * expected_rows, store_sql, ratings_sql, party_advantage, size_advantage) ->
 * (player, information, surprise, partner, correlation, rel, tid): as
 * glicko2_teammates_terms, on the rows of rows_sql ($1 period: match, team,
 * player of key's type, place bigint, weight float8 (all NULL: none), party
 * (NULL: alone)) and the store's pairs of store_sql (player_a, player_b,
 * covariance, tableoid, ctid), the players' ratings read by ratings_sql
 * (read_ratings).  Players are numbered in key order over the rows and the
 * pairs (so that the bits do not depend on the order of rows), matches and
 * teams ordered by their keys (the columns' collations), parties numbered
 * within each match (a type with an equality).  Each pair kept comes with
 * its stored row (rel, tid; NULL new), then each stored pair not kept
 * (correlation NULL).
 */
Datum
glicko2_teammates_close_terms(PG_FUNCTION_ARGS)
{
	GlickoMatesPeriod in;
	GlickoMatesResult out;
	Keyed		names;
	Columns		rows,
				pairs;
	SortSupportData match_order,
				team_order,
				player_order;
	Oid			key_type = get_fn_expr_argtype(fcinfo->flinfo, 2);
	Datum	   *player,
			   *matches;
	int			n_rows,
				n_pairs,
				n_matches;
	int		   *slot_player,
			   *match_of,
			   *match_start,
			   *order,
			   *row_match,
			   *row_team,
			   *row_player,
			   *row_party = NULL;
	KeyedRow   *in_match;
	int64	   *row_place;
	double	   *row_share = NULL,
			   *pair_cov;
	Oid		   *rel;
	ItemPointerData *tid;

	for (int i = 3; i < 10; i++)
		if (PG_ARGISNULL(i) && i != 5)
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("argument %d of glicko2_teammates_close_terms must not be NULL", i + 1));
	period_settings(fcinfo, 8, 9, &in);

	/* The period's rows; the store's pairs. */
	read_columns(&rows, text_to_cstring(PG_GETARG_TEXT_PP(3)), 6,
				 PG_ARGISNULL(5) ? 0 : PG_GETARG_INT64(5), PG_GETARG_TEXT_PP(4));
	n_rows = rows.n;
	column_type(&rows, 2, key_type);
	column_type(&rows, 3, INT8OID);
	column_type(&rows, 4, FLOAT8OID);
	for (int i = 0; i < 4; i++)
		no_nulls(&rows, i, "match, team, player or place");
	if (any_value(&rows, 4))
		no_nulls(&rows, 4, "weight");
	read_columns(&pairs, text_to_cstring(PG_GETARG_TEXT_PP(6)), 5, 0, NULL);
	n_pairs = pairs.n;
	column_type(&pairs, 0, key_type);
	column_type(&pairs, 1, key_type);
	column_type(&pairs, 2, FLOAT8OID);
	column_type(&pairs, 3, OIDOID);
	column_type(&pairs, 4, TIDOID);
	for (int i = 0; i < 5; i++)
		no_nulls(&pairs, i, "value in the teammates store");
	in.n_rows = n_rows;
	in.n_pairs = n_pairs;
	key_order(rows.type[0], rows.collation[0], "match", &match_order);
	key_order(rows.type[1], rows.collation[1], "team", &team_order);
	key_order(key_type, rows.collation[2], "player", &player_order);

	/*
	 * Players numbered in key order over the rows and the pairs: the rows'
	 * keys, then player_a's, then player_b's.
	 */
	{
		Datum	   *slot = palloc_extended(sizeof(Datum) * (n_rows + 2 * n_pairs + 1), MCXT_ALLOC_HUGE);

		memcpy(slot, rows.value[2], sizeof(Datum) * n_rows);
		memcpy(slot + n_rows, pairs.value[0], sizeof(Datum) * n_pairs);
		memcpy(slot + n_rows + n_pairs, pairs.value[1], sizeof(Datum) * n_pairs);
		slot_player = palloc_extended(sizeof(int) * (n_rows + 2 * n_pairs + 1), MCXT_ALLOC_HUGE);
		in.n_players = number_keys(slot, n_rows + 2 * n_pairs, &player_order,
								   key_hash_of(key_type, player_order.ssup_collation),
								   slot_player, &player);
		pfree(slot);
	}
	in.rating = read_ratings(text_to_cstring(PG_GETARG_TEXT_PP(7)), key_type, player,
							 in.n_players, in.max_rd);

	/*
	 * The rows by match (numbered in key order; each match's rows gathered),
	 * then within a match by team key and player number.
	 */
	match_of = palloc_extended(sizeof(int) * (n_rows + 1), MCXT_ALLOC_HUGE);
	n_matches = number_keys(rows.value[0], n_rows, &match_order,
							key_hash_of(rows.type[0], match_order.ssup_collation), match_of, &matches);
	match_start = palloc0(sizeof(int) * (n_matches + 2));
	for (int r = 0; r < n_rows; r++)
		match_start[match_of[r] + 2]++;
	for (int m = 0; m < n_matches; m++)
		match_start[m + 2] += match_start[m + 1];
	order = palloc_extended(sizeof(int) * (n_rows + 1), MCXT_ALLOC_HUGE);
	for (int r = 0; r < n_rows; r++)
		order[match_start[match_of[r] + 1]++] = r;
	pfree(match_of);
	{
		int			largest = 1;

		for (int m = 0; m < n_matches; m++)
			largest = Max(largest, match_start[m + 1] - match_start[m]);
		in_match = palloc(sizeof(KeyedRow) * largest);
	}
	row_match = palloc_extended(sizeof(int) * (n_rows + 1), MCXT_ALLOC_HUGE);
	row_team = palloc_extended(sizeof(int) * (n_rows + 1), MCXT_ALLOC_HUGE);
	row_player = palloc_extended(sizeof(int) * (n_rows + 1), MCXT_ALLOC_HUGE);
	row_place = palloc_extended(sizeof(int64) * (n_rows + 1), MCXT_ALLOC_HUGE);
	if (any_value(&rows, 4))
		row_share = palloc_extended(sizeof(double) * (n_rows + 1), MCXT_ALLOC_HUGE);
	for (int m = 0, teams = 0; m < n_matches; m++)
	{
		int			start = match_start[m],
					end = match_start[m + 1];

		for (int q = start; q < end; q++)
			in_match[q - start] = (KeyedRow)
		{
			rows.value[1][order[q]], slot_player[order[q]], order[q]
		};
		qsort_arg(in_match, end - start, sizeof(KeyedRow), compare_keyed_rows, &team_order);
		for (int q = start; q < end; q++)
		{
			const KeyedRow *kr = &in_match[q - start];

			if (q == start ||
				ApplySortComparator(in_match[q - start - 1].team, false, kr->team, false, &team_order) != 0)
				teams++;
			order[q] = kr->row;
			row_match[q] = m;
			row_team[q] = teams - 1;
			row_player[q] = kr->player;
			row_place[q] = DatumGetInt64(rows.value[3][kr->row]);
			if (row_share)
				row_share[q] = DatumGetFloat8(rows.value[4][kr->row]);
		}
		if ((m & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}

	/*
	 * Parties numbered from 0 within each match in the order they come (the
	 * team model only counts a party's members), NULL alone.
	 */
	if (any_value(&rows, 5))
	{
		Oid			party_type = rows.type[5];
		TypeCacheEntry *tc = lookup_type_cache(party_type, TYPECACHE_EQ_OPR_FINFO);
		Datum	   *label = palloc(sizeof(Datum) * (n_rows + 1));

		if (!OidIsValid(tc->eq_opr_finfo.fn_oid))
			ereport(ERROR,
					errcode(ERRCODE_UNDEFINED_FUNCTION),
					errmsg("could not identify an equality operator for party type %s",
						   format_type_be(party_type)));
		row_party = palloc_extended(sizeof(int) * (n_rows + 1), MCXT_ALLOC_HUGE);
		for (int m = 0; m < n_matches; m++)
		{
			int			n_labels = 0;

			for (int q = match_start[m]; q < match_start[m + 1]; q++)
			{
				int			r = order[q],
							k = 0;

				row_party[q] = -1;
				if (rows.isnull[5][r])
					continue;
				while (k < n_labels &&
					   !DatumGetBool(FunctionCall2Coll(&tc->eq_opr_finfo, rows.collation[5],
													   label[k], rows.value[5][r])))
					k++;
				if (k == n_labels)
					label[n_labels++] = rows.value[5][r];
				row_party[q] = k;
			}
		}
		pfree(label);
	}
	pair_cov = palloc(sizeof(double) * (n_pairs + 1));
	rel = palloc(sizeof(Oid) * (n_pairs + 1));
	tid = palloc(sizeof(ItemPointerData) * (n_pairs + 1));
	for (int k = 0; k < n_pairs; k++)
	{
		pair_cov[k] = DatumGetFloat8(pairs.value[2][k]);
		rel[k] = DatumGetObjectId(pairs.value[3][k]);
		tid[k] = *(ItemPointer) DatumGetPointer(pairs.value[4][k]);
	}
	in.row_match = row_match;
	in.row_team = row_team;
	in.row_player = row_player;
	in.row_place = row_place;
	in.row_share = row_share;
	in.row_party = row_party;
	in.pair_a = slot_player + n_rows;
	in.pair_b = slot_player + n_rows + n_pairs;
	in.pair_covariance = pair_cov;

	names.in = &in;
	names.player = player;
	names.player_type = key_type;
	names.row = order;
	names.match = rows.value[0];
	names.match_type = rows.type[0];
	names.team = rows.value[1];
	names.team_type = rows.type[1];
	run_period(&in, &out, name_keyed, &names);
	put_results(fcinfo, &in, &out, player, rel, tid);
	return (Datum) 0;
}
