/*
 * period_agg.c — the aggregates glicko2_period and glicko1_period.
 *
 * One group is one player's games of one period.  The state is fixed-size:
 * the player's pre-period rating, tau, and the two sums of GlickoSums, so
 * memory does not grow with the number of games, and two partial states
 * combine by adding their sums (parallel and distributed aggregation).
 *
 * Deferred accumulation.  In a hash aggregate over many players each row's
 * state sits at a random address, and reading it at once costs a cache miss
 * per row: measured, as much as all the rest of the row's work (bench/).
 * So the transition function computes the row's contribution (a chain of
 * divisions, a square root and an exponential, which the CPU overlaps with
 * the executor's own wait for the state's address), prefetches the state
 * and queues the contribution; it is added PENDING_DEPTH rows later, when
 * the state is in cache.  Contributions reach each state in row order, so
 * the sums are bit-for-bit those of adding them at once.  Whatever reads a
 * state (final, serial, combine) first drains the queue, and a reset of the
 * aggregate context (rescan, error) discards it with the states.  (Queueing
 * the games raw and computing eight at a time was measured no faster: the
 * wait for the state's address is then no longer hidden.)
 *
 * The queue lives in fn_extra, so it is used only when the call is the
 * aggregate node's own (its per-transition FmgrInfo, which lives as long as
 * the node and so outlives every reset of the states' context).  Any other
 * caller (a window aggregate, an extension calling the transition function
 * through an FmgrInfo of its own, perhaps a fresh one per row in a per-tuple
 * context, as Citus's partial aggregation does) gets each game added at once:
 * the same bits, nothing queued where it could outlive its FmgrInfo.
 */
#include "postgres.h"

#include "executor/nodeAgg.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "utils/float.h"
#include "utils/memutils.h"

#include "period_agg.h"
#include "memory.h"
#include "rating.h"

#define PENDING_DEPTH 8

struct PendingQueue;

typedef struct PeriodState
{
	Glicko2Rating player;		/* Glicko-1 leaves volatility at 0 */
	double		tau;			/* 0 marks a Glicko-1 state */
	GlickoSums	sums;
	struct PendingQueue *queue; /* may hold games of this state; or NULL */
} PeriodState;

/* One row's game, not yet added to its state. */
typedef struct PendingGame
{
	PeriodState *state;
	Glicko2Rating player;		/* the row's player, checked against the state */
	double		tau;
	GlickoTerms game;
	bool		scored;			/* false: a NULL score, no game */
} PendingGame;

/*
 * Per call site (fn_extra of the transition function, query lifetime).  It
 * queues only games of states in `aggcontext`; rows of states elsewhere (a
 * second grouping set's context) are added at once.
 */
typedef struct PendingQueue
{
	MemoryContext aggcontext;	/* NULL until the first state or queued game */
	MemoryContextCallback on_reset;
	int			head;			/* oldest entry */
	int			count;
	PendingGame games[PENDING_DEPTH];
} PendingQueue;

#ifdef USE_ASSERT_CHECKING
static void
AssertValidState(const PeriodState *state)
{
	Assert(isfinite(state->player.rating));
	Assert(state->player.rd > 0.0);
	Assert(state->sums.games >= 0);
	Assert(state->sums.information >= 0.0);
}
#else
#define AssertValidState(state) ((void) 0)
#endif

MemoryContext
glicko_aggregate_context(FunctionCallInfo fcinfo, const char *fname)
{
	MemoryContext aggcontext;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		ereport(ERROR,
				errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				errmsg("%s must be called as part of an aggregate", fname));
	return aggcontext;
}

static PeriodState *
new_state(MemoryContext aggcontext, const Glicko2Rating *player, double tau)
{
	PeriodState *state = MemoryContextAllocZero(aggcontext, sizeof(PeriodState));

	state->player = *player;
	state->tau = tau;
	return state;
}

static char *
state_player_cstring(const Glicko2Rating *player, double tau)
{
	Glicko1Rating r1 = {player->rating, player->rd};

	return tau == 0.0 ? glicko1_to_cstring(&r1) : glicko2_to_cstring(player);
}

/*
 * The player's rating (and tau) must be the same in every row of a group:
 * `first` is the group's, `player` this row's (or another partial state's).
 */
void
glicko_check_same_group(const Glicko2Rating *first, double first_tau,
						const Glicko2Rating *player, double tau)
{
	if (first->rating != player->rating ||
		first->rd != player->rd ||
		first->volatility != player->volatility)
	{
		/*
		 * A Glicko-2 row's player is checked only here once a group has
		 * begun.
		 */
		if (tau != 0.0 && !glicko2_valid(player))
			glicko2_check(player, "player");
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("player rating differs within one group: %s and %s",
					   state_player_cstring(first, first_tau),
					   state_player_cstring(player, tau)),
				errdetail("One group is one player's games of one period, all from the same pre-period rating."),
				errhint("Group by the player (and period), or check the join that supplies the player's rating."));
	}
	if (first_tau != tau)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				errmsg("tau differs within one group: %s and %s",
					   float8out_internal(first_tau), float8out_internal(tau)));
}

/* Argument n, tau: the default where the aggregate has no tau argument. */
double
glicko_arg_tau(FunctionCallInfo fcinfo, int n)
{
	double		tau;

	if (PG_NARGS() <= n)
		return GLICKO2_DEFAULT_TAU;
	if (PG_ARGISNULL(n))
		ereport(ERROR,
				errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				errmsg("tau must not be NULL"));
	tau = PG_GETARG_FLOAT8(n);
	glicko_check_positive(tau, "tau");
	return tau;
}

/* Add one row's game to its state. */
static void
apply_game(PeriodState *state, const Glicko2Rating *player, double tau,
		   const GlickoTerms *game, bool scored)
{
	glicko_check_same_group(&state->player, state->tau, player, tau);
	AssertValidState(state);
	if (scored)
		glicko_add_terms(&state->sums, game);
	AssertValidState(state);
}

/* Take the oldest queued game off the queue and add it to its state. */
static void
apply_oldest(PendingQueue *queue)
{
	PendingGame *p = &queue->games[queue->head];

	queue->head = (queue->head + 1) % PENDING_DEPTH;
	queue->count--;
	apply_game(p->state, &p->player, p->tau, &p->game, p->scored);
}

/* Add every queued game to its state; first thing before reading any state. */
static void
drain_queue(PendingQueue *queue)
{
	if (queue == NULL)
		return;
	while (queue->count > 0)
		apply_oldest(queue);
}

/* The queued states are being freed (rescan, end, error): forget them. */
static void
discard_queue(void *arg)
{
	PendingQueue *queue = (PendingQueue *) arg;

	queue->aggcontext = NULL;
	queue->head = 0;
	queue->count = 0;
}

/*
 * The call site's queue, if games may be queued there: only when the call is
 * the aggregate node's own transition call (then fn_extra is in the node's
 * per-transition FmgrInfo, which outlives the states); otherwise NULL.
 */
static PendingQueue *
pending_queue(FunctionCallInfo fcinfo)
{
	AggState   *aggstate = (AggState *) fcinfo->context;

	if (aggstate == NULL || !IsA(aggstate, AggState) ||
		aggstate->curpertrans == NULL ||
		fcinfo->flinfo != &aggstate->curpertrans->transfn)
		return NULL;
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra =
			MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(PendingQueue));
	return (PendingQueue *) fcinfo->flinfo->fn_extra;
}

/*
 * Shared transition: the player is recorded even from a row whose score is
 * NULL, so a group with no scored games still yields its Step 6 rating.
 * A group's first row starts its state; later rows are queued.  The row's
 * player was checked only if it starts the state: later rows must equal it
 * (apply_game), which a bad rating never does.
 */
static PeriodState *
period_transition(FunctionCallInfo fcinfo, MemoryContext aggcontext,
				  const Glicko2Rating *player, double tau,
				  const GlickoTerms *game, bool scored)
{
	PeriodState *state = PG_ARGISNULL(0) ? NULL : (PeriodState *) PG_GETARG_POINTER(0);
	PendingQueue *queue = pending_queue(fcinfo);
	PendingGame *p;
	const char *byte;

	if (queue != NULL && queue->aggcontext == NULL)
	{
		queue->aggcontext = aggcontext;
		queue->on_reset.func = discard_queue;
		queue->on_reset.arg = queue;
		MemoryContextRegisterResetCallback(aggcontext, &queue->on_reset);
	}
	if (queue != NULL && queue->aggcontext != aggcontext)
		queue = NULL;			/* another grouping set's context */

	if (state == NULL)
	{
		state = new_state(aggcontext, player, tau);
		state->queue = queue;
		apply_game(state, player, tau, game, scored);
		return state;
	}
	if (queue == NULL)
	{
		drain_queue(state->queue);	/* keep row order, whoever queued them */
		apply_game(state, player, tau, game, scored);
		return state;
	}

	/* Every cache line of the state: it may straddle two or three. */
	for (byte = (const char *) state; byte < (const char *) (state + 1); byte += 32)
		glicko_prefetch_write(byte);
	glicko_prefetch_write((const char *) (state + 1) - 1);

	if (queue->count == PENDING_DEPTH)
		apply_oldest(queue);
	p = &queue->games[(queue->head + queue->count) % PENDING_DEPTH];
	queue->count++;
	p->state = state;
	p->player = *player;
	p->tau = tau;
	p->game = *game;
	p->scored = scored;
	return state;
}

/*
 * The row's player: checked when it starts the group's state (argument 0
 * NULL), else left to the comparison with the state's (see above).
 */
static inline void
arg_player(FunctionCallInfo fcinfo, Glicko2Rating *player)
{
	arg_glicko2_fields_or_unrated(fcinfo, 1, player, "player");
	if (PG_ARGISNULL(0) && !glicko2_valid(player))
		glicko2_check(player, "player");
}

/* The row's opponent and score, checked; false for a NULL score (no game). */
static inline bool
arg_opponent_score(FunctionCallInfo fcinfo, Glicko2Rating *opponent, double *score)
{
	if (PG_ARGISNULL(3))
		return false;
	*score = PG_GETARG_FLOAT8(3);
	if (!glicko_valid_score(*score))
		glicko_check_score(*score);
	arg_glicko2_fields_or_unrated(fcinfo, 2, opponent, "opponent");
	if (!glicko2_valid(opponent))
		glicko2_check(opponent, "opponent");
	return true;
}

/*
 * The Glicko-2 transitions: glicko2_period(player, opponent, score [, tau])
 * and, with_advantage, glicko2_period(..., tau, advantage), whose game's
 * terms count the player's rating `advantage` points more in E.  Each SQL
 * function passes a constant, so the rows of the aggregates without an
 * advantage pay nothing for it.
 */
static inline Datum
glicko2_transition(FunctionCallInfo fcinfo, const char *fname, bool with_advantage)
{
	MemoryContext aggcontext = glicko_aggregate_context(fcinfo, fname);
	double		tau = glicko_arg_tau(fcinfo, 4);
	double		advantage = 0.0;
	Glicko2Rating player;
	Glicko2Rating opponent;
	double		score;
	GlickoTerms game = {0};
	bool		scored;

	if (with_advantage)
	{
		if (PG_ARGISNULL(5))
			ereport(ERROR,
					errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					errmsg("advantage must not be NULL"),
					errhint("A game without an advantage (neutral ground) has advantage 0."));
		advantage = PG_GETARG_FLOAT8(5);
		glicko_check_finite(advantage, "advantage");
	}
	arg_player(fcinfo, &player);
	scored = arg_opponent_score(fcinfo, &opponent, &score);
	if (scored)
		game = with_advantage ?
			glicko2_terms_advantage(player.rating, advantage, opponent.rating,
									opponent.rd, score) :
			glicko2_terms(player.rating, opponent.rating, opponent.rd, score);

	PG_RETURN_POINTER(period_transition(fcinfo, aggcontext, &player, tau, &game, scored));
}

PG_FUNCTION_INFO_V1(glicko2_period_transfn);
Datum
glicko2_period_transfn(PG_FUNCTION_ARGS)
{
	return glicko2_transition(fcinfo, "glicko2_period_transfn", false);
}

PG_FUNCTION_INFO_V1(glicko2_period_advantage_transfn);
Datum
glicko2_period_advantage_transfn(PG_FUNCTION_ARGS)
{
	return glicko2_transition(fcinfo, "glicko2_period_advantage_transfn", true);
}

/* Transition for glicko1_period(player, opponent, score). */
PG_FUNCTION_INFO_V1(glicko1_period_transfn);
Datum
glicko1_period_transfn(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext = glicko_aggregate_context(fcinfo, "glicko1_period_transfn");
	Glicko1Rating p1,
				o1;
	Glicko2Rating player;
	GlickoTerms game = {0};
	bool		scored = !PG_ARGISNULL(3);

	glicko1_arg_or_unrated(fcinfo, 1, &p1, "player");
	if (scored)
	{
		double		score = PG_GETARG_FLOAT8(3);

		glicko_check_score(score);
		glicko1_arg_or_unrated(fcinfo, 2, &o1, "opponent");
		game = glicko1_terms(p1.rating, o1.rating, o1.rd, score);
	}
	player.rating = p1.rating;
	player.rd = p1.rd;
	player.volatility = 0.0;

	PG_RETURN_POINTER(period_transition(fcinfo, aggcontext, &player, 0.0, &game, scored));
}

/* Combine two partial states over disjoint games of the same player. */
PG_FUNCTION_INFO_V1(glicko_period_combinefn);
Datum
glicko_period_combinefn(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext = glicko_aggregate_context(fcinfo, "glicko_period_combinefn");
	PeriodState *a = PG_ARGISNULL(0) ? NULL : (PeriodState *) PG_GETARG_POINTER(0);
	PeriodState *b = PG_ARGISNULL(1) ? NULL : (PeriodState *) PG_GETARG_POINTER(1);

	if (a != NULL)
		drain_queue(a->queue);
	if (b == NULL)
		PG_RETURN_POINTER(a);
	drain_queue(b->queue);
	AssertValidState(b);
	if (a == NULL)
	{
		a = new_state(aggcontext, &b->player, b->tau);
		a->sums = b->sums;
		PG_RETURN_POINTER(a);
	}
	AssertValidState(a);
	glicko_check_same_group(&a->player, a->tau, &b->player, b->tau);
	glicko_merge_sums(&a->sums, &b->sums);
	AssertValidState(a);
	PG_RETURN_POINTER(a);
}

/* Send what every state has: the group's player and tau, and the sums. */
void
glicko_send_group(StringInfo buf, const Glicko2Rating *player, double tau,
				  const GlickoSums *sums)
{
	pq_sendfloat8(buf, player->rating);
	pq_sendfloat8(buf, player->rd);
	pq_sendfloat8(buf, player->volatility);
	pq_sendfloat8(buf, tau);
	pq_sendfloat8(buf, sums->information);
	pq_sendfloat8(buf, sums->information_low);
	pq_sendfloat8(buf, sums->surprise);
	pq_sendfloat8(buf, sums->surprise_low);
	pq_sendint64(buf, sums->games);
}

/*
 * Read what glicko_send_group sent; false if it is not a possible state (the caller
 * reports it).  Glicko-1 states have volatility and tau 0.
 */
bool
glicko_recv_group(StringInfo buf, Glicko2Rating *player, double *tau, GlickoSums *sums)
{
	player->rating = pq_getmsgfloat8(buf);
	player->rd = pq_getmsgfloat8(buf);
	player->volatility = pq_getmsgfloat8(buf);
	*tau = pq_getmsgfloat8(buf);
	sums->information = pq_getmsgfloat8(buf);
	sums->information_low = pq_getmsgfloat8(buf);
	sums->surprise = pq_getmsgfloat8(buf);
	sums->surprise_low = pq_getmsgfloat8(buf);
	sums->games = pq_getmsgint64(buf);

	return glicko_valid_rating_value(player->rating) &&
		glicko_valid_positive(player->rd) &&
		isfinite(player->volatility) && player->volatility >= 0.0 &&
		isfinite(*tau) && *tau >= 0.0 &&
		isfinite(sums->information) && sums->information >= 0.0 &&
		isfinite(sums->information_low) &&
		isfinite(sums->surprise) && isfinite(sums->surprise_low) &&
		sums->games >= 0;
}

/* Serialize a state for a parallel worker (network byte order). */
PG_FUNCTION_INFO_V1(glicko_period_serialfn);
Datum
glicko_period_serialfn(PG_FUNCTION_ARGS)
{
	PeriodState *state = (PeriodState *) PG_GETARG_POINTER(0);
	StringInfoData buf;

	drain_queue(state->queue);
	pq_begintypsend(&buf);
	glicko_send_group(&buf, &state->player, state->tau, &state->sums);
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* Deserialize a state, refusing anything that is not one. */
PG_FUNCTION_INFO_V1(glicko_period_deserialfn);
Datum
glicko_period_deserialfn(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);
	StringInfoData buf;
	PeriodState *state;

	glicko_aggregate_context(fcinfo, "glicko_period_deserialfn");
	if (VARSIZE_ANY_EXHDR(bytes) != GROUP_SERIAL_SIZE)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid glicko period state: %zu bytes, expected %zu",
					   (size_t) VARSIZE_ANY_EXHDR(bytes),
					   (size_t) GROUP_SERIAL_SIZE));

	buf.data = VARDATA_ANY(bytes);
	buf.len = VARSIZE_ANY_EXHDR(bytes);
	buf.maxlen = buf.len;
	buf.cursor = 0;

	state = palloc(sizeof(PeriodState));
	state->queue = NULL;
	if (!glicko_recv_group(&buf, &state->player, &state->tau, &state->sums) ||
		buf.cursor != buf.len)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid glicko period state"));

	PG_RETURN_POINTER(state);
}

/* Final: the paper's Steps 2-8 (Step 6 alone for a group without games). */
PG_FUNCTION_INFO_V1(glicko2_period_finalfn);
Datum
glicko2_period_finalfn(PG_FUNCTION_ARGS)
{
	PeriodState *state;
	Glicko2Rating result;
	GlickoStatus status;

	glicko_aggregate_context(fcinfo, "glicko2_period_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	state = (PeriodState *) PG_GETARG_POINTER(0);
	drain_queue(state->queue);
	AssertValidState(state);

	status = glicko2_update(&state->player, &state->sums, state->tau, &result, NULL);
	if (status != GLICKO_OK)
		glicko_report_status(status, psprintf("glicko2 update of player %s",
											  glicko2_to_cstring(&state->player)));
	PG_RETURN_DATUM(glicko2_get_datum(fcinfo, &result));
}

/* Final: Glicko-1's update (the rating unchanged for a group without games). */
PG_FUNCTION_INFO_V1(glicko1_period_finalfn);
Datum
glicko1_period_finalfn(PG_FUNCTION_ARGS)
{
	PeriodState *state;
	Glicko1Rating player,
				result;
	GlickoStatus status;

	glicko_aggregate_context(fcinfo, "glicko1_period_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	state = (PeriodState *) PG_GETARG_POINTER(0);
	drain_queue(state->queue);
	AssertValidState(state);

	player.rating = state->player.rating;
	player.rd = state->player.rd;
	status = glicko1_update(&player, &state->sums, &result);
	if (status != GLICKO_OK)
		glicko_report_status(status, psprintf("glicko1 update of player %s",
											  glicko1_to_cstring(&player)));
	PG_RETURN_DATUM(glicko1_get_datum(fcinfo, &result));
}
