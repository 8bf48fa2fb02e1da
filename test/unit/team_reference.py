#!/usr/bin/env python3
"""Independent reference for the team model's examples (test/unit/team_test.c,
test/sql/matches_team.sql): TEAM_MATH's formulas for 'sum' and 'mean' written
out directly (no sorting, no shared code with src/core/team.c), then the
paper's Steps 5-8 (Glickman, "Example of the Glicko-2 system").
With parties and advantages (test/sql/matches_party.sql): each team's edge in
rating points, party_adv for every member of a party of two or more times
his a_i, plus size_adv (sum of shares - 1), enters D divided by S.
Run: python3 test/unit/team_reference.py"""
import math

S = 173.7178


def team_terms(players, places, method, parties=None, party_adv=0.0, size_adv=0.0):
    """players: list of (team, rating, rd, share); places: {team: place};
    parties: each player's party label or None (alone).
    Returns each player's summed (information, surprise)."""
    teams = sorted(places)
    m = len(teams)
    H = sum(1.0 / r for r in range(1, m + 1))
    lam = 4 * (m - H) / (m * (m - 1)) if m > 2 else 1.0
    def a(i):
        t, _, _, p = players[i]
        if method == 'sum':
            return p
        return p / sum(q[3] for q in players if q[0] == t)
    parties = parties or [None] * len(players)
    def edge(t):
        members = [j for j in range(len(players)) if players[j][0] == t]
        in_party = [j for j in members if parties[j] is not None
                    and sum(1 for k in members if parties[k] == parties[j]) >= 2]
        return (party_adv * sum(a(j) for j in in_party)
                + size_adv * (sum(players[j][3] for j in members) - 1))
    mu = [(r - 1500) / S for (_, r, _, _) in players]
    phi = [rd / S for (_, _, rd, _) in players]
    out = []
    for i, (t, _, _, _) in enumerate(players):
        info = surp = 0.0
        for u in teams:
            if u == t:
                continue
            both = [j for j in range(len(players)) if players[j][0] in (t, u)]
            M_t = sum(a(j) * mu[j] for j in both if players[j][0] == t)
            M_u = sum(a(j) * mu[j] for j in both if players[j][0] == u)
            s2 = sum(a(j) for j in both) / 2
            Phi2 = sum(a(j) ** 2 * phi[j] ** 2 for j in both if j != i)
            h = 1 / math.sqrt(s2 + 3 * Phi2 / math.pi ** 2)
            E = 1 / (1 + math.exp(-h * (M_t - M_u + (edge(t) - edge(u)) / S)))
            s = 1.0 if places[t] < places[u] else 0.0 if places[t] > places[u] else 0.5
            info += lam * (a(i) * h) ** 2 * E * (1 - E)
            surp += lam * a(i) * h * (s - E)
        out.append((info, surp))
    return out


def update(rating, rd, sigma, info, surp, tau=0.5, eps=1e-6, t=1.0):
    """The paper's Steps 2-8 from the two sums (v = 1/info, Delta = surp/info);
    t: Step 6's periods (glicko2_game's elapsed_periods; a live match 0)."""
    mu, phi = (rating - 1500) / S, rd / S
    v, delta = 1 / info, surp / info
    a = math.log(sigma ** 2)
    f = lambda x: (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x))
                   / (2 * (phi ** 2 + v + math.exp(x)) ** 2) - (x - a) / tau ** 2)
    A = a
    if delta ** 2 > phi ** 2 + v:
        B = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        B = a - k * tau
    fA, fB = f(A), f(B)
    while abs(B - A) > eps:
        C = A + (A - B) * fA / (fB - fA)
        fC = f(C)
        if fC * fB <= 0:
            A, fA = B, fB
        else:
            fA = fA / 2
        B, fB = C, fC
    sigma2 = math.exp(A / 2)
    phistar = math.sqrt(phi ** 2 + t * sigma2 ** 2)
    phi2 = 1 / math.sqrt(1 / phistar ** 2 + 1 / v)
    mu2 = mu + phi2 ** 2 * surp
    return S * mu2 + 1500, S * phi2, sigma2


EXAMPLES = {
    # 2v2: team 1 (1600/80, 1450/200) beats team 2 (1550/120, unrated).
    '2v2': ([(1, 1600, 80, 1.0), (1, 1450, 200, 1.0), (2, 1550, 120, 1.0), (2, 1500, 350, 1.0)],
            {1: 1, 2: 2}),
    # The same with the second player of team 1 playing half the match.
    '2v2 half': ([(1, 1600, 80, 1.0), (1, 1450, 200, 0.5), (2, 1550, 120, 1.0), (2, 1500, 350, 1.0)],
                 {1: 1, 2: 2}),
    # 3 teams of 1, 2, 3 players: team 2 first, teams 1 and 3 tied second.
    '3 teams': ([(1, 1700, 60, 1.0), (2, 1500, 100, 1.0), (2, 1400, 300, 1.0),
                 (3, 1500, 350, 1.0), (3, 1650, 150, 1.0), (3, 1350, 90, 1.0)],
                {1: 2, 2: 1, 3: 2}),
}

# With parties and edges: (players, places, parties, party_adv, size_adv).
EDGED = {
    # The 2v2 with team 1 a party of two: +40 a member.
    '2v2 party': (EXAMPLES['2v2'][0], EXAMPLES['2v2'][1], ['x', 'x', None, None], 40.0, 0.0),
    # A trio (two of them a party, one at half time) beats a duo of strangers
    # and a solo: +40 a party member, +25 a member beyond one.
    'uneven': ([(1, 1600, 80, 1.0), (1, 1450, 200, 1.0), (1, 1500, 120, 0.5),
                (2, 1700, 60, 1.0), (2, 1500, 350, 1.0), (3, 1650, 150, 1.0)],
               {1: 1, 2: 2, 3: 3}, ['p', 'p', None, 'q', None, 'r'], 40.0, 25.0),
}


def show(name, players, places, method, *edged):
    print(f'{name} {method}:')
    for (t, r, rd, p), (info, surp) in zip(players, team_terms(players, places, method, *edged)):
        new = update(r, rd, 0.06, info, surp)
        print(f'  team {t} {r}/{rd} share {p}: information {info!r}, surprise {surp!r}; '
              f'new {new[0]!r} {new[1]!r} {new[2]!r}')


if __name__ == '__main__':
    for name, (players, places, parties, pa, sa) in EDGED.items():
        for method in ('sum', 'mean'):
            show(name, players, places, method, parties, pa, sa)
    for name, (players, places) in EXAMPLES.items():
        for method in ('sum', 'mean'):
            show(name, players, places, method)
