/*
 * live_rows.h — what the live triggers (glicko2_rate_games in
 * live_trigger.c, glicko2_rate_matches in live_matches.c) share: their
 * options, the ratings table's checks and the pieces of their statements,
 * a cache of each trigger's prepared statements, and the reading of a
 * locked ratings row.
 */
#ifndef GLICKO2_LIVE_ROWS_H
#define GLICKO2_LIVE_ROWS_H

#include "postgres.h"

#include "access/htup.h"
#include "access/tupdesc.h"
#include "commands/trigger.h"
#include "datatype/timestamp.h"
#include "executor/spi.h"
#include "storage/itemptr.h"

#include "compat.h"
#include "core/glicko_math.h"

/* The options every live trigger takes (strings in the entry's cxt). */
typedef struct GlickoLiveOptions
{
	double		period_usecs;
	double		tau;
	double		max_rd;			/* INFINITY: no cap */
	char	   *player_column;	/* of ratings */
	char	   *rating_column;
	char	   *rated_at_column;
} GlickoLiveOptions;

extern void glicko_live_options_init(GlickoLiveOptions *opt);

/* Split 'name=value' (name palloc'd), or an ERROR listing option_names. */
extern void glicko_live_option_split(const char *arg, const char *trigger_name,
									 const char *option_names,
									 char **name, const char **value);

/* Set a common option; false if `name` is not one. */
extern bool glicko_live_common_option(const char *name, const char *value,
									  GlickoLiveOptions *opt, MemoryContext cxt);

glicko_noreturn extern void glicko_live_unknown_option(const char *trigger_name,
													   const char *name,
													   const char *option_names);

/* The attnum of a column, or an error naming it and the option that names it. */
extern AttrNumber glicko_live_column_attnum(Oid relid, const char *column, const char *option);

/* ERROR unless the column has the type wanted. */
extern void glicko_live_require_type(Oid relid, AttrNumber attnum, Oid want,
									 const char *want_name);

/* OPERATOR(schema.=) for the type's default equality (ERROR if it has no btree class). */
extern char *glicko_live_qualified_equality(Oid type, const char *what);

/* The ratings table a trigger writes, checked, and its statements' pieces. */
typedef struct GlickoLiveRatings
{
	Oid			relid;
	Oid			key_type;		/* of its player column */
	Oid			rating_type;	/* the extension's glicko2_rating */
	TupleDesc	rating_desc;	/* its descriptor, blessed (in the entry's cxt) */
	/* quoted, for statements (palloc'd in the caller's context) */
	const char *name;			/* schema-qualified */
	const char *key;
	const char *rating;
	const char *rated_at;
	const char *eq;				/* the key's equality, OPERATOR(schema.=) */
	const char *key_type_name;	/* qualified */
	Glicko2Rating unrated;		/* a new or NULL-rated player: glicko2_unrated(max_rd) */
} GlickoLiveRatings;

/*
 * Resolve the trigger's first argument (unqualified: in the table's
 * schema), check its columns against opt and the player column of the
 * trigger's table (source_key_type, source_column: same type, or both
 * integers), require a unique key of its own; its unrated player from
 * opt->max_rd.
 */
extern void glicko_live_open_ratings(GlickoLiveRatings *rt, const GlickoLiveOptions *opt,
									 TriggerData *trigdata, Oid source_key_type,
									 const char *source_column,
									 Oid extension_namespace, MemoryContext cxt);

/* SPI_prepare and SPI_keepplan, or ERROR. */
extern SPIPlanPtr glicko_live_prepare(const char *sql, int nargs, Oid *types);

/*
 * Each trigger's entry, by trigger OID: built on first use and kept until
 * DDL on its table, a table above or below it, or its ratings table (a
 * relcache invalidation).
 */
#define GLICKO_LIVE_PLANS 4

typedef struct GlickoLiveEntry
{
	Oid			trigger_oid;	/* hash key */
	bool		valid;
	int			active;			/* calls under way (nested): keep its statements */
	MemoryContext cxt;			/* what a build allocates; reset by the next */
	Oid			table_relid;	/* the games or matches table */
	Oid			ratings_relid;
	Oid			top_relid;		/* the topmost table above reached through
								 * tables with a trigger like this one (or
								 * table_relid) */
	Oid		   *hierarchy;		/* the tables above and below (in cxt) */
	int			n_hierarchy;
	SPIPlanPtr	plans[GLICKO_LIVE_PLANS];
	void	   *state;			/* the trigger's own, in cxt */
} GlickoLiveEntry;

/* Fill in ratings_relid, plans and state (in cxt, reset). */
typedef void (*GlickoLiveBuild) (GlickoLiveEntry *entry, TriggerData *trigdata,
								 Oid extension_namespace);

/*
 * The trigger's entry, built or rebuilt as needed (not while a call of it
 * is under way: a nested call uses the same statements, which the plan
 * cache revalidates, and the trigger's table cannot change while it is
 * being written); inside an SPI connection.  While it runs, the caller
 * counts itself in `active`, so that a nested live trigger of another
 * table, invalidated by a trigger of the ratings table, does not free this
 * entry's statements under it.  A trigger is refused (55000) while a
 * partition or inheritance child below its table lacks a trigger like it
 * (glicko2_internal.glicko2_live_trigger_scope): rows written straight to
 * that table would never be rated.
 */
extern GlickoLiveEntry *glicko_live_entry(TriggerData *trigdata, Oid extension_namespace,
										  GlickoLiveBuild build);

/* A player's locked ratings row. */
typedef struct GlickoLiveRow
{
	bool		found;
	bool		unrated;		/* a NULL rating: never grown */
	Glicko2Rating rating;		/* as stored (the ratings' unrated player if NULL) */
	TimestampTz rated_at;
	bool		rated_at_null;	/* unknown: never grown */
	ItemPointerData tid;		/* the locked version: FOR NO KEY UPDATE
								 * returns the latest one */
	Oid			tableoid;		/* the table (partition, child) holding it */
} GlickoLiveRow;

/*
 * Read a locked row whose columns first..first+3 are rating, rated_at,
 * ctid, tableoid.  key names the player in errors; a second row of a
 * player already found is an ERROR (an inheritance parent's unique key
 * does not cover its children).
 */
extern void glicko_live_read_row(GlickoLiveRow *row, HeapTuple tup, TupleDesc desc, int first,
								 const GlickoLiveRatings *rt, Oid key_type, Datum key);

/* Periods the row's rating sat idle until `at` (0: unrated, unknown time, or earlier). */
extern double glicko_live_idle(const GlickoLiveRow *row, TimestampTz at, double period_usecs);

/* rated_at after a rating at `at`: never moves back. */
extern TimestampTz glicko_live_rated_at(const GlickoLiveRow *row, TimestampTz at);

/* A key as text for messages. */
extern char *glicko_live_key_text(Oid type, Datum key);

#endif							/* GLICKO2_LIVE_ROWS_H */
