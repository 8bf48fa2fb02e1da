/*
 * live_matches.h — what glicko2_rate_matches (live_matches.c) shares with
 * glicko2_rate_match (live_rate_match.c): the options and columns of a
 * matches table, the reading and checking of its rows, their grouping into
 * matches and the rating of the matches from their players' locked rows.
 * One definition: a match is rated the same bits by either.
 */
#ifndef GLICKO2_LIVE_MATCHES_H
#define GLICKO2_LIVE_MATCHES_H

#include "postgres.h"

#include "executor/tuptable.h"
#include "fmgr.h"
#include "utils/relcache.h"

#include "core/team.h"
#include "live_rows.h"
#include "live_teammates.h"

/* A column of the matches table: where it is, its type's order. */
typedef struct GlickoMatchColumn
{
	const char *name;
	AttrNumber	attnum;
	Oid			type;
	Oid			collation;
	FmgrInfo	cmp;			/* btree comparison (ordered columns) */
} GlickoMatchColumn;

enum
{
	MATCH_COL_MATCH, MATCH_COL_PLAYER, MATCH_COL_TEAM, MATCH_COL_PLACE, MATCH_COL_PLAYED_AT, MATCH_COL_WEIGHT, MATCH_N_COLUMNS
};

/*
 * The rules a matches table is rated by: options, columns, ratings (a
 * trigger's entry's state, built on first use and kept; glicko2_rate_match's
 * for one call).
 */
typedef struct GlickoMatchSetup
{
	GlickoLiveOptions opt;
	GlickoTeamMethod method;
	GlickoMatchColumn col[MATCH_N_COLUMNS];
	bool		has_weight;
	const char *party_column;	/* NULL: no parties */
	AttrNumber	party_attnum;
	Oid			party_type;
	Oid			party_collation;
	FmgrInfo	party_eq;
	GlickoTeamAdvantage advantage;
	const char *teammates;		/* the store's name, NULL: none */
	GlickoLiveMates mates;
	GlickoLiveRatings ratings;
	Oid			key_array_type; /* of the matches' player column */
	Oid			match_array_type;
	uint32		lock_space;		/* the top table's OID (top_relid), for the
								 * match locks */
} GlickoMatchSetup;

/* One row of a match, as read (a trigger's new rows, glicko2_rate_match's select). */
typedef struct GlickoMatchRow
{
	Datum		match;
	Datum		player;
	Datum		team;
	int64		place;
	TimestampTz played_at;
	double		share;
	int			key;			/* the player's number among the statement's
								 * players */
	int			team_no;		/* the team's number within its match */
	Datum		party;
	bool		party_null;		/* (also without a party column) */
	int			party_no;		/* the party's number within its match, -1
								 * alone */
} GlickoMatchRow;

/* A match: its rows are rows[first .. first + n). */
typedef struct GlickoMatch
{
	int			first;
	int			n;
	int			n_teams;
} GlickoMatch;

/* The options glicko_match_option takes, for hints. */
extern const char *const glicko_match_option_names;

/* The defaults: method sum, the options' and the columns' (names[]). */
extern void glicko_match_setup_init(GlickoMatchSetup *t, const char **names);

/*
 * One 'name=value' option (`who` names the caller in errors: "trigger t",
 * "glicko2_rate_match"); column names go to names[].
 */
extern void glicko_match_option(const char *arg, GlickoMatchSetup *t, const char **names,
								const char *who, MemoryContext cxt);

/*
 * Check the options and resolve the columns names[] of the matches table
 * (advantages for the method, weight, party, an index on the match column);
 * inside an SPI connection.
 */
extern void glicko_match_columns(GlickoMatchSetup *t, Relation matches, const char **names,
								 MemoryContext cxt);

/*
 * One row read from slot and checked (no NULL, a place of at least 1, a
 * finite played_at, a share in (0, 1]): attnums[c] is column c's in the
 * slot, attnums[MATCH_N_COLUMNS] the party's; `table` names the matches
 * table in errors.
 */
extern void glicko_match_read_row(const GlickoMatchSetup *t, const char *table,
								  TupleTableSlot *slot, const AttrNumber *attnums,
								  GlickoMatchRow *r);

/*
 * Group the rows into matches, in match order (played_at, then match id),
 * and check each; ERROR on a bad match.
 */
extern GlickoMatch *glicko_match_group(const GlickoMatchSetup *t, const char *table,
									   GlickoMatchRow *rows, int n_rows, int *n_matches);

/* Player numbers: the distinct players in key order, rows[].key into it. */
extern Datum *glicko_match_number_players(const GlickoMatchSetup *t, GlickoMatchRow *rows,
										  int n_rows, int *n_keys);

/*
 * Rate the matches in order, each player (locked[rows[].key]) from his
 * rating as the matches before left it; store: the teammates', or NULL.
 */
extern void glicko_match_rate(const GlickoMatchSetup *t, const char *table,
							  const GlickoMatchRow *rows, const GlickoMatch *m, int n_matches,
							  GlickoLiveRow *locked, GlickoLiveStore *store);

#endif							/* GLICKO2_LIVE_MATCHES_H */
