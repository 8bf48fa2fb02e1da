/*
 * matchmaking_queue.c — the plan glicko2_pair and glicko2_lobbies (and
 * their _typed forms, in sql/matchmaking.sql) make from the rows they lock in a queue, with the
 * pairing and grouping of core/matchmaking_math.c and the lobby balance of
 * matchmaking_balance.c.
 */
#include "postgres.h"

#include <limits.h>

#include "access/relation.h"
#include "access/xact.h"
#include "catalog/pg_class.h"
#include "catalog/pg_index.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "rewrite/prs2lock.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"

#include "core/matchmaking_math.h"
#include "matchmaking.h"
#include "memory.h"
#include "rating.h"
#include "relation.h"
#include "team_method.h"
#include "executor_rows.h"
#include "matchmaking_taken.h"
#include "write_check.h"

/* One player read from the queue, 64 bytes (a cache line) on a 64-bit
 * machine: the plan and the result visit the players in rating order, not
 * in the scan's, so a player is best one fetch. */
typedef struct QueuedPlayer
{
	Glicko2Rating rating;
	TimestampTz queued;
	Datum		id;				/* the queue key, in its own type */
	Datum		composite;		/* the rating as read, for the result */
	ItemPointerData tid;
	int			game;			/* 1, 2, ... or 0: left waiting */
	int			team;
} QueuedPlayer;

/*
 * Where the players' ids and ratings are copied, one after another in large
 * blocks: no chunk header, no rounding up to a power of two (a player's id
 * and rating take some 60 bytes), and a value that fits a one-byte varlena
 * header gets one, as in a table row, so needs no alignment.
 */
typedef struct Packer
{
	MemoryContext context;
	char	   *next;
	char	   *end;
} Packer;

#define PACK_BLOCK ((Size) 256 * 1024)

/*
 * size bytes in context, on huge pages where the system gives them: the plan
 * and the result visit the players in rating order, at random in memory, and
 * with 4 kB pages nearly every such visit also misses the TLB.  From one
 * huge page up, the array is padded to start on a huge-page boundary;
 * *chunk is what to pfree.
 */
static void *
huge_alloc(MemoryContext context, Size size, void **chunk)
{
	*chunk = MemoryContextAllocHuge(context, size + GLICKO_HUGE_PAD(size));
	return glicko_huge_start(*chunk, size);
}

/*
 * The type of the queue's player column: how to copy a value and to order
 * two (the duplicate check, ties in a lobby); the results give it as it is,
 * or (as_text) as its text form.
 */
typedef struct KeyType
{
	Oid			type;
	bool		as_text;
	int16		len;
	bool		byval;
	char		align;
	Oid			collation;		/* the column's, for a collatable type */
	FmgrInfo   *cmp;			/* the type's btree order */
	FmgrInfo	out;			/* for error messages and as_text */
} KeyType;

/* The players taken from a queue, and their games. */
typedef struct TakenQueue
{
	KeyType		key;
	int			n;				/* rows read and locked */
	int			capacity;
	QueuedPlayer *players;		/* in scan order */
	void	   *players_chunk;	/* where players was allocated */
	Packer		pack;			/* their ids and ratings */
	TimestampTz now;
	int		   *order;			/* positions in rating order */
	int		   *first;			/* game g is order[first[g]] ... */
	int			games;
	int			placed;
} TakenQueue;

/* A new block of at least size bytes (the last one's rest is left unused). */
static void
pack_block(Packer *pack, Size size)
{
	Size		block = Max(PACK_BLOCK, size);
	void	   *chunk;

	pack->next = huge_alloc(pack->context, block, &chunk);
	pack->end = pack->next + block;
}

/* A copy of v (not compressed, not external) in the packer's blocks. */
static Datum
pack_varlena(Packer *pack, const struct varlena *v)
{
	bool		one_byte = VARATT_IS_SHORT(v) || VARATT_CAN_MAKE_SHORT(v);
	Size		size = VARATT_IS_SHORT(v) ? VARSIZE_SHORT(v) :
	one_byte ? VARATT_CONVERTED_SHORT_SIZE(v) : VARSIZE(v);
	char	   *at;

	if ((Size) (pack->end - pack->next) < size + MAXIMUM_ALIGNOF)
		pack_block(pack, size + MAXIMUM_ALIGNOF);
	at = one_byte ? pack->next : (char *) MAXALIGN(pack->next);
	if (one_byte && !VARATT_IS_SHORT(v))
	{
		SET_VARSIZE_SHORT(at, size);
		memcpy(at + VARHDRSZ_SHORT, VARDATA(v), size - VARHDRSZ_SHORT);
	}
	else
		memcpy(at, v, size);
	pack->next = at + size;
	return PointerGetDatum(at);
}

/* A copy of a fixed-length value passed by reference (a uuid), aligned. */
static Datum
pack_fixed(Packer *pack, const void *v, Size size)
{
	char	   *at;

	if ((Size) (pack->end - pack->next) < size + MAXIMUM_ALIGNOF)
		pack_block(pack, size + MAXIMUM_ALIGNOF);
	at = (char *) MAXALIGN(pack->next);
	memcpy(at, v, size);
	pack->next = at + size;
	return PointerGetDatum(at);
}

/* The player column's key as the results give it; a value by reference is
 * copied into the packer. */
static Datum
pack_key(Packer *pack, const KeyType *key, Datum value)
{
	if (key->byval)
		return value;
	if (key->len == -1)
		return pack_varlena(pack, pg_detoast_datum_packed((struct varlena *) DatumGetPointer(value)));
	return pack_fixed(pack, DatumGetPointer(value), key->len);
}

/*
 * Two keys in order: integers and text directly (text byte by byte, as
 * strcmp would, whatever the collation: the order only breaks ties), any
 * other type by its btree comparison.
 */
static int
key_cmp(Datum a, Datum b, const KeyType *key)
{
	switch (key->type)
	{
		case INT2OID:
			return (DatumGetInt16(a) > DatumGetInt16(b)) - (DatumGetInt16(a) < DatumGetInt16(b));
		case INT4OID:
			return (DatumGetInt32(a) > DatumGetInt32(b)) - (DatumGetInt32(a) < DatumGetInt32(b));
		case INT8OID:
			return (DatumGetInt64(a) > DatumGetInt64(b)) - (DatumGetInt64(a) < DatumGetInt64(b));
		case TEXTOID:
		case VARCHAROID:
			{
				text	   *x = DatumGetTextPP(a),
						   *y = DatumGetTextPP(b);
				int			lx = VARSIZE_ANY_EXHDR(x),
							ly = VARSIZE_ANY_EXHDR(y),
							c = memcmp(VARDATA_ANY(x), VARDATA_ANY(y), Min(lx, ly));

				return c ? c : (lx > ly) - (lx < ly);
			}
	}
	return DatumGetInt32(FunctionCall2Coll(key->cmp, key->collation, a, b));
}

/* A key as text, for an error message. */
static char *
key_string(const KeyType *key, Datum value)
{
	return OutputFunctionCall((FmgrInfo *) &key->out, value);
}

/* A key as a result gives it: itself, or a new text of its text form. */
static Datum
key_result(const KeyType *key, Datum value)
{
	if (key->as_text)
		return CStringGetTextDatum(key_string(key, value));
	return value;
}

/* Free what key_result made. */
static void
key_result_free(const KeyType *key, Datum result)
{
	if (key->as_text)
		pfree(DatumGetPointer(result));
}

typedef struct IdPosition
{
	Datum		id;
	int			position;
} IdPosition;

static int
id_cmp(const void *a, const void *b, void *arg)
{
	const IdPosition *x = a,
			   *y = b;
	int			c = key_cmp(x->id, y->id, arg);

	return c ? c : (x->position > y->position) - (x->position < y->position);
}

/*
 * How long player p has waited, in *out: now - queued_at as timestamp_mi
 * gives it (whole days justified out of the hours), without its two pallocs
 * and function calls a row; queued_at is finite (receive_player), so the
 * difference fits.
 */
static Datum
waited_datum(const TakenQueue *q, const QueuedPlayer *p, Interval *out)
{
	int64		us = q->now - p->queued;

	out->month = 0;
	out->day = (int32) (us / USECS_PER_DAY);
	out->time = us % USECS_PER_DAY;
	return IntervalPGetDatum(out);
}

/*
 * The games of a pool: each player tolerates max_gap + widen * seconds
 * waited (max_gap infinite: no limit); games are runs of teams * team_size
 * players in rating order (glicko_mm_group_runs), each split by glicko_mm_balance (by
 * the method's team win probability) with its best player first, so that
 * player's team is team 1.  Sets each player's
 * game (1, 2, ... in rating order) and team, both 0 for a player left
 * waiting; q->order, q->first and q->games (game g's players are
 * order[first[g]] to order[first[g] + teams * team_size - 1]); q->placed.
 */
static void
plan_games(TakenQueue *q, int team_size, int teams, GlickoTeamMethod method,
		   double max_gap, double widen)
{
	QueuedPlayer *p = q->players;
	int			n = q->n,
				size = team_size * teams,
				games,
			   *first,
			   *lobby_team,
			   *order;
	double	   *rating,
			   *sorted_rating,
			   *tolerance,
			   *work;
	Glicko2Rating *lobby;

	for (int i = 0; i < n; i++)
		p[i].game = p[i].team = 0;
	q->games = q->placed = 0;
	if (size > n)
		return;					/* not one game's worth of players */
	rating = palloc(sizeof(double) * n);
	order = palloc(sizeof(int) * n);
	sorted_rating = palloc(sizeof(double) * n);
	tolerance = palloc(sizeof(double) * n);
	work = palloc(sizeof(double) * 4 * (n + 1));
	lobby = palloc(sizeof(Glicko2Rating) * size);
	for (int i = 0; i < n; i++)
		rating[i] = p[i].rating.rating;
	glicko_mm_sort_by_rating(rating, n, order, &glicko_mm_server_env);
	for (int i = 0; i < n; i++)
	{
		const QueuedPlayer *x = &p[order[i]];
		double		w = (double) (q->now - x->queued) / USECS_PER_SEC;

		if (i + 16 < n)
			glicko_prefetch_read(&p[order[i + 16]]);	/* rating order: random */
		sorted_rating[i] = x->rating.rating;
		tolerance[i] = max_gap + widen * (w > 0.0 ? w : 0.0);
	}
	first = palloc(sizeof(int) * (n / size + 1));
	games = glicko_mm_group_runs(sorted_rating, tolerance, n, size, first, work, &glicko_mm_server_env);

	lobby_team = palloc(sizeof(int) * size);
	for (int g = 0; g < games; g++)
	{
		bool		exact;
		int			bad_party;

		if (g + 8 < games)		/* rating order is not scan order */
			for (int k = 0; k < size; k++)
				glicko_prefetch_write(&p[order[first[g + 8] + k]]);
		/* Best first: team 1 is the team of the game's highest rated. */
		for (int k = 0; k < size; k++)
		{
			lobby[k] = p[order[first[g] + size - 1 - k]].rating;
			lobby_team[k] = k + 1;	/* teams of one: nothing to balance */
		}
		if (team_size > 1)
			glicko_mm_report_balance(glicko_mm_balance(lobby, NULL, size, teams, method, NULL, lobby_team,
													   &exact, &bad_party, &glicko_mm_server_env),
									 0, size, teams);
		for (int k = 0; k < size; k++)
		{
			QueuedPlayer *x = &p[order[first[g] + size - 1 - k]];

			x->game = g + 1;
			x->team = lobby_team[k];
		}
	}
	q->order = order;
	q->first = first;
	q->games = games;
	q->placed = games * size;
}

/* The number of a queue column, or an error naming it and its argument. */
static AttrNumber
queue_column(Oid relid, const char *relname, const char *column,
			 const char *argument, Oid want_type, const char *want)
{
	AttrNumber	attnum = glicko_column_attnum(relid, column,
											  psprintf("Name the column with %s => '...'.", argument));

	if (OidIsValid(want_type) && get_atttype(relid, attnum) != want_type)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column \"%s\" of %s is not a %s", column, relname, want));
	return attnum;
}

/*
 * The player column's type (a domain read as its base type) and how the
 * results give it: result_type is the type of the _typed forms' type
 * argument, text for the plain forms; the key's own type gives the ids as they are,
 * text gives their text form, any other type is an error.
 */
static void
set_key_type(Oid relid, const char *relname, AttrNumber attnum, Oid result_type, KeyType *key)
{
	Oid			column_type,
				key_type,
				out;
	int32		typmod;
	bool		varlena;
	TypeCacheEntry *cache;

	get_atttypetypmodcoll(relid, attnum, &column_type, &typmod, &key->collation);
	key_type = getBaseType(column_type);
	if (result_type != key_type && result_type != TEXTOID)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("player ids of type %s do not match the player column \"%s\" of %s, of type %s",
					   format_type_be(result_type), get_attname(relid, attnum, false), relname,
					   format_type_be(column_type)),
				errdetail("Player ids come back in the queue key's own type or as text."),
				errhint("Give the ids' type as NULL::%s, or NULL::text.",
						format_type_be(key_type)));
	key->type = key_type;
	key->as_text = result_type != key_type;
	get_typlenbyvalalign(key_type, &key->len, &key->byval, &key->align);
	if (key->len == -2)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("player ids of type %s are not supported", format_type_be(key_type)));
	cache = lookup_type_cache(key_type, TYPECACHE_CMP_PROC_FINFO);
	if (!OidIsValid(cache->cmp_proc))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("could not identify a comparison function for type %s", format_type_be(key_type)),
				errdetail("Players are told apart and ordered by their key: its type needs a default btree operator class."));
	key->cmp = &cache->cmp_proc_finfo;
	getTypeOutputInfo(key_type, &out, &varlena);
	fmgr_info(out, &key->out);
}

/* The most players one call takes: their records in one allocation (and
 * glicko_mm_group_runs's 4 (n + 1) doubles, fewer bytes). */
#define MAX_QUEUE ((int) (MaxAllocSize / sizeof(QueuedPlayer)))

/*
 * The queue's rows go from the executor straight into a TakenQueue (an SPI
 * tuple table would copy each row once more).  Each row is checked as it
 * comes, so the first bad row in scan order is the one an error names.
 */
typedef struct QueueReader
{
	DestReceiver receiver;		/* first: the executor calls it with this */
	TakenQueue *q;
	const char *relname;
	const char *player_column;
} QueueReader;

/*
 * Room for the rows the queue likely holds (its density at the last VACUUM
 * or ANALYZE times its pages now), so the array rarely grows while reading;
 * at most a million up front (64 MB), in case the statistics are stale.
 */
static int
expected_players(Oid relid)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	double		pages = RelationGetNumberOfBlocks(rel),
				density = rel->rd_rel->relpages > 0 && rel->rd_rel->reltuples > 0 ?
	rel->rd_rel->reltuples / rel->rd_rel->relpages : 0.0;

	relation_close(rel, AccessShareLock);
	return (int) Max(1024.0, Min(1.1 * density * pages, 1048576.0));
}

/* Room for capacity players, the n read so far kept (in the caller's
 * memory, the pack's, not the executor's). */
static void
grow_players(TakenQueue *q, int capacity)
{
	void	   *old = q->players_chunk;
	QueuedPlayer *players = huge_alloc(q->pack.context, sizeof(QueuedPlayer) * capacity,
									   &q->players_chunk);

	if (q->players != NULL)
	{
		memcpy(players, q->players, sizeof(QueuedPlayer) * q->n);
		pfree(old);
	}
	q->players = players;
	q->capacity = capacity;
}

/* A row: ctid, the player, the rating, the time queued. */
static bool
receive_player(TupleTableSlot *slot, DestReceiver *self)
{
	QueueReader *reader = (QueueReader *) self;
	TakenQueue *q = reader->q;
	Datum	   *values = slot->tts_values;
	bool	   *nulls = slot->tts_isnull;
	QueuedPlayer *p;

	CHECK_FOR_INTERRUPTS();
	slot_getallattrs(slot);
	if (q->n == q->capacity)
	{
		if (q->capacity >= MAX_QUEUE)
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("queue %s has too many players (more than %d)", reader->relname, MAX_QUEUE));
		grow_players(q, q->capacity > MAX_QUEUE / 2 ? MAX_QUEUE : 2 * q->capacity);
	}
	p = &q->players[q->n];

	if (nulls[1])
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("a row of %s has a NULL %s", reader->relname, reader->player_column));
	if (nulls[2])
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("player %s has a NULL rating", key_string(&q->key, values[1])),
				errhint("Queue an unrated player with glicko2_rating()."));
	if (!glicko2_datum_try(values[2], &p->rating))
	{
		/* "the rating of player 42 has invalid rd 0"; long ids end in "..." */
		char		what[NAMEDATALEN + 32];

		if (snprintf(what, sizeof(what), "the rating of player %s",
					 key_string(&q->key, values[1])) >= (int) sizeof(what))
			strcpy(what + sizeof(what) - 4, "...");
		glicko2_datum_get(values[2], &p->rating, what);
		elog(ERROR, "a rating in %s refused without a reason", reader->relname);
	}
	if (nulls[3])
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("player %s has a NULL time queued", key_string(&q->key, values[1])));
	p->queued = DatumGetTimestampTz(values[3]);
	if (TIMESTAMP_NOT_FINITE(p->queued))
		ereport(ERROR,
				errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				errmsg("player %s has time queued %s", key_string(&q->key, values[1]),
					   TIMESTAMP_IS_NOBEGIN(p->queued) ? "-infinity" : "infinity"),
				errdetail("How long a player has waited needs the time they joined the queue."));
	p->tid = *(ItemPointer) DatumGetPointer(values[0]);

	/* The id and the rating as read, side by side (the result uses both). */
	p->id = pack_key(&q->pack, &q->key, values[1]);
	p->composite = pack_varlena(&q->pack, pg_detoast_datum_packed((struct varlena *) DatumGetPointer(values[2])));
	q->n++;
	return true;
}

/* Arguments that must not be NULL (names[i] NULL: may be). */
static void
check_not_null(FunctionCallInfo fcinfo, const char *const *names, int n)
{
	for (int a = 0; a < n; a++)
		if (names[a] && PG_ARGISNULL(a))
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("%s must not be NULL", names[a]));
}

/*
 * The typed forms' type argument (argument arg, written positionally: it
 * has no name, so PostgreSQL, which types a polymorphic result's columns
 * from the arguments in the order written, always finds it in its place):
 * a NULL of the type the ids come back in.  A value is refused, so that
 * glicko2_lobbies_typed(queue, 5, 3) cannot quietly mean ids of type int in
 * two teams.
 */
static void
check_id_type(FunctionCallInfo fcinfo, int arg, const char *function, const char *before)
{
	if (!PG_ARGISNULL(arg))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("argument %d of %s must be a NULL of the player ids' type, not a value of type %s",
					   arg + 1, function, format_type_be(get_fn_expr_argtype(fcinfo->flinfo, arg))),
				errdetail("Only its type counts: the ids come back in it."),
				errhint("Write %s(%s, NULL::bigint, ...) with the queue key's type.", function, before));
}

/*
 * A rule on DELETE of the queue would replace or add to the delete of the
 * placed players (DO INSTEAD NOTHING keeps them queued, to be placed again):
 * refused before anything is read.
 */
static void
refuse_delete_rules(Oid relid, const char *relname)
{
	Relation	rel = relation_open(relid, AccessShareLock);
	RuleLock   *rules = rel->rd_rules;
	bool		found = false;

	for (int i = 0; rules != NULL && i < rules->numLocks; i++)
		found |= rules->rules[i]->event == CMD_DELETE;
	relation_close(rel, AccessShareLock);
	if (found)
		ereport(ERROR,
				errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				errmsg("queue %s has a rule on DELETE", relname),
				errdetail("Placed players are taken off the queue by a DELETE, which a rule would replace or extend."),
				errhint("Drop the rule, or use a trigger that lets the delete happen."));
}

/*
 * Lock the queue rows no other transaction holds (FOR UPDATE SKIP LOCKED),
 * plan games of teams x team_size with them (plan_games), delete the players
 * placed: all in the caller's transaction.  q is filled in the caller's
 * memory context (SPI is connected only around the two statements).
 *
 * Every row read is locked, not only the rows then deleted: the plan is
 * optimal over the pool it sees, so the pool must hold still while it is
 * made.  A row locked here can be neither paired by another matchmaker (it
 * skips the row) nor deleted by a player leaving (that waits for our end,
 * then finds the row gone, or still there after a rollback).  Planning on an
 * unlocked read and then deleting only the placed rows would see rows that
 * others hold, and a held player rated between two others can forbid their
 * pair (the tolerance rule), so the pairs would differ from those of the
 * rows actually free.  Deleting every row and inserting the unplaced ones
 * again would give those new row versions, and a leave waiting on the old
 * version would then miss them (test/specs/matchmaking_concurrent.spec).  So
 * a placed row is written twice, locked and deleted, each with its WAL
 * record: that is this function's floor (bench/matchmaking.sh times it).
 */
static void
take_queue(Oid relid, Oid result_type, int team_size, int teams, GlickoTeamMethod method,
		   double max_gap, double widen, const char *player_column,
		   const char *rating_column, const char *queued_column, Oid rating_type,
		   TakenQueue *q)
{
	char	   *relname,
			   *qualified,
			   *sql;
	AttrNumber	player_attnum;
	bool		unique;
	QueueReader reader;
	SPIExecuteOptions read = {0};

	if (team_size < 1)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("team_size must be at least 1, not %d", team_size));
	glicko_mm_check_teams(INT_MAX, teams, "players");	/* the number of teams
														 * alone */
	if (team_size > INT_MAX / teams)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("a lobby of %d teams of %d is too large", teams, team_size));
	if (!(max_gap >= 0.0))
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("max_gap must be at least 0, not %s", float8out_internal(max_gap)),
				errhint("NULL means no limit."));
	glicko_check_nonnegative(widen, "widen");

	/* The columns, each error naming the column and the argument naming it. */
	if (get_rel_name(relid) == NULL)
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_TABLE),
				errmsg("relation with OID %u does not exist", relid));
	relname = DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(relid)));
	glicko_not_catalog(relid, "queue");

	/*
	 * Rows are deleted by ctid, which names a row only within one table:
	 * plain tables only, read and deleted with ONLY (no inheritance
	 * children).
	 */
	if (get_rel_relkind(relid) != RELKIND_RELATION)
		ereport(ERROR,
				errcode(ERRCODE_WRONG_OBJECT_TYPE),
				errmsg("queue %s is not a table", relname),
				errdetail("Players are taken off the queue by their row's ctid, which only a plain table has, one per table."));
	refuse_delete_rules(relid, relname);
	qualified = quote_qualified_identifier(get_namespace_name(get_rel_namespace(relid)),
										   get_rel_name(relid));
	player_attnum = queue_column(relid, relname, player_column, "player_column", InvalidOid, NULL);
	queue_column(relid, relname, rating_column, "rating_column", rating_type, "glicko2_rating");
	queue_column(relid, relname, queued_column, "queued_column", TIMESTAMPTZOID, "timestamptz");
	unique = glicko_unique_key(relid, player_attnum);
	set_key_type(relid, relname, player_attnum, result_type, &q->key);

	/* Read and lock in one statement, the rows going into q. */
	q->n = 0;
	q->pack.context = CurrentMemoryContext;
	q->players = NULL;
	grow_players(q, expected_players(relid));
	pack_block(&q->pack, sizeof(QueuedPlayer) * q->capacity);	/* ids and ratings:
																 * fewer bytes */
	glicko_rows_receiver_init(&reader.receiver, receive_player);
	reader.q = q;
	reader.relname = relname;
	reader.player_column = player_column;
	read.dest = &reader.receiver;
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	/* Everything qualified: the caller's search_path cannot change what runs. */
	sql = psprintf("SELECT ctid, %s, %s, %s FROM ONLY %s FOR UPDATE SKIP LOCKED",
				   quote_identifier(player_column), quote_identifier(rating_column),
				   quote_identifier(queued_column), qualified);
	if (SPI_execute_extended(sql, &read) < 0)
		elog(ERROR, "reading queue %s failed", relname);
	SPI_finish();
	q->now = GetCurrentTransactionStartTimestamp();

	/* A unique index already keeps a player from being queued twice. */
	if (!unique)
	{
		IdPosition *by_id = palloc(sizeof(IdPosition) * (q->n ? q->n : 1));

		for (int i = 0; i < q->n; i++)
		{
			by_id[i].id = q->players[i].id;
			by_id[i].position = i;
		}
		qsort_arg(by_id, q->n, sizeof(IdPosition), id_cmp, &q->key);
		for (int i = 1; i < q->n; i++)
			if (key_cmp(by_id[i].id, by_id[i - 1].id, &q->key) == 0)
				ereport(ERROR,
						errcode(ERRCODE_UNIQUE_VIOLATION),
						errmsg("player %s is in the queue twice", key_string(&q->key, by_id[i].id)),
						errhint("Give the queue a unique key on its player column."));
	}

	plan_games(q, team_size, teams, method, max_gap, widen);

	/* Take the placed players off the queue: all of them, or an error. */
	if (q->placed > 0)
	{
		BlockNumber last_block = 0;
		bytea	   *taken;
		Oid			argtype = BYTEAOID;
		Datum		arg;
		SPIPlanPtr	plan;

		for (int i = 0; i < q->n; i++)
			if (q->players[i].game > 0)
				last_block = Max(last_block, ItemPointerGetBlockNumber(&q->players[i].tid));
		taken = glicko_taken_rows_new(last_block, relname);
		for (int i = 0; i < q->n; i++)
			if (q->players[i].game > 0)
				glicko_taken_rows_add(taken, &q->players[i].tid);
		arg = PointerGetDatum(taken);
		if (SPI_connect() != SPI_OK_CONNECT)
			elog(ERROR, "SPI_connect failed");

		/*
		 * A sequential scan filtered by the set (matchmaking_taken.c says why
		 * not a TID scan); a generic plan, so the set is not copied into it.
		 */
		sql = psprintf("DELETE FROM ONLY %s WHERE %s.glicko2_row_taken(ctid, $1)",
					   qualified, GLICKO2_INTERNAL_SCHEMA);
		plan = SPI_prepare_cursor(sql, 1, &argtype, CURSOR_OPT_GENERIC_PLAN);
		if (plan == NULL)
			elog(ERROR, "preparing the delete from queue %s failed", relname);

		/*
		 * (a policy or trigger that keeps a row fails the call: see
		 * write_check.c)
		 */
		glicko2_require_written(relid,
								SPI_execute_plan(plan, &arg, NULL, false, 0) == SPI_OK_DELETE ? (int64) SPI_processed : 0,
								q->placed, psprintf("taking the placed players off queue %s", relname));
		SPI_finish();
	}
}

/*
 * glicko2_pair(queue, max_gap, widen, player_column, rating_column,
 * queued_column) and glicko2_pair_typed(queue, NULL::type, max_gap, ...):
 * one-on-one games from a queue, one row a pair, the higher rated first; the
 * pairs are deleted from the queue.
 */
static Datum
pair(FunctionCallInfo fcinfo, bool typed)
{
	static const char *const names[] = {"queue", NULL, "widen", "player_column",
	"rating_column", "queued_column"};
	static const char *const typed_names[] = {"queue", NULL, NULL, "widen", "player_column",
	"rating_column", "queued_column"};
	int			o = typed ? 1 : 0;	/* the options follow the type */
	const char *function = typed ? "glicko2_pair_typed" : "glicko2_pair";
	TupleDesc	desc;
	Tuplestorestate *store;
	TakenQueue	q;

	check_not_null(fcinfo, typed ? typed_names : names, PG_NARGS());
	if (typed)
		check_id_type(fcinfo, 1, function, "queue");
	store = glicko_materialized_result(fcinfo, &desc, function);
	/* (teams of one: the method is never used) */
	take_queue(PG_GETARG_OID(0), TupleDescAttr(desc, 0)->atttypid, 1, 2, GLICKO_TEAM_SUM,
			   PG_ARGISNULL(1 + o) ? INFINITY : PG_GETARG_FLOAT8(1 + o),
			   PG_GETARG_FLOAT8(2 + o), NameStr(*PG_GETARG_NAME(3 + o)),
			   NameStr(*PG_GETARG_NAME(4 + o)), NameStr(*PG_GETARG_NAME(5 + o)),
			   TupleDescAttr(desc, 4)->atttypid, &q);

	/* The pairs in rating order; team 1 is the higher rated of each. */
	for (int g = 0; g < q.games; g++)
	{
		const QueuedPlayer *lo = &q.players[q.order[q.first[g]]],
				   *hi = &q.players[q.order[q.first[g] + 1]],
				   *a = hi->team == 1 ? hi : lo,
				   *b = hi->team == 1 ? lo : hi;
		Datum		values[8];
		Interval	waited[2];
		bool		nulls[8] = {false, false, false, false, false, false, false, false};

		if ((g & 0xfff) == 0)
			CHECK_FOR_INTERRUPTS();

		/*
		 * The pairs are in rating order, the players in scan order: fetch the
		 * players 16 pairs ahead, their ids and ratings 8 ahead.
		 */
		if (g + 16 < q.games)
		{
			glicko_prefetch_read(&q.players[q.order[q.first[g + 16]]]);
			glicko_prefetch_read(&q.players[q.order[q.first[g + 16] + 1]]);
		}
		if (g + 8 < q.games && !q.key.byval)
		{
			glicko_prefetch_read(DatumGetPointer(q.players[q.order[q.first[g + 8]]].id));
			glicko_prefetch_read(DatumGetPointer(q.players[q.order[q.first[g + 8] + 1]].id));
		}
		values[0] = key_result(&q.key, a->id);
		values[1] = key_result(&q.key, b->id);
		values[2] = Float8GetDatum(glicko2_win_probability(&a->rating, &b->rating));
		values[3] = Float8GetDatum(a->rating.rating - b->rating.rating);
		values[4] = a->composite;
		values[5] = b->composite;
		values[6] = waited_datum(&q, a, &waited[0]);
		values[7] = waited_datum(&q, b, &waited[1]);
		tuplestore_putvalues(store, desc, values, nulls);
		key_result_free(&q.key, values[0]);
		key_result_free(&q.key, values[1]);
	}
	PG_RETURN_NULL();
}

PG_FUNCTION_INFO_V1(glicko2_pair_sql);
Datum
glicko2_pair_sql(PG_FUNCTION_ARGS)
{
	return pair(fcinfo, false);
}

PG_FUNCTION_INFO_V1(glicko2_pair_typed_sql);
Datum
glicko2_pair_typed_sql(PG_FUNCTION_ARGS)
{
	return pair(fcinfo, true);
}

/* Lobby members in result order: lobby, team, best first, then by player. */
static int
member_cmp(const void *a, const void *b, void *key)
{
	const QueuedPlayer *x = *(const QueuedPlayer *const *) a,
			   *y = *(const QueuedPlayer *const *) b;

	if (x->game != y->game)
		return x->game < y->game ? -1 : 1;
	if (x->team != y->team)
		return x->team < y->team ? -1 : 1;
	if (x->rating.rating != y->rating.rating)
		return x->rating.rating > y->rating.rating ? -1 : 1;
	return key_cmp(x->id, y->id, key);
}

/*
 * A lobby team's p_win by the method (glicko_team_probability): for 'sum'
 * and 'mean' its chance against another team of the lobby, the mean over
 * them (two teams: against the other); for 'composite' and 'individual' its
 * chance against the composite of all the lobby's other players.  members:
 * the lobby's size members; side, rest and scratch: 2 size each.
 */
static double
lobby_chance(const QueuedPlayer *const *members, int size, int teams, int team,
			 GlickoTeamMethod method, Glicko2Rating *side, Glicko2Rating *rest,
			 double *scratch)
{
	bool		pairwise = method == GLICKO_TEAM_SUM || method == GLICKO_TEAM_MEAN;
	double		sum = 0.0;
	int			ns = 0;

	for (int m = 0; m < size; m++)
		if (members[m]->team == team)
			side[ns++] = members[m]->rating;
	for (int u = 1; u <= teams; u++)
	{
		int			nr = 0;

		if (u == team)
			continue;
		for (int m = 0; m < size; m++)
			if (pairwise ? members[m]->team == u : members[m]->team != team)
				rest[nr++] = members[m]->rating;
		if (!pairwise)
			return glicko_team_probability(method, side, NULL, ns, rest, NULL, nr, scratch);
		sum += glicko_team_probability(method, side, NULL, ns, rest, NULL, nr, scratch);
	}
	return sum / (teams - 1);
}

/*
 * glicko2_lobbies(queue, team_size, teams, max_gap, widen, player_column,
 * rating_column, queued_column, method) and glicko2_lobbies_typed(queue,
 * team_size, NULL::type, teams, ...): lobbies of teams x team_size from a
 * queue, split by the method's team model, one row a player, with the team's
 * chance (lobby_chance); the players placed are deleted from the queue.
 */
static Datum
lobbies(FunctionCallInfo fcinfo, bool typed)
{
	static const char *const names[] = {"queue", "team_size", "teams", NULL, "widen",
	"player_column", "rating_column", "queued_column", "method"};
	static const char *const typed_names[] = {"queue", "team_size", NULL, "teams", NULL, "widen",
	"player_column", "rating_column", "queued_column", "method"};
	int			o = typed ? 1 : 0;	/* the options follow the type */
	const char *function = typed ? "glicko2_lobbies_typed" : "glicko2_lobbies";
	TupleDesc	desc;
	Tuplestorestate *store;
	TakenQueue	q;
	const QueuedPlayer **members;
	Glicko2Rating *side,
			   *rest;
	double	   *chance,
			   *scratch;
	int			teams,
				size,
				k = 0;
	GlickoTeamMethod method;

	check_not_null(fcinfo, typed ? typed_names : names, PG_NARGS());
	if (typed)
		check_id_type(fcinfo, 2, function, "queue, team_size");
	method = glicko2_team_method(PG_GETARG_TEXT_PP(8 + o));
	store = glicko_materialized_result(fcinfo, &desc, function);
	teams = PG_GETARG_INT32(2 + o);
	take_queue(PG_GETARG_OID(0), TupleDescAttr(desc, 2)->atttypid, PG_GETARG_INT32(1), teams,
			   method, PG_ARGISNULL(3 + o) ? INFINITY : PG_GETARG_FLOAT8(3 + o),
			   PG_GETARG_FLOAT8(4 + o), NameStr(*PG_GETARG_NAME(5 + o)),
			   NameStr(*PG_GETARG_NAME(6 + o)), NameStr(*PG_GETARG_NAME(7 + o)),
			   TupleDescAttr(desc, 3)->atttypid, &q);
	size = PG_GETARG_INT32(1) * teams;

	members = palloc(sizeof(QueuedPlayer *) * (q.placed ? q.placed : 1));
	for (int i = 0; i < q.n; i++)
		if (q.players[i].game > 0)
			members[k++] = &q.players[i];
	qsort_arg(members, k, sizeof(QueuedPlayer *), member_cmp, &q.key);

	/* Each lobby's teams' chances. */
	side = palloc(sizeof(Glicko2Rating) * (k > 0 ? size : 1));	/* a lobby fits the
																 * queue */
	rest = palloc(sizeof(Glicko2Rating) * (k > 0 ? size : 1));
	scratch = palloc(sizeof(double) * 2 * (k > 0 ? (Size) size : 1));
	chance = palloc(sizeof(double) * teams);
	for (int start = 0; start < k; start += size)
	{
		CHECK_FOR_INTERRUPTS();
		for (int t = 1; t <= teams; t++)
			chance[t - 1] = lobby_chance(&members[start], size, teams, t, method,
										 side, rest, scratch);
		for (int m = start; m < start + size; m++)
		{
			const QueuedPlayer *p = members[m];
			Datum		values[6];
			Interval	waited;
			bool		nulls[6] = {false, false, false, false, false, false};

			values[0] = Int32GetDatum(p->game);
			values[1] = Int32GetDatum(p->team);
			values[2] = key_result(&q.key, p->id);
			values[3] = p->composite;
			values[4] = Float8GetDatum(chance[p->team - 1]);
			values[5] = waited_datum(&q, p, &waited);
			tuplestore_putvalues(store, desc, values, nulls);
			key_result_free(&q.key, values[2]);
		}
	}
	PG_RETURN_NULL();
}

PG_FUNCTION_INFO_V1(glicko2_lobbies_sql);
Datum
glicko2_lobbies_sql(PG_FUNCTION_ARGS)
{
	return lobbies(fcinfo, false);
}

PG_FUNCTION_INFO_V1(glicko2_lobbies_typed_sql);
Datum
glicko2_lobbies_typed_sql(PG_FUNCTION_ARGS)
{
	return lobbies(fcinfo, true);
}
