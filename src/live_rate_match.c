/*
 * live_rate_match.c — glicko2_rate_match(ratings, matches, match_id,
 * VARIADIC options): one team or free-for-all match rated in the caller's
 * transaction, for a matches table no statement trigger can serve.  On
 * Citus a trigger runs on a shard and cannot lock players' rows on other
 * workers; this function runs where the match is written (the coordinator
 * or a worker): it reads the match's rows by its id (a router query to the
 * shard holding the match, the matches table distributed by match id) and
 * names one player by the ratings key in each statement on the ratings
 * (live_keyed.c: a router query to his shard); the commit is Citus's
 * two-phase commit.  On a plain table it is the same statements.
 *
 * The match's rows are read and checked, grouped and rated by what the
 * glicko2_rate_matches trigger runs (live_matches.c): the same bits as the
 * trigger rating a statement that inserted exactly those rows.  Its players
 * are locked in key order (the ratings key's order, as glicko2_rate_game),
 * one statement each, missing ones added as unrated; then each row is
 * written by key.  A transaction so holds rows of keys below the one it
 * waits for, never above: matches and single games rated this way never
 * wait in a cycle.  A teammates store is refused: its pairs' rows are keyed
 * by two players and are read and written by sets, not one row by key.
 */
#include "postgres.h"

#include "access/table.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "live_game.h"
#include "live_keyed.h"
#include "live_matches.h"
#include "live_rows.h"

#define WHO "glicko2_rate_match"

/* The select of the match's rows: its columns in MATCH_COL order, then the party. */
static char *
select_sql(const GlickoMatchSetup *t, Relation matches, AttrNumber *attnums)
{
	StringInfoData sql;
	int			n = 0;

	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	for (int c = 0; c < MATCH_N_COLUMNS; c++)
		if (c != MATCH_COL_WEIGHT || t->has_weight)
		{
			appendStringInfo(&sql, "%sm.%s", n > 0 ? ", " : "", quote_identifier(t->col[c].name));
			attnums[c] = ++n;
		}
	if (t->party_column)
	{
		appendStringInfo(&sql, ", m.%s", quote_identifier(t->party_column));
		attnums[MATCH_N_COLUMNS] = ++n;
	}
	appendStringInfo(&sql, " FROM %s m WHERE m.%s %s CAST($1 AS %s)",
					 quote_qualified_identifier(get_namespace_name(RelationGetNamespace(matches)),
												RelationGetRelationName(matches)),
					 quote_identifier(t->col[MATCH_COL_MATCH].name),
					 glicko_live_qualified_equality(t->col[MATCH_COL_MATCH].type, "match"),
					 format_type_be_qualified(t->col[MATCH_COL_MATCH].type));
	return sql.data;
}

/* Players' numbers sorted by the ratings key's order (its collation). */
typedef struct KeyOrder
{
	const GlickoMatchSetup *t;
	const Datum *keys;
	Oid			collation;
} KeyOrder;

static int
compare_keys(const void *a, const void *b, void *arg)
{
	const KeyOrder *o = arg;
	const GlickoMatchColumn *col = &o->t->col[MATCH_COL_PLAYER];

	return DatumGetInt32(FunctionCall2Coll((FmgrInfo *) &col->cmp, o->collation,
										   o->keys[*(const int *) a], o->keys[*(const int *) b]));
}

/*
 * glicko2_rate_match(ratings regclass, matches regclass, match_id
 * anyelement, VARIADIC options text[]).
 */
PG_FUNCTION_INFO_V1(glicko2_rate_match);
Datum
glicko2_rate_match(PG_FUNCTION_ARGS)
{
	Oid			id_type = get_fn_expr_argtype(fcinfo->flinfo, 2);
	GlickoMatchSetup t = {0};
	const char *names[MATCH_N_COLUMNS];
	AttrNumber	attnums[MATCH_N_COLUMNS + 1] = {0};
	Relation	matches;
	const char *table;
	GlickoKeyedSql q;
	GlickoMatchRow *rows;
	GlickoMatch *m;
	Datum	   *keys;
	int		   *order;
	GlickoLiveRow *locked;
	TupleTableSlot *slot;
	KeyOrder	ko;
	char	  **args;
	int			n_args;
	int			n_rows,
				n_matches,
				n_keys;
	int			ret;

	glicko_live_require_arg(fcinfo, 0, "ratings");
	glicko_live_require_arg(fcinfo, 1, "matches");
	glicko_live_require_arg(fcinfo, 2, "match_id");

	glicko_match_setup_init(&t, names);
	args = glicko_live_option_args(fcinfo, 3, WHO, glicko_match_option_names, &n_args);
	for (int i = 0; i < n_args; i++)
		glicko_match_option(args[i], &t, names, WHO, CurrentMemoryContext);
	if (t.teammates)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg(WHO " cannot keep a teammates store (teammates=%s)", t.teammates),
				errdetail("The store holds a row per pair of recurring teammates, read and rewritten with every match; "
						  "glicko2_rate_match writes one player's row by key per statement and so cannot keep it."),
				errhint("Without the store the league loses the covariances between recurring teammates: "
						"each match is rated with independent posteriors.  Keep the store with the "
						"glicko2_rate_matches trigger on one node, or rate by periods with "
						"glicko2_close_matches(..., teammates => ...) (docs/citus.md, Live ratings)."));

	matches = table_open(PG_GETARG_OID(1), AccessShareLock);
	table = RelationGetRelationName(matches);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, WHO ": SPI_connect failed");
	glicko_match_columns(&t, matches, names, CurrentMemoryContext);
	glicko_live_check_ratings(&t.ratings, &t.opt, PG_GETARG_OID(0), t.col[MATCH_COL_PLAYER].type,
							  names[MATCH_COL_PLAYER], get_func_namespace(fcinfo->flinfo->fn_oid),
							  CurrentMemoryContext);

	/* The match's rows, checked as the trigger checks a statement's. */
	{
		Datum		id = PG_GETARG_DATUM(2);

		ret = SPI_execute_with_args(select_sql(&t, matches, attnums), 1, &id_type, &id,
									NULL, false, 0);
	}
	if (ret != SPI_OK_SELECT)
		elog(ERROR, WHO ": the read of the match failed: %s", SPI_result_code_string(ret));
	n_rows = (int) SPI_processed;
	if (n_rows == 0)
		ereport(ERROR,
				errcode(ERRCODE_NO_DATA_FOUND),
				errmsg("bad match given to " WHO ": %s has no rows of %s %s",
					   table, t.col[MATCH_COL_MATCH].name,
					   glicko_live_key_text(id_type, PG_GETARG_DATUM(2))),
				errdetail("Call it in the transaction that writes the match's rows, after they are written."));
	rows = palloc(sizeof(GlickoMatchRow) * n_rows);
	slot = MakeSingleTupleTableSlot(SPI_tuptable->tupdesc, &TTSOpsHeapTuple);
	for (int i = 0; i < n_rows; i++)
	{
		ExecStoreHeapTuple(SPI_tuptable->vals[i], slot, false);
		glicko_match_read_row(&t, table, slot, attnums, &rows[i]);
	}
	ExecDropSingleTupleTableSlot(slot);
	m = glicko_match_group(&t, table, rows, n_rows, &n_matches);
	keys = glicko_match_number_players(&t, rows, n_rows, &n_keys);

	/* Each player locked in the ratings key's order; missing ones added. */
	order = palloc(sizeof(int) * n_keys);
	for (int i = 0; i < n_keys; i++)
		order[i] = i;
	ko.t = &t;
	ko.keys = keys;
	ko.collation = t.ratings.key_collation;
	qsort_arg(order, n_keys, sizeof(int), compare_keys, &ko);
	glicko_keyed_sql(&q, &t.ratings, t.col[MATCH_COL_PLAYER].type,
					 psprintf("a match given to " WHO " (%s %s of %s)", t.col[MATCH_COL_MATCH].name,
							  glicko_live_key_text(t.col[MATCH_COL_MATCH].type, rows[0].match), table));
	locked = palloc(sizeof(GlickoLiveRow) * n_keys);
	for (int i = 0; i < n_keys; i++)
		glicko_keyed_lock(&q, &t.ratings, t.col[MATCH_COL_PLAYER].type, keys[order[i]],
						  rows[0].played_at, &locked[order[i]]);

	glicko_match_rate(&t, table, rows, m, n_matches, locked, NULL);

	for (int i = 0; i < n_keys; i++)
		glicko_keyed_write(&q, &t.ratings, keys[order[i]], &locked[order[i]]);
	SPI_finish();
	table_close(matches, AccessShareLock);
	PG_RETURN_VOID();
}
