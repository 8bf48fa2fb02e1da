/*
 * explain.c — the aggregate glicko2_explain: one player's Glicko-2 update
 * of one period with every intermediate quantity of the paper, as jsonb.
 *
 * Its state is glicko2_period's (player, tau, the two sums, added up in the
 * same order and combined the same way, so the result is the same double)
 * plus the list of games, kept only to print each game's g and E.  The list
 * is what an explanation is about, so it is bounded (EXPLAIN_MAX_GAMES):
 * glicko2_explain is for one player's games, not for a whole league.
 */
#include "postgres.h"

#include "fmgr.h"
#include "libpq/pqformat.h"
#include "miscadmin.h"
#include "utils/float.h"
#include "utils/jsonb.h"

#include "json_build.h"
#include "period_agg.h"
#include "rating.h"

#define EXPLAIN_MAX_GAMES 10000

typedef struct ExplainGame
{
	double		rating;			/* the opponent's */
	double		rd;
	double		score;
} ExplainGame;

typedef struct ExplainState
{
	Glicko2Rating player;
	double		tau;
	GlickoSums	sums;
	int32		ngames;			/* always sums.games */
	int32		capacity;
	ExplainGame *games;
} ExplainState;

/* player, tau, the two double-double sums, games, then 3 float8 per game */
#define EXPLAIN_GAME_SIZE (3 * sizeof(float8))

#ifdef USE_ASSERT_CHECKING
static void
AssertValidExplainState(const ExplainState *state)
{
	Assert(isfinite(state->player.rating));
	Assert(state->player.rd > 0.0);
	Assert(state->tau > 0.0);
	Assert(state->sums.information >= 0.0);
	Assert(state->ngames == state->sums.games);
	Assert(state->ngames <= state->capacity);
}
#else
#define AssertValidExplainState(state) ((void) 0)
#endif

static ExplainState *
new_state(MemoryContext aggcontext, const Glicko2Rating *player, double tau,
		  int32 capacity)
{
	ExplainState *state = MemoryContextAllocZero(aggcontext, sizeof(ExplainState));

	state->player = *player;
	state->tau = tau;
	state->capacity = Max(capacity, 8);
	state->games = MemoryContextAlloc(aggcontext, state->capacity * sizeof(ExplainGame));
	return state;
}

/* Make room for `more` games, refusing to go past the bound. */
static void
reserve_games(ExplainState *state, int64 more)
{
	int64		needed = (int64) state->ngames + more;

	if (needed > EXPLAIN_MAX_GAMES)
		ereport(ERROR,
				errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				errmsg("glicko2_explain takes at most %d games in one group, not " INT64_FORMAT,
					   EXPLAIN_MAX_GAMES, needed),
				errdetail("An explanation lists every game; it is meant for one player's games of one period."),
				errhint("Use glicko2_period for the rating alone, or explain fewer games."));
	if (needed > state->capacity)
	{
		int32		capacity = Min(Max((int64) state->capacity * 2, needed),
								   EXPLAIN_MAX_GAMES);

		state->games = repalloc(state->games, capacity * sizeof(ExplainGame));
		state->capacity = capacity;
	}
}

/* Transition for glicko2_explain(player, opponent, score [, tau]). */
PG_FUNCTION_INFO_V1(glicko2_explain_transfn);
Datum
glicko2_explain_transfn(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext = glicko_aggregate_context(fcinfo, "glicko2_explain_transfn");
	ExplainState *state = PG_ARGISNULL(0) ? NULL : (ExplainState *) PG_GETARG_POINTER(0);
	Glicko2Rating player;
	Glicko2Rating opponent;
	double		tau = glicko_arg_tau(fcinfo, 4);
	double		score;

	glicko2_arg_or_unrated(fcinfo, 1, &player, "player");

	if (state == NULL)
		state = new_state(aggcontext, &player, tau, 8);
	else
		glicko_check_same_group(&state->player, state->tau, &player, tau);
	AssertValidExplainState(state);

	/* A row without a score is skipped, as in glicko2_period. */
	if (PG_ARGISNULL(3))
		PG_RETURN_POINTER(state);
	score = PG_GETARG_FLOAT8(3);
	glicko_check_score(score);
	glicko2_arg_or_unrated(fcinfo, 2, &opponent, "opponent");

	reserve_games(state, 1);
	state->games[state->ngames].rating = opponent.rating;
	state->games[state->ngames].rd = opponent.rd;
	state->games[state->ngames].score = score;
	state->ngames++;
	glicko2_add_game(&state->sums, player.rating, opponent.rating, opponent.rd, score);

	AssertValidExplainState(state);
	PG_RETURN_POINTER(state);
}

/* Combine two partial states: sums added as glicko2_period adds them, games appended. */
PG_FUNCTION_INFO_V1(glicko2_explain_combinefn);
Datum
glicko2_explain_combinefn(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext = glicko_aggregate_context(fcinfo, "glicko2_explain_combinefn");
	ExplainState *a = PG_ARGISNULL(0) ? NULL : (ExplainState *) PG_GETARG_POINTER(0);
	ExplainState *b = PG_ARGISNULL(1) ? NULL : (ExplainState *) PG_GETARG_POINTER(1);

	if (b == NULL)
		PG_RETURN_POINTER(a);
	AssertValidExplainState(b);
	if (a == NULL)
		a = new_state(aggcontext, &b->player, b->tau, b->ngames);
	else
		glicko_check_same_group(&a->player, a->tau, &b->player, b->tau);
	AssertValidExplainState(a);

	reserve_games(a, b->ngames);
	memcpy(a->games + a->ngames, b->games, b->ngames * sizeof(ExplainGame));
	a->ngames += b->ngames;
	glicko_merge_sums(&a->sums, &b->sums);

	AssertValidExplainState(a);
	PG_RETURN_POINTER(a);
}

/* Serialize a state for a parallel worker (network byte order). */
PG_FUNCTION_INFO_V1(glicko2_explain_serialfn);
Datum
glicko2_explain_serialfn(PG_FUNCTION_ARGS)
{
	ExplainState *state = (ExplainState *) PG_GETARG_POINTER(0);
	StringInfoData buf;
	int32		i;

	pq_begintypsend(&buf);
	glicko_send_group(&buf, &state->player, state->tau, &state->sums);
	for (i = 0; i < state->ngames; i++)
	{
		pq_sendfloat8(&buf, state->games[i].rating);
		pq_sendfloat8(&buf, state->games[i].rd);
		pq_sendfloat8(&buf, state->games[i].score);
	}
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf));
}

/* Deserialize a state, checking every value it reads. */
PG_FUNCTION_INFO_V1(glicko2_explain_deserialfn);
Datum
glicko2_explain_deserialfn(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);
	size_t		len = VARSIZE_ANY_EXHDR(bytes);
	StringInfoData buf;
	ExplainState *state;
	Glicko2Rating player;
	double		tau;
	GlickoSums	sums;
	bool		valid;
	int64		ngames;
	int32		i;

	glicko_aggregate_context(fcinfo, "glicko2_explain_deserialfn");
	if (len < GROUP_SERIAL_SIZE || (len - GROUP_SERIAL_SIZE) % EXPLAIN_GAME_SIZE != 0 ||
		(len - GROUP_SERIAL_SIZE) / EXPLAIN_GAME_SIZE > EXPLAIN_MAX_GAMES)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid glicko2_explain state: %zu bytes", len));
	ngames = (len - GROUP_SERIAL_SIZE) / EXPLAIN_GAME_SIZE;

	buf.data = VARDATA_ANY(bytes);
	buf.len = len;
	buf.maxlen = len;
	buf.cursor = 0;

	valid = glicko_recv_group(&buf, &player, &tau, &sums);
	state = new_state(CurrentMemoryContext, &player, tau, (int32) ngames);
	state->sums = sums;
	state->ngames = (int32) ngames;
	for (i = 0; i < state->ngames; i++)
	{
		state->games[i].rating = pq_getmsgfloat8(&buf);
		state->games[i].rd = pq_getmsgfloat8(&buf);
		state->games[i].score = pq_getmsgfloat8(&buf);
		if (!glicko_valid_rating_value(state->games[i].rating) ||
			!glicko_valid_positive(state->games[i].rd) ||
			!glicko_valid_score(state->games[i].score))
			ereport(ERROR,
					errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
					errmsg("invalid glicko2_explain state: bad game %d", i + 1));
	}
	pq_getmsgend(&buf);

	if (!valid || !glicko_valid_positive(player.volatility) ||
		!glicko_valid_positive(tau) || sums.games != ngames)
		ereport(ERROR,
				errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				errmsg("invalid glicko2_explain state"));

	PG_RETURN_POINTER(state);
}

static void
put_rating(GlickoJsonbState *st, const char *key, const Glicko2Rating *r)
{
	glicko_json_begin_object(st, key);
	glicko_json_put_number(st, "rating", r->rating);
	glicko_json_put_number(st, "rd", r->rd);
	glicko_json_put_number(st, "volatility", r->volatility);
	glicko_json_end_object(st);
}

/* Each game as the paper's table has it: mu_j, phi_j, g(phi_j), E, s_j. */
static void
put_games(GlickoJsonbState *st, const ExplainState *state)
{
	int32		i;

	glicko_json_begin_array(st, "games");
	for (i = 0; i < state->ngames; i++)
	{
		const ExplainGame *game = &state->games[i];
		Glicko2Rating opponent = {game->rating, game->rd, GLICKO2_DEFAULT_VOLATILITY};
		Glicko2Scaled s;

		CHECK_FOR_INTERRUPTS();
		glicko2_to_scaled(&opponent, &s);
		glicko_json_begin_object(st, NULL);
		glicko_json_begin_object(st, "opponent");
		glicko_json_put_number(st, "rating", game->rating);
		glicko_json_put_number(st, "rd", game->rd);
		glicko_json_end_object(st);
		glicko_json_put_number(st, "mu_j", s.mu);
		glicko_json_put_number(st, "phi_j", s.phi);
		glicko_json_put_number(st, "g", glicko2_g(game->rd));
		glicko_json_put_number(st, "E", glicko2_expected(state->player.rating, game->rating, game->rd));
		glicko_json_put_number(st, "s", game->score);
		glicko_json_end_object(st);
	}
	glicko_json_end_array(st);
}

/* Step 5's starting values and the Illinois iterations, as the paper's table. */
static void
put_iterations(GlickoJsonbState *st, const Glicko2Trace *trace)
{
	int			i;

	glicko_json_begin_array(st, "iterations");
	for (i = 0; i < trace->n_iterations; i++)
	{
		glicko_json_begin_object(st, NULL);
		glicko_json_put_number(st, "A", trace->iterations[i].A);
		glicko_json_put_number(st, "B", trace->iterations[i].B);
		glicko_json_put_number(st, "fA", trace->iterations[i].fA);
		glicko_json_put_number(st, "fB", trace->iterations[i].fB);
		glicko_json_end_object(st);
	}
	glicko_json_end_array(st);
}

/*
 * Final: glicko2_update over the same sums as glicko2_period, with the
 * trace written out.  When the games carry no information (none, or every
 * E saturated) only Step 6 applies: v, delta, k and the iterations are null.
 */
PG_FUNCTION_INFO_V1(glicko2_explain_finalfn);
Datum
glicko2_explain_finalfn(PG_FUNCTION_ARGS)
{
	ExplainState *state;
	Glicko2Trace *trace;
	Glicko2Rating result;
	GlickoStatus status;
	GlickoJsonbState st = GLICKO_JSONB_STATE_INIT;
	bool		informative;

	glicko_aggregate_context(fcinfo, "glicko2_explain_finalfn");
	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	state = (ExplainState *) PG_GETARG_POINTER(0);
	AssertValidExplainState(state);

	trace = palloc(sizeof(Glicko2Trace));
	status = glicko2_update(&state->player, &state->sums, state->tau, &result, trace);
	if (status != GLICKO_OK)
		glicko_report_status(status, psprintf("glicko2 update of player %s",
											  glicko2_to_cstring(&state->player)));
	informative = !trace->no_information;

	glicko_json_begin_object(&st, NULL);
	put_rating(&st, "player", &state->player);
	glicko_json_put_number(&st, "tau", state->tau);
	glicko_json_put_number(&st, "epsilon", GLICKO2_EPSILON);
	glicko_json_put_number(&st, "mu", trace->mu);
	glicko_json_put_number(&st, "phi", trace->phi);
	glicko_json_put_number(&st, "sigma", state->player.volatility);
	put_games(&st, state);
	glicko_json_put_bool(&st, "no_information", !informative);
	glicko_json_put_number(&st, "v", informative ? trace->v : NAN);
	glicko_json_put_number(&st, "delta", informative ? trace->delta : NAN);
	glicko_json_put_number(&st, "a", trace->a);
	glicko_json_put_number(&st, "k", informative ? trace->k : NAN);
	put_iterations(&st, trace);
	glicko_json_put_number(&st, "sigma_new", trace->sigma_new);
	glicko_json_put_number(&st, "phi_star", trace->phi_star);
	glicko_json_put_number(&st, "phi_new", trace->phi_new);
	glicko_json_put_number(&st, "mu_new", trace->mu_new);
	put_rating(&st, "result", &result);
	PG_RETURN_JSONB_P(glicko_json_finish(&st));
}
