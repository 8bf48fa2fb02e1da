// The team model with a store of teammates' covariances (issue 33;
// docs/matches.md, "Recurring teammates"), written independently of the C in
// src/core/teammates.c so that the two can be compared.  A period:
//   1. the pairs modelled jointly, R: the stored pairs and every pair of
//      teammates in at least RECUR matches of the period, at most K_PAIRS a
//      player (stored first by |correlation|, then by matches together);
//   2. each player with games, over his neighbourhood N = {him} + his pairs:
//      prior Sigma = diag(phi^2 + sigma^2) with the stored covariances; every
//      team-pair game of a member of N gives lambda h^2 E(1-E) c c' and
//      lambda h (s - E) c (c = +a on the first team's members in N, -a on
//      the second's; players outside N folded into h as today); one Newton
//      step P = Sigma^-1 + J, delta = P^-1 g; his own Steps 5-8 run on the
//      effective sums I = 1/P^-1_ii - 1/Sigma_ii, S = delta_i / P^-1_ii;
//      a player without pairs gets today's terms (team_model.js);
//   3. every pair's correlation, the mean of the two players' solves (the
//      one with games if only one has), times the new RDs is its covariance;
//      |correlation| below PRUNE is dropped, and K_PAIRS kept a player.
import { SCALE, Sums, closePlayer, logistic, newRating } from './glicko2.js';
import { addMatch, lambdaOf, teamOf } from './team_model.js';

const PI2 = Math.PI * Math.PI;
export const K_PAIRS = 4;
export const RECUR = 2;
export const PRUNE = 0.02;

const key = (a, b) => (a < b ? `${a},${b}` : `${b},${a}`);
const placeScore = (a, b) => (a < b ? 1 : a > b ? 0 : 0.5);

// Greedy bounded selection: pairs [{a, b, rank...}] in order, each kept while
// both players have fewer than K_PAIRS.
function bounded(pairs) {
  const n = new Map(), kept = [];
  for (const p of pairs) {
    if ((n.get(p.a) ?? 0) >= K_PAIRS || (n.get(p.b) ?? 0) >= K_PAIRS) continue;
    n.set(p.a, (n.get(p.a) ?? 0) + 1); n.set(p.b, (n.get(p.b) ?? 0) + 1);
    kept.push(p);
  }
  return kept;
}

function cholesky(A) {
  const n = A.length, L = A.map((r) => r.map(() => 0));
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = A[i][j];
      for (let k = 0; k < j; k++) s -= L[i][k] * L[j][k];
      if (i === j) { if (!(s > 0)) return null; L[i][i] = Math.sqrt(s); } else L[i][j] = s / L[j][j];
    }
  return L;
}

function inverse(A) {
  const L = cholesky(A);
  if (!L) return null;
  const n = A.length, inv = A.map((r) => r.map(() => 0));
  for (let c = 0; c < n; c++) {
    const y = Array(n).fill(0);
    for (let i = 0; i < n; i++) {
      let s = i === c ? 1 : 0;
      for (let k = 0; k < i; k++) s -= L[i][k] * y[k];
      y[i] = s / L[i][i];
    }
    for (let i = n - 1; i >= 0; i--) {
      let s = y[i];
      for (let k = i + 1; k < n; k++) s -= L[k][i] * inv[k][c];
      inv[i][c] = s / L[i][i];
    }
  }
  return inv;
}

// The period's team-pair games: {teams: [t, u] (teamOf + ids), score, lambda}.
function gamesOf(matches, method, ratingOf, share, edges) {
  const games = [];
  for (const m of matches) {
    const teams = m.teams.map((t) => ({ ...teamOf(t.players, method, ratingOf, (id) => share(m, id), edges && edges(m)), place: t.place }));
    const lambda = lambdaOf(teams.length);
    for (let x = 0; x < teams.length; x++)
      for (let y = x + 1; y < teams.length; y++)
        games.push({ t: teams[x], u: teams[y], score: placeScore(teams[x].place, teams[y].place), lambda });
  }
  return games;
}

export function closePeriodTeammates(ratings, store, matches, method,
                                     { tau = 0.5, maxRd = 350, share = null, edges = null } = {}) {
  const fresh = { ...newRating(), rd: Math.min(350, maxRd) };
  const ratingOf = (id) => ratings.get(id) ?? fresh;
  const shareOf = (m, id) => (share ? share(m, id) : 1);
  // 1. the pairs
  const together = new Map();
  for (const m of matches)
    for (const t of m.teams)
      for (let x = 0; x < t.players.length; x++)
        for (let y = x + 1; y < t.players.length; y++) {
          const k = key(t.players[x], t.players[y]);
          together.set(k, (together.get(k) ?? 0) + 1);
        }
  const cand = [];
  for (const [k, cov] of store) {
    const [a, b] = k.split(',').map(Number);
    cand.push({ a, b, stored: true, rank: Math.abs(cov) / (ratingOf(a).rd * ratingOf(b).rd) });
  }
  for (const [k, n] of together) if (n >= RECUR && !store.has(k)) {
    const [a, b] = k.split(',').map(Number);
    cand.push({ a, b, stored: false, rank: n });
  }
  cand.sort((p, q) => (p.stored !== q.stored ? (p.stored ? -1 : 1) : q.rank - p.rank || p.a - q.a || p.b - q.b));
  const pairs = bounded(cand);
  const partners = new Map();
  for (const p of pairs) {
    if (!partners.has(p.a)) partners.set(p.a, []);
    if (!partners.has(p.b)) partners.set(p.b, []);
    partners.get(p.a).push(p.b); partners.get(p.b).push(p.a);
  }
  // today's terms, and each player's games
  const sums = new Map();
  for (const m of matches) addMatch(sums, m, method, ratingOf, (id) => shareOf(m, id), edges);
  const games = gamesOf(matches, method, ratingOf, shareOf, edges);
  const gamesOfPlayer = new Map();
  games.forEach((g, gi) => {
    for (const p of [...g.t.members, ...g.u.members]) {
      if (!gamesOfPlayer.has(p.id)) gamesOfPlayer.set(p.id, []);
      gamesOfPlayer.get(p.id).push(gi);
    }
  });
  // 2. each player's neighbourhood
  const corr = new Map();   // pair key -> [correlations from the solves]
  const effective = new Map();
  for (const [id] of sums) {
    const ps = partners.get(id);
    if (!ps) continue;
    const N = [id, ...ps].sort((x, y) => x - y);
    const at = new Map(N.map((j, k) => [j, k]));
    const n = N.length;
    const S = N.map((j) => N.map(() => 0));
    N.forEach((j, k) => {
      const r = ratingOf(j), phi = r.rd / SCALE;
      S[k][k] = phi * phi + r.volatility * r.volatility;
    });
    for (let x = 0; x < n; x++)
      for (let y = x + 1; y < n; y++) {
        const c = store.get(key(N[x], N[y]));
        if (c !== undefined) S[x][y] = S[y][x] = c / (SCALE * SCALE);
      }
    // (the covariances halved until the prior is positive definite, at
    // most 64 times, then dropped)
    let Sinv = inverse(S);
    for (let tries = 0; !Sinv; tries++) {
      for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) if (x !== y) S[x][y] = tries === 64 ? 0 : S[x][y] / 2;
      Sinv = inverse(S);
    }
    const P = Sinv.map((r) => r.slice()), g = Array(n).fill(0);
    const seen = new Set();
    for (const j of N) for (const gi of gamesOfPlayer.get(j) ?? []) seen.add(gi);
    for (const gi of seen) {
      const { t, u, score, lambda } = games[gi];
      const c = Array(n).fill(0);
      let out = 0;
      for (const [team, sign] of [[t, 1], [u, -1]])
        for (const p of team.members) {
          if (at.has(p.id)) c[at.get(p.id)] += sign * p.a;
          else out += p.a * p.a * p.phi * p.phi;
        }
      const s2 = (t.A + u.A) / 2;
      const h = 1 / Math.sqrt(s2 + 3 * out / PI2);
      const [e, oneMinusE] = logistic(h * (t.M - u.M));
      const w = lambda * h * h * e * oneMinusE, v = lambda * h * (score * oneMinusE - (1 - score) * e);
      for (let x = 0; x < n; x++) {
        g[x] += v * c[x];
        for (let y = 0; y < n; y++) P[x][y] += w * c[x] * c[y];
      }
    }
    const Q = inverse(P);
    const me = at.get(id);
    const delta = Q[me].reduce((s, q, k) => s + q * g[k], 0);
    const r = ratingOf(id), phiStar2 = S[me][me];
    effective.set(id, { information: Math.max(0, 1 / Q[me][me] - 1 / phiStar2), surprise: delta / Q[me][me] });
    for (const j of ps) {
      const k = key(id, j);
      if (!corr.has(k)) corr.set(k, []);
      corr.get(k).push(Q[me][at.get(j)] / Math.sqrt(Q[me][me] * Q[at.get(j)][at.get(j)]));
    }
  }
  // Steps 5-8
  const out = new Map();
  for (const id of new Set([...ratings.keys(), ...sums.keys()])) {
    let s = sums.get(id) ?? new Sums();
    const eff = effective.get(id);
    if (eff) { s = new Sums(); s.add(eff.information, eff.surprise); }
    out.set(id, closePlayer(ratingOf(id), s, tau, maxRd));
  }
  // 3. the store
  const kept = [];
  for (const p of pairs) {
    const k = key(p.a, p.b);
    const cs = corr.get(k);
    let rho;
    if (cs) rho = cs.reduce((x, y) => x + y, 0) / cs.length;
    else rho = store.get(k) / (out.get(p.a).rd * out.get(p.b).rd);   // both idle: covariance kept
    if (Math.abs(rho) >= PRUNE && Math.abs(rho) < 1) kept.push({ a: Math.min(p.a, p.b), b: Math.max(p.a, p.b), rho });
  }
  kept.sort((p, q) => Math.abs(q.rho) - Math.abs(p.rho) || p.a - q.a || p.b - q.b);
  const newStore = new Map();
  for (const p of bounded(kept)) newStore.set(`${p.a},${p.b}`, p.rho * out.get(p.a).rd * out.get(p.b).rd);
  return { ratings: out, store: newStore };
}

// P(team a beats team b) counting the stored covariances of their players:
// Var(D) = c' Sigma c over both teams (c = +a on a, -a on b).
export function teammatesWinProbability(ta, tb, store) {
  const all = [...ta.members.map((p) => ({ ...p, c: p.a })), ...tb.members.map((p) => ({ ...p, c: -p.a }))];
  let v = 0;
  for (const p of all) v += p.a * p.a * p.phi * p.phi;
  for (let x = 0; x < all.length; x++)
    for (let y = x + 1; y < all.length; y++) {
      const c = store.get(key(all[x].id, all[y].id));
      if (c !== undefined) v += 2 * all[x].c * all[y].c * c / (SCALE * SCALE);
    }
  const s2 = (ta.A + tb.A) / 2;
  return logistic((ta.M - tb.M) / Math.sqrt(s2 + 3 * Math.max(v, 0) / PI2))[0];
}
