/*
 * live_teammates.h — the teammates store of the live matches trigger
 * (glicko2_rate_matches' option teammates=...; docs/live.md, "Recurring
 * teammates"): each match a period of its own for src/core/teammates.c,
 * the store's rows of the statement's players locked after the players'
 * rows and rewritten in the statement.
 */
#ifndef GLICKO2_LIVE_TEAMMATES_H
#define GLICKO2_LIVE_TEAMMATES_H

#include "postgres.h"

#include "fmgr.h"

#include "core/team.h"
#include "live_rows.h"

/* A trigger's store (in its entry's cxt); its statements are e->plans[first ..]. */
typedef struct GlickoLiveMates
{
	Oid			relid;
	int			first_plan;
	Oid			key_type;		/* the ratings key's */
	FmgrInfo	key_cmp;		/* its btree order */
	Oid			key_collation;
} GlickoLiveMates;

/* The statements' plans it takes from first_plan on. */
#define GLICKO_LIVE_MATES_PLANS 3

/* One statement's store: the pairs of its players, and their partners. */
typedef struct GlickoLiveStore GlickoLiveStore;

/*
 * Resolve the option's value (unqualified: in the matches table's schema),
 * check it as glicko2_close_matches does, prepare its statements.
 */
extern void glicko_live_mates_open(GlickoLiveMates *s, GlickoLiveEntry *e, const char *name,
								   Relation matches, const GlickoLiveRatings *rt,
								   GlickoTeamMethod method, int first_plan, MemoryContext cxt);

/*
 * Lock the store's rows of the statement's n players (keys in key order, of
 * type key_type; their rows already locked) and read their partners' rows.
 */
extern GlickoLiveStore *glicko_live_mates_read(const GlickoLiveMates *s, GlickoLiveEntry *e,
											   const GlickoLiveRatings *rt, Oid key_type,
											   int n, const Datum *keys);

/*
 * One match (match->rating[] its players' grown ratings, player[] their
 * numbers in the statement): each player's sums with the store's
 * covariances, sums[] zeroed by the caller.  The store keeps the match's
 * pairs until glicko_live_mates_after gives them the new RDs.
 */
extern void glicko_live_mates_match(GlickoLiveStore *st, const GlickoTeamMatch *match,
									const int *player, TimestampTz at,
									const GlickoLiveRow *locked,
									const GlickoLiveOptions *opt, GlickoSums *sums,
									const char *what);
extern void glicko_live_mates_after(GlickoLiveStore *st, const GlickoLiveRow *locked);

/* Rewrite the store's rows locked by glicko_live_mates_read. */
extern void glicko_live_mates_write(const GlickoLiveMates *s, GlickoLiveEntry *e,
									const GlickoLiveRatings *rt, GlickoLiveStore *st,
									Oid key_type, const Datum *keys, const char *what);

#endif							/* GLICKO2_LIVE_TEAMMATES_H */
