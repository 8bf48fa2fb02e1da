/*
 * matchmaking_test.c — unit tests of matchmaking_math.c against independent
 * brute force: every assignment of players to teams for glicko2_balance,
 * every matching of a small pool for the pairing programme.
 * With --gap, prints the heuristic's gap to the exact split at 16, 20 and
 * 24 players (bench/matchmaking.sh reports it).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/matchmaking_math.h"
#include "check.h"

static void *
zalloc(size_t size)
{
	void	   *p = calloc(1, size ? size : 1);

	if (!p)
		abort();
	return p;
}

static const MmEnv env = {NULL, zalloc, free};

/* A fixed generator: the same pools on every machine. */
static unsigned long long rng_state = 88172645463325252ULL;

static double
uniform(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (rng_state >> 11) * (1.0 / 9007199254740992.0);
}

static void
random_lobby(Glicko2Rating *p, int n)
{
	for (int i = 0; i < n; i++)
	{
		p[i].rating = 1000 + 1000 * uniform();
		p[i].rd = 30 + 320 * uniform();
		p[i].volatility = 0.06;
	}
}

/* The cost of a split the slow way: gather each team, team.c's
 * glicko_team_probability_edged of the method, from the players' arrays
 * rather than running sums (each team's party labels: the first member of
 * the team with his party number, -1 alone). */
static double
brute_cost(const Glicko2Rating *p, int n, const int *team, int teams,
		   GlickoTeamMethod method, const int *party, const GlickoTeamAdvantage *adv)
{
	Glicko2Rating *members = malloc(sizeof(Glicko2Rating) * n * teams);
	int		   *labels = malloc(sizeof(int) * n * teams);
	int		   *number = malloc(sizeof(int) * n * teams);
	double	   *scratch = malloc(sizeof(double) * 4 * n);
	int		   *ints = malloc(sizeof(int) * 2 * n);
	int			count[MM_MAX_TEAMS] = {0};
	double		worst = 0.0;

	for (int i = 0; i < n; i++)
	{
		int			t = team[i] - 1,
					k = count[t]++;

		members[t * n + k] = p[i];
		number[t * n + k] = party ? party[i] : 0;
		labels[t * n + k] = -1;
		for (int j = 0; j < k && number[t * n + k] > 0; j++)
			if (number[t * n + j] == number[t * n + k])
			{
				labels[t * n + k] = labels[t * n + j] >= 0 ? labels[t * n + j] : j;
				labels[t * n + j] = labels[t * n + k];
				break;
			}
	}
	for (int a = 0; a < teams; a++)
		for (int b = a + 1; b < teams; b++)
		{
			double		c = fabs(glicko_team_probability_edged(method, members + a * n, NULL,
															   labels + a * n, count[a],
															   members + b * n, NULL,
															   labels + b * n, count[b],
															   adv, scratch, ints) - 0.5);

			if (c > worst)
				worst = c;
		}
	free(members);
	free(labels);
	free(number);
	free(scratch);
	free(ints);
	return worst;
}

/* A valid split: team sizes floor or ceil of n/teams, parties together. */
static int
valid_split(int n, const int *team, int teams, const int *party)
{
	int			count[MM_MAX_TEAMS] = {0},
				big = 0;

	for (int i = 0; i < n; i++)
	{
		if (team[i] < 1 || team[i] > teams)
			return 0;
		count[team[i] - 1]++;
		for (int j = 0; party && j < i; j++)
			if (party[i] > 0 && party[j] == party[i] && team[j] != team[i])
				return 0;
	}
	for (int t = 0; t < teams; t++)
	{
		if (count[t] != n / teams && count[t] != n / teams + 1)
			return 0;
		big += count[t] == n / teams + 1;
	}
	return n % teams == 0 || big == n % teams;
}

/* Every assignment of n players to teams (teams^n of them): the least cost. */
static double
brute_balance(const Glicko2Rating *p, int n, int teams, const int *party,
			  GlickoTeamMethod method, const GlickoTeamAdvantage *adv)
{
	int			team[32];
	double		best = INFINITY;
	long		total = 1;

	for (int i = 0; i < n; i++)
		total *= teams;
	for (long code = 0; code < total; code++)
	{
		long		c = code;

		for (int i = 0; i < n; i++)
		{
			team[i] = 1 + c % teams;
			c /= teams;
		}
		if (valid_split(n, team, teams, party))
		{
			double		cost = brute_cost(p, n, team, teams, method, party, adv);

			if (cost < best)
				best = cost;
		}
	}
	return best;
}

static void
test_balance_brute(void)
{
	/* (players, teams): 2^16, 3^12 and 4^10 assignments at most. */
	static const int cases[][2] = {
		{2, 2}, {3, 2}, {4, 2}, {5, 2}, {7, 2}, {8, 2}, {10, 2}, {11, 2}, {12, 2},
		{14, 2}, {16, 2}, {3, 3}, {6, 3}, {7, 3}, {9, 3}, {10, 3}, {12, 3},
		{8, 4}, {9, 4}, {10, 4}
	};

	/*
	 * Each method's own probability; rep 0..2 as before under 'composite'; 6
	 * and 7 with party and size edges.
	 */
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		for (int rep = 0; rep < 8; rep++)
		{
			static const GlickoTeamMethod methods[] = {
				GLICKO_TEAM_COMPOSITE, GLICKO_TEAM_COMPOSITE, GLICKO_TEAM_COMPOSITE,
				GLICKO_TEAM_SUM, GLICKO_TEAM_MEAN, GLICKO_TEAM_SUM, GLICKO_TEAM_SUM, GLICKO_TEAM_MEAN
			};
			GlickoTeamMethod method = methods[rep];
			const GlickoTeamAdvantage edges = {120, 60};
			const GlickoTeamAdvantage *adv = rep >= 6 ? &edges : NULL;

			int			n = cases[c][0],
						teams = cases[c][1],
						team[32],
						party[32],
						bad = 0;
			int			use_parties = (rep == 2 || rep >= 5) && n >= 4;
			Glicko2Rating p[32];
			bool		exact;
			MmStatus	s;

			random_lobby(p, n);

			/*
			 * Some lobbies with two parties of two (fits whenever teams have
			 * 2+).
			 */
			for (int i = 0; i < n; i++)
				party[i] = use_parties && i < 4 && n / teams >= 2 ? 1 + i / 2 : 0;
			s = glicko_mm_balance(p, party, n, teams, method, adv, team, &exact, &bad, &env);
			CHECK(s == MM_OK);
			CHECK(exact);
			CHECK(valid_split(n, team, teams, party));
			CHECK(fabs(brute_cost(p, n, team, teams, method, party, adv) -
					   brute_balance(p, n, teams, party, method, adv)) < 1e-12);
			CHECK(fabs(glicko_mm_split_cost(p, n, team, teams, method, party, adv) -
					   brute_cost(p, n, team, teams, method, party, adv)) < 1e-12);

			/* Numbered by first player. */
			CHECK(team[0] == 1);
		}
}

/*
 * The edges move the split: a duo (1500, 1500) and four solos (1600, 1500,
 * 1500, 1400) in 3v3.  Without edges the party with a 1500 is as fair as
 * anything (sums 0 and 0); with +120 a party member the fairest split gives
 * the duo the 1400 (sums -100 + 240 against +100).  Advantages of 0 are no
 * advantages, bit for bit; a 3v2 of equal players is fair only without a
 * size edge.
 */
static void
test_balance_edges(void)
{
	Glicko2Rating p[6] = {{1500, 50, 0.06}, {1500, 50, 0.06}, {1600, 50, 0.06},
	{1500, 50, 0.06}, {1500, 50, 0.06}, {1400, 50, 0.06}};
	int			party[6] = {1, 1, 0, 0, 0, 0},
				team[6],
				plain[6],
				bad = 0;
	bool		exact;
	GlickoTeamAdvantage party_edge = {120, 0},
				size_edge = {0, 60},
				none = {0, 0};

	for (int me = 0; me < 2; me++)
	{
		GlickoTeamMethod method = me == 0 ? GLICKO_TEAM_SUM : GLICKO_TEAM_MEAN;

		CHECK(glicko_mm_balance(p, party, 6, 2, method, &party_edge, team, &exact, &bad, &env) == MM_OK);
		CHECK(team[0] == team[1] && team[5] == team[0] && team[2] != team[0]);
		CHECK(glicko_mm_balance(p, party, 6, 2, method, NULL, plain, &exact, &bad, &env) == MM_OK);
		CHECK(glicko_mm_split_cost(p, 6, plain, 2, method, party, NULL) < 1e-12);
		CHECK(glicko_mm_balance(p, party, 6, 2, method, &none, team, &exact, &bad, &env) == MM_OK);
		CHECK(memcmp(team, plain, sizeof(team)) == 0);
		CHECK(glicko_mm_split_cost(p, 6, plain, 2, method, party, &none) ==
			  glicko_mm_split_cost(p, 6, plain, 2, method, party, NULL));
		/* 3v2 of equal players: (1, 1, 1, 2, 2) */
		{
			int			split[5] = {1, 1, 1, 2, 2};
			Glicko2Rating q[5] = {{1500, 50, 0.06}, {1500, 50, 0.06}, {1500, 50, 0.06},
			{1500, 50, 0.06}, {1500, 50, 0.06}};

			CHECK(glicko_mm_split_cost(q, 5, split, 2, method, NULL, NULL) == 0.0);
			CHECK(glicko_mm_split_cost(q, 5, split, 2, method, NULL, &size_edge) > 0.01);
		}
	}
}

/*
 * Whether the parties fit, by an exact search of its own: the parties of two
 * or more (lone players fill any room) split among the teams, each team's
 * parties at most its size; fits(left, j) over the sets of parties left for
 * teams j.. (at most 12 parties in 24 players), memoized.
 */
static int
fits(const int *sum_of, const int *cap, int teams, int left, int j, signed char *memo)
{
	signed char *m = &memo[left * teams + j];

	if (j == teams)
		return left == 0;
	if (*m < 0)
	{
		*m = 0;
		for (int sub = left;; sub = (sub - 1) & left)
		{
			if (sum_of[sub] <= cap[j] && fits(sum_of, cap, teams, left & ~sub, j + 1, memo))
			{
				*m = 1;
				break;
			}
			if (sub == 0)
				break;
		}
	}
	return *m;
}

/*
 * Property: a lobby is refused for its parties exactly when no split keeps
 * them together (glicko2_balance refused 72 of 371 feasible random lobbies
 * over 16 players: its greedy placement missed splits such as {5,1} {3,3}
 * {2,2,2}).  Random lobbies of 2 to 24 players in 2 to 6 teams with random
 * parties of 1 to a team's size, against fits(); the heuristic on every lobby, glicko_mm_balance
 * (exact up to 16 players) too up to 12, where it is quick.
 */
static void
test_parties_fit(void)
{
	int			feasible = 0,
				infeasible = 0,
				heuristic_over_16 = 0;

	for (int lobby = 0; lobby < 500; lobby++)
	{
		int			n = 2 + (int) (uniform() * 23),
					teams = 2 + (int) (uniform() * 5),
					party[32],
					team[32],
					cap[MM_MAX_TEAMS],
					sizes[32],
					sum_of[1 << 12],
					m = 0,
					bad = 0,
					expect;
		Glicko2Rating p[32];
		signed char *memo;
		MmStatus	s;
		bool		exact;

		if (teams > n)
			teams = n;
		random_lobby(p, n);
		/* Parties of 1 to a team's size (1: alone), numbered in turn. */
		for (int i = 0, id = 1; i < n; id++)
		{
			int			room = (n + teams - 1) / teams,
						size = 1 + (int) (uniform() * (room < n - i ? room : n - i));

			if (size >= 2)
				sizes[m++] = size;
			for (int k = 0; k < size; k++)
				party[i++] = size >= 2 ? id : 0;
		}
		if (m > 12)
			continue;
		for (int e = 0; e < teams; e++)
			cap[e] = n / teams + (e < n % teams ? 1 : 0);
		for (int set = 0; set < 1 << m; set++)
		{
			sum_of[set] = 0;
			for (int b = 0; b < m; b++)
				if (set >> b & 1)
					sum_of[set] += sizes[b];
		}
		memo = malloc((size_t) (1 << m) * teams);
		memset(memo, -1, (size_t) (1 << m) * teams);
		expect = fits(sum_of, cap, teams, (1 << m) - 1, 0, memo);
		free(memo);
		if (expect)
			feasible++;
		else
			infeasible++;

		s = glicko_mm_balance_heuristic(p, party, n, teams, GLICKO_TEAM_SUM, NULL, team, &bad, &env);
		CHECK(s == (expect ? MM_OK : MM_PARTIES_DO_NOT_FIT));
		if (s == MM_OK)
			CHECK(valid_split(n, team, teams, party));
		heuristic_over_16 += n > 16 && expect;
		if (n <= 12)
		{
			s = glicko_mm_balance(p, party, n, teams, GLICKO_TEAM_SUM, NULL, team, &exact, &bad, &env);
			CHECK(s == (expect ? MM_OK : MM_PARTIES_DO_NOT_FIT));
			if (s == MM_OK)
				CHECK(valid_split(n, team, teams, party));
		}
	}
	/* Both answers, and feasible lobbies the heuristic alone splits, occur. */
	CHECK(feasible > 100 && infeasible > 50 && heuristic_over_16 > 30);
	printf("parties fit: %d feasible lobbies, %d infeasible, %d feasible over 16 players\n",
		   feasible, infeasible, heuristic_over_16);
}

/* The lobby: 18 players in 3 teams of 6, parties of 5, 3, 3, 2, 2, 2 and one alone. */
static void
test_parties_fit_example(void)
{
	static const int party[18] = {5, 5, 3, 4, 3, 6, 1, 4, 2, 1, 2, 6, 5, 1, 0, 1, 4, 1};
	Glicko2Rating p[18];
	int			team[18],
				bad = 0;
	bool		exact;

	for (int i = 0; i < 18; i++)
	{
		p[i].rating = 1500 + (i + 1) * 7919 % 1000;
		p[i].rd = 100;
		p[i].volatility = 0.06;
	}
	CHECK(glicko_mm_balance(p, party, 18, 3, GLICKO_TEAM_SUM, NULL, team, &exact, &bad, &env) == MM_OK);
	CHECK(!exact);
	CHECK(valid_split(18, team, 3, party));
}

static void
test_balance_cases(void)
{
	int			team[8],
				bad = 0;
	bool		exact;
	GlickoTeamMethod method = GLICKO_TEAM_COMPOSITE;

	/* 2v2: without parties 1800+1300 against 1600+1500, both 1550. */
	{
		Glicko2Rating p[4] = {{1800, 50, .06}, {1600, 50, .06}, {1500, 50, .06}, {1300, 50, .06}};
		int			party[4] = {1, 1, 0, 0};
		int			want_free[4] = {1, 2, 2, 1},
					want_party[4] = {1, 1, 2, 2};

		CHECK(glicko_mm_balance(p, NULL, 4, 2, method, NULL, team, &exact, &bad, &env) == MM_OK);
		CHECK(memcmp(team, want_free, sizeof(want_free)) == 0);
		CHECK(glicko_mm_split_cost(p, 4, team, 2, method, NULL, NULL) == 0.0);
		/* The party of the two best must play together: the only split left. */
		CHECK(glicko_mm_balance(p, party, 4, 2, method, NULL, team, &exact, &bad, &env) == MM_OK);
		CHECK(memcmp(team, want_party, sizeof(want_party)) == 0);
		/* 1700 against 1400 with RD 50 on both sides. */
		{
			Glicko2Rating a = {1700, 50, .06},
						b = {1400, 50, .06};

			CHECK(fabs(glicko_mm_split_cost(p, 4, team, 2, method, NULL, NULL) - (glicko2_win_probability(&a, &b) - 0.5)) < 1e-15);
		}
	}

	/*
	 * Teams of unequal RD: the composite pairs the two uncertain players
	 * (means 1647.5 / RD 350 against 1597.5 / RD 30: the lopsided RDs widen
	 * its combined RD and so shrink its 50-point gap), the team model, where
	 * every split counts all four players' uncertainty, the smaller sum gap
	 * (3200 against 3290).
	 */
	{
		Glicko2Rating p[4] = {{1700, 350, .06}, {1595, 350, .06}, {1500, 30, .06}, {1695, 30, .06}};
		int			want_composite[4] = {1, 1, 2, 2},
					want_sum[4] = {1, 2, 1, 2};

		CHECK(glicko_mm_balance(p, NULL, 4, 2, GLICKO_TEAM_COMPOSITE, NULL, team, &exact, &bad, &env) == MM_OK);
		CHECK(memcmp(team, want_composite, sizeof(want_composite)) == 0);
		CHECK(glicko_mm_balance(p, NULL, 4, 2, GLICKO_TEAM_SUM, NULL, team, &exact, &bad, &env) == MM_OK);
		CHECK(memcmp(team, want_sum, sizeof(want_sum)) == 0);

		/*
		 * 'individual' judges by the composite, as glicko_team_probability
		 * does.
		 */
		CHECK(glicko_mm_balance(p, NULL, 4, 2, GLICKO_TEAM_INDIVIDUAL, NULL, team, &exact, &bad, &env) == MM_OK);
		CHECK(memcmp(team, want_composite, sizeof(want_composite)) == 0);
	}

	method = GLICKO_TEAM_SUM;
	/* 3 teams of 2: 1000..1500 pair outside in, every team 1250. */
	{
		Glicko2Rating p[6];
		int			want[6] = {1, 2, 3, 3, 2, 1};

		for (int i = 0; i < 6; i++)
			p[i] = (Glicko2Rating)
		{
			1000 + 100 * i, 80, .06
		};
		CHECK(glicko_mm_balance(p, NULL, 6, 3, method, NULL, team, &exact, &bad, &env) == MM_OK);
		CHECK(memcmp(team, want, sizeof(want)) == 0);
		CHECK(glicko_mm_split_cost(p, 6, team, 3, method, NULL, NULL) == 0.0);
	}
	/* Uneven: 5 players in 2 teams are 3 and 2. */
	{
		Glicko2Rating p[5] = {{1500, 50, .06}, {1500, 50, .06}, {1500, 50, .06}, {1500, 50, .06}, {1500, 50, .06}};

		CHECK(glicko_mm_balance(p, NULL, 5, 2, method, NULL, team, &exact, &bad, &env) == MM_OK);
		CHECK(valid_split(5, team, 2, NULL));
	}
	/* Errors. */
	{
		Glicko2Rating p[6];
		int			big_party[6] = {0, 7, 7, 7, 7, 0},
					unpackable[6] = {1, 1, 2, 2, 3, 3};

		random_lobby(p, 6);
		CHECK(glicko_mm_balance(p, NULL, 1, 2, method, NULL, team, &exact, &bad, &env) == MM_TOO_FEW_PLAYERS);
		CHECK(glicko_mm_balance(p, NULL, 6, 1, method, NULL, team, &exact, &bad, &env) == MM_TOO_FEW_PLAYERS);
		CHECK(glicko_mm_balance(p, NULL, 6, 7, method, NULL, team, &exact, &bad, &env) == MM_TOO_FEW_PLAYERS);
		CHECK(glicko_mm_balance(p, big_party, 6, 2, method, NULL, team, &exact, &bad, &env) == MM_PARTY_TOO_LARGE);
		CHECK(bad == 7);
		/* Three parties of two cannot fill two teams of three. */
		CHECK(glicko_mm_balance(p, unpackable, 6, 2, method, NULL, team, &exact, &bad, &env) == MM_PARTIES_DO_NOT_FIT);
		CHECK(glicko_mm_balance_heuristic(p, unpackable, 6, 2, method, NULL, team, &bad, &env) == MM_PARTIES_DO_NOT_FIT);
	}
}

/* The heuristic splits validly and never beats the exact search. */
static void
test_heuristic(void)
{
	for (int rep = 0; rep < 40; rep++)
	{
		GlickoTeamMethod method = rep < 20 ? GLICKO_TEAM_SUM : GLICKO_TEAM_COMPOSITE;
		Glicko2Rating p[20];
		int			exact_team[20],
					heur_team[20],
					party[20] = {0},
					bad;
		int			n = 10 + rep % 20 % 11,
					teams = 2 + rep % 20 % 3;

		if (n / teams < 2)
			continue;
		random_lobby(p, n);
		party[0] = party[1] = 5;
		CHECK(glicko_mm_balance_exact(p, party, n, teams, method, NULL, exact_team, &bad, &env) == MM_OK);
		CHECK(glicko_mm_balance_heuristic(p, party, n, teams, method, NULL, heur_team, &bad, &env) == MM_OK);
		CHECK(valid_split(n, heur_team, teams, party));
		CHECK(glicko_mm_split_cost(p, n, heur_team, teams, method, NULL, NULL) >= glicko_mm_split_cost(p, n, exact_team, teams, method, NULL, NULL) - 1e-15);
	}
}

/* Long searches call the poll hook (CHECK_FOR_INTERRUPTS in the server). */
static int	polls;

static void
count_poll(void)
{
	polls++;
}

static void
test_poll(void)
{
	const MmEnv counting = {count_poll, zalloc, free};
	GlickoTeamMethod method = GLICKO_TEAM_SUM;
	Glicko2Rating p[16];
	int			team[16],
				bad;
	double		r[100000],
				tol[100000],
			   *work = malloc(sizeof(double) * 4 * 100001);
	int		   *first = malloc(sizeof(int) * 50001);

	random_lobby(p, 16);
	polls = 0;
	CHECK(glicko_mm_balance_exact(p, NULL, 16, 5, method, NULL, team, &bad, &counting) == MM_OK);
	CHECK(polls > 10);
	polls = 0;
	CHECK(glicko_mm_balance_heuristic(p, NULL, 16, 2, method, NULL, team, &bad, &counting) == MM_OK);
	CHECK(polls >= 1);
	for (int i = 0; i < 100000; i++)
	{
		r[i] = i;
		tol[i] = 1.0;
	}
	polls = 0;
	CHECK(glicko_mm_group_runs(r, tol, 100000, 2, first, work, &counting) == 50000);
	CHECK(polls >= 1);
	free(work);
	free(first);

	/*
	 * A large lobby polls all along (placing 200 000 players polls every
	 * 4096), and its swap search stays within the budget: 2 000 players in 64
	 * teams (once two minutes of swap rounds that polled once each) start no
	 * round at all.
	 */
	{
		int			n = 200000;
		Glicko2Rating *big = malloc(sizeof(Glicko2Rating) * n);
		int		   *big_team = malloc(sizeof(int) * n);
		bool		exact;

		random_lobby(big, n);
		polls = 0;
		CHECK(glicko_mm_balance(big, NULL, n, 2, method, NULL, big_team, &exact, &bad, &counting) == MM_OK);
		CHECK(!exact);
		CHECK(polls >= n / 4096);
		polls = 0;
		CHECK(glicko_mm_balance(big, NULL, 2000, 64, method, NULL, big_team, &exact, &bad, &counting) == MM_OK);
		CHECK(polls >= 1);
		free(big);
		free(big_team);
	}
}

/* Deterministic: the same lobby, the same split. */
static void
test_deterministic(void)
{
	Glicko2Rating p[24];
	int			a[24],
				b[24],
				bad;
	bool		exact;

	GlickoTeamMethod method = GLICKO_TEAM_SUM;

	random_lobby(p, 24);
	CHECK(glicko_mm_balance(p, NULL, 24, 3, method, NULL, a, &exact, &bad, &env) == MM_OK);
	CHECK(!exact);
	CHECK(glicko_mm_balance(p, NULL, 24, 3, method, NULL, b, &exact, &bad, &env) == MM_OK);
	CHECK(memcmp(a, b, sizeof(a)) == 0);
	CHECK(glicko_mm_balance(p, NULL, 16, 2, method, NULL, a, &exact, &bad, &env) == MM_OK);
	CHECK(exact);
	CHECK(glicko_mm_balance(p, NULL, 16, 2, method, NULL, b, &exact, &bad, &env) == MM_OK);
	CHECK(memcmp(a, b, sizeof(int) * 16) == 0);
}

/* Pairing: may players i and j meet?  Everyone rated from r[i] to r[j] tolerates the gap. */
static int
allowed(const double *r, const double *tol, int n, int i, int j)
{
	double		lo = fmin(r[i], r[j]),
				hi = fmax(r[i], r[j]);

	for (int k = 0; k < n; k++)
		if (r[k] >= lo && r[k] <= hi && hi - lo > tol[k])
			return 0;
	return 1;
}

/* Every matching: the most pairs, then the least sum of squared gaps. */
static void
brute_pairs(const double *r, const double *tol, int n, int *used, int pairs,
			double cost, int *best_pairs, double *best_cost)
{
	int			i = 0;

	while (i < n && used[i])
		i++;
	if (i == n)
	{
		if (pairs > *best_pairs || (pairs == *best_pairs && cost < *best_cost))
		{
			*best_pairs = pairs;
			*best_cost = cost;
		}
		return;
	}
	used[i] = 1;
	brute_pairs(r, tol, n, used, pairs, cost, best_pairs, best_cost);	/* i waits */
	for (int j = i + 1; j < n; j++)
		if (!used[j] && allowed(r, tol, n, i, j))
		{
			used[j] = 1;
			brute_pairs(r, tol, n, used, pairs + 1, cost + (r[j] - r[i]) * (r[j] - r[i]),
						best_pairs, best_cost);
			used[j] = 0;
		}
	used[i] = 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return (x > y) - (x < y);
}

static void
test_pairing_brute(void)
{
	for (int rep = 0; rep < 400; rep++)
	{
		int			n = 1 + rep % 11,
					first[16],
					used[16] = {0},
					best_pairs = -1;
		double		r[16],
					tol[16],
					work[4 * 17],
					cost = 0.0,
					best_cost = INFINITY;
		int			games;

		for (int i = 0; i < n; i++)
		{
			/* Ties now and then: ratings on a coarse grid. */
			r[i] = rep % 3 == 0 ? 1400 + 50 * (int) (6 * uniform()) : 1200 + 600 * uniform();
			tol[i] = 30 + 300 * uniform();
		}
		qsort(r, n, sizeof(double), cmp_double);
		games = glicko_mm_group_runs(r, tol, n, 2, first, work, &env);
		for (int g = 0; g < games; g++)
		{
			int			i = first[g];

			CHECK(allowed(r, tol, n, i, i + 1));
			CHECK(g == 0 || first[g] >= first[g - 1] + 2);
			cost += (r[i + 1] - r[i]) * (r[i + 1] - r[i]);
		}
		brute_pairs(r, tol, n, used, 0, 0.0, &best_pairs, &best_cost);
		CHECK(games == best_pairs);
		CHECK(fabs(cost - best_cost) <= 1e-9 * (1.0 + best_cost));
	}
}

/* Lobbies: runs of the size asked for, each within every member's tolerance. */
static void
test_runs(void)
{
	double		r[12] = {1000, 1010, 1020, 1030, 1300, 1310, 1320, 1330, 1340, 2000, 2001, 2002};
	double		tol[12];
	double		work[4 * 13];
	int			first[12];

	for (int i = 0; i < 12; i++)
		tol[i] = 100;

	/*
	 * Two games of four: 1000-1030 and 1300-1330 (or 1310-1340: costlier?
	 * equal).
	 */
	CHECK(glicko_mm_group_runs(r, tol, 12, 4, first, work, &env) == 2);
	CHECK(first[0] == 0);
	CHECK(first[1] == 4);
	/* A tolerance of 5 allows only 2000-2001 or 2001-2002 pairs: one game. */
	for (int i = 0; i < 12; i++)
		tol[i] = 5;
	CHECK(glicko_mm_group_runs(r, tol, 12, 2, first, work, &env) == 1);
	CHECK(first[0] == 9);
	CHECK(glicko_mm_group_runs(r, tol, 0, 2, first, work, &env) == 0);
}

/* The radix sort against qsort with a comparison: rating, then position. */
static const double *sort_rating;

static int
cmp_rating_position(const void *a, const void *b)
{
	int			x = *(const int *) a,
				y = *(const int *) b;

	if (sort_rating[x] != sort_rating[y])
		return sort_rating[x] < sort_rating[y] ? -1 : 1;
	return (x > y) - (x < y);
}

static void
test_sort(void)
{
	static const int sizes[] = {0, 1, 2, 7, 1000, 100000};
	double	   *r = malloc(sizeof(double) * 100000);
	int		   *order = malloc(sizeof(int) * 100000),
			   *expect = malloc(sizeof(int) * 100000);

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (int kind = 0; kind < 4; kind++)
		{
			int			n = sizes[s],
						same = 1;

			for (int i = 0; i < n; i++)
				switch (kind)
				{
					case 0:		/* a normal pool */
						r[i] = 1500 + 300 * (uniform() + uniform() + uniform() - 1.5);
						break;
					case 1:		/* many ties, -0 and +0, negatives */
						r[i] = (int) (7 * uniform()) - 3;
						if (r[i] == 0.0 && uniform() < 0.5)
							r[i] = -0.0;
						break;
					case 2:		/* extremes of the double range */
						r[i] = (uniform() < 0.5 ? -1 : 1) * (uniform() < 0.3 ? 1e300 * uniform() : 1e-300 * uniform());
						break;
					default:	/* every rating the same */
						r[i] = 1500;
						break;
				}
			for (int i = 0; i < n; i++)
				expect[i] = i;
			sort_rating = r;
			qsort(expect, n, sizeof(int), cmp_rating_position);
			glicko_mm_sort_by_rating(r, n, order, &env);
			for (int i = 0; i < n; i++)
				same &= order[i] == expect[i];
			CHECK(same);
		}
	free(r);
	free(order);
	free(expect);
}

/* The heuristic's gap to the exact split, two teams, 'sum' (the default). */
static void
print_gap(void)
{
	static const int sizes[] = {16, 20, 24};
	GlickoTeamMethod method = GLICKO_TEAM_SUM;

	printf("players  lobbies  mean gap |p-0.5|  max gap     exact found by heuristic  exact ms  heuristic ms\n");
	for (size_t s = 0; s < 3; s++)
	{
		int			n = sizes[s],
					lobbies = 100,
					same = 0,
					team[24],
					bad;
		double		sum = 0.0,
					worst = 0.0,
					exact_ms = 0.0,
					heur_ms = 0.0;

		for (int l = 0; l < lobbies; l++)
		{
			Glicko2Rating p[24];
			double		e,
						h;
			clock_t		t0,
						t1,
						t2;

			random_lobby(p, n);
			t0 = clock();
			glicko_mm_balance_exact(p, NULL, n, 2, method, NULL, team, &bad, &env);
			t1 = clock();
			e = glicko_mm_split_cost(p, n, team, 2, method, NULL, NULL);
			glicko_mm_balance_heuristic(p, NULL, n, 2, method, NULL, team, &bad, &env);
			t2 = clock();
			h = glicko_mm_split_cost(p, n, team, 2, method, NULL, NULL);
			exact_ms += 1000.0 * (t1 - t0) / CLOCKS_PER_SEC;
			heur_ms += 1000.0 * (t2 - t1) / CLOCKS_PER_SEC;
			sum += h - e;
			if (h - e > worst)
				worst = h - e;
			same += h - e <= 1e-15;
		}
		printf("%7d  %7d  %16.3g  %10.3g  %25d  %8.3f  %12.3f\n", n, lobbies,
			   sum / lobbies, worst, same, exact_ms / lobbies, heur_ms / lobbies);
	}
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--gap") == 0)
	{
		print_gap();
		return 0;
	}
	test_balance_brute();
	test_balance_cases();
	test_balance_edges();
	test_parties_fit();
	test_parties_fit_example();
	test_heuristic();
	test_deterministic();
	test_poll();
	test_pairing_brute();
	test_runs();
	test_sort();
	printf("%d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}
