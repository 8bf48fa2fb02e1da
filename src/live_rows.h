/*
 * live_rows.h — what the live triggers (glicko2_rate_games in
 * live_trigger.c, glicko2_rate_matches in live_matches.c) share: their
 * options, the ratings table's checks, the statements that lock, add and
 * write its rows and their runs, a cache of each trigger's prepared
 * statements, and the reading of a locked ratings row.
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
#include "core/league_math.h"

/* The options every live trigger takes (strings in the entry's cxt). */
typedef struct GlickoLiveOptions
{
	double		period_usecs;
	double		tau;
	double		max_rd;			/* INFINITY: no cap */
	GlickoCaps	caps;			/* floors and caps, off by default */
	const char *player_column;	/* of ratings */
	const char *rating_column;
	const char *rated_at_column;
} GlickoLiveOptions;

/* The defaults: a day, tau 0.5, max_rd 350, no caps, player_id, rating, rated_at. */
extern void glicko_live_options_init(GlickoLiveOptions *opt);

/*
 * Split 'name=value' (name palloc'd), or an ERROR listing option_names;
 * `who` names the caller in errors ("trigger t", "glicko2_rate_game").
 */
extern void glicko_live_option_split(const char *arg, const char *who,
									 const char *option_names,
									 char **name, const char **value);

/* Set a common option; false if `name` is not one. */
extern bool glicko_live_common_option(const char *name, const char *value,
									  GlickoLiveOptions *opt, MemoryContext cxt);

/*
 * The VARIADIC options text[] of a SQL-callable function (argument argno;
 * NULL: none) as C strings, n of them; ERROR on a NULL one.
 */
extern char **glicko_live_option_args(FunctionCallInfo fcinfo, int argno, const char *who,
									  const char *option_names, int *n);

glicko_noreturn extern void glicko_live_unknown_option(const char *who,
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
	Oid			key_collation;	/* of its player column */
	Oid			rating_type;	/* the extension's glicko2_rating */
	TupleDesc	rating_desc;	/* its descriptor, blessed (in the entry's
								 * cxt) */
	/* quoted, for statements (palloc'd in the caller's context) */
	const char *name;			/* schema-qualified */
	const char *key;
	const char *rating;
	const char *rated_at;
	const char *eq;				/* the key's equality, OPERATOR(schema.=) */
	const char *key_type_name;	/* qualified */
	Glicko2Rating unrated;		/* a new or NULL-rated player:
								 * glicko2_unrated(max_rd) */
} GlickoLiveRatings;

/* A relation a trigger's argument names (unqualified: in table's schema), or InvalidOid. */
extern Oid	glicko_live_relation(const char *name, Relation table);

/*
 * Check the ratings table relid's columns against opt and the type of the
 * players' keys (source_key_type, of source_what, which names it in
 * errors: same type, or both integers), require a unique key of its own;
 * its unrated player from opt->max_rd.
 */
extern void glicko_live_check_ratings(GlickoLiveRatings *rt, const GlickoLiveOptions *opt,
									  Oid relid, Oid source_key_type, const char *source_what,
									  Oid extension_namespace, MemoryContext cxt);

/*
 * The same for a trigger: its first argument (unqualified: in the table's
 * schema), against the player column source_column of the trigger's table.
 */
extern void glicko_live_open_ratings(GlickoLiveRatings *rt, const GlickoLiveOptions *opt,
									 TriggerData *trigdata, Oid source_key_type,
									 const char *source_column,
									 Oid extension_namespace, MemoryContext cxt);

/* SPI_prepare and SPI_keepplan, or ERROR. */
extern SPIPlanPtr glicko_live_prepare(const char *sql, int nargs, Oid *types);

/* An array of n values of a type, for a statement's parameter. */
extern Datum glicko_live_array(const Datum *values, int n, Oid type);

/*
 * Each trigger's entry, by trigger OID: built on first use and kept until
 * DDL on its table, a table above or below it, or its ratings table (a
 * relcache invalidation).
 */
#define GLICKO_LIVE_PLANS 7

/* The statements every live trigger prepares (glicko_live_prepare_rows);
 * a trigger's own follow them in plans[]. */
#define GLICKO_LIVE_LOCK 0
#define GLICKO_LIVE_INSERT 1
#define GLICKO_LIVE_WRITE 2
#define GLICKO_LIVE_OWN 3

typedef struct GlickoLiveEntry
{
	Oid			trigger_oid;	/* hash key */
	bool		valid;
	int			active;			/* calls under way (nested): keep its
								 * statements */
	MemoryContext cxt;			/* what a build allocates; reset by the next */
	Oid			table_relid;	/* the games or matches table */
	Oid			ratings_relid;
	Oid			top_relid;		/* the topmost table above reached through
								 * tables with a trigger like this one (or
								 * table_relid) */
	Oid		   *hierarchy;		/* the tables above and below (in cxt) */
	int			n_hierarchy;
	SPIPlanPtr	plans[GLICKO_LIVE_PLANS];
	int			players;		/* of each statement (0: any number, arrays) */
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
	Glicko2Rating rating;		/* as stored (the ratings' unrated player if
								 * NULL) */
	TimestampTz rated_at;
	bool		rated_at_null;	/* unknown: never grown */
	ItemPointerData tid;		/* the locked version: FOR NO KEY UPDATE
								 * returns the latest one */
	Oid			tableoid;		/* the table (partition, child) holding it */
} GlickoLiveRow;

/*
 * Prepare GLICKO_LIVE_LOCK, GLICKO_LIVE_INSERT and GLICKO_LIVE_WRITE on the
 * ratings table rt (live_rows.c says what each does) for statements of
 * `players` players (keys of key_type), or of any number (players 0: the
 * values go as arrays); the write holds only where condition (SQL, or
 * NULL) does, which may use the n_extra parameters (types extra_types)
 * after the write's own (4 per player, or 4 arrays).
 */
extern void glicko_live_prepare_rows(GlickoLiveEntry *e, const GlickoLiveRatings *rt,
									 Oid key_type, int players, const char *condition,
									 int n_extra, const Oid *extra_types);

/*
 * Lock the ratings rows of n distinct players (keys, of type key_type) in
 * key order, adding those missing as unrated (rated_at: their element of
 * rated_at) and locking again; rows[i] is keys[i]'s.  Errors name the
 * write: "a new player of <noun> written to <table>".
 */
extern void glicko_live_lock_players(GlickoLiveEntry *e, const GlickoLiveRatings *rt,
									 Oid key_type, int n, const Datum *keys,
									 const Datum *rated_at, GlickoLiveRow *rows,
									 const char *noun, const char *table);

/*
 * Write rows[0..n) (each its new rating and rated_at) by table and TID;
 * extra: the condition's parameters.  Returns the rows written (0 where a
 * rule made it no UPDATE).
 */
extern int64 glicko_live_write_rows(GlickoLiveEntry *e, const GlickoLiveRatings *rt, int n,
									const GlickoLiveRow *rows, const Datum *extra,
									int n_extra);

/*
 * A statement reading players' rows without locking them (keys: an array of
 * the ratings key's type), and its run: rows[i] is keys[i]'s, a player
 * without a row unrated.
 */
extern SPIPlanPtr glicko_live_prepare_read(const GlickoLiveRatings *rt);
extern void glicko_live_read_players(SPIPlanPtr plan, const GlickoLiveRatings *rt, int n,
									 const Datum *keys, GlickoLiveRow *rows);

/*
 * A row's rating and rated_at as read (rating NULL: unrated; rated_at NULL:
 * unknown, never grown); ERROR on a bad stored rating, naming the player.
 */
extern void glicko_live_read_rating(GlickoLiveRow *row, Datum rating, bool rating_null,
									Datum rated_at, bool rated_at_null,
									const GlickoLiveRatings *rt, Oid key_type, Datum key);

/*
 * One game rated for both players from their locked rows (rows[0] the
 * player's, rows[1] the opponent's, each given its new rating and
 * rated_at); `what` names the game in errors.
 */
extern void glicko_live_rate_game(const GlickoLiveOptions *opt, GlickoLiveRow *rows,
								  double score, TimestampTz played_at, const char *what);

/* Periods the row's rating sat idle until `at` (0: unrated, unknown time, or earlier). */
extern double glicko_live_idle(const GlickoLiveRow *row, TimestampTz at, double period_usecs);

/* rated_at after a rating at `at`: never moves back. */
extern TimestampTz glicko_live_rated_at(const GlickoLiveRow *row, TimestampTz at);

/* A key as text for messages. */
extern char *glicko_live_key_text(Oid type, Datum key);

#endif							/* GLICKO2_LIVE_ROWS_H */
