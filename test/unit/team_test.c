/*
 * team_test.c — src/core/team.c on its own: the paper's terms bit for bit in
 * one-on-one games, the examples of test/unit/team_reference.py (TEAM_MATH's
 * formulas written out independently in Python), the same bits whatever the
 * order of players and teams, lambda_m, the 'individual' fix, finite terms
 * at the edges of the double range, and the team win probability.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "core/team.h"

#define MAX_PLAYERS 32

static const GlickoTeamMethod methods[] = {
	GLICKO_TEAM_SUM, GLICKO_TEAM_MEAN, GLICKO_TEAM_INDIVIDUAL, GLICKO_TEAM_COMPOSITE
};

static int
close_rel(double x, double want, double tolerance)
{
	return fabs(x - want) <= tolerance * fabs(want);
}

static int
same_game(GlickoTerms a, GlickoTerms b)
{
	return memcmp(&a.information, &b.information, sizeof(double)) == 0 &&
		memcmp(&a.surprise, &b.surprise, sizeof(double)) == 0;
}

/* A match and the work it needs, on the stack. */
typedef struct Fixture
{
	GlickoTeamMatch match;
	GlickoTeamWork work;
	double		doubles[MAX_PLAYERS * 5 + MAX_PLAYERS * 9];
	int			ints[MAX_PLAYERS * 3 + 1];
} Fixture;

static void
prepare(Fixture *f, GlickoTeamMethod method, int n, int k, const int *team,
		const Glicko2Rating *rating, const double *share, const int64_t *place)
{
	f->match.method = method;
	f->match.n_players = n;
	f->match.n_teams = k;
	f->match.team = team;
	f->match.rating = rating;
	f->match.share = share;
	f->match.place = place;
	f->match.party = NULL;
	f->match.advantage.party = f->match.advantage.size = 0.0;
	CHECK(glicko_team_work_doubles(n, k) <= sizeof(f->doubles) / sizeof(double));
	CHECK(glicko_team_work_ints(n, k) <= sizeof(f->ints) / sizeof(int));
	glicko_team_prepare(&f->match, f->doubles, f->ints, &f->work);
}

/* Each player's terms summed over his sides, in the cursor's order. */
static int
player_sums(const Fixture *f, GlickoTerms *sums)
{
	GlickoTeamCursor c = {0, -1};
	GlickoTeamSide s;
	int			sides = 0;

	for (int i = 0; i < f->match.n_players; i++)
		sums[i].information = sums[i].surprise = 0.0;
	while (glicko_team_next(&f->work, &c, &s))
	{
		sums[s.player].information += s.terms.information;
		sums[s.player].surprise += s.terms.surprise;
		sides++;
	}
	CHECK(!glicko_team_next(&f->work, &c, &s)); /* stays done */
	return sides;
}

/* lambda_m = 4 (m - H_m) / (m (m - 1)): TEAM_MATH's figures. */
static void
test_lambda(void)
{
	CHECK(glicko_team_lambda(2) == 1.0);
	CHECK(close_rel(glicko_team_lambda(3), 7.0 / 9.0, 1e-15));
	CHECK(close_rel(glicko_team_lambda(4), 92.0 / 144.0, 1e-15));
	CHECK(fabs(glicko_team_lambda(12) - 0.2696) < 5e-5);
	for (int m = 3; m < 200; m++)
		CHECK(glicko_team_lambda(m) < glicko_team_lambda(m - 1) && glicko_team_lambda(m) > 0.0);
}

/*
 * One player a side (share 1): every method's terms are glicko2_terms', bit
 * for bit, for both players, over the range of valid values; a free-for-all
 * of solos is lambda_m times glicko2_terms exactly for the team model.
 */
static void
test_one_on_one(void)
{
	static const double ratings[] = {-1e308, -3e5, 0, 1400, 1500, 1500.5, 1623.25, 2700, 1e308};
	static const double rds[] = {1e-3, 30, 350, 1e101, 1e300};
	static const double scores[] = {0.0, 0.5, 1.0};
	int			team[2] = {0, 1};

	for (size_t ra = 0; ra < sizeof(ratings) / sizeof(double); ra++)
		for (size_t rb = 0; rb < sizeof(ratings) / sizeof(double); rb++)
			for (size_t da = 0; da < sizeof(rds) / sizeof(double); da++)
				for (size_t db = 0; db < sizeof(rds) / sizeof(double); db++)
					for (size_t sc = 0; sc < 3; sc++)
						for (size_t me = 0; me < 4; me++)
						{
							Glicko2Rating r[2] = {{ratings[ra], rds[da], 0.06},
							{ratings[rb], rds[db], 0.05}};
							int64_t		place[2] = {scores[sc] == 1.0 ? 1 : 2,
							scores[sc] == 0.0 ? 1 : 2};
							double		ones[2] = {1.0, 1.0};
							Fixture		f;
							GlickoTeamCursor c = {0, -1};
							GlickoTeamSide s;

							prepare(&f, methods[me], 2, 2, team, r, sc == 1 ? ones : NULL, place);
							CHECK(glicko_team_next(&f.work, &c, &s) && s.player == 0);
							CHECK(s.score == scores[sc]);
							CHECK(same_game(s.terms, glicko2_terms(r[0].rating, r[1].rating,
																   r[1].rd, scores[sc])));
							CHECK(glicko_team_next(&f.work, &c, &s) && s.player == 1);
							CHECK(same_game(s.terms, glicko2_terms(r[1].rating, r[0].rating,
																   r[0].rd, 1.0 - scores[sc])));
							CHECK(!glicko_team_next(&f.work, &c, &s));
							if (sc == 0)
							{
								double		scratch[4];

								CHECK(glicko_team_probability(methods[me], &r[0], NULL, 1, &r[1], NULL, 1, scratch) ==
									  glicko2_win_probability(&r[0], &r[1]));
							}
						}

	/* Four solos, places 1, 2, 2, 4. */
	{
		Glicko2Rating r[4] = {{1500, 350, 0.06}, {1620, 80, 0.06}, {1400, 200, 0.06}, {1830, 45, 0.06}};
		int			solo[4] = {0, 1, 2, 3};
		int64_t		place[4] = {1, 2, 2, 4};
		double		lambda = glicko_team_lambda(4);

		for (size_t me = 0; me < 2; me++)
		{
			Fixture		f;
			GlickoTeamCursor c = {0, -1};
			GlickoTeamSide s;
			int			n = 0;

			prepare(&f, methods[me], 4, 4, solo, r, NULL, place);
			while (glicko_team_next(&f.work, &c, &s))
			{
				GlickoTerms g = glicko2_terms(r[s.player].rating, r[s.opponent].rating,
											  r[s.opponent].rd, s.score);

				g.information *= lambda;
				g.surprise *= lambda;
				CHECK(same_game(s.terms, g) && s.weight == lambda);
				n++;
			}
			CHECK(n == 12);
		}
	}
}

/* Python's figures (test/unit/team_reference.py), player by player. */
typedef struct Example
{
	const char *name;
	int			n;
	int			k;
	int			team[6];
	Glicko2Rating rating[6];
	double		share[6];
	int64_t		place[3];
	GlickoTerms sum[6];
	GlickoTerms mean[6];
} Example;

static const Example examples[] = {
	{"2v2", 4, 2, {0, 0, 1, 1},
	{{1600, 80, 0.06}, {1450, 200, 0.06}, {1550, 120, 0.06}, {1500, 350, 0.06}},
	{1, 1, 1, 1}, {1, 2},
	{{0.06610596181819724, 0.2571107967748481}, {0.07260319572710752, 0.26944980186874795},
	{0.06754515020676398, -0.25989449822334443}, {0.09569737761424287, -0.3093499274514912}},
	{{0.0432390761055149, 0.20794007816078866}, {0.04592739217852368, 0.21430677119149474},
	{0.0438502022345349, -0.20940439879461678}, {0.05420169614651718, -0.2328125772945207}}},
	{"2v2 half", 4, 2, {0, 0, 1, 1},
	{{1600, 80, 0.06}, {1450, 200, 0.06}, {1550, 120, 0.06}, {1500, 350, 0.06}},
	{1, 0.5, 1, 1}, {1, 2},
	{{0.07728415722765541, 0.26708917792124437}, {0.019540073364686973, 0.1342689837888627},
	{0.07925848244433997, -0.27034158642204514}, {0.1210412359671639, -0.3308986410908471}},
	{{0.07966792592114563, 0.2655406579212496}, {0.020149816298967286, 0.13349645290558743},
	{0.04505907834839598, -0.19966756630986823}, {0.05606070424504237, -0.22113820235830642}}},
	{"3 teams", 6, 3, {0, 1, 1, 2, 2, 2},
	{{1700, 60, 0.06}, {1500, 100, 0.06}, {1400, 300, 0.06}, {1500, 350, 0.06},
	{1650, 150, 0.06}, {1350, 90, 0.06}},
	{1, 1, 1, 1, 1, 1}, {2, 1, 2},
	{{0.10846071008734073, -0.42896405871327603}, {0.09815338387227385, 0.571127913673086},
	{0.1236981514257946, 0.70063137807194}, {0.12210872031275596, -0.13699010465018924},
	{0.09226968619240775, -0.13548881045611055}, {0.08914927492832064, -0.13481589978037645}},
	{{0.23204976503435742, -0.7195923079287969}, {0.060462381467083035, 0.45517766400830695},
	{0.06905657859405481, 0.5036207151368953}, {0.03156114338449824, -0.06543067013445034},
	{0.029203182174046223, -0.06510877984167353}, {0.028891948317548898, -0.06504558306018776}}},
};

static void
test_examples(void)
{
	for (size_t e = 0; e < sizeof(examples) / sizeof(examples[0]); e++)
		for (size_t me = 0; me < 2; me++)
		{
			const Example *x = &examples[e];
			const GlickoTerms *want = me == 0 ? x->sum : x->mean;
			GlickoTerms got[6];
			Fixture		f;

			prepare(&f, methods[me], x->n, x->k, x->team, x->rating, x->share, x->place);
			CHECK(player_sums(&f, got) == x->n * (x->k - 1));
			for (int i = 0; i < x->n; i++)
			{
				if (!close_rel(got[i].information, want[i].information, 1e-13) ||
					!close_rel(got[i].surprise, want[i].surprise, 1e-13))
					printf("%s, %s, player %d: %.17g %.17g, want %.17g %.17g\n", x->name,
						   me == 0 ? "sum" : "mean", i, got[i].information, got[i].surprise,
						   want[i].information, want[i].surprise);
				CHECK(close_rel(got[i].information, want[i].information, 1e-13));
				CHECK(close_rel(got[i].surprise, want[i].surprise, 1e-13));
			}
		}
}

/*
 * The same match with its players in another order and its teams numbered
 * otherwise: every side (player, opposing team) has the same bits, every
 * method, shares or not.  Ratings chosen so that the sums round.
 */
static void
test_order(void)
{
	enum
	{
		N = 13, K = 5
	};
	int			team[N],
				team2[N],
				perm[N],
				relabel[K] = {3, 0, 4, 1, 2};
	Glicko2Rating r[N],
				r2[N];
	double		share[N],
				share2[N];
	int64_t		place[K] = {2, 1, 5, 2, 3},
				place2[K];

	for (int i = 0; i < N; i++)
	{
		team[i] = i % K;
		r[i].rating = 1500 + 400 * sin(i * 1.3) + 1e-7 * i;
		r[i].rd = 40 + 300 * fabs(cos(i * 0.7)) + 1e-9 * i;
		r[i].volatility = 0.06;
		share[i] = 0.3 + 0.7 * fabs(sin(i * 2.1));
		perm[i] = (i * 5 + 3) % N;
	}
	for (int i = 0; i < N; i++)
	{
		r2[i] = r[perm[i]];
		share2[i] = share[perm[i]];
		team2[i] = relabel[team[perm[i]]];
	}
	for (int t = 0; t < K; t++)
		place2[relabel[t]] = place[t];

	for (size_t me = 0; me < 4; me++)
		for (int with_share = 0; with_share < 2; with_share++)
		{
			Fixture		f,
						f2;
			GlickoTeamCursor c = {0, -1};
			GlickoTeamSide s;
			int			compared = 0;

			prepare(&f, methods[me], N, K, team, r, with_share ? share : NULL, place);
			prepare(&f2, methods[me], N, K, team2, r2, with_share ? share2 : NULL, place2);
			while (glicko_team_next(&f.work, &c, &s))
			{
				GlickoTeamCursor c2 = {0, -1};
				GlickoTeamSide s2;

				while (glicko_team_next(&f2.work, &c2, &s2))
				{
					int			same_player = perm[s2.player] == s.player;
					int			same_opponent = methods[me] == GLICKO_TEAM_INDIVIDUAL ?
					perm[s2.opponent] == s.opponent : s2.opponent == relabel[s.opponent];

					if (same_player && same_opponent)
					{
						CHECK(same_game(s.terms, s2.terms));
						CHECK(s.expected == s2.expected && s.score == s2.score &&
							  s.weight == s2.weight);
						compared++;
					}
				}
			}
			CHECK(compared == (methods[me] == GLICKO_TEAM_INDIVIDUAL ? N * N - 35 : N * (K - 1)));
		}

	/* The team win probability alike. */
	{
		double		scratch[4 * N];
		Glicko2Rating rev[6];
		double		srev[6];

		for (int i = 0; i < 6; i++)
		{
			rev[i] = r[5 - i];
			srev[i] = share[5 - i];
		}
		for (size_t me = 0; me < 2; me++)
		{
			double		p = glicko_team_probability(methods[me], r, share, 6, &r[6], share + 6, 7, scratch);
			double		q = glicko_team_probability(methods[me], &r[6], share + 6, 7, r, share, 6, scratch);

			CHECK(p == glicko_team_probability(methods[me], rev, srev, 6, &r[6], share + 6, 7, scratch));
			CHECK(fabs(p + q - 1.0) < 1e-15 && p > 0.0 && p < 1.0);
		}
	}
}

/*
 * 'individual' at 12v12: the 12 games against one team weigh 1/12 each, so
 * a player's information is the mean of his 12 games', not their sum.
 */
static void
test_individual_fix(void)
{
	enum
	{
		N = 24
	};
	int			team[N];
	Glicko2Rating r[N];
	int64_t		place[2] = {1, 2};
	Fixture		f;
	GlickoTeamCursor c = {0, -1};
	GlickoTeamSide s;
	GlickoTerms sums[N];
	double		weight[N] = {0};

	for (int i = 0; i < N; i++)
	{
		team[i] = i < 12 ? 0 : 1;
		r[i].rating = 1300 + 17 * i;
		r[i].rd = 60 + 11 * i;
		r[i].volatility = 0.06;
	}
	prepare(&f, GLICKO_TEAM_INDIVIDUAL, N, 2, team, r, NULL, place);
	while (glicko_team_next(&f.work, &c, &s))
		weight[s.player] += s.weight;
	CHECK(player_sums(&f, sums) == N * 12);
	for (int i = 0; i < N; i++)
	{
		double		mean = 0.0;

		CHECK(close_rel(weight[i], 1.0, 1e-15));
		for (int j = 0; j < N; j++)
			if (team[j] != team[i])
				mean += glicko2_terms(r[i].rating, r[j].rating, r[j].rd,
									  team[i] == 0 ? 1.0 : 0.0).information / 12.0;
		CHECK(close_rel(sums[i].information, mean, 1e-14));
	}
}

/* Terms stay finite and E within [0, 1] at the edges of the double range. */
static void
test_extremes(void)
{
	static const double ratings[] = {-1e308, 1e308, 1500, 0};
	static const double rds[] = {1e-300, 1e300, 350, 1e160};
	static const double shares[] = {1e-300, 1.0, 0.5, 1e-10};
	int			team[6] = {0, 0, 1, 1, 2, 2};
	int64_t		place[3] = {1, 2, 2};

	for (int v = 0; v < 64; v++)
		for (size_t me = 0; me < 4; me++)
		{
			Glicko2Rating r[6];
			double		share[6];
			Fixture		f;
			GlickoTeamCursor c = {0, -1};
			GlickoTeamSide s;
			double		scratch[24];

			for (int i = 0; i < 6; i++)
			{
				r[i].rating = ratings[(v + i) % 4];
				r[i].rd = rds[(v / 4 + i) % 4];
				r[i].volatility = 0.06;
				share[i] = shares[(v / 16 + 3 * i) % 4];
			}
			prepare(&f, methods[me], 6, 3, team, r, share, place);
			while (glicko_team_next(&f.work, &c, &s))
			{
				CHECK(isfinite(s.terms.information) && s.terms.information >= 0.0);
				CHECK(isfinite(s.terms.surprise));
				CHECK(s.expected >= 0.0 && s.expected <= 1.0);
			}
			{
				double		p = glicko_team_probability(methods[me], r, share, 2, &r[2], share + 2, 4, scratch);

				CHECK(p >= 0.0 && p <= 1.0);
			}
		}
}

/* Counts and scores of a 3-team free-for-all with a tie, and of uneven teams. */
static void
test_sides(void)
{
	/* Teams A (players 0, 1) first, B (2) and C (3, 4) tied second. */
	int			team[5] = {0, 0, 1, 2, 2};
	int64_t		place[3] = {1, 2, 2};

	/* 1v3: the lone player (team 0) second. */
	int			team13[4] = {0, 1, 1, 1};
	int64_t		place13[2] = {2, 1};
	Glicko2Rating r[5] = {{1500, 350, 0.06}, {1500, 350, 0.06}, {1500, 350, 0.06},
	{1500, 350, 0.06}, {1500, 350, 0.06}};

	CHECK(glicko_place_score(1, 2) == 1.0 && glicko_place_score(3, 2) == 0.0 &&
		  glicko_place_score(2, 2) == 0.5);
	for (size_t me = 0; me < 4; me++)
	{
		Fixture		f;
		GlickoTeamCursor c = {0, -1};
		GlickoTeamSide s;
		int			n = 0;
		double		points = 0.0;
		int			individual = methods[me] == GLICKO_TEAM_INDIVIDUAL;

		prepare(&f, methods[me], 5, 3, team, r, NULL, place);
		while (glicko_team_next(&f.work, &c, &s))
		{
			CHECK(team[s.player] != (individual ? team[s.opponent] : s.opponent));
			if (s.player == 0)
				points += s.score;
			/* Player 2 (B) against C: a draw, against A: a loss. */
			if (s.player == 2)
				CHECK(s.score == ((individual ? team[s.opponent] : s.opponent) == 2 ? 0.5 : 0.0));
			n++;
		}
		CHECK(n == (individual ? 16 : 10) && points == (individual ? 3.0 : 2.0));

		prepare(&f, methods[me], 4, 2, team13, r, NULL, place13);
		c.player = 0;
		c.opponent = -1;
		n = 0;
		points = 0.0;
		while (glicko_team_next(&f.work, &c, &s))
		{
			if (s.player == 0)
				points += s.score;
			n++;
		}
		CHECK(n == (individual ? 6 : 4) && points == 0.0);
	}
}

/*
 * Win probability: 'mean' teams of equal players play like one of them
 * (with their averaged uncertainty); 'sum' adds the members' strengths; equal
 * teams 1/2; more strength, more chance.
 */
static void
test_probability(void)
{
	Glicko2Rating a[3] = {{1700, 100, 0.06}, {1700, 100, 0.06}, {1700, 100, 0.06}};
	Glicko2Rating b[3] = {{1500, 100, 0.06}, {1500, 100, 0.06}, {1500, 100, 0.06}};
	double		scratch[12];
	double		phi = 100 / GLICKO2_SCALE;

	/* mean: D = 200 / S, s^2 = 1, Phi^2 = 2 * 3 * (phi / 3)^2. */
	CHECK(close_rel(glicko_team_probability(GLICKO_TEAM_MEAN, a, NULL, 3, b, NULL, 3, scratch),
					1.0 / (1.0 + exp(-(200 / GLICKO2_SCALE) /
									 sqrt(1.0 + 3.0 * (2.0 * phi * phi / 3.0) / (M_PI * M_PI)))),
					1e-14));
	/* sum: D = 600 / S, s^2 = 3, Phi^2 = 6 phi^2. */
	CHECK(close_rel(glicko_team_probability(GLICKO_TEAM_SUM, a, NULL, 3, b, NULL, 3, scratch),
					1.0 / (1.0 + exp(-(600 / GLICKO2_SCALE) /
									 sqrt(3.0 + 3.0 * 6.0 * phi * phi / (M_PI * M_PI)))),
					1e-14));
	CHECK(glicko_team_probability(GLICKO_TEAM_SUM, a, NULL, 3, a, NULL, 3, scratch) == 0.5);
	CHECK(glicko_team_probability(GLICKO_TEAM_SUM, a, NULL, 3, b, NULL, 2, scratch) >
		  glicko_team_probability(GLICKO_TEAM_SUM, a, NULL, 3, b, NULL, 3, scratch));

	/*
	 * composite: glicko2_win_probability of the teams' means of rating, RD
	 * and volatility; p(a, b) + p(b, a) = 1; a team of one is the player.
	 */
	{
		Glicko2Rating ca = {1700, 100, 0.06},
					cb = {1500, 100, 0.06};

		CHECK(glicko_team_probability(GLICKO_TEAM_COMPOSITE, a, NULL, 3, b, NULL, 3, scratch) ==
			  glicko2_win_probability(&ca, &cb));
		CHECK(fabs(glicko_team_probability(GLICKO_TEAM_COMPOSITE, a, NULL, 3, b, NULL, 3, scratch) +
				   glicko_team_probability(GLICKO_TEAM_COMPOSITE, b, NULL, 3, a, NULL, 3, scratch) -
				   1.0) < 1e-15);
		CHECK(glicko_team_probability(GLICKO_TEAM_INDIVIDUAL, a, NULL, 1, b, NULL, 1, scratch) ==
			  glicko2_win_probability(&a[0], &b[0]));
	}
	/* Shares of 1 are no shares, bit for bit, in every method. */
	{
		double		ones[3] = {1, 1, 1};

		for (int m = GLICKO_TEAM_SUM; m <= GLICKO_TEAM_COMPOSITE; m++)
			CHECK(glicko_team_probability(m, a, ones, 3, b, ones, 2, scratch) ==
				  glicko_team_probability(m, a, NULL, 3, b, NULL, 2, scratch));
	}

	/*
	 * Shares: sum, a member at half counts half his mu (and a^2 phi^2 a
	 * quarter of his); mean, his team the share-weighted mean; composite, the
	 * share-weighted means of rating, RD and volatility.
	 */
	{
		Glicko2Rating c[3] = {{1800, 60, 0.05}, {1600, 150, 0.06}, {1400, 240, 0.09}};
		double		half[3] = {1, 0.5, 0.5},
					pc[3] = {60 / GLICKO2_SCALE, 150 / GLICKO2_SCALE, 240 / GLICKO2_SCALE},
					mu_c = (1800 + 0.5 * 1600 + 0.5 * 1400 - 2 * 1500) / GLICKO2_SCALE,
					mu_b = (3 * 1500 - 3 * 1500) / GLICKO2_SCALE,
					v = pc[0] * pc[0] + 0.25 * (pc[1] * pc[1] + pc[2] * pc[2]) + 3.0 * phi * phi;
		Glicko2Rating cc = {(1800 + 0.5 * 1600 + 0.5 * 1400) / 2.0,
		(60 + 0.5 * 150 + 0.5 * 240) / 2.0, (0.05 + 0.5 * 0.06 + 0.5 * 0.09) / 2.0};

		CHECK(close_rel(glicko_team_probability(GLICKO_TEAM_SUM, c, half, 3, b, NULL, 3, scratch),
						1.0 / (1.0 + exp(-(mu_c - mu_b) /
										 sqrt((2.0 + 3.0) / 2.0 + 3.0 * v / (M_PI * M_PI)))),
						1e-14));
		mu_c = ((1800 + 0.5 * 1600 + 0.5 * 1400) / 2.0 - 1500) / GLICKO2_SCALE;
		v = (pc[0] * pc[0] + 0.25 * (pc[1] * pc[1] + pc[2] * pc[2])) / 4.0 + 3.0 * phi * phi / 9.0;
		CHECK(close_rel(glicko_team_probability(GLICKO_TEAM_MEAN, c, half, 3, b, NULL, 3, scratch),
						1.0 / (1.0 + exp(-(mu_c - mu_b) / sqrt(1.0 + 3.0 * v / (M_PI * M_PI)))),
						1e-14));
		CHECK(close_rel(glicko_team_probability(GLICKO_TEAM_COMPOSITE, c, half, 3, b, NULL, 3, scratch),
						glicko2_win_probability(&cc, &b[0]), 1e-15));
		CHECK(glicko_team_probability(GLICKO_TEAM_COMPOSITE, c, half, 3, b, NULL, 3, scratch) !=
			  glicko_team_probability(GLICKO_TEAM_COMPOSITE, c, NULL, 3, b, NULL, 3, scratch));
	}
}

/*
 * Parties and edges: Python's figures (team_reference.py, EDGED), player
 * by player; advantages of 0 with parties are no parties, bit for bit; the
 * same bits whatever the order of the players and the party numbers; the
 * win probability of two teams is the E of their game with the edges.
 */
typedef struct EdgedExample
{
	int			n;
	int			k;
	int			team[6];
	Glicko2Rating rating[6];
	double		share[6];
	int64_t		place[3];
	int			party[6];
	GlickoTeamAdvantage adv;
	GlickoTerms sum[6];
	GlickoTerms mean[6];
} EdgedExample;

static const EdgedExample edged[] = {
	{4, 2, {0, 0, 1, 1},
	{{1600, 80, 0.06}, {1450, 200, 0.06}, {1550, 120, 0.06}, {1500, 350, 0.06}},
	{1, 1, 1, 1}, {1, 2}, {0, 0, -1, -1}, {40, 0},
	{{0.06518778407831025, 0.2268093489565177}, {0.07149667194207897, 0.23618534959565982},
	{0.06658675185560789, -0.22893648874023836}, {0.09378116789240787, -0.2655753946517571}},
	{{0.042844986633452986, 0.18808839127876506}, {0.04548294387706785, 0.19322482864684679},
	{0.043444929058990764, -0.18927300104025951}, {0.05358339809507553, -0.20794697753417588}}},
	{6, 3, {0, 0, 0, 1, 1, 2},
	{{1600, 80, 0.06}, {1450, 200, 0.06}, {1500, 120, 0.06}, {1700, 60, 0.06},
	{1500, 350, 0.06}, {1650, 150, 0.06}},
	{1, 1, 0.5, 1, 1, 1}, {1, 2, 3}, {1, 1, -1, 3, -1, 5}, {40, 25},
	{{0.12917745597015703, 0.45375955906020093}, {0.1467849014205726, 0.48249385063229205},
	{0.0319769957177376, 0.2257992009607659}, {0.11308680305298166, -0.01304325899144232},
	{0.17645032909667724, -0.010129622249874903}, {0.15520949015433513, -0.45388159376203874}},
	{{0.0456865043851486, 0.30078895752098145}, {0.04757932787476016, 0.30774551298570674},
	{0.011383887104156814, 0.1501147740525156}, {0.06629423835507553, -0.013207705366728884},
	{0.08336192262967662, -0.018222508853148828}, {0.3219920201751595, -0.79620931387854}}},
};

static void
test_edges(void)
{
	for (size_t e = 0; e < sizeof(edged) / sizeof(edged[0]); e++)
		for (size_t me = 0; me < 2; me++)
		{
			const EdgedExample *x = &edged[e];
			const GlickoTerms *want = me == 0 ? x->sum : x->mean;
			GlickoTerms got[6],
						plain[6],
						zero[6];
			Fixture		f;

			prepare(&f, methods[me], x->n, x->k, x->team, x->rating, x->share, x->place);
			player_sums(&f, plain);
			f.match.party = x->party;
			glicko_team_prepare(&f.match, f.doubles, f.ints, &f.work);
			player_sums(&f, zero);
			f.match.advantage = x->adv;
			glicko_team_prepare(&f.match, f.doubles, f.ints, &f.work);
			player_sums(&f, got);
			for (int i = 0; i < x->n; i++)
			{
				CHECK(same_game(zero[i], plain[i]));
				CHECK(!same_game(got[i], plain[i]));
				CHECK(close_rel(got[i].information, want[i].information, 1e-13));
				CHECK(close_rel(got[i].surprise, want[i].surprise, 1e-13));
			}
		}
}

/* The edged 'uneven' match reversed, teams and parties renumbered: the same bits. */
static void
test_edges_order(void)
{
	const EdgedExample *x = &edged[1];
	int			team[6],
				party[6];
	Glicko2Rating rating[6];
	double		share[6];
	int64_t		place[3];

	for (int i = 0; i < 6; i++)
	{
		team[5 - i] = 2 - x->team[i];
		party[5 - i] = x->party[i] < 0 ? -1 : 5 - x->party[i];
		rating[5 - i] = x->rating[i];
		share[5 - i] = x->share[i];
	}
	for (int t = 0; t < 3; t++)
		place[2 - t] = x->place[t];
	for (size_t me = 0; me < 2; me++)
	{
		GlickoTerms a[6],
					b[6];
		Fixture		f,
					g;

		prepare(&f, methods[me], 6, 3, x->team, x->rating, x->share, x->place);
		f.match.party = x->party;
		f.match.advantage = x->adv;
		glicko_team_prepare(&f.match, f.doubles, f.ints, &f.work);
		player_sums(&f, a);
		prepare(&g, methods[me], 6, 3, team, rating, share, place);
		g.match.party = party;
		g.match.advantage = x->adv;
		glicko_team_prepare(&g.match, g.doubles, g.ints, &g.work);
		player_sums(&g, b);
		for (int i = 0; i < 6; i++)
			CHECK(same_game(a[i], b[5 - i]));
	}
}

/* Two teams: the probability with edges is the E of their game (zero scores
 * aside), p(a, b) + p(b, a) = 1, and advantages of 0 are the same bits. */
static void
test_edges_probability(void)
{
	const EdgedExample *x = &edged[0];
	double		scratch[16];
	int			ints[8];
	GlickoTeamAdvantage none = {0, 0};

	for (size_t me = 0; me < 2; me++)
	{
		Fixture		f;
		GlickoTeamCursor c = {0, -1};
		GlickoTeamSide s;
		double		p,
					q;

		prepare(&f, methods[me], 4, 2, x->team, x->rating, NULL, x->place);
		f.match.party = x->party;
		f.match.advantage = x->adv;
		glicko_team_prepare(&f.match, f.doubles, f.ints, &f.work);
		CHECK(glicko_team_next(&f.work, &c, &s));
		p = glicko_team_probability_edged(methods[me], x->rating, NULL, x->party, 2,
										  x->rating + 2, NULL, NULL, 2, &x->adv, scratch, ints);
		q = glicko_team_probability_edged(methods[me], x->rating + 2, NULL, NULL, 2,
										  x->rating, NULL, x->party, 2, &x->adv, scratch, ints);
		CHECK(p > glicko_team_probability(methods[me], x->rating, NULL, 2, x->rating + 2, NULL, 2, scratch));
		CHECK(fabs(p + q - 1.0) < 1e-15);
		CHECK(s.expected > 0.5 && p > 0.5);
		if (methods[me] == GLICKO_TEAM_SUM)
		{
			/* By hand: M_a - M_b = (100 - 50 - 50 - 0) / S + 2 * 40 / S. */
			double		v = 0.0;

			for (int i = 0; i < 4; i++)
				v += (x->rating[i].rd / GLICKO2_SCALE) * (x->rating[i].rd / GLICKO2_SCALE);
			CHECK(close_rel(p, 1.0 / (1.0 + exp(-(80.0 / GLICKO2_SCALE) /
												sqrt(2.0 + 3.0 * v / (M_PI * M_PI)))), 1e-14));
		}
		CHECK(glicko_team_probability_edged(methods[me], x->rating, NULL, x->party, 2,
											x->rating + 2, NULL, NULL, 2, &none, scratch, ints) ==
			  glicko_team_probability(methods[me], x->rating, NULL, 2, x->rating + 2, NULL, 2, scratch));
	}
}

int
main(void)
{
	test_lambda();
	test_one_on_one();
	test_examples();
	test_order();
	test_individual_fix();
	test_extremes();
	test_sides();
	test_probability();
	test_edges();
	test_edges_order();
	test_edges_probability();
	printf("team_test: %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
