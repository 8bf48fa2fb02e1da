/*
 * live_teammates.c — the teammates store of glicko2_rate_matches (option
 * teammates=...; docs/live.md, "Recurring teammates").
 *
 * Each live match is a period of its own for src/core/teammates.c, the
 * close's mathematics, with the live trigger's two differences: no Step 6
 * in the prior (t = 0, as every live update: RD grows with time, before the
 * match) and a pair made by one match together (a match is the whole
 * period).  Its players and their stored partners form the period; a
 * partner outside the match keeps his rating, grown to the match's time.
 *
 * Locks, after the players' rows (key order) and the match ids: every store
 * row of a statement's player, ordered by (player_a, player_b), FOR UPDATE.
 * A writer of a player's rating locks every stored pair of his first, so a
 * partner's rating, read afterwards (a fresh snapshot) without a lock,
 * holds still until commit: a statement that rates him waits for the pair.
 * No deadlock between statements: each takes players, then match ids, then
 * pairs, each set in one order, and never a player's lock after a pair's.
 * One statement rewrites the store: a kept pair's row updated in place (a
 * statement waiting for it follows the update; a delete and an insert would
 * hide the new row from it), a dropped one's deleted, a new pair inserted; a
 * writer at REPEATABLE READ whose snapshot predates them fails (40001).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/typcache.h"

#include "core/teammates.h"
#include "live_teammates.h"
#include "matchmaking.h"
#include "rating.h"
#include "relation.h"
#include "write_check.h"

#define LOCK_PLAN(s) ((s)->first_plan)
#define READ_PLAN(s) ((s)->first_plan + 1)
#define WRITE_PLAN(s) ((s)->first_plan + 2)

struct GlickoLiveStore
{
	int			n_keys;			/* the statement's players: 0 .. n_keys - 1 */
	int			n_partners;		/* others: n_keys .. n_keys + n_partners - 1 */
	Datum	   *partner_key;	/* sorted, of the ratings key's type */
	GlickoLiveRow *partner_row;
	int		   *rank;			/* by number: the place in key order of the
								 * statement's players and partners, so that a
								 * match's bits do not depend on the statement
								 * around it */
	int			n_pairs;
	int			size;
	int		   *a;				/* a < b, by number */
	int		   *b;
	double	   *covariance;
	bool	   *alive;
	int		   *next_a;			/* the next pair of a's, of b's (-1: none) */
	int		   *next_b;
	int		   *stamp;			/* the last match that took it */
	int		   *head;			/* by number: his latest pair (-1: none) */
	int			match_no;
	MemoryContext match_cxt;	/* a match's work, reset by the next */
	int			n_locked;
	Datum	   *locked_tableoid;
	Datum	   *locked_tid;
	/* the last match's, until glicko_live_mates_after */
	int			n_local;
	int		   *local;			/* local number -> statement number */
	bool	   *in_match;
	Glicko2Rating *local_rating;
	GlickoMatesResult result;
};

void
glicko_live_mates_open(GlickoLiveMates *s, GlickoLiveEntry *e, const char *name, Relation matches,
					   const GlickoLiveRatings *rt, GlickoTeamMethod method, int first_plan,
					   MemoryContext cxt)
{
	Datum		args[3];
	Oid			types[3] = {REGCLASSOID, REGTYPEOID, OIDOID};
	const char *store,
			   *keys,
			   *kt = rt->key_type_name;
	TypeCacheEntry *tc;
	Oid			key_types[1];
	Oid			write_types[8];
	int			ret;

	if (method != GLICKO_TEAM_SUM && method != GLICKO_TEAM_MEAN)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("a teammates store needs the method 'sum' or 'mean'"),
				errdetail("Option teammates=%s of a trigger on %s.", name, RelationGetRelationName(matches)));
	s->relid = glicko_live_relation(name, matches);
	if (!OidIsValid(s->relid))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("teammates store %s named by a trigger on %s does not exist",
					   name, RelationGetRelationName(matches)),
				errhint("Create it with CALL glicko2_teammates_create(name, ratings)."));
	glicko_not_catalog(s->relid, "teammates");
	/* (the close's check of the store's columns: one definition) */
	args[0] = ObjectIdGetDatum(s->relid);
	args[1] = ObjectIdGetDatum(rt->key_type);
	ret = SPI_execute_with_args("SELECT glicko2_internal.glicko2_teammates_check($1, $2)",
								2, types, args, NULL, false, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "glicko2_rate_matches: the check of the teammates store failed: %s",
			 SPI_result_code_string(ret));
	/* (and its owner: no other ratings table's) */
	args[1] = ObjectIdGetDatum(rt->relid);
	args[2] = ObjectIdGetDatum(e->trigger_oid);
	types[1] = REGCLASSOID;
	ret = SPI_execute_with_args("SELECT glicko2_internal.glicko2_teammates_owner($1, $2, $3)",
								3, types, args, NULL, false, 1);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "glicko2_rate_matches: the check of the teammates store's owner failed: %s",
			 SPI_result_code_string(ret));

	tc = lookup_type_cache(rt->key_type, TYPECACHE_CMP_PROC_FINFO);
	fmgr_info_cxt(tc->cmp_proc_finfo.fn_oid, &s->key_cmp, cxt);
	s->key_type = rt->key_type;
	s->key_collation = get_typcollation(rt->key_type);
	s->first_plan = first_plan;
	Assert(first_plan + GLICKO_LIVE_MATES_PLANS <= GLICKO_LIVE_PLANS);

	store = quote_qualified_identifier(get_namespace_name(get_rel_namespace(s->relid)),
									   get_rel_name(s->relid));
	keys = psprintf("CAST($1 AS %s[])", kt);
	key_types[0] = get_array_type(rt->key_type);
	/* (the trigger's keys: an array of the matches' player type) */
	e->plans[LOCK_PLAN(s)] =
		glicko_live_prepare(psprintf("SELECT pg_catalog.array_position(%1$s, s.player_a),"
									 " pg_catalog.array_position(%1$s, s.player_b),"
									 " s.player_a, s.player_b, s.covariance, s.ctid, s.tableoid"
									 " FROM %2$s s WHERE s.player_a %3$s ANY (%1$s) OR s.player_b %3$s ANY (%1$s)"
									 " ORDER BY s.player_a, s.player_b FOR UPDATE OF s",
									 keys, store, rt->eq),
							1, key_types);
	e->plans[READ_PLAN(s)] = glicko_live_prepare_read(rt);

	/*
	 * The store's rewrite in one statement: the kept pairs' rows updated, the
	 * dropped ones' deleted (both by table and TID), the new pairs inserted;
	 * the three counts.
	 */
	write_types[0] = write_types[3] = OIDARRAYOID;
	write_types[1] = write_types[4] = get_array_type(TIDOID);
	write_types[2] = write_types[7] = FLOAT8ARRAYOID;
	write_types[5] = write_types[6] = TEXTARRAYOID;
	e->plans[WRITE_PLAN(s)] =
		glicko_live_prepare(psprintf("WITH u AS (UPDATE %1$s s SET covariance = v.c"
									 " FROM ROWS FROM (pg_catalog.unnest($1), pg_catalog.unnest($2), pg_catalog.unnest($3)) v(tableoid, tid, c)"
									 " WHERE s.ctid OPERATOR(pg_catalog.=) v.tid"
									 " AND s.tableoid OPERATOR(pg_catalog.=) v.tableoid RETURNING 1),"
									 " d AS (DELETE FROM %1$s s USING ROWS FROM (pg_catalog.unnest($4), pg_catalog.unnest($5)) v(tableoid, tid)"
									 " WHERE s.ctid OPERATOR(pg_catalog.=) v.tid"
									 " AND s.tableoid OPERATOR(pg_catalog.=) v.tableoid RETURNING 1),"
									 " i AS (INSERT INTO %1$s (player_a, player_b, covariance)"
									 " SELECT LEAST(CAST(u.a AS %2$s), CAST(u.b AS %2$s)),"
									 " GREATEST(CAST(u.a AS %2$s), CAST(u.b AS %2$s)), u.c"
									 " FROM ROWS FROM (pg_catalog.unnest($6), pg_catalog.unnest($7),"
									 " pg_catalog.unnest($8)) u(a, b, c) RETURNING 1)"
									 " SELECT (SELECT pg_catalog.count(*) FROM u), (SELECT pg_catalog.count(*) FROM d),"
									 " (SELECT pg_catalog.count(*) FROM i)",
									 store, kt),
							8, write_types);
}

static int
compare_keys(const void *x, const void *y, void *arg)
{
	const GlickoLiveMates *s = arg;

	return DatumGetInt32(FunctionCall2Coll((FmgrInfo *) &s->key_cmp, s->key_collation,
										   *(const Datum *) x, *(const Datum *) y));
}

/* A partner's number (n_keys on), by binary search. */
static int
partner_number(const GlickoLiveMates *s, const GlickoLiveStore *st, Datum key)
{
	int			lo = 0,
				hi = st->n_partners - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;
		int			c = compare_keys(&st->partner_key[mid], &key, (void *) s);

		if (c == 0)
			return st->n_keys + mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	elog(ERROR, "live teammates: a partner not read");
	return -1;
}

/* An integer key's value (keys of two integer types match: relation.c). */
static int64
integer_value(Oid type, Datum d)
{
	return type == INT2OID ? DatumGetInt16(d) : type == INT4OID ? DatumGetInt32(d) : DatumGetInt64(d);
}

/* A player's key (of key_type) against a partner's (the ratings key's type). */
static int
compare_across(const GlickoLiveMates *s, Oid key_type, Datum key, Datum partner)
{
	int64		x,
				y;

	if (key_type == s->key_type)
		return compare_keys(&key, &partner, (void *) s);
	x = integer_value(key_type, key);
	y = integer_value(s->key_type, partner);
	return (x > y) - (x < y);
}

/* Room for `size` pairs. */
static void
grow(GlickoLiveStore *st, int size)
{
	if (st->size == 0)
	{
		st->a = palloc(sizeof(int) * size);
		st->b = palloc(sizeof(int) * size);
		st->covariance = palloc(sizeof(double) * size);
		st->alive = palloc(sizeof(bool) * size);
		st->next_a = palloc(sizeof(int) * size);
		st->next_b = palloc(sizeof(int) * size);
		st->stamp = palloc0(sizeof(int) * size);
	}
	else
	{
		st->a = repalloc(st->a, sizeof(int) * size);
		st->b = repalloc(st->b, sizeof(int) * size);
		st->covariance = repalloc(st->covariance, sizeof(double) * size);
		st->alive = repalloc(st->alive, sizeof(bool) * size);
		st->next_a = repalloc(st->next_a, sizeof(int) * size);
		st->next_b = repalloc(st->next_b, sizeof(int) * size);
		st->stamp = repalloc(st->stamp, sizeof(int) * size);
		memset(st->stamp + st->size, 0, sizeof(int) * (size - st->size));
	}
	st->size = size;
}

/* Pair k at the head of both its players' lists. */
static void
link_pair(GlickoLiveStore *st, int k)
{
	st->next_a[k] = st->head[st->a[k]];
	st->head[st->a[k]] = k;
	st->next_b[k] = st->head[st->b[k]];
	st->head[st->b[k]] = k;
}

GlickoLiveStore *
glicko_live_mates_read(const GlickoLiveMates *s, GlickoLiveEntry *e, const GlickoLiveRatings *rt,
					   Oid key_type, int n, const Datum *keys)
{
	GlickoLiveStore *st = palloc0(sizeof(GlickoLiveStore));
	Datum		arg = glicko_live_array(keys, n, key_type);
	int			ret;
	TupleDesc	desc;
	SPITupleTable *pairs;
	uint64		n_rows;
	int16		typlen;
	bool		typbyval;

	st->n_keys = n;
	ret = SPI_execute_plan(e->plans[LOCK_PLAN(s)], &arg, NULL, false, 0);
	if (ret != SPI_OK_SELECT)
		elog(ERROR, "live teammates: lock of the store failed: %s", SPI_result_code_string(ret));
	pairs = SPI_tuptable;
	n_rows = SPI_processed;
	desc = pairs->tupdesc;
	st->size = 0;
	grow(st, (int) n_rows + 16);
	st->locked_tableoid = palloc(sizeof(Datum) * (n_rows + 1));
	st->locked_tid = palloc(sizeof(Datum) * (n_rows + 1));
	st->partner_key = palloc(sizeof(Datum) * (2 * n_rows + 1));
	get_typlenbyval(rt->key_type, &typlen, &typbyval);

	/* The partners: the pairs' players who are not the statement's. */
	for (uint64 i = 0; i < n_rows; i++)
	{
		HeapTuple	tup = pairs->vals[i];
		bool		isnull;

		for (int side = 0; side < 2; side++)
		{
			(void) SPI_getbinval(tup, desc, 1 + side, &isnull);
			if (isnull)
				st->partner_key[st->n_partners++] =
					datumCopy(SPI_getbinval(tup, desc, 3 + side, &isnull), typbyval, typlen);
		}
	}
	qsort_arg(st->partner_key, st->n_partners, sizeof(Datum), compare_keys, (void *) s);
	{
		int			k = 0;

		for (int i = 0; i < st->n_partners; i++)
			if (k == 0 || compare_keys(&st->partner_key[k - 1], &st->partner_key[i], (void *) s) != 0)
				st->partner_key[k++] = st->partner_key[i];
		st->n_partners = k;
	}

	for (uint64 i = 0; i < n_rows; i++)
	{
		HeapTuple	tup = pairs->vals[i];
		bool		isnull;
		int			x[2];
		double		c = DatumGetFloat8(SPI_getbinval(tup, desc, 5, &isnull));

		for (int side = 0; side < 2; side++)
		{
			int			position = DatumGetInt32(SPI_getbinval(tup, desc, 1 + side, &isnull));

			x[side] = isnull ? partner_number(s, st, SPI_getbinval(tup, desc, 3 + side, &isnull)) :
				position - 1;
		}
		st->a[i] = Min(x[0], x[1]);
		st->b[i] = Max(x[0], x[1]);
		st->covariance[i] = c;
		st->alive[i] = st->a[i] != st->b[i];
		st->locked_tid[i] = PointerGetDatum(DatumGetPointer(SPI_getbinval(tup, desc, 6, &isnull)));
		st->locked_tid[i] = datumCopy(st->locked_tid[i], false, sizeof(ItemPointerData));
		st->locked_tableoid[i] = SPI_getbinval(tup, desc, 7, &isnull);
	}
	st->n_locked = (int) n_rows;

	/* The partners' rows, read after the pairs' locks: they hold still. */
	st->partner_row = palloc0(sizeof(GlickoLiveRow) * (st->n_partners + 1));
	if (st->n_partners > 0)
		glicko_live_read_players(e->plans[READ_PLAN(s)], rt, st->n_partners, st->partner_key,
								 st->partner_row);

	/* Each player's pairs, as lists. */
	st->head = palloc(sizeof(int) * (n + st->n_partners + 1));
	for (int x = 0; x < n + st->n_partners; x++)
		st->head[x] = -1;
	for (int k = 0; k < st->n_locked; k++)
		link_pair(st, k);
	st->n_pairs = st->n_locked;
	st->match_cxt = AllocSetContextCreate(CurrentMemoryContext, "live teammates match",
										  ALLOCSET_DEFAULT_SIZES);

	/* Key order: the players' and the partners', merged. */
	st->rank = palloc(sizeof(int) * (n + st->n_partners + 1));
	for (int i = 0, j = 0, r = 0; i < n || j < st->n_partners; r++)
	{
		if (j == st->n_partners ||
			(i < n && compare_across(s, key_type, keys[i], st->partner_key[j]) < 0))
			st->rank[i++] = r;
		else
			st->rank[n + j++] = r;
	}
	return st;
}

static int
compare_rank(const void *x, const void *y, void *arg)
{
	const int  *rank = arg;
	int			a = rank[*(const int *) x],
				b = rank[*(const int *) y];

	return (a > b) - (a < b);
}

/* The local number of statement number g (-1: not in the match's period). */
static int
local_number(const GlickoLiveStore *st, int g)
{
	int			lo = 0,
				hi = st->n_local - 1;

	while (lo <= hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (st->local[mid] == g)
			return mid;
		if (st->rank[st->local[mid]] < st->rank[g])
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

void
glicko_live_mates_match(GlickoLiveStore *st, const GlickoTeamMatch *match, const int *player,
						TimestampTz at, const GlickoLiveRow *locked, const GlickoLiveOptions *opt,
						GlickoSums *sums, const char *what)
{
	int			n = match->n_players;
	int			n_local = 0;
	int		   *local;
	bool	   *in_match;
	int		   *taken;
	int			n_taken = 0;
	int		   *pair_a,
			   *pair_b;
	double	   *pair_cov;
	int			n_in = 0;
	int		   *row_match,
			   *row_player;
	GlickoMatesPeriod in;
	GlickoMatesStatus status;
	MemoryContext old;

	MemoryContextReset(st->match_cxt);
	old = MemoryContextSwitchTo(st->match_cxt);
	st->match_no++;

	/*
	 * The stored pairs of the match's players (each once), through their
	 * lists.
	 */
	taken = palloc(sizeof(int) * (GLICKO_MATES_MAX_PAIRS * n + 1));
	for (int p = 0; p < n; p++)
		for (int k = st->head[player[p]]; k >= 0; k = st->a[k] == player[p] ? st->next_a[k] : st->next_b[k])
			if (st->alive[k] && st->stamp[k] != st->match_no)
			{
				st->stamp[k] = st->match_no;
				if (n_taken % (GLICKO_MATES_MAX_PAIRS * n) == 0 && n_taken > 0)
					taken = repalloc(taken, sizeof(int) * (n_taken + GLICKO_MATES_MAX_PAIRS * n + 1));
				taken[n_taken++] = k;
			}

	/* The match's players and their partners, numbered in key order. */
	local = palloc(sizeof(int) * (n + 2 * n_taken + 1));
	for (int p = 0; p < n; p++)
		local[n_local++] = player[p];
	for (int i = 0; i < n_taken; i++)
	{
		local[n_local++] = st->a[taken[i]];
		local[n_local++] = st->b[taken[i]];
	}
	qsort_arg(local, n_local, sizeof(int), compare_rank, st->rank);
	{
		int			k = 0;

		for (int i = 0; i < n_local; i++)
			if (k == 0 || local[k - 1] != local[i])
				local[k++] = local[i];
		n_local = k;
	}
	st->local = local;
	st->n_local = n_local;
	st->local_rating = palloc(sizeof(Glicko2Rating) * n_local);
	in_match = palloc0(sizeof(bool) * n_local);
	st->in_match = in_match;
	row_match = palloc0(sizeof(int) * n);
	row_player = palloc(sizeof(int) * n);
	for (int p = 0; p < n; p++)
	{
		int			x = local_number(st, player[p]);

		in_match[x] = true;
		st->local_rating[x] = match->rating[p];
		row_player[p] = x;
	}
	/* A partner outside the match: his rating as of the match. */
	for (int x = 0; x < n_local; x++)
		if (!in_match[x])
		{
			const GlickoLiveRow *row = local[x] < st->n_keys ? &locked[local[x]] :
			&st->partner_row[local[x] - st->n_keys];

			glicko_report_status(glicko2_grown(&row->rating, glicko_live_idle(row, at, opt->period_usecs),
											   opt->max_rd, &st->local_rating[x]),
								 what);
		}

	/* Those pairs for the period, replaced by its result's. */
	pair_a = palloc(sizeof(int) * (n_taken + 1));
	pair_b = palloc(sizeof(int) * (n_taken + 1));
	pair_cov = palloc(sizeof(double) * (n_taken + 1));
	for (int i = 0; i < n_taken; i++)
	{
		int			k = taken[i],
					x = local_number(st, st->a[k]),
					y = local_number(st, st->b[k]);

		pair_a[n_in] = Min(x, y);
		pair_b[n_in] = Max(x, y);
		pair_cov[n_in] = st->covariance[k];
		n_in++;
		st->alive[k] = false;
	}

	memset(&in, 0, sizeof(in));
	in.method = match->method;
	in.max_rd = opt->max_rd;
	in.elapsed = 0.0;
	in.recur = 1;
	in.n_players = n_local;
	in.rating = st->local_rating;
	in.n_rows = n;
	in.row_match = row_match;
	in.row_team = match->team;
	in.row_player = row_player;
	in.row_place = palloc(sizeof(int64_t) * n);
	for (int p = 0; p < n; p++)
		((int64_t *) in.row_place)[p] = match->place[match->team[p]];
	in.row_share = match->share;
	in.row_party = match->party;
	in.advantage = match->advantage;
	in.n_pairs = n_in;
	in.pair_a = pair_a;
	in.pair_b = pair_b;
	in.pair_covariance = pair_cov;
	status = glicko_mates_period(&in, &glicko_mm_server_env, &st->result);
	if (status != GLICKO_MATES_OK)
		ereport(ERROR,
				errcode(ERRCODE_DATA_EXCEPTION),
				errmsg("%s: the teammates store holds a bad pair", what),
				errdetail("Each pair is two players, player_a < player_b, with a finite covariance."));
	for (int k = 0; k < st->result.n_terms; k++)
	{
		const GlickoMatesTerm *term = &st->result.terms[k];

		for (int p = 0; p < n; p++)
			if (row_player[p] == term->player)
				glicko_add_terms(&sums[p], &term->terms);
	}
	MemoryContextSwitchTo(old);
}

void
glicko_live_mates_after(GlickoLiveStore *st, const GlickoLiveRow *locked)
{
	for (int k = 0; k < st->result.n_pairs; k++)
	{
		const GlickoMatesPair *pr = &st->result.pairs[k];
		int			x[2] = {pr->a, pr->b};
		double		rd[2];

		/* (a player of the match: his new RD; a partner: his, as of it) */
		for (int side = 0; side < 2; side++)
			rd[side] = st->in_match[x[side]] ? locked[st->local[x[side]]].rating.rd :
				st->local_rating[x[side]].rd;
		if (st->n_pairs == st->size)
			grow(st, 2 * st->size);
		st->a[st->n_pairs] = Min(st->local[x[0]], st->local[x[1]]);
		st->b[st->n_pairs] = Max(st->local[x[0]], st->local[x[1]]);
		st->covariance[st->n_pairs] = pr->correlation * rd[0] * rd[1];
		st->alive[st->n_pairs] = true;
		link_pair(st, st->n_pairs);
		st->n_pairs++;
	}
}

/*
 * A pair kept is its locked row updated (a statement waiting for that row
 * follows the update and reads it: a delete and an insert would hide it),
 * a pair dropped its row deleted, a new pair inserted.
 */
void
glicko_live_mates_write(const GlickoLiveMates *s, GlickoLiveEntry *e, const GlickoLiveRatings *rt,
						GlickoLiveStore *st, Oid key_type, const Datum *keys, const char *what)
{
	int		   *row = palloc(sizeof(int) * (st->n_pairs + 1));
	int		   *locked_at = palloc(sizeof(int) * (st->n_keys + st->n_partners + 1));
	int		   *next = palloc(sizeof(int) * (st->n_locked + 1));
	bool	   *kept = palloc0(sizeof(bool) * (st->n_locked + 1));
	Datum	   *u_tableoid = palloc(sizeof(Datum) * (st->n_locked + 1)),
			   *u_tid = palloc(sizeof(Datum) * (st->n_locked + 1)),
			   *u_c = palloc(sizeof(Datum) * (st->n_locked + 1)),
			   *d_tableoid = palloc(sizeof(Datum) * (st->n_locked + 1)),
			   *d_tid = palloc(sizeof(Datum) * (st->n_locked + 1)),
			   *i_a = palloc(sizeof(Datum) * (st->n_pairs + 1)),
			   *i_b = palloc(sizeof(Datum) * (st->n_pairs + 1)),
			   *i_c = palloc(sizeof(Datum) * (st->n_pairs + 1));
	Datum		args[8];
	int			meant[3] = {0, 0, 0};
	int			ret;
	const char *message;

	/* The locked rows by their first player (lists), for the pairs after. */
	for (int x = 0; x < st->n_keys + st->n_partners; x++)
		locked_at[x] = -1;
	for (int i = st->n_locked - 1; i >= 0; i--)
	{
		next[i] = locked_at[st->a[i]];
		locked_at[st->a[i]] = i;
	}
	/* (every locked row was consumed by a match: the pairs after are new) */
	for (int k = st->n_locked; k < st->n_pairs; k++)
	{
		row[k] = -1;
		if (!st->alive[k])
			continue;
		for (int i = locked_at[st->a[k]]; i >= 0 && row[k] < 0; i = next[i])
			if (!kept[i] && st->b[i] == st->b[k])
			{
				row[k] = i;
				kept[i] = true;
			}
		if (row[k] >= 0)
		{
			u_tableoid[meant[0]] = st->locked_tableoid[row[k]];
			u_tid[meant[0]] = st->locked_tid[row[k]];
			u_c[meant[0]++] = Float8GetDatum(st->covariance[k]);
		}
		else
		{
			int			x[2] = {st->a[k], st->b[k]};
			Datum	   *out[2] = {&i_a[meant[2]], &i_b[meant[2]]};

			for (int side = 0; side < 2; side++)
				*out[side] = CStringGetTextDatum(x[side] < st->n_keys ?
												 glicko_live_key_text(key_type, keys[x[side]]) :
												 glicko_live_key_text(rt->key_type,
																	  st->partner_key[x[side] - st->n_keys]));
			i_c[meant[2]++] = Float8GetDatum(st->covariance[k]);
		}
	}
	for (int i = 0; i < st->n_locked; i++)
		if (!kept[i])
		{
			d_tableoid[meant[1]] = st->locked_tableoid[i];
			d_tid[meant[1]++] = st->locked_tid[i];
		}
	if (meant[0] + meant[1] + meant[2] == 0)
		return;

	args[0] = glicko_live_array(u_tableoid, meant[0], OIDOID);
	args[1] = glicko_live_array(u_tid, meant[0], TIDOID);
	args[2] = glicko_live_array(u_c, meant[0], FLOAT8OID);
	args[3] = glicko_live_array(d_tableoid, meant[1], OIDOID);
	args[4] = glicko_live_array(d_tid, meant[1], TIDOID);
	args[5] = glicko_live_array(i_a, meant[2], TEXTOID);
	args[6] = glicko_live_array(i_b, meant[2], TEXTOID);
	args[7] = glicko_live_array(i_c, meant[2], FLOAT8OID);
	ret = SPI_execute_plan(e->plans[WRITE_PLAN(s)], args, NULL, false, 0);
	if (ret != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "live teammates: write of the store failed: %s", SPI_result_code_string(ret));
	message = psprintf("teammates store of %s", what);
	for (int k = 0; k < 3; k++)
	{
		bool		isnull;
		int64		written = DatumGetInt64(SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc,
														  k + 1, &isnull));

		glicko2_require_written(s->relid, written, meant[k], message);
	}
}
