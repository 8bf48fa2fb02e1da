#!/usr/bin/env python3
"""Independent reference for the teammates store (test/sql/matches_teammates.sql):
docs/matches.md's "Recurring teammates" written out directly (Gauss-Jordan
inverses, no sorting, no shared code with src/core/teammates.c), then the
paper's Steps 5-8 from team_reference.py.  A trio (players 1-3) plays two
matches in period 1 (beats trio 4-6, loses to trio 7-9), so its three pairs
recur; in period 2 it loses to trio 4-6 with the pairs' covariances stored,
and trio 7-9 is idle.  'sum', shares 1, tau 0.5.
Run: python3 test/unit/teammates_reference.py

With --live, the live trigger's store (test/sql/live_matches_teammates.sql):
the same players rate LIVE's matches one at a time, each a period of its own
with no Step 6 (elapsed 0) and pairs made by one match together (recur 1).
Run: python3 test/unit/teammates_reference.py --live"""
import math
import sys

from team_reference import S, update

START = {1: (1600, 80), 2: (1450, 200), 3: (1520, 150), 4: (1550, 120), 5: (1500, 350),
         6: (1480, 100), 7: (1500, 90), 8: (1620, 110), 9: (1400, 250)}
PERIODS = [
    # (team of players, place) per team, per match
    [[((1, 2, 3), 1), ((4, 5, 6), 2)], [((1, 2, 3), 2), ((7, 8, 9), 1)]],
    [[((1, 2, 3), 2), ((4, 5, 6), 1)]],
]


def inverse(A):
    n = len(A)
    M = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        d = M[c][c]
        M[c] = [x / d for x in M[c]]
        for r in range(n):
            if r != c:
                f = M[r][c]
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    return [row[n:] for row in M]


def close(ratings, store, matches, elapsed=1.0, recur=2):
    """ratings: {id: (rating, rd, sigma)}; store: {(a, b): covariance};
    returns the new ratings and store.  elapsed: Step 6's periods in the prior (a
    close 1; a live match 0, with recur 1: the match is the whole period)."""
    mu = {i: (r[0] - 1500) / S for i, r in ratings.items()}
    phi2 = {i: (r[1] / S) ** 2 for i, r in ratings.items()}
    # pairs: stored, or teammates in 2 matches or more (at most 4 a player:
    # never reached here)
    together = {}
    for m in matches:
        for players, _ in m:
            for x in players:
                for y in players:
                    if x < y:
                        together[(x, y)] = together.get((x, y), 0) + 1
    pairs = set(store) | {p for p, n in together.items() if n >= recur}
    played = {i for m in matches for players, _ in m for i in players}
    # every team-pair game: (first team, second team, score of the first, lambda)
    games = []
    for m in matches:
        k = len(m)   # lambda_m of a free-for-all of k teams (team_reference.py)
        lam = 4 * (k - sum(1.0 / r for r in range(1, k + 1))) / (k * (k - 1)) if k > 2 else 1.0
        for x in range(len(m)):
            for y in range(x + 1, len(m)):
                (t, pt), (u, pu) = m[x], m[y]
                games.append((t, u, 1.0 if pt < pu else 0.0 if pt > pu else 0.5, lam))
    sums = {}
    corr = {}
    for i in sorted(played):
        partners = sorted({b for a, b in pairs if a == i} | {a for a, b in pairs if b == i})
        N = [i] + partners
        n = len(N)
        Sigma = [[0.0] * n for _ in range(n)]
        for x in range(n):
            Sigma[x][x] = phi2[N[x]] + elapsed * ratings[N[x]][2] ** 2
            for y in range(n):
                if x != y:
                    key = (min(N[x], N[y]), max(N[x], N[y]))
                    Sigma[x][y] = store.get(key, 0.0) / S ** 2
        P = inverse(Sigma)
        g = [0.0] * n
        for t, u, s, lam in games:
            if not any(j in t or j in u for j in N):
                continue
            c = [1.0 if j in t else -1.0 if j in u else 0.0 for j in N]
            out = sum(phi2[j] for j in t + u if j not in N)
            h = 1 / math.sqrt(len(t + u) / 2 + 3 * out / math.pi ** 2)
            E = 1 / (1 + math.exp(-h * (sum(mu[j] for j in t) - sum(mu[j] for j in u))))
            for x in range(n):
                g[x] += lam * h * (s - E) * c[x]
                for y in range(n):
                    P[x][y] += lam * h * h * E * (1 - E) * c[x] * c[y]
        Q = inverse(P)
        delta = sum(Q[0][k] * g[k] for k in range(n))
        if n == 1:
            sums[i] = (P[0][0] - 1 / Sigma[0][0], g[0])
        else:
            sums[i] = (1 / Q[0][0] - 1 / Sigma[0][0], delta / Q[0][0])
        for k in range(1, n):
            key = (min(i, N[k]), max(i, N[k]))
            corr.setdefault(key, []).append(Q[0][k] / math.sqrt(Q[0][0] * Q[k][k]))
    new = {}
    for i, (r, rd, sigma) in ratings.items():
        if i in sums:
            new[i] = update(r, rd, sigma, *sums[i], t=elapsed)
        else:
            new[i] = (r, min(350.0, S * math.sqrt((rd / S) ** 2 + elapsed * sigma ** 2)), sigma)
    new_store = {}
    for p in sorted(pairs):
        rho = sum(corr[p]) / len(corr[p]) if p in corr else store[p] / (new[p[0]][1] * new[p[1]][1])
        if abs(rho) >= 0.02:
            new_store[p] = rho * new[p[0]][1] * new[p[1]][1]
    return new, new_store


LIVE = [
    [((1, 2, 3), 1), ((4, 5, 6), 2)],
    [((1, 2, 3), 2), ((7, 8, 9), 1)],
    [((1, 2, 3), 2), ((4, 5, 6), 1)],
    [((1, 7), 1), ((8, 9), 2)],         # 1's partners 2 and 3 sit out
    [((2, 4), 2), ((3, 5), 1), ((6,), 3)],
]

if __name__ == '__main__' and sys.argv[1:] == ['--live']:
    ratings = {i: (r, rd, 0.06) for i, (r, rd) in START.items()}
    store = {}
    for k, match in enumerate(LIVE, 1):
        ratings, store = close(ratings, store, [match], elapsed=0.0, recur=1)
        print(f'after match {k}:')
        for i, (r, rd, sigma) in sorted(ratings.items()):
            print(f'  ({k}, {i}, {r!r}, {rd!r}, {sigma!r}),')
        for (a, b), c in sorted(store.items()):
            print(f'  pair ({k}, {a}, {b}, {c!r}),')
elif __name__ == '__main__':
    ratings = {i: (r, rd, 0.06) for i, (r, rd) in START.items()}
    store = {}
    for k, matches in enumerate(PERIODS, 1):
        ratings, store = close(ratings, store, matches)
        print(f'after period {k}:')
        for i, (r, rd, sigma) in sorted(ratings.items()):
            print(f'  ({k}, {i}, {r!r}, {rd!r}, {sigma!r}),')
        for (a, b), c in sorted(store.items()):
            print(f'  pair ({k}, {a}, {b}, {c!r}),')
