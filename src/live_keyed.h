/*
 * live_keyed.h — the one-row statements by key that glicko2_rate_game
 * (live_rate_game.c) and glicko2_rate_match (live_rate_match.c) run on the
 * ratings table: each names one player by the table's key, so on Citus each
 * is a router query to the shard holding that player.
 */
#ifndef GLICKO2_LIVE_KEYED_H
#define GLICKO2_LIVE_KEYED_H

#include "postgres.h"

#include "datatype/timestamp.h"

#include "live_rows.h"

/* The statements on the ratings table, one player each (by key: $1). */
typedef struct GlickoKeyedSql
{
	const char *lock;			/* $1 -> rating, rated_at, locked */
	const char *insert;			/* $1, unrated $2, rated_at $3 */
	const char *write;			/* $1, rating $2, rated_at $3 */
	Oid			types[3];
	const char *what;			/* names the write in errors: "a game given to
								 * glicko2_rate_game" */
} GlickoKeyedSql;

/* The statements for players' keys of key_type (cast to the ratings key). */
extern void glicko_keyed_sql(GlickoKeyedSql *q, const GlickoLiveRatings *rt, Oid key_type,
							 const char *what);

/*
 * Lock one player's row by key (FOR NO KEY UPDATE), adding him as unrated
 * (rated_at: at) if missing and locking again; inside an SPI connection.
 */
extern void glicko_keyed_lock(const GlickoKeyedSql *q, const GlickoLiveRatings *rt,
							  Oid key_type, Datum key, TimestampTz at, GlickoLiveRow *row);

/* Write one player's new rating and rated_at by key; ERROR unless written. */
extern void glicko_keyed_write(const GlickoKeyedSql *q, const GlickoLiveRatings *rt, Datum key,
							   const GlickoLiveRow *row);

#endif							/* GLICKO2_LIVE_KEYED_H */
