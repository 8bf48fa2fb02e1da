/*
 * close_pass.c — glicko2_close_ratings: a period close's computation in one
 * pass, the entry point any close can feed with its own games.
 *
 *   glicko2_close_ratings(ratings_query text, games_query text,
 *                         tau float8, max_rd float8, what text, form text,
 *                         VARIADIC params text[])
 *     RETURNS SETOF record  -- AS (player <key type>, rating glicko2_rating,
 *                           --     games bigint, is_new boolean)
 *
 * ratings_query yields (player, rating glicko2_rating): the pre-period
 * ratings, each player once, NULL rating = unrated (glicko2_unrated: RD
 * min(350, max_rd), as is a new player of the games).  games_query yields one
 * row per game, in the form `form` names:
 *   'games'  (player, opponent, score)        a game: both players are rated,
 *                                             the opponent from 1 - score;
 *   'sides'  (player, opponent_rating glicko2_rating, score)
 *                                             one game side: only player is
 *                                             rated (NULL rating = unrated
 *                                             opponent), e.g. against a team's
 *                                             composite;
 *   'terms'  (player, information float8, surprise float8)
 *                                             one game side as its terms of
 *                                             the player's Step 3/4 sums,
 *                                             computed by the caller (a team
 *                                             match's, glicko2_match_sides);
 * NULL: 'sides' if the second column is a glicko2_rating, else 'games'.
 * player and opponent of the ratings key's type, score any number in [0, 1]
 * (float8, float4, numeric, int2/4/8), terms finite and the information not
 * negative.  With 'games' or 'sides' an optional fourth float8 column is
 * the player's advantage in the game (home, first move: points added to the
 * player's rating inside E; the opponent's is its negation).  Both queries get params as text
 * parameters $1, $2, ... (cast them in the query).  A caller builds the
 * queries from regclass and %I-quoted names, never from values.
 *
 * The result has one row per player: every player of ratings_query and every
 * new player of the games, with the new rating (the paper's update from the
 * pre-period ratings for a player with games, Step 6 capped at max_rd for one
 * without, NULL for an unrated player without games), the player's number of
 * game sides, and whether the player was absent from ratings_query.  These
 * are bit for bit the ratings of glicko2_period and glicko2_idle.  Every row
 * of the games is checked before any result row exists: self-play, a NULL
 * player or opponent, a NULL score, a score outside [0, 1], NULL or
 * non-finite terms make one ERROR
 * naming `what` and the first bad game (by its message, as min() would).
 *
 * How (glicko_close_pass_run, also behind close_write.c's kept closes): the
 * pre-period ratings are read once into a hash table keyed by player (the key
 * type's own hash and equality, its collation), then the games are streamed
 * once from a portal into a receiver that adds both sides of each game to
 * per-player sums (GlickoSums: order-free, so the same bits as the
 * aggregate), then every player's result is computed into an array in the
 * order first read.  Memory is one entry and one result per player, whatever
 * the number of games; its size is reported at DEBUG1.  Both queries run
 * through SPI with the caller's privileges, so views, row-level security and
 * permissions hold.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/plannodes.h"
#include "tcop/pquery.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/float.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/tuplestore.h"
#include "utils/typcache.h"
#include "utils/varlena.h"

#include "caps.h"
#include "close_pass.h"
#include "memory.h"
#include "relation.h"
#include "rating.h"
#include "executor_rows.h"

/* One player: the key, the pre-period rating and the period's sums. */
typedef struct PlayerEntry
{
	Datum		key;
	uint32		hash;
	uint32		seq;			/* 0, 1, 2, ... in the order first read */
	char		status;			/* simplehash's */
	bool		rated;			/* has a pre-period rating */
	bool		is_new;			/* not in the ratings */
	Glicko2Rating pre;			/* the unrated player's if !rated */
	GlickoSums	sums;
} PlayerEntry;

typedef struct ClosePass ClosePass;

static uint32 player_hash(ClosePass *pass, Datum key);
static bool player_equal(ClosePass *pass, Datum a, Datum b);

#define SH_PREFIX players
#define SH_ELEMENT_TYPE PlayerEntry
#define SH_KEY_TYPE Datum
#define SH_KEY key
#define SH_HASH_KEY(tb, k) player_hash((ClosePass *) (tb)->private_data, k)
#define SH_EQUAL(tb, a, b) player_equal((ClosePass *) (tb)->private_data, a, b)
#define SH_STORE_HASH
#define SH_GET_HASH(tb, a) ((a)->hash)
#define SH_SCOPE static inline
#define SH_USE_NONDEFAULT_ALLOCATOR
#define SH_DECLARE
#define SH_DEFINE
#include "lib/simplehash.h"

/*
 * The table's array, on huge pages where the system gives them: every game
 * touches two random players, and with 4 kB pages nearly every touch of a
 * large table also misses the TLB (measured, 100 000 players: the pass took
 * 1.35 x the CPU time without them).  An array of at least one huge page is
 * padded to start on a huge-page boundary.
 *
 * It is calloc'd, not palloc'd and zeroed: a large calloc gets fresh pages,
 * which the kernel has zeroed already, where a memset would write every page
 * once more before the first player is read (measured, 1 000 000 players:
 * about 0.3 s of the close).  Its holder, in the pass's context, frees it
 * when that context goes (error included), or when the table grows.
 */
typedef struct PlayersArray
{
	char	   *chunk;			/* calloc'd; NULL once freed */
	MemoryContextCallback on_reset;
} PlayersArray;

static void
players_array_release(void *arg)
{
	PlayersArray *array = (PlayersArray *) arg;

	free(array->chunk);
	array->chunk = NULL;
}

static void *
players_allocate(players_hash *tb, Size size)
{
	PlayersArray *array;
	char	   *data;

	if (size > MaxAllocHugeSize)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("the table of players would need %zu bytes", size));
	array = MemoryContextAlloc(tb->ctx, sizeof(PlayersArray));
	array->chunk = calloc(1, size + GLICKO_HUGE_PAD(size) + sizeof(PlayersArray *));
	if (array->chunk == NULL)
		ereport(ERROR,
				errcode(ERRCODE_OUT_OF_MEMORY),
				errmsg("out of memory"),
				errdetail("Failed on a table of players of %zu bytes.", size));
	array->on_reset.func = players_array_release;
	array->on_reset.arg = array;
	MemoryContextRegisterResetCallback(tb->ctx, &array->on_reset);

	data = glicko_huge_start(array->chunk + sizeof(PlayersArray *), size);
	memcpy(data - sizeof(PlayersArray *), &array, sizeof(PlayersArray *));
	return data;
}

static void
players_free(players_hash *tb, void *data)
{
	PlayersArray *array;

	memcpy(&array, (char *) data - sizeof(PlayersArray *), sizeof(PlayersArray *));
	players_array_release(array);
}

/* Bytes of the table's arrays now held (they are outside the context). */
static Size
players_array_bytes(players_hash *tb)
{
	return (Size) tb->size * sizeof(PlayerEntry);
}

/* The kinds of bad game, in the order they are checked. */
typedef enum BadGame
{
	GAME_OK = 0,
	BAD_NULL_PLAYER,
	BAD_SELF_PLAY,
	BAD_NULL_SCORE,
	BAD_SCORE,
	BAD_ADVANTAGE,
	BAD_NULL_TERMS,
	BAD_TERMS
} BadGame;

/*
 * A game waiting for its players' entries to reach the cache.  Each player
 * is a random place in a table far larger than the cache: the games are
 * queued PENDING_GAMES deep, their entries prefetched when they arrive and
 * used when they leave (measured, 100 000 players: without the queue the
 * pass took 1.6 x the CPU time; depths 4 to 16 alike).  The
 * players' sums are order-free, so the order of the games does not matter.
 */
#define PENDING_GAMES 8

typedef struct PendingGame
{
	Datum		player;
	Datum		opponent;		/* a game's */
	uint32		player_hash;
	uint32		opponent_hash;
	Glicko2Rating opponent_rating;	/* a side's */
	GlickoTerms terms;			/* a side's terms ('terms') */
	double		score;
	double		advantage;		/* the player's, with an advantage column */
} PendingGame;

static const char *const bad_game_why[] = {
	NULL, "NULL player", "self-play", "NULL score", "score outside [0, 1]",
	"advantage not a finite number", "NULL terms",
	"terms not finite or information negative"
};

struct ClosePass
{
	DestReceiver receiver;		/* first: the portal calls it with this */
	MemoryContext context;		/* the hash table and kept keys */
	MemoryContext row_context;	/* reset after every row */
	players_hash *players;
	uint32		n_players;

	/* The key type. */
	Oid			key_type;
	Oid			key_collation;
	bool		key_is_integer; /* int2/4/8: equal iff the Datums are */
	int16		key_typlen;
	bool		key_typbyval;
	FmgrInfo	key_hash;
	FmgrInfo	key_equal;

	/* The games query. */
	GlickoGamesForm form;		/* what a row of the games is */
	bool		advantage;		/* a fourth column: the player's advantage */
	Oid			score_type;
	Oid			rating_type;	/* glicko2_rating */
	Glicko2Rating unrated;		/* a new or NULL-rated player
								 * (glicko2_unrated) */
	bool		queue_games;	/* keys by value: games can wait in the queue */
	int			queue_head;
	int			queue_count;
	PendingGame queue[PENDING_GAMES];
	int64		n_games;
	int64		n_bad;
	char	   *first_bad;		/* its message, in `context` */
	BadGame		first_bad_kind;

	/* The outcome, by seq; the next one a caller is likely to ask for. */
	CloseResult *results;
	uint32		next_result;

	/* What is being read, for error context. */
	const char *reading;
	Datum		reading_key;
	bool		reading_key_set;
};

static uint32
player_hash(ClosePass *pass, Datum key)
{
	if (pass->key_is_integer)
		return murmurhash32((uint32) DatumGetInt64(key)) ^
			murmurhash32((uint32) (DatumGetInt64(key) >> 32));
	return DatumGetUInt32(FunctionCall1Coll(&pass->key_hash, pass->key_collation, key));
}

static bool
player_equal(ClosePass *pass, Datum a, Datum b)
{
	if (pass->key_is_integer)
		return a == b;
	return DatumGetBool(FunctionCall2Coll(&pass->key_equal, pass->key_collation, a, b));
}

/* The entry of a player, added as a new player if it is not there yet. */
static PlayerEntry *
player_entry_hash(ClosePass *pass, Datum key, uint32 hash, bool *found)
{
	PlayerEntry *entry = players_insert_hash(pass->players, key, hash, found);

	if (!*found)
	{
		MemoryContext old = MemoryContextSwitchTo(pass->context);

		if (!pass->key_typbyval)
		{
			if (pass->key_typlen == -1)
				key = PointerGetDatum(PG_DETOAST_DATUM_PACKED(key));
			entry->key = datumCopy(key, false, pass->key_typlen);
		}
		MemoryContextSwitchTo(old);
		if (pass->n_players == PG_UINT32_MAX)
			ereport(ERROR,
					errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					errmsg("a close can rate at most %u players", PG_UINT32_MAX));
		entry->seq = pass->n_players++;
		entry->rated = false;
		entry->is_new = true;
		entry->pre = pass->unrated;
		memset(&entry->sums, 0, sizeof(entry->sums));
	}
	return entry;
}

static inline PlayerEntry *
player_entry(ClosePass *pass, Datum key, bool *found)
{
	return player_entry_hash(pass, key, player_hash(pass, key), found);
}

/*
 * Bring a player's entry into cache: where its search starts, and the next
 * line.  A macro: GCC 12 takes a static function whose only statements are
 * prefetches for one without effects and drops the calls.
 */
#define prefetch_player(pass, hash) \
	do { \
		const char *at_ = (const char *) \
			&(pass)->players->data[(hash) & (pass)->players->sizemask]; \
		glicko_prefetch_write(at_); \
		glicko_prefetch_write(at_ + 64); \
	} while (0)

/* Error context: which player's row was being read. */
static void
close_pass_error_context(void *arg)
{
	ClosePass  *pass = (ClosePass *) arg;

	if (pass->reading == NULL)
		return;
	if (pass->reading_key_set)
	{
		Oid			out;
		bool		varlena;

		getTypeOutputInfo(pass->key_type, &out, &varlena);
		errcontext("%s, player %s", pass->reading,
				   OidOutputFunctionCall(out, pass->reading_key));
	}
	else
		errcontext("%s", pass->reading);
}

/* ERROR unless column n of desc has type `type`. */
static void
check_column(TupleDesc desc, int n, Oid type, const char *query, const char *column)
{
	if (desc->natts <= n || TupleDescAttr(desc, n)->attisdropped ||
		TupleDescAttr(desc, n)->atttypid != type)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column %d of %s must be the %s, of type %s", n + 1, query, column,
					   format_type_be(type)),
				errdetail("It is %s.", desc->natts <= n ? "missing" :
						  format_type_be(TupleDescAttr(desc, n)->atttypid)));
}

/* Open a query of the caller's as a portal, its parameters text. */
static Portal
open_query(const char *sql, ArrayType *params)
{
	Datum	   *values;
	bool	   *isnull;
	int			n;
	Oid		   *types;
	char	   *nulls;
	int			i;

	deconstruct_array(params, TEXTOID, -1, false, TYPALIGN_INT, &values, &isnull, &n);
	types = palloc(sizeof(Oid) * Max(n, 1));
	nulls = palloc(Max(n, 1));
	for (i = 0; i < n; i++)
	{
		types[i] = TEXTOID;
		nulls[i] = isnull[i] ? 'n' : ' ';
	}
	/* read_only: the statement's own snapshot, no new one per query. */
	return SPI_cursor_open_with_args(NULL, sql, n, types, values, nulls, true, 0);
}

/* ---- the pre-period ratings ---- */

static bool
receive_rating(TupleTableSlot *slot, DestReceiver *self)
{
	ClosePass  *pass = (ClosePass *) self;
	MemoryContext old = MemoryContextSwitchTo(pass->row_context);
	PlayerEntry *entry;
	Datum		key;
	bool		found;

	CHECK_FOR_INTERRUPTS();
	slot_getsomeattrs(slot, 2);
	if (slot->tts_isnull[0])
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("a player of the ratings is NULL"));
	key = slot->tts_values[0];
	pass->reading_key = key;
	pass->reading_key_set = true;
	entry = player_entry(pass, key, &found);
	if (found)
		ereport(ERROR,
				errcode(ERRCODE_UNIQUE_VIOLATION),
				errmsg("player appears twice in the ratings"));
	entry->is_new = false;
	if (!slot->tts_isnull[1])
	{
		glicko2_datum_get_fields(slot->tts_values[1], &entry->pre, "rating");
		if (!glicko2_valid(&entry->pre))
		{
			Oid			out;
			bool		varlena;

			getTypeOutputInfo(pass->key_type, &out, &varlena);
			glicko2_check(&entry->pre, psprintf("rating of player %s",
												OidOutputFunctionCall(out, key)));
		}
		entry->rated = true;
	}
	pass->reading_key_set = false;
	MemoryContextSwitchTo(old);
	MemoryContextReset(pass->row_context);
	return true;
}

/* ---- the games ---- */

static char *
value_text(TupleTableSlot *slot, int n)
{
	Oid			out;
	bool		varlena;

	if (slot->tts_isnull[n])
		return "NULL";
	getTypeOutputInfo(TupleDescAttr(slot->tts_tupleDescriptor, n)->atttypid, &out, &varlena);
	return OidOutputFunctionCall(out, slot->tts_values[n]);
}

/* Count a bad game; keep the least message, as min(text) would. */
static void
note_bad_game(ClosePass *pass, TupleTableSlot *slot, BadGame kind)
{
	char	   *message = pass->form == GAMES_FORM_TERMS ?
	psprintf("%s: player %s, information %s, surprise %s",
			 bad_game_why[kind], value_text(slot, 0),
			 value_text(slot, 1), value_text(slot, 2)) :
	psprintf("%s: player %s, opponent %s, score %s",
			 bad_game_why[kind], value_text(slot, 0),
			 value_text(slot, 1), value_text(slot, 2));

	pass->n_bad++;
	if (pass->first_bad == NULL ||
		varstr_cmp(message, strlen(message), pass->first_bad, strlen(pass->first_bad),
				   DEFAULT_COLLATION_OID) < 0)
	{
		if (pass->first_bad)
			pfree(pass->first_bad);
		pass->first_bad = MemoryContextStrdup(pass->context, message);
		pass->first_bad_kind = kind;
	}
}

/* Add a game's sides to its players' sums. */
static void
add_game(ClosePass *pass, const PendingGame *game)
{
	bool		found;
	PlayerEntry *player;
	PlayerEntry *opponent;
	Glicko2Rating opp;
	GlickoTerms terms;

	if (pass->form == GAMES_FORM_TERMS)
	{
		player = player_entry_hash(pass, game->player, game->player_hash, &found);
		glicko_add_terms(&player->sums, &game->terms);
		return;
	}
	if (pass->form == GAMES_FORM_SIDES)
	{
		opp = game->opponent_rating;
		player = player_entry_hash(pass, game->player, game->player_hash, &found);
	}
	else
	{
		/*
		 * Adding a new player may move other entries: the opponent is looked
		 * up again if the player was new.
		 */
		opponent = player_entry_hash(pass, game->opponent, game->opponent_hash, &found);
		opp = opponent->pre;
		player = player_entry_hash(pass, game->player, game->player_hash, &found);
		if (!found)
			opponent = players_lookup_hash(pass->players, game->opponent, game->opponent_hash);
		if (pass->advantage)
			terms = glicko2_terms_advantage(opponent->pre.rating, -game->advantage,
											player->pre.rating, player->pre.rd,
											1.0 - game->score);
		else
			terms = glicko2_terms(opponent->pre.rating, player->pre.rating,
								  player->pre.rd, 1.0 - game->score);
		glicko_add_terms(&opponent->sums, &terms);
	}
	if (pass->advantage)
		terms = glicko2_terms_advantage(player->pre.rating, game->advantage, opp.rating,
										opp.rd, game->score);
	else
		terms = glicko2_terms(player->pre.rating, opp.rating, opp.rd, game->score);
	glicko_add_terms(&player->sums, &terms);
}

/* Queue a game, prefetching its players; the oldest leaves when full. */
static void
queue_game(ClosePass *pass, const PendingGame *game)
{
	prefetch_player(pass, game->player_hash);
	if (pass->form == GAMES_FORM_GAMES)
		prefetch_player(pass, game->opponent_hash);
	if (pass->queue_count == PENDING_GAMES)
	{
		add_game(pass, &pass->queue[pass->queue_head]);
		pass->queue_head = (pass->queue_head + 1) % PENDING_GAMES;
		pass->queue_count--;
	}
	pass->queue[(pass->queue_head + pass->queue_count) % PENDING_GAMES] = *game;
	pass->queue_count++;
}

static void
drain_games(ClosePass *pass)
{
	while (pass->queue_count > 0)
	{
		add_game(pass, &pass->queue[pass->queue_head]);
		pass->queue_head = (pass->queue_head + 1) % PENDING_GAMES;
		pass->queue_count--;
	}
}

static bool
receive_game(TupleTableSlot *slot, DestReceiver *self)
{
	ClosePass  *pass = (ClosePass *) self;
	MemoryContext old = MemoryContextSwitchTo(pass->row_context);
	BadGame		bad = GAME_OK;
	double		score = 0.0;
	double		advantage = 0.0;

	GlickoTerms terms = {0.0, 0.0};
	bool		games = pass->form == GAMES_FORM_GAMES;

	CHECK_FOR_INTERRUPTS();
	slot_getsomeattrs(slot, pass->advantage ? 4 : 3);
	pass->n_games++;

	if (slot->tts_isnull[0] || (games && slot->tts_isnull[1]))
		bad = BAD_NULL_PLAYER;
	else if (pass->form == GAMES_FORM_TERMS)
	{
		if (slot->tts_isnull[1] || slot->tts_isnull[2])
			bad = BAD_NULL_TERMS;
		else
		{
			terms.information = DatumGetFloat8(slot->tts_values[1]);
			terms.surprise = DatumGetFloat8(slot->tts_values[2]);
			if (!glicko_terms_valid(&terms))
				bad = BAD_TERMS;
		}
	}
	else if (games && player_equal(pass, slot->tts_values[0], slot->tts_values[1]))
		bad = BAD_SELF_PLAY;
	else if (slot->tts_isnull[2])
		bad = BAD_NULL_SCORE;
	else
	{
		score = glicko_score_as_float8(pass->score_type, slot->tts_values[2]);
		if (!glicko_valid_score(score))
			bad = BAD_SCORE;
		else if (pass->advantage)
		{
			advantage = slot->tts_isnull[3] ? NAN : DatumGetFloat8(slot->tts_values[3]);
			if (!isfinite(advantage))
				bad = BAD_ADVANTAGE;
		}
	}

	if (bad != GAME_OK)
		note_bad_game(pass, slot, bad);
	else if (pass->n_bad == 0)
	{
		PendingGame game;

		game.player = slot->tts_values[0];
		game.player_hash = player_hash(pass, game.player);
		game.score = score;
		game.advantage = advantage;
		game.terms = terms;
		if (pass->form == GAMES_FORM_SIDES)
		{
			if (slot->tts_isnull[1])
				game.opponent_rating = pass->unrated;
			else
				glicko2_datum_get(slot->tts_values[1], &game.opponent_rating, "opponent");
		}
		else if (games)
		{
			game.opponent = slot->tts_values[1];
			game.opponent_hash = player_hash(pass, game.opponent);
		}
		if (pass->queue_games)
			queue_game(pass, &game);
		else
			add_game(pass, &game);
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(pass->row_context);
	return true;
}

/*
 * The table's first size, from the planner's estimate of the ratings: a
 * table grown from small sizes zeroes and copies every size on the way
 * (measured: page faults were an eighth of a close of 100 000 players).
 * A quarter more, as a table nearly full may grow anyway (its probe
 * sequences get long); a wrong estimate only costs a grow or some memory.
 */
static uint32
expected_players(Portal portal)
{
	double		rows = 0.0;

	if (list_length(portal->stmts) == 1 && IsA(linitial(portal->stmts), PlannedStmt))
		rows = linitial_node(PlannedStmt, portal->stmts)->planTree->plan_rows;
	return (uint32) Max(1024.0, Min(rows * 1.25, (double) (1 << 26)));
}

/* Run a portal to its end into the pass's receiver. */
static void
run_portal(ClosePass *pass, Portal portal,
		   bool (*receive) (TupleTableSlot *, DestReceiver *))
{
	glicko_rows_receiver_init(&pass->receiver, receive);
	PortalRunFetch(portal, FETCH_FORWARD, FETCH_ALL, &pass->receiver);
	SPI_cursor_close(portal);
}

static void
report_bad_games(ClosePass *pass, const char *what)
{
	int			code;

	switch (pass->first_bad_kind)
	{
		case BAD_SELF_PLAY:
			code = ERRCODE_INVALID_PARAMETER_VALUE;
			break;
		case BAD_SCORE:
		case BAD_ADVANTAGE:
		case BAD_TERMS:
			code = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
			break;
		default:
			code = ERRCODE_NULL_VALUE_NOT_ALLOWED;
			break;
	}
	ereport(ERROR,
			errcode(code),
			errmsg("bad game in %s: %s", what, pass->first_bad),
			pass->form == GAMES_FORM_TERMS ?
			errdetail("%lld of the period's %lld game sides are refused (a NULL player, NULL terms, terms not finite or a negative information); nothing was changed.",
					  (long long) pass->n_bad, (long long) pass->n_games) :
			pass->advantage ?
			errdetail("%lld of the period's %lld games are refused (self-play, a NULL player, a NULL score, a score outside [0, 1] or an advantage not a finite number); nothing was changed.",
					  (long long) pass->n_bad, (long long) pass->n_games) :
			errdetail("%lld of the period's %lld games are refused (self-play, a NULL player, a NULL score or a score outside [0, 1]); nothing was changed.",
					  (long long) pass->n_bad, (long long) pass->n_games));
}

/* ---- running a pass ---- */

/* ERROR, naming the player, unless his new rating is one a close may write
 * (glicko2_justified). */
static void
check_justified(Oid key_type, Datum key, const Glicko2Rating *pre,
				const Glicko2Rating *post, double tau)
{
	Oid			out;
	bool		varlena;

	if (glicko2_justified(pre, post, tau))
		return;
	getTypeOutputInfo(key_type, &out, &varlena);
	ereport(ERROR,
			errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			errmsg("the period's games cannot justify the new rating of player %s: %s from %s",
				   OidOutputFunctionCall(out, key), glicko2_to_cstring(post),
				   glicko2_to_cstring(pre)),
			errdetail("Its volatility would rise above %g (the larger of 1 and tau): a runaway, from games whose information is counted many times over or a streak no rating on this scale can follow; nothing was changed.",
					  glicko2_max_raised_volatility(tau)),
			errhint("Team matches: the methods 'sum' and 'mean' count each match's information once."));
}

void
glicko_close_player_result(Oid key_type, Datum key, const Glicko2Rating *pre, bool rated,
						   const GlickoSums *sums, double tau, double max_rd,
						   const GlickoCaps *caps, CloseResult *result)
{
	result->key = key;
	result->games = sums->games;
	result->has_rating = rated || sums->games > 0;
	result->capped = false;
	if (result->has_rating)
	{
		GlickoStatus status = glicko2_close_player(pre, sums, tau, max_rd, &result->rating);

		if (status != GLICKO_OK)
			glicko_report_status(status, psprintf("glicko2 update of player %s",
												  glicko2_to_cstring(pre)));
		if (sums->games > 0)
			check_justified(key_type, key, pre, &result->rating, tau);
		result->capped = glicko2_apply_caps(pre, &result->rating, caps);
	}
}

/* Every player's new rating, in the order first read, floors and caps
 * applied (a departure from the paper the close's caller chose). */
static void
compute_results(ClosePass *pass, double tau, double max_rd, const GlickoCaps *caps)
{
	players_iterator iter;
	PlayerEntry *entry;

	pass->results = MemoryContextAllocHuge(pass->context,
										   sizeof(CloseResult) * Max(pass->n_players, 1));
	players_start_iterate(pass->players, &iter);
	while ((entry = players_iterate(pass->players, &iter)) != NULL)
	{
		CloseResult *result = &pass->results[entry->seq];

		CHECK_FOR_INTERRUPTS();
		glicko_close_player_result(pass->key_type, entry->key, &entry->pre, entry->rated,
								   &entry->sums, tau, max_rd, caps, result);
		result->is_new = entry->is_new;
	}
}

void
glicko_close_pass_args(FunctionCallInfo fcinfo, ClosePassArgs *args)
{
	for (int i = 0; i < 3; i++)
		if (PG_ARGISNULL(i))
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("the ratings query, the games query and tau must not be NULL"));
	args->ratings_sql = text_to_cstring(PG_GETARG_TEXT_PP(0));
	args->games_sql = text_to_cstring(PG_GETARG_TEXT_PP(1));
	args->tau = PG_GETARG_FLOAT8(2);
	glicko_check_positive(args->tau, "tau");
	args->max_rd = PG_ARGISNULL(3) ? INFINITY : PG_GETARG_FLOAT8(3);
	if (!PG_ARGISNULL(3))
		glicko_check_positive(args->max_rd, "max_rd");
	args->what = PG_ARGISNULL(4) ? "the games" : text_to_cstring(PG_GETARG_TEXT_PP(4));
	args->form = GAMES_FORM_GUESS;
	if (!PG_ARGISNULL(5))
	{
		char	   *form = text_to_cstring(PG_GETARG_TEXT_PP(5));

		if (strcmp(form, "games") == 0)
			args->form = GAMES_FORM_GAMES;
		else if (strcmp(form, "sides") == 0)
			args->form = GAMES_FORM_SIDES;
		else if (strcmp(form, "terms") == 0)
			args->form = GAMES_FORM_TERMS;
		else
			ereport(ERROR,
					errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					errmsg("form must be 'games', 'sides', 'terms' or NULL, not '%s'", form));
	}
	args->caps = GLICKO_CAPS_OFF;
	if (PG_NARGS() == 8 && !PG_ARGISNULL(6))
		glicko_caps_from_array(PG_GETARG_ARRAYTYPE_P(6), &args->caps);
	args->params = PG_ARGISNULL(PG_NARGS() - 1) ? construct_empty_array(TEXTOID)
		: PG_GETARG_ARRAYTYPE_P(PG_NARGS() - 1);
	if (ARR_NDIM(args->params) > 1)
		ereport(ERROR,
				errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				errmsg("params must be a one-dimensional array"));
}

ClosePass *
glicko_close_pass_run(MemoryContext parent, Oid rating_type, const ClosePassArgs *args)
{
	MemoryContext context = AllocSetContextCreate(parent, "glicko2 close pass",
												  ALLOCSET_DEFAULT_SIZES);
	ClosePass  *pass = MemoryContextAllocZero(context, sizeof(ClosePass));
	ErrorContextCallback errcallback;
	Portal		portal;
	TypeCacheEntry *typcache;

	pass->context = context;
	pass->row_context = AllocSetContextCreate(context, "glicko2 close pass row",
											  ALLOCSET_DEFAULT_SIZES);
	pass->rating_type = rating_type;
	pass->unrated = glicko2_unrated(args->max_rd);
	errcallback.callback = close_pass_error_context;
	errcallback.arg = pass;
	errcallback.previous = error_context_stack;
	error_context_stack = &errcallback;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");

	/* The pre-period ratings. */
	pass->reading = "reading the ratings";
	portal = open_query(args->ratings_sql, args->params);
	pass->key_type = TupleDescAttr(portal->tupDesc, 0)->atttypid;
	pass->key_collation = TupleDescAttr(portal->tupDesc, 0)->attcollation;
	check_column(portal->tupDesc, 1, pass->rating_type, "the ratings query", "rating");
	get_typlenbyval(pass->key_type, &pass->key_typlen, &pass->key_typbyval);
	pass->key_is_integer = glicko_is_integer_type(pass->key_type);
	typcache = lookup_type_cache(pass->key_type,
								 TYPECACHE_HASH_PROC_FINFO | TYPECACHE_EQ_OPR_FINFO);
	if (!OidIsValid(typcache->hash_proc_finfo.fn_oid) ||
		!OidIsValid(typcache->eq_opr_finfo.fn_oid))
		ereport(ERROR,
				errcode(ERRCODE_UNDEFINED_FUNCTION),
				errmsg("player type %s has no hash function or equality operator",
					   format_type_be(pass->key_type)),
				errdetail("A close keeps the players in a hash table."));
	fmgr_info_copy(&pass->key_hash, &typcache->hash_proc_finfo, pass->context);
	fmgr_info_copy(&pass->key_equal, &typcache->eq_opr_finfo, pass->context);
	pass->queue_games = pass->key_typbyval;
	pass->players = players_create(pass->context, expected_players(portal), pass);
	run_portal(pass, portal, receive_rating);

	/* The games. */
	pass->reading = "reading the games";
	portal = open_query(args->games_sql, args->params);
	check_column(portal->tupDesc, 0, pass->key_type, "the games query", "player");
	pass->form = args->form;
	if (pass->form == GAMES_FORM_GUESS)
		pass->form = portal->tupDesc->natts > 1 &&
			TupleDescAttr(portal->tupDesc, 1)->atttypid == pass->rating_type ?
			GAMES_FORM_SIDES : GAMES_FORM_GAMES;
	if (pass->form == GAMES_FORM_TERMS)
	{
		check_column(portal->tupDesc, 1, FLOAT8OID, "the games query", "information");
		check_column(portal->tupDesc, 2, FLOAT8OID, "the games query", "surprise");
		if (portal->tupDesc->natts != 3)
			ereport(ERROR,
					errcode(ERRCODE_DATATYPE_MISMATCH),
					errmsg("the games query must yield 3 columns (player, information, surprise), not %d",
						   portal->tupDesc->natts));
	}
	else if (pass->form == GAMES_FORM_SIDES)
		check_column(portal->tupDesc, 1, pass->rating_type, "the games query",
					 "opponent's glicko2_rating");
	else
		check_column(portal->tupDesc, 1, pass->key_type, "the games query",
					 "opponent (or the opponent's glicko2_rating)");
	if (pass->form != GAMES_FORM_TERMS &&
		portal->tupDesc->natts != 3 && portal->tupDesc->natts != 4)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("the games query must yield 3 columns (player, opponent, score) or 4 (and the player's advantage), not %d",
					   portal->tupDesc->natts));
	pass->advantage = portal->tupDesc->natts == 4;
	if (pass->advantage)
		check_column(portal->tupDesc, 3, FLOAT8OID, "the games query", "advantage");
	pass->score_type = TupleDescAttr(portal->tupDesc, 2)->atttypid;
	if (pass->form != GAMES_FORM_TERMS && !glicko_is_number_type(pass->score_type))
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column 3 of the games query must be a number, not %s",
					   format_type_be(pass->score_type)));
	run_portal(pass, portal, receive_game);
	if (pass->n_bad == 0)
		drain_games(pass);
	pass->reading = NULL;
	if (pass->n_bad > 0)
		report_bad_games(pass, args->what);

	SPI_finish();

	compute_results(pass, args->tau, args->max_rd, &args->caps);
	MemoryContextReset(pass->row_context);

	ereport(DEBUG1,
			errmsg("glicko2 close: %lld players, %lld games, %zu bytes for the players",
				   (long long) pass->n_players, (long long) pass->n_games,
				   (size_t) (MemoryContextMemAllocated(pass->context, true) +
							 players_array_bytes(pass->players))));
	error_context_stack = errcallback.previous;
	return pass;
}

/* Frees a pass and everything it holds. */
static void
close_pass_free(ClosePass *pass)
{
	MemoryContextDelete(pass->context);
}

Oid
glicko_close_pass_key_type(const ClosePass *pass)
{
	return pass->key_type;
}

const CloseResult *
glicko_close_pass_results(const ClosePass *pass, uint32 *n)
{
	*n = pass->n_players;
	return pass->results;
}

/*
 * Whoever asks for the results one player at a time (an UPDATE of the
 * ratings) usually asks in the order they were read: the next result is
 * tried first, and a hash lookup is the fallback.
 */
const CloseResult *
glicko_close_pass_result_of(ClosePass *pass, Datum key)
{
	uint32		next = pass->next_result;
	PlayerEntry *entry;

	if (next < pass->n_players && player_equal(pass, pass->results[next].key, key))
	{
		pass->next_result = next + 1;
		return &pass->results[next];
	}
	entry = players_lookup(pass->players, key);
	if (entry == NULL)
		return NULL;
	pass->next_result = entry->seq + 1;
	return &pass->results[entry->seq];
}

/* ---- the SQL-callable function ---- */

PG_FUNCTION_INFO_V1(glicko2_close_ratings);
Datum
glicko2_close_ratings(PG_FUNCTION_ARGS)
{
	ClosePass  *pass;
	ClosePassArgs args;
	TupleDesc	out_desc;
	TupleDesc	rating_desc;
	Tuplestorestate *store = glicko_materialized_result(fcinfo, &out_desc, "glicko2_close_ratings");
	MemoryContext old;
	const CloseResult *results;
	uint32		n;

	glicko_close_pass_args(fcinfo, &args);

	/* The result: (player, rating, games, is_new [, capped]). */
	if (out_desc->natts != 4 && out_desc->natts != 5)
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("glicko2_close_ratings needs a column definition list of 4 columns"),
				errhint("... AS c(player <key type>, rating glicko2_rating, games bigint, is_new boolean)"));
	rating_desc = lookup_rowtype_tupdesc_copy(TupleDescAttr(out_desc, 1)->atttypid, -1);
	if (rating_desc->natts != 3 ||
		TupleDescAttr(rating_desc, 0)->atttypid != FLOAT8OID ||
		TupleDescAttr(rating_desc, 1)->atttypid != FLOAT8OID ||
		TupleDescAttr(rating_desc, 2)->atttypid != FLOAT8OID)
		ereport(ERROR,
				errcode(ERRCODE_DATATYPE_MISMATCH),
				errmsg("column 2 of the result must be a glicko2_rating"));
	rating_desc = BlessTupleDesc(rating_desc);
	check_column(out_desc, 2, INT8OID, "the result", "number of games");
	check_column(out_desc, 3, BOOLOID, "the result", "flag of new players");
	if (out_desc->natts == 5)
		check_column(out_desc, 4, BOOLOID, "the result", "flag of capped ratings");

	pass = glicko_close_pass_run(CurrentMemoryContext, TupleDescAttr(out_desc, 1)->atttypid, &args);
	check_column(out_desc, 0, pass->key_type, "the result", "player");

	/*
	 * Every player's new rating, in the order first read (the ratings' order,
	 * then new players): an update then visits the table in its own order.
	 */
	old = MemoryContextSwitchTo(pass->row_context);

	results = glicko_close_pass_results(pass, &n);
	for (uint32 i = 0; i < n; i++)
	{
		const CloseResult *result = &results[i];
		Datum		values[5];
		bool		nulls[5] = {false, false, false, false, false};

		CHECK_FOR_INTERRUPTS();
		values[0] = result->key;
		values[2] = Int64GetDatum(result->games);
		values[3] = BoolGetDatum(result->is_new);
		values[4] = BoolGetDatum(result->capped);
		if (result->has_rating)
			values[1] = glicko2_rating_datum(rating_desc, &result->rating);
		else
			nulls[1] = true;	/* unrated and idle: stays unrated */
		tuplestore_putvalues(store, out_desc, values, nulls);
		MemoryContextReset(pass->row_context);
	}
	MemoryContextSwitchTo(old);
	close_pass_free(pass);
	return (Datum) 0;
}
